//! The records a page's read loaded (the originals its reblogs name, the accounts of its authors
//! and mentions), handed from the visibility rule to render so that a page reads each kind once.

use std::collections::HashMap;

use crate::id::Id;
use crate::store::{AccountRecord, StatusRecord};

/// Records already read for a page, by id. What is missing is read by whoever needs it; what is
/// here is not read again.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    /// Statuses read besides the page's own: the originals its reblogs name.
    pub statuses: HashMap<Id, StatusRecord>,
    /// Accounts: the authors of the page's statuses and originals, and those they mention.
    pub accounts: HashMap<Id, AccountRecord>,
}

impl Loaded {
    /// Adds these statuses.
    pub fn add_statuses(&mut self, statuses: impl IntoIterator<Item = StatusRecord>) {
        self.statuses
            .extend(statuses.into_iter().map(|s| (s.id, s)));
    }

    /// Adds these accounts.
    pub fn add_accounts(&mut self, accounts: impl IntoIterator<Item = AccountRecord>) {
        self.accounts
            .extend(accounts.into_iter().map(|a| (a.id, a)));
    }

    /// Adds what another read loaded.
    pub fn merge(&mut self, other: Loaded) {
        self.statuses.extend(other.statuses);
        self.accounts.extend(other.accounts);
    }

    /// Of `ids`, those not loaded as statuses, each once.
    pub fn missing_statuses(&self, ids: impl IntoIterator<Item = Id>) -> Vec<Id> {
        missing_ids(ids, |id| self.statuses.contains_key(id))
    }

    /// Of `ids`, those not loaded as accounts, each once.
    pub fn missing_accounts(&self, ids: impl IntoIterator<Item = Id>) -> Vec<Id> {
        missing_ids(ids, |id| self.accounts.contains_key(id))
    }
}

/// Of `ids`, those not `known`, each once, ascending.
pub fn missing_ids(ids: impl IntoIterator<Item = Id>, known: impl Fn(&Id) -> bool) -> Vec<Id> {
    let mut out: Vec<Id> = ids.into_iter().filter(|id| !known(id)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// `ids`, each once, ascending (what a batched read takes).
pub fn unique_ids(ids: impl IntoIterator<Item = Id>) -> Vec<Id> {
    missing_ids(ids, |_| false)
}

/// The ids of the accounts a status names: its author and those it mentions.
pub fn accounts_named(s: &StatusRecord) -> impl Iterator<Item = Id> + '_ {
    std::iter::once(s.account_id).chain(s.mentions.iter().copied())
}
