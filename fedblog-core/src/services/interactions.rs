//! What accounts do with statuses: favourites, bookmarks, pins, conversation mutes, the lists of
//! who favourited or reblogged a status, the caller's favourites and bookmarks, and threads
//! (`context`).
//!
//! Every action on a status the caller may not see is a 404. Taking back a favourite, a bookmark
//! (and a reblog, in `statuses.rs`) succeeds even when the caller has lost access to the status
//! since, as Mastodon: the answer is then the status as it stands.

use std::collections::{HashMap, HashSet};

use crate::error::{ApiError, ApiResult};
use crate::id::{Id, IdGenerator};
use crate::loaded::Loaded;
use crate::pagination::Page;
use crate::services::accounts::{AccountPage, accounts_page};
use crate::services::notifications::Notifications;
use crate::services::statuses::proper_status;
use crate::services::timelines::StatusPage;
use crate::services::visibility::VisibilityRule;
use crate::store::conversation_of;
use crate::store::{
    AccountRecord, AccountStore, BlockStore, InteractionStore, NotificationType, StatusRecord,
    StatusStore, Store, Visibility,
};

/// At most this many statuses pinned per account (Mastodon's default); deleted statuses lose
/// their pins, so they do not count.
pub const MAX_PINNED_STATUSES: usize = 5;

/// How much of a thread `context` reads: ancestors, descendants and the depth of descendants.
/// Anonymous callers get Mastodon's bounds for them (40, 60, 20); signed-in callers Mastodon's
/// 4,096 ancestors and descendants, with the depth bounded by the same number (every level holds
/// at least one status, and one store read is made per level).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContextBounds {
    /// Most ancestors.
    pub ancestors: usize,
    /// Most descendants.
    pub descendants: usize,
    /// Most levels of descendants below the status.
    pub depth: usize,
}

impl ContextBounds {
    /// The bounds for an anonymous caller (`false`) or a signed-in one (`true`).
    pub fn for_caller(signed_in: bool) -> Self {
        if signed_in {
            ContextBounds {
                ancestors: 4096,
                descendants: 4096,
                depth: 4096,
            }
        } else {
            ContextBounds {
                ancestors: 40,
                descendants: 60,
                depth: 20,
            }
        }
    }
}

/// A thread around a status, both lists filtered for the viewer.
pub struct Thread {
    /// Parents, the thread's first status first.
    pub ancestors: Vec<StatusRecord>,
    /// Replies, depth-first in thread order (each status followed by its replies, oldest first).
    pub descendants: Vec<StatusRecord>,
    /// What reading both loaded, for render.
    pub loaded: Loaded,
}

/// The interactions area: favourites, reblogs' lists, bookmarks, pins, muting a thread, and a
/// status's thread context.
pub struct Interactions<'a> {
    blocks: &'a dyn BlockStore,
    interactions: &'a dyn InteractionStore,
    statuses: &'a dyn StatusStore,
    accounts: &'a dyn AccountStore,
    ids: &'a IdGenerator,
    visibility: VisibilityRule<'a>,
    notifications: Notifications<'a>,
    outbox: crate::services::outbox::Outbox<'a>,
}

impl<'a> Interactions<'a> {
    /// The area over `store`, making ids with `ids`, deciding through `visibility`, telling
    /// through `notifications`.
    pub fn new(
        store: &'a dyn Store,
        ids: &'a IdGenerator,
        visibility: VisibilityRule<'a>,
        notifications: Notifications<'a>,
        outbox: crate::services::outbox::Outbox<'a>,
    ) -> Self {
        Interactions {
            blocks: store,
            interactions: store,
            statuses: store,
            accounts: store,
            ids,
            visibility,
            notifications,
            outbox,
        }
    }
    /// A status `me` may see (the original, when `id` names a reblog), 404 otherwise.
    async fn visible_proper(&self, me: &AccountRecord, id: Id) -> ApiResult<StatusRecord> {
        let named = self.visibility.visible_status(Some(me), id).await?;
        proper_status(self.statuses, named).await
    }

    /// A status as stored now (after an action changed its counters); 404 if it went meanwhile.
    async fn reread(&self, id: Id) -> ApiResult<StatusRecord> {
        self.statuses
            .status_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)
    }

    /// `me` favourites a status it may see (the original, when `id` names a reblog) and gets the
    /// status named. Favouriting again changes nothing. A status whose author `me` blocks cannot
    /// be favourited (403, as Mastodon).
    pub async fn favourite(&self, me: &AccountRecord, id: Id) -> ApiResult<StatusRecord> {
        let status = self.visible_proper(me, id).await?;
        if status.account_id != me.id && self.blocks.blocks(me.id, status.account_id).await? {
            return Err(ApiError::forbidden());
        }
        if self
            .interactions
            .insert_favourite(self.ids.next(), me.id, status.id)
            .await?
        {
            self.notifications
                .notify(
                    &[status.account_id],
                    me,
                    NotificationType::Favourite,
                    Some(&status),
                )
                .await?;
            self.outbox.favourited(me, &status).await?;
        }
        self.reread(id).await
    }

    /// `me` takes back a favourite and gets the status favourited. With no favourite the status
    /// must be visible (else 404); with one, this succeeds even when `me` lost access to it.
    pub async fn unfavourite(&self, me: &AccountRecord, id: Id) -> ApiResult<StatusRecord> {
        let proper = self.proper_id(id).await?;
        if self.interactions.delete_favourite(me.id, proper).await? {
            let status = self.reread(proper).await?;
            self.notifications
                .retract_notification(
                    status.account_id,
                    me.id,
                    NotificationType::Favourite,
                    Some(proper),
                )
                .await?;
            self.outbox.unfavourited(me, &status).await?;
            return Ok(status);
        }
        self.visibility.visible_status(Some(me), proper).await
    }

    /// `me` bookmarks a status it may see (the original, when `id` names a reblog) and gets the
    /// status named. Bookmarking again changes nothing.
    pub async fn bookmark(&self, me: &AccountRecord, id: Id) -> ApiResult<StatusRecord> {
        let status = self.visible_proper(me, id).await?;
        self.interactions
            .insert_bookmark(self.ids.next(), me.id, status.id)
            .await?;
        self.reread(id).await
    }

    /// `me` takes back a bookmark and gets the status bookmarked. With no bookmark the status must
    /// be visible (else 404); with one, this succeeds even when `me` lost access to it.
    pub async fn unbookmark(&self, me: &AccountRecord, id: Id) -> ApiResult<StatusRecord> {
        let proper = self.proper_id(id).await?;
        if self.interactions.delete_bookmark(me.id, proper).await? {
            return self.reread(proper).await;
        }
        self.visibility.visible_status(Some(me), proper).await
    }

    /// The id of the status `id` names, or of its original when it is a reblog; 404 if unknown.
    async fn proper_id(&self, id: Id) -> ApiResult<Id> {
        let named = self
            .statuses
            .status_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        Ok(named.reblog_of_id.unwrap_or(named.id))
    }

    /// `me` pins one of its own statuses on its profile. 404 if `me` may not see it; 422 for a
    /// reblog, someone else's status, a direct status, or when [`MAX_PINNED_STATUSES`] are
    /// pinned already. Followers-only statuses can be pinned. Pinning again changes nothing.
    pub async fn pin(&self, me: &AccountRecord, id: Id) -> ApiResult<StatusRecord> {
        let status = self.visibility.visible_status(Some(me), id).await?;
        let refuse = |msg: &str| Err(ApiError::invalid_field("status", "ERR_INVALID", msg));
        if status.reblog_of_id.is_some() {
            return refuse("Boosts cannot be pinned");
        }
        if status.account_id != me.id {
            return refuse("Someone else's post cannot be pinned");
        }
        if status.visibility == Visibility::Direct {
            return refuse("Posts that are only visible to mentioned users cannot be pinned");
        }
        let pinned = self.interactions.pinned_status_ids(me.id).await?;
        if pinned.contains(&status.id) {
            return Ok(status);
        }
        if pinned.len() >= MAX_PINNED_STATUSES {
            return refuse("You have already pinned the maximum number of posts");
        }
        self.interactions
            .insert_pin(self.ids.next(), me.id, status.id)
            .await?;
        // Pins made at the same moment by other requests may have passed the check too: the
        // oldest pins keep their places, and a pin beyond the limit is taken back.
        let pinned = self.interactions.pinned_status_ids(me.id).await?;
        let excess = pinned.len().saturating_sub(MAX_PINNED_STATUSES);
        if pinned[..excess].contains(&status.id) {
            self.interactions.delete_pin(me.id, status.id).await?;
            return refuse("You have already pinned the maximum number of posts");
        }
        self.outbox.pin_changed(me, status.id, true).await?;
        Ok(status)
    }

    /// `me` unpins a status; not pinned is not an error. 404 if `me` may not see it.
    pub async fn unpin(&self, me: &AccountRecord, id: Id) -> ApiResult<StatusRecord> {
        let status = self.visibility.visible_status(Some(me), id).await?;
        if self.interactions.delete_pin(me.id, status.id).await? {
            self.outbox.pin_changed(me, status.id, false).await?;
        }
        Ok(status)
    }

    /// `me` mutes the thread of a status it may see (no notifications from it; the status then
    /// renders `muted: true`) and gets the status. Muting again changes nothing.
    pub async fn mute_conversation(&self, me: &AccountRecord, id: Id) -> ApiResult<StatusRecord> {
        let named = self.visibility.visible_status(Some(me), id).await?;
        let proper = proper_status(self.statuses, named.clone()).await?;
        self.interactions
            .mute_conversation(me.id, conversation_of(&proper))
            .await?;
        Ok(named)
    }

    /// `me` unmutes the thread of a status it may see; not muted is not an error.
    pub async fn unmute_conversation(&self, me: &AccountRecord, id: Id) -> ApiResult<StatusRecord> {
        let named = self.visibility.visible_status(Some(me), id).await?;
        let proper = proper_status(self.statuses, named.clone()).await?;
        self.interactions
            .unmute_conversation(me.id, conversation_of(&proper))
            .await?;
        Ok(named)
    }

    /// A page of the accounts that favourited a status `viewer` may see (404 otherwise), newest
    /// favourite first, on hidden favourite ids. Suspended accounts, and accounts blocked either
    /// way by or muted by the viewer, are left out (the cursors stay those of the page read).
    pub async fn favourited_by(
        &self,
        viewer: Option<&AccountRecord>,
        id: Id,
        page: Page,
    ) -> ApiResult<AccountPage> {
        let named = self.visibility.visible_status(viewer, id).await?;
        let status = proper_status(self.statuses, named).await?;
        let pairs = self
            .interactions
            .favourited_by_page(status.id, page)
            .await?;
        let page = accounts_page(self.accounts, &pairs).await?;
        self.without_hidden_accounts(viewer, page).await
    }

    /// A page of the accounts that reblogged a status `viewer` may see (404 otherwise), newest
    /// reblog first, on hidden reblog ids. As Mastodon, only public and unlisted reblogs are
    /// listed (a followers-only reblog also to its author); accounts are left out as in
    /// [`App::favourited_by`].
    pub async fn reblogged_by(
        &self,
        viewer: Option<&AccountRecord>,
        id: Id,
        page: Page,
    ) -> ApiResult<AccountPage> {
        let named = self.visibility.visible_status(viewer, id).await?;
        let status = proper_status(self.statuses, named).await?;
        let pairs = self.interactions.reblogged_by_page(status.id, page).await?;
        let reblog_ids: Vec<Id> = pairs.iter().map(|(r, _)| *r).collect();
        let listed: HashSet<Id> = self
            .statuses
            .statuses_by_ids(&reblog_ids)
            .await?
            .into_iter()
            .filter(|r| {
                matches!(r.visibility, Visibility::Public | Visibility::Unlisted)
                    || viewer.is_some_and(|v| v.id == r.account_id)
            })
            .map(|r| r.id)
            .collect();
        let mut page = accounts_page(self.accounts, &pairs).await?;
        let shown: HashSet<Id> = pairs
            .iter()
            .filter(|(r, _)| listed.contains(r))
            .map(|(_, a)| *a)
            .collect();
        page.accounts.retain(|a| shown.contains(&a.id));
        self.without_hidden_accounts(viewer, page).await
    }

    /// Drops the accounts hidden from `viewer` (blocked either way, muted) from a page.
    async fn without_hidden_accounts(
        &self,
        viewer: Option<&AccountRecord>,
        mut page: AccountPage,
    ) -> ApiResult<AccountPage> {
        let Some(v) = viewer else { return Ok(page) };
        let ids: Vec<Id> = page.accounts.iter().map(|a| a.id).collect();
        let hidden = self.visibility.hidden_for(v, &ids).await?;
        page.accounts.retain(|a| !hidden.contains(&a.id));
        Ok(page)
    }

    /// A page of `me`'s favourites, newest favourite first, on hidden favourite ids. Statuses
    /// `me` may no longer see are left out, and so are deleted ones (their favourites go with
    /// them); the cursors stay those of the page read.
    pub async fn favourites(&self, me: &AccountRecord, page: Page) -> ApiResult<StatusPage> {
        let pairs = self.interactions.favourites_page(me.id, page).await?;
        self.status_pairs_page(me, &pairs).await
    }

    /// A page of `me`'s bookmarks, as [`App::favourites`].
    pub async fn bookmarks(&self, me: &AccountRecord, page: Page) -> ApiResult<StatusPage> {
        let pairs = self.interactions.bookmarks_page(me.id, page).await?;
        self.status_pairs_page(me, &pairs).await
    }

    /// The visible statuses of `(cursor, status id)` pairs, in page order.
    async fn status_pairs_page(
        &self,
        me: &AccountRecord,
        pairs: &[(Id, Id)],
    ) -> ApiResult<StatusPage> {
        let ids: Vec<Id> = pairs.iter().map(|(_, s)| *s).collect();
        let (statuses, loaded) = self
            .visibility
            .visible_statuses_loading(Some(me), &ids)
            .await?;
        Ok(StatusPage {
            statuses,
            first: pairs.first().map(|p| p.0),
            last: pairs.last().map(|p| p.0),
            loaded,
        })
    }

    /// The thread around a status `viewer` may see (404 otherwise; for a reblog, its original's
    /// thread): its ancestors, oldest first, and its descendants, depth-first in thread order,
    /// read within [`ContextBounds::for_caller`]. Statuses the viewer may not see, by accounts
    /// blocked either way or muted, or on a domain the viewer blocks are left out (each on its
    /// own: a visible reply to a hidden one still shows, as Mastodon).
    pub async fn context(&self, viewer: Option<&AccountRecord>, id: Id) -> ApiResult<Thread> {
        let named = self.visibility.visible_status(viewer, id).await?;
        let status = proper_status(self.statuses, named).await?;
        let bounds = ContextBounds::for_caller(viewer.is_some());

        // Ancestors: follow in_reply_to_id upwards (one read per level) until the thread's
        // first status, a deleted parent, or the bound.
        let mut ancestor_ids: Vec<Id> = Vec::new();
        let mut next = status.in_reply_to_id;
        let mut seen: HashSet<Id> = HashSet::from([status.id]);
        while let Some(parent_id) = next {
            if ancestor_ids.len() >= bounds.ancestors || !seen.insert(parent_id) {
                break;
            }
            let Some(parent) = self.statuses.status_by_id(parent_id).await? else {
                break;
            };
            ancestor_ids.push(parent.id);
            next = parent.in_reply_to_id;
        }
        ancestor_ids.reverse();

        // Descendants: one read per level, then a depth-first walk of the tree read.
        let mut children: HashMap<Id, Vec<Id>> = HashMap::new();
        let mut level: Vec<Id> = vec![status.id];
        let mut read = 0usize;
        'levels: for _ in 0..bounds.depth {
            if level.is_empty() {
                break;
            }
            let replies = self.interactions.replies_to(&level).await?;
            level = Vec::new();
            for r in replies {
                if read >= bounds.descendants {
                    break 'levels;
                }
                let (Some(parent), true) = (r.in_reply_to_id, seen.insert(r.id)) else {
                    continue;
                };
                children.entry(parent).or_default().push(r.id);
                level.push(r.id);
                read += 1;
            }
        }
        let mut descendant_ids: Vec<Id> = Vec::with_capacity(read);
        let mut stack: Vec<Id> = children
            .get(&status.id)
            .map(|c| c.iter().rev().copied().collect())
            .unwrap_or_default();
        while let Some(id) = stack.pop() {
            descendant_ids.push(id);
            if let Some(c) = children.get(&id) {
                stack.extend(c.iter().rev().copied());
            }
        }

        // Both sides are read, and filtered for the viewer, in one go.
        let ancestors: HashSet<Id> = ancestor_ids.iter().copied().collect();
        let mut ids = ancestor_ids;
        ids.extend(descendant_ids);
        if ids.is_empty() {
            return Ok(Thread {
                ancestors: vec![],
                descendants: vec![],
                loaded: Loaded::default(),
            });
        }
        let (shown, mut loaded) = self
            .visibility
            .visible_unhidden_statuses(viewer, &ids)
            .await?;
        let shown = self
            .visibility
            .without_blocked_domains(viewer, shown, &mut loaded)
            .await?;
        let (ancestors, descendants) = shown.into_iter().partition(|s| ancestors.contains(&s.id));
        Ok(Thread {
            ancestors,
            descendants,
            loaded,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::{ContextBounds, MAX_PINNED_STATUSES};
    use crate::services::accounts::NewAccount;
    use crate::services::statuses::NewStatus;
    use crate::store::{AccountRecord, Role, StatusRecord};
    use crate::{App, Id, InstanceConfig, MemoryStore};

    async fn app_with(name: &str) -> (App, AccountRecord) {
        let mut config = InstanceConfig::new("threads.test");
        config.password_hash_memory_kib = 64;
        let app = App::new(Arc::new(MemoryStore::new()), config);
        let (a, _, _) = app
            .accounts()
            .create_local_account(
                NewAccount {
                    username: name.to_string(),
                    email: format!("{name}@threads.test"),
                    password: "correct horse battery".into(),
                    role: Role::User,
                    confirmed: true,
                    approved: true,
                    locale: "en".into(),
                },
                false,
            )
            .await
            .unwrap();
        (app, a)
    }

    async fn reply(app: &App, author: &AccountRecord, parent: Option<Id>) -> StatusRecord {
        let new = NewStatus {
            text: "in a thread".into(),
            in_reply_to_id: parent,
            ..Default::default()
        };
        crate::test_support::post_new(app, author, new).await
    }

    #[tokio::test]
    async fn context_bounds_depth_for_anonymous_callers() {
        let (app, me) = app_with("chain").await;
        let root = reply(&app, &me, None).await;
        let mut chain = vec![root.id];
        for _ in 0..45 {
            let next = reply(&app, &me, chain.last().copied()).await;
            chain.push(next.id);
        }
        let anonymous = ContextBounds::for_caller(false);
        let thread = app.interactions().context(None, root.id).await.unwrap();
        let ids: Vec<Id> = thread.descendants.iter().map(|s| s.id).collect();
        assert_eq!(ids, chain[1..=anonymous.depth].to_vec());
        let thread = app
            .interactions()
            .context(Some(&me), root.id)
            .await
            .unwrap();
        assert_eq!(thread.descendants.len(), 45);

        let last = *chain.last().unwrap();
        let thread = app.interactions().context(None, last).await.unwrap();
        let ids: Vec<Id> = thread.ancestors.iter().map(|s| s.id).collect();
        assert_eq!(
            ids,
            chain[chain.len() - 1 - anonymous.ancestors..chain.len() - 1]
        );
        let thread = app.interactions().context(Some(&me), last).await.unwrap();
        assert_eq!(thread.ancestors.len(), 45);
        assert_eq!(thread.ancestors[0].id, root.id);
    }

    #[tokio::test]
    async fn pins_are_limited_and_deleted_statuses_free_a_place() {
        let (app, me) = app_with("pinner").await;
        let mut ids = Vec::new();
        for _ in 0..=MAX_PINNED_STATUSES {
            ids.push(reply(&app, &me, None).await.id);
        }
        for id in &ids[..MAX_PINNED_STATUSES] {
            app.interactions().pin(&me, *id).await.unwrap();
        }
        let refused = app
            .interactions()
            .pin(&me, ids[MAX_PINNED_STATUSES])
            .await
            .unwrap_err();
        assert_eq!(refused.status.as_u16(), 422);
        app.store.delete_status(ids[0]).await.unwrap();
        app.interactions()
            .pin(&me, ids[MAX_PINNED_STATUSES])
            .await
            .unwrap();
        let pinned = app.store.pinned_status_ids(me.id).await.unwrap();
        assert_eq!(pinned.len(), MAX_PINNED_STATUSES);
        assert_eq!(pinned[0], ids[MAX_PINNED_STATUSES]);
    }
}
