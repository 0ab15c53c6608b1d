//! Store traits, one per aggregate. Core calls them; `MemoryStore` and the server's sea-orm store implement them.
//!
//! Contract shared by every method: records come back exactly as stored; lists are newest first
//! unless a method says otherwise; unique violations are `StoreError::AlreadyExists`; a missing
//! record is `Ok(None)` for lookups and `StoreError::NotFound` for updates and deletes.

pub mod announcements;
pub mod cached;
pub mod cards;
pub mod crypto;
pub mod delegate;
pub mod mail_tokens;
pub mod memory;
pub mod metrics;
pub mod moderation;
pub mod quotes;
pub mod records;

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};

use crate::error::StoreResult;
use crate::id::Id;
use crate::pagination::Page;
pub use announcements::*;
pub use cards::*;
pub use crypto::*;
pub use mail_tokens::*;
pub use metrics::*;
pub use moderation::*;
pub use quotes::*;
pub use records::*;

/// Accounts and the logins of local accounts.
#[async_trait]
pub trait AccountStore: Send + Sync {
    /// Inserts a local account with its login, atomically. Fails with `AlreadyExists("username")`
    /// or `AlreadyExists("email")` (both case-insensitive).
    async fn insert_local_account(
        &self,
        account: &AccountRecord,
        user: &UserRecord,
    ) -> StoreResult<()>;
    /// Inserts a remote account. Fails with `AlreadyExists("username")` for a taken username@domain.
    async fn insert_remote_account(&self, account: &AccountRecord) -> StoreResult<()>;
    /// The account with this id.
    async fn account_by_id(&self, id: Id) -> StoreResult<Option<AccountRecord>>;
    /// The accounts with these ids, in no particular order; unknown ids are skipped.
    async fn accounts_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<AccountRecord>>;
    /// The account with this username on this domain (`None` = local), case-insensitively.
    async fn account_by_username(
        &self,
        username: &str,
        domain: Option<&str>,
    ) -> StoreResult<Option<AccountRecord>>;
    /// Replaces the profile fields of an account (everything but id, username, domain, created_at
    /// and the counters, which the store maintains). `NotFound` if absent.
    async fn update_account(&self, account: &AccountRecord) -> StoreResult<()>;
    /// The login of a local account.
    async fn user_by_account_id(&self, account_id: Id) -> StoreResult<Option<UserRecord>>;
    /// The logins of those of `accounts` that are local, in any order (a page's worth read at
    /// once). The default reads them one by one.
    async fn users_by_account_ids(&self, accounts: &[Id]) -> StoreResult<Vec<UserRecord>> {
        let mut users = Vec::with_capacity(accounts.len());
        for &id in accounts {
            users.extend(self.user_by_account_id(id).await?);
        }
        Ok(users)
    }
    /// The login with this e-mail address, case-insensitively.
    async fn user_by_email(&self, email: &str) -> StoreResult<Option<UserRecord>>;
    /// The login whose pending confirmation token has this hash.
    async fn user_by_confirmation_token(&self, token_hash: &str)
    -> StoreResult<Option<UserRecord>>;
    /// Replaces a login (all fields but account_id and created_at). `NotFound` if absent;
    /// `AlreadyExists("email")` if the new e-mail is taken.
    async fn update_user(&self, user: &UserRecord) -> StoreResult<()>;
    /// Deletes an account and everything that belongs to it or points at it, in one transaction:
    /// its login (with its pending mail links and notification e-mail choices), tokens and
    /// authorization codes, statuses (with their mentions, tags and feed
    /// entries), follows and follow requests both ways (other accounts' counters updated), blocks,
    /// mutes, notes, endorsements and domain blocks both ways, tag follows, featured tags,
    /// suggestion dismissals, scheduled statuses and feed entries, media attachments, its
    /// favourites, bookmarks, pins and thread mutes, notifications to it and from it, its markers, its filters (with their keywords and statuses), its conversations, its notification policy, permissions and requests both ways; each of its statuses goes as `delete_status` says (others'
    /// reblogs of them included), and the counters of other accounts' statuses it replied to,
    /// reblogged or favourited are lowered. `NotFound` if absent.
    async fn delete_account(&self, id: Id) -> StoreResult<()>;
    /// The store's moderation data (reports, rules, server-wide blocks, ...), if it keeps any;
    /// `None` (the default, for stores written before [`ModerationStore`]): the server offers no
    /// admin API and no reports.
    fn moderation(&self) -> Option<&dyn ModerationStore> {
        None
    }
    /// The store's end-to-end encryption helpers (devices, one-time keys, encrypted
    /// messages), if it keeps them; `None` (the default, for stores written before
    /// [`CryptoStore`]): the `/api/v1/crypto/...` endpoints answer that the server keeps no
    /// devices.
    fn crypto(&self) -> Option<&dyn CryptoStore> {
        None
    }
    /// The store's announcements (with their dismissals and reactions), if it keeps any;
    /// `None` (the default, for stores written before [`AnnouncementStore`]): users are shown
    /// none and staff cannot make any.
    fn announcements(&self) -> Option<&dyn AnnouncementStore> {
        None
    }
    /// Keeps `token` as its login's pending link of its purpose, replacing the one before (a
    /// login has at most one per purpose). `NotFound` without a local login of that account.
    /// `delete_account` removes them.
    ///
    /// The mail-token methods came after the trait: their defaults keep nothing (this one
    /// fails with `Backend`, the lookups find nothing), so a store written before them offers no
    /// password reset and no change of address; a store that keeps them claims `KeepsMailData`
    /// in the testkit's store suite.
    async fn save_mail_token(&self, token: &MailTokenRecord) -> StoreResult<()> {
        let _ = token;
        Err(crate::error::StoreError::Backend(
            "this store keeps no mail tokens".into(),
        ))
    }
    /// The pending link of `purpose` whose token has this hash, expired or not. The default
    /// finds none.
    async fn mail_token(
        &self,
        purpose: MailTokenPurpose,
        token_hash: &str,
    ) -> StoreResult<Option<MailTokenRecord>> {
        let _ = (purpose, token_hash);
        Ok(None)
    }
    /// Uses a password reset, at most once even when two requests race for it: when the
    /// pending reset whose token has this hash was sent after `sent_after`, removes it, sets its
    /// login's `password_hash`, revokes (at `at`) every token of the account not revoked yet
    /// (with their push subscriptions) and removes its authorization codes, in one write, and
    /// answers the account. Otherwise nothing changes and the answer is `None`. The default
    /// answers `None`.
    async fn reset_password(
        &self,
        token_hash: &str,
        sent_after: DateTime<Utc>,
        password_hash: &str,
        at: DateTime<Utc>,
    ) -> StoreResult<Option<Id>> {
        let _ = (token_hash, sent_after, password_hash, at);
        Ok(None)
    }
    /// Confirms a change of address, at most once: when the pending change whose token has
    /// this hash was sent after `sent_after`, removes it and makes its address the login's
    /// `email`, in one write, and answers the login as it now is. Otherwise nothing changes
    /// and the answer is `None`. `AlreadyExists("email")`, and nothing changes, when another
    /// login has that address by then. The default answers `None`.
    async fn confirm_email_change(
        &self,
        token_hash: &str,
        sent_after: DateTime<Utc>,
    ) -> StoreResult<Option<UserRecord>> {
        let _ = (token_hash, sent_after);
        Ok(None)
    }
    /// The notification e-mail choices saved by those of `accounts` that saved any, each once,
    /// in any order (the others have [`NotificationEmailsRecord::DEFAULTS`]). `delete_account`
    /// removes them. The default has none saved.
    async fn notification_emails(
        &self,
        accounts: &[Id],
    ) -> StoreResult<Vec<(Id, NotificationEmailsRecord)>> {
        let _ = accounts;
        Ok(vec![])
    }
    /// Saves a login's notification e-mail choices, replacing those before. `NotFound` without
    /// a local login of that account. The default keeps nothing and fails with `Backend`.
    async fn save_notification_emails(
        &self,
        account: Id,
        choices: &NotificationEmailsRecord,
    ) -> StoreResult<()> {
        let _ = (account, choices);
        Err(crate::error::StoreError::Backend(
            "this store keeps no notification e-mail choices".into(),
        ))
    }
}

/// Client applications, authorization codes and access tokens.
#[async_trait]
pub trait OAuthStore: Send + Sync {
    /// Inserts an application. `AlreadyExists("client_id")` if taken.
    async fn insert_app(&self, app: &AppRecord) -> StoreResult<()>;
    /// The application with this id.
    async fn app_by_id(&self, id: Id) -> StoreResult<Option<AppRecord>>;
    /// The applications with these ids (each once; unknown ones left out), in no particular
    /// order: the apps a page of statuses names, read in one call. The default asks
    /// [`OAuthStore::app_by_id`] once per id; a store answers in one query.
    async fn apps_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<AppRecord>> {
        let mut ids = ids.to_vec();
        ids.sort_unstable();
        ids.dedup();
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            out.extend(self.app_by_id(id).await?);
        }
        Ok(out)
    }
    /// The application with this client id.
    async fn app_by_client_id(&self, client_id: &str) -> StoreResult<Option<AppRecord>>;
    /// Stores an authorization code.
    async fn insert_authorization(&self, auth: &AuthorizationRecord) -> StoreResult<()>;
    /// Removes and returns the authorization code with this hash: a code is used at most once,
    /// even when two requests race for it.
    async fn take_authorization(&self, code_hash: &str)
    -> StoreResult<Option<AuthorizationRecord>>;
    /// Stores a token. `AlreadyExists("token")` if the hash is taken.
    async fn insert_token(&self, token: &TokenRecord) -> StoreResult<()>;
    /// The token with this hash, revoked or not.
    async fn token_by_hash(&self, token_hash: &str) -> StoreResult<Option<TokenRecord>>;
    /// The token with this hash, revoked or not, with its application and, for a user's token,
    /// its account and login when the store can read them together (one query where every
    /// signed-in request would otherwise make four). The default reads the token alone and
    /// leaves `owner` to the caller's own reads.
    async fn token_with_owner(&self, token_hash: &str) -> StoreResult<Option<TokenWithOwner>> {
        Ok(self
            .token_by_hash(token_hash)
            .await?
            .map(|token| TokenWithOwner { token, owner: None }))
    }
    /// Marks the token with this hash revoked at `at`; returns whether one was found unrevoked.
    async fn revoke_token(&self, token_hash: &str, at: DateTime<Utc>) -> StoreResult<bool>;
    /// Remembers until `until` that the code with this hash was exchanged at `now` for the
    /// token with `token_hash`, so that a second exchange of the code can revoke that token
    /// (RFC 6749, 4.1.2); exchanges remembered until `now` or earlier may be forgotten. The
    /// default remembers nothing: a reused code is still refused, but the token of its first
    /// exchange stays valid.
    async fn record_code_exchange(
        &self,
        code_hash: &str,
        token_hash: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> StoreResult<()> {
        let _ = (code_hash, token_hash, now, until);
        Ok(())
    }
    /// Removes and returns the token hash a code was exchanged for, if it is remembered and
    /// `now` is before its `until` (at most once, even when two requests race for it).
    async fn take_code_exchange(
        &self,
        code_hash: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<Option<String>> {
        let _ = (code_hash, now);
        Ok(None)
    }
    /// Whether the store keeps push subscriptions (the methods below). The default keeps
    /// none, and the push endpoints then answer 404; a store that keeps them claims
    /// `KeepsPushSubscriptions` in the testkit's store suite.
    fn keeps_push_subscriptions(&self) -> bool {
        false
    }
    /// Stores the push subscription of `sub.token_id`, replacing the one that token had (its
    /// id may differ). The default keeps nothing.
    async fn put_push_subscription(&self, sub: &PushSubscriptionRecord) -> StoreResult<()> {
        let _ = sub;
        Ok(())
    }
    /// The push subscription of this token, if any.
    async fn push_subscription_of_token(
        &self,
        token_id: Id,
    ) -> StoreResult<Option<PushSubscriptionRecord>> {
        let _ = token_id;
        Ok(None)
    }
    /// The push subscriptions of an account, in no particular order, leaving out those whose
    /// token is revoked.
    async fn push_subscriptions_of_account(
        &self,
        account_id: Id,
    ) -> StoreResult<Vec<PushSubscriptionRecord>> {
        let _ = account_id;
        Ok(vec![])
    }
    /// Removes the push subscription with this id; whether there was one. A revoked token's
    /// subscription is removed by [`OAuthStore::revoke_token`] itself, and a deleted
    /// account's with the account.
    async fn delete_push_subscription(&self, id: Id) -> StoreResult<bool> {
        let _ = id;
        Ok(false)
    }
}

/// Statuses and their mentions and tags.
#[async_trait]
pub trait StatusStore: Send + Sync {
    /// Inserts a status with its mentions and tags, and updates the author's `statuses_count`
    /// and `last_status_at`, the parent's `replies_count` (for a reply) and the original's
    /// `reblogs_count` (for a reblog). The counters given in the record are stored as given.
    /// It also attaches the media of `media_ids` to the status (their `status_id`), all or
    /// nothing: each must be the author's and unattached.
    /// `AlreadyExists("status")` if the id is taken; `AlreadyExists("reblog")` if the author
    /// already reblogged that status; `AlreadyExists("media")` if one of the media is missing,
    /// not the author's, or attached to a status already (nothing is stored).
    async fn insert_status(&self, status: &StatusRecord) -> StoreResult<()>;
    /// The store's quotes and quote approval policies, if it keeps any; `None` (the default,
    /// for stores written before [`QuoteStore`]): nothing can be quoted.
    fn quotes(&self) -> Option<&dyn QuoteStore> {
        None
    }
    /// The status with this id.
    async fn status_by_id(&self, id: Id) -> StoreResult<Option<StatusRecord>>;
    /// The statuses with these ids, in no particular order; unknown ids are skipped.
    async fn statuses_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<StatusRecord>>;
    /// The author's status created with this idempotency key at or after `since`.
    async fn status_by_idempotency_key(
        &self,
        account_id: Id,
        key: &str,
        since: DateTime<Utc>,
    ) -> StoreResult<Option<StatusRecord>>;
    /// Deletes a status with its mentions, tags, feed entries, favourites, bookmarks, pins,
    /// filter statuses naming it, its recorded link, notifications about it and its reblogs (each with their feed entries); it leaves every
    /// conversation holding it (a conversation left without a status is removed), and updates the author's `statuses_count`
    /// (and the reblog authors'), the parent's `replies_count` and, for a reblog, the
    /// original's `reblogs_count`. Its media are detached (`status_id` and
    /// `scheduled_status_id` cleared), not removed, so that they can be posted again. Replies to
    /// it stay. `NotFound` if absent.
    async fn delete_status(&self, id: Id) -> StoreResult<()>;
    /// Makes `status`, stored as replying to nothing, a reply to `parent` (a remote reply whose
    /// parent was stored after it): in one write, its `in_reply_to_id` becomes `parent`, its
    /// `in_reply_to_account_id` the parent's author, the thread it began joins the parent's
    /// (every status whose `conversation_id` is `status`, itself included, takes the parent's
    /// `conversation_id`, or the parent's id when it has none), and the parent's
    /// `replies_count` goes up by one. `false`, and nothing changes, when `status` already
    /// replies to a status, is a reblog or is `parent`, or when `parent` is a reblog.
    /// `NotFound` when either is absent.
    ///
    /// The default links nothing and answers `false`, which is correct but weaker (a remote
    /// reply that came before its parent then stays a reply to nothing in the thread views); a
    /// store that links claims `LinksReplies` in the testkit's store suite.
    async fn link_reply(&self, status: Id, parent: Id) -> StoreResult<bool> {
        let _ = (status, parent);
        Ok(false)
    }
    /// Puts the searchable text of statuses into the full-text index, replacing what it held
    /// for them. `delete_status` and `delete_account` take a status out of the index with it.
    /// Reblogs are not indexed (their text is the original's).
    ///
    /// The default indexes nothing and [`StatusStore::search_statuses`] finds nothing, which is
    /// correct but weaker (search finds statuses only by URL); a store that searches claims
    /// `SearchesStatuses` in the testkit's store suite. Another search engine plugs in here: a
    /// store can forward these three methods to it.
    async fn index_statuses(&self, documents: &[SearchDocument]) -> StoreResult<()> {
        let _ = documents;
        Ok(())
    }
    /// The ids of the indexed statuses matching `search`, newest first: those of its scope
    /// that contain every word and phrase of `must` and none of `must_not` and meet every
    /// condition, with `max_id`, `min_id`, `offset` and `limit` applied. Deleted statuses are
    /// never found. Who may see each one is the caller's to check. The default finds nothing.
    async fn search_statuses(&self, search: &StatusSearch) -> StoreResult<Vec<Id>> {
        let _ = search;
        Ok(vec![])
    }
    /// For rebuilding the index: the ids of up to `limit` statuses that are not reblogs, with
    /// an id larger than `after`, smallest first. The default gives none.
    async fn indexable_status_ids(&self, after: Option<Id>, limit: u64) -> StoreResult<Vec<Id>> {
        let _ = (after, limit);
        Ok(vec![])
    }
    /// One page of an account's statuses matching `filter`, newest first.
    async fn account_statuses(
        &self,
        account_id: Id,
        filter: &AccountStatusesFilter,
        page: Page,
    ) -> StoreResult<Vec<StatusRecord>>;
    /// Public timeline: public statuses that are neither reblogs nor replies to others, by
    /// unsuspended authors, one page.
    async fn public_timeline(
        &self,
        filter: PublicTimelineFilter,
        page: Page,
    ) -> StoreResult<Vec<StatusRecord>>;
    /// The ids of [`StatusStore::public_timeline`]'s page, in its order: for a store with a
    /// record cache in front of it, which then takes the statuses from the cache. The default
    /// reads the page and keeps its ids.
    async fn public_timeline_ids(
        &self,
        filter: PublicTimelineFilter,
        page: Page,
    ) -> StoreResult<Vec<Id>> {
        Ok(self
            .public_timeline(filter, page)
            .await?
            .into_iter()
            .map(|s| s.id)
            .collect())
    }
    /// Hashtag timeline: public statuses (replies included, reblogs not) by unsuspended authors
    /// carrying at least one tag of `any`, every tag of `all` and no tag of `none`, one page.
    async fn tag_timeline(
        &self,
        filter: &TagTimelineFilter,
        page: Page,
    ) -> StoreResult<Vec<StatusRecord>>;
}

/// Follows (the part of the social graph fan-out needs).
#[async_trait]
pub trait FollowStore: Send + Sync {
    /// Records that `follower` follows `target` and updates both counters. Idempotent.
    async fn insert_follow(&self, id: Id, follower: Id, target: Id) -> StoreResult<()>;
    /// Removes a follow and updates both counters; returns whether it existed.
    async fn delete_follow(&self, follower: Id, target: Id) -> StoreResult<bool>;
    /// Whether `follower` follows `target`.
    async fn follows(&self, follower: Id, target: Id) -> StoreResult<bool>;
    /// Ids of the local accounts that follow `target`.
    async fn local_follower_ids(&self, target: Id) -> StoreResult<Vec<Id>>;
    /// The local followers of `target` whose follow asks to be notified of its posts (`notify`).
    /// Any order.
    async fn notified_follower_ids(&self, target: Id) -> StoreResult<Vec<Id>>;
    /// The local followers of `target` whose follow shows only some languages, with those
    /// languages (the follows with `languages` set). Any order.
    async fn language_restricted_followers(
        &self,
        target: Id,
    ) -> StoreResult<Vec<(Id, Vec<String>)>>;
    /// One page of `target`'s followers as `(follow id, follower id)`, newest follow first; the
    /// page's cursors are follow ids (Mastodon paginates these lists on hidden ids).
    async fn followers_page(&self, target: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
    /// One page of the accounts `follower` follows as `(follow id, followed id)`, newest first.
    async fn following_page(&self, follower: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
    /// Records a pending request of `follower` to follow the locked `target`. Idempotent (the
    /// first request's id is kept).
    async fn insert_follow_request(&self, id: Id, follower: Id, target: Id) -> StoreResult<()>;
    /// Removes a pending request; returns whether it existed.
    async fn delete_follow_request(&self, follower: Id, target: Id) -> StoreResult<bool>;
    /// Whether `follower` has a pending request to follow `target`.
    async fn follow_requested(&self, follower: Id, target: Id) -> StoreResult<bool>;
    /// One page of the pending requests to follow `target` as `(request id, requester id)`,
    /// newest first.
    async fn follow_requests_page(&self, target: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
    /// The follow of `follower` to `target`, with its options.
    async fn follow_of(&self, follower: Id, target: Id) -> StoreResult<Option<FollowRecord>>;
    /// Stores a follow with its options: a new one is inserted (counters updated); an existing
    /// one keeps its id and takes the new options. Returns whether it was new.
    async fn upsert_follow(&self, follow: &FollowRecord) -> StoreResult<bool>;
    /// The pending request of `follower` to follow `target`, with its options.
    async fn follow_request_of(
        &self,
        follower: Id,
        target: Id,
    ) -> StoreResult<Option<FollowRecord>>;
    /// Stores a follow request with its options, as `upsert_follow` does for follows.
    async fn upsert_follow_request(&self, request: &FollowRecord) -> StoreResult<bool>;
    /// Up to `limit` followers of `target` whom `account` follows, newest follow of `target` first.
    async fn familiar_followers(&self, account: Id, target: Id, limit: u64)
    -> StoreResult<Vec<Id>>;
    /// Who receives `booster`'s reblog of a status by `author` in their home feed: the local
    /// followers of `booster` whose follow shows reblogs, leaving out those that block or are
    /// blocked by `author` and those that mute `author` at `now`. One query, however many
    /// followers. Any order.
    async fn reblog_audience(
        &self,
        booster: Id,
        author: Id,
        now: DateTime<Utc>,
    ) -> StoreResult<Vec<Id>>;
    /// Accounts followed by the accounts `account` follows, that `account` itself neither is nor
    /// follows, with how many of `account`'s follows follow each; most first, then newest id.
    async fn friends_of_friends(&self, account: Id, limit: u64) -> StoreResult<Vec<(Id, i64)>>;
}

/// Blocks and mutes between accounts.
#[async_trait]
pub trait BlockStore: Send + Sync {
    /// `account` blocks `target`. In the same transaction, follows and follow requests between the
    /// two, in both directions, are removed (with their counters). Idempotent (the first block's
    /// id is kept).
    async fn insert_block(&self, id: Id, account: Id, target: Id) -> StoreResult<()>;
    /// Removes a block; returns whether it existed.
    async fn delete_block(&self, account: Id, target: Id) -> StoreResult<bool>;
    /// Whether `account` blocks `target`.
    async fn blocks(&self, account: Id, target: Id) -> StoreResult<bool>;
    /// The ids among `others` that `account` blocks or that block `account`.
    async fn blocked_either_way(&self, account: Id, others: &[Id]) -> StoreResult<Vec<Id>>;
    /// One page of the accounts `account` blocks as `(block id, blocked id)`, newest first.
    async fn blocks_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
    /// `mute.account_id` mutes `mute.target_id`; a second mute replaces the settings
    /// (`notifications`, `expires_at`) and keeps the first id.
    async fn upsert_mute(&self, mute: &MuteRecord) -> StoreResult<()>;
    /// Removes a mute; returns whether it existed.
    async fn delete_mute(&self, account: Id, target: Id) -> StoreResult<bool>;
    /// The mute of `target` by `account` in force at `now` (an expired one is `None`).
    async fn mute_of(
        &self,
        account: Id,
        target: Id,
        now: DateTime<Utc>,
    ) -> StoreResult<Option<MuteRecord>>;
    /// The ids among `others` that `account` mutes at `now`.
    async fn muted_among(
        &self,
        account: Id,
        others: &[Id],
        now: DateTime<Utc>,
    ) -> StoreResult<Vec<Id>>;
    /// Whether `account` may have any relation [`relations_among`](Self::relations_among) reports:
    /// it blocks someone, someone blocks it, or it has a mute (in force or expired). `false`
    /// promises that `relations_among(account, ..)` is empty for every `others` and `now`, so a
    /// caller may skip asking; `true` promises nothing. The default answers `true`; stores that
    /// can tell cheaply should, since most accounts have no blocks or mutes at all.
    async fn has_relations(&self, account: Id) -> StoreResult<bool> {
        let _ = account;
        Ok(true)
    }
    /// How `account` stands with each of `others` at `now`: whether it blocks them, whether
    /// they block it, whether it mutes them (a mute in force at `now`). Only the accounts with at
    /// least one of the three come back, each once, in no particular order. What
    /// `blocked_either_way`, `blocks` and `muted_among` would say, in one call: stores may answer
    /// it in one query (the default asks those methods).
    async fn relations_among(
        &self,
        account: Id,
        others: &[Id],
        now: DateTime<Utc>,
    ) -> StoreResult<Vec<RelationRecord>> {
        let mut out: std::collections::BTreeMap<Id, RelationRecord> = Default::default();
        for other in self.blocked_either_way(account, others).await? {
            let r = out
                .entry(other)
                .or_insert_with(|| RelationRecord::new(other));
            r.blocking = self.blocks(account, other).await?;
            r.blocked_by = self.blocks(other, account).await?;
        }
        for other in self.muted_among(account, others, now).await? {
            out.entry(other)
                .or_insert_with(|| RelationRecord::new(other))
                .muting = true;
        }
        Ok(out.into_values().collect())
    }
    /// One page of the mutes of `account` in force at `now`, newest first (cursor: mute id).
    async fn mutes_page(
        &self,
        account: Id,
        now: DateTime<Utc>,
        page: Page,
    ) -> StoreResult<Vec<MuteRecord>>;
}

/// Private notes, endorsements and suggestion dismissals: one account's annotations of others.
#[async_trait]
pub trait AccountNoteStore: Send + Sync {
    /// Sets `account`'s private note on `target`; an empty comment removes it.
    async fn set_account_note(&self, account: Id, target: Id, comment: &str) -> StoreResult<()>;
    /// `account`'s private note on `target`, if any.
    async fn account_note(&self, account: Id, target: Id) -> StoreResult<Option<String>>;
    /// `account` endorses (features on its profile) `target`. Idempotent (the first id is kept).
    async fn insert_endorsement(&self, id: Id, account: Id, target: Id) -> StoreResult<()>;
    /// Removes an endorsement; returns whether it existed.
    async fn delete_endorsement(&self, account: Id, target: Id) -> StoreResult<bool>;
    /// Whether `account` endorses `target`.
    async fn endorses(&self, account: Id, target: Id) -> StoreResult<bool>;
    /// One page of `account`'s endorsements as `(endorsement id, endorsed id)`, newest first.
    async fn endorsements_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
    /// `account` no longer wants `target` suggested. Idempotent.
    async fn dismiss_suggestion(&self, account: Id, target: Id) -> StoreResult<()>;
    /// The accounts `account` dismissed from its suggestions.
    async fn dismissed_suggestions(&self, account: Id) -> StoreResult<Vec<Id>>;
}

/// Domains an account blocks (hiding everything from accounts there).
#[async_trait]
pub trait DomainBlockStore: Send + Sync {
    /// `account` blocks `domain` (lower case). In the same transaction, `account`'s followers on
    /// that domain are removed (with counters) and their pending follow requests to `account`
    /// dropped. Idempotent (the first id is kept).
    async fn insert_domain_block(&self, id: Id, account: Id, domain: &str) -> StoreResult<()>;
    /// Removes a domain block; returns whether it existed.
    async fn delete_domain_block(&self, account: Id, domain: &str) -> StoreResult<bool>;
    /// Whether `account` blocks `domain`.
    async fn domain_blocked(&self, account: Id, domain: &str) -> StoreResult<bool>;
    /// One page of `account`'s blocked domains as `(block id, domain)`, newest first.
    async fn domain_blocks_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, String)>>;
}

/// Hashtags, their use, and the tags accounts follow and feature.
#[async_trait]
pub trait TagStore: Send + Sync {
    /// The tag with this normalised name, created from `tag` if unknown (then returned as
    /// given). Concurrent calls for one name return the same tag.
    async fn find_or_create_tag(&self, tag: &TagRecord) -> StoreResult<TagRecord>;
    /// The tag with this normalised name.
    async fn tag_by_name(&self, name: &str) -> StoreResult<Option<TagRecord>>;
    /// The tag with this id.
    async fn tag_by_id(&self, id: Id) -> StoreResult<Option<TagRecord>>;
    /// One page of all tags, by id (newest first, as pages go).
    async fn tags_page(&self, page: Page) -> StoreResult<Vec<TagRecord>>;
    /// Stores what staff changed of a known tag: its `display_name` and `review`; returns
    /// whether the tag exists (its name and creation are kept).
    async fn update_tag(&self, tag: &TagRecord) -> StoreResult<bool>;
    /// Tags whose normalised name starts with `prefix` (itself normalised), shortest name
    /// first, then by name; `offset` of them skipped, at most `limit` given.
    ///
    /// The default finds only the tag named exactly `prefix` (on the first page), which is
    /// correct but weaker (a search for the start of a hashtag finds nothing); a store that
    /// searches prefixes claims `SearchesTagPrefixes` in the testkit's store suite.
    async fn tags_by_prefix(
        &self,
        prefix: &str,
        offset: u64,
        limit: u64,
    ) -> StoreResult<Vec<TagRecord>> {
        if offset > 0 || limit == 0 {
            return Ok(vec![]);
        }
        Ok(self.tag_by_name(prefix).await?.into_iter().collect())
    }
    /// Statuses carrying the normalised tag `name` created in `[from, to)`, and their authors.
    async fn tag_usage(
        &self,
        name: &str,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<TagUsage>;
    /// `account` follows the tag. Idempotent (the first id is kept).
    async fn follow_tag(&self, id: Id, account: Id, tag_id: Id) -> StoreResult<()>;
    /// Stops following; returns whether `account` followed the tag.
    async fn unfollow_tag(&self, account: Id, tag_id: Id) -> StoreResult<bool>;
    /// Whether `account` follows the tag.
    async fn follows_tag(&self, account: Id, tag_id: Id) -> StoreResult<bool>;
    /// One page of the tags `account` follows as `(tag follow id, tag)`, newest first.
    async fn followed_tags_page(
        &self,
        account: Id,
        page: Page,
    ) -> StoreResult<Vec<(Id, TagRecord)>>;
    /// Stores a featured tag. `AlreadyExists("featured_tag")` if the account already features it.
    async fn insert_featured_tag(&self, tag: &FeaturedTagRecord) -> StoreResult<()>;
    /// Removes `account`'s featured tag with this id; returns whether it existed.
    async fn delete_featured_tag(&self, account: Id, id: Id) -> StoreResult<bool>;
    /// `account`'s featured tags, in no particular order.
    async fn featured_tags(&self, account: Id) -> StoreResult<Vec<FeaturedTagRecord>>;
    /// How many of `account`'s public and unlisted statuses carry the tag `name`, and when the
    /// newest was made.
    async fn account_tag_stats(
        &self,
        account: Id,
        name: &str,
    ) -> StoreResult<(i64, Option<DateTime<Utc>>)>;
    /// The tags `account` used most in statuses at or after `since`, most used first (then by
    /// name), up to `limit`.
    async fn most_used_tags(
        &self,
        account: Id,
        since: DateTime<Utc>,
        limit: u64,
    ) -> StoreResult<Vec<String>>;
}

/// Finding accounts: search, the profile directory, popular accounts.
#[async_trait]
pub trait DirectoryStore: Send + Sync {
    /// Accounts matching a search, not suspended: exact username matches first, then by
    /// followers (most first), then id.
    async fn search_accounts(&self, search: &AccountSearch) -> StoreResult<Vec<AccountRecord>>;
    /// The profile directory: discoverable accounts that are not suspended (local ones only if
    /// confirmed and approved), optionally local only, in `order`.
    async fn directory(
        &self,
        order: DirectoryOrder,
        local_only: bool,
        offset: u64,
        limit: u64,
    ) -> StoreResult<Vec<AccountRecord>>;
    /// Local, discoverable, unsuspended accounts with the most followers, most first (then oldest
    /// id), up to `limit`.
    async fn most_followed_local(&self, limit: u64) -> StoreResult<Vec<Id>>;
}

/// What accounts do with statuses: favourites, bookmarks, pins, reblogs, and threads.
#[async_trait]
pub trait InteractionStore: Send + Sync {
    /// `account` favourites `status`; a new favourite raises the status's `favourites_count`.
    /// Idempotent (the first id is kept); returns whether it was new.
    async fn insert_favourite(&self, id: Id, account: Id, status: Id) -> StoreResult<bool>;
    /// Removes a favourite (lowering the count); returns whether it existed.
    async fn delete_favourite(&self, account: Id, status: Id) -> StoreResult<bool>;
    /// The ids among `statuses` that `account` favourited.
    async fn favourited_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>>;
    /// One page of `account`'s favourites as `(favourite id, status id)`, newest first.
    async fn favourites_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
    /// One page of who favourited `status` as `(favourite id, account id)`, newest first.
    async fn favourited_by_page(&self, status: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
    /// `account` bookmarks `status`. Idempotent (the first id is kept); returns whether it was new.
    async fn insert_bookmark(&self, id: Id, account: Id, status: Id) -> StoreResult<bool>;
    /// Removes a bookmark; returns whether it existed.
    async fn delete_bookmark(&self, account: Id, status: Id) -> StoreResult<bool>;
    /// The ids among `statuses` that `account` bookmarked.
    async fn bookmarked_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>>;
    /// One page of `account`'s bookmarks as `(bookmark id, status id)`, newest first.
    async fn bookmarks_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
    /// `account` pins its own `status` on its profile. Idempotent; returns whether it was new.
    async fn insert_pin(&self, id: Id, account: Id, status: Id) -> StoreResult<bool>;
    /// Removes a pin; returns whether it existed.
    async fn delete_pin(&self, account: Id, status: Id) -> StoreResult<bool>;
    /// The ids among `statuses` that `account` pinned.
    async fn pinned_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>>;
    /// `account`'s pinned statuses' ids, newest pin first.
    async fn pinned_status_ids(&self, account: Id) -> StoreResult<Vec<Id>>;
    /// `account`'s reblog of `status`, if any.
    async fn reblog_by(&self, account: Id, status: Id) -> StoreResult<Option<StatusRecord>>;
    /// The ids among `statuses` that `account` reblogged.
    async fn reblogged_among(&self, account: Id, statuses: &[Id]) -> StoreResult<Vec<Id>>;
    /// One page of who reblogged `status` as `(reblog status id, account id)`, newest first.
    async fn reblogged_by_page(&self, status: Id, page: Page) -> StoreResult<Vec<(Id, Id)>>;
    /// The direct replies to any of `parents`, oldest first.
    async fn replies_to(&self, parents: &[Id]) -> StoreResult<Vec<StatusRecord>>;
    /// `account` mutes the thread `conversation` (no notifications from it). Idempotent.
    async fn mute_conversation(&self, account: Id, conversation: Id) -> StoreResult<()>;
    /// Unmutes a thread; returns whether it was muted.
    async fn unmute_conversation(&self, account: Id, conversation: Id) -> StoreResult<bool>;
    /// The ids among `conversations` that `account` muted.
    async fn muted_conversations_among(
        &self,
        account: Id,
        conversations: &[Id],
    ) -> StoreResult<Vec<Id>>;
    /// What `account` did with a page of statuses: which of `statuses` it favourited, reblogged
    /// and bookmarked, which of `own` it pinned, and which of `conversations` it muted, each
    /// sorted, as the five `_among` methods would say. Stores may answer it in one query (the
    /// default asks those methods).
    async fn interactions_among(
        &self,
        account: Id,
        statuses: &[Id],
        own: &[Id],
        conversations: &[Id],
    ) -> StoreResult<InteractionsRecord> {
        Ok(InteractionsRecord {
            favourited: self.favourited_among(account, statuses).await?,
            reblogged: self.reblogged_among(account, statuses).await?,
            bookmarked: self.bookmarked_among(account, statuses).await?,
            pinned: if own.is_empty() {
                vec![]
            } else {
                self.pinned_among(account, own).await?
            },
            muted_conversations: self
                .muted_conversations_among(account, conversations)
                .await?,
        })
    }
}

/// Edits of statuses and their revision history.
#[async_trait]
pub trait StatusEditStore: Send + Sync {
    /// In one transaction: replaces the editable fields of the stored status with those of
    /// `status` (`text`, `content`, `spoiler_text`, `sensitive`, `language`, `mentions`, `tags`,
    /// `media_ids`, `edited_at`; everything else is kept) and appends `revisions` to its history.
    /// Media newly in `media_ids` are attached to the status; each must be the author's and
    /// either unattached or attached to this status already, else `AlreadyExists("media")` and
    /// nothing changes. Media dropped from `media_ids` stay attached (the history shows them).
    /// `NotFound` if the status is absent.
    async fn update_status(
        &self,
        status: &StatusRecord,
        revisions: &[StatusEditRecord],
    ) -> StoreResult<()>;
    /// A status's revisions, oldest first (empty if never edited). `delete_status` and
    /// `delete_account` remove them with the status.
    async fn status_edits(&self, status_id: Id) -> StoreResult<Vec<StatusEditRecord>>;
}

/// Polls and their votes.
#[async_trait]
pub trait PollStore: Send + Sync {
    /// Stores a poll (its `votes` and `voters_count` as given). `AlreadyExists("poll")` if the id
    /// is taken or the status already has one. `delete_status` removes a status's poll with its
    /// votes; `delete_account` removes the account's polls and its votes (lowering the counts
    /// of other polls it voted in).
    async fn insert_poll(&self, poll: &PollRecord) -> StoreResult<()>;
    /// The poll with this id.
    async fn poll_by_id(&self, id: Id) -> StoreResult<Option<PollRecord>>;
    /// The polls of these statuses, in no particular order.
    async fn polls_by_status_ids(&self, status_ids: &[Id]) -> StoreResult<Vec<PollRecord>>;
    /// Records `account`'s vote for the option indexes `choices` (valid and distinct; the caller
    /// checks), raising each chosen option's count and `voters_count`, atomically.
    /// `AlreadyExists("vote")` if the account already voted in this poll (nothing changes);
    /// `NotFound` if the poll is absent.
    async fn insert_poll_votes(
        &self,
        poll_id: Id,
        account: Id,
        choices: &[usize],
    ) -> StoreResult<()>;
    /// The option indexes `account` chose in the poll (empty if it did not vote), ascending.
    async fn poll_votes_of(&self, poll_id: Id, account: Id) -> StoreResult<Vec<usize>>;
    /// `account`'s choices in those of these polls it voted in, as `(poll id, option indexes
    /// ascending)`, each poll once, in no particular order (a poll it did not vote in, or an
    /// unknown one, is left out): the viewer's votes on a page of statuses, read in one call.
    /// The default asks [`PollStore::poll_votes_of`] once per poll; a store answers in one
    /// query.
    async fn poll_votes_among(
        &self,
        poll_ids: &[Id],
        account: Id,
    ) -> StoreResult<Vec<(Id, Vec<usize>)>> {
        let mut ids = poll_ids.to_vec();
        ids.sort_unstable();
        ids.dedup();
        let mut out = Vec::new();
        for id in ids {
            let votes = self.poll_votes_of(id, account).await?;
            if !votes.is_empty() {
                out.push((id, votes));
            }
        }
        Ok(out)
    }
    /// The accounts that voted in the poll, in no particular order.
    async fn poll_voters(&self, poll_id: Id) -> StoreResult<Vec<Id>>;
    /// In one transaction: removes the poll of `status_id` (if any) with its votes, and stores
    /// `poll` (if given; its `status_id` must be `status_id`) in its place. Editing a poll this
    /// way starts its voting over. `AlreadyExists("poll")` if the new poll's id is taken by
    /// another status's poll (nothing changes).
    async fn replace_poll(&self, status_id: Id, poll: Option<&PollRecord>) -> StoreResult<()>;
    /// Counts one more choice of `account` in the poll, as other servers report votes (one
    /// option per activity): in one write, `choice` joins the account's choices (kept
    /// ascending, as [`PollStore::poll_votes_of`] gives them), that option's count goes up by
    /// one, and `voters_count` goes up by one when it is the account's first choice in the
    /// poll. `false`, and nothing changes, when the account chose that option already, or chose
    /// any option of a poll that is not `multiple`. `NotFound` if the poll is absent. The
    /// caller checks that `choice` is the index of an option.
    ///
    /// The default records a first choice through [`PollStore::insert_poll_votes`] and refuses
    /// any further one (`false`): right for single-choice polls, weaker for multiple ones (an
    /// account's second choice is not counted); a store that adds choices claims
    /// `AddsPollChoices` in the testkit's store suite.
    async fn add_poll_choice(&self, poll_id: Id, account: Id, choice: usize) -> StoreResult<bool> {
        if !self.poll_votes_of(poll_id, account).await?.is_empty() {
            return Ok(false);
        }
        match self.insert_poll_votes(poll_id, account, &[choice]).await {
            Ok(()) => Ok(true),
            Err(crate::StoreError::AlreadyExists(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }
    /// Sets a poll's counts and end as the server it belongs to reports them (the tally of a
    /// remote poll): option `i` takes `votes[i]` (0 when `votes` is shorter; counts beyond the
    /// options are ignored), `voters_count` and `expires_at` are replaced, in one write. The
    /// options, `multiple`, `hide_totals`, `created_at` and the recorded votes stay, so the
    /// accounts that voted here keep their choices ([`PollStore::poll_votes_of`],
    /// [`PollStore::poll_voters`]), and a vote after it counts from the new tally. `true` when
    /// set; `NotFound` if the poll is absent.
    ///
    /// The default sets nothing and answers `false`, which is correct but weaker (a remote
    /// poll's counts then stay those it was stored with, plus the votes made here); a store that
    /// sets them claims `SetsPollTallies` in the testkit's store suite.
    async fn set_poll_tally(
        &self,
        poll_id: Id,
        votes: &[i64],
        voters_count: i64,
        expires_at: Option<DateTime<Utc>>,
    ) -> StoreResult<bool> {
        let _ = (poll_id, votes, voters_count, expires_at);
        Ok(false)
    }
}

/// Media attachments: uploaded files waiting to be posted, and those attached to statuses.
///
/// `StatusStore::insert_status` and `StatusEditStore::update_status` attach media,
/// `StatusStore::delete_status` detaches them; `AccountStore::delete_account` removes the
/// account's media records (the caller reads [`MediaStore::account_media`] first to remove their
/// files).
#[async_trait]
pub trait MediaStore: Send + Sync {
    /// Stores a new attachment. `AlreadyExists("media")` if the id is taken.
    async fn insert_media(&self, media: &MediaRecord) -> StoreResult<()>;
    /// The attachment with this id.
    async fn media_by_id(&self, id: Id) -> StoreResult<Option<MediaRecord>>;
    /// The attachments with these ids, in no particular order; unknown ids are skipped.
    async fn media_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<MediaRecord>>;
    /// Replaces what clients change: `scheduled_status_id`, `thumbnail_key`, `description`,
    /// `focus`. The rest (owner, `status_id`, file, what processing made) is kept. `NotFound`
    /// if absent.
    async fn update_media(&self, media: &MediaRecord) -> StoreResult<()>;
    /// Records the end of processing: replaces `preview_key`, `meta` and `blurhash` and sets
    /// `processed` to true. The rest is kept, so a description or focal point a client set while
    /// processing ran is not lost. `NotFound` if absent.
    async fn finish_media_processing(&self, media: &MediaRecord) -> StoreResult<()>;
    /// Removes the attachment if it is neither attached to a status nor reserved by a
    /// scheduled status, and returns it (so that its files can be removed); `None` otherwise.
    async fn delete_unattached_media(&self, id: Id) -> StoreResult<Option<MediaRecord>>;
    /// Every attachment an account uploaded, in no particular order.
    async fn account_media(&self, account_id: Id) -> StoreResult<Vec<MediaRecord>>;
    /// Keeps these custom emojis: one with a `(shortcode, domain)` already stored replaces it,
    /// keeping the stored `id`; others are inserted with theirs.
    ///
    /// The default keeps nothing, which is correct but weaker (remote statuses then show their
    /// `:shortcode:` text without the image); a store that keeps them claims `KeepsCustomEmojis`
    /// in the testkit's store suite.
    async fn save_custom_emojis(&self, emojis: &[CustomEmojiRecord]) -> StoreResult<()> {
        let _ = emojis;
        Ok(())
    }
    /// The custom emojis stored under these `(shortcode, domain)` keys (`None`: this server's),
    /// in no particular order; unknown keys are skipped. The default knows none.
    async fn custom_emojis_by_keys(
        &self,
        keys: &[(String, Option<String>)],
    ) -> StoreResult<Vec<CustomEmojiRecord>> {
        let _ = keys;
        Ok(vec![])
    }
    /// Whether this store lists, finds by id and deletes custom emojis
    /// ([`MediaStore::list_custom_emojis`], [`MediaStore::custom_emoji_by_id`],
    /// [`MediaStore::delete_custom_emoji`]), which staff managing this server's emojis needs.
    /// The default answers `false`, with those methods finding and removing nothing; a store
    /// that answers `true` claims `ManagesCustomEmojis` in the testkit's store suite.
    fn manages_custom_emojis(&self) -> bool {
        false
    }
    /// One page of the custom emojis `filter` selects, newest (highest id) first. The default
    /// lists none.
    async fn list_custom_emojis(
        &self,
        filter: &CustomEmojiFilter,
        page: Page,
    ) -> StoreResult<Vec<CustomEmojiRecord>> {
        let _ = (filter, page);
        Ok(vec![])
    }
    /// The custom emoji with this id. The default finds none.
    async fn custom_emoji_by_id(&self, id: Id) -> StoreResult<Option<CustomEmojiRecord>> {
        let _ = id;
        Ok(None)
    }
    /// Removes the custom emoji with this id and returns it (so that its files can be
    /// removed); `None` if there was none. The default removes nothing.
    async fn delete_custom_emoji(&self, id: Id) -> StoreResult<Option<CustomEmojiRecord>> {
        let _ = id;
        Ok(None)
    }
}

/// Notifications: what others did that concerns an account.
#[async_trait]
pub trait NotificationStore: Send + Sync {
    /// Inserts notifications, all or none. `AlreadyExists("notification")` for a taken id.
    async fn insert_notifications(&self, notifications: &[NotificationRecord]) -> StoreResult<()>;
    /// The notification with this id.
    async fn notification_by_id(&self, id: Id) -> StoreResult<Option<NotificationRecord>>;
    /// A page of `account`'s notifications that `query` takes, newest first.
    async fn notifications_page(
        &self,
        account: Id,
        query: &NotificationQuery,
        page: Page,
    ) -> StoreResult<Vec<NotificationRecord>>;
    /// How many of `account`'s notifications `query` takes with an id above `after` (all when
    /// `None`), counting no further than `limit`.
    async fn count_notifications(
        &self,
        account: Id,
        query: &NotificationQuery,
        after: Option<Id>,
        limit: u64,
    ) -> StoreResult<u64>;
    /// Removes `account`'s notification `id`; `false` when there is none, or it is someone
    /// else's (which stays).
    async fn dismiss_notification(&self, account: Id, id: Id) -> StoreResult<bool>;
    /// Removes `account`'s notifications with this `group_key`; returns how many.
    async fn dismiss_notification_group(&self, account: Id, group_key: &str) -> StoreResult<u64>;
    /// Removes all of `account`'s notifications; returns how many.
    async fn clear_notifications(&self, account: Id) -> StoreResult<u64>;
    /// Removes `account`'s notifications from `from`: of `kind` only when given, about `status`
    /// only when given (an undone favourite, reblog, follow or follow request; every kind after a
    /// block). Returns how many.
    async fn retract_notifications(
        &self,
        account: Id,
        from: Id,
        kind: Option<NotificationType>,
        status: Option<Id>,
    ) -> StoreResult<u64>;
}

/// Read positions in timelines.
#[async_trait]
pub trait MarkerStore: Send + Sync {
    /// `account`'s markers among these timelines (those it has), in no particular order.
    async fn markers(&self, account: Id, timelines: &[String]) -> StoreResult<Vec<MarkerRecord>>;
    /// Saves a marker if no other write came first: a `version` 1 marker only when the account
    /// has none for the timeline, a later version only over `version - 1`. Returns whether it
    /// was saved (`false`: the stored marker is not the one the version follows; it stays).
    async fn save_marker(&self, marker: &MarkerRecord) -> StoreResult<bool>;
}

/// Materialised home feeds (fan-out on write).
#[async_trait]
pub trait FeedStore: Send + Sync {
    /// Inserts `status_id` into the home feed of each account, in one batch. Idempotent.
    async fn insert_feed_entries(
        &self,
        status_id: Id,
        author_id: Id,
        account_ids: &[Id],
    ) -> StoreResult<()>;
    /// One page of an account's home feed: status ids, newest first.
    async fn home_feed(&self, account_id: Id, page: Page) -> StoreResult<Vec<Id>>;
    /// Inserts `status_id` into the feed of each list, in one batch. Idempotent.
    async fn insert_list_entries(
        &self,
        status_id: Id,
        author_id: Id,
        list_ids: &[Id],
    ) -> StoreResult<()>;
    /// Inserts several statuses, as `(status id, author id)`, into one feed in one batch (a
    /// back-fill). Idempotent.
    async fn backfill_feed(&self, feed: Feed, entries: &[(Id, Id)]) -> StoreResult<()>;
    /// One page of a list's feed: status ids, newest first.
    async fn list_feed(&self, list_id: Id, page: Page) -> StoreResult<Vec<Id>>;
    /// Removes the statuses (and reblogs) by `author` from `account`'s home feed and from the
    /// feeds of every list `account` owns.
    async fn remove_author_entries(&self, account: Id, author: Id) -> StoreResult<()>;
}

/// Lists: named sets of followed accounts, each with its own feed (see `FeedStore`).
#[async_trait]
pub trait ListStore: Send + Sync {
    /// Stores a new list. `AlreadyExists("list")` if the id is taken.
    async fn insert_list(&self, list: &ListRecord) -> StoreResult<()>;
    /// The list with this id.
    async fn list_by_id(&self, id: Id) -> StoreResult<Option<ListRecord>>;
    /// Every list `account` owns, oldest first.
    async fn lists_of(&self, account: Id) -> StoreResult<Vec<ListRecord>>;
    /// Replaces the title, `replies_policy` and `exclusive`; returns whether the list exists.
    async fn update_list(&self, list: &ListRecord) -> StoreResult<bool>;
    /// Removes a list with its members and its feed; returns whether it existed.
    async fn delete_list(&self, id: Id) -> StoreResult<bool>;
    /// Adds accounts to a list, all or none: `AlreadyExists("list_account")` (and nothing added)
    /// if one of them is in it already.
    async fn add_list_accounts(&self, list_id: Id, accounts: &[Id]) -> StoreResult<()>;
    /// Removes accounts from a list, and their statuses from its feed; returns how many were in
    /// it.
    async fn remove_list_accounts(&self, list_id: Id, accounts: &[Id]) -> StoreResult<u64>;
    /// Removes `account` from every list `owner` owns, and its statuses from their feeds.
    async fn remove_from_lists(&self, owner: Id, account: Id) -> StoreResult<()>;
    /// One page of a list's members' ids, highest id first (the page's cursors are account ids).
    async fn list_accounts_page(&self, list_id: Id, page: Page) -> StoreResult<Vec<Id>>;
    /// The lists that have `account` as a member: all of them, or only `owner`'s. Oldest first.
    async fn lists_with_member(
        &self,
        account: Id,
        owner: Option<Id>,
    ) -> StoreResult<Vec<ListRecord>>;
}

/// Filters: an account's groups of keywords and statuses, with where they apply and what a match
/// does. Expired filters are kept (and listed); applying them is the services' business.
#[async_trait]
pub trait FilterStore: Send + Sync {
    /// Stores a new filter with its keywords (its `statuses` must be empty), all or nothing.
    /// `AlreadyExists("filter")` if the id is taken, `AlreadyExists("filter_keyword")` if a
    /// keyword's id is (nothing is stored).
    async fn insert_filter(&self, filter: &FilterRecord) -> StoreResult<()>;
    /// The filter with this id, with its keywords and statuses (each oldest first).
    async fn filter_by_id(&self, id: Id) -> StoreResult<Option<FilterRecord>>;
    /// Every filter of `account`, expired ones too, oldest first, with their keywords and
    /// statuses.
    async fn filters_of(&self, account: Id) -> StoreResult<Vec<FilterRecord>>;
    /// In one transaction: replaces the title, context, action and expiry of filter `filter.id`
    /// (the account, keywords and statuses in `filter` are not read), removes the keywords
    /// `removed`, replaces the text and `whole_word` of the keywords `changed`, and adds `added`.
    /// `NotFound` if the filter is absent or a removed or changed keyword is not one of its own;
    /// `AlreadyExists("filter_keyword")` if an added keyword's id is taken. Nothing changes on
    /// failure.
    async fn update_filter(
        &self,
        filter: &FilterRecord,
        added: &[FilterKeywordRecord],
        changed: &[FilterKeywordRecord],
        removed: &[Id],
    ) -> StoreResult<()>;
    /// Removes a filter with its keywords and statuses; returns whether it existed.
    async fn delete_filter(&self, id: Id) -> StoreResult<bool>;
    /// The keyword with this id.
    async fn filter_keyword_by_id(&self, id: Id) -> StoreResult<Option<FilterKeywordRecord>>;
    /// Adds a keyword to its filter. `NotFound` if the filter is absent;
    /// `AlreadyExists("filter_keyword")` if the id is taken.
    async fn insert_filter_keyword(&self, keyword: &FilterKeywordRecord) -> StoreResult<()>;
    /// Replaces a keyword's text and `whole_word` (its filter stays); returns whether it existed.
    async fn update_filter_keyword(&self, keyword: &FilterKeywordRecord) -> StoreResult<bool>;
    /// Removes a keyword; returns whether it existed.
    async fn delete_filter_keyword(&self, id: Id) -> StoreResult<bool>;
    /// The filter status with this id.
    async fn filter_status_by_id(&self, id: Id) -> StoreResult<Option<FilterStatusRecord>>;
    /// Adds a status to its filter. `NotFound` if the filter is absent;
    /// `AlreadyExists("filter_status")` if the id is taken or the filter has that status already.
    async fn insert_filter_status(&self, status: &FilterStatusRecord) -> StoreResult<()>;
    /// Removes a filter status; returns whether it existed.
    async fn delete_filter_status(&self, id: Id) -> StoreResult<bool>;
}

/// Conversations: each account's direct-message threads (see [`ConversationRecord`]).
#[async_trait]
pub trait ConversationStore: Send + Sync {
    /// Adds `status` to `account`'s conversation of `thread` with exactly these other
    /// `participants` (order and repeats do not matter), making it with id `new_id` when there is
    /// none, and sets its `unread`. Adding a status it has already changes nothing. Returns the
    /// conversation as stored. Safe when two adds race: one conversation results.
    async fn add_to_conversation(
        &self,
        new_id: Id,
        account: Id,
        thread: Id,
        participants: &[Id],
        status: Id,
        unread: bool,
    ) -> StoreResult<ConversationRecord>;
    /// The conversation with this id.
    async fn conversation_by_id(&self, id: Id) -> StoreResult<Option<ConversationRecord>>;
    /// One page of `account`'s conversations, by their last status: newest first, the page's
    /// cursors being last status ids.
    async fn conversations_page(
        &self,
        account: Id,
        page: Page,
    ) -> StoreResult<Vec<ConversationRecord>>;
    /// Sets a conversation's `unread`; returns whether it exists.
    async fn set_conversation_unread(&self, id: Id, unread: bool) -> StoreResult<bool>;
    /// Removes a conversation (for its account only); returns whether it existed.
    async fn delete_conversation(&self, id: Id) -> StoreResult<bool>;
}

/// The link of each status that Mastodon would show as its preview card, for the link timeline.
#[async_trait]
pub trait LinkStore: Send + Sync {
    /// Records the link of a status (`None`: it has none), replacing the one recorded.
    /// `delete_status` removes it with the status.
    async fn set_status_link(&self, status: Id, url: Option<&str>) -> StoreResult<()>;
    /// Whether some status that is public, not a reblog and by an unsuspended account whose
    /// `discoverable` is true records this link.
    async fn link_known(&self, url: &str) -> StoreResult<bool>;
    /// Link timeline: statuses recording this link that are public, not reblogs, by unsuspended
    /// accounts whose `discoverable` is true, that `filter` takes; one page, newest first.
    async fn link_timeline(
        &self,
        url: &str,
        filter: PublicTimelineFilter,
        page: Page,
    ) -> StoreResult<Vec<StatusRecord>>;
    /// The store's preview cards (see [`CardStore`]), if it keeps any; `None` (the default, for
    /// stores written before them): statuses have no `card` and no link trends.
    fn cards(&self) -> Option<&dyn CardStore> {
        None
    }
}

/// Notification policies, the requests of the notifications they filter, and the senders an
/// account accepted.
#[async_trait]
pub trait NotificationPolicyStore: Send + Sync {
    /// `account`'s policy, if it ever saved one.
    async fn notification_policy(
        &self,
        account: Id,
    ) -> StoreResult<Option<NotificationPolicyRecord>>;
    /// Saves a policy, replacing the account's.
    async fn save_notification_policy(&self, policy: &NotificationPolicyRecord) -> StoreResult<()>;
    /// Whether `account` accepted notifications from `from` (by accepting a request).
    async fn notification_permitted(&self, account: Id, from: Id) -> StoreResult<bool>;
    /// Notes a filtered notification from `from` to `account` in their request: makes it (id
    /// `new_id`, created at `at`) or moves its `updated_at` to `at`; `last_status` (when given)
    /// becomes its last status. One request per account and sender, even when two notes race.
    /// Returns the request.
    async fn note_notification_request(
        &self,
        new_id: Id,
        account: Id,
        from: Id,
        last_status: Option<Id>,
        at: DateTime<Utc>,
    ) -> StoreResult<NotificationRequestRecord>;
    /// The request with this id, its `notifications_count` counted.
    async fn notification_request_by_id(
        &self,
        id: Id,
    ) -> StoreResult<Option<NotificationRequestRecord>>;
    /// One page of `account`'s requests by id, newest first, their counts counted.
    async fn notification_requests_page(
        &self,
        account: Id,
        page: Page,
    ) -> StoreResult<Vec<NotificationRequestRecord>>;
    /// Accepts a request, in one transaction: its owner accepts its sender from now on, the
    /// sender's filtered notifications to the owner become unfiltered, and the request goes.
    /// Returns the notifications unfiltered (empty when there is no such request).
    async fn accept_notification_request(&self, id: Id) -> StoreResult<Vec<NotificationRecord>>;
    /// Dismisses a request, in one transaction: the request and the sender's filtered
    /// notifications to its owner go. Returns whether it existed.
    async fn dismiss_notification_request(&self, id: Id) -> StoreResult<bool>;
}

/// Figures for the instance endpoints.
#[async_trait]
pub trait StatsStore: Send + Sync {
    /// Local accounts that are not suspended.
    async fn count_local_accounts(&self) -> StoreResult<i64>;
    /// Local accounts with a status at or after `since` (active users).
    async fn count_active_local_accounts(&self, since: DateTime<Utc>) -> StoreResult<i64>;
    /// Local statuses.
    async fn count_local_statuses(&self) -> StoreResult<i64>;
    /// Domains of known remote accounts, sorted.
    async fn known_domains(&self) -> StoreResult<Vec<String>>;
    /// Statuses, logins and registrations in `[from, to)`.
    async fn activity_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<WeekActivity>;
    /// Whether the store keeps the admin dashboard's data: whether it implements
    /// `record_active_day`, `measure_events`, `measure_total`, `dimension_counts`,
    /// `signups_between` and `storage_usage`, which came after this trait. `false` (the
    /// default, for stores written before them, whose defaults record nothing and answer
    /// nothing): the server answers that it keeps no dashboard data rather than show zeros. A
    /// store implementing them answers `true`; a store wrapping another forwards it.
    fn keeps_dashboard_data(&self) -> bool {
        false
    }
    /// Records that the local account `account` was active on `day` (UTC); recording a day
    /// again changes nothing. The days go with the account. The default records nothing
    /// (`Ok(())`).
    async fn record_active_day(&self, account: Id, day: NaiveDate) -> StoreResult<()> {
        let _ = (account, day);
        Ok(())
    }
    /// The events `kind` counts that happened in `[from, to)` (for
    /// [`MeasureKind::ActiveUsers`], the days whose midnight is in it), in no particular order.
    /// The default answers none.
    async fn measure_events(
        &self,
        kind: &MeasureKind,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<Vec<MeasureEvent>> {
        let _ = (kind, from, to);
        Ok(vec![])
    }
    /// The sum of the amounts of every event `kind` counts, whenever it happened. The default
    /// answers 0.
    async fn measure_total(&self, kind: &MeasureKind) -> StoreResult<i64> {
        let _ = kind;
        Ok(0)
    }
    /// The groups `kind` counts in `[from, to)` (the days whose midnight is in it for
    /// [`DimensionKind::Languages`]; [`DimensionKind::InstanceAccounts`] is not timed) with
    /// their counts, biggest first, at most `limit` of them; groups of equal counts come in any
    /// order, and the cut at `limit` may fall among them. The default answers none.
    async fn dimension_counts(
        &self,
        kind: &DimensionKind,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        limit: u64,
    ) -> StoreResult<Vec<(Option<String>, i64)>> {
        let _ = (kind, from, to, limit);
        Ok(vec![])
    }
    /// The local logins created in `[from, to)` with the last day each was active, in no
    /// particular order. The default answers none.
    async fn signups_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<Vec<SignUpRecord>> {
        let _ = (from, to);
        Ok(vec![])
    }
    /// What the storage is and holds. The default knows nothing
    /// ([`StorageUsage::default()`]).
    async fn storage_usage(&self) -> StoreResult<StorageUsage> {
        Ok(StorageUsage::default())
    }
}

/// The durable job queue. Safe with several worker processes on one database: a job is held by
/// one worker at a time, a crashed worker's jobs come back when its lease ends.
#[async_trait]
pub trait JobStore: Send + Sync {
    /// Enqueues a job as given (normally `Queued`). `AlreadyExists("job")` if the id is taken.
    async fn enqueue_job(&self, job: &JobRecord) -> StoreResult<()>;
    /// Claims up to `limit` jobs for `worker`, holding them until `lease_until`: `Queued` jobs with
    /// `run_at <= now`, and `Running` jobs whose `locked_until < now` (their worker died), oldest
    /// `run_at` first. Each claimed job becomes `Running`, `attempts` + 1, `locked_by = worker`,
    /// `locked_until = lease_until`. Concurrent claims, from any process, never return one job twice.
    async fn claim_jobs(
        &self,
        worker: &str,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> StoreResult<Vec<JobRecord>>;
    /// Marks the job `Done` at `at` (lock cleared) if `worker` holds it; returns whether it did.
    async fn complete_job(&self, id: Id, worker: &str, at: DateTime<Utc>) -> StoreResult<bool>;
    /// Records a failure of the job `worker` holds: `last_error` is set and the lock cleared; with
    /// `retry_at` it is `Queued` again at that time, without it `Dead` (and `finished_at = now`).
    /// Returns whether `worker` held it.
    async fn fail_job(
        &self,
        id: Id,
        worker: &str,
        error: &str,
        retry_at: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> StoreResult<bool>;
    /// Hands back jobs `worker` claimed and will not run (it is stopping): each job of `ids` that
    /// `worker` holds becomes `Queued` again at its `run_at`, its lock cleared and its `attempts`
    /// lowered by one (the claim is not charged); `last_error` and the other fields are kept, so
    /// another worker may claim it at once. Jobs of `ids` that `worker` does not hold (another
    /// worker's, taken over, queued, finished, unknown) are left alone. Returns how many it
    /// released. The default releases nothing (`Ok(0)`): the jobs then wait for their lease to
    /// end, as they did before stores could hand them back; correct, only slower.
    async fn release_jobs(&self, ids: &[Id], worker: &str) -> StoreResult<u64> {
        let _ = (ids, worker);
        Ok(0)
    }
    /// The job with this id.
    async fn job_by_id(&self, id: Id) -> StoreResult<Option<JobRecord>>;
    /// Moves a `Queued` job to a new `run_at`; returns whether one was moved.
    async fn reschedule_job(&self, id: Id, run_at: DateTime<Utc>) -> StoreResult<bool>;
    /// Removes a `Queued` job (cancelled); returns whether one was removed.
    async fn cancel_job(&self, id: Id) -> StoreResult<bool>;
    /// Removes `Done` jobs that finished before `before`; returns how many.
    async fn purge_done_jobs(&self, before: DateTime<Utc>) -> StoreResult<u64>;
    /// How many jobs are in a state.
    async fn count_jobs(&self, state: JobState) -> StoreResult<i64>;
}

/// Statuses waiting for their publication time.
#[async_trait]
pub trait ScheduledStatusStore: Send + Sync {
    /// Stores a scheduled status. `AlreadyExists("scheduled_status")` if the id is taken.
    async fn insert_scheduled_status(&self, s: &ScheduledStatusRecord) -> StoreResult<()>;
    /// The scheduled status with this id.
    async fn scheduled_status_by_id(&self, id: Id) -> StoreResult<Option<ScheduledStatusRecord>>;
    /// One page of an account's scheduled statuses, newest id first.
    async fn scheduled_statuses(
        &self,
        account_id: Id,
        page: Page,
    ) -> StoreResult<Vec<ScheduledStatusRecord>>;
    /// Replaces `scheduled_at` and `params`. `NotFound` if absent.
    async fn update_scheduled_status(&self, s: &ScheduledStatusRecord) -> StoreResult<()>;
    /// Removes it; returns whether it existed.
    async fn delete_scheduled_status(&self, id: Id) -> StoreResult<bool>;
}

/// ActivityPub state: the key pairs of local actors, what is known of remote actors, the
/// activities already applied, the ActivityPub ids of follows across servers, and the servers
/// deliveries are failing to.
#[async_trait]
pub trait FederationStore: Send + Sync {
    /// The key pair of a local account, or of the instance actor ([`INSTANCE_ACTOR`]).
    async fn actor_key(&self, owner: Id) -> StoreResult<Option<ActorKeyRecord>>;
    /// Keeps `key` unless its owner has a key already, and returns the owner's key either way,
    /// so that two processes making a key at once agree on one.
    async fn insert_actor_key(&self, key: &ActorKeyRecord) -> StoreResult<ActorKeyRecord>;
    /// What is known of the actor behind a remote account.
    async fn remote_actor(&self, account: Id) -> StoreResult<Option<RemoteActorRecord>>;
    /// The actors behind these remote accounts, in no particular order; others are skipped.
    async fn remote_actors(&self, accounts: &[Id]) -> StoreResult<Vec<RemoteActorRecord>>;
    /// The remote actor with this ActivityPub id.
    async fn remote_actor_by_uri(&self, uri: &str) -> StoreResult<Option<RemoteActorRecord>>;
    /// The remote actor whose public key has this id.
    async fn remote_actor_by_key_id(&self, key_id: &str) -> StoreResult<Option<RemoteActorRecord>>;
    /// Stores a remote account with its actor, atomically. For a new `actor.uri`, the account
    /// is inserted with `account.id` (`AlreadyExists("username")` when another actor holds
    /// `username@domain`, `AlreadyExists("key_id")` when another actor has that key id); for a
    /// known one, the stored account keeps its id, counters and
    /// `created_at` and takes every other field of `account` (username included), and the
    /// actor record is replaced. Returns the account as stored.
    async fn save_remote_actor(
        &self,
        account: &AccountRecord,
        actor: &RemoteActorRecord,
    ) -> StoreResult<AccountRecord>;
    /// The inboxes to deliver `account`'s posts to its remote followers: for each follower, its
    /// server's shared inbox when known, else its own inbox; each once.
    async fn follower_inboxes(&self, account: Id) -> StoreResult<Vec<String>>;
    /// The remote status with this ActivityPub id.
    async fn status_by_uri(&self, uri: &str) -> StoreResult<Option<StatusRecord>>;
    /// Notes that the activity `id` was applied at `at`; `false` when it had been already.
    async fn note_activity(&self, id: &str, at: DateTime<Utc>) -> StoreResult<bool>;
    /// Forgets the activities noted before `before`; returns how many.
    async fn prune_activities(&self, before: DateTime<Utc>) -> StoreResult<u64>;
    /// The ActivityPub id of the `Follow` of `follower` to `target` (a follow or a request),
    /// when one crossed servers.
    async fn follow_uri(&self, follower: Id, target: Id) -> StoreResult<Option<String>>;
    /// Records it (replacing an earlier one).
    async fn set_follow_uri(&self, follower: Id, target: Id, uri: &str) -> StoreResult<()>;
    /// Notes a failed delivery to `host` at `at`; returns since when the host has been failing
    /// (the first failure since its last success).
    async fn note_host_failure(&self, host: &str, at: DateTime<Utc>) -> StoreResult<DateTime<Utc>>;
    /// Notes that `host` answered (a delivery succeeded, or it sent us something); returns
    /// whether it had been failing.
    async fn note_host_success(&self, host: &str) -> StoreResult<bool>;
    /// Since when deliveries to `host` have been failing, if they are.
    async fn host_failing_since(&self, host: &str) -> StoreResult<Option<DateTime<Utc>>>;
}

/// Everything a fedblog store provides.
pub trait Store:
    AccountStore
    + OAuthStore
    + StatusStore
    + FollowStore
    + BlockStore
    + FeedStore
    + StatsStore
    + JobStore
    + ScheduledStatusStore
    + AccountNoteStore
    + DomainBlockStore
    + TagStore
    + DirectoryStore
    + InteractionStore
    + StatusEditStore
    + PollStore
    + MediaStore
    + NotificationStore
    + MarkerStore
    + ListStore
    + FilterStore
    + ConversationStore
    + LinkStore
    + NotificationPolicyStore
    + FederationStore
    + Send
    + Sync
    + 'static
{
}

impl<T> Store for T where
    T: AccountStore
        + OAuthStore
        + StatusStore
        + FollowStore
        + BlockStore
        + FeedStore
        + StatsStore
        + JobStore
        + ScheduledStatusStore
        + AccountNoteStore
        + DomainBlockStore
        + TagStore
        + DirectoryStore
        + InteractionStore
        + StatusEditStore
        + PollStore
        + MediaStore
        + NotificationStore
        + MarkerStore
        + ListStore
        + FilterStore
        + ConversationStore
        + LinkStore
        + NotificationPolicyStore
        + FederationStore
        + Send
        + Sync
        + 'static
{
}
