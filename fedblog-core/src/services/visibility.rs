//! Who may see what: the one place that decides whether a viewer may read a status, and the
//! filters every read path applies besides (blocked, blocking and muted authors; blocked domains;
//! silenced authors on the public and hashtag timelines).

use std::collections::{HashMap, HashSet};

use crate::error::ApiResult;
use crate::id::Id;
use crate::loaded::Loaded;
use chrono::{DateTime, Utc};

use crate::error::ApiError;
use crate::store::{
    AccountRecord, AccountStore, BlockStore, DomainBlockStore, FollowStore, StatusRecord,
    StatusStore, Store, Visibility,
};

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

/// The visibility area: `app.visibility()`. The one rule deciding whether a viewer may read a
/// status, the reads that apply it to a status or a page of them, and the filters every read path
/// applies besides (authors the viewer blocks, is blocked by or mutes; domains it blocks). It
/// holds the five store traits these read (statuses and their originals, their authors, blocks
/// and mutes, follows, domain blocks) and the time it judges at.
pub struct VisibilityRule<'a> {
    statuses: &'a dyn StatusStore,
    accounts: &'a dyn AccountStore,
    blocks: &'a dyn BlockStore,
    follows: &'a dyn FollowStore,
    domain_blocks: &'a dyn DomainBlockStore,
    now: DateTime<Utc>,
}

impl<'a> VisibilityRule<'a> {
    /// The rule over the traits of `store` it reads, judging at `now`.
    pub fn new(store: &'a dyn Store, now: DateTime<Utc>) -> Self {
        VisibilityRule {
            statuses: store,
            accounts: store,
            blocks: store,
            follows: store,
            domain_blocks: store,
            now,
        }
    }

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
        let Some(original) = self.statuses.status_by_id(original_id).await? else {
            return Ok(false);
        };
        let Some(original_author) = self.accounts.account_by_id(original.account_id).await? else {
            return Ok(false);
        };
        // Reblogs of reblogs are never made, so the original is judged by its own rule.
        self.can_see_own(viewer, &original, &original_author).await
    }

    /// The rule of [`VisibilityRule::can_see`] for one status by itself (a reblog's original not looked at).
    pub(crate) async fn can_see_own(
        &self,
        viewer: Option<&AccountRecord>,
        status: &StatusRecord,
        author: &AccountRecord,
    ) -> ApiResult<bool> {
        self.can_see_with(viewer, status, author, &mut ViewerFacts::default())
            .await
    }

    /// The facts about `viewer` that [`VisibilityRule::can_see_own`] needs for a page of statuses by
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
        for r in self.blocks.relations_among(v.id, authors, self.now).await? {
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

    /// [`VisibilityRule::can_see_own`] with what `facts` already knows (and learning follows into it).
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
                None => self.blocks.blocks(status.account_id, v).await?,
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
                        let follows = self.follows.follows(v, status.account_id).await?;
                        facts.follows.insert(status.account_id, follows);
                        follows
                    }
                },
            },
        })
    }

    /// The same rule as [`VisibilityRule::can_see`], for reading many of `author`'s statuses at once (blocks
    /// are the caller's to check): the visibilities `viewer` may read, and the account whose
    /// mentions make any other status readable. The author reads everything; a follower public,
    /// unlisted and private; anyone else public and unlisted; a signed-in viewer also every
    /// status that mentions it. Reblogs among them also need their originals seen: [`VisibilityRule::with_visible_originals`].
    pub async fn readable_visibilities(
        &self,
        viewer: Option<&AccountRecord>,
        author: &AccountRecord,
    ) -> ApiResult<(Vec<Visibility>, Option<Id>)> {
        use Visibility::*;
        Ok(match viewer {
            Some(v) if v.id == author.id => (vec![Public, Unlisted, Private, Direct], None),
            Some(v) if self.follows.follows(v.id, author.id).await? => {
                (vec![Public, Unlisted, Private], Some(v.id))
            }
            Some(v) => (vec![Public, Unlisted], Some(v.id)),
            None => (vec![Public, Unlisted], None),
        })
    }

    /// Keeps the statuses that are not reblogs, and the reblogs whose original `viewer` may see
    /// (with [`VisibilityRule::readable_visibilities`], so that a page of an account's statuses
    /// follows the same rule as [`VisibilityRule::can_see`]); adds the visible originals and what
    /// reading them loaded to `loaded`.
    pub async fn with_visible_originals(
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

    /// A status the viewer may see; 404 otherwise (never revealing that it exists).
    pub async fn visible_status(
        &self,
        viewer: Option<&AccountRecord>,
        id: Id,
    ) -> ApiResult<StatusRecord> {
        let status = self
            .statuses
            .status_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let author = self
            .accounts
            .account_by_id(status.account_id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        if !self.can_see(viewer, &status, &author).await? {
            return Err(ApiError::not_found());
        }
        Ok(status)
    }

    /// The statuses among `ids` the viewer may see, in the order asked (see [`VisibilityRule::can_see`];
    /// the originals of reblogs are read in one batch).
    pub async fn visible_statuses(
        &self,
        viewer: Option<&AccountRecord>,
        ids: &[Id],
    ) -> ApiResult<Vec<StatusRecord>> {
        Ok(self.visible_statuses_with_facts(viewer, ids).await?.0)
    }

    /// [`VisibilityRule::visible_statuses`], with the records it loaded, for render.
    pub(crate) async fn visible_statuses_loading(
        &self,
        viewer: Option<&AccountRecord>,
        ids: &[Id],
    ) -> ApiResult<(Vec<StatusRecord>, Loaded)> {
        let (visible, loaded, _) = self.visible_statuses_with_facts(viewer, ids).await?;
        Ok((visible, loaded))
    }

    /// [`VisibilityRule::visible_statuses`], with the records it loaded (the reblogged originals, and the
    /// accounts of every author and mention, in one read each) and what it learnt about the
    /// viewer.
    pub(crate) async fn visible_statuses_with_facts(
        &self,
        viewer: Option<&AccountRecord>,
        ids: &[Id],
    ) -> ApiResult<(Vec<StatusRecord>, Loaded, ViewerFacts)> {
        let records = self.statuses.statuses_by_ids(ids).await?;
        let mut loaded = Loaded::default();
        let wanted: Vec<Id> = records.iter().filter_map(|s| s.reblog_of_id).collect();
        if !wanted.is_empty() {
            loaded.add_statuses(self.statuses.statuses_by_ids(&wanted).await?);
        }
        let originals = &loaded.statuses;
        let named = loaded.missing_accounts(
            records
                .iter()
                .chain(originals.values())
                .flat_map(crate::loaded::accounts_named),
        );
        if !named.is_empty() {
            loaded.add_accounts(self.accounts.accounts_by_ids(&named).await?);
        }
        let (originals, authors) = (&loaded.statuses, &loaded.accounts);
        let mut author_ids: Vec<Id> = records
            .iter()
            .chain(originals.values())
            .map(|s| s.account_id)
            .collect();
        author_ids.sort();
        author_ids.dedup();
        let mut facts = self.viewer_facts(viewer, &author_ids).await?;
        let mut by_id: HashMap<Id, StatusRecord> = HashMap::new();
        for s in records {
            let Some(author) = authors.get(&s.account_id) else {
                continue;
            };
            if !self.can_see_with(viewer, &s, author, &mut facts).await? {
                continue;
            }
            if let Some(of) = s.reblog_of_id {
                let Some(original) = originals.get(&of) else {
                    continue;
                };
                let Some(original_author) = authors.get(&original.account_id) else {
                    continue;
                };
                if !self
                    .can_see_with(viewer, original, original_author, &mut facts)
                    .await?
                {
                    continue;
                }
            }
            by_id.insert(s.id, s);
        }
        let mut seen = std::collections::HashSet::new();
        let visible = ids
            .iter()
            .filter(|id| seen.insert(**id))
            .filter_map(|id| by_id.remove(id))
            .collect();
        Ok((visible, loaded, facts))
    }

    /// The accounts among `others` whose content `viewer` must not be shown: blocked either way,
    /// or muted by the viewer.
    pub async fn hidden_for(
        &self,
        viewer: &AccountRecord,
        others: &[Id],
    ) -> ApiResult<HashSet<Id>> {
        let mut hidden: HashSet<Id> = self
            .blocks
            .relations_among(viewer.id, others, self.now)
            .await?
            .into_iter()
            .map(|r| r.id)
            .collect();
        hidden.remove(&viewer.id);
        Ok(hidden)
    }

    /// Removes statuses by accounts hidden from `viewer`, and reblogs of such accounts' statuses
    /// (no-op for anonymous readers), reading only the originals `loaded` lacks and adding them
    /// to it.
    pub async fn without_hidden_authors(
        &self,
        viewer: Option<&AccountRecord>,
        statuses: Vec<StatusRecord>,
        loaded: &mut Loaded,
    ) -> ApiResult<Vec<StatusRecord>> {
        let Some(v) = viewer else { return Ok(statuses) };
        // A reblog is hidden when either its booster or the original's author is.
        let missing = loaded.missing_statuses(statuses.iter().filter_map(|s| s.reblog_of_id));
        if !missing.is_empty() {
            loaded.add_statuses(self.statuses.statuses_by_ids(&missing).await?);
        }
        let mut authors: Vec<Id> = statuses.iter().map(|s| s.account_id).collect();
        authors.extend(
            statuses
                .iter()
                .filter_map(|s| loaded.statuses.get(&s.reblog_of_id?))
                .map(|o| o.account_id),
        );
        authors.sort();
        authors.dedup();
        let hidden = self.hidden_for(v, &authors).await?;
        Ok(statuses
            .into_iter()
            .filter(|s| by_shown_authors(s, &hidden, loaded))
            .collect())
    }

    /// [`VisibilityRule::visible_statuses`] without the statuses by accounts hidden from `viewer`
    /// and the reblogs of their statuses (as [`VisibilityRule::without_hidden_authors`] leaves
    /// out), reading the viewer's relations with the page's authors once; with the records it
    /// loaded, for render.
    pub(crate) async fn visible_unhidden_statuses(
        &self,
        viewer: Option<&AccountRecord>,
        ids: &[Id],
    ) -> ApiResult<(Vec<StatusRecord>, Loaded)> {
        let (visible, loaded, facts) = self.visible_statuses_with_facts(viewer, ids).await?;
        if facts.hidden.is_empty() {
            return Ok((visible, loaded));
        }
        let shown = visible
            .into_iter()
            .filter(|s| by_shown_authors(s, &facts.hidden, &loaded))
            .collect();
        Ok((shown, loaded))
    }

    /// Removes statuses by remote accounts on a domain `viewer` blocks (no-op for anonymous
    /// readers and for local authors), reading only the authors `loaded` lacks and adding them to
    /// it.
    pub async fn without_blocked_domains(
        &self,
        viewer: Option<&AccountRecord>,
        statuses: Vec<StatusRecord>,
        loaded: &mut Loaded,
    ) -> ApiResult<Vec<StatusRecord>> {
        let Some(v) = viewer else { return Ok(statuses) };
        if statuses.iter().all(|s| s.local) {
            // Local authors have no domain to block: no store call.
            return Ok(statuses);
        }
        let missing = loaded.missing_accounts(statuses.iter().map(|s| s.account_id));
        if !missing.is_empty() {
            loaded.add_accounts(self.accounts.accounts_by_ids(&missing).await?);
        }
        let mut blocked_authors: HashSet<Id> = HashSet::new();
        let mut checked: std::collections::HashMap<String, bool> = Default::default();
        let mut authors: Vec<Id> = statuses.iter().map(|s| s.account_id).collect();
        authors.sort();
        authors.dedup();
        for a in authors.iter().filter_map(|id| loaded.accounts.get(id)) {
            let Some(domain) = a.domain.as_deref().map(str::to_ascii_lowercase) else {
                continue;
            };
            let blocked = match checked.get(&domain) {
                Some(b) => *b,
                None => {
                    let b = self.domain_blocks.domain_blocked(v.id, &domain).await?;
                    checked.insert(domain, b);
                    b
                }
            };
            if blocked {
                blocked_authors.insert(a.id);
            }
        }
        if blocked_authors.is_empty() {
            return Ok(statuses);
        }
        Ok(statuses
            .into_iter()
            .filter(|s| !blocked_authors.contains(&s.account_id))
            .collect())
    }

    /// Removes statuses by silenced (limited) accounts unless `viewer` is their author or
    /// follows it: a limited account is hidden from everyone but its followers, as the public
    /// and hashtag timelines apply it. Reads only the authors `loaded` lacks (adding them to it,
    /// so render does not read them again) and, per silenced author on the page, whether the
    /// viewer follows it.
    pub async fn without_silenced_authors(
        &self,
        viewer: Option<&AccountRecord>,
        statuses: Vec<StatusRecord>,
        loaded: &mut Loaded,
    ) -> ApiResult<Vec<StatusRecord>> {
        let missing = loaded.missing_accounts(statuses.iter().map(|s| s.account_id));
        if !missing.is_empty() {
            loaded.add_accounts(self.accounts.accounts_by_ids(&missing).await?);
        }
        let mut silenced: Vec<Id> = statuses
            .iter()
            .map(|s| s.account_id)
            .filter(|a| {
                Some(*a) != viewer.map(|v| v.id)
                    && loaded
                        .accounts
                        .get(a)
                        .is_some_and(|a| a.silenced_at.is_some())
            })
            .collect();
        silenced.sort();
        silenced.dedup();
        if silenced.is_empty() {
            return Ok(statuses);
        }
        let mut hidden: HashSet<Id> = HashSet::new();
        for author in silenced {
            let followed = match viewer {
                Some(v) => self.follows.follows(v.id, author).await?,
                None => false,
            };
            if !followed {
                hidden.insert(author);
            }
        }
        Ok(statuses
            .into_iter()
            .filter(|s| !hidden.contains(&s.account_id))
            .collect())
    }
}

/// Whether `s` is by none of the `hidden` accounts and, for a reblog, neither is its original
/// (read from `loaded`; an original not there was not found, and hides nothing).
fn by_shown_authors(s: &StatusRecord, hidden: &HashSet<Id>, loaded: &Loaded) -> bool {
    !hidden.contains(&s.account_id)
        && s.reblog_of_id
            .and_then(|o| loaded.statuses.get(&o))
            .is_none_or(|o| !hidden.contains(&o.account_id))
}
