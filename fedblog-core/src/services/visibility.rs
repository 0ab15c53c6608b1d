//! Who may see what: the one place that decides whether a viewer may read a status or an account.

use std::collections::{HashMap, HashSet};

use crate::app::App;
use crate::error::ApiResult;
use crate::id::Id;
use crate::loaded::Loaded;
use crate::store::{AccountRecord, StatusRecord, Visibility};

/// What the visibility rule needs to know about a viewer, gathered once for a page of statuses.
#[derive(Default)]
pub(crate) struct ViewerFacts {
    /// The authors that block the viewer; `None`: not known, ask the store.
    blocked_by: Option<HashSet<Id>>,
    /// The authors hidden from the viewer (blocked either way, or muted), read with
    /// `blocked_by`.
    pub(crate) hidden: HashSet<Id>,
    /// Whether the viewer follows an author, as learnt.
    follows: HashMap<Id, bool>,
}

impl App {
    /// Whether `viewer` (None = anonymous) may see `status` by `author`.
    ///
    /// Public and unlisted: everyone. Private: the author, followers and mentioned accounts.
    /// Direct: the author and mentioned accounts. Nothing by a suspended author, nor by an author
    /// who blocks the viewer. A reblog is seen by the rule of its own visibility (that the
    /// reblogger chose) and only when its original may be seen too; a reblog whose original is
    /// gone is seen by no one.
    pub async fn can_see(
        &self,
        viewer: Option<&AccountRecord>,
        status: &StatusRecord,
        author: &AccountRecord,
    ) -> ApiResult<bool> {
        if !self.can_see_own(viewer, status, author).await? {
            return Ok(false);
        }
        let Some(original_id) = status.reblog_of_id else {
            return Ok(true);
        };
        let Some(original) = self.store.status_by_id(original_id).await? else {
            return Ok(false);
        };
        let Some(original_author) = self.store.account_by_id(original.account_id).await? else {
            return Ok(false);
        };
        // Reblogs of reblogs are never made, so the original is judged by its own rule.
        self.can_see_own(viewer, &original, &original_author).await
    }

    /// The rule of [`App::can_see`] for one status by itself (a reblog's original not looked at).
    pub(crate) async fn can_see_own(
        &self,
        viewer: Option<&AccountRecord>,
        status: &StatusRecord,
        author: &AccountRecord,
    ) -> ApiResult<bool> {
        self.can_see_with(viewer, status, author, &mut ViewerFacts::default())
            .await
    }

    /// The facts about `viewer` that [`App::can_see_own`] needs for a page of statuses by
    /// `authors`, learnt in one store call: which of the authors block the viewer, and which are
    /// hidden from it (blocked either way or muted).
    pub(crate) async fn viewer_facts(
        &self,
        viewer: Option<&AccountRecord>,
        authors: &[Id],
    ) -> ApiResult<ViewerFacts> {
        let Some(v) = viewer else {
            return Ok(ViewerFacts {
                blocked_by: Some(HashSet::new()),
                ..ViewerFacts::default()
            });
        };
        let mut facts = ViewerFacts {
            blocked_by: Some(HashSet::new()),
            ..ViewerFacts::default()
        };
        for r in self
            .store
            .relations_among(v.id, authors, self.now())
            .await?
        {
            if r.id == v.id {
                continue;
            }
            if r.blocked_by {
                facts.blocked_by.get_or_insert_default().insert(r.id);
            }
            facts.hidden.insert(r.id);
        }
        Ok(facts)
    }

    /// [`App::can_see_own`] with what `facts` already knows (and learning follows into it).
    pub(crate) async fn can_see_with(
        &self,
        viewer: Option<&AccountRecord>,
        status: &StatusRecord,
        author: &AccountRecord,
        facts: &mut ViewerFacts,
    ) -> ApiResult<bool> {
        if author.is_suspended() {
            return Ok(false);
        }
        let viewer_id = viewer.map(|v| v.id);
        if viewer_id == Some(status.account_id) {
            return Ok(true);
        }
        if let Some(v) = viewer_id {
            let blocked = match &facts.blocked_by {
                Some(set) => set.contains(&status.account_id),
                None => self.store.blocks(status.account_id, v).await?,
            };
            if blocked {
                return Ok(false);
            }
        }
        Ok(match status.visibility {
            Visibility::Public | Visibility::Unlisted => true,
            Visibility::Direct => viewer_id.is_some_and(|v| status.mentions.contains(&v)),
            Visibility::Private => match viewer_id {
                None => false,
                Some(_) if status.mentions.iter().any(|m| Some(*m) == viewer_id) => true,
                Some(v) => match facts.follows.get(&status.account_id) {
                    Some(known) => *known,
                    None => {
                        let follows = self.store.follows(v, status.account_id).await?;
                        facts.follows.insert(status.account_id, follows);
                        follows
                    }
                },
            },
        })
    }

    /// The same rule as [`App::can_see`], for reading many of `author`'s statuses at once (blocks
    /// are the caller's to check): the visibilities `viewer` may read, and the account whose
    /// mentions make any other status readable. The author reads everything; a follower public,
    /// unlisted and private; anyone else public and unlisted; a signed-in viewer also every
    /// status that mentions it. Reblogs among them also need their originals seen: [`App::with_visible_originals`].
    pub async fn readable_visibilities(
        &self,
        viewer: Option<&AccountRecord>,
        author: &AccountRecord,
    ) -> ApiResult<(Vec<Visibility>, Option<Id>)> {
        use Visibility::*;
        Ok(match viewer {
            Some(v) if v.id == author.id => (vec![Public, Unlisted, Private, Direct], None),
            Some(v) if self.store.follows(v.id, author.id).await? => {
                (vec![Public, Unlisted, Private], Some(v.id))
            }
            Some(v) => (vec![Public, Unlisted], Some(v.id)),
            None => (vec![Public, Unlisted], None),
        })
    }

    /// Keeps the statuses that are not reblogs, and the reblogs whose original `viewer` may see
    /// (with [`App::readable_visibilities`], so that a page of an account's statuses follows the
    /// same rule as [`App::can_see`]).
    pub async fn with_visible_originals(
        &self,
        viewer: Option<&AccountRecord>,
        statuses: Vec<StatusRecord>,
    ) -> ApiResult<Vec<StatusRecord>> {
        self.with_visible_originals_loading(viewer, statuses, &mut Loaded::default())
            .await
    }

    /// [`App::with_visible_originals`], adding the visible originals and what reading them
    /// loaded to `loaded`.
    pub(crate) async fn with_visible_originals_loading(
        &self,
        viewer: Option<&AccountRecord>,
        statuses: Vec<StatusRecord>,
        loaded: &mut Loaded,
    ) -> ApiResult<Vec<StatusRecord>> {
        let originals: Vec<Id> = statuses.iter().filter_map(|s| s.reblog_of_id).collect();
        if originals.is_empty() {
            return Ok(statuses);
        }
        let (visible, read) = self.visible_statuses_loading(viewer, &originals).await?;
        let seen: HashSet<Id> = visible.iter().map(|s| s.id).collect();
        loaded.merge(read);
        loaded.add_statuses(visible);
        Ok(statuses
            .into_iter()
            .filter(|s| s.reblog_of_id.is_none_or(|o| seen.contains(&o)))
            .collect())
    }
}
