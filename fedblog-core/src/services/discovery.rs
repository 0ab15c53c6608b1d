//! Finding accounts and reading profiles: account search, the profile directory, follow
//! suggestions (with their sources and dismissals), and an account's statuses. An area
//! service, reached as `app.discovery()`.

use std::collections::HashSet;

use crate::content;
use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::loaded::Loaded;
use crate::pagination::Page;
use crate::services::timelines::StatusPage;
use crate::services::visibility::VisibilityRule;
use crate::store::{
    AccountNoteStore, AccountRecord, AccountSearch, AccountStatusesFilter, AccountStore,
    BlockStore, DirectoryOrder, DirectoryStore, DomainBlockStore, FollowStore, InteractionStore,
    StatusRecord, StatusStore, Store,
};

/// Why an account is suggested (Mastodon's `Suggestion.sources` values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuggestionSource {
    /// Followed by accounts the caller follows.
    FriendsOfFriends,
    /// A local account with many followers.
    MostFollowed,
}

impl SuggestionSource {
    /// The name in `Suggestion.sources`.
    pub fn as_str(self) -> &'static str {
        match self {
            SuggestionSource::FriendsOfFriends => "friends_of_friends",
            SuggestionSource::MostFollowed => "most_followed",
        }
    }

    /// The deprecated single `Suggestion.source` value it maps to (`global` for popularity,
    /// `past_interactions` for the caller's own graph).
    pub fn legacy(self) -> &'static str {
        match self {
            SuggestionSource::FriendsOfFriends => "past_interactions",
            SuggestionSource::MostFollowed => "global",
        }
    }
}

/// A suggested account with the reasons, strongest first.
pub struct Suggested {
    /// The account.
    pub account: AccountRecord,
    /// Why.
    pub sources: Vec<SuggestionSource>,
}

/// An account search as the API receives it.
pub struct SearchQuery {
    /// `q` as sent.
    pub q: String,
    /// Only accounts the caller follows.
    pub following: bool,
    /// Results to skip.
    pub offset: u64,
    /// Results to return.
    pub limit: u64,
}

/// Which of an account's statuses to list (`GET /api/v1/accounts/:id/statuses`).
#[derive(Clone, Debug, Default)]
pub struct AccountStatusesQuery {
    /// Leave out replies to other accounts.
    pub exclude_replies: bool,
    /// Only statuses with media.
    pub only_media: bool,
    /// Only statuses with this hashtag (normalised here).
    pub tagged: Option<String>,
    /// Only pinned statuses, newest pin first.
    pub pinned: bool,
    /// Leave out reblogs.
    pub exclude_reblogs: bool,
}

/// Rows read per store call when results are filtered after reading (search, directory).
const SCAN_BATCH: u64 = 200;
/// Store calls at most per filtered read.
const SCAN_ROUNDS: usize = 10;
/// Accounts an account search asks the store for beyond `offset + limit`, for those it leaves
/// out after reading (blocked either way, remote on a local-only search): a page that leaves
/// out this many or fewer costs one store read.
const SEARCH_MARGIN: u64 = 10;
/// The deepest account search result shown (`offset + limit` past it is cut): what
/// [`SCAN_ROUNDS`] reads of [`SCAN_BATCH`] reach.
const SEARCH_DEPTH: u64 = SCAN_BATCH * SCAN_ROUNDS as u64;

/// The discovery area: the stores it reads, the visibility rule its pages go through, and this
/// server's domain.
pub struct Discovery<'a> {
    accounts: &'a dyn AccountStore,
    directory: &'a dyn DirectoryStore,
    follows: &'a dyn FollowStore,
    notes: &'a dyn AccountNoteStore,
    blocks: &'a dyn BlockStore,
    domain_blocks: &'a dyn DomainBlockStore,
    statuses: &'a dyn StatusStore,
    interactions: &'a dyn InteractionStore,
    visibility: VisibilityRule<'a>,
    /// This server's domain: `user@domain` with it searches local accounts.
    domain: &'a str,
}

impl<'a> Discovery<'a> {
    /// The area over `store`, filtering through `visibility`, on the server of `domain`.
    pub fn new(store: &'a dyn Store, visibility: VisibilityRule<'a>, domain: &'a str) -> Self {
        Discovery {
            accounts: store,
            directory: store,
            follows: store,
            notes: store,
            blocks: store,
            domain_blocks: store,
            statuses: store,
            interactions: store,
            visibility,
            domain,
        }
    }

    /// Accounts matching `q`: a leading `@` is dropped; `user@domain` searches that domain only
    /// (this server's domain meaning local accounts); the text matches the start of a username or
    /// any part of a display name; exact username matches first, then (for a signed-in
    /// `viewer`) accounts it follows, then the rest. Suspended accounts, and for a signed-in
    /// `viewer` accounts blocked either way, are left out; `following` needs a viewer (without one it finds
    /// nothing). Nothing is fetched from other servers here (see `App::resolve_account_query`).
    ///
    /// One store read of the matches (`offset + limit` and [`SEARCH_MARGIN`] more), and for a
    /// signed-in viewer not asking `following` one of the matches it follows; more only when
    /// more than the margin are left out. The blocks of a viewer are read for what each read
    /// found, unless the store tells that it has none. Results past [`SEARCH_DEPTH`] are not
    /// shown.
    pub async fn search_accounts(
        &self,
        viewer: Option<&AccountRecord>,
        query: SearchQuery,
    ) -> ApiResult<Vec<AccountRecord>> {
        let q = query.q.trim();
        let q = q.strip_prefix('@').unwrap_or(q);
        let (text, domain) = match q.split_once('@') {
            Some((u, d)) if !d.trim().is_empty() => (u, Some(d.trim().to_ascii_lowercase())),
            Some((u, _)) => (u, None),
            None => (q, None),
        };
        let text = text.trim().to_lowercase();
        if text.is_empty() || query.limit == 0 || (query.following && viewer.is_none()) {
            return Ok(vec![]);
        }
        let local_only = domain
            .as_deref()
            .is_some_and(|d| d.eq_ignore_ascii_case(self.domain));
        let search = AccountSearch {
            text,
            domain: if local_only { None } else { domain },
            followed_by: viewer.filter(|_| query.following).map(|v| v.id),
            offset: 0,
            limit: 0,
        };
        let want = query.offset.saturating_add(query.limit).min(SEARCH_DEPTH);
        let exact_name = search.text.clone();
        let is_exact = |a: &AccountRecord| a.username.to_lowercase() == exact_name;
        // Whose blocks leave accounts out: none when the viewer has no block either way (the
        // cached store tells without a read, for most accounts).
        let screened = match viewer {
            Some(v) if self.blocks.has_relations(v.id).await? => Some(v),
            _ => None,
        };
        let mut kept = self
            .search_shown(screened, search.clone(), want, local_only)
            .await?;
        // Ranked as Mastodon ranks them: exact matches first, then accounts the viewer follows,
        // then the rest, each part in the store's order. The followed accounts are read apart
        // (the first `want` of them), so every page of a query sees the same order.
        if let Some(v) = viewer
            && !query.following
        {
            let followed_search = AccountSearch {
                followed_by: Some(v.id),
                ..search
            };
            let followed = self
                .search_shown(screened, followed_search, want, local_only)
                .await?;
            let followed_ids: Vec<Id> = followed.iter().map(|a| a.id).collect();
            let (exact, rest): (Vec<AccountRecord>, Vec<AccountRecord>) =
                kept.into_iter().partition(|a| is_exact(a));
            kept = exact
                .into_iter()
                .chain(followed.into_iter().filter(|a| !is_exact(a)))
                .chain(rest.into_iter().filter(|a| !followed_ids.contains(&a.id)))
                .collect();
        }
        Ok(kept
            .into_iter()
            .skip(query.offset as usize)
            .take(query.limit as usize)
            .collect())
    }

    /// The first `want` accounts `search` finds (in the store's order, from the first) that are
    /// shown: not blocked either way with `screened` (when given), and local for a `local_only`
    /// search; fewer when the store has no more. One store read of `want` and [`SEARCH_MARGIN`] more, and
    /// only when more than the margin were left out, further reads of [`SCAN_BATCH`] (up to
    /// [`SCAN_ROUNDS`] reads in all).
    async fn search_shown(
        &self,
        screened: Option<&AccountRecord>,
        mut search: AccountSearch,
        want: u64,
        local_only: bool,
    ) -> ApiResult<Vec<AccountRecord>> {
        search.offset = 0;
        search.limit = want.saturating_add(SEARCH_MARGIN);
        let mut kept: Vec<AccountRecord> = Vec::new();
        for _ in 0..SCAN_ROUNDS {
            let batch = self.directory.search_accounts(&search).await?;
            let n = batch.len() as u64;
            let hidden = match screened {
                Some(v) if n > 0 => {
                    let ids: Vec<Id> = batch.iter().map(|a| a.id).collect();
                    self.blocks.blocked_either_way(v.id, &ids).await?
                }
                _ => vec![],
            };
            kept.extend(
                batch
                    .into_iter()
                    .filter(|a| !hidden.contains(&a.id) && (!local_only || a.is_local())),
            );
            if kept.len() as u64 >= want || n < search.limit {
                break;
            }
            search.offset += n;
            search.limit = SCAN_BATCH;
        }
        Ok(kept)
    }

    /// The profile directory: discoverable, unsuspended accounts (local ones confirmed and
    /// approved), local only if asked, by recent posting or by creation. With a caller, accounts
    /// blocked either way or muted by the caller are left out (offset counts what is shown).
    pub async fn directory(
        &self,
        viewer: Option<&AccountRecord>,
        order: DirectoryOrder,
        local_only: bool,
        offset: u64,
        limit: u64,
    ) -> ApiResult<Vec<AccountRecord>> {
        let Some(v) = viewer else {
            return Ok(self
                .directory
                .directory(order, local_only, offset, limit)
                .await?);
        };
        let want = (offset + limit) as usize;
        let mut kept: Vec<AccountRecord> = Vec::new();
        let mut read = 0u64;
        for _ in 0..SCAN_ROUNDS {
            let batch = self
                .directory
                .directory(order, local_only, read, SCAN_BATCH)
                .await?;
            let n = batch.len() as u64;
            let ids: Vec<Id> = batch.iter().map(|a| a.id).collect();
            let hidden = self.visibility.hidden_for(v, &ids).await?;
            kept.extend(batch.into_iter().filter(|a| !hidden.contains(&a.id)));
            read += n;
            if kept.len() >= want || n < SCAN_BATCH {
                break;
            }
        }
        Ok(kept
            .into_iter()
            .skip(offset as usize)
            .take(limit as usize)
            .collect())
    }

    /// Up to `limit` accounts to suggest to `me`: first those followed by the accounts `me`
    /// follows (most such follows first), then the most followed local accounts. Only
    /// discoverable, unsuspended accounts; never `me`, accounts `me` follows or asked to follow,
    /// accounts blocked either way, muted, on a domain `me` blocks, or dismissed.
    pub async fn suggestions(&self, me: &AccountRecord, limit: usize) -> ApiResult<Vec<Suggested>> {
        let dismissed: HashSet<Id> = self
            .notes
            .dismissed_suggestions(me.id)
            .await?
            .into_iter()
            .collect();
        // Ask for enough candidates that exclusions rarely leave the answer short.
        let fetch = (limit as u64 + dismissed.len() as u64 + me.following_count.max(0) as u64 + 40)
            .min(1000);
        let mut order: Vec<(Id, Vec<SuggestionSource>)> = Vec::new();
        let mut add =
            |id: Id, source: SuggestionSource| match order.iter_mut().find(|(i, _)| *i == id) {
                Some((_, sources)) => sources.push(source),
                None => order.push((id, vec![source])),
            };
        for (id, _) in self.follows.friends_of_friends(me.id, fetch).await? {
            add(id, SuggestionSource::FriendsOfFriends);
        }
        for id in self.directory.most_followed_local(fetch).await? {
            add(id, SuggestionSource::MostFollowed);
        }
        order.retain(|(id, _)| *id != me.id && !dismissed.contains(id));
        let ids: Vec<Id> = order.iter().map(|(id, _)| *id).collect();
        let hidden = self.visibility.hidden_for(me, &ids).await?;
        let records = self.accounts.accounts_by_ids(&ids).await?;
        let mut out = Vec::new();
        for (id, sources) in order {
            if out.len() >= limit {
                break;
            }
            if hidden.contains(&id) {
                continue;
            }
            let Some(account) = records.iter().find(|a| a.id == id) else {
                continue;
            };
            if account.is_suspended() || account.discoverable != Some(true) {
                continue;
            }
            if self.follows.follows(me.id, id).await?
                || self.follows.follow_requested(me.id, id).await?
            {
                continue;
            }
            if let Some(domain) = &account.domain
                && self
                    .domain_blocks
                    .domain_blocked(me.id, &domain.to_ascii_lowercase())
                    .await?
            {
                continue;
            }
            out.push(Suggested {
                account: account.clone(),
                sources,
            });
        }
        Ok(out)
    }

    /// `me` no longer wants `target` suggested; 404 for an unknown account. Idempotent.
    pub async fn dismiss_suggestion(&self, me: &AccountRecord, target_id: Id) -> ApiResult<()> {
        let target = self
            .accounts
            .account_by_id(target_id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        self.notes.dismiss_suggestion(me.id, target.id).await?;
        Ok(())
    }

    /// One page of an account's statuses as `viewer` may see them: the author sees all of them;
    /// followers public, unlisted and followers-only ones; others public and unlisted ones; anyone
    /// also those that mention them. Reblogs are shown when their original may be seen too, and
    /// not when the original's author is blocked either way or muted by the viewer. `pinned`
    /// lists the pinned statuses the viewer may see, newest pin first (cursors, when given, bound
    /// the status ids). Empty for a suspended account, for an account that blocks the viewer or
    /// that the viewer blocks, and for a remote account on a domain the viewer blocks. 404 for an
    /// unknown account.
    pub async fn account_statuses(
        &self,
        viewer: Option<&AccountRecord>,
        account_id: Id,
        query: AccountStatusesQuery,
        page: Page,
    ) -> ApiResult<StatusPage> {
        let empty = StatusPage::default();
        let author = self
            .accounts
            .account_by_id(account_id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        if author.is_suspended() {
            return Ok(empty);
        }
        let tagged = match &query.tagged {
            None => None,
            Some(t) => {
                let t = content::normalize_tag(t.trim().trim_start_matches('#'));
                if t.is_empty() {
                    return Ok(empty);
                }
                Some(t)
            }
        };
        if let Some(v) = viewer
            && v.id != author.id
        {
            if !self
                .blocks
                .blocked_either_way(v.id, &[author.id])
                .await?
                .is_empty()
            {
                return Ok(empty);
            }
            if let Some(domain) = &author.domain
                && self
                    .domain_blocks
                    .domain_blocked(v.id, &domain.to_ascii_lowercase())
                    .await?
            {
                return Ok(empty);
            }
        }
        if query.pinned {
            return self
                .pinned_statuses(viewer, &author, &query, tagged.as_deref(), page)
                .await;
        }
        let (visibilities, or_mentioning) = self
            .visibility
            .readable_visibilities(viewer, &author)
            .await?;
        let filter = AccountStatusesFilter {
            visibilities,
            or_mentioning,
            exclude_replies: query.exclude_replies,
            only_media: query.only_media,
            tagged,
            exclude_reblogs: query.exclude_reblogs,
        };
        let statuses = self
            .statuses
            .account_statuses(author.id, &filter, page)
            .await?;
        let (first, last) = (
            statuses.first().map(|s| s.id),
            statuses.last().map(|s| s.id),
        );
        let mut loaded = Loaded::default();
        let statuses = self
            .visibility
            .with_visible_originals(viewer, statuses, &mut loaded)
            .await?;
        let statuses = self
            .without_hidden_originals(viewer, statuses, &loaded)
            .await?;
        Ok(StatusPage {
            statuses,
            first,
            last,
            loaded,
        })
    }

    /// `author`'s pinned statuses that `viewer` may see, newest pin first, with the other filters
    /// of the query applied (pins are never reblogs); the page's cursors bound the status ids.
    async fn pinned_statuses(
        &self,
        viewer: Option<&AccountRecord>,
        author: &AccountRecord,
        query: &AccountStatusesQuery,
        tagged: Option<&str>,
        page: Page,
    ) -> ApiResult<StatusPage> {
        let ids: Vec<Id> = self
            .interactions
            .pinned_status_ids(author.id)
            .await?
            .into_iter()
            .filter(|id| page.contains(*id))
            .collect();
        let statuses: Vec<_> = self
            .visibility
            .visible_statuses(viewer, &ids)
            .await?
            .into_iter()
            .filter(|s| {
                s.account_id == author.id
                    && !(query.exclude_replies && s.is_reply_to_other())
                    && (!query.only_media || s.has_media())
                    && tagged.is_none_or(|t| s.tags.iter().any(|x| x == t))
            })
            .take(page.limit)
            .collect();
        Ok(StatusPage {
            first: statuses.first().map(|s| s.id),
            last: statuses.last().map(|s| s.id),
            statuses,
            loaded: Default::default(),
        })
    }

    /// Leaves out the reblogs whose original's author is hidden from `viewer` (blocked either way
    /// or muted); no-op for anonymous readers.
    async fn without_hidden_originals(
        &self,
        viewer: Option<&AccountRecord>,
        statuses: Vec<StatusRecord>,
        loaded: &Loaded,
    ) -> ApiResult<Vec<StatusRecord>> {
        let Some(v) = viewer else {
            return Ok(statuses);
        };
        let originals: Vec<Id> = statuses.iter().filter_map(|s| s.reblog_of_id).collect();
        if originals.is_empty() {
            return Ok(statuses);
        }
        let missing = loaded.missing_statuses(originals.iter().copied());
        let read = if missing.is_empty() {
            vec![]
        } else {
            self.statuses.statuses_by_ids(&missing).await?
        };
        let authors: std::collections::HashMap<Id, Id> = originals
            .iter()
            .filter_map(|o| loaded.statuses.get(o))
            .chain(&read)
            .map(|s| (s.id, s.account_id))
            .collect();
        let mut author_ids: Vec<Id> = authors.values().copied().collect();
        author_ids.sort();
        author_ids.dedup();
        let hidden = self.visibility.hidden_for(v, &author_ids).await?;
        Ok(statuses
            .into_iter()
            .filter(|s| {
                s.reblog_of_id
                    .is_none_or(|o| authors.get(&o).is_some_and(|a| !hidden.contains(a)))
            })
            .collect())
    }
}

/// The `limit` of an offset-paginated list: missing or 0 means `default`, otherwise
/// `min(|limit|, max)`, as for cursor pages.
pub fn offset_limit(limit: Option<i64>, default: u64, max: u64) -> u64 {
    match limit {
        None | Some(0) => default,
        Some(n) => n.unsigned_abs().min(max),
    }
}

/// An `offset` parameter: missing or negative means 0.
pub fn offset_of(offset: Option<i64>) -> u64 {
    offset.unwrap_or(0).max(0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::relationships::FollowOptions;
    use crate::test_support::{account, app};
    use crate::{App, InstanceConfig, MemoryStore, StoreResult};
    use async_trait::async_trait;
    use std::sync::{Arc, Mutex};

    /// A [`MemoryStore`] that records the account searches asked of it.
    #[derive(Default)]
    struct Recording {
        inner: MemoryStore,
        searches: Mutex<Vec<AccountSearch>>,
    }

    impl Recording {
        /// The searches asked since the last call, oldest first.
        fn take(&self) -> Vec<AccountSearch> {
            std::mem::take(&mut *self.searches.lock().expect("searches"))
        }
    }

    crate::delegate_store!(Recording => inner:
        AccountStore, OAuthStore, StatusStore, FollowStore, BlockStore, FeedStore, StatsStore,
        JobStore, ScheduledStatusStore, AccountNoteStore, DomainBlockStore, TagStore,
        InteractionStore, StatusEditStore, PollStore, MediaStore, NotificationStore,
        MarkerStore, ListStore, FilterStore, ConversationStore, LinkStore,
        NotificationPolicyStore, FederationStore);

    #[async_trait]
    impl DirectoryStore for Recording {
        async fn search_accounts(&self, search: &AccountSearch) -> StoreResult<Vec<AccountRecord>> {
            self.searches.lock().expect("searches").push(search.clone());
            self.inner.search_accounts(search).await
        }

        async fn directory(
            &self,
            order: DirectoryOrder,
            local_only: bool,
            offset: u64,
            limit: u64,
        ) -> StoreResult<Vec<AccountRecord>> {
            self.inner.directory(order, local_only, offset, limit).await
        }

        async fn most_followed_local(&self, limit: u64) -> StoreResult<Vec<Id>> {
            self.inner.most_followed_local(limit).await
        }
    }

    /// `viewer`'s search of `q` (`following` false) from `offset`, `limit` results.
    async fn search_page(
        app: &App,
        viewer: Option<&AccountRecord>,
        q: &str,
        offset: u64,
        limit: u64,
    ) -> Vec<AccountRecord> {
        let query = SearchQuery {
            q: q.into(),
            following: false,
            offset,
            limit,
        };
        app.discovery()
            .search_accounts(viewer, query)
            .await
            .expect("search")
    }

    /// A page of an account search costs one store read of `offset + limit` and a margin of
    /// ten (and, for a signed-in viewer, one of the accounts it follows), not batches; when
    /// more than the margin are left out (blocks), it reads on and the page is still whole and
    /// in the same order.
    #[tokio::test]
    async fn a_search_page_is_one_read_of_the_page_and_a_margin() {
        let store = Arc::new(Recording::default());
        let mut config = InstanceConfig::new("local.test");
        config.password_hash_memory_kib = 64;
        let app = App::new(store.clone(), config);
        let me = account(&app, "me").await;
        let mut named = Vec::new();
        for n in 0..70 {
            named.push(account(&app, &format!("kit{n:02}")).await);
        }
        let relationships = app.relationships();
        for n in [5, 50] {
            relationships
                .follow(&me, named[n].id, FollowOptions::default())
                .await
                .expect("follow");
        }
        // The accounts followed first (by followers, one each, then by id), then the others by
        // id (no followers).
        let all = search_page(&app, Some(&me), "kit", 0, 80).await;
        store.take();
        let expected_order: Vec<String> = [5, 50]
            .into_iter()
            .chain((0..70).filter(|n| ![5, 50].contains(n)))
            .map(|n| format!("kit{n:02}"))
            .collect();
        assert_eq!(names(&all), expected_order);

        let anyone = search_page(&app, None, "kit", 0, 40).await;
        assert_eq!(anyone.len(), 40);
        let reads = store.take();
        assert_eq!(reads.len(), 1, "{reads:?}");
        assert_eq!((reads[0].offset, reads[0].limit), (0, 50));
        assert_eq!(reads[0].followed_by, None);

        let page = search_page(&app, Some(&me), "kit", 20, 20).await;
        assert_eq!(names(&page), names(&all[20..40]));
        let reads = store.take();
        assert_eq!(reads.len(), 2, "{reads:?}");
        assert_eq!((reads[0].offset, reads[0].limit), (0, 50));
        assert_eq!(reads[0].followed_by, None);
        assert_eq!((reads[1].offset, reads[1].limit), (0, 50));
        assert_eq!(reads[1].followed_by, Some(me.id));

        // Twelve of the first accounts blocked: more than the margin, so one read more.
        for a in &named[..12] {
            app.blocks().block(&me, a.id).await.expect("block");
        }
        let page = search_page(&app, Some(&me), "kit", 0, 40).await;
        let unblocked: Vec<&AccountRecord> = all
            .iter()
            .filter(|a| !named[..12].iter().any(|b| b.id == a.id))
            .collect();
        assert_eq!(
            names(&page),
            unblocked[..40]
                .iter()
                .map(|a| a.username.as_str())
                .collect::<Vec<_>>()
        );
        let reads = store.take();
        let main: Vec<(u64, u64)> = reads
            .iter()
            .filter(|r| r.followed_by.is_none())
            .map(|r| (r.offset, r.limit))
            .collect();
        assert_eq!(main, [(0, 50), (50, SCAN_BATCH)]);
    }

    fn names(found: &[AccountRecord]) -> Vec<&str> {
        found.iter().map(|a| a.username.as_str()).collect()
    }

    #[tokio::test]
    async fn exact_matches_lead_then_the_accounts_one_follows() {
        let app = app("local.test");
        let me = account(&app, "me").await;
        let fans = [account(&app, "fan1").await, account(&app, "fan2").await];
        let mut named = std::collections::HashMap::new();
        for name in ["sam", "samantha", "sammy", "samuel"] {
            named.insert(name, account(&app, name).await);
        }
        // Without follows of mine, the store's order: the exact match, then by followers.
        let relationships = app.relationships();
        for (name, fans_of) in [("samantha", 2), ("samuel", 2)] {
            for fan in &fans[..fans_of] {
                relationships
                    .follow(fan, named[name].id, FollowOptions::default())
                    .await
                    .unwrap();
            }
        }
        relationships
            .follow(&me, named["sammy"].id, FollowOptions::default())
            .await
            .unwrap();
        let search = |viewer: Option<&AccountRecord>, following: bool, offset: u64, limit: u64| {
            let query = SearchQuery {
                q: "sam".into(),
                following,
                offset,
                limit,
            };
            let discovery = app.discovery();
            let viewer = viewer.cloned();
            async move {
                discovery
                    .search_accounts(viewer.as_ref(), query)
                    .await
                    .unwrap()
            }
        };
        let anyone = search(None, false, 0, 10).await;
        assert_eq!(names(&anyone), ["sam", "samantha", "samuel", "sammy"]);
        let mine = search(Some(&me), false, 0, 10).await;
        assert_eq!(names(&mine), ["sam", "sammy", "samantha", "samuel"]);
        // Pages agree with the whole.
        let first = search(Some(&me), false, 0, 2).await;
        let second = search(Some(&me), false, 2, 2).await;
        assert_eq!(names(&first), ["sam", "sammy"]);
        assert_eq!(names(&second), ["samantha", "samuel"]);
        let followed = search(Some(&me), true, 0, 10).await;
        assert_eq!(names(&followed), ["sammy"]);
        assert!(search(None, true, 0, 10).await.is_empty());
    }
}
