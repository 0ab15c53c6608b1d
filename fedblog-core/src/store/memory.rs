//! `MemoryStore`: the in-memory reference implementation of every store trait, for tests and embedding.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::RwLock;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::*;
use crate::error::{StoreError, StoreResult};

mod announcements;
mod cards;

#[path = "crypto_memory.rs"]
mod crypto_memory;

#[derive(Default)]
struct Inner {
    /// Quotes and quote approval policies (`store::quotes`).
    quotes: super::quotes::QuoteTables,
    accounts: BTreeMap<Id, AccountRecord>,
    /// status -> the words of its searchable text, lower-cased, in order
    search_index: BTreeMap<Id, Vec<String>>,
    users: BTreeMap<Id, UserRecord>,
    /// (account, purpose) -> the pending mailed link
    mail_tokens: BTreeMap<(Id, MailTokenPurpose), MailTokenRecord>,
    /// account -> its notification e-mail choices, once saved
    notification_emails: BTreeMap<Id, NotificationEmailsRecord>,
    apps: BTreeMap<Id, AppRecord>,
    authorizations: HashMap<String, AuthorizationRecord>,
    /// Exchanged codes: code hash -> (token hash, remembered until).
    code_exchanges: HashMap<String, (String, DateTime<Utc>)>,
    tokens: HashMap<String, TokenRecord>,
    /// token id -> its push subscription
    push_subscriptions: BTreeMap<Id, PushSubscriptionRecord>,
    statuses: BTreeMap<Id, StatusRecord>,
    /// (follower, target) -> follow
    follows: BTreeMap<(Id, Id), FollowRecord>,
    /// (follower, target) -> follow request
    follow_requests: BTreeMap<(Id, Id), FollowRecord>,
    /// (account, target) -> note
    notes: BTreeMap<(Id, Id), String>,
    /// (account, target) -> endorsement id
    endorsements: BTreeMap<(Id, Id), Id>,
    /// (account, target) dismissed suggestions
    dismissals: BTreeSet<(Id, Id)>,
    /// (account, domain) -> domain block id
    domain_blocks: BTreeMap<(Id, String), Id>,
    tags: BTreeMap<Id, TagRecord>,
    /// (account, tag id) -> tag follow id
    tag_follows: BTreeMap<(Id, Id), Id>,
    featured_tags: BTreeMap<Id, FeaturedTagRecord>,
    /// (account, target) -> block id
    blocks: BTreeMap<(Id, Id), Id>,
    /// (account, target) -> mute
    mutes: BTreeMap<(Id, Id), MuteRecord>,
    /// feed -> its entries, status id -> author id
    feeds: HashMap<Feed, BTreeMap<Id, Id>>,
    lists: BTreeMap<Id, ListRecord>,
    /// (list, account) memberships
    list_members: BTreeSet<(Id, Id)>,
    jobs: BTreeMap<Id, JobRecord>,
    scheduled_statuses: BTreeMap<Id, ScheduledStatusRecord>,
    /// (account, status) -> favourite id
    favourites: BTreeMap<(Id, Id), Id>,
    /// (account, status) -> bookmark id
    bookmarks: BTreeMap<(Id, Id), Id>,
    /// (account, status) -> pin id
    pins: BTreeMap<(Id, Id), Id>,
    /// (account, conversation) muted threads
    conversation_mutes: BTreeSet<(Id, Id)>,
    /// status -> its revisions, oldest first
    status_edits: BTreeMap<Id, Vec<StatusEditRecord>>,
    polls: BTreeMap<Id, PollRecord>,
    /// (poll, account) -> chosen option indexes, ascending
    poll_votes: BTreeMap<(Id, Id), Vec<usize>>,
    media: BTreeMap<Id, MediaRecord>,
    custom_emojis: BTreeMap<(String, Option<String>), CustomEmojiRecord>,
    notifications: BTreeMap<Id, NotificationRecord>,
    /// (account, timeline) -> marker
    markers: BTreeMap<(Id, String), MarkerRecord>,
    /// Filters, without their keywords and statuses (kept below).
    filters: BTreeMap<Id, FilterRecord>,
    filter_keywords: BTreeMap<Id, FilterKeywordRecord>,
    filter_statuses: BTreeMap<Id, FilterStatusRecord>,
    conversations: BTreeMap<Id, ConversationRecord>,
    /// status -> its recorded link
    status_links: BTreeMap<Id, String>,
    notification_policies: BTreeMap<Id, NotificationPolicyRecord>,
    /// (account, sender) accepted
    notification_permissions: BTreeSet<(Id, Id)>,
    /// Requests, their counts left at 0 (counted when read).
    notification_requests: BTreeMap<Id, NotificationRequestRecord>,
    /// owner -> key pair
    actor_keys: BTreeMap<Id, ActorKeyRecord>,
    /// account -> remote actor
    remote_actors: BTreeMap<Id, RemoteActorRecord>,
    /// activity id -> when applied
    activities: HashMap<String, DateTime<Utc>>,
    /// (follower, target) -> ActivityPub id of the follow
    follow_uris: BTreeMap<(Id, Id), String>,
    /// host -> failing since
    failing_hosts: HashMap<String, DateTime<Utc>>,
    reports: BTreeMap<Id, ReportRecord>,
    account_warnings: BTreeMap<Id, AccountWarningRecord>,
    rules: BTreeMap<Id, RuleRecord>,
    /// server setting name -> value
    settings: HashMap<String, String>,
    terms_of_service: BTreeMap<Id, TermsOfServiceRecord>,
    instance_domain_blocks: BTreeMap<Id, InstanceDomainBlockRecord>,
    /// list -> its values by id
    listed_values: HashMap<ValueList, BTreeMap<Id, ListedValueRecord>>,
    ip_blocks: BTreeMap<Id, IpBlockRecord>,
    user_roles: BTreeMap<Id, UserRoleRecord>,
    /// (account, day) of the days each local account was active
    activity_days: BTreeSet<(Id, chrono::NaiveDate)>,
    /// (kind, target) -> the latest trend review
    trend_reviews: BTreeMap<(TrendKind, Id), TrendReviewRecord>,
    /// Devices, one-time keys and encrypted messages (`crypto_memory.rs`).
    crypto: crypto_memory::CryptoData,
    /// Announcements, their dismissals and reactions (see `memory/announcements.rs`).
    announcements: announcements::Announcements,
    /// Preview cards, the statuses showing them and their publishers (see `memory/cards.rs`).
    cards: cards::Cards,
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

    /// Runs `f` on the quote tables under the write lock (for `store::quotes`).
    pub(super) fn quote_tables<R>(
        &self,
        f: impl FnOnce(&mut super::quotes::QuoteTables) -> R,
    ) -> StoreResult<R> {
        Ok(f(&mut self.write()?.quotes))
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

    /// Removes a list with its members and feed; returns whether it existed.
    fn remove_list(&mut self, id: Id) -> bool {
        self.list_members.retain(|(l, _)| *l != id);
        self.feeds.remove(&Feed::List(id));
        self.lists.remove(&id).is_some()
    }

    /// Removes a filter with its keywords and statuses; returns whether it existed.
    fn remove_filter(&mut self, id: Id) -> bool {
        self.filter_keywords.retain(|_, k| k.filter_id != id);
        self.filter_statuses.retain(|_, f| f.filter_id != id);
        self.filters.remove(&id).is_some()
    }

    /// A stored filter with its keywords and statuses, each oldest (lowest id) first.
    fn full_filter(&self, f: &FilterRecord) -> FilterRecord {
        FilterRecord {
            keywords: self
                .filter_keywords
                .values()
                .filter(|k| k.filter_id == f.id)
                .cloned()
                .collect(),
            statuses: self
                .filter_statuses
                .values()
                .filter(|s| s.filter_id == f.id)
                .cloned()
                .collect(),
            ..f.clone()
        }
    }

    /// Removes `author`'s entries from one feed.
    fn remove_author_from(&mut self, feed: Feed, author: Id) {
        if let Some(f) = self.feeds.get_mut(&feed) {
            f.retain(|_, a| *a != author);
        }
    }

    /// Whether the indexed status `id`, whose words are `words`, is one `search` finds.
    fn finds(&self, search: &StatusSearch, id: Id, words: &[String]) -> bool {
        let Some(s) = self.statuses.get(&id) else {
            return false;
        };
        let Some(author) = self.accounts.get(&s.account_id) else {
            return false;
        };
        if s.reblog_of_id.is_some() || author.suspended_at.is_some() {
            return false;
        }
        let me = search.searcher;
        let library = || {
            s.account_id == me
                || self.favourites.contains_key(&(me, id))
                || self.bookmarks.contains_key(&(me, id))
                || s.mentions.contains(&me)
                || self
                    .statuses
                    .values()
                    .any(|r| r.reblog_of_id == Some(id) && r.account_id == me)
        };
        let public = || s.visibility == Visibility::Public && author.indexable;
        let in_scope = match search.scope {
            In::Library => library(),
            In::Public => public(),
            In::All => public() || library(),
        };
        in_scope
            && search.must.iter().all(|t| contains_text(words, t))
            && !search.must_not.iter().any(|t| contains_text(words, t))
            && search
                .conditions
                .iter()
                .all(|c| self.meets(s, &c.kind) != c.negated)
    }

    /// Whether status `s` meets a search condition.
    fn meets(&self, s: &StatusRecord, kind: &SearchConditionKind) -> bool {
        let media = || {
            s.media_ids
                .iter()
                .filter_map(|m| self.media.get(m))
                .map(|m| m.kind)
        };
        match kind {
            SearchConditionKind::Author(a) => s.account_id == *a,
            SearchConditionKind::Has(Has::Media) => !s.media_ids.is_empty(),
            SearchConditionKind::Has(Has::Image) => media().any(|k| k == MediaKind::Image),
            SearchConditionKind::Has(Has::Video) => {
                media().any(|k| matches!(k, MediaKind::Video | MediaKind::Gifv))
            }
            SearchConditionKind::Has(Has::Audio) => media().any(|k| k == MediaKind::Audio),
            SearchConditionKind::Has(Has::Poll) => self.polls.values().any(|p| p.status_id == s.id),
            SearchConditionKind::Has(Has::Link) => self.status_links.contains_key(&s.id),
            SearchConditionKind::Has(Has::Embed) => false,
            SearchConditionKind::Is(Is::Reply) => s.in_reply_to_id.is_some(),
            SearchConditionKind::Is(Is::Sensitive) => s.sensitive,
            SearchConditionKind::Language(code) => s
                .language
                .as_deref()
                .is_some_and(|l| crate::search_query::language_code(l) == *code),
            SearchConditionKind::Created { from, to } => {
                from.is_none_or(|f| s.created_at >= f) && to.is_none_or(|t| s.created_at < t)
            }
        }
    }

    /// Raises (or lowers, never below 0) one counter of a status, if it exists.
    fn bump(&mut self, status: Option<Id>, field: fn(&mut StatusRecord) -> &mut i64, by: i64) {
        if let Some(s) = status.and_then(|id| self.statuses.get_mut(&id)) {
            let n = field(s);
            *n = (*n + by).max(0);
        }
    }

    /// Removes a status with everything hanging off it (feed entries, favourites, bookmarks,
    /// pins, its reblogs) and fixes the counters it touched; returns whether it existed.
    fn remove_status(&mut self, id: Id) -> bool {
        let Some(s) = self.statuses.remove(&id) else {
            return false;
        };
        self.quotes.forget_status(id);
        self.search_index.remove(&id);
        for feed in self.feeds.values_mut() {
            feed.remove(&id);
        }
        if let Some(a) = self.accounts.get_mut(&s.account_id) {
            a.statuses_count = (a.statuses_count - 1).max(0);
        }
        self.bump(s.in_reply_to_id, |s| &mut s.replies_count, -1);
        self.bump(s.reblog_of_id, |s| &mut s.reblogs_count, -1);
        self.favourites.retain(|(_, st), _| *st != id);
        self.bookmarks.retain(|(_, st), _| *st != id);
        self.pins.retain(|(_, st), _| *st != id);
        self.status_edits.remove(&id);
        for m in self.media.values_mut().filter(|m| m.status_id == Some(id)) {
            m.status_id = None;
            m.scheduled_status_id = None;
        }
        self.remove_polls_of(id);
        self.filter_statuses.retain(|_, f| f.status_id != id);
        self.status_links.remove(&id);
        self.cards.status_cards.remove(&id);
        for c in self.conversations.values_mut() {
            c.status_ids.retain(|s| *s != id);
        }
        self.conversations.retain(|_, c| !c.status_ids.is_empty());
        self.notifications.retain(|_, n| {
            n.status_id != Some(id)
                && !(n.kind == NotificationType::Reblog
                    && n.from_account_id == s.account_id
                    && n.status_id == s.reblog_of_id)
        });
        let reblogs: Vec<Id> = self
            .statuses
            .values()
            .filter(|r| r.reblog_of_id == Some(id))
            .map(|r| r.id)
            .collect();
        for r in reblogs {
            self.remove_status(r);
        }
        true
    }

    /// Whether every one of `ids` is `account`'s media, unattached or attached to `status`.
    fn media_attachable(&self, ids: &[Id], account: Id, status: Id) -> bool {
        ids.iter().all(|id| {
            self.media
                .get(id)
                .is_some_and(|m| m.account_id == account && m.status_id.is_none_or(|s| s == status))
        })
    }

    /// Attaches the media of `ids` to `status`.
    fn attach_media(&mut self, ids: &[Id], status: Id) {
        for id in ids {
            if let Some(m) = self.media.get_mut(id) {
                m.status_id = Some(status);
            }
        }
    }

    /// Removes a status's poll with its votes.
    fn remove_polls_of(&mut self, status: Id) {
        let polls: Vec<Id> = self
            .polls
            .values()
            .filter(|p| p.status_id == status)
            .map(|p| p.id)
            .collect();
        for p in polls {
            self.polls.remove(&p);
            self.poll_votes.retain(|(poll, _), _| *poll != p);
        }
    }

    /// `account`'s reblog of `status`, if any.
    fn reblog_by(&self, account: Id, status: Id) -> Option<&StatusRecord> {
        self.statuses
            .values()
            .find(|s| s.account_id == account && s.reblog_of_id == Some(status))
    }
}

/// The ids among `statuses` for which `has` holds, sorted and without repeats.
fn among(statuses: &[Id], has: impl Fn(Id) -> bool) -> Vec<Id> {
    let mut out: Vec<Id> = statuses.iter().copied().filter(|s| has(*s)).collect();
    out.sort_unstable();
    out.dedup();
    out
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

    async fn users_by_account_ids(&self, accounts: &[Id]) -> StoreResult<Vec<UserRecord>> {
        let g = self.read()?;
        Ok(crate::loaded::unique_ids(accounts.iter().copied())
            .iter()
            .filter_map(|id| g.users.get(id).cloned())
            .collect())
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

    async fn delete_account(&self, id: Id) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.accounts.remove(&id).is_none() {
            return Err(StoreError::NotFound);
        }
        g.users.remove(&id);
        g.mail_tokens.retain(|(a, _), _| *a != id);
        g.notification_emails.remove(&id);
        g.activity_days.retain(|(a, _)| *a != id);
        g.actor_keys.remove(&id);
        g.remote_actors.remove(&id);
        g.follow_uris.retain(|(a, b), _| *a != id && *b != id);
        g.tokens.retain(|_, t| t.account_id != Some(id));
        g.push_subscriptions.retain(|_, p| p.account_id != id);
        g.authorizations.retain(|_, a| a.account_id != id);
        let votes: Vec<((Id, Id), Vec<usize>)> = g
            .poll_votes
            .iter()
            .filter(|((_, a), _)| *a == id)
            .map(|(k, v)| (*k, v.clone()))
            .collect();
        for ((poll, account), choices) in votes {
            g.poll_votes.remove(&(poll, account));
            if let Some(p) = g.polls.get_mut(&poll) {
                for c in choices {
                    if let Some(n) = p.votes.get_mut(c) {
                        *n = (*n - 1).max(0);
                    }
                }
                p.voters_count = (p.voters_count - 1).max(0);
            }
        }
        let own: Vec<Id> = g
            .statuses
            .values()
            .filter(|s| s.account_id == id)
            .map(|s| s.id)
            .collect();
        for sid in own {
            g.remove_status(sid);
        }
        g.feeds.remove(&Feed::Home(id));
        let owned: Vec<Id> = g
            .lists
            .values()
            .filter(|l| l.account_id == id)
            .map(|l| l.id)
            .collect();
        for l in owned {
            g.remove_list(l);
        }
        g.list_members.retain(|(_, a)| *a != id);
        let favourited: Vec<Id> = g
            .favourites
            .range((id, Id(0))..=(id, Id(u64::MAX)))
            .map(|((_, s), _)| *s)
            .collect();
        for s in favourited {
            g.favourites.remove(&(id, s));
            g.bump(Some(s), |s| &mut s.favourites_count, -1);
        }
        g.bookmarks.retain(|(a, _), _| *a != id);
        g.pins.retain(|(a, _), _| *a != id);
        g.conversation_mutes.retain(|(a, _)| *a != id);
        let pairs: Vec<(Id, Id)> = g
            .follows
            .keys()
            .filter(|(a, t)| *a == id || *t == id)
            .copied()
            .collect();
        for (a, t) in pairs {
            g.remove_follow(a, t);
        }
        g.follow_requests.retain(|(a, t), _| *a != id && *t != id);
        g.blocks.retain(|(a, t), _| *a != id && *t != id);
        g.mutes.retain(|(a, t), _| *a != id && *t != id);
        g.notes.retain(|(a, t), _| *a != id && *t != id);
        g.endorsements.retain(|(a, t), _| *a != id && *t != id);
        g.dismissals.retain(|(a, t)| *a != id && *t != id);
        g.domain_blocks.retain(|(a, _), _| *a != id);
        g.tag_follows.retain(|(a, _), _| *a != id);
        g.featured_tags.retain(|_, f| f.account_id != id);
        g.scheduled_statuses.retain(|_, s| s.account_id != id);
        g.media.retain(|_, m| m.account_id != id);
        g.notifications
            .retain(|_, n| n.account_id != id && n.from_account_id != id);
        g.markers.retain(|(a, _), _| *a != id);
        let filters: Vec<Id> = g
            .filters
            .values()
            .filter(|f| f.account_id == id)
            .map(|f| f.id)
            .collect();
        for f in filters {
            g.remove_filter(f);
        }
        g.conversations.retain(|_, c| c.account_id != id);
        g.notification_policies.remove(&id);
        g.notification_permissions
            .retain(|(a, f)| *a != id && *f != id);
        g.notification_requests
            .retain(|_, r| r.account_id != id && r.from_account_id != id);
        g.announcements.forget_account(id);
        Ok(())
    }

    fn moderation(&self) -> Option<&dyn ModerationStore> {
        Some(self)
    }

    fn crypto(&self) -> Option<&dyn CryptoStore> {
        Some(self)
    }

    fn announcements(&self) -> Option<&dyn AnnouncementStore> {
        Some(self)
    }

    async fn save_mail_token(&self, token: &MailTokenRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if !g.users.contains_key(&token.account_id) {
            return Err(StoreError::NotFound);
        }
        g.mail_tokens
            .insert((token.account_id, token.purpose), token.clone());
        Ok(())
    }

    async fn mail_token(
        &self,
        purpose: MailTokenPurpose,
        token_hash: &str,
    ) -> StoreResult<Option<MailTokenRecord>> {
        Ok(self
            .read()?
            .mail_tokens
            .values()
            .find(|t| t.purpose == purpose && t.token_hash == token_hash)
            .cloned())
    }

    async fn reset_password(
        &self,
        token_hash: &str,
        sent_after: DateTime<Utc>,
        password_hash: &str,
        at: DateTime<Utc>,
    ) -> StoreResult<Option<Id>> {
        let mut g = self.write()?;
        let Some(key) = g
            .mail_tokens
            .iter()
            .find(|(_, t)| {
                t.purpose == MailTokenPurpose::PasswordReset
                    && t.token_hash == token_hash
                    && t.sent_at > sent_after
            })
            .map(|(k, _)| *k)
        else {
            return Ok(None);
        };
        let account = key.0;
        let Some(user) = g.users.get_mut(&account) else {
            return Ok(None);
        };
        user.password_hash = password_hash.to_string();
        g.mail_tokens.remove(&key);
        let mut revoked = vec![];
        for t in g.tokens.values_mut() {
            if t.account_id == Some(account) && t.revoked_at.is_none() {
                t.revoked_at = Some(at);
                revoked.push(t.id);
            }
        }
        for id in revoked {
            g.push_subscriptions.remove(&id);
        }
        g.authorizations.retain(|_, a| a.account_id != account);
        Ok(Some(account))
    }

    async fn confirm_email_change(
        &self,
        token_hash: &str,
        sent_after: DateTime<Utc>,
    ) -> StoreResult<Option<UserRecord>> {
        let mut g = self.write()?;
        let Some((key, email)) = g
            .mail_tokens
            .iter()
            .find(|(_, t)| {
                t.purpose == MailTokenPurpose::EmailChange
                    && t.token_hash == token_hash
                    && t.sent_at > sent_after
            })
            .and_then(|(k, t)| Some((*k, t.email.clone()?)))
        else {
            return Ok(None);
        };
        let account = key.0;
        if g.users
            .values()
            .any(|u| u.account_id != account && u.email.eq_ignore_ascii_case(&email))
        {
            return Err(StoreError::AlreadyExists("email".into()));
        }
        let Some(user) = g.users.get_mut(&account) else {
            return Ok(None);
        };
        user.email = email;
        let user = user.clone();
        g.mail_tokens.remove(&key);
        Ok(Some(user))
    }

    async fn notification_emails(
        &self,
        accounts: &[Id],
    ) -> StoreResult<Vec<(Id, NotificationEmailsRecord)>> {
        let g = self.read()?;
        Ok(crate::loaded::unique_ids(accounts.iter().copied())
            .iter()
            .filter_map(|id| g.notification_emails.get(id).map(|c| (*id, *c)))
            .collect())
    }

    async fn save_notification_emails(
        &self,
        account: Id,
        choices: &NotificationEmailsRecord,
    ) -> StoreResult<()> {
        let mut g = self.write()?;
        if !g.users.contains_key(&account) {
            return Err(StoreError::NotFound);
        }
        g.notification_emails.insert(account, *choices);
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

    async fn apps_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<AppRecord>> {
        let g = self.read()?;
        let wanted: std::collections::BTreeSet<Id> = ids.iter().copied().collect();
        Ok(wanted
            .into_iter()
            .filter_map(|id| g.apps.get(&id).cloned())
            .collect())
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
                let token = t.id;
                g.push_subscriptions.remove(&token);
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn keeps_push_subscriptions(&self) -> bool {
        true
    }

    async fn put_push_subscription(&self, sub: &PushSubscriptionRecord) -> StoreResult<()> {
        self.write()?
            .push_subscriptions
            .insert(sub.token_id, sub.clone());
        Ok(())
    }

    async fn push_subscription_of_token(
        &self,
        token_id: Id,
    ) -> StoreResult<Option<PushSubscriptionRecord>> {
        Ok(self.read()?.push_subscriptions.get(&token_id).cloned())
    }

    async fn push_subscriptions_of_account(
        &self,
        account_id: Id,
    ) -> StoreResult<Vec<PushSubscriptionRecord>> {
        let g = self.read()?;
        let live: BTreeSet<Id> = g
            .tokens
            .values()
            .filter(|t| t.account_id == Some(account_id) && t.revoked_at.is_none())
            .map(|t| t.id)
            .collect();
        Ok(g.push_subscriptions
            .values()
            .filter(|p| p.account_id == account_id && live.contains(&p.token_id))
            .cloned()
            .collect())
    }

    async fn delete_push_subscription(&self, id: Id) -> StoreResult<bool> {
        let mut g = self.write()?;
        let before = g.push_subscriptions.len();
        g.push_subscriptions.retain(|_, p| p.id != id);
        Ok(g.push_subscriptions.len() < before)
    }

    async fn record_code_exchange(
        &self,
        code_hash: &str,
        token_hash: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> StoreResult<()> {
        let mut g = self.write()?;
        g.code_exchanges.retain(|_, (_, u)| *u > now);
        g.code_exchanges
            .insert(code_hash.to_string(), (token_hash.to_string(), until));
        Ok(())
    }

    async fn take_code_exchange(
        &self,
        code_hash: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<Option<String>> {
        Ok(self
            .write()?
            .code_exchanges
            .remove(code_hash)
            .filter(|(_, until)| now < *until)
            .map(|(token, _)| token))
    }
}

#[async_trait]
impl StatusStore for MemoryStore {
    fn quotes(&self) -> Option<&dyn QuoteStore> {
        Some(self)
    }
    async fn insert_status(&self, status: &StatusRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.statuses.contains_key(&status.id) {
            return Err(StoreError::AlreadyExists("status".into()));
        }
        if let Some(of) = status.reblog_of_id
            && g.reblog_by(status.account_id, of).is_some()
        {
            return Err(StoreError::AlreadyExists("reblog".into()));
        }
        if !g.media_attachable(&status.media_ids, status.account_id, status.id) {
            return Err(StoreError::AlreadyExists("media".into()));
        }
        g.attach_media(&status.media_ids, status.id);
        g.statuses.insert(status.id, status.clone());
        g.bump(status.in_reply_to_id, |s| &mut s.replies_count, 1);
        g.bump(status.reblog_of_id, |s| &mut s.reblogs_count, 1);
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
        if self.write()?.remove_status(id) {
            Ok(())
        } else {
            Err(StoreError::NotFound)
        }
    }

    async fn link_reply(&self, status: Id, parent: Id) -> StoreResult<bool> {
        let mut g = self.write()?;
        let (Some(child), Some(p)) = (g.statuses.get(&status), g.statuses.get(&parent)) else {
            return Err(StoreError::NotFound);
        };
        if child.in_reply_to_id.is_some()
            || child.reblog_of_id.is_some()
            || p.reblog_of_id.is_some()
            || status == parent
        {
            return Ok(false);
        }
        let (author, thread) = (p.account_id, p.conversation_id.unwrap_or(p.id));
        for s in g.statuses.values_mut() {
            if s.id == status || s.conversation_id == Some(status) {
                s.conversation_id = Some(thread);
            }
        }
        if let Some(child) = g.statuses.get_mut(&status) {
            child.in_reply_to_id = Some(parent);
            child.in_reply_to_account_id = Some(author);
        }
        g.bump(Some(parent), |s| &mut s.replies_count, 1);
        Ok(true)
    }

    async fn public_timeline(
        &self,
        filter: PublicTimelineFilter,
        page: Page,
    ) -> StoreResult<Vec<StatusRecord>> {
        let g = self.read()?;
        let visible = g.statuses.values().rev().filter(|s| {
            s.visibility == Visibility::Public
                && s.reblog_of_id.is_none()
                && !s.is_reply_to_other()
                && (!filter.local || s.local)
                && (!filter.remote || !s.local)
                && (!filter.only_media || s.has_media())
                && g.accounts
                    .get(&s.account_id)
                    .is_some_and(|a| !a.is_suspended())
        });
        Ok(page.apply(visible, |s| s.id).into_iter().cloned().collect())
    }

    async fn tag_timeline(
        &self,
        filter: &TagTimelineFilter,
        page: Page,
    ) -> StoreResult<Vec<StatusRecord>> {
        let g = self.read()?;
        let place = filter.place;
        let has = |s: &StatusRecord, t: &String| s.tags.contains(t);
        let visible = g.statuses.values().rev().filter(|s| {
            s.visibility == Visibility::Public
                && s.reblog_of_id.is_none()
                && filter.any.iter().any(|t| has(s, t))
                && filter.all.iter().all(|t| has(s, t))
                && !filter.none.iter().any(|t| has(s, t))
                && (!place.local || s.local)
                && (!place.remote || !s.local)
                && (!place.only_media || s.has_media())
                && g.accounts
                    .get(&s.account_id)
                    .is_some_and(|a| !a.is_suspended())
        });
        Ok(page.apply(visible, |s| s.id).into_iter().cloned().collect())
    }

    async fn account_statuses(
        &self,
        account_id: Id,
        filter: &AccountStatusesFilter,
        page: Page,
    ) -> StoreResult<Vec<StatusRecord>> {
        let g = self.read()?;
        let matching = g.statuses.values().rev().filter(|s| {
            s.account_id == account_id
                && (filter.visibilities.contains(&s.visibility)
                    || filter
                        .or_mentioning
                        .is_some_and(|m| s.mentions.contains(&m)))
                && !(filter.exclude_replies && s.is_reply_to_other())
                && !(filter.exclude_reblogs && s.reblog_of_id.is_some())
                && (!filter.only_media || s.has_media())
                && filter.tagged.as_ref().is_none_or(|t| s.tags.contains(t))
        });
        Ok(page
            .apply(matching, |s| s.id)
            .into_iter()
            .cloned()
            .collect())
    }

    async fn index_statuses(&self, documents: &[SearchDocument]) -> StoreResult<()> {
        let mut g = self.write()?;
        for d in documents {
            let indexable = g
                .statuses
                .get(&d.status_id)
                .is_some_and(|s| s.reblog_of_id.is_none());
            if indexable {
                g.search_index
                    .insert(d.status_id, crate::search_query::words(&d.text));
            }
        }
        Ok(())
    }

    async fn search_statuses(&self, search: &StatusSearch) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        let found = g
            .search_index
            .range(..search.max_id.unwrap_or(Id(u64::MAX)))
            .rev()
            .take_while(|(id, _)| search.min_id.is_none_or(|min| **id > min))
            .filter(|(id, words)| g.finds(search, **id, words))
            .map(|(id, _)| *id)
            .skip(search.offset as usize)
            .take(search.limit as usize)
            .collect();
        Ok(found)
    }

    async fn indexable_status_ids(&self, after: Option<Id>, limit: u64) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        let from = after.map_or(Id(0), |a| Id(a.0.saturating_add(1)));
        Ok(g.statuses
            .range(from..)
            .filter(|(_, s)| s.reblog_of_id.is_none())
            .map(|(id, _)| *id)
            .take(limit as usize)
            .collect())
    }
}

#[async_trait]
impl FollowStore for MemoryStore {
    async fn insert_follow(&self, id: Id, follower: Id, target: Id) -> StoreResult<()> {
        self.upsert_follow_if_new(FollowRecord::new(id, follower, target))?;
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
        let rows = g
            .follows
            .values()
            .filter(|f| f.target_id == target)
            .map(|f| (f.id, f.account_id));
        Ok(newest_first(rows, page))
    }

    async fn following_page(&self, follower: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        let g = self.read()?;
        let rows = g
            .follows
            .range((follower, Id(0))..=(follower, Id(u64::MAX)))
            .map(|(_, f)| (f.id, f.target_id));
        Ok(newest_first(rows, page))
    }

    async fn insert_follow_request(&self, id: Id, follower: Id, target: Id) -> StoreResult<()> {
        self.write()?
            .follow_requests
            .entry((follower, target))
            .or_insert_with(|| FollowRecord::new(id, follower, target));
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
        let rows = g
            .follow_requests
            .values()
            .filter(|f| f.target_id == target)
            .map(|f| (f.id, f.account_id));
        Ok(newest_first(rows, page))
    }

    async fn follow_of(&self, follower: Id, target: Id) -> StoreResult<Option<FollowRecord>> {
        Ok(self.read()?.follows.get(&(follower, target)).cloned())
    }

    async fn upsert_follow(&self, follow: &FollowRecord) -> StoreResult<bool> {
        self.upsert_follow_if_new(follow.clone())
    }

    async fn follow_request_of(
        &self,
        follower: Id,
        target: Id,
    ) -> StoreResult<Option<FollowRecord>> {
        Ok(self
            .read()?
            .follow_requests
            .get(&(follower, target))
            .cloned())
    }

    async fn upsert_follow_request(&self, request: &FollowRecord) -> StoreResult<bool> {
        let mut g = self.write()?;
        let key = (request.account_id, request.target_id);
        Ok(match g.follow_requests.get_mut(&key) {
            Some(old) => {
                *old = FollowRecord {
                    id: old.id,
                    ..request.clone()
                };
                false
            }
            None => {
                g.follow_requests.insert(key, request.clone());
                true
            }
        })
    }

    async fn familiar_followers(
        &self,
        account: Id,
        target: Id,
        limit: u64,
    ) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        let mut rows: Vec<&FollowRecord> = g
            .follows
            .values()
            .filter(|f| f.target_id == target && g.follows.contains_key(&(account, f.account_id)))
            .collect();
        rows.sort_unstable_by_key(|f| std::cmp::Reverse(f.id));
        Ok(rows
            .into_iter()
            .take(limit as usize)
            .map(|f| f.account_id)
            .collect())
    }

    async fn notified_follower_ids(&self, target: Id) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        Ok(g.follows
            .values()
            .filter(|f| {
                f.target_id == target
                    && f.notify
                    && g.accounts
                        .get(&f.account_id)
                        .is_some_and(AccountRecord::is_local)
            })
            .map(|f| f.account_id)
            .collect())
    }

    async fn language_restricted_followers(
        &self,
        target: Id,
    ) -> StoreResult<Vec<(Id, Vec<String>)>> {
        let g = self.read()?;
        Ok(g.follows
            .values()
            .filter(|f| {
                f.target_id == target
                    && g.accounts
                        .get(&f.account_id)
                        .is_some_and(AccountRecord::is_local)
            })
            .filter_map(|f| Some((f.account_id, f.languages.clone()?)))
            .collect())
    }

    async fn reblog_audience(
        &self,
        booster: Id,
        author: Id,
        now: DateTime<Utc>,
    ) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        Ok(g.follows
            .values()
            .filter(|f| f.target_id == booster && f.show_reblogs)
            .map(|f| f.account_id)
            .filter(|f| {
                g.accounts.get(f).is_some_and(AccountRecord::is_local)
                    && !g.blocks.contains_key(&(author, *f))
                    && !g.blocks.contains_key(&(*f, author))
                    && !g
                        .mutes
                        .get(&(*f, author))
                        .is_some_and(|m| mute_in_force(m, now))
            })
            .collect())
    }

    async fn friends_of_friends(&self, account: Id, limit: u64) -> StoreResult<Vec<(Id, i64)>> {
        let g = self.read()?;
        let mut counts: HashMap<Id, i64> = HashMap::new();
        for (_, friend) in g.follows.range((account, Id(0))..=(account, Id(u64::MAX))) {
            for (_, f) in g
                .follows
                .range((friend.target_id, Id(0))..=(friend.target_id, Id(u64::MAX)))
            {
                if f.target_id != account && !g.follows.contains_key(&(account, f.target_id)) {
                    *counts.entry(f.target_id).or_default() += 1;
                }
            }
        }
        let mut rows: Vec<(Id, i64)> = counts.into_iter().collect();
        rows.sort_unstable_by_key(|(id, n)| (std::cmp::Reverse(*n), std::cmp::Reverse(*id)));
        rows.truncate(limit as usize);
        Ok(rows)
    }
}

impl MemoryStore {
    /// Inserts a follow (counters updated) or replaces the options of an existing one.
    fn upsert_follow_if_new(&self, follow: FollowRecord) -> StoreResult<bool> {
        let mut g = self.write()?;
        let key = (follow.account_id, follow.target_id);
        if let Some(old) = g.follows.get_mut(&key) {
            *old = FollowRecord {
                id: old.id,
                ..follow
            };
            return Ok(false);
        }
        g.follows.insert(key, follow);
        if let Some(a) = g.accounts.get_mut(&key.0) {
            a.following_count += 1;
        }
        if let Some(a) = g.accounts.get_mut(&key.1) {
            a.followers_count += 1;
        }
        Ok(true)
    }
}

/// Sorts `(cursor, value)` rows newest cursor first and cuts one page.
fn newest_first<T>(rows: impl Iterator<Item = (Id, T)>, page: Page) -> Vec<(Id, T)> {
    let mut rows: Vec<(Id, T)> = rows.collect();
    rows.sort_unstable_by_key(|r| std::cmp::Reverse(r.0));
    page.apply(rows.into_iter(), |r| r.0)
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

    async fn has_relations(&self, account: Id) -> StoreResult<bool> {
        let g = self.read()?;
        let mut blocks = g.blocks.keys();
        Ok(blocks.any(|(a, t)| *a == account || *t == account)
            || g.mutes
                .range((account, Id(0))..=(account, Id(u64::MAX)))
                .next()
                .is_some())
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
        author_id: Id,
        account_ids: &[Id],
    ) -> StoreResult<()> {
        let mut g = self.write()?;
        for a in account_ids {
            g.feeds
                .entry(Feed::Home(*a))
                .or_default()
                .insert(status_id, author_id);
        }
        Ok(())
    }

    async fn home_feed(&self, account_id: Id, page: Page) -> StoreResult<Vec<Id>> {
        self.read()?.feed_page(Feed::Home(account_id), page)
    }

    async fn insert_list_entries(
        &self,
        status_id: Id,
        author_id: Id,
        list_ids: &[Id],
    ) -> StoreResult<()> {
        let mut g = self.write()?;
        for l in list_ids {
            g.feeds
                .entry(Feed::List(*l))
                .or_default()
                .insert(status_id, author_id);
        }
        Ok(())
    }

    async fn backfill_feed(&self, feed: Feed, entries: &[(Id, Id)]) -> StoreResult<()> {
        let mut g = self.write()?;
        let f = g.feeds.entry(feed).or_default();
        for (status, author) in entries {
            f.insert(*status, *author);
        }
        Ok(())
    }

    async fn list_feed(&self, list_id: Id, page: Page) -> StoreResult<Vec<Id>> {
        self.read()?.feed_page(Feed::List(list_id), page)
    }

    async fn remove_author_entries(&self, account: Id, author: Id) -> StoreResult<()> {
        let mut g = self.write()?;
        g.remove_author_from(Feed::Home(account), author);
        let owned: Vec<Id> = g
            .lists
            .values()
            .filter(|l| l.account_id == account)
            .map(|l| l.id)
            .collect();
        for l in owned {
            g.remove_author_from(Feed::List(l), author);
        }
        Ok(())
    }
}

impl Inner {
    /// One page of a feed's status ids, newest first.
    fn feed_page(&self, feed: Feed, page: Page) -> StoreResult<Vec<Id>> {
        Ok(match self.feeds.get(&feed) {
            Some(f) => page.apply(f.keys().rev().copied(), |id| *id),
            None => vec![],
        })
    }
}

#[async_trait]
impl ListStore for MemoryStore {
    async fn insert_list(&self, list: &ListRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.lists.contains_key(&list.id) {
            return Err(StoreError::AlreadyExists("list".into()));
        }
        g.lists.insert(list.id, list.clone());
        Ok(())
    }

    async fn list_by_id(&self, id: Id) -> StoreResult<Option<ListRecord>> {
        Ok(self.read()?.lists.get(&id).cloned())
    }

    async fn lists_of(&self, account: Id) -> StoreResult<Vec<ListRecord>> {
        Ok(self
            .read()?
            .lists
            .values()
            .filter(|l| l.account_id == account)
            .cloned()
            .collect())
    }

    async fn update_list(&self, list: &ListRecord) -> StoreResult<bool> {
        let mut g = self.write()?;
        Ok(match g.lists.get_mut(&list.id) {
            Some(l) => {
                l.title = list.title.clone();
                l.replies_policy = list.replies_policy;
                l.exclusive = list.exclusive;
                true
            }
            None => false,
        })
    }

    async fn delete_list(&self, id: Id) -> StoreResult<bool> {
        Ok(self.write()?.remove_list(id))
    }

    async fn add_list_accounts(&self, list_id: Id, accounts: &[Id]) -> StoreResult<()> {
        let mut g = self.write()?;
        if !g.lists.contains_key(&list_id) {
            return Err(StoreError::NotFound);
        }
        if accounts
            .iter()
            .any(|a| g.list_members.contains(&(list_id, *a)))
        {
            return Err(StoreError::AlreadyExists("list_account".into()));
        }
        for a in accounts {
            g.list_members.insert((list_id, *a));
        }
        Ok(())
    }

    async fn remove_list_accounts(&self, list_id: Id, accounts: &[Id]) -> StoreResult<u64> {
        let mut g = self.write()?;
        let mut removed = 0;
        for a in accounts {
            if g.list_members.remove(&(list_id, *a)) {
                removed += 1;
            }
            g.remove_author_from(Feed::List(list_id), *a);
        }
        Ok(removed)
    }

    async fn remove_from_lists(&self, owner: Id, account: Id) -> StoreResult<()> {
        let mut g = self.write()?;
        let owned: Vec<Id> = g
            .lists
            .values()
            .filter(|l| l.account_id == owner)
            .map(|l| l.id)
            .collect();
        for l in owned {
            g.list_members.remove(&(l, account));
            g.remove_author_from(Feed::List(l), account);
        }
        Ok(())
    }

    async fn list_accounts_page(&self, list_id: Id, page: Page) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        let members = g
            .list_members
            .range((list_id, Id(0))..=(list_id, Id(u64::MAX)))
            .rev()
            .map(|(_, a)| *a);
        Ok(page.apply(members, |id| *id))
    }

    async fn lists_with_member(
        &self,
        account: Id,
        owner: Option<Id>,
    ) -> StoreResult<Vec<ListRecord>> {
        let g = self.read()?;
        Ok(g.lists
            .values()
            .filter(|l| owner.is_none_or(|o| l.account_id == o))
            .filter(|l| g.list_members.contains(&(l.id, account)))
            .cloned()
            .collect())
    }
}

#[async_trait]
impl StatsStore for MemoryStore {
    fn keeps_dashboard_data(&self) -> bool {
        true
    }

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

    async fn record_active_day(&self, account: Id, day: chrono::NaiveDate) -> StoreResult<()> {
        self.write()?.activity_days.insert((account, day));
        Ok(())
    }

    async fn measure_events(
        &self,
        kind: &MeasureKind,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<Vec<MeasureEvent>> {
        let g = self.read()?;
        Ok(measure_events_in(&g, kind, Some((from, to))))
    }

    async fn measure_total(&self, kind: &MeasureKind) -> StoreResult<i64> {
        let g = self.read()?;
        Ok(measure_events_in(&g, kind, None)
            .iter()
            .map(|e| e.amount)
            .sum())
    }

    async fn dimension_counts(
        &self,
        kind: &DimensionKind,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        limit: u64,
    ) -> StoreResult<Vec<(Option<String>, i64)>> {
        let g = self.read()?;
        Ok(dimension_counts_in(&g, kind, from, to, limit))
    }

    async fn signups_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<Vec<SignUpRecord>> {
        let g = self.read()?;
        let days =
            |account: Id| (account, chrono::NaiveDate::MIN)..=(account, chrono::NaiveDate::MAX);
        Ok(g.users
            .values()
            .filter(|u| u.created_at >= from && u.created_at < to)
            .map(|u| SignUpRecord {
                created_at: u.created_at,
                last_active: g
                    .activity_days
                    .range(days(u.account_id))
                    .next_back()
                    .map(|(_, day)| *day),
            })
            .collect())
    }

    async fn storage_usage(&self) -> StoreResult<StorageUsage> {
        Ok(StorageUsage {
            engine: "memory".into(),
            engine_name: "In memory".into(),
            engine_version: String::new(),
            database_bytes: None,
            media_bytes: Some(self.read()?.media.values().map(|m| m.file_size).sum()),
        })
    }
}

/// The time an id was made at.
fn id_time(id: Id) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(id.millis()).unwrap_or_default()
}

/// The events `kind` counts, in `range` when one is given.
fn measure_events_in(
    g: &Inner,
    kind: &MeasureKind,
    range: Option<(DateTime<Utc>, DateTime<Utc>)>,
) -> Vec<MeasureEvent> {
    let within = |t: DateTime<Utc>| range.is_none_or(|(from, to)| t >= from && t < to);
    let event = |at: DateTime<Utc>, subject: String, amount: i64| MeasureEvent {
        at,
        subject,
        amount,
    };
    let covered = |account: Id, scope: &DomainScope| {
        g.accounts
            .get(&account)
            .is_some_and(|a| scope.covers(a.domain.as_deref()))
    };
    let tagged = |name: &String| {
        let name = name.clone();
        g.statuses
            .values()
            .filter(move |s| within(s.created_at) && s.tags.contains(&name))
    };
    let mut out = vec![];
    match kind {
        MeasureKind::ActiveUsers => {
            for (account, day) in &g.activity_days {
                let at = midnight(*day);
                if within(at) {
                    out.push(event(at, account.to_string(), 1));
                }
            }
        }
        MeasureKind::NewUsers => {
            for u in g.users.values().filter(|u| within(u.created_at)) {
                out.push(event(u.created_at, u.account_id.to_string(), 1));
            }
        }
        MeasureKind::Interactions => {
            // On a local status of someone else.
            let counts = |target: Id, actor: Id| {
                g.statuses
                    .get(&target)
                    .is_some_and(|t| t.local && t.account_id != actor)
            };
            for ((account, status), id) in &g.favourites {
                if counts(*status, *account) && within(id_time(*id)) {
                    out.push(event(id_time(*id), account.to_string(), 1));
                }
            }
            for s in g.statuses.values().filter(|s| within(s.created_at)) {
                for target in [s.reblog_of_id, s.in_reply_to_id].into_iter().flatten() {
                    if counts(target, s.account_id) {
                        out.push(event(s.created_at, s.account_id.to_string(), 1));
                    }
                }
            }
        }
        MeasureKind::OpenedReports => {
            for r in g.reports.values().filter(|r| within(r.created_at)) {
                out.push(event(r.created_at, r.target_account_id.to_string(), 1));
            }
        }
        MeasureKind::ResolvedReports => {
            for r in g.reports.values() {
                if let Some(at) = r.action_taken_at.filter(|t| within(*t)) {
                    out.push(event(at, r.target_account_id.to_string(), 1));
                }
            }
        }
        MeasureKind::TagStatuses { name } => {
            for s in tagged(name) {
                out.push(event(s.created_at, s.account_id.to_string(), 1));
            }
        }
        MeasureKind::TagServers { name } => {
            for s in tagged(name) {
                if let Some(a) = g.accounts.get(&s.account_id) {
                    let domain = a.domain.as_deref().unwrap_or("").to_ascii_lowercase();
                    out.push(event(s.created_at, domain, 1));
                }
            }
        }
        MeasureKind::InstanceAccounts(scope) => {
            for a in g.accounts.values() {
                if scope.covers(a.domain.as_deref()) && within(a.created_at) {
                    out.push(event(a.created_at, a.id.to_string(), 1));
                }
            }
        }
        MeasureKind::InstanceMediaAttachments(scope) => {
            for m in g.media.values() {
                if covered(m.account_id, scope) && within(m.created_at) {
                    out.push(event(m.created_at, m.account_id.to_string(), m.file_size));
                }
            }
        }
        MeasureKind::InstanceReports(scope) => {
            for r in g.reports.values() {
                if covered(r.target_account_id, scope) && within(r.created_at) {
                    out.push(event(r.created_at, r.target_account_id.to_string(), 1));
                }
            }
        }
        MeasureKind::InstanceStatuses(scope) => {
            for s in g.statuses.values() {
                if covered(s.account_id, scope) && within(s.created_at) {
                    out.push(event(s.created_at, s.account_id.to_string(), 1));
                }
            }
        }
        MeasureKind::InstanceFollows(scope) => {
            for f in g.follows.values() {
                if covered(f.target_id, scope) && within(id_time(f.id)) {
                    out.push(event(id_time(f.id), f.account_id.to_string(), 1));
                }
            }
        }
        MeasureKind::InstanceFollowers(scope) => {
            for f in g.follows.values() {
                if covered(f.account_id, scope) && within(id_time(f.id)) {
                    out.push(event(id_time(f.id), f.target_id.to_string(), 1));
                }
            }
        }
    }
    out
}

/// The groups `kind` counts in `[from, to)`, biggest first (then by key), at most `limit`.
fn dimension_counts_in(
    g: &Inner,
    kind: &DimensionKind,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    limit: u64,
) -> Vec<(Option<String>, i64)> {
    let within = |t: DateTime<Utc>| t >= from && t < to;
    let domain_of = |account: Id| {
        g.accounts
            .get(&account)
            .map(|a| a.domain.as_deref().map(str::to_ascii_lowercase))
    };
    let covered = |account: Id, scope: &DomainScope| {
        g.accounts
            .get(&account)
            .is_some_and(|a| scope.covers(a.domain.as_deref()))
    };
    let tagged = |name: &String| {
        let name = name.clone();
        g.statuses
            .values()
            .filter(move |s| within(s.created_at) && s.tags.contains(&name))
    };
    let mut counts: BTreeMap<Option<String>, i64> = BTreeMap::new();
    let mut rows: Vec<(Option<String>, i64)> = vec![];
    match kind {
        DimensionKind::Languages => {
            let days = days_within(from, to);
            let active: BTreeSet<Id> = g
                .activity_days
                .iter()
                .filter(|(_, day)| days.contains(day))
                .map(|(account, _)| *account)
                .collect();
            for u in active.iter().filter_map(|a| g.users.get(a)) {
                *counts.entry(Some(u.locale.clone())).or_default() += 1;
            }
        }
        DimensionKind::Sources => {
            let window = chrono::Duration::seconds(SIGN_UP_TOKEN_WINDOW_SECS);
            for u in g.users.values().filter(|u| within(u.created_at)) {
                let first = g
                    .tokens
                    .values()
                    .filter(|t| t.account_id == Some(u.account_id))
                    .filter(|t| {
                        t.created_at >= u.created_at && t.created_at <= u.created_at + window
                    })
                    .min_by_key(|t| (t.created_at, t.id));
                let app = first
                    .and_then(|t| g.apps.get(&t.app_id))
                    .map(|a| a.name.clone());
                *counts.entry(app).or_default() += 1;
            }
        }
        DimensionKind::Servers => {
            for s in g.statuses.values().filter(|s| within(s.created_at)) {
                if let Some(domain) = domain_of(s.account_id) {
                    *counts.entry(domain).or_default() += 1;
                }
            }
        }
        DimensionKind::TagServers { name } => {
            for s in tagged(name) {
                if let Some(domain) = domain_of(s.account_id) {
                    *counts.entry(domain).or_default() += 1;
                }
            }
        }
        DimensionKind::TagLanguages { name } => {
            for s in tagged(name) {
                *counts.entry(s.language.clone()).or_default() += 1;
            }
        }
        DimensionKind::InstanceAccounts(scope) => {
            for a in g.accounts.values() {
                if scope.covers(a.domain.as_deref()) {
                    let followers = g.follows.values().filter(|f| f.target_id == a.id).count();
                    rows.push((Some(a.username.clone()), followers as i64));
                }
            }
        }
        DimensionKind::InstanceLanguages(scope) => {
            for s in g.statuses.values() {
                if s.reblog_of_id.is_none() && covered(s.account_id, scope) && within(s.created_at)
                {
                    *counts.entry(s.language.clone()).or_default() += 1;
                }
            }
        }
    }
    rows.extend(counts);
    rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    rows.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    rows
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

    async fn release_jobs(&self, ids: &[Id], worker: &str) -> StoreResult<u64> {
        let mut g = self.write()?;
        let mut released = 0;
        for id in ids {
            if let Some(job) = g.jobs.get_mut(id).filter(|j| holds(j, worker)) {
                job.state = JobState::Queued;
                job.attempts = (job.attempts - 1).max(0);
                job.locked_by = None;
                job.locked_until = None;
                released += 1;
            }
        }
        Ok(released)
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

#[async_trait]
impl AccountNoteStore for MemoryStore {
    async fn set_account_note(&self, account: Id, target: Id, comment: &str) -> StoreResult<()> {
        let mut g = self.write()?;
        if comment.is_empty() {
            g.notes.remove(&(account, target));
        } else {
            g.notes.insert((account, target), comment.to_string());
        }
        Ok(())
    }

    async fn account_note(&self, account: Id, target: Id) -> StoreResult<Option<String>> {
        Ok(self.read()?.notes.get(&(account, target)).cloned())
    }

    async fn insert_endorsement(&self, id: Id, account: Id, target: Id) -> StoreResult<()> {
        self.write()?
            .endorsements
            .entry((account, target))
            .or_insert(id);
        Ok(())
    }

    async fn delete_endorsement(&self, account: Id, target: Id) -> StoreResult<bool> {
        Ok(self
            .write()?
            .endorsements
            .remove(&(account, target))
            .is_some())
    }

    async fn endorses(&self, account: Id, target: Id) -> StoreResult<bool> {
        Ok(self.read()?.endorsements.contains_key(&(account, target)))
    }

    async fn endorsements_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        let g = self.read()?;
        let rows = g
            .endorsements
            .range((account, Id(0))..=(account, Id(u64::MAX)))
            .map(|((_, t), id)| (*id, *t));
        Ok(newest_first(rows, page))
    }

    async fn dismiss_suggestion(&self, account: Id, target: Id) -> StoreResult<()> {
        self.write()?.dismissals.insert((account, target));
        Ok(())
    }

    async fn dismissed_suggestions(&self, account: Id) -> StoreResult<Vec<Id>> {
        Ok(self
            .read()?
            .dismissals
            .range((account, Id(0))..=(account, Id(u64::MAX)))
            .map(|(_, t)| *t)
            .collect())
    }
}

#[async_trait]
impl DomainBlockStore for MemoryStore {
    async fn insert_domain_block(&self, id: Id, account: Id, domain: &str) -> StoreResult<()> {
        let mut g = self.write()?;
        g.domain_blocks
            .entry((account, domain.to_string()))
            .or_insert(id);
        let on_domain = |g: &Inner, other: Id| {
            g.accounts
                .get(&other)
                .and_then(|a| a.domain.as_deref())
                .is_some_and(|d| d.eq_ignore_ascii_case(domain))
        };
        let followers: Vec<Id> = g
            .follows
            .values()
            .filter(|f| f.target_id == account && on_domain(&g, f.account_id))
            .map(|f| f.account_id)
            .collect();
        for f in followers {
            g.remove_follow(f, account);
        }
        let requesters: Vec<Id> = g
            .follow_requests
            .values()
            .filter(|f| f.target_id == account && on_domain(&g, f.account_id))
            .map(|f| f.account_id)
            .collect();
        for r in requesters {
            g.follow_requests.remove(&(r, account));
        }
        Ok(())
    }

    async fn delete_domain_block(&self, account: Id, domain: &str) -> StoreResult<bool> {
        Ok(self
            .write()?
            .domain_blocks
            .remove(&(account, domain.to_string()))
            .is_some())
    }

    async fn domain_blocked(&self, account: Id, domain: &str) -> StoreResult<bool> {
        Ok(self
            .read()?
            .domain_blocks
            .contains_key(&(account, domain.to_string())))
    }

    async fn domain_blocks_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, String)>> {
        let g = self.read()?;
        let rows = g
            .domain_blocks
            .iter()
            .filter(|((a, _), _)| *a == account)
            .map(|((_, d), id)| (*id, d.clone()));
        Ok(newest_first(rows, page))
    }
}

/// Whether a status is public or unlisted (what featured-tag counts include).
fn listed(s: &StatusRecord) -> bool {
    matches!(s.visibility, Visibility::Public | Visibility::Unlisted)
}

#[async_trait]
impl TagStore for MemoryStore {
    async fn find_or_create_tag(&self, tag: &TagRecord) -> StoreResult<TagRecord> {
        let mut g = self.write()?;
        if let Some(t) = g.tags.values().find(|t| t.name == tag.name) {
            return Ok(t.clone());
        }
        if g.tags.contains_key(&tag.id) {
            return Err(StoreError::AlreadyExists("tag".into()));
        }
        g.tags.insert(tag.id, tag.clone());
        Ok(tag.clone())
    }

    async fn tag_by_name(&self, name: &str) -> StoreResult<Option<TagRecord>> {
        Ok(self.read()?.tags.values().find(|t| t.name == name).cloned())
    }

    async fn tag_by_id(&self, id: Id) -> StoreResult<Option<TagRecord>> {
        Ok(self.read()?.tags.get(&id).cloned())
    }

    async fn tags_page(&self, page: Page) -> StoreResult<Vec<TagRecord>> {
        let inner = self.read()?;
        Ok(page.apply(inner.tags.values().rev().cloned(), |t| t.id))
    }

    async fn update_tag(&self, tag: &TagRecord) -> StoreResult<bool> {
        let mut g = self.write()?;
        let Some(stored) = g.tags.get_mut(&tag.id) else {
            return Ok(false);
        };
        stored.display_name = tag.display_name.clone();
        stored.review = tag.review.clone();
        Ok(true)
    }

    async fn tags_by_prefix(
        &self,
        prefix: &str,
        offset: u64,
        limit: u64,
    ) -> StoreResult<Vec<TagRecord>> {
        let inner = self.read()?;
        let mut found: Vec<&TagRecord> = inner
            .tags
            .values()
            .filter(|t| t.name.starts_with(prefix))
            .collect();
        found.sort_by(|a, b| {
            (a.name.chars().count(), &a.name).cmp(&(b.name.chars().count(), &b.name))
        });
        Ok(found
            .into_iter()
            .skip(offset as usize)
            .take(limit as usize)
            .cloned()
            .collect())
    }

    async fn tag_usage(
        &self,
        name: &str,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<TagUsage> {
        let g = self.read()?;
        let mut authors = BTreeSet::new();
        let mut uses = 0;
        for s in g.statuses.values() {
            if s.created_at >= from && s.created_at < to && s.tags.iter().any(|t| t == name) {
                uses += 1;
                authors.insert(s.account_id);
            }
        }
        Ok(TagUsage {
            uses,
            accounts: authors.len() as i64,
        })
    }

    async fn follow_tag(&self, id: Id, account: Id, tag_id: Id) -> StoreResult<()> {
        self.write()?
            .tag_follows
            .entry((account, tag_id))
            .or_insert(id);
        Ok(())
    }

    async fn unfollow_tag(&self, account: Id, tag_id: Id) -> StoreResult<bool> {
        Ok(self
            .write()?
            .tag_follows
            .remove(&(account, tag_id))
            .is_some())
    }

    async fn follows_tag(&self, account: Id, tag_id: Id) -> StoreResult<bool> {
        Ok(self.read()?.tag_follows.contains_key(&(account, tag_id)))
    }

    async fn followed_tags_page(
        &self,
        account: Id,
        page: Page,
    ) -> StoreResult<Vec<(Id, TagRecord)>> {
        let g = self.read()?;
        let rows = g
            .tag_follows
            .range((account, Id(0))..=(account, Id(u64::MAX)))
            .filter_map(|((_, t), id)| g.tags.get(t).map(|tag| (*id, tag.clone())));
        Ok(newest_first(rows, page))
    }

    async fn insert_featured_tag(&self, tag: &FeaturedTagRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.featured_tags
            .values()
            .any(|f| f.account_id == tag.account_id && f.tag_id == tag.tag_id)
        {
            return Err(StoreError::AlreadyExists("featured_tag".into()));
        }
        if g.featured_tags.contains_key(&tag.id) {
            return Err(StoreError::AlreadyExists("featured_tag".into()));
        }
        g.featured_tags.insert(tag.id, tag.clone());
        Ok(())
    }

    async fn delete_featured_tag(&self, account: Id, id: Id) -> StoreResult<bool> {
        let mut g = self.write()?;
        if g.featured_tags
            .get(&id)
            .is_some_and(|f| f.account_id == account)
        {
            g.featured_tags.remove(&id);
            return Ok(true);
        }
        Ok(false)
    }

    async fn featured_tags(&self, account: Id) -> StoreResult<Vec<FeaturedTagRecord>> {
        Ok(self
            .read()?
            .featured_tags
            .values()
            .filter(|f| f.account_id == account)
            .cloned()
            .collect())
    }

    async fn account_tag_stats(
        &self,
        account: Id,
        name: &str,
    ) -> StoreResult<(i64, Option<DateTime<Utc>>)> {
        let g = self.read()?;
        let mut count = 0;
        let mut last: Option<DateTime<Utc>> = None;
        for s in g.statuses.values() {
            if s.account_id == account && listed(s) && s.tags.iter().any(|t| t == name) {
                count += 1;
                last = last.max(Some(s.created_at));
            }
        }
        Ok((count, last))
    }

    async fn most_used_tags(
        &self,
        account: Id,
        since: DateTime<Utc>,
        limit: u64,
    ) -> StoreResult<Vec<String>> {
        let g = self.read()?;
        let mut counts: BTreeMap<&str, i64> = BTreeMap::new();
        for s in g.statuses.values() {
            if s.account_id == account && s.created_at >= since {
                for t in &s.tags {
                    *counts.entry(t.as_str()).or_default() += 1;
                }
            }
        }
        let mut rows: Vec<(&str, i64)> = counts.into_iter().collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        Ok(rows
            .into_iter()
            .take(limit as usize)
            .map(|(t, _)| t.to_string())
            .collect())
    }
}

/// Escape-free, case-insensitive matching of an account against a search's text.
fn search_matches(a: &AccountRecord, text: &str) -> bool {
    a.username.to_lowercase().starts_with(text) || a.display_name.to_lowercase().contains(text)
}

#[async_trait]
impl DirectoryStore for MemoryStore {
    async fn search_accounts(&self, search: &AccountSearch) -> StoreResult<Vec<AccountRecord>> {
        let g = self.read()?;
        let mut found: Vec<&AccountRecord> = g
            .accounts
            .values()
            .filter(|a| {
                !a.is_suspended()
                    && search_matches(a, &search.text)
                    && search.domain.as_deref().is_none_or(|d| {
                        a.domain
                            .as_deref()
                            .is_some_and(|ad| ad.eq_ignore_ascii_case(d))
                    })
                    && search
                        .followed_by
                        .is_none_or(|f| g.follows.contains_key(&(f, a.id)))
            })
            .collect();
        found.sort_by_key(|a| {
            (
                a.username.to_lowercase() != search.text,
                std::cmp::Reverse(a.followers_count),
                a.id,
            )
        });
        Ok(found
            .into_iter()
            .skip(search.offset as usize)
            .take(search.limit as usize)
            .cloned()
            .collect())
    }

    async fn directory(
        &self,
        order: DirectoryOrder,
        local_only: bool,
        offset: u64,
        limit: u64,
    ) -> StoreResult<Vec<AccountRecord>> {
        let g = self.read()?;
        let mut found: Vec<&AccountRecord> = g
            .accounts
            .values()
            .filter(|a| {
                a.discoverable == Some(true)
                    && !a.is_suspended()
                    && (!local_only || a.is_local())
                    && (!a.is_local() || g.users.get(&a.id).is_some_and(can_log_in))
            })
            .collect();
        match order {
            DirectoryOrder::Active => found.sort_by_key(|a| {
                (
                    a.last_status_at.is_none(),
                    std::cmp::Reverse(a.last_status_at),
                    std::cmp::Reverse(a.id),
                )
            }),
            DirectoryOrder::New => {
                found.sort_by_key(|a| (std::cmp::Reverse(a.created_at), std::cmp::Reverse(a.id)))
            }
        }
        Ok(found
            .into_iter()
            .skip(offset as usize)
            .take(limit as usize)
            .cloned()
            .collect())
    }

    async fn most_followed_local(&self, limit: u64) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        let mut found: Vec<&AccountRecord> = g
            .accounts
            .values()
            .filter(|a| a.is_local() && a.discoverable == Some(true) && !a.is_suspended())
            .collect();
        found.sort_by_key(|a| (std::cmp::Reverse(a.followers_count), a.id));
        Ok(found
            .into_iter()
            .take(limit as usize)
            .map(|a| a.id)
            .collect())
    }
}

/// Whether a login is confirmed and approved (such accounts are listed in the directory).
fn can_log_in(u: &UserRecord) -> bool {
    u.confirmed_at.is_some() && u.approved
}

/// Inserts `(account, status) -> id` unless present; returns whether it was new.
fn insert_pair(map: &mut BTreeMap<(Id, Id), Id>, id: Id, account: Id, status: Id) -> bool {
    if map.contains_key(&(account, status)) {
        return false;
    }
    map.insert((account, status), id);
    true
}

/// One page of `account`'s rows of a pair map as `(row id, status id)`, newest first.
fn own_page(map: &BTreeMap<(Id, Id), Id>, account: Id, page: Page) -> Vec<(Id, Id)> {
    let rows = map
        .range((account, Id(0))..=(account, Id(u64::MAX)))
        .map(|((_, s), id)| (*id, *s));
    newest_first(rows, page)
}

#[async_trait]
impl InteractionStore for MemoryStore {
    async fn insert_favourite(&self, id: Id, account: Id, status: Id) -> StoreResult<bool> {
        let mut g = self.write()?;
        let new = insert_pair(&mut g.favourites, id, account, status);
        if new {
            g.bump(Some(status), |s| &mut s.favourites_count, 1);
        }
        Ok(new)
    }

    async fn delete_favourite(&self, account: Id, status: Id) -> StoreResult<bool> {
        let mut g = self.write()?;
        let existed = g.favourites.remove(&(account, status)).is_some();
        if existed {
            g.bump(Some(status), |s| &mut s.favourites_count, -1);
        }
        Ok(existed)
    }

    async fn favourited_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        Ok(among(statuses, |s| {
            g.favourites.contains_key(&(account, s))
        }))
    }

    async fn favourites_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        Ok(own_page(&self.read()?.favourites, account, page))
    }

    async fn favourited_by_page(&self, status: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        let g = self.read()?;
        let rows = g
            .favourites
            .iter()
            .filter(|((_, s), _)| *s == status)
            .map(|((a, _), id)| (*id, *a));
        Ok(newest_first(rows, page))
    }

    async fn insert_bookmark(&self, id: Id, account: Id, status: Id) -> StoreResult<bool> {
        Ok(insert_pair(
            &mut self.write()?.bookmarks,
            id,
            account,
            status,
        ))
    }

    async fn delete_bookmark(&self, account: Id, status: Id) -> StoreResult<bool> {
        Ok(self.write()?.bookmarks.remove(&(account, status)).is_some())
    }

    async fn bookmarked_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        Ok(among(statuses, |s| g.bookmarks.contains_key(&(account, s))))
    }

    async fn bookmarks_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        Ok(own_page(&self.read()?.bookmarks, account, page))
    }

    async fn insert_pin(&self, id: Id, account: Id, status: Id) -> StoreResult<bool> {
        Ok(insert_pair(&mut self.write()?.pins, id, account, status))
    }

    async fn delete_pin(&self, account: Id, status: Id) -> StoreResult<bool> {
        Ok(self.write()?.pins.remove(&(account, status)).is_some())
    }

    async fn pinned_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        Ok(among(statuses, |s| g.pins.contains_key(&(account, s))))
    }

    async fn pinned_status_ids(&self, account: Id) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        let mut rows: Vec<(Id, Id)> = g
            .pins
            .range((account, Id(0))..=(account, Id(u64::MAX)))
            .map(|((_, s), id)| (*id, *s))
            .collect();
        rows.sort_unstable_by_key(|r| std::cmp::Reverse(r.0));
        Ok(rows.into_iter().map(|(_, s)| s).collect())
    }

    async fn reblog_by(&self, account: Id, status: Id) -> StoreResult<Option<StatusRecord>> {
        Ok(self.read()?.reblog_by(account, status).cloned())
    }

    async fn reblogged_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        let reblogged: BTreeSet<Id> = g
            .statuses
            .values()
            .filter(|s| s.account_id == account)
            .filter_map(|s| s.reblog_of_id)
            .collect();
        Ok(among(statuses, |s| reblogged.contains(&s)))
    }

    async fn reblogged_by_page(&self, status: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        let g = self.read()?;
        let rows = g
            .statuses
            .values()
            .filter(|s| s.reblog_of_id == Some(status))
            .map(|s| (s.id, s.account_id));
        Ok(newest_first(rows, page))
    }

    async fn replies_to(&self, parents: &[Id]) -> StoreResult<Vec<StatusRecord>> {
        let g = self.read()?;
        let parents: BTreeSet<Id> = parents.iter().copied().collect();
        Ok(g.statuses
            .values()
            .filter(|s| s.in_reply_to_id.is_some_and(|p| parents.contains(&p)))
            .cloned()
            .collect())
    }

    async fn mute_conversation(&self, account: Id, conversation: Id) -> StoreResult<()> {
        self.write()?
            .conversation_mutes
            .insert((account, conversation));
        Ok(())
    }

    async fn unmute_conversation(&self, account: Id, conversation: Id) -> StoreResult<bool> {
        Ok(self
            .write()?
            .conversation_mutes
            .remove(&(account, conversation)))
    }

    async fn muted_conversations_among(
        &self,
        account: Id,
        conversations: &[Id],
    ) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        Ok(among(conversations, |c| {
            g.conversation_mutes.contains(&(account, c))
        }))
    }
}

#[async_trait]
impl StatusEditStore for MemoryStore {
    async fn update_status(
        &self,
        status: &StatusRecord,
        revisions: &[StatusEditRecord],
    ) -> StoreResult<()> {
        let mut g = self.write()?;
        let author = g
            .statuses
            .get(&status.id)
            .ok_or(StoreError::NotFound)?
            .account_id;
        if !g.media_attachable(&status.media_ids, author, status.id) {
            return Err(StoreError::AlreadyExists("media".into()));
        }
        g.attach_media(&status.media_ids, status.id);
        let cur = g.statuses.get_mut(&status.id).ok_or(StoreError::NotFound)?;
        cur.text = status.text.clone();
        cur.content = status.content.clone();
        cur.spoiler_text = status.spoiler_text.clone();
        cur.sensitive = status.sensitive;
        cur.language = status.language.clone();
        cur.mentions = status.mentions.clone();
        cur.tags = status.tags.clone();
        cur.media_ids = status.media_ids.clone();
        cur.edited_at = status.edited_at;
        g.status_edits
            .entry(status.id)
            .or_default()
            .extend(revisions.iter().cloned());
        Ok(())
    }

    async fn status_edits(&self, status_id: Id) -> StoreResult<Vec<StatusEditRecord>> {
        Ok(self
            .read()?
            .status_edits
            .get(&status_id)
            .cloned()
            .unwrap_or_default())
    }
}

#[async_trait]
impl PollStore for MemoryStore {
    async fn insert_poll(&self, poll: &PollRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.polls.contains_key(&poll.id) || g.polls.values().any(|p| p.status_id == poll.status_id)
        {
            return Err(StoreError::AlreadyExists("poll".into()));
        }
        g.polls.insert(poll.id, poll.clone());
        Ok(())
    }

    async fn poll_by_id(&self, id: Id) -> StoreResult<Option<PollRecord>> {
        Ok(self.read()?.polls.get(&id).cloned())
    }

    async fn polls_by_status_ids(&self, status_ids: &[Id]) -> StoreResult<Vec<PollRecord>> {
        let g = self.read()?;
        Ok(g.polls
            .values()
            .filter(|p| status_ids.contains(&p.status_id))
            .cloned()
            .collect())
    }

    async fn insert_poll_votes(
        &self,
        poll_id: Id,
        account: Id,
        choices: &[usize],
    ) -> StoreResult<()> {
        let mut g = self.write()?;
        if !g.polls.contains_key(&poll_id) {
            return Err(StoreError::NotFound);
        }
        if g.poll_votes.contains_key(&(poll_id, account)) {
            return Err(StoreError::AlreadyExists("vote".into()));
        }
        let mut chosen = choices.to_vec();
        chosen.sort_unstable();
        chosen.dedup();
        if let Some(p) = g.polls.get_mut(&poll_id) {
            for c in &chosen {
                if let Some(n) = p.votes.get_mut(*c) {
                    *n += 1;
                }
            }
            p.voters_count += 1;
        }
        g.poll_votes.insert((poll_id, account), chosen);
        Ok(())
    }

    async fn poll_votes_of(&self, poll_id: Id, account: Id) -> StoreResult<Vec<usize>> {
        Ok(self
            .read()?
            .poll_votes
            .get(&(poll_id, account))
            .cloned()
            .unwrap_or_default())
    }

    async fn poll_votes_among(
        &self,
        poll_ids: &[Id],
        account: Id,
    ) -> StoreResult<Vec<(Id, Vec<usize>)>> {
        let g = self.read()?;
        let wanted: std::collections::BTreeSet<Id> = poll_ids.iter().copied().collect();
        Ok(wanted
            .into_iter()
            .filter_map(|id| Some((id, g.poll_votes.get(&(id, account))?.clone())))
            .filter(|(_, votes)| !votes.is_empty())
            .collect())
    }

    async fn replace_poll(&self, status_id: Id, poll: Option<&PollRecord>) -> StoreResult<()> {
        let mut g = self.write()?;
        if let Some(p) = poll
            && g.polls.get(&p.id).is_some_and(|o| o.status_id != status_id)
        {
            return Err(StoreError::AlreadyExists("poll".into()));
        }
        g.remove_polls_of(status_id);
        if let Some(p) = poll {
            g.polls.insert(p.id, p.clone());
        }
        Ok(())
    }

    async fn poll_voters(&self, poll_id: Id) -> StoreResult<Vec<Id>> {
        Ok(self
            .read()?
            .poll_votes
            .keys()
            .filter(|(p, _)| *p == poll_id)
            .map(|(_, a)| *a)
            .collect())
    }

    async fn add_poll_choice(&self, poll_id: Id, account: Id, choice: usize) -> StoreResult<bool> {
        let mut g = self.write()?;
        let multiple = g.polls.get(&poll_id).ok_or(StoreError::NotFound)?.multiple;
        let chosen = g.poll_votes.get(&(poll_id, account));
        let first = chosen.is_none_or(|c| c.is_empty());
        if chosen.is_some_and(|c| c.contains(&choice) || (!multiple && !c.is_empty())) {
            return Ok(false);
        }
        let choices = g.poll_votes.entry((poll_id, account)).or_default();
        choices.push(choice);
        choices.sort_unstable();
        if let Some(p) = g.polls.get_mut(&poll_id) {
            if let Some(n) = p.votes.get_mut(choice) {
                *n += 1;
            }
            if first {
                p.voters_count += 1;
            }
        }
        Ok(true)
    }

    async fn set_poll_tally(
        &self,
        poll_id: Id,
        votes: &[i64],
        voters_count: i64,
        expires_at: Option<DateTime<Utc>>,
    ) -> StoreResult<bool> {
        let mut g = self.write()?;
        let p = g.polls.get_mut(&poll_id).ok_or(StoreError::NotFound)?;
        for (i, n) in p.votes.iter_mut().enumerate() {
            *n = votes.get(i).copied().unwrap_or(0);
        }
        p.voters_count = voters_count;
        p.expires_at = expires_at;
        Ok(true)
    }
}

#[async_trait]
impl MediaStore for MemoryStore {
    async fn insert_media(&self, media: &MediaRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.media.contains_key(&media.id) {
            return Err(StoreError::AlreadyExists("media".into()));
        }
        g.media.insert(media.id, media.clone());
        Ok(())
    }

    async fn media_by_id(&self, id: Id) -> StoreResult<Option<MediaRecord>> {
        Ok(self.read()?.media.get(&id).cloned())
    }

    async fn media_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<MediaRecord>> {
        let g = self.read()?;
        Ok(ids
            .iter()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .filter_map(|id| g.media.get(id).cloned())
            .collect())
    }

    async fn update_media(&self, media: &MediaRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        let cur = g.media.get_mut(&media.id).ok_or(StoreError::NotFound)?;
        cur.scheduled_status_id = media.scheduled_status_id;
        cur.thumbnail_key = media.thumbnail_key.clone();
        cur.description = media.description.clone();
        cur.focus = media.focus;
        Ok(())
    }

    async fn finish_media_processing(&self, media: &MediaRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        let cur = g.media.get_mut(&media.id).ok_or(StoreError::NotFound)?;
        cur.preview_key = media.preview_key.clone();
        cur.meta = media.meta.clone();
        cur.blurhash = media.blurhash.clone();
        cur.processed = true;
        Ok(())
    }

    async fn delete_unattached_media(&self, id: Id) -> StoreResult<Option<MediaRecord>> {
        let mut g = self.write()?;
        let free = g
            .media
            .get(&id)
            .is_some_and(|m| m.status_id.is_none() && m.scheduled_status_id.is_none());
        Ok(if free { g.media.remove(&id) } else { None })
    }

    async fn account_media(&self, account_id: Id) -> StoreResult<Vec<MediaRecord>> {
        Ok(self
            .read()?
            .media
            .values()
            .filter(|m| m.account_id == account_id)
            .cloned()
            .collect())
    }

    async fn save_custom_emojis(&self, emojis: &[CustomEmojiRecord]) -> StoreResult<()> {
        let mut inner = self.write()?;
        for emoji in emojis {
            let key = (emoji.shortcode.clone(), emoji.domain.clone());
            let id = inner.custom_emojis.get(&key).map_or(emoji.id, |e| e.id);
            inner.custom_emojis.insert(
                key,
                CustomEmojiRecord {
                    id,
                    ..emoji.clone()
                },
            );
        }
        Ok(())
    }

    async fn custom_emojis_by_keys(
        &self,
        keys: &[(String, Option<String>)],
    ) -> StoreResult<Vec<CustomEmojiRecord>> {
        let inner = self.read()?;
        let mut found: Vec<CustomEmojiRecord> = keys
            .iter()
            .filter_map(|k| inner.custom_emojis.get(k).cloned())
            .collect();
        found.sort_by_key(|e| e.id);
        found.dedup_by_key(|e| e.id);
        Ok(found)
    }

    fn manages_custom_emojis(&self) -> bool {
        true
    }

    async fn list_custom_emojis(
        &self,
        filter: &CustomEmojiFilter,
        page: Page,
    ) -> StoreResult<Vec<CustomEmojiRecord>> {
        let inner = self.read()?;
        let needle = filter.shortcode.as_ref().map(|s| s.to_lowercase());
        let mut matching: Vec<&CustomEmojiRecord> = inner
            .custom_emojis
            .values()
            .filter(|e| filter.local.is_none_or(|local| local == e.domain.is_none()))
            .filter(|e| {
                filter
                    .domain
                    .as_ref()
                    .is_none_or(|d| e.domain.as_ref() == Some(d))
            })
            .filter(|e| {
                needle
                    .as_ref()
                    .is_none_or(|n| e.shortcode.to_lowercase().contains(n.as_str()))
            })
            .filter(|e| !(filter.enabled_only && e.disabled))
            .collect();
        matching.sort_by_key(|e| std::cmp::Reverse(e.id));
        Ok(page
            .apply(matching.into_iter(), |e| e.id)
            .into_iter()
            .cloned()
            .collect())
    }

    async fn custom_emoji_by_id(&self, id: Id) -> StoreResult<Option<CustomEmojiRecord>> {
        Ok(self
            .read()?
            .custom_emojis
            .values()
            .find(|e| e.id == id)
            .cloned())
    }

    async fn delete_custom_emoji(&self, id: Id) -> StoreResult<Option<CustomEmojiRecord>> {
        let mut inner = self.write()?;
        let key = inner
            .custom_emojis
            .iter()
            .find(|(_, e)| e.id == id)
            .map(|(k, _)| k.clone());
        Ok(key.and_then(|k| inner.custom_emojis.remove(&k)))
    }
}

#[async_trait]
impl NotificationStore for MemoryStore {
    async fn insert_notifications(&self, notifications: &[NotificationRecord]) -> StoreResult<()> {
        let mut g = self.write()?;
        let mut ids = BTreeSet::new();
        if notifications
            .iter()
            .any(|n| g.notifications.contains_key(&n.id) || !ids.insert(n.id))
        {
            return Err(StoreError::AlreadyExists("notification".into()));
        }
        for n in notifications {
            g.notifications.insert(n.id, n.clone());
        }
        Ok(())
    }

    async fn notification_by_id(&self, id: Id) -> StoreResult<Option<NotificationRecord>> {
        Ok(self.read()?.notifications.get(&id).cloned())
    }

    async fn notifications_page(
        &self,
        account: Id,
        query: &NotificationQuery,
        page: Page,
    ) -> StoreResult<Vec<NotificationRecord>> {
        let g = self.read()?;
        Ok(page.apply(
            g.notifications
                .values()
                .rev()
                .filter(|n| n.account_id == account && query.matches(n))
                .cloned(),
            |n| n.id,
        ))
    }

    async fn count_notifications(
        &self,
        account: Id,
        query: &NotificationQuery,
        after: Option<Id>,
        limit: u64,
    ) -> StoreResult<u64> {
        let g = self.read()?;
        let count = g
            .notifications
            .values()
            .filter(|n| {
                n.account_id == account && after.is_none_or(|a| n.id > a) && query.matches(n)
            })
            .take(limit as usize)
            .count();
        Ok(count as u64)
    }

    async fn dismiss_notification(&self, account: Id, id: Id) -> StoreResult<bool> {
        let mut g = self.write()?;
        if g.notifications
            .get(&id)
            .is_some_and(|n| n.account_id == account)
        {
            g.notifications.remove(&id);
            return Ok(true);
        }
        Ok(false)
    }

    async fn dismiss_notification_group(&self, account: Id, group_key: &str) -> StoreResult<u64> {
        let mut g = self.write()?;
        let before = g.notifications.len();
        g.notifications
            .retain(|_, n| !(n.account_id == account && n.group_key == group_key));
        Ok((before - g.notifications.len()) as u64)
    }

    async fn clear_notifications(&self, account: Id) -> StoreResult<u64> {
        let mut g = self.write()?;
        let before = g.notifications.len();
        g.notifications.retain(|_, n| n.account_id != account);
        Ok((before - g.notifications.len()) as u64)
    }

    async fn retract_notifications(
        &self,
        account: Id,
        from: Id,
        kind: Option<NotificationType>,
        status: Option<Id>,
    ) -> StoreResult<u64> {
        let mut g = self.write()?;
        let before = g.notifications.len();
        g.notifications.retain(|_, n| {
            !(n.account_id == account
                && n.from_account_id == from
                && kind.is_none_or(|k| n.kind == k)
                && status.is_none_or(|s| n.status_id == Some(s)))
        });
        Ok((before - g.notifications.len()) as u64)
    }
}

#[async_trait]
impl MarkerStore for MemoryStore {
    async fn markers(&self, account: Id, timelines: &[String]) -> StoreResult<Vec<MarkerRecord>> {
        let g = self.read()?;
        Ok(timelines
            .iter()
            .filter_map(|t| g.markers.get(&(account, t.clone())).cloned())
            .collect())
    }

    async fn save_marker(&self, marker: &MarkerRecord) -> StoreResult<bool> {
        let mut g = self.write()?;
        let key = (marker.account_id, marker.timeline.clone());
        let stored = g.markers.get(&key).map(|m| m.version);
        let follows = match stored {
            None => marker.version == 1,
            Some(v) => marker.version == v + 1,
        };
        if follows {
            g.markers.insert(key, marker.clone());
        }
        Ok(follows)
    }
}

#[async_trait]
impl FilterStore for MemoryStore {
    async fn insert_filter(&self, filter: &FilterRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.filters.contains_key(&filter.id) {
            return Err(StoreError::AlreadyExists("filter".into()));
        }
        if filter
            .keywords
            .iter()
            .any(|k| g.filter_keywords.contains_key(&k.id))
        {
            return Err(StoreError::AlreadyExists("filter_keyword".into()));
        }
        for k in &filter.keywords {
            g.filter_keywords.insert(
                k.id,
                FilterKeywordRecord {
                    filter_id: filter.id,
                    ..k.clone()
                },
            );
        }
        g.filters.insert(
            filter.id,
            FilterRecord {
                keywords: vec![],
                statuses: vec![],
                ..filter.clone()
            },
        );
        Ok(())
    }

    async fn filter_by_id(&self, id: Id) -> StoreResult<Option<FilterRecord>> {
        let g = self.read()?;
        Ok(g.filters.get(&id).map(|f| g.full_filter(f)))
    }

    async fn filters_of(&self, account: Id) -> StoreResult<Vec<FilterRecord>> {
        let g = self.read()?;
        Ok(g.filters
            .values()
            .filter(|f| f.account_id == account)
            .map(|f| g.full_filter(f))
            .collect())
    }

    async fn update_filter(
        &self,
        filter: &FilterRecord,
        added: &[FilterKeywordRecord],
        changed: &[FilterKeywordRecord],
        removed: &[Id],
    ) -> StoreResult<()> {
        let mut g = self.write()?;
        if !g.filters.contains_key(&filter.id) {
            return Err(StoreError::NotFound);
        }
        let own = |g: &Inner, id: &Id| {
            g.filter_keywords
                .get(id)
                .is_some_and(|k| k.filter_id == filter.id)
        };
        if !removed.iter().all(|id| own(&g, id)) || !changed.iter().all(|k| own(&g, &k.id)) {
            return Err(StoreError::NotFound);
        }
        if added.iter().any(|k| g.filter_keywords.contains_key(&k.id)) {
            return Err(StoreError::AlreadyExists("filter_keyword".into()));
        }
        if let Some(f) = g.filters.get_mut(&filter.id) {
            f.title = filter.title.clone();
            f.context = filter.context.clone();
            f.action = filter.action;
            f.expires_at = filter.expires_at;
        }
        for id in removed {
            g.filter_keywords.remove(id);
        }
        for k in changed {
            if let Some(stored) = g.filter_keywords.get_mut(&k.id) {
                stored.keyword = k.keyword.clone();
                stored.whole_word = k.whole_word;
            }
        }
        for k in added {
            g.filter_keywords.insert(
                k.id,
                FilterKeywordRecord {
                    filter_id: filter.id,
                    ..k.clone()
                },
            );
        }
        Ok(())
    }

    async fn delete_filter(&self, id: Id) -> StoreResult<bool> {
        Ok(self.write()?.remove_filter(id))
    }

    async fn filter_keyword_by_id(&self, id: Id) -> StoreResult<Option<FilterKeywordRecord>> {
        Ok(self.read()?.filter_keywords.get(&id).cloned())
    }

    async fn insert_filter_keyword(&self, keyword: &FilterKeywordRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if !g.filters.contains_key(&keyword.filter_id) {
            return Err(StoreError::NotFound);
        }
        if g.filter_keywords.contains_key(&keyword.id) {
            return Err(StoreError::AlreadyExists("filter_keyword".into()));
        }
        g.filter_keywords.insert(keyword.id, keyword.clone());
        Ok(())
    }

    async fn update_filter_keyword(&self, keyword: &FilterKeywordRecord) -> StoreResult<bool> {
        let mut g = self.write()?;
        Ok(match g.filter_keywords.get_mut(&keyword.id) {
            Some(k) => {
                k.keyword = keyword.keyword.clone();
                k.whole_word = keyword.whole_word;
                true
            }
            None => false,
        })
    }

    async fn delete_filter_keyword(&self, id: Id) -> StoreResult<bool> {
        Ok(self.write()?.filter_keywords.remove(&id).is_some())
    }

    async fn filter_status_by_id(&self, id: Id) -> StoreResult<Option<FilterStatusRecord>> {
        Ok(self.read()?.filter_statuses.get(&id).cloned())
    }

    async fn insert_filter_status(&self, status: &FilterStatusRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if !g.filters.contains_key(&status.filter_id) {
            return Err(StoreError::NotFound);
        }
        if g.filter_statuses.contains_key(&status.id)
            || g.filter_statuses
                .values()
                .any(|f| f.filter_id == status.filter_id && f.status_id == status.status_id)
        {
            return Err(StoreError::AlreadyExists("filter_status".into()));
        }
        g.filter_statuses.insert(status.id, status.clone());
        Ok(())
    }

    async fn delete_filter_status(&self, id: Id) -> StoreResult<bool> {
        Ok(self.write()?.filter_statuses.remove(&id).is_some())
    }
}

#[async_trait]
impl ConversationStore for MemoryStore {
    async fn add_to_conversation(
        &self,
        new_id: Id,
        account: Id,
        thread: Id,
        participants: &[Id],
        status: Id,
        unread: bool,
    ) -> StoreResult<ConversationRecord> {
        let mut participants = participants.to_vec();
        participants.sort();
        participants.dedup();
        let mut g = self.write()?;
        let existing = g
            .conversations
            .values()
            .find(|c| {
                c.account_id == account
                    && c.thread_id == thread
                    && c.participant_ids == participants
            })
            .map(|c| c.id);
        let id = match existing {
            Some(id) => id,
            None => {
                if g.conversations.contains_key(&new_id) {
                    return Err(StoreError::AlreadyExists("conversation".into()));
                }
                g.conversations.insert(
                    new_id,
                    ConversationRecord {
                        id: new_id,
                        account_id: account,
                        thread_id: thread,
                        participant_ids: participants,
                        status_ids: vec![],
                        unread,
                    },
                );
                new_id
            }
        };
        let c = g.conversations.get_mut(&id).ok_or(StoreError::NotFound)?;
        if !c.status_ids.contains(&status) {
            c.status_ids.push(status);
            c.status_ids.sort();
            c.unread = unread;
        }
        Ok(c.clone())
    }

    async fn conversation_by_id(&self, id: Id) -> StoreResult<Option<ConversationRecord>> {
        Ok(self.read()?.conversations.get(&id).cloned())
    }

    async fn conversations_page(
        &self,
        account: Id,
        page: Page,
    ) -> StoreResult<Vec<ConversationRecord>> {
        let g = self.read()?;
        let mut mine: Vec<&ConversationRecord> = g
            .conversations
            .values()
            .filter(|c| c.account_id == account)
            .collect();
        mine.sort_by_key(|c| std::cmp::Reverse(c.last_status_id()));
        Ok(page
            .apply(mine.into_iter(), |c| c.last_status_id().unwrap_or(Id(0)))
            .into_iter()
            .cloned()
            .collect())
    }

    async fn set_conversation_unread(&self, id: Id, unread: bool) -> StoreResult<bool> {
        Ok(match self.write()?.conversations.get_mut(&id) {
            Some(c) => {
                c.unread = unread;
                true
            }
            None => false,
        })
    }

    async fn delete_conversation(&self, id: Id) -> StoreResult<bool> {
        Ok(self.write()?.conversations.remove(&id).is_some())
    }
}

impl Inner {
    /// Whether a status shows in the link timeline (public, no reblog, by an unsuspended,
    /// discoverable author).
    fn on_link_timeline(&self, s: &StatusRecord) -> bool {
        s.visibility == Visibility::Public
            && s.reblog_of_id.is_none()
            && self
                .accounts
                .get(&s.account_id)
                .is_some_and(|a| !a.is_suspended() && a.discoverable == Some(true))
    }
}

#[async_trait]
impl LinkStore for MemoryStore {
    async fn set_status_link(&self, status: Id, url: Option<&str>) -> StoreResult<()> {
        let mut g = self.write()?;
        match url {
            Some(u) => g.status_links.insert(status, u.to_string()),
            None => g.status_links.remove(&status),
        };
        Ok(())
    }

    async fn link_known(&self, url: &str) -> StoreResult<bool> {
        let g = self.read()?;
        Ok(g.status_links
            .iter()
            .any(|(s, u)| u == url && g.statuses.get(s).is_some_and(|s| g.on_link_timeline(s))))
    }

    async fn link_timeline(
        &self,
        url: &str,
        filter: PublicTimelineFilter,
        page: Page,
    ) -> StoreResult<Vec<StatusRecord>> {
        let g = self.read()?;
        let visible = g.statuses.values().rev().filter(|s| {
            g.status_links.get(&s.id).is_some_and(|u| u == url)
                && g.on_link_timeline(s)
                && (!filter.local || s.local)
                && (!filter.remote || !s.local)
                && (!filter.only_media || s.has_media())
        });
        Ok(page.apply(visible, |s| s.id).into_iter().cloned().collect())
    }

    fn cards(&self) -> Option<&dyn CardStore> {
        Some(self)
    }
}

/// Whether `n` is one of the filtered notifications a request gathers.
fn gathered_by(n: &NotificationRecord, r: &NotificationRequestRecord) -> bool {
    n.filtered && n.account_id == r.account_id && n.from_account_id == r.from_account_id
}

impl Inner {
    /// A request with its count of filtered notifications.
    fn counted_request(&self, r: &NotificationRequestRecord) -> NotificationRequestRecord {
        NotificationRequestRecord {
            notifications_count: self
                .notifications
                .values()
                .filter(|n| gathered_by(n, r))
                .count() as i64,
            ..r.clone()
        }
    }
}

#[async_trait]
impl NotificationPolicyStore for MemoryStore {
    async fn notification_policy(
        &self,
        account: Id,
    ) -> StoreResult<Option<NotificationPolicyRecord>> {
        Ok(self.read()?.notification_policies.get(&account).cloned())
    }

    async fn save_notification_policy(&self, policy: &NotificationPolicyRecord) -> StoreResult<()> {
        self.write()?
            .notification_policies
            .insert(policy.account_id, policy.clone());
        Ok(())
    }

    async fn notification_permitted(&self, account: Id, from: Id) -> StoreResult<bool> {
        Ok(self
            .read()?
            .notification_permissions
            .contains(&(account, from)))
    }

    async fn note_notification_request(
        &self,
        new_id: Id,
        account: Id,
        from: Id,
        last_status: Option<Id>,
        at: DateTime<Utc>,
    ) -> StoreResult<NotificationRequestRecord> {
        let mut g = self.write()?;
        let existing = g
            .notification_requests
            .values()
            .find(|r| r.account_id == account && r.from_account_id == from)
            .map(|r| r.id);
        let id = match existing {
            Some(id) => id,
            None => {
                if g.notification_requests.contains_key(&new_id) {
                    return Err(StoreError::AlreadyExists("notification_request".into()));
                }
                g.notification_requests.insert(
                    new_id,
                    NotificationRequestRecord {
                        id: new_id,
                        account_id: account,
                        from_account_id: from,
                        last_status_id: None,
                        notifications_count: 0,
                        created_at: at,
                        updated_at: at,
                    },
                );
                new_id
            }
        };
        let r = g
            .notification_requests
            .get_mut(&id)
            .ok_or(StoreError::NotFound)?;
        r.updated_at = at;
        if last_status.is_some() {
            r.last_status_id = last_status;
        }
        let r = r.clone();
        Ok(g.counted_request(&r))
    }

    async fn notification_request_by_id(
        &self,
        id: Id,
    ) -> StoreResult<Option<NotificationRequestRecord>> {
        let g = self.read()?;
        Ok(g.notification_requests
            .get(&id)
            .map(|r| g.counted_request(r)))
    }

    async fn notification_requests_page(
        &self,
        account: Id,
        page: Page,
    ) -> StoreResult<Vec<NotificationRequestRecord>> {
        let g = self.read()?;
        let mine = g
            .notification_requests
            .values()
            .rev()
            .filter(|r| r.account_id == account);
        Ok(page
            .apply(mine, |r| r.id)
            .into_iter()
            .map(|r| g.counted_request(r))
            .collect())
    }

    async fn accept_notification_request(&self, id: Id) -> StoreResult<Vec<NotificationRecord>> {
        let mut g = self.write()?;
        let Some(r) = g.notification_requests.remove(&id) else {
            return Ok(vec![]);
        };
        g.notification_permissions
            .insert((r.account_id, r.from_account_id));
        let mut unfiltered = Vec::new();
        for n in g.notifications.values_mut() {
            if gathered_by(n, &r) {
                n.filtered = false;
                unfiltered.push(n.clone());
            }
        }
        Ok(unfiltered)
    }

    async fn dismiss_notification_request(&self, id: Id) -> StoreResult<bool> {
        let mut g = self.write()?;
        let Some(r) = g.notification_requests.remove(&id) else {
            return Ok(false);
        };
        g.notifications.retain(|_, n| !gathered_by(n, &r));
        Ok(true)
    }
}

#[async_trait]
impl FederationStore for MemoryStore {
    async fn actor_key(&self, owner: Id) -> StoreResult<Option<ActorKeyRecord>> {
        Ok(self.read()?.actor_keys.get(&owner).cloned())
    }

    async fn insert_actor_key(&self, key: &ActorKeyRecord) -> StoreResult<ActorKeyRecord> {
        Ok(self
            .write()?
            .actor_keys
            .entry(key.owner)
            .or_insert_with(|| key.clone())
            .clone())
    }

    async fn remote_actor(&self, account: Id) -> StoreResult<Option<RemoteActorRecord>> {
        Ok(self.read()?.remote_actors.get(&account).cloned())
    }

    async fn remote_actors(&self, accounts: &[Id]) -> StoreResult<Vec<RemoteActorRecord>> {
        let g = self.read()?;
        Ok(accounts
            .iter()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .filter_map(|id| g.remote_actors.get(id).cloned())
            .collect())
    }

    async fn remote_actor_by_uri(&self, uri: &str) -> StoreResult<Option<RemoteActorRecord>> {
        Ok(self
            .read()?
            .remote_actors
            .values()
            .find(|a| a.uri == uri)
            .cloned())
    }

    async fn remote_actor_by_key_id(&self, key_id: &str) -> StoreResult<Option<RemoteActorRecord>> {
        Ok(self
            .read()?
            .remote_actors
            .values()
            .find(|a| a.key_id == key_id)
            .cloned())
    }

    async fn save_remote_actor(
        &self,
        account: &AccountRecord,
        actor: &RemoteActorRecord,
    ) -> StoreResult<AccountRecord> {
        let mut g = self.write()?;
        let known = g
            .remote_actors
            .values()
            .find(|a| a.uri == actor.uri)
            .map(|a| a.account_id);
        let id = known.unwrap_or(account.id);
        if g.remote_actors
            .values()
            .any(|a| a.uri != actor.uri && a.key_id == actor.key_id)
        {
            return Err(StoreError::AlreadyExists("key_id".into()));
        }
        if g.accounts
            .values()
            .any(|a| a.id != id && same_name(a, &account.username, account.domain.as_deref()))
        {
            return Err(StoreError::AlreadyExists("username".into()));
        }
        let saved = match g.accounts.get(&id) {
            Some(old) => AccountRecord {
                id,
                created_at: old.created_at,
                statuses_count: old.statuses_count,
                followers_count: old.followers_count,
                following_count: old.following_count,
                last_status_at: old.last_status_at,
                ..account.clone()
            },
            None if known.is_some() => return Err(StoreError::NotFound),
            None => {
                if g.accounts.contains_key(&id) {
                    return Err(StoreError::AlreadyExists("account".into()));
                }
                account.clone()
            }
        };
        g.accounts.insert(id, saved.clone());
        g.remote_actors.insert(
            id,
            RemoteActorRecord {
                account_id: id,
                ..actor.clone()
            },
        );
        Ok(saved)
    }

    async fn follower_inboxes(&self, account: Id) -> StoreResult<Vec<String>> {
        let g = self.read()?;
        let inboxes: BTreeSet<String> = g
            .follows
            .keys()
            .filter(|(_, target)| *target == account)
            .filter_map(|(follower, _)| g.remote_actors.get(follower))
            .map(|a| a.shared_inbox.clone().unwrap_or_else(|| a.inbox.clone()))
            .collect();
        Ok(inboxes.into_iter().collect())
    }

    async fn status_by_uri(&self, uri: &str) -> StoreResult<Option<StatusRecord>> {
        Ok(self
            .read()?
            .statuses
            .values()
            .find(|s| s.uri.as_deref() == Some(uri))
            .cloned())
    }

    async fn note_activity(&self, id: &str, at: DateTime<Utc>) -> StoreResult<bool> {
        let mut g = self.write()?;
        if g.activities.contains_key(id) {
            return Ok(false);
        }
        g.activities.insert(id.to_string(), at);
        Ok(true)
    }

    async fn prune_activities(&self, before: DateTime<Utc>) -> StoreResult<u64> {
        let mut g = self.write()?;
        let n = g.activities.len();
        g.activities.retain(|_, at| *at >= before);
        Ok((n - g.activities.len()) as u64)
    }

    async fn follow_uri(&self, follower: Id, target: Id) -> StoreResult<Option<String>> {
        Ok(self.read()?.follow_uris.get(&(follower, target)).cloned())
    }

    async fn set_follow_uri(&self, follower: Id, target: Id, uri: &str) -> StoreResult<()> {
        self.write()?
            .follow_uris
            .insert((follower, target), uri.to_string());
        Ok(())
    }

    async fn note_host_failure(&self, host: &str, at: DateTime<Utc>) -> StoreResult<DateTime<Utc>> {
        Ok(*self
            .write()?
            .failing_hosts
            .entry(host.to_ascii_lowercase())
            .or_insert(at))
    }

    async fn note_host_success(&self, host: &str) -> StoreResult<bool> {
        Ok(self
            .write()?
            .failing_hosts
            .remove(&host.to_ascii_lowercase())
            .is_some())
    }

    async fn host_failing_since(&self, host: &str) -> StoreResult<Option<DateTime<Utc>>> {
        Ok(self
            .read()?
            .failing_hosts
            .get(&host.to_ascii_lowercase())
            .copied())
    }
}

/// Whether `haystack` contains `needle`, case-insensitively.
fn contains_folded(haystack: &str, needle: &str) -> bool {
    haystack.to_lowercase().contains(&needle.to_lowercase())
}

/// Whether an account (with its login, for a local one) is one `filter` selects.
fn admin_selects(
    filter: &AdminAccountFilter,
    a: &AccountRecord,
    user: Option<&UserRecord>,
) -> bool {
    let origin = match filter.origin {
        None => true,
        Some(AccountOrigin::Local) => a.is_local(),
        Some(AccountOrigin::Remote) => !a.is_local(),
    };
    let status = match filter.status {
        None => true,
        Some(AdminAccountStatus::Active) => {
            a.suspended_at.is_none()
                && a.silenced_at.is_none()
                && (!a.is_local() || user.is_some_and(|u| u.approved && !u.disabled))
        }
        Some(AdminAccountStatus::Pending) => a.is_local() && user.is_some_and(|u| !u.approved),
        Some(AdminAccountStatus::Disabled) => user.is_some_and(|u| u.disabled),
        Some(AdminAccountStatus::Silenced) => a.silenced_at.is_some(),
        Some(AdminAccountStatus::Suspended) => a.suspended_at.is_some(),
        Some(AdminAccountStatus::Sensitized) => a.sensitized_at.is_some(),
    };
    let role = filter.roles.is_empty()
        || user.is_some_and(|u| {
            filter
                .roles
                .iter()
                .any(|r| r.eq_ignore_ascii_case(&u.role.as_str()))
        });
    let domain = filter.by_domain.as_deref().is_none_or(|d| {
        a.domain
            .as_deref()
            .is_some_and(|own| own.eq_ignore_ascii_case(d))
    });
    let username = filter
        .username
        .as_deref()
        .is_none_or(|n| contains_folded(&a.username, n));
    let display_name = filter
        .display_name
        .as_deref()
        .is_none_or(|n| contains_folded(&a.display_name, n));
    let email = filter
        .email
        .as_deref()
        .is_none_or(|e| user.is_some_and(|u| contains_folded(&u.email, e)));
    origin && status && role && domain && username && display_name && email
}

/// The values of a map keyed by id, newest (largest id) first.
fn newest_values<T: Clone>(map: &BTreeMap<Id, T>) -> Vec<T> {
    map.values().rev().cloned().collect()
}

#[async_trait]
impl ModerationStore for MemoryStore {
    async fn insert_report(&self, report: &ReportRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.reports.contains_key(&report.id) {
            return Err(StoreError::AlreadyExists("report".into()));
        }
        g.reports.insert(report.id, report.clone());
        Ok(())
    }

    async fn report_by_id(&self, id: Id) -> StoreResult<Option<ReportRecord>> {
        Ok(self.read()?.reports.get(&id).cloned())
    }

    async fn update_report(&self, report: &ReportRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        let Some(old) = g.reports.get_mut(&report.id) else {
            return Err(StoreError::NotFound);
        };
        *old = report.clone();
        Ok(())
    }

    async fn reports(&self, filter: &ReportFilter, page: Page) -> StoreResult<Vec<ReportRecord>> {
        let g = self.read()?;
        let rows = g.reports.values().filter(|r| {
            r.action_taken_at.is_some() == filter.resolved
                && filter.account_id.is_none_or(|a| r.account_id == a)
                && filter
                    .target_account_id
                    .is_none_or(|t| r.target_account_id == t)
        });
        Ok(newest_first(rows.map(|r| (r.id, r.clone())), page)
            .into_iter()
            .map(|(_, r)| r)
            .collect())
    }

    async fn insert_account_warning(&self, warning: &AccountWarningRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.account_warnings.contains_key(&warning.id) {
            return Err(StoreError::AlreadyExists("account_warning".into()));
        }
        g.account_warnings.insert(warning.id, warning.clone());
        Ok(())
    }

    async fn account_warning_by_id(&self, id: Id) -> StoreResult<Option<AccountWarningRecord>> {
        Ok(self.read()?.account_warnings.get(&id).cloned())
    }

    async fn admin_account_ids(
        &self,
        filter: &AdminAccountFilter,
        page: Page,
    ) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        let rows = g
            .accounts
            .values()
            .filter(|a| admin_selects(filter, a, g.users.get(&a.id)))
            .map(|a| (a.id, ()));
        Ok(newest_first(rows, page)
            .into_iter()
            .map(|(id, ())| id)
            .collect())
    }

    async fn rules(&self) -> StoreResult<Vec<RuleRecord>> {
        let mut rules: Vec<RuleRecord> = self.read()?.rules.values().cloned().collect();
        rules.sort_by_key(|r| (r.position, r.id));
        Ok(rules)
    }

    async fn save_rule(&self, rule: &RuleRecord) -> StoreResult<()> {
        self.write()?.rules.insert(rule.id, rule.clone());
        Ok(())
    }

    async fn delete_rule(&self, id: Id) -> StoreResult<bool> {
        Ok(self.write()?.rules.remove(&id).is_some())
    }

    async fn setting(&self, name: &str) -> StoreResult<Option<String>> {
        Ok(self.read()?.settings.get(name).cloned())
    }

    async fn set_setting(&self, name: &str, value: Option<&str>) -> StoreResult<()> {
        let mut g = self.write()?;
        match value {
            Some(v) => g.settings.insert(name.to_string(), v.to_string()),
            None => g.settings.remove(name),
        };
        Ok(())
    }

    async fn terms_of_service(&self) -> StoreResult<Vec<TermsOfServiceRecord>> {
        let mut terms = newest_values(&self.read()?.terms_of_service);
        terms.sort_by_key(|t| std::cmp::Reverse((t.effective_date, t.id)));
        Ok(terms)
    }

    async fn save_terms_of_service(&self, terms: &TermsOfServiceRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.terms_of_service
            .values()
            .any(|t| t.id != terms.id && t.effective_date == terms.effective_date)
        {
            return Err(StoreError::AlreadyExists("effective_date".into()));
        }
        g.terms_of_service.insert(terms.id, terms.clone());
        Ok(())
    }

    async fn instance_domain_blocks(&self) -> StoreResult<Vec<InstanceDomainBlockRecord>> {
        Ok(newest_values(&self.read()?.instance_domain_blocks))
    }

    async fn save_instance_domain_block(
        &self,
        block: &InstanceDomainBlockRecord,
    ) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.instance_domain_blocks
            .values()
            .any(|b| b.id != block.id && b.domain.eq_ignore_ascii_case(&block.domain))
        {
            return Err(StoreError::AlreadyExists("domain".into()));
        }
        g.instance_domain_blocks.insert(block.id, block.clone());
        Ok(())
    }

    async fn delete_instance_domain_block(&self, id: Id) -> StoreResult<bool> {
        Ok(self.write()?.instance_domain_blocks.remove(&id).is_some())
    }

    async fn listed_values(&self, list: ValueList) -> StoreResult<Vec<ListedValueRecord>> {
        Ok(self
            .read()?
            .listed_values
            .get(&list)
            .map(newest_values)
            .unwrap_or_default())
    }

    async fn insert_listed_value(
        &self,
        list: ValueList,
        value: &ListedValueRecord,
    ) -> StoreResult<()> {
        let mut g = self.write()?;
        let values = g.listed_values.entry(list).or_default();
        if values
            .values()
            .any(|v| v.value.eq_ignore_ascii_case(&value.value))
        {
            return Err(StoreError::AlreadyExists("value".into()));
        }
        if values.contains_key(&value.id) {
            return Err(StoreError::AlreadyExists("id".into()));
        }
        values.insert(value.id, value.clone());
        Ok(())
    }

    async fn delete_listed_value(&self, list: ValueList, id: Id) -> StoreResult<bool> {
        Ok(self
            .write()?
            .listed_values
            .get_mut(&list)
            .is_some_and(|values| values.remove(&id).is_some()))
    }

    async fn ip_blocks(&self) -> StoreResult<Vec<IpBlockRecord>> {
        Ok(newest_values(&self.read()?.ip_blocks))
    }

    async fn save_ip_block(&self, block: &IpBlockRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.ip_blocks
            .values()
            .any(|b| b.id != block.id && b.ip == block.ip)
        {
            return Err(StoreError::AlreadyExists("ip".into()));
        }
        g.ip_blocks.insert(block.id, block.clone());
        Ok(())
    }

    async fn delete_ip_block(&self, id: Id) -> StoreResult<bool> {
        Ok(self.write()?.ip_blocks.remove(&id).is_some())
    }

    async fn user_roles(&self) -> StoreResult<Vec<UserRoleRecord>> {
        let mut roles: Vec<UserRoleRecord> = self.read()?.user_roles.values().cloned().collect();
        roles.sort_by_key(|r| (r.position, r.id));
        Ok(roles)
    }

    async fn user_role_by_id(&self, id: Id) -> StoreResult<Option<UserRoleRecord>> {
        Ok(self.read()?.user_roles.get(&id).cloned())
    }

    async fn save_user_role(&self, role: &UserRoleRecord) -> StoreResult<()> {
        self.write()?.user_roles.insert(role.id, role.clone());
        Ok(())
    }

    async fn delete_user_role(&self, id: Id) -> StoreResult<bool> {
        Ok(self.write()?.user_roles.remove(&id).is_some())
    }

    async fn set_trend_review(&self, review: &TrendReviewRecord) -> StoreResult<()> {
        self.write()?
            .trend_reviews
            .insert((review.kind, review.target), review.clone());
        Ok(())
    }

    async fn trend_reviews(
        &self,
        kind: TrendKind,
        targets: &[Id],
    ) -> StoreResult<Vec<TrendReviewRecord>> {
        let g = self.read()?;
        let wanted: BTreeSet<Id> = targets.iter().copied().collect();
        Ok(wanted
            .into_iter()
            .filter_map(|t| g.trend_reviews.get(&(kind, t)).cloned())
            .collect())
    }

    async fn trending_tags(
        &self,
        since: DateTime<Utc>,
        offset: u64,
        limit: u64,
    ) -> StoreResult<Vec<TagRecord>> {
        let g = self.read()?;
        // name -> (authors, statuses)
        let mut usage: HashMap<&str, (BTreeSet<Id>, i64)> = HashMap::new();
        for s in g.statuses.values().filter(|s| s.created_at >= since) {
            let names: BTreeSet<&str> = s.tags.iter().map(String::as_str).collect();
            for name in names {
                let (authors, uses) = usage.entry(name).or_default();
                authors.insert(s.account_id);
                *uses += 1;
            }
        }
        let mut ranked: Vec<(usize, i64, &TagRecord)> = g
            .tags
            .values()
            .filter_map(|t| {
                let (authors, uses) = usage.get(t.name.as_str())?;
                Some((authors.len(), *uses, t))
            })
            .collect();
        ranked.sort_by_key(|&(authors, uses, t)| std::cmp::Reverse((authors, uses, t.id)));
        Ok(ranked
            .into_iter()
            .skip(offset as usize)
            .take(limit as usize)
            .map(|(_, _, t)| t.clone())
            .collect())
    }

    async fn trending_status_ids(
        &self,
        since: DateTime<Utc>,
        offset: u64,
        limit: u64,
    ) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        // status -> the accounts that favourited or reblogged it
        let mut fans: BTreeMap<Id, BTreeSet<Id>> = BTreeMap::new();
        for (account, status) in g.favourites.keys() {
            fans.entry(*status).or_default().insert(*account);
        }
        for s in g.statuses.values() {
            if let Some(original) = s.reblog_of_id {
                fans.entry(original).or_default().insert(s.account_id);
            }
        }
        let mut ranked: Vec<(usize, Id)> = fans
            .into_iter()
            .filter_map(|(id, accounts)| {
                let s = g.statuses.get(&id)?;
                let author = g.accounts.get(&s.account_id)?;
                let may_trend = s.created_at >= since
                    && s.visibility == Visibility::Public
                    && s.reblog_of_id.is_none()
                    && s.in_reply_to_id.is_none()
                    && !author.is_suspended()
                    && author.silenced_at.is_none();
                let n = accounts.iter().filter(|a| **a != s.account_id).count();
                (may_trend && n > 0).then_some((n, id))
            })
            .collect();
        ranked.sort_by(|a, b| b.cmp(a));
        Ok(ranked
            .into_iter()
            .skip(offset as usize)
            .take(limit as usize)
            .map(|(_, id)| id)
            .collect())
    }

    async fn trend_tag_uses(&self, since: DateTime<Utc>) -> StoreResult<Vec<TrendTagUses>> {
        let g = self.read()?;
        let mut uses: HashMap<&str, Vec<TrendUse>> = HashMap::new();
        for s in g.statuses.values().filter(|s| {
            s.created_at >= since && s.visibility == Visibility::Public && s.reblog_of_id.is_none()
        }) {
            let Some(author) = g.accounts.get(&s.account_id) else {
                continue;
            };
            if author.is_suspended() || author.silenced_at.is_some() {
                continue;
            }
            let names: BTreeSet<&str> = s.tags.iter().map(String::as_str).collect();
            for name in names {
                uses.entry(name).or_default().push(TrendUse {
                    account_id: s.account_id,
                    at: s.created_at,
                });
            }
        }
        Ok(g.tags
            .values()
            .filter_map(|t| {
                let uses = uses.remove(t.name.as_str())?;
                Some(TrendTagUses {
                    tag: t.clone(),
                    uses,
                })
            })
            .collect())
    }

    async fn trend_status_candidates(
        &self,
        since: DateTime<Utc>,
    ) -> StoreResult<Vec<TrendStatusCandidate>> {
        let g = self.read()?;
        // status -> the accounts that favourited or reblogged it
        let mut fans: BTreeMap<Id, BTreeSet<Id>> = BTreeMap::new();
        for (account, status) in g.favourites.keys() {
            fans.entry(*status).or_default().insert(*account);
        }
        for s in g.statuses.values() {
            if let Some(original) = s.reblog_of_id {
                fans.entry(original).or_default().insert(s.account_id);
            }
        }
        Ok(fans
            .into_iter()
            .filter_map(|(id, accounts)| {
                let s = g.statuses.get(&id)?;
                let author = g.accounts.get(&s.account_id)?;
                let may_trend = s.created_at >= since
                    && s.visibility == Visibility::Public
                    && s.reblog_of_id.is_none()
                    && s.in_reply_to_id.is_none()
                    && !s.sensitive
                    && s.spoiler_text.is_empty()
                    && author.discoverable == Some(true)
                    && !author.is_suspended()
                    && author.silenced_at.is_none();
                let n = accounts.iter().filter(|a| **a != s.account_id).count() as u64;
                (may_trend && n > 0).then(|| TrendStatusCandidate {
                    status_id: id,
                    account_id: s.account_id,
                    created_at: s.created_at,
                    language: s.language.clone(),
                    accounts: n,
                    trendable: g
                        .trend_reviews
                        .get(&(TrendKind::Status, id))
                        .map(|r| r.trendable),
                })
            })
            .collect())
    }
}

/// Whether the words of a text hold a search word or phrase (its words next to each other).
fn contains_text(words: &[String], text: &Text) -> bool {
    let wanted = match text {
        Text::Word(w) | Text::Phrase(w) => crate::search_query::words(w),
    };
    !wanted.is_empty() && words.windows(wanted.len()).any(|w| w == wanted.as_slice())
}
