//! Blocks and mutes: making and lifting them, listing them, and the filter every read path
//! applies (a blocked or muted account's posts stay out of the blocker's and muter's views).

use std::collections::HashSet;

use chrono::Duration;

use crate::app::App;
use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::pagination::Page;
use crate::services::relationships::AccountPage;
use crate::store::{AccountRecord, MuteRecord, StatusRecord};

impl App {
    /// `me` blocks `target`: follows and follow requests between them end. Blocking oneself is a 422.
    pub async fn block(&self, me: &AccountRecord, target_id: Id) -> ApiResult<AccountRecord> {
        let target = self.visible_account(target_id).await?;
        if target.id == me.id {
            return Err(ApiError::invalid_field(
                "account",
                "ERR_INVALID",
                "You cannot block yourself",
            ));
        }
        self.store
            .insert_block(self.ids.next(), me.id, target.id)
            .await?;
        Ok(target)
    }

    /// `me` lifts a block (no error when there was none).
    pub async fn unblock(&self, me: &AccountRecord, target_id: Id) -> ApiResult<AccountRecord> {
        let target = self.visible_account(target_id).await?;
        self.store.delete_block(me.id, target.id).await?;
        Ok(target)
    }

    /// `me` mutes `target`, with or without its notifications, for `duration_secs` (0: until lifted).
    pub async fn mute(
        &self,
        me: &AccountRecord,
        target_id: Id,
        notifications: bool,
        duration_secs: i64,
    ) -> ApiResult<AccountRecord> {
        let target = self.visible_account(target_id).await?;
        if target.id == me.id {
            return Err(ApiError::invalid_field(
                "account",
                "ERR_INVALID",
                "You cannot mute yourself",
            ));
        }
        if duration_secs < 0 {
            return Err(ApiError::invalid_field(
                "duration",
                "ERR_INVALID",
                "Duration must be 0 (indefinite) or a number of seconds",
            ));
        }
        let expires_at = (duration_secs > 0).then(|| self.now() + Duration::seconds(duration_secs));
        self.store
            .upsert_mute(&MuteRecord {
                id: self.ids.next(),
                account_id: me.id,
                target_id: target.id,
                notifications,
                expires_at,
            })
            .await?;
        Ok(target)
    }

    /// `me` lifts a mute (no error when there was none).
    pub async fn unmute(&self, me: &AccountRecord, target_id: Id) -> ApiResult<AccountRecord> {
        let target = self.visible_account(target_id).await?;
        self.store.delete_mute(me.id, target.id).await?;
        Ok(target)
    }

    /// A page of the accounts `me` blocks.
    pub async fn blocked_accounts(&self, me: &AccountRecord, page: Page) -> ApiResult<AccountPage> {
        let pairs = self.store.blocks_page(me.id, page).await?;
        self.accounts_page(&pairs).await
    }

    /// A page of the accounts `me` mutes (mutes in force).
    pub async fn muted_accounts(&self, me: &AccountRecord, page: Page) -> ApiResult<AccountPage> {
        let mutes = self.store.mutes_page(me.id, self.now(), page).await?;
        let pairs: Vec<(Id, Id)> = mutes.iter().map(|m| (m.id, m.target_id)).collect();
        self.accounts_page(&pairs).await
    }

    /// The accounts among `others` whose content `viewer` must not be shown: blocked either way,
    /// or muted by the viewer.
    pub async fn hidden_for(
        &self,
        viewer: &AccountRecord,
        others: &[Id],
    ) -> ApiResult<HashSet<Id>> {
        let mut hidden: HashSet<Id> = self
            .store
            .blocked_either_way(viewer.id, others)
            .await?
            .into_iter()
            .collect();
        hidden.extend(
            self.store
                .muted_among(viewer.id, others, self.now())
                .await?,
        );
        hidden.remove(&viewer.id);
        Ok(hidden)
    }

    /// Removes statuses by accounts hidden from `viewer` (no-op for anonymous readers).
    pub async fn without_hidden_authors(
        &self,
        viewer: Option<&AccountRecord>,
        statuses: Vec<StatusRecord>,
    ) -> ApiResult<Vec<StatusRecord>> {
        let Some(v) = viewer else { return Ok(statuses) };
        let mut authors: Vec<Id> = statuses.iter().map(|s| s.account_id).collect();
        authors.sort();
        authors.dedup();
        let hidden = self.hidden_for(v, &authors).await?;
        Ok(statuses
            .into_iter()
            .filter(|s| !hidden.contains(&s.account_id))
            .collect())
    }
}
