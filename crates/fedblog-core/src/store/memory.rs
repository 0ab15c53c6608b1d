//! `MemoryStore`: the in-memory reference implementation of every store trait, for tests and embedding.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::RwLock;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::*;
use crate::error::{StoreError, StoreResult};

#[derive(Default)]
struct Inner {
    accounts: BTreeMap<Id, AccountRecord>,
    users: BTreeMap<Id, UserRecord>,
    apps: BTreeMap<Id, AppRecord>,
    authorizations: HashMap<String, AuthorizationRecord>,
    tokens: HashMap<String, TokenRecord>,
    statuses: BTreeMap<Id, StatusRecord>,
    /// (follower, target) -> follow id
    follows: BTreeMap<(Id, Id), Id>,
    /// (follower, target) -> follow request id
    follow_requests: BTreeMap<(Id, Id), Id>,
    /// (account, target) -> block id
    blocks: BTreeMap<(Id, Id), Id>,
    /// (account, target) -> mute
    mutes: BTreeMap<(Id, Id), MuteRecord>,
    /// account -> status ids in its home feed
    feeds: HashMap<Id, BTreeSet<Id>>,
    jobs: BTreeMap<Id, JobRecord>,
    scheduled_statuses: BTreeMap<Id, ScheduledStatusRecord>,
}

/// Keeps everything in memory behind one lock. Cloning is not offered: share it in an `Arc`.
#[derive(Default)]
pub struct MemoryStore {
    inner: RwLock<Inner>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn read(&self) -> StoreResult<std::sync::RwLockReadGuard<'_, Inner>> {
        self.inner
            .read()
            .map_err(|_| StoreError::Backend("memory store lock poisoned".into()))
    }

    fn write(&self) -> StoreResult<std::sync::RwLockWriteGuard<'_, Inner>> {
        self.inner
            .write()
            .map_err(|_| StoreError::Backend("memory store lock poisoned".into()))
    }
}

impl Inner {
    /// Removes a follow and updates both counters; returns whether it existed.
    fn remove_follow(&mut self, follower: Id, target: Id) -> bool {
        if self.follows.remove(&(follower, target)).is_none() {
            return false;
        }
        if let Some(a) = self.accounts.get_mut(&follower) {
            a.following_count = (a.following_count - 1).max(0);
        }
        if let Some(a) = self.accounts.get_mut(&target) {
            a.followers_count = (a.followers_count - 1).max(0);
        }
        true
    }
}

/// Whether a mute is in force at `now`: one whose `expires_at` is at or before `now` has expired.
fn mute_in_force(m: &MuteRecord, now: DateTime<Utc>) -> bool {
    m.expires_at.is_none_or(|t| t > now)
}

fn same_name(a: &AccountRecord, username: &str, domain: Option<&str>) -> bool {
    a.username.eq_ignore_ascii_case(username)
        && match (&a.domain, domain) {
            (None, None) => true,
            (Some(x), Some(y)) => x.eq_ignore_ascii_case(y),
            _ => false,
        }
}

#[async_trait]
impl AccountStore for MemoryStore {
    async fn insert_local_account(
        &self,
        account: &AccountRecord,
        user: &UserRecord,
    ) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.accounts
            .values()
            .any(|a| same_name(a, &account.username, None))
        {
            return Err(StoreError::AlreadyExists("username".into()));
        }
        if g.users
            .values()
            .any(|u| u.email.eq_ignore_ascii_case(&user.email))
        {
            return Err(StoreError::AlreadyExists("email".into()));
        }
        if g.accounts.contains_key(&account.id) {
            return Err(StoreError::AlreadyExists("account".into()));
        }
        g.accounts.insert(account.id, account.clone());
        g.users.insert(account.id, user.clone());
        Ok(())
    }

    async fn insert_remote_account(&self, account: &AccountRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.accounts
            .values()
            .any(|a| same_name(a, &account.username, account.domain.as_deref()))
        {
            return Err(StoreError::AlreadyExists("username".into()));
        }
        if g.accounts.contains_key(&account.id) {
            return Err(StoreError::AlreadyExists("account".into()));
        }
        g.accounts.insert(account.id, account.clone());
        Ok(())
    }

    async fn account_by_id(&self, id: Id) -> StoreResult<Option<AccountRecord>> {
        Ok(self.read()?.accounts.get(&id).cloned())
    }

    async fn accounts_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<AccountRecord>> {
        let g = self.read()?;
        Ok(ids
            .iter()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .filter_map(|id| g.accounts.get(id).cloned())
            .collect())
    }

    async fn account_by_username(
        &self,
        username: &str,
        domain: Option<&str>,
    ) -> StoreResult<Option<AccountRecord>> {
        Ok(self
            .read()?
            .accounts
            .values()
            .find(|a| same_name(a, username, domain))
            .cloned())
    }

    async fn update_account(&self, account: &AccountRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        let cur = g
            .accounts
            .get_mut(&account.id)
            .ok_or(StoreError::NotFound)?;
        let keep = cur.clone();
        *cur = account.clone();
        cur.username = keep.username;
        cur.domain = keep.domain;
        cur.created_at = keep.created_at;
        cur.statuses_count = keep.statuses_count;
        cur.followers_count = keep.followers_count;
        cur.following_count = keep.following_count;
        cur.last_status_at = keep.last_status_at;
        Ok(())
    }

    async fn user_by_account_id(&self, account_id: Id) -> StoreResult<Option<UserRecord>> {
        Ok(self.read()?.users.get(&account_id).cloned())
    }

    async fn user_by_email(&self, email: &str) -> StoreResult<Option<UserRecord>> {
        Ok(self
            .read()?
            .users
            .values()
            .find(|u| u.email.eq_ignore_ascii_case(email))
            .cloned())
    }

    async fn user_by_confirmation_token(
        &self,
        token_hash: &str,
    ) -> StoreResult<Option<UserRecord>> {
        Ok(self
            .read()?
            .users
            .values()
            .find(|u| u.confirmation_token_hash.as_deref() == Some(token_hash))
            .cloned())
    }

    async fn update_user(&self, user: &UserRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.users
            .values()
            .any(|u| u.account_id != user.account_id && u.email.eq_ignore_ascii_case(&user.email))
        {
            return Err(StoreError::AlreadyExists("email".into()));
        }
        let cur = g
            .users
            .get_mut(&user.account_id)
            .ok_or(StoreError::NotFound)?;
        let created_at = cur.created_at;
        *cur = user.clone();
        cur.created_at = created_at;
        Ok(())
    }
}

#[async_trait]
impl OAuthStore for MemoryStore {
    async fn insert_app(&self, app: &AppRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.apps.values().any(|a| a.client_id == app.client_id) || g.apps.contains_key(&app.id) {
            return Err(StoreError::AlreadyExists("client_id".into()));
        }
        g.apps.insert(app.id, app.clone());
        Ok(())
    }

    async fn app_by_id(&self, id: Id) -> StoreResult<Option<AppRecord>> {
        Ok(self.read()?.apps.get(&id).cloned())
    }

    async fn app_by_client_id(&self, client_id: &str) -> StoreResult<Option<AppRecord>> {
        Ok(self
            .read()?
            .apps
            .values()
            .find(|a| a.client_id == client_id)
            .cloned())
    }

    async fn insert_authorization(&self, auth: &AuthorizationRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.authorizations.contains_key(&auth.code_hash) {
            return Err(StoreError::AlreadyExists("code".into()));
        }
        g.authorizations
            .insert(auth.code_hash.clone(), auth.clone());
        Ok(())
    }

    async fn take_authorization(
        &self,
        code_hash: &str,
    ) -> StoreResult<Option<AuthorizationRecord>> {
        Ok(self.write()?.authorizations.remove(code_hash))
    }

    async fn insert_token(&self, token: &TokenRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.tokens.contains_key(&token.token_hash) {
            return Err(StoreError::AlreadyExists("token".into()));
        }
        g.tokens.insert(token.token_hash.clone(), token.clone());
        Ok(())
    }

    async fn token_by_hash(&self, token_hash: &str) -> StoreResult<Option<TokenRecord>> {
        Ok(self.read()?.tokens.get(token_hash).cloned())
    }

    async fn revoke_token(&self, token_hash: &str, at: DateTime<Utc>) -> StoreResult<bool> {
        let mut g = self.write()?;
        match g.tokens.get_mut(token_hash) {
            Some(t) if t.revoked_at.is_none() => {
                t.revoked_at = Some(at);
                Ok(true)
            }
            _ => Ok(false),
        }
    }
}

#[async_trait]
impl StatusStore for MemoryStore {
    async fn insert_status(&self, status: &StatusRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.statuses.contains_key(&status.id) {
            return Err(StoreError::AlreadyExists("status".into()));
        }
        g.statuses.insert(status.id, status.clone());
        if let Some(a) = g.accounts.get_mut(&status.account_id) {
            a.statuses_count += 1;
            if a.last_status_at.is_none_or(|t| t < status.created_at) {
                a.last_status_at = Some(status.created_at);
            }
        }
        Ok(())
    }

    async fn status_by_id(&self, id: Id) -> StoreResult<Option<StatusRecord>> {
        Ok(self.read()?.statuses.get(&id).cloned())
    }

    async fn statuses_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<StatusRecord>> {
        let g = self.read()?;
        Ok(ids
            .iter()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .filter_map(|id| g.statuses.get(id).cloned())
            .collect())
    }

    async fn status_by_idempotency_key(
        &self,
        account_id: Id,
        key: &str,
        since: DateTime<Utc>,
    ) -> StoreResult<Option<StatusRecord>> {
        Ok(self
            .read()?
            .statuses
            .values()
            .rev()
            .find(|s| {
                s.account_id == account_id
                    && s.idempotency_key.as_deref() == Some(key)
                    && s.created_at >= since
            })
            .cloned())
    }

    async fn delete_status(&self, id: Id) -> StoreResult<()> {
        let mut g = self.write()?;
        let s = g.statuses.remove(&id).ok_or(StoreError::NotFound)?;
        for feed in g.feeds.values_mut() {
            feed.remove(&id);
        }
        if let Some(a) = g.accounts.get_mut(&s.account_id) {
            a.statuses_count = (a.statuses_count - 1).max(0);
        }
        Ok(())
    }

    async fn public_timeline(
        &self,
        filter: PublicTimelineFilter,
        page: Page,
    ) -> StoreResult<Vec<StatusRecord>> {
        let g = self.read()?;
        let visible = g.statuses.values().rev().filter(|s| {
            s.visibility == Visibility::Public
                && !s.is_reply_to_other()
                && (!filter.local || s.local)
                && (!filter.remote || !s.local)
                && (!filter.only_media || s.has_media)
                && g.accounts
                    .get(&s.account_id)
                    .is_some_and(|a| !a.is_suspended())
        });
        Ok(page.apply(visible, |s| s.id).into_iter().cloned().collect())
    }
}

#[async_trait]
impl FollowStore for MemoryStore {
    async fn insert_follow(&self, id: Id, follower: Id, target: Id) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.follows.contains_key(&(follower, target)) {
            return Ok(());
        }
        g.follows.insert((follower, target), id);
        if let Some(a) = g.accounts.get_mut(&follower) {
            a.following_count += 1;
        }
        if let Some(a) = g.accounts.get_mut(&target) {
            a.followers_count += 1;
        }
        Ok(())
    }

    async fn delete_follow(&self, follower: Id, target: Id) -> StoreResult<bool> {
        Ok(self.write()?.remove_follow(follower, target))
    }

    async fn follows(&self, follower: Id, target: Id) -> StoreResult<bool> {
        Ok(self.read()?.follows.contains_key(&(follower, target)))
    }

    async fn local_follower_ids(&self, target: Id) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        Ok(g.follows
            .keys()
            .filter(|(_, t)| *t == target)
            .map(|(f, _)| *f)
            .filter(|f| g.accounts.get(f).is_some_and(AccountRecord::is_local))
            .collect())
    }

    async fn followers_page(&self, target: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        let g = self.read()?;
        let mut rows: Vec<(Id, Id)> = g
            .follows
            .iter()
            .filter(|((_, t), _)| *t == target)
            .map(|((f, _), id)| (*id, *f))
            .collect();
        rows.sort_unstable_by_key(|r| std::cmp::Reverse(r.0));
        Ok(page.apply(rows.into_iter(), |r| r.0))
    }

    async fn following_page(&self, follower: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        let g = self.read()?;
        let mut rows: Vec<(Id, Id)> = g
            .follows
            .range((follower, Id(0))..=(follower, Id(u64::MAX)))
            .map(|((_, t), id)| (*id, *t))
            .collect();
        rows.sort_unstable_by_key(|r| std::cmp::Reverse(r.0));
        Ok(page.apply(rows.into_iter(), |r| r.0))
    }

    async fn insert_follow_request(&self, id: Id, follower: Id, target: Id) -> StoreResult<()> {
        self.write()?
            .follow_requests
            .entry((follower, target))
            .or_insert(id);
        Ok(())
    }

    async fn delete_follow_request(&self, follower: Id, target: Id) -> StoreResult<bool> {
        Ok(self
            .write()?
            .follow_requests
            .remove(&(follower, target))
            .is_some())
    }

    async fn follow_requested(&self, follower: Id, target: Id) -> StoreResult<bool> {
        Ok(self
            .read()?
            .follow_requests
            .contains_key(&(follower, target)))
    }

    async fn follow_requests_page(&self, target: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        let g = self.read()?;
        let mut rows: Vec<(Id, Id)> = g
            .follow_requests
            .iter()
            .filter(|((_, t), _)| *t == target)
            .map(|((f, _), id)| (*id, *f))
            .collect();
        rows.sort_unstable_by_key(|r| std::cmp::Reverse(r.0));
        Ok(page.apply(rows.into_iter(), |r| r.0))
    }
}

#[async_trait]
impl BlockStore for MemoryStore {
    async fn insert_block(&self, id: Id, account: Id, target: Id) -> StoreResult<()> {
        let mut g = self.write()?;
        g.blocks.entry((account, target)).or_insert(id);
        g.remove_follow(account, target);
        g.remove_follow(target, account);
        g.follow_requests.remove(&(account, target));
        g.follow_requests.remove(&(target, account));
        Ok(())
    }

    async fn delete_block(&self, account: Id, target: Id) -> StoreResult<bool> {
        Ok(self.write()?.blocks.remove(&(account, target)).is_some())
    }

    async fn blocks(&self, account: Id, target: Id) -> StoreResult<bool> {
        Ok(self.read()?.blocks.contains_key(&(account, target)))
    }

    async fn blocked_either_way(&self, account: Id, others: &[Id]) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        let mut out: Vec<Id> = others
            .iter()
            .copied()
            .filter(|o| {
                g.blocks.contains_key(&(account, *o)) || g.blocks.contains_key(&(*o, account))
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    async fn blocks_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        let g = self.read()?;
        let mut rows: Vec<(Id, Id)> = g
            .blocks
            .range((account, Id(0))..=(account, Id(u64::MAX)))
            .map(|((_, t), id)| (*id, *t))
            .collect();
        rows.sort_unstable_by_key(|r| std::cmp::Reverse(r.0));
        Ok(page.apply(rows.into_iter(), |r| r.0))
    }

    async fn upsert_mute(&self, mute: &MuteRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        g.mutes
            .entry((mute.account_id, mute.target_id))
            .and_modify(|m| {
                m.notifications = mute.notifications;
                m.expires_at = mute.expires_at;
            })
            .or_insert_with(|| mute.clone());
        Ok(())
    }

    async fn delete_mute(&self, account: Id, target: Id) -> StoreResult<bool> {
        Ok(self.write()?.mutes.remove(&(account, target)).is_some())
    }

    async fn mute_of(
        &self,
        account: Id,
        target: Id,
        now: DateTime<Utc>,
    ) -> StoreResult<Option<MuteRecord>> {
        Ok(self
            .read()?
            .mutes
            .get(&(account, target))
            .filter(|m| mute_in_force(m, now))
            .cloned())
    }

    async fn muted_among(
        &self,
        account: Id,
        others: &[Id],
        now: DateTime<Utc>,
    ) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        let mut out: Vec<Id> = others
            .iter()
            .copied()
            .filter(|o| {
                g.mutes
                    .get(&(account, *o))
                    .is_some_and(|m| mute_in_force(m, now))
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    async fn mutes_page(
        &self,
        account: Id,
        now: DateTime<Utc>,
        page: Page,
    ) -> StoreResult<Vec<MuteRecord>> {
        let g = self.read()?;
        let mut rows: Vec<&MuteRecord> = g
            .mutes
            .range((account, Id(0))..=(account, Id(u64::MAX)))
            .map(|(_, m)| m)
            .filter(|m| mute_in_force(m, now))
            .collect();
        rows.sort_unstable_by_key(|m| std::cmp::Reverse(m.id));
        Ok(page
            .apply(rows.into_iter(), |m| m.id)
            .into_iter()
            .cloned()
            .collect())
    }
}

#[async_trait]
impl FeedStore for MemoryStore {
    async fn insert_feed_entries(
        &self,
        status_id: Id,
        _author_id: Id,
        account_ids: &[Id],
    ) -> StoreResult<()> {
        let mut g = self.write()?;
        for a in account_ids {
            g.feeds.entry(*a).or_default().insert(status_id);
        }
        Ok(())
    }

    async fn home_feed(&self, account_id: Id, page: Page) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        Ok(match g.feeds.get(&account_id) {
            Some(feed) => page.apply(feed.iter().rev().copied(), |id| *id),
            None => vec![],
        })
    }
}

#[async_trait]
impl StatsStore for MemoryStore {
    async fn count_local_accounts(&self) -> StoreResult<i64> {
        Ok(self
            .read()?
            .accounts
            .values()
            .filter(|a| a.is_local() && !a.is_suspended())
            .count() as i64)
    }

    async fn count_active_local_accounts(&self, since: DateTime<Utc>) -> StoreResult<i64> {
        let g = self.read()?;
        let active: BTreeSet<Id> = g
            .statuses
            .values()
            .filter(|s| s.local && s.created_at >= since)
            .map(|s| s.account_id)
            .collect();
        Ok(active.len() as i64)
    }

    async fn count_local_statuses(&self) -> StoreResult<i64> {
        Ok(self.read()?.statuses.values().filter(|s| s.local).count() as i64)
    }

    async fn known_domains(&self) -> StoreResult<Vec<String>> {
        let g = self.read()?;
        let set: BTreeSet<String> = g
            .accounts
            .values()
            .filter_map(|a| a.domain.clone())
            .map(|d| d.to_lowercase())
            .collect();
        Ok(set.into_iter().collect())
    }

    async fn activity_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<WeekActivity> {
        let g = self.read()?;
        let within = |t: DateTime<Utc>| t >= from && t < to;
        Ok(WeekActivity {
            statuses: g
                .statuses
                .values()
                .filter(|s| s.local && within(s.created_at))
                .count() as i64,
            logins: g
                .tokens
                .values()
                .filter(|t| t.account_id.is_some() && within(t.created_at))
                .count() as i64,
            registrations: g.users.values().filter(|u| within(u.created_at)).count() as i64,
        })
    }
}

/// Whether a worker may claim `job` at `now`: due and queued, or running on an expired lease.
fn claimable(job: &JobRecord, now: DateTime<Utc>) -> bool {
    match job.state {
        JobState::Queued => job.run_at <= now,
        JobState::Running => job.locked_until.is_some_and(|t| t < now),
        JobState::Done | JobState::Dead => false,
    }
}

/// Whether `worker` holds `job`: it is running and locked by that worker.
fn holds(job: &JobRecord, worker: &str) -> bool {
    job.state == JobState::Running && job.locked_by.as_deref() == Some(worker)
}

#[async_trait]
impl JobStore for MemoryStore {
    async fn enqueue_job(&self, job: &JobRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.jobs.contains_key(&job.id) {
            return Err(StoreError::AlreadyExists("job".into()));
        }
        g.jobs.insert(job.id, job.clone());
        Ok(())
    }

    async fn claim_jobs(
        &self,
        worker: &str,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> StoreResult<Vec<JobRecord>> {
        // One write lock for the selection and the update: concurrent claims cannot interleave.
        let mut g = self.write()?;
        let mut due: Vec<(DateTime<Utc>, Id)> = g
            .jobs
            .values()
            .filter(|j| claimable(j, now))
            .map(|j| (j.run_at, j.id))
            .collect();
        due.sort_unstable();
        due.truncate(limit);
        let mut claimed = Vec::with_capacity(due.len());
        for (_, id) in due {
            if let Some(job) = g.jobs.get_mut(&id) {
                job.state = JobState::Running;
                job.attempts += 1;
                job.locked_by = Some(worker.to_string());
                job.locked_until = Some(lease_until);
                claimed.push(job.clone());
            }
        }
        Ok(claimed)
    }

    async fn complete_job(&self, id: Id, worker: &str, at: DateTime<Utc>) -> StoreResult<bool> {
        let mut g = self.write()?;
        match g.jobs.get_mut(&id) {
            Some(job) if holds(job, worker) => {
                job.state = JobState::Done;
                job.locked_by = None;
                job.locked_until = None;
                job.finished_at = Some(at);
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    async fn fail_job(
        &self,
        id: Id,
        worker: &str,
        error: &str,
        retry_at: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> StoreResult<bool> {
        let mut g = self.write()?;
        match g.jobs.get_mut(&id) {
            Some(job) if holds(job, worker) => {
                job.last_error = Some(error.to_string());
                job.locked_by = None;
                job.locked_until = None;
                match retry_at {
                    Some(t) => {
                        job.state = JobState::Queued;
                        job.run_at = t;
                    }
                    None => {
                        job.state = JobState::Dead;
                        job.finished_at = Some(now);
                    }
                }
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    async fn job_by_id(&self, id: Id) -> StoreResult<Option<JobRecord>> {
        Ok(self.read()?.jobs.get(&id).cloned())
    }

    async fn reschedule_job(&self, id: Id, run_at: DateTime<Utc>) -> StoreResult<bool> {
        let mut g = self.write()?;
        match g.jobs.get_mut(&id) {
            Some(job) if job.state == JobState::Queued => {
                job.run_at = run_at;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    async fn cancel_job(&self, id: Id) -> StoreResult<bool> {
        let mut g = self.write()?;
        if g.jobs.get(&id).is_some_and(|j| j.state == JobState::Queued) {
            g.jobs.remove(&id);
            return Ok(true);
        }
        Ok(false)
    }

    async fn purge_done_jobs(&self, before: DateTime<Utc>) -> StoreResult<u64> {
        let mut g = self.write()?;
        let n = g.jobs.len();
        g.jobs.retain(|_, j| {
            !(j.state == JobState::Done && j.finished_at.is_some_and(|t| t < before))
        });
        Ok((n - g.jobs.len()) as u64)
    }

    async fn count_jobs(&self, state: JobState) -> StoreResult<i64> {
        Ok(self
            .read()?
            .jobs
            .values()
            .filter(|j| j.state == state)
            .count() as i64)
    }
}

#[async_trait]
impl ScheduledStatusStore for MemoryStore {
    async fn insert_scheduled_status(&self, s: &ScheduledStatusRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.scheduled_statuses.contains_key(&s.id) {
            return Err(StoreError::AlreadyExists("scheduled_status".into()));
        }
        g.scheduled_statuses.insert(s.id, s.clone());
        Ok(())
    }

    async fn scheduled_status_by_id(&self, id: Id) -> StoreResult<Option<ScheduledStatusRecord>> {
        Ok(self.read()?.scheduled_statuses.get(&id).cloned())
    }

    async fn scheduled_statuses(
        &self,
        account_id: Id,
        page: Page,
    ) -> StoreResult<Vec<ScheduledStatusRecord>> {
        let g = self.read()?;
        let own = g
            .scheduled_statuses
            .values()
            .rev()
            .filter(|s| s.account_id == account_id);
        Ok(page.apply(own, |s| s.id).into_iter().cloned().collect())
    }

    async fn update_scheduled_status(&self, s: &ScheduledStatusRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        let cur = g
            .scheduled_statuses
            .get_mut(&s.id)
            .ok_or(StoreError::NotFound)?;
        cur.scheduled_at = s.scheduled_at;
        cur.params = s.params.clone();
        Ok(())
    }

    async fn delete_scheduled_status(&self, id: Id) -> StoreResult<bool> {
        Ok(self.write()?.scheduled_statuses.remove(&id).is_some())
    }
}
