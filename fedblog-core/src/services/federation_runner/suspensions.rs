//! What follows our suspending or unsuspending a remote account ([`Outbox::suspension_changed`]
//! queues it): its follows of local accounts are rejected, one page at a time; once the
//! suspension is lifted, its actor is fetched again so that the profile is current.
//!
//! [`Outbox::suspension_changed`]: crate::services::outbox::Outbox::suspension_changed

use serde_json::Value;

use super::payload_of;
use crate::app::App;
use crate::error::ApiResult;
use crate::pagination::Page;
use crate::services::outbox::SuspensionFollowUp;

/// Follows read per page while rejecting them.
const FOLLOWS_PER_READ: usize = 100;

impl App {
    /// Runs a `reject_follows_of_suspended` job.
    pub(crate) async fn run_reject_follows_of_suspended(
        &self,
        payload: &Value,
    ) -> Result<(), String> {
        let job: SuspensionFollowUp = payload_of(payload)?;
        self.reject_follows_of_suspended(job)
            .await
            .map_err(|e| e.to_string())
    }

    /// Runs a `refresh_unsuspended` job.
    pub(crate) async fn run_refresh_unsuspended(&self, payload: &Value) -> Result<(), String> {
        let job: SuspensionFollowUp = payload_of(payload)?;
        self.refresh_unsuspended(job)
            .await
            .map_err(|e| e.to_string())
    }

    /// Rejects every follow of a local account by the remote account, if we still suspend it
    /// (a suspension lifted before the job ran leaves the follows).
    async fn reject_follows_of_suspended(&self, job: SuspensionFollowUp) -> ApiResult<()> {
        let Some(account) = self.store.account_by_id(job.account).await? else {
            return Ok(());
        };
        if account.is_local() || !account.is_suspended() || account.is_suspended_remotely() {
            return Ok(());
        }
        let relationships = self.relationships();
        let mut page = Page::first(FOLLOWS_PER_READ);
        loop {
            let follows = self.store.following_page(account.id, page).await?;
            let Some(&(last, _)) = follows.last() else {
                return Ok(());
            };
            let followed: Vec<_> = follows.iter().map(|&(_, id)| id).collect();
            for target in self.store.accounts_by_ids(&followed).await? {
                if target.is_local() {
                    relationships.reject_follow(target.id, account.id).await?;
                }
            }
            if follows.len() < FOLLOWS_PER_READ {
                return Ok(());
            }
            page.max_id = Some(last);
        }
    }

    /// Fetches the remote account's actor again, if it is no longer suspended.
    async fn refresh_unsuspended(&self, job: SuspensionFollowUp) -> ApiResult<()> {
        let (Some(account), Some(actor)) = (
            self.store.account_by_id(job.account).await?,
            self.store.remote_actor(job.account).await?,
        ) else {
            return Ok(());
        };
        if account.is_suspended() {
            return Ok(());
        }
        self.federation()
            .refresh_actor(&actor.uri)
            .await
            .map(|_| ())
    }
}
