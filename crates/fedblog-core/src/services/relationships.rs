//! Follows and follow requests between accounts, and the relationship between two accounts.

use crate::app::App;
use crate::entities::Relationship;
use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::pagination::Page;
use crate::store::AccountRecord;

/// A page of accounts from a list paginated on hidden ids (follows, requests).
pub struct AccountPage {
    /// The accounts, in list order.
    pub accounts: Vec<AccountRecord>,
    /// The hidden cursor of the first item.
    pub first: Option<Id>,
    /// The hidden cursor of the last item.
    pub last: Option<Id>,
}

impl App {
    /// `me` follows `target`: at once, or as a request when `target` is locked. Following twice
    /// is not an error. Following oneself is a 422.
    pub async fn follow(&self, me: &AccountRecord, target_id: Id) -> ApiResult<AccountRecord> {
        let target = self.visible_account(target_id).await?;
        if target.id == me.id {
            return Err(ApiError::invalid_field(
                "account",
                "ERR_INVALID",
                "You cannot follow yourself",
            ));
        }
        if self.store.follows(me.id, target.id).await? {
            return Ok(target);
        }
        if target.locked {
            self.store
                .insert_follow_request(self.ids.next(), me.id, target.id)
                .await?;
        } else {
            self.store
                .insert_follow(self.ids.next(), me.id, target.id)
                .await?;
        }
        Ok(target)
    }

    /// `me` stops following `target` (and withdraws a pending request). Not following is not an error.
    pub async fn unfollow(&self, me: &AccountRecord, target_id: Id) -> ApiResult<AccountRecord> {
        let target = self.visible_account(target_id).await?;
        self.store.delete_follow(me.id, target.id).await?;
        self.store.delete_follow_request(me.id, target.id).await?;
        Ok(target)
    }

    /// Accepts `requester`'s pending request to follow `me`; 404 when there is none.
    pub async fn authorize_follow_request(
        &self,
        me: &AccountRecord,
        requester: Id,
    ) -> ApiResult<()> {
        if !self.store.delete_follow_request(requester, me.id).await? {
            return Err(ApiError::not_found());
        }
        self.store
            .insert_follow(self.ids.next(), requester, me.id)
            .await?;
        Ok(())
    }

    /// Declines `requester`'s pending request to follow `me`; 404 when there is none.
    pub async fn reject_follow_request(&self, me: &AccountRecord, requester: Id) -> ApiResult<()> {
        if !self.store.delete_follow_request(requester, me.id).await? {
            return Err(ApiError::not_found());
        }
        Ok(())
    }

    /// The relationship of `me` to `other`.
    pub async fn relationship(&self, me: &AccountRecord, other: Id) -> ApiResult<Relationship> {
        let following = self.store.follows(me.id, other).await?;
        let mute = self.store.mute_of(me.id, other, self.now()).await?;
        Ok(Relationship {
            id: other,
            following,
            showing_reblogs: following,
            notifying: false,
            languages: None,
            followed_by: self.store.follows(other, me.id).await?,
            blocking: self.store.blocks(me.id, other).await?,
            blocked_by: self.store.blocks(other, me.id).await?,
            muting: mute.is_some(),
            muting_notifications: mute.as_ref().is_some_and(|m| m.notifications),
            muting_expires_at: mute
                .and_then(|m| m.expires_at)
                .map(crate::render::timestamp),
            requested: self.store.follow_requested(me.id, other).await?,
            requested_by: self.store.follow_requested(other, me.id).await?,
            domain_blocking: false,
            endorsed: false,
            note: String::new(),
        })
    }

    pub(crate) async fn accounts_page(&self, pairs: &[(Id, Id)]) -> ApiResult<AccountPage> {
        let ids: Vec<Id> = pairs.iter().map(|(_, a)| *a).collect();
        let found = self.store.accounts_by_ids(&ids).await?;
        let accounts = ids
            .iter()
            .filter_map(|id| {
                found
                    .iter()
                    .find(|a| a.id == *id && !a.is_suspended())
                    .cloned()
            })
            .collect();
        Ok(AccountPage {
            accounts,
            first: pairs.first().map(|p| p.0),
            last: pairs.last().map(|p| p.0),
        })
    }

    /// Whether `viewer` may see `owner`'s followers and follows: always the owner; others unless
    /// the owner hides them.
    fn collections_visible(viewer: Option<&AccountRecord>, owner: &AccountRecord) -> bool {
        viewer.is_some_and(|v| v.id == owner.id) || owner.hide_collections != Some(true)
    }

    /// A page of `target`'s followers as `viewer` may see them (empty for a suspended account).
    pub async fn followers(
        &self,
        viewer: Option<&AccountRecord>,
        target_id: Id,
        page: Page,
    ) -> ApiResult<AccountPage> {
        let owner = self
            .store
            .account_by_id(target_id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        if owner.is_suspended() || !Self::collections_visible(viewer, &owner) {
            return Ok(AccountPage {
                accounts: vec![],
                first: None,
                last: None,
            });
        }
        let pairs = self.store.followers_page(owner.id, page).await?;
        self.visible_in_list(viewer, &owner, self.accounts_page(&pairs).await?)
            .await
    }

    /// A page of the accounts `target` follows as `viewer` may see them.
    pub async fn following(
        &self,
        viewer: Option<&AccountRecord>,
        target_id: Id,
        page: Page,
    ) -> ApiResult<AccountPage> {
        let owner = self
            .store
            .account_by_id(target_id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        if owner.is_suspended() || !Self::collections_visible(viewer, &owner) {
            return Ok(AccountPage {
                accounts: vec![],
                first: None,
                last: None,
            });
        }
        let pairs = self.store.following_page(owner.id, page).await?;
        self.visible_in_list(viewer, &owner, self.accounts_page(&pairs).await?)
            .await
    }

    /// Drops from a followers/following page the accounts blocked either way by the viewer and,
    /// on the viewer's own lists, the accounts the viewer mutes. The cursors stay those of the
    /// unfiltered page, so pagination goes on past hidden entries.
    async fn visible_in_list(
        &self,
        viewer: Option<&AccountRecord>,
        owner: &AccountRecord,
        mut page: AccountPage,
    ) -> ApiResult<AccountPage> {
        let Some(v) = viewer else { return Ok(page) };
        let ids: Vec<Id> = page.accounts.iter().map(|a| a.id).collect();
        let mut hidden: std::collections::HashSet<Id> = self
            .store
            .blocked_either_way(v.id, &ids)
            .await?
            .into_iter()
            .collect();
        if v.id == owner.id {
            hidden.extend(self.store.muted_among(v.id, &ids, self.now()).await?);
        }
        page.accounts.retain(|a| !hidden.contains(&a.id));
        Ok(page)
    }

    /// A page of the requests to follow `me`.
    pub async fn follow_requests(&self, me: &AccountRecord, page: Page) -> ApiResult<AccountPage> {
        let pairs = self.store.follow_requests_page(me.id, page).await?;
        self.accounts_page(&pairs).await
    }
}
