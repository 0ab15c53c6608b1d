//! Conversation contexts (Mastodon 4.5): a thread begun here, as an ActivityPub collection of
//! its public and unlisted statuses that other servers can read whole, named by the `context`
//! of its notes (`BASE/contexts/ACCOUNT-THREAD`, see [`paths::context`]).
//!
//! A thread is named by the account that began it and its first status's id (the
//! `conversation_id` every status of the thread carries), which never change while the thread
//! lasts; the thread is gone when its first status is. Listed are the thread's statuses by
//! local accounts in good standing, public or unlisted, oldest first, 60 a page after
//! `min_id`, as their ActivityPub ids; never a followers-only or direct one, nor a reblog.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::listed;
use crate::app::App;
use crate::error::{ApiError, ApiResult};
use crate::federation::{paths, vocab};
use crate::id::Id;
use crate::store::{AccountRecord, StatusRecord, conversation_of};

/// Statuses listed a page (Mastodon's `DESCENDANTS_LIMIT`).
pub const CONTEXT_PAGE: usize = 60;

/// Statuses of a thread read at most to list it (its first and its replies, level by level):
/// the bound a signed-in reader's thread view has. A larger thread is listed up to it.
pub const MAX_CONTEXT_STATUSES: usize = 4096;

/// Which document of a context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContextDocument {
    /// `/contexts/:id`: the context, a `Collection` embedding its first page.
    Context,
    /// `/contexts/:id/items`: its items collection, or with `page` one page of it.
    Items,
}

/// Which page of a context's items (`?page=true`, `min_id`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContextQuery {
    /// A page rather than the collection (which embeds its first page).
    pub page: bool,
    /// Statuses after this one.
    pub min_id: Option<Id>,
}

impl App {
    /// The local account that began the thread a context id (`ACCOUNT-THREAD`) names, in good
    /// standing, and the thread's id; 404 otherwise. Only the account is read: the thread
    /// itself is checked by [`App::render_ap_context`], after a signature is (under
    /// authorized fetch, as Mastodon asks for it first).
    pub async fn context_starter(&self, id: &str) -> ApiResult<(AccountRecord, Id)> {
        let (account, thread) = paths::parse_context_id(id).ok_or_else(ApiError::not_found)?;
        let starter = self
            .store
            .account_by_id(account)
            .await?
            .filter(|a| a.is_local() && !a.is_suspended())
            .ok_or_else(ApiError::not_found)?;
        Ok((starter, thread))
    }

    /// A context document of the thread `thread` that `starter` began here (see
    /// [`ContextDocument`], [`ContextQuery`]): 404 unless the thread's first status is here,
    /// local, `starter`'s and not a reblog. With `signer` (a verified signer, under authorized
    /// fetch), statuses by accounts that block it or its server are left out.
    pub async fn render_ap_context(
        &self,
        starter: &AccountRecord,
        thread: Id,
        which: ContextDocument,
        q: ContextQuery,
        signer: Option<&AccountRecord>,
    ) -> ApiResult<Value> {
        let first = self
            .store
            .status_by_id(thread)
            .await?
            .filter(|s| {
                s.local
                    && s.account_id == starter.id
                    && s.reblog_of_id.is_none()
                    && conversation_of(s) == thread
            })
            .ok_or_else(ApiError::not_found)?;
        let base = self.base_url();
        let context = paths::context(&base, starter.id, thread);
        let items_id = paths::context_items(&context);
        let statuses = self.context_statuses(first, signer).await?;
        let mut items = vec![];
        let mut last = None;
        for (s, username) in statuses
            .iter()
            .filter(|(s, _)| q.min_id.is_none_or(|m| s.id > m))
            .take(CONTEXT_PAGE)
        {
            items.push(Value::String(paths::status(&base, username, s.id)));
            last = Some(s.id);
        }
        let next =
            (items.len() == CONTEXT_PAGE).then(|| paths::context_items_page(&items_id, last));
        match which {
            ContextDocument::Context => {
                // The first page embedded as Mastodon embeds a note's replies: without an id,
                // part of the context.
                let mut doc = vocab::replies_collection(&context, items, next);
                if let Some(o) = doc.as_object_mut() {
                    o.insert("@context".into(), vocab::ACTIVITY_STREAMS.into());
                    o.insert(
                        "attributedTo".into(),
                        paths::actor(&base, &starter.username).into(),
                    );
                }
                Ok(doc)
            }
            ContextDocument::Items => {
                let page_id = paths::context_items_page(&items_id, q.min_id);
                let page = vocab::collection_page(&page_id, &items_id, items, next);
                if q.page {
                    return Ok(page);
                }
                Ok(serde_json::json!({
                    "@context": vocab::ACTIVITY_STREAMS,
                    "id": items_id,
                    "type": "Collection",
                    "first": vocab::strip_context(page),
                }))
            }
        }
    }

    /// The statuses of the thread `first` begins that a context lists, oldest first, each with
    /// its author's username: read level by level from `first` (at most
    /// [`MAX_CONTEXT_STATUSES`]), then kept when public or unlisted, local, of the thread, by
    /// an account not suspended and (with `signer`) blocking neither it nor its server.
    async fn context_statuses(
        &self,
        first: StatusRecord,
        signer: Option<&AccountRecord>,
    ) -> ApiResult<Vec<(StatusRecord, String)>> {
        let thread = first.id;
        let mut seen: HashSet<Id> = HashSet::from([first.id]);
        let mut level = vec![first.id];
        let mut all = vec![first];
        'levels: while !level.is_empty() {
            let replies = self.store.replies_to(&level).await?;
            level = vec![];
            for r in replies {
                if all.len() >= MAX_CONTEXT_STATUSES {
                    break 'levels;
                }
                if seen.insert(r.id) {
                    level.push(r.id);
                    all.push(r);
                }
            }
        }
        all.retain(|s| s.local && listed(s) && conversation_of(s) == thread);
        let mut author_ids: Vec<Id> = all.iter().map(|s| s.account_id).collect();
        author_ids.sort();
        author_ids.dedup();
        let mut authors: HashMap<Id, String> = HashMap::new();
        for a in self.store.accounts_by_ids(&author_ids).await? {
            if !a.is_local() || a.is_suspended() {
                continue;
            }
            if let Some(signer) = signer
                && self.blocks_context_reader(a.id, signer).await?
            {
                continue;
            }
            authors.insert(a.id, a.username);
        }
        let mut listed: Vec<(StatusRecord, String)> = all
            .into_iter()
            .filter_map(|s| {
                let username = authors.get(&s.account_id)?.clone();
                Some((s, username))
            })
            .collect();
        listed.sort_by_key(|(s, _)| s.id);
        Ok(listed)
    }

    /// Whether the local account `account` blocks `signer`, or the server `signer` is on.
    async fn blocks_context_reader(&self, account: Id, signer: &AccountRecord) -> ApiResult<bool> {
        if self.store.blocks(account, signer.id).await? {
            return Ok(true);
        }
        match &signer.domain {
            Some(domain) => Ok(self
                .store
                .domain_blocked(account, &domain.to_ascii_lowercase())
                .await?),
            None => Ok(false),
        }
    }
}
