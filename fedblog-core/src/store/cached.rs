//! [`CachedStore`]: a store wrapper keeping the records read on almost every request (accounts,
//! logins, tokens, applications, statuses, each account's filters, notification policy, whether
//! it has blocks or mutes and the newest entries of its home feed, and each status's poll) in
//! memory, for a database that one process owns, as the server's embedded SQLite database is.
//!
//! Every method forwards to the wrapped store. These kinds of record are answered from memory
//! when present and younger than the time to live; every write that changes such records
//! through this store forgets them (the affected ones, or all of a kind for writes that touch
//! records they do not name, such as deleting a status or an account). A read that raced a write
//! never stores what it read: each kind has a generation that every forgetting raises, and what
//! a read brings is kept only if the generation did not move while it read.
//!
//! Writes by other processes are not seen by themselves: the time to live bounds how long such a
//! record may be served, unless they say so in one of two ways.
//! - A process that writes now and then beside the one serving (the admin CLI deleting an
//!   account while the server runs on SQLite) moves a change marker (see
//!   [`CachedStore::with_change_marker`]): when the marker moves, everything cached is
//!   forgotten before the next read.
//! - Processes that all serve one database (PostgreSQL) share a [`ChangeLog`] (see
//!   [`CachedStore::with_change_log`]): each write that forgets cached records here also takes a
//!   number in the log, and each process looks at the newest number at most once per
//!   [`CHANGE_LOOK_INTERVAL`], forgetting everything when another process took one. A request
//!   that wrote is answered only after [`ChangeLog::settle`], so whatever is asked after it, of
//!   any process, is answered with its writes.
//!
//! The store suite runs against it (over `MemoryStore` and over the server's SQLite store), so
//! it keeps every contract of the store traits.

use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use chrono::{DateTime, Utc};

use crate::error::StoreResult;
use crate::id::Id;
use crate::pagination::Page;
use crate::store::*;

/// How long a [`CachedStore`] with a [`ChangeLog`] trusts its last look at the log.
pub const CHANGE_LOOK_INTERVAL: Duration = Duration::from_millis(1);

/// How processes caching one shared database tell each other that they wrote (the server keeps
/// it in a PostgreSQL sequence). Numbers only grow, and each is taken once.
#[async_trait::async_trait]
pub trait ChangeLog: Send + Sync {
    /// Takes a new number: this process wrote records that others may hold.
    async fn record(&self) -> StoreResult<u64>;
    /// The newest number any process took (0 before the first).
    async fn newest(&self) -> StoreResult<u64>;
    /// Returns once every process's next look at the log began after this process's last
    /// [`ChangeLog::record`] (at least [`CHANGE_LOOK_INTERVAL`] after it): a request that wrote
    /// waits for it before it is answered.
    async fn settle(&self) {}
}

/// How many records of each kind, and for how long, a [`CachedStore`] keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheLimits {
    /// Records kept per kind; beyond it, expired ones go first, then arbitrary ones.
    pub capacity: usize,
    /// How long a record is served before it is read again.
    pub ttl: Duration,
}

impl Default for CacheLimits {
    fn default() -> Self {
        CacheLimits {
            capacity: 5_000,
            ttl: Duration::from_secs(10),
        }
    }
}

/// A store with an in-memory cache of accounts, logins, tokens, applications and statuses in
/// front of it (see the module documentation).
///
/// Every method of every store trait goes to its [`Caching`], which answers the cached ones
/// itself and hands the others to the wrapped store it dereferences to.
pub struct CachedStore {
    caching: Caching,
}

crate::delegate_store!(CachedStore => caching:
    AccountStore, OAuthStore, StatusStore, FollowStore, BlockStore, FeedStore, StatsStore,
    JobStore, ScheduledStatusStore, AccountNoteStore, DomainBlockStore, TagStore,
    DirectoryStore, InteractionStore, StatusEditStore, PollStore, MediaStore,
    NotificationStore, MarkerStore, ListStore, FilterStore, ConversationStore, LinkStore,
    NotificationPolicyStore, FederationStore);

/// The cache and the wrapped store. It implements no store trait, so a method it does not write
/// goes, through `Deref`, to the wrapped store and cannot call itself; the methods it writes
/// deny dead code, so one named as no trait method is (a typo, or a method renamed in the
/// trait) does not compile instead of being silently skipped.
struct Caching {
    inner: Arc<dyn Store>,
    cache: Records,
    marker: Option<ChangeMarker>,
    log: Option<SharedLog>,
}

/// A [`ChangeLog`] and what this process knows of it.
struct SharedLog {
    log: Arc<dyn ChangeLog>,
    state: Mutex<LogState>,
}

struct LogState {
    /// When the last look that answered began.
    looked_at: Option<Instant>,
    /// The newest number seen; the cache holds nothing older than the writes up to it.
    known: u64,
    /// Numbers this process took above `known`: seeing them is no reason to forget.
    own: BTreeSet<u64>,
}

impl std::ops::Deref for Caching {
    type Target = dyn Store;
    fn deref(&self) -> &dyn Store {
        &*self.inner
    }
}

/// Reads a value that another process changes when it writes to the database.
type ChangeMarker = (
    Box<dyn Fn() -> Option<SystemTime> + Send + Sync>,
    Mutex<Option<SystemTime>>,
);

impl CachedStore {
    /// Wraps `inner`.
    pub fn new(inner: Arc<dyn Store>, limits: CacheLimits) -> Self {
        let caching = Caching {
            inner,
            cache: Records {
                accounts: Kind::new(limits),
                users: Kind::new(limits),
                tokens: Kind::new(limits),
                apps: Kind::new(limits),
                statuses: Kind::new(limits),
                filters: Kind::new(limits),
                polls: Kind::new(limits),
                policies: Kind::new(limits),
                relations: Kind::new(limits),
                home_feeds: Kind::new(limits),
                public_timelines: Kind::new(limits),
            },
            marker: None,
            log: None,
        };
        CachedStore { caching }
    }

    /// The same cache, shared with other processes through `log`: it takes a number for every
    /// write that forgets cached records, and forgets everything when another process took one
    /// (see the module documentation).
    pub fn with_change_log(mut self, log: Arc<dyn ChangeLog>) -> Self {
        self.caching.log = Some(SharedLog {
            log,
            state: Mutex::new(LogState {
                looked_at: None,
                known: 0,
                own: BTreeSet::new(),
            }),
        });
        self
    }

    /// The same cache, forgetting everything whenever `marker` answers something else than it
    /// did at the previous read (it is asked before every cached read, so it must be cheap: the
    /// server reads a file's modification time, which the admin CLI moves after it writes).
    pub fn with_change_marker(
        mut self,
        marker: impl Fn() -> Option<SystemTime> + Send + Sync + 'static,
    ) -> Self {
        let seen = marker();
        self.caching.marker = Some((Box::new(marker), Mutex::new(seen)));
        self
    }
}

impl Caching {
    /// The cached records, forgotten first if another process marked a change or logged one.
    async fn fresh(&self) -> &Records {
        if let Some((read, seen)) = &self.marker {
            let now = read();
            let mut seen = seen.lock().unwrap_or_else(PoisonError::into_inner);
            if *seen != now {
                *seen = now;
                self.cache.clear_all();
            }
        }
        if let Some(log) = &self.log {
            log.look(&self.cache).await;
        }
        &self.cache
    }

    /// Tells the other processes that this one wrote (after forgetting what it cached).
    async fn wrote(&self) {
        if let Some(log) = &self.log {
            log.record().await;
        }
    }
}

impl SharedLog {
    fn lock(&self) -> MutexGuard<'_, LogState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Looks at the log unless a look began less than [`CHANGE_LOOK_INTERVAL`] ago, and forgets
    /// everything when another process took a number since the last look. A failed look forgets
    /// too (nothing says what changed), and the next read looks again.
    async fn look(&self, cache: &Records) {
        let began = Instant::now();
        if self
            .lock()
            .looked_at
            .is_some_and(|at| began.duration_since(at) < CHANGE_LOOK_INTERVAL)
        {
            return;
        }
        match self.log.newest().await {
            Ok(newest) => {
                let mut state = self.lock();
                if newest > state.known {
                    let mine = state.own.range(state.known + 1..=newest).count() as u64;
                    let others = newest - state.known > mine;
                    state.own = state.own.split_off(&(newest + 1));
                    state.known = newest;
                    if others {
                        cache.clear_all();
                    }
                }
                if state.looked_at.is_none_or(|at| at < began) {
                    state.looked_at = Some(began);
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the change log; forgetting the cache");
                cache.clear_all();
            }
        }
    }

    /// Takes a number for a write. When that fails the write stands, and other processes may
    /// serve what it changed until their copies expire.
    async fn record(&self) {
        match self.log.record().await {
            Ok(n) => {
                let mut state = self.lock();
                if n > state.known {
                    state.own.insert(n);
                }
            }
            Err(e) => tracing::warn!(
                error = %e,
                "cannot write to the change log; other processes may serve this write's records until they expire"
            ),
        }
    }
}

/// The cached kinds.
struct Records {
    accounts: Kind<Id, AccountRecord>,
    users: Kind<Id, UserRecord>,
    tokens: Kind<String, TokenRecord>,
    apps: Kind<Id, AppRecord>,
    statuses: Kind<Id, StatusRecord>,
    /// Each account's filters, by account.
    filters: Kind<Id, (Id, Vec<FilterRecord>)>,
    /// Each status's poll, or that it has none (most have none, and every rendered page asks).
    polls: Kind<Id, (Id, Option<PollRecord>)>,
    /// Each account's notification policy, or that it never saved one (read for every
    /// notification made).
    policies: Kind<Id, (Id, Option<NotificationPolicyRecord>)>,
    /// Whether each account may have blocks or mutes (most have none, and every page of
    /// statuses asks how the viewer stands with their authors).
    relations: Kind<Id, (Id, bool)>,
    /// The newest entries of each account's home feed (its first page is read by every client
    /// on every refresh, as Mastodon keeps home feeds in Redis for).
    home_feeds: Kind<Id, (Id, FeedWindow)>,
    /// The newest entries of each public timeline (local, remote, all, with media or not):
    /// forgotten by every status posted or deleted and every account changed (a suspension
    /// takes its statuses out).
    public_timelines: Kind<PublicTimelineFilter, (PublicTimelineFilter, FeedWindow)>,
}

/// How many of a home feed's newest entries a [`CachedStore`] keeps: two pages of Mastodon's
/// largest home page and then some, so that a refresh and the next page are read from memory.
const FEED_WINDOW: usize = 100;

/// The newest entries of one feed.
#[derive(Clone)]
struct FeedWindow {
    /// At most [`FEED_WINDOW`] status ids, newest first (shared: every hit hands out a copy).
    newest_first: Arc<[Id]>,
    /// Whether these are all of the feed's entries.
    complete: bool,
}

impl FeedWindow {
    fn new(newest_first: Vec<Id>) -> Self {
        FeedWindow {
            complete: newest_first.len() < FEED_WINDOW,
            newest_first: newest_first.into(),
        }
    }

    /// `page` of the feed, when the window alone decides it: always for a complete feed;
    /// otherwise for a page reading upwards from an id the window reaches, or a page reading
    /// downwards that the window fills (entries outside it are older than all inside).
    fn page(&self, page: &Page) -> Option<Vec<Id>> {
        let ids = page.apply(self.newest_first.iter().copied(), |id| *id);
        if self.complete {
            return Some(ids);
        }
        let oldest = *self.newest_first.last()?;
        let reaches = |bound: Option<Id>| bound.is_some_and(|b| b >= oldest);
        let decided = if page.ascending() {
            reaches(page.min_id)
        } else {
            ids.len() == page.limit || reaches(page.since_id)
        };
        decided.then_some(ids)
    }
}

impl Records {
    /// Forgets everything (applications never change, so they stay).
    fn clear_all(&self) {
        self.accounts.clear();
        self.users.clear();
        self.tokens.clear();
        self.statuses.clear();
        self.filters.clear();
        self.polls.clear();
        self.policies.clear();
        self.relations.clear();
        self.home_feeds.clear();
        self.public_timelines.clear();
    }
}

/// The cached records of one kind.
struct Kind<K, V> {
    limits: CacheLimits,
    state: Mutex<KindState<K, V>>,
}

struct KindState<K, V> {
    /// Raised by every forgetting; a read keeps what it brought only if it did not move.
    generation: u64,
    entries: HashMap<K, (Instant, V)>,
}

impl<K: Hash + Eq + Clone, V: Clone> Kind<K, V> {
    fn new(limits: CacheLimits) -> Self {
        Kind {
            limits,
            state: Mutex::new(KindState {
                generation: 0,
                entries: HashMap::new(),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, KindState<K, V>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The records of `keys` (each once; unknown ones skipped, as the stores answer): those in
    /// memory, and the others by one call of `load`, which are then kept unless a write forgot
    /// records of this kind meanwhile.
    async fn get_many<F, Fut>(
        &self,
        keys: &[K],
        load: F,
        key_of: impl Fn(&V) -> K,
    ) -> StoreResult<Vec<V>>
    where
        F: FnOnce(Vec<K>) -> Fut,
        Fut: Future<Output = StoreResult<Vec<V>>>,
    {
        let mut found = Vec::with_capacity(keys.len());
        let mut missing = Vec::new();
        let generation = {
            let state = self.lock();
            let now = Instant::now();
            let mut seen = std::collections::HashSet::with_capacity(keys.len());
            for k in keys {
                if !seen.insert(k) {
                    continue;
                }
                match state.entries.get(k) {
                    Some((at, v)) if now.duration_since(*at) < self.limits.ttl => {
                        found.push(v.clone())
                    }
                    _ => missing.push(k.clone()),
                }
            }
            state.generation
        };
        if missing.is_empty() {
            return Ok(found);
        }
        let loaded = load(missing).await?;
        {
            let mut state = self.lock();
            if state.generation == generation {
                self.make_room(&mut state, loaded.len());
                let now = Instant::now();
                for v in &loaded {
                    state.entries.insert(key_of(v), (now, v.clone()));
                }
            }
        }
        found.extend(loaded);
        Ok(found)
    }

    /// Frees room for `n` more records: expired ones first, then arbitrary ones down to three
    /// quarters of the capacity.
    fn make_room(&self, state: &mut KindState<K, V>, n: usize) {
        let capacity = self.limits.capacity;
        if state.entries.len() + n <= capacity {
            return;
        }
        let ttl = self.limits.ttl;
        let now = Instant::now();
        state
            .entries
            .retain(|_, (at, _)| now.duration_since(*at) < ttl);
        let keep = (capacity * 3 / 4).saturating_sub(n);
        if state.entries.len() > keep {
            let mut left = keep;
            state.entries.retain(|_, _| {
                let stay = left > 0;
                left = left.saturating_sub(1);
                stay
            });
        }
    }

    /// The record of `key` if it is in memory and fresh; nothing is read.
    fn peek(&self, key: &K) -> Option<V> {
        let state = self.lock();
        let (at, v) = state.entries.get(key)?;
        (at.elapsed() < self.limits.ttl).then(|| v.clone())
    }

    /// Forgets these records.
    fn invalidate(&self, keys: &[K]) {
        let mut state = self.lock();
        state.generation += 1;
        for k in keys {
            state.entries.remove(k);
        }
    }

    /// Forgets every record of this kind.
    fn clear(&self) {
        let mut state = self.lock();
        state.generation += 1;
        state.entries.clear();
    }
}

impl<K: Hash + Eq + Copy, V: Clone> Kind<K, (K, V)> {
    /// The value kept for one account, status or timeline (`load` asks the wrapped store when
    /// it is not in memory).
    async fn get_one<Fut>(&self, key: K, load: impl Fn(K) -> Fut) -> StoreResult<V>
    where
        Fut: Future<Output = StoreResult<V>>,
    {
        let load = &load;
        let mut found = self
            .get_many(
                &[key],
                |missing| async move { Ok(vec![(missing[0], load(missing[0]).await?)]) },
                |v| v.0,
            )
            .await?;
        match found.pop() {
            Some((_, v)) => Ok(v),
            None => load(key).await,
        }
    }
}

impl<K: Hash + Eq + Copy> Kind<K, (K, FeedWindow)> {
    /// The ids of `page` of the feed or timeline `key`: from its newest entries in memory when
    /// they decide the page, else from `read` (which reads a page from the store). A page
    /// starting at the newest entry reads those entries first if they are not in memory (`read`
    /// with the first [`FEED_WINDOW`]); a page below it (`max_id`) only uses them if they are,
    /// so that reading deep into a feed costs one read, not two.
    async fn page<Fut>(
        &self,
        key: K,
        page: Page,
        read: impl Fn(Page) -> Fut,
    ) -> StoreResult<Vec<Id>>
    where
        Fut: Future<Output = StoreResult<Vec<Id>>>,
    {
        let window = match page.max_id {
            None => {
                let read = &read;
                let load = move |_| async move {
                    Ok(FeedWindow::new(read(Page::first(FEED_WINDOW)).await?))
                };
                Some(self.get_one(key, load).await?)
            }
            Some(_) => self.peek(&key).map(|(_, w)| w),
        };
        match window.and_then(|w| w.page(&page)) {
            Some(ids) => Ok(ids),
            None => read(page).await,
        }
    }
}

/// The cached methods of [`AccountStore`].
#[deny(dead_code)]
impl Caching {
    async fn account_by_id(&self, id: Id) -> StoreResult<Option<AccountRecord>> {
        Ok(self.accounts_by_ids(&[id]).await?.pop())
    }
    async fn accounts_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<AccountRecord>> {
        self.fresh()
            .await
            .accounts
            .get_many(
                ids,
                |missing| async move { self.inner.accounts_by_ids(&missing).await },
                |a| a.id,
            )
            .await
    }
    async fn update_account(&self, account: &AccountRecord) -> StoreResult<()> {
        let r = self.inner.update_account(account).await;
        self.cache.accounts.invalidate(&[account.id]);
        self.cache.public_timelines.clear();
        self.wrote().await;
        r
    }
    async fn user_by_account_id(&self, account_id: Id) -> StoreResult<Option<UserRecord>> {
        Ok(self
            .fresh()
            .await
            .users
            .get_many(
                &[account_id],
                |missing| async move {
                    Ok(self
                        .inner
                        .user_by_account_id(missing[0])
                        .await?
                        .into_iter()
                        .collect())
                },
                |u| u.account_id,
            )
            .await?
            .pop())
    }
    async fn users_by_account_ids(&self, accounts: &[Id]) -> StoreResult<Vec<UserRecord>> {
        self.fresh()
            .await
            .users
            .get_many(
                accounts,
                |missing| async move { self.inner.users_by_account_ids(&missing).await },
                |u| u.account_id,
            )
            .await
    }
    async fn update_user(&self, user: &UserRecord) -> StoreResult<()> {
        let r = self.inner.update_user(user).await;
        self.cache.users.invalidate(&[user.account_id]);
        self.wrote().await;
        r
    }
    async fn delete_account(&self, id: Id) -> StoreResult<()> {
        let r = self.inner.delete_account(id).await;
        self.cache.clear_all();
        self.wrote().await;
        r
    }
    /// A reset changes the login and revokes the account's tokens, whose hashes the cache
    /// cannot name: it forgets every token.
    async fn reset_password(
        &self,
        token_hash: &str,
        sent_after: DateTime<Utc>,
        password_hash: &str,
        at: DateTime<Utc>,
    ) -> StoreResult<Option<Id>> {
        let r = self
            .inner
            .reset_password(token_hash, sent_after, password_hash, at)
            .await;
        self.cache.tokens.clear();
        match &r {
            Ok(Some(id)) => self.cache.users.invalidate(&[*id]),
            Ok(None) => {}
            Err(_) => self.cache.users.clear(),
        }
        self.wrote().await;
        r
    }
    async fn confirm_email_change(
        &self,
        token_hash: &str,
        sent_after: DateTime<Utc>,
    ) -> StoreResult<Option<UserRecord>> {
        let r = self
            .inner
            .confirm_email_change(token_hash, sent_after)
            .await;
        match &r {
            Ok(Some(user)) => self.cache.users.invalidate(&[user.account_id]),
            Ok(None) => {}
            Err(_) => self.cache.users.clear(),
        }
        self.wrote().await;
        r
    }
}

/// The cached methods of [`FederationStore`]: a refreshed remote actor changes its account.
#[deny(dead_code)]
impl Caching {
    async fn save_remote_actor(
        &self,
        account: &AccountRecord,
        actor: &RemoteActorRecord,
    ) -> StoreResult<AccountRecord> {
        let r = self.inner.save_remote_actor(account, actor).await;
        if let Ok(saved) = &r {
            self.cache.accounts.invalidate(&[saved.id]);
            self.cache.public_timelines.clear();
        }
        self.wrote().await;
        r
    }
}

/// The cached methods of [`OAuthStore`].
#[deny(dead_code)]
impl Caching {
    async fn app_by_id(&self, id: Id) -> StoreResult<Option<AppRecord>> {
        Ok(self
            .fresh()
            .await
            .apps
            .get_many(
                &[id],
                |missing| async move {
                    Ok(self
                        .inner
                        .app_by_id(missing[0])
                        .await?
                        .into_iter()
                        .collect())
                },
                |a| a.id,
            )
            .await?
            .pop())
    }
    async fn apps_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<AppRecord>> {
        let mut ids = ids.to_vec();
        ids.sort_unstable();
        ids.dedup();
        self.fresh()
            .await
            .apps
            .get_many(
                &ids,
                |missing| async move { self.inner.apps_by_ids(&missing).await },
                |a| a.id,
            )
            .await
    }
    async fn token_by_hash(&self, token_hash: &str) -> StoreResult<Option<TokenRecord>> {
        let key = token_hash.to_string();
        Ok(self
            .fresh()
            .await
            .tokens
            .get_many(
                std::slice::from_ref(&key),
                |missing| async move {
                    Ok(self
                        .inner
                        .token_by_hash(&missing[0])
                        .await?
                        .into_iter()
                        .collect())
                },
                |t| t.token_hash.clone(),
            )
            .await?
            .pop())
    }
    /// The token from the cache; its application, account and login then come from theirs.
    async fn token_with_owner(&self, token_hash: &str) -> StoreResult<Option<TokenWithOwner>> {
        Ok(self
            .token_by_hash(token_hash)
            .await?
            .map(|token| TokenWithOwner { token, owner: None }))
    }
    async fn revoke_token(&self, token_hash: &str, at: DateTime<Utc>) -> StoreResult<bool> {
        let r = self.inner.revoke_token(token_hash, at).await;
        self.cache.tokens.invalidate(&[token_hash.to_string()]);
        self.wrote().await;
        r
    }
}

/// The cached methods of [`StatusStore`].
#[deny(dead_code)]
impl Caching {
    async fn insert_status(&self, status: &StatusRecord) -> StoreResult<()> {
        let r = self.inner.insert_status(status).await;
        self.cache.accounts.invalidate(&[status.account_id]);
        let touched: Vec<Id> = [Some(status.id), status.in_reply_to_id, status.reblog_of_id]
            .into_iter()
            .flatten()
            .collect();
        self.cache.statuses.invalidate(&touched);
        self.cache.public_timelines.clear();
        self.wrote().await;
        r
    }
    async fn status_by_id(&self, id: Id) -> StoreResult<Option<StatusRecord>> {
        Ok(self.statuses_by_ids(&[id]).await?.pop())
    }
    /// The page's ids from the timeline's newest entries in memory when they decide it, else
    /// from the store; its statuses from the cache (a public page is read as often as a home
    /// page, and holds the same statuses).
    async fn public_timeline(
        &self,
        filter: PublicTimelineFilter,
        page: Page,
    ) -> StoreResult<Vec<StatusRecord>> {
        let ids = self
            .fresh()
            .await
            .public_timelines
            .page(filter, page, |p| self.inner.public_timeline_ids(filter, p))
            .await?;
        let mut found: HashMap<Id, StatusRecord> = self
            .statuses_by_ids(&ids)
            .await?
            .into_iter()
            .map(|s| (s.id, s))
            .collect();
        Ok(ids.iter().filter_map(|id| found.remove(id)).collect())
    }
    async fn statuses_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<StatusRecord>> {
        self.fresh()
            .await
            .statuses
            .get_many(
                ids,
                |missing| async move { self.inner.statuses_by_ids(&missing).await },
                |s| s.id,
            )
            .await
    }
    async fn delete_status(&self, id: Id) -> StoreResult<()> {
        let r = self.inner.delete_status(id).await;
        // Its reblogs go too, several accounts' counters move, filters and feeds lose it.
        self.cache.statuses.clear();
        self.cache.accounts.clear();
        self.cache.filters.clear();
        self.cache.home_feeds.clear();
        self.cache.public_timelines.clear();
        self.cache.polls.invalidate(&[id]);
        self.wrote().await;
        r
    }
    async fn link_reply(&self, status: Id, parent: Id) -> StoreResult<bool> {
        let r = self.inner.link_reply(status, parent).await;
        // The thread it began moves with it (statuses not named here); a reply to someone
        // else leaves the public timelines.
        self.cache.statuses.clear();
        self.cache.public_timelines.clear();
        self.wrote().await;
        r
    }
}

/// The cached methods of [`FeedStore`].
#[deny(dead_code)]
impl Caching {
    /// From the feed's newest entries in memory when they decide the page, else from the store.
    async fn home_feed(&self, account_id: Id, page: Page) -> StoreResult<Vec<Id>> {
        self.fresh()
            .await
            .home_feeds
            .page(account_id, page, |p| self.inner.home_feed(account_id, p))
            .await
    }
    async fn insert_feed_entries(
        &self,
        status_id: Id,
        author_id: Id,
        account_ids: &[Id],
    ) -> StoreResult<()> {
        let r = self
            .inner
            .insert_feed_entries(status_id, author_id, account_ids)
            .await;
        self.cache.home_feeds.invalidate(account_ids);
        self.wrote().await;
        r
    }
    async fn backfill_feed(&self, feed: Feed, entries: &[(Id, Id)]) -> StoreResult<()> {
        let r = self.inner.backfill_feed(feed, entries).await;
        if let Feed::Home(account) = feed {
            self.cache.home_feeds.invalidate(&[account]);
        }
        self.wrote().await;
        r
    }
    async fn remove_author_entries(&self, account: Id, author: Id) -> StoreResult<()> {
        let r = self.inner.remove_author_entries(account, author).await;
        self.cache.home_feeds.invalidate(&[account]);
        self.wrote().await;
        r
    }
}

/// The cached methods of [`FollowStore`].
#[deny(dead_code)]
impl Caching {
    async fn insert_follow(&self, id: Id, follower: Id, target: Id) -> StoreResult<()> {
        let r = self.inner.insert_follow(id, follower, target).await;
        self.cache.accounts.invalidate(&[follower, target]);
        self.wrote().await;
        r
    }
    async fn delete_follow(&self, follower: Id, target: Id) -> StoreResult<bool> {
        let r = self.inner.delete_follow(follower, target).await;
        self.cache.accounts.invalidate(&[follower, target]);
        self.wrote().await;
        r
    }
    async fn upsert_follow(&self, follow: &FollowRecord) -> StoreResult<bool> {
        let r = self.inner.upsert_follow(follow).await;
        self.cache
            .accounts
            .invalidate(&[follow.account_id, follow.target_id]);
        self.wrote().await;
        r
    }
}

/// The cached methods of [`BlockStore`].
#[deny(dead_code)]
impl Caching {
    async fn insert_block(&self, id: Id, account: Id, target: Id) -> StoreResult<()> {
        let r = self.inner.insert_block(id, account, target).await;
        // Follows both ways end with the block.
        self.cache.accounts.invalidate(&[account, target]);
        self.cache.relations.invalidate(&[account, target]);
        self.wrote().await;
        r
    }
    async fn delete_block(&self, account: Id, target: Id) -> StoreResult<bool> {
        let r = self.inner.delete_block(account, target).await;
        self.cache.relations.invalidate(&[account, target]);
        self.wrote().await;
        r
    }
    async fn upsert_mute(&self, mute: &MuteRecord) -> StoreResult<()> {
        let r = self.inner.upsert_mute(mute).await;
        self.cache.relations.invalidate(&[mute.account_id]);
        self.wrote().await;
        r
    }
    async fn delete_mute(&self, account: Id, target: Id) -> StoreResult<bool> {
        let r = self.inner.delete_mute(account, target).await;
        self.cache.relations.invalidate(&[account]);
        self.wrote().await;
        r
    }
    async fn has_relations(&self, account: Id) -> StoreResult<bool> {
        self.fresh()
            .await
            .relations
            .get_one(account, |a| self.inner.has_relations(a))
            .await
    }
    async fn relations_among(
        &self,
        account: Id,
        others: &[Id],
        now: DateTime<Utc>,
    ) -> StoreResult<Vec<RelationRecord>> {
        if others.is_empty() || !self.has_relations(account).await? {
            return Ok(vec![]);
        }
        self.inner.relations_among(account, others, now).await
    }
}

/// The cached methods of [`DomainBlockStore`].
#[deny(dead_code)]
impl Caching {
    async fn insert_domain_block(&self, id: Id, account: Id, domain: &str) -> StoreResult<()> {
        let r = self.inner.insert_domain_block(id, account, domain).await;
        // The followers there leave: their counters and `account`'s move.
        self.cache.accounts.clear();
        self.wrote().await;
        r
    }
}

/// The cached methods of [`InteractionStore`].
#[deny(dead_code)]
impl Caching {
    async fn insert_favourite(&self, id: Id, account: Id, status: Id) -> StoreResult<bool> {
        let r = self.inner.insert_favourite(id, account, status).await;
        self.cache.statuses.invalidate(&[status]);
        self.wrote().await;
        r
    }
    async fn delete_favourite(&self, account: Id, status: Id) -> StoreResult<bool> {
        let r = self.inner.delete_favourite(account, status).await;
        self.cache.statuses.invalidate(&[status]);
        self.wrote().await;
        r
    }
}

/// The cached methods of [`StatusEditStore`].
#[deny(dead_code)]
impl Caching {
    async fn update_status(
        &self,
        status: &StatusRecord,
        revisions: &[StatusEditRecord],
    ) -> StoreResult<()> {
        let r = self.inner.update_status(status, revisions).await;
        self.cache.statuses.invalidate(&[status.id]);
        self.cache.public_timelines.clear();
        self.wrote().await;
        r
    }
}

/// The cached methods of [`PollStore`].
#[deny(dead_code)]
impl Caching {
    async fn insert_poll(&self, poll: &PollRecord) -> StoreResult<()> {
        let r = self.inner.insert_poll(poll).await;
        self.cache.polls.invalidate(&[poll.status_id]);
        self.wrote().await;
        r
    }
    async fn polls_by_status_ids(&self, status_ids: &[Id]) -> StoreResult<Vec<PollRecord>> {
        let known = self
            .fresh()
            .await
            .polls
            .get_many(
                status_ids,
                |missing| async move {
                    let mut found: HashMap<Id, PollRecord> = self
                        .inner
                        .polls_by_status_ids(&missing)
                        .await?
                        .into_iter()
                        .map(|p| (p.status_id, p))
                        .collect();
                    Ok(missing.iter().map(|s| (*s, found.remove(s))).collect())
                },
                |v| v.0,
            )
            .await?;
        Ok(known.into_iter().filter_map(|(_, p)| p).collect())
    }
    async fn insert_poll_votes(
        &self,
        poll_id: Id,
        account: Id,
        choices: &[usize],
    ) -> StoreResult<()> {
        let r = self
            .inner
            .insert_poll_votes(poll_id, account, choices)
            .await;
        // The counts move; the poll names its status.
        match self.inner.poll_by_id(poll_id).await {
            Ok(Some(p)) => self.cache.polls.invalidate(&[p.status_id]),
            _ => self.cache.polls.clear(),
        }
        self.wrote().await;
        r
    }
    async fn replace_poll(&self, status_id: Id, poll: Option<&PollRecord>) -> StoreResult<()> {
        let r = self.inner.replace_poll(status_id, poll).await;
        self.cache.polls.invalidate(&[status_id]);
        self.wrote().await;
        r
    }
    async fn add_poll_choice(&self, poll_id: Id, account: Id, choice: usize) -> StoreResult<bool> {
        let r = self.inner.add_poll_choice(poll_id, account, choice).await;
        self.forget_poll(poll_id).await;
        self.wrote().await;
        r
    }
    async fn set_poll_tally(
        &self,
        poll_id: Id,
        votes: &[i64],
        voters_count: i64,
        expires_at: Option<DateTime<Utc>>,
    ) -> StoreResult<bool> {
        let r = self
            .inner
            .set_poll_tally(poll_id, votes, voters_count, expires_at)
            .await;
        self.forget_poll(poll_id).await;
        self.wrote().await;
        r
    }
}

/// Helpers of the cached methods of [`PollStore`].
impl Caching {
    /// Forgets the cached poll `poll_id` (the cache keeps polls by status, which the poll
    /// names; all of them when it cannot be read).
    async fn forget_poll(&self, poll_id: Id) {
        match self.inner.poll_by_id(poll_id).await {
            Ok(Some(p)) => self.cache.polls.invalidate(&[p.status_id]),
            _ => self.cache.polls.clear(),
        }
    }
}

/// The cached methods of [`FilterStore`].
#[deny(dead_code)]
impl Caching {
    async fn insert_filter(&self, filter: &FilterRecord) -> StoreResult<()> {
        let r = self.inner.insert_filter(filter).await;
        self.cache.filters.invalidate(&[filter.account_id]);
        self.wrote().await;
        r
    }
    async fn filters_of(&self, account: Id) -> StoreResult<Vec<FilterRecord>> {
        self.fresh()
            .await
            .filters
            .get_one(account, |a| self.inner.filters_of(a))
            .await
    }
    async fn update_filter(
        &self,
        filter: &FilterRecord,
        added: &[FilterKeywordRecord],
        changed: &[FilterKeywordRecord],
        removed: &[Id],
    ) -> StoreResult<()> {
        let r = self
            .inner
            .update_filter(filter, added, changed, removed)
            .await;
        // The owner is not read from `filter`: forget every account's filters (rare).
        self.cache.filters.clear();
        self.wrote().await;
        r
    }
    async fn delete_filter(&self, id: Id) -> StoreResult<bool> {
        let r = self.inner.delete_filter(id).await;
        self.cache.filters.clear();
        self.wrote().await;
        r
    }
    async fn insert_filter_keyword(&self, keyword: &FilterKeywordRecord) -> StoreResult<()> {
        let r = self.inner.insert_filter_keyword(keyword).await;
        self.cache.filters.clear();
        self.wrote().await;
        r
    }
    async fn update_filter_keyword(&self, keyword: &FilterKeywordRecord) -> StoreResult<bool> {
        let r = self.inner.update_filter_keyword(keyword).await;
        self.cache.filters.clear();
        self.wrote().await;
        r
    }
    async fn delete_filter_keyword(&self, id: Id) -> StoreResult<bool> {
        let r = self.inner.delete_filter_keyword(id).await;
        self.cache.filters.clear();
        self.wrote().await;
        r
    }
    async fn insert_filter_status(&self, status: &FilterStatusRecord) -> StoreResult<()> {
        let r = self.inner.insert_filter_status(status).await;
        self.cache.filters.clear();
        self.wrote().await;
        r
    }
    async fn delete_filter_status(&self, id: Id) -> StoreResult<bool> {
        let r = self.inner.delete_filter_status(id).await;
        self.cache.filters.clear();
        self.wrote().await;
        r
    }
}

/// The cached methods of [`NotificationPolicyStore`].
#[deny(dead_code)]
impl Caching {
    async fn notification_policy(
        &self,
        account: Id,
    ) -> StoreResult<Option<NotificationPolicyRecord>> {
        self.fresh()
            .await
            .policies
            .get_one(account, |a| self.inner.notification_policy(a))
            .await
    }
    async fn save_notification_policy(&self, policy: &NotificationPolicyRecord) -> StoreResult<()> {
        let r = self.inner.save_notification_policy(policy).await;
        self.cache.policies.invalidate(&[policy.account_id]);
        self.wrote().await;
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn kind(capacity: usize, ttl: Duration) -> Kind<u32, (u32, &'static str)> {
        Kind::new(CacheLimits { capacity, ttl })
    }

    /// Reads `keys` through `kind` from a backing map, counting the loads.
    async fn read(
        kind: &Kind<u32, (u32, &'static str)>,
        backing: &Mutex<HashMap<u32, &'static str>>,
        loads: &AtomicUsize,
        keys: &[u32],
    ) -> Vec<(u32, &'static str)> {
        let mut got = kind
            .get_many(
                keys,
                |missing| async move {
                    loads.fetch_add(1, Ordering::SeqCst);
                    let b = backing.lock().expect("backing");
                    Ok(missing
                        .iter()
                        .filter_map(|k| b.get(k).map(|v| (*k, *v)))
                        .collect())
                },
                |v| v.0,
            )
            .await
            .expect("read");
        got.sort();
        got
    }

    #[tokio::test]
    async fn hits_skip_the_store_and_unknown_keys_are_asked_again() {
        let k = kind(10, Duration::from_secs(60));
        let backing = Mutex::new(HashMap::from([(1, "a"), (2, "b")]));
        let loads = AtomicUsize::new(0);
        assert_eq!(
            read(&k, &backing, &loads, &[1, 2, 2]).await,
            vec![(1, "a"), (2, "b")]
        );
        assert_eq!(loads.load(Ordering::SeqCst), 1);
        assert_eq!(
            read(&k, &backing, &loads, &[2, 1]).await,
            vec![(1, "a"), (2, "b")]
        );
        assert_eq!(loads.load(Ordering::SeqCst), 1, "both were in memory");
        // A key the store does not know is not remembered as missing.
        assert_eq!(read(&k, &backing, &loads, &[3]).await, vec![]);
        backing.lock().expect("backing").insert(3, "c");
        assert_eq!(read(&k, &backing, &loads, &[3]).await, vec![(3, "c")]);
    }

    #[tokio::test]
    async fn forgetting_and_expiry_make_the_next_read_ask_the_store() {
        let k = kind(10, Duration::from_millis(50));
        let backing = Mutex::new(HashMap::from([(1, "old")]));
        let loads = AtomicUsize::new(0);
        read(&k, &backing, &loads, &[1]).await;
        backing.lock().expect("backing").insert(1, "new");
        assert_eq!(read(&k, &backing, &loads, &[1]).await, vec![(1, "old")]);
        k.invalidate(&[1]);
        assert_eq!(read(&k, &backing, &loads, &[1]).await, vec![(1, "new")]);
        // A write this cache never saw (another process) shows once the entry expires.
        backing.lock().expect("backing").insert(1, "newer");
        tokio::time::sleep(Duration::from_millis(60)).await;
        assert_eq!(read(&k, &backing, &loads, &[1]).await, vec![(1, "newer")]);
    }

    #[tokio::test]
    async fn a_read_racing_a_write_keeps_nothing_it_read() {
        let k = kind(10, Duration::from_secs(60));
        // The read loads the old value, and a write forgets the kind while the read is away.
        let got = k
            .get_many(
                &[1],
                |_| async {
                    k.invalidate(&[1]);
                    Ok(vec![(1, "old")])
                },
                |v| v.0,
            )
            .await
            .expect("read");
        assert_eq!(
            got,
            vec![(1, "old")],
            "the racing read still answers what it read"
        );
        let backing = Mutex::new(HashMap::from([(1, "new")]));
        let loads = AtomicUsize::new(0);
        assert_eq!(
            read(&k, &backing, &loads, &[1]).await,
            vec![(1, "new")],
            "the stale value was not kept"
        );
        assert_eq!(loads.load(Ordering::SeqCst), 1);
    }

    /// A write by another process (here: straight to the store under the cache) shows as soon as
    /// the change marker moves.
    #[tokio::test]
    async fn a_moved_change_marker_forgets_everything() {
        use crate::store::{AccountRecord, AccountStore};
        let inner = Arc::new(crate::MemoryStore::new());
        let tick = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let marker = {
            let tick = tick.clone();
            move || Some(SystemTime::UNIX_EPOCH + Duration::from_secs(tick.load(Ordering::SeqCst)))
        };
        let cached =
            CachedStore::new(inner.clone(), CacheLimits::default()).with_change_marker(marker);
        let ids = crate::IdGenerator::default();
        let mut a = AccountRecord::new_local(ids.next(), "someone", chrono::Utc::now());
        a.domain = Some("far.example".into());
        inner.insert_remote_account(&a).await.expect("insert");
        assert_eq!(
            cached.account_by_id(a.id).await.expect("read"),
            Some(a.clone())
        );
        a.display_name = "changed elsewhere".into();
        inner.update_account(&a).await.expect("update");
        assert_ne!(
            cached.account_by_id(a.id).await.expect("read"),
            Some(a.clone()),
            "unmarked, the cache still answers what it read"
        );
        tick.store(1, Ordering::SeqCst);
        assert_eq!(cached.account_by_id(a.id).await.expect("read"), Some(a));
    }

    /// A log in memory that two caches share, as two processes share the database's.
    #[derive(Default)]
    struct MemoryLog {
        newest: std::sync::atomic::AtomicU64,
        looks: AtomicUsize,
    }

    #[async_trait::async_trait]
    impl ChangeLog for MemoryLog {
        async fn record(&self) -> StoreResult<u64> {
            Ok(self.newest.fetch_add(1, Ordering::SeqCst) + 1)
        }
        async fn newest(&self) -> StoreResult<u64> {
            self.looks.fetch_add(1, Ordering::SeqCst);
            Ok(self.newest.load(Ordering::SeqCst))
        }
    }

    /// Two caches over one store with one log: what one writes, the other forgets at its next
    /// look; what a cache writes itself does not make it forget the rest; and it looks at most
    /// once per interval.
    #[tokio::test]
    async fn caches_sharing_a_change_log_forget_what_another_wrote() {
        use crate::store::{AccountRecord, AccountStore};
        let inner = Arc::new(crate::MemoryStore::new());
        let log = Arc::new(MemoryLog::default());
        let one =
            CachedStore::new(inner.clone(), CacheLimits::default()).with_change_log(log.clone());
        let other =
            CachedStore::new(inner.clone(), CacheLimits::default()).with_change_log(log.clone());
        let ids = crate::IdGenerator::default();
        let remote = |name: &str| {
            let mut a = AccountRecord::new_local(ids.next(), name, chrono::Utc::now());
            a.domain = Some("far.example".into());
            a
        };
        let (mut a, mut b) = (remote("a"), remote("b"));
        inner.insert_remote_account(&a).await.expect("insert");
        inner.insert_remote_account(&b).await.expect("insert");
        for store in [&one, &other] {
            assert_eq!(
                store
                    .accounts_by_ids(&[a.id, b.id])
                    .await
                    .expect("read")
                    .len(),
                2
            );
        }

        // `other` writes `a`: `one` forgets everything at its next look, and reads both again.
        a.display_name = "changed by the other".into();
        other.update_account(&a).await.expect("update");
        tokio::time::sleep(CHANGE_LOOK_INTERVAL * 2).await;
        assert_eq!(
            one.account_by_id(a.id).await.expect("read"),
            Some(a.clone())
        );
        assert_eq!(
            one.accounts_by_ids(&[a.id, b.id])
                .await
                .expect("read")
                .len(),
            2
        );

        // `one` writes `a`, then `b` changes beneath both caches (no log): `one` did not forget
        // `b` for its own write, so it still answers the `b` it read.
        a.display_name = "changed by one".into();
        one.update_account(&a).await.expect("update");
        b.display_name = "changed beneath".into();
        inner.update_account(&b).await.expect("update");
        tokio::time::sleep(CHANGE_LOOK_INTERVAL * 2).await;
        assert_ne!(
            one.account_by_id(b.id).await.expect("read"),
            Some(b.clone()),
            "its own write kept the rest of its cache"
        );
        // `other` saw `one`'s number: it forgot everything, `b` included.
        assert_eq!(
            other.account_by_id(a.id).await.expect("read"),
            Some(a.clone())
        );
        assert_eq!(
            other.account_by_id(b.id).await.expect("read"),
            Some(b.clone())
        );

        // Reads close together share looks (one per interval).
        let looks = log.looks.load(Ordering::SeqCst);
        for _ in 0..50 {
            other.account_by_id(a.id).await.expect("read");
        }
        assert!(
            log.looks.load(Ordering::SeqCst) - looks < 25,
            "looked {} times for 50 reads",
            log.looks.load(Ordering::SeqCst) - looks
        );
    }

    #[tokio::test]
    async fn the_capacity_bounds_what_is_kept() {
        let k = kind(8, Duration::from_secs(60));
        let backing = Mutex::new((0..100).map(|i| (i, "v")).collect::<HashMap<_, _>>());
        let loads = AtomicUsize::new(0);
        for i in 0..100 {
            read(&k, &backing, &loads, &[i]).await;
            assert!(k.lock().entries.len() <= 8);
        }
        assert_eq!(read(&k, &backing, &loads, &[99]).await, vec![(99, "v")]);
    }

    /// Every page a feed window answers is the page the whole feed gives, and the pages clients
    /// read most (the first, a refresh above its newest entry) are answered.
    #[test]
    fn a_feed_window_answers_only_what_it_decides() {
        // Ids 2, 4, ..., 2n (odd cursors fall between entries), newest first.
        let feed = |n: i64| -> Vec<Id> { (1..=n).rev().map(|i| Id::from_i64(2 * i)).collect() };
        let cursors = [
            None,
            Some(1),
            Some(49),
            Some(50),
            Some(301),
            Some(302),
            Some(500),
        ];
        for n in [0, 5, 99, 100, 250] {
            let whole = feed(n);
            let window = FeedWindow::new(whole.iter().copied().take(FEED_WINDOW).collect());
            let mut answered = 0;
            for limit in [1, 20, 40, 120] {
                for &max_id in &cursors {
                    for &since_id in &cursors {
                        for &min_id in &cursors {
                            let page = Page {
                                max_id: max_id.map(Id::from_i64),
                                since_id: since_id.map(Id::from_i64),
                                min_id: min_id.map(Id::from_i64),
                                limit,
                            };
                            if let Some(ids) = window.page(&page) {
                                answered += 1;
                                let expected = page.apply(whole.iter().copied(), |id| *id);
                                assert_eq!(ids, expected, "feed of {n}, {page:?}");
                            }
                        }
                    }
                }
            }
            assert!(window.page(&Page::first(40)).is_some(), "feed of {n}");
            let newest = whole.first().map_or(0, |id| id.as_i64());
            let refresh = Page {
                min_id: Some(Id::from_i64(newest)),
                ..Page::first(40)
            };
            assert_eq!(window.page(&refresh), Some(vec![]), "feed of {n}");
            assert_eq!(window.complete, n < FEED_WINDOW as i64, "feed of {n}");
            assert!(answered > 0);
        }
        // A page below the window is the store's to answer.
        let window = FeedWindow::new(feed(250).into_iter().take(FEED_WINDOW).collect());
        let deep = Page {
            max_id: Some(Id::from_i64(302)),
            ..Page::first(40)
        };
        assert_eq!(window.page(&deep), None);
    }

    /// A page below the newest entry does not read the newest entries first; a first page
    /// reads them once, and later pages they decide are answered from memory.
    #[tokio::test]
    async fn a_deep_page_costs_one_read() {
        let feed: Vec<Id> = (1..=250).rev().map(Id::from_i64).collect();
        let reads = AtomicUsize::new(0);
        let windows: Kind<u32, (u32, FeedWindow)> = Kind::new(CacheLimits::default());
        let read = |page: Page| {
            reads.fetch_add(1, Ordering::SeqCst);
            let ids = page.apply(feed.iter().copied(), |id| *id);
            async move { Ok(ids) }
        };
        let deep = Page {
            max_id: Some(Id::from_i64(100)),
            ..Page::first(40)
        };
        let expected = deep.apply(feed.iter().copied(), |id| *id);
        assert_eq!(windows.page(1, deep, read).await.expect("deep"), expected);
        assert_eq!(
            reads.load(Ordering::SeqCst),
            1,
            "a cold deep page is one read"
        );
        let first = Page::first(40);
        let expected = first.apply(feed.iter().copied(), |id| *id);
        assert_eq!(windows.page(1, first, read).await.expect("first"), expected);
        assert_eq!(windows.page(1, first, read).await.expect("again"), expected);
        assert_eq!(
            reads.load(Ordering::SeqCst),
            2,
            "the newest entries are read once"
        );
        let next = Page {
            max_id: expected.last().copied(),
            ..Page::first(40)
        };
        let expected = next.apply(feed.iter().copied(), |id| *id);
        assert_eq!(windows.page(1, next, read).await.expect("next"), expected);
        assert_eq!(
            reads.load(Ordering::SeqCst),
            2,
            "the next page comes from memory"
        );
    }
}
