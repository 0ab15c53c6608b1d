//! The moves area: account moves, as Mastodon's account migration works. An account names its
//! other identities (`alsoKnownAs`, its aliases); an account may move only to one that names
//! it back. A move records the new account on the old one (`moved` in the client API, `movedTo`
//! on the actor), tells the old account's followers with a `Move`, and moves the follows of the
//! followers on this server to the new account. A remote account's `Move` is checked by the
//! federation runner and applied here the same way.

use chrono::{DateTime, Utc};

use crate::error::{ApiError, ApiResult};
use crate::federation::paths;
use crate::services::federation::Federation;
use crate::services::outbox::{Outbox, Outgoing};
use crate::services::relationships::{FollowOptions, Relationships};
use crate::store::{AccountRecord, Store};

/// The most aliases an account keeps, so that its actor document stays small.
pub const MAX_ALIASES: usize = 10;

fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::unprocessable(message)
}

/// The moves area: `app.moves()`.
pub struct Moves<'a> {
    store: &'a dyn Store,
    federation: Federation<'a>,
    relationships: Relationships<'a>,
    outbox: Outbox<'a>,
    base_url: String,
    now: DateTime<Utc>,
}

impl<'a> Moves<'a> {
    /// The area over `store`, looking accounts up through `federation`, moving follows through
    /// `relationships`, telling followers through `outbox`, for the server at `base_url`.
    pub fn new(
        store: &'a dyn Store,
        federation: Federation<'a>,
        relationships: Relationships<'a>,
        outbox: Outbox<'a>,
        base_url: String,
        now: DateTime<Utc>,
    ) -> Self {
        Moves {
            store,
            federation,
            relationships,
            outbox,
            base_url,
            now,
        }
    }

    /// Sets the aliases of the local account `me` to the accounts `names` name (handles or
    /// actor URLs, each looked up), so that they may move to `me`. An unknown account is a
    /// 404; more than [`MAX_ALIASES`], or `me` itself, a 422. Returns the account saved.
    pub async fn set_aliases(
        &self,
        me: &AccountRecord,
        names: &[String],
    ) -> ApiResult<AccountRecord> {
        if names.len() > MAX_ALIASES {
            return Err(invalid(format!(
                "An account has at most {MAX_ALIASES} aliases"
            )));
        }
        let mut aliases: Vec<String> = vec![];
        for name in names {
            let other = self.federation.account_named(name).await?;
            if other.id == me.id {
                return Err(invalid("An account cannot be its own alias"));
            }
            let uri = paths::account_actor(&self.base_url, &other);
            if !aliases.contains(&uri) {
                aliases.push(uri);
            }
        }
        let mut saved = me.clone();
        saved.also_known_as = aliases;
        saved.updated_at = self.now;
        self.store.update_account(&saved).await?;
        self.outbox.profile_updated(&saved).await?;
        Ok(saved)
    }

    /// Moves the local account `me` to the account `target` names (a handle or an actor URL),
    /// which must name `me` among its aliases (422 otherwise). `me`'s followers are told, and
    /// those on this server follow the new account instead. Returns the new account.
    pub async fn move_to(&self, me: &AccountRecord, target: &str) -> ApiResult<AccountRecord> {
        if !me.is_local() {
            return Err(invalid("Only a local account can be moved here"));
        }
        let target = self.federation.account_named(target).await?;
        // A remote target is fetched afresh: its aliases may have just changed.
        let target = match &target.uri {
            Some(uri) if !target.is_local() => self.federation.refresh_actor(uri).await?,
            _ => target,
        };
        if target.id == me.id || target.is_suspended() {
            return Err(invalid("The account cannot be moved there"));
        }
        if !target
            .also_known_as
            .contains(&paths::account_actor(&self.base_url, me))
        {
            return Err(invalid(format!(
                "{} does not name this account as an alias: add it there first",
                target.acct()
            )));
        }
        if target.moved_to_account_id.is_some() {
            return Err(invalid("The new account has moved itself"));
        }
        let moved = self.apply(me, &target).await?;
        let announce = Outgoing::Move {
            account: moved.id,
            target: target.id,
        };
        self.outbox.to_followers(&moved, announce).await?;
        Ok(target)
    }

    /// Records that `account` moved to `target`, and moves the follows of its followers on
    /// this server; the account as saved.
    pub(crate) async fn apply(
        &self,
        account: &AccountRecord,
        target: &AccountRecord,
    ) -> ApiResult<AccountRecord> {
        let mut moved = account.clone();
        moved.moved_to_account_id = Some(target.id);
        moved.updated_at = self.now;
        self.store.update_account(&moved).await?;
        self.move_local_followers(&moved, target).await?;
        Ok(moved)
    }

    /// The followers of `from` on this server follow `to` instead, with the same options. A
    /// follower who cannot follow `to` (a block either way) keeps following `from`.
    async fn move_local_followers(
        &self,
        from: &AccountRecord,
        to: &AccountRecord,
    ) -> ApiResult<()> {
        for follower_id in self.store.local_follower_ids(from.id).await? {
            let Some(follower) = self.store.account_by_id(follower_id).await? else {
                continue;
            };
            if follower.id == to.id || follower.is_suspended() {
                continue;
            }
            let options = match self.store.follow_of(follower.id, from.id).await? {
                Some(f) => FollowOptions {
                    reblogs: Some(f.show_reblogs),
                    notify: Some(f.notify),
                    languages: f.languages,
                },
                None => FollowOptions::default(),
            };
            match self.relationships.follow(&follower, to.id, options).await {
                Ok(_) => {}
                Err(e) if e.status.is_client_error() => {
                    tracing::info!(follower = %follower.acct(), to = %to.acct(), error = %e.message, "a follow could not move");
                    continue;
                }
                Err(e) => return Err(e),
            }
            self.relationships.unfollow(&follower, from.id).await?;
        }
        Ok(())
    }
}
