//! Quote posts (Mastodon 4.5): the record of one status quoting another, with the state of its
//! approval by the quoted author, and the quote approval policy each status carries, kept in
//! a [`QuoteStore`].
//!
//! [`QuoteStore`] came after the other store traits. A store offers it through
//! [`StatusStore::quotes`](super::StatusStore::quotes) (`None` by default), so stores written
//! before it keep compiling; without it nothing can be quoted and every status shows the
//! policy `nobody`.

use std::collections::BTreeMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::error::{StoreError, StoreResult};
use crate::id::Id;
use crate::pagination::Page;

/// Where a quote stands with the quoted author, as Mastodon's `Quote#state` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuoteState {
    /// Waiting for the quoted author's approval.
    Pending,
    /// Approved (automatically by the policy, or by the quoted author's server).
    Accepted,
    /// Refused.
    Rejected,
    /// Approved, then withdrawn by the quoted author.
    Revoked,
    /// The quoted status was deleted.
    Deleted,
}

impl QuoteState {
    /// Every state.
    pub const ALL: [QuoteState; 5] = [
        QuoteState::Pending,
        QuoteState::Accepted,
        QuoteState::Rejected,
        QuoteState::Revoked,
        QuoteState::Deleted,
    ];

    /// Mastodon's name.
    pub fn as_str(self) -> &'static str {
        match self {
            QuoteState::Pending => "pending",
            QuoteState::Accepted => "accepted",
            QuoteState::Rejected => "rejected",
            QuoteState::Revoked => "revoked",
            QuoteState::Deleted => "deleted",
        }
    }

    /// The state of a stored name.
    pub fn parse(name: &str) -> Option<QuoteState> {
        QuoteState::ALL.into_iter().find(|s| s.as_str() == name)
    }
}

/// One status quoting another. A status quotes at most one status.
#[derive(Clone, Debug, PartialEq)]
pub struct QuoteRecord {
    /// Id (the cursor of the list of a status's quotes).
    pub id: Id,
    /// The quoting status.
    pub status_id: Id,
    /// Its author.
    pub account_id: Id,
    /// The quoted status; `None` when it is not known (yet, or any more).
    pub quoted_status_id: Option<Id>,
    /// The quoted status's author, when known.
    pub quoted_account_id: Option<Id>,
    /// Where the quote stands.
    pub state: QuoteState,
    /// The ActivityPub id of the `QuoteRequest` (sent for a local quote of a remote status,
    /// received for a remote quote of a local one).
    pub activity_uri: Option<String>,
    /// The ActivityPub id of the `QuoteAuthorization` that approved a quote of a remote status.
    pub approval_uri: Option<String>,
    /// Made.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
}

/// Who may quote a status, as Mastodon keeps it: two sets of flags, the audiences whose quotes
/// are approved automatically and those whose quotes the author reviews, packed in one integer
/// (automatic in the high 16 bits, manual in the low 16). `0` is "nobody but the author".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct QuotePolicyBits(pub i64);

impl QuotePolicyBits {
    /// The audience that a policy names but fedblog does not understand.
    pub const UNSUPPORTED: i64 = 1 << 0;
    /// Anyone.
    pub const PUBLIC: i64 = 1 << 1;
    /// The author's followers.
    pub const FOLLOWERS: i64 = 1 << 2;
    /// The accounts the author follows.
    pub const FOLLOWING: i64 = 1 << 3;
    /// The flags by their API names, in Mastodon's order.
    pub const KEYS: [(&'static str, i64); 4] = [
        ("unsupported_policy", Self::UNSUPPORTED),
        ("public", Self::PUBLIC),
        ("followers", Self::FOLLOWERS),
        ("following", Self::FOLLOWING),
    ];

    /// Nobody but the author (what a status without a stored policy has).
    pub const NOBODY: QuotePolicyBits = QuotePolicyBits(0);

    /// The policy of an API setting (`public`, `followers`, `nobody`): the named audience's
    /// quotes approved automatically, none reviewed. `None` for any other name.
    pub fn from_setting(name: &str) -> Option<QuotePolicyBits> {
        match name {
            "public" => Some(QuotePolicyBits(Self::PUBLIC << 16)),
            "followers" => Some(QuotePolicyBits(Self::FOLLOWERS << 16)),
            "nobody" => Some(QuotePolicyBits(0)),
            _ => None,
        }
    }

    /// A policy of its automatic and manual flags.
    pub fn of(automatic: i64, manual: i64) -> QuotePolicyBits {
        QuotePolicyBits(((automatic & 0xFFFF) << 16) | (manual & 0xFFFF))
    }

    /// The flags of the audiences approved automatically.
    pub fn automatic(self) -> i64 {
        (self.0 >> 16) & 0xFFFF
    }

    /// The flags of the audiences whose quotes the author reviews.
    pub fn manual(self) -> i64 {
        self.0 & 0xFFFF
    }

    /// The API names of a set of flags.
    pub fn keys(flags: i64) -> Vec<String> {
        Self::KEYS
            .iter()
            .filter(|(_, f)| flags & f != 0)
            .map(|(k, _)| (*k).to_string())
            .collect()
    }
}

/// Keeps quotes and quote approval policies. Offered by a store through
/// [`StatusStore::quotes`](super::StatusStore::quotes).
#[async_trait]
pub trait QuoteStore: Send + Sync {
    /// Inserts a quote. `AlreadyExists("quote")` if its id is taken or its quoting status
    /// already has a quote. Deleting the quoting status removes it.
    async fn insert_quote(&self, quote: &QuoteRecord) -> StoreResult<()>;
    /// The quote with this id.
    async fn quote_by_id(&self, id: Id) -> StoreResult<Option<QuoteRecord>>;
    /// The quotes these quoting statuses make, in no particular order; statuses that quote
    /// nothing are skipped.
    async fn quotes_of_statuses(&self, status_ids: &[Id]) -> StoreResult<Vec<QuoteRecord>>;
    /// Replaces a quote's quoted status and author, state, activity and approval ids and
    /// `updated_at`. `NotFound` if absent.
    async fn update_quote(&self, quote: &QuoteRecord) -> StoreResult<()>;
    /// The accepted quotes of `quoted_status_id`, newest (largest id) first, paged on their ids.
    async fn accepted_quotes_of(
        &self,
        quoted_status_id: Id,
        page: Page,
    ) -> StoreResult<Vec<QuoteRecord>>;
    /// How many accepted quotes each of these statuses has; statuses with none are left out.
    async fn accepted_quote_counts(&self, quoted_status_ids: &[Id]) -> StoreResult<Vec<(Id, i64)>>;
    /// Sets the quote approval policy of a status, replacing the one before.
    async fn set_quote_policy(&self, status_id: Id, policy: QuotePolicyBits) -> StoreResult<()>;
    /// The stored policies of these statuses; statuses without one (which have
    /// [`QuotePolicyBits::NOBODY`]) are left out. Deleting a status removes its policy.
    async fn quote_policies(&self, status_ids: &[Id]) -> StoreResult<Vec<(Id, QuotePolicyBits)>>;
    /// The quote whose `activity_uri` (its `QuoteRequest`'s id) is `uri`, if any (the oldest,
    /// should several share it). The default answers `None`: a store written before quote
    /// federation finds no quote by it, and answers to quote requests are then ignored.
    async fn quote_by_activity_uri(&self, uri: &str) -> StoreResult<Option<QuoteRecord>> {
        let _ = uri;
        Ok(None)
    }
    /// The quote whose `approval_uri` (its `QuoteAuthorization`'s id) is `uri`, if any (the
    /// oldest, should several share it). The default answers `None`: revocations of
    /// authorizations are then ignored.
    async fn quote_by_approval_uri(&self, uri: &str) -> StoreResult<Option<QuoteRecord>> {
        let _ = uri;
        Ok(None)
    }
}

/// The quotes and policies of the in-memory store, kept under its lock.
#[derive(Clone, Debug, Default)]
pub struct QuoteTables {
    /// quote id -> quote
    quotes: BTreeMap<Id, QuoteRecord>,
    /// quoting status -> quote id
    by_status: BTreeMap<Id, Id>,
    /// status -> its stored policy
    policies: BTreeMap<Id, QuotePolicyBits>,
}

impl QuoteTables {
    /// Forgets the quote a deleted status made and its policy (quotes of it stay, to show as
    /// deleted).
    pub fn forget_status(&mut self, status_id: Id) {
        if let Some(q) = self.by_status.remove(&status_id) {
            self.quotes.remove(&q);
        }
        self.policies.remove(&status_id);
    }

    /// See [`QuoteStore::insert_quote`].
    pub fn insert(&mut self, quote: &QuoteRecord) -> StoreResult<()> {
        if self.quotes.contains_key(&quote.id) || self.by_status.contains_key(&quote.status_id) {
            return Err(StoreError::AlreadyExists("quote".into()));
        }
        self.by_status.insert(quote.status_id, quote.id);
        self.quotes.insert(quote.id, quote.clone());
        Ok(())
    }

    /// See [`QuoteStore::quote_by_id`].
    pub fn by_id(&self, id: Id) -> Option<QuoteRecord> {
        self.quotes.get(&id).cloned()
    }

    /// See [`QuoteStore::quotes_of_statuses`].
    pub fn of_statuses(&self, status_ids: &[Id]) -> Vec<QuoteRecord> {
        let mut ids: Vec<Id> = status_ids.to_vec();
        ids.sort_unstable();
        ids.dedup();
        ids.iter()
            .filter_map(|s| self.by_status.get(s))
            .filter_map(|q| self.quotes.get(q).cloned())
            .collect()
    }

    /// See [`QuoteStore::update_quote`].
    pub fn update(&mut self, quote: &QuoteRecord) -> StoreResult<()> {
        let Some(q) = self.quotes.get_mut(&quote.id) else {
            return Err(StoreError::NotFound);
        };
        q.quoted_status_id = quote.quoted_status_id;
        q.quoted_account_id = quote.quoted_account_id;
        q.state = quote.state;
        q.activity_uri = quote.activity_uri.clone();
        q.approval_uri = quote.approval_uri.clone();
        q.updated_at = quote.updated_at;
        Ok(())
    }

    /// See [`QuoteStore::accepted_quotes_of`].
    pub fn accepted_of(&self, quoted: Id, page: Page) -> Vec<QuoteRecord> {
        page.apply(
            self.quotes
                .values()
                .rev()
                .filter(|q| q.quoted_status_id == Some(quoted) && q.state == QuoteState::Accepted)
                .cloned()
                .collect::<Vec<_>>()
                .into_iter(),
            |q| q.id,
        )
    }

    /// See [`QuoteStore::accepted_quote_counts`].
    pub fn accepted_counts(&self, quoted: &[Id]) -> Vec<(Id, i64)> {
        let mut counts: BTreeMap<Id, i64> = BTreeMap::new();
        for q in self.quotes.values() {
            if q.state == QuoteState::Accepted
                && let Some(s) = q.quoted_status_id
                && quoted.contains(&s)
            {
                *counts.entry(s).or_default() += 1;
            }
        }
        counts.into_iter().collect()
    }

    /// See [`QuoteStore::set_quote_policy`].
    pub fn set_policy(&mut self, status_id: Id, policy: QuotePolicyBits) {
        self.policies.insert(status_id, policy);
    }

    /// See [`QuoteStore::quote_by_activity_uri`].
    pub fn by_activity_uri(&self, uri: &str) -> Option<QuoteRecord> {
        self.quotes
            .values()
            .find(|q| q.activity_uri.as_deref() == Some(uri))
            .cloned()
    }

    /// See [`QuoteStore::quote_by_approval_uri`].
    pub fn by_approval_uri(&self, uri: &str) -> Option<QuoteRecord> {
        self.quotes
            .values()
            .find(|q| q.approval_uri.as_deref() == Some(uri))
            .cloned()
    }

    /// See [`QuoteStore::quote_policies`].
    pub fn policies_of(&self, status_ids: &[Id]) -> Vec<(Id, QuotePolicyBits)> {
        let mut ids: Vec<Id> = status_ids.to_vec();
        ids.sort_unstable();
        ids.dedup();
        ids.iter()
            .filter_map(|s| self.policies.get(s).map(|p| (*s, *p)))
            .collect()
    }
}

#[async_trait]
impl QuoteStore for super::memory::MemoryStore {
    async fn insert_quote(&self, quote: &QuoteRecord) -> StoreResult<()> {
        self.quote_tables(|t| t.insert(quote))?
    }
    async fn quote_by_id(&self, id: Id) -> StoreResult<Option<QuoteRecord>> {
        self.quote_tables(|t| t.by_id(id))
    }
    async fn quotes_of_statuses(&self, status_ids: &[Id]) -> StoreResult<Vec<QuoteRecord>> {
        self.quote_tables(|t| t.of_statuses(status_ids))
    }
    async fn update_quote(&self, quote: &QuoteRecord) -> StoreResult<()> {
        self.quote_tables(|t| t.update(quote))?
    }
    async fn accepted_quotes_of(
        &self,
        quoted_status_id: Id,
        page: Page,
    ) -> StoreResult<Vec<QuoteRecord>> {
        self.quote_tables(|t| t.accepted_of(quoted_status_id, page))
    }
    async fn accepted_quote_counts(&self, quoted_status_ids: &[Id]) -> StoreResult<Vec<(Id, i64)>> {
        self.quote_tables(|t| t.accepted_counts(quoted_status_ids))
    }
    async fn set_quote_policy(&self, status_id: Id, policy: QuotePolicyBits) -> StoreResult<()> {
        self.quote_tables(|t| t.set_policy(status_id, policy))
    }
    async fn quote_policies(&self, status_ids: &[Id]) -> StoreResult<Vec<(Id, QuotePolicyBits)>> {
        self.quote_tables(|t| t.policies_of(status_ids))
    }
    async fn quote_by_activity_uri(&self, uri: &str) -> StoreResult<Option<QuoteRecord>> {
        self.quote_tables(|t| t.by_activity_uri(uri))
    }
    async fn quote_by_approval_uri(&self, uri: &str) -> StoreResult<Option<QuoteRecord>> {
        self.quote_tables(|t| t.by_approval_uri(uri))
    }
}
