//! Full-text search of statuses: the text the index keeps of each status (written with every
//! post and edit, local or remote), and a query read for one searcher, whose results pass the
//! visibility rule and the searcher's blocks, mutes and domain blocks. An area service, reached
//! as `app.search()`; indexing is a part of posting and editing (`StatusAreas::search`).
//!
//! The store decides which statuses a searcher's query reaches (its own, those it interacted
//! with, public statuses of `indexable` authors: see [`StatusSearch`]); this area decides who
//! may see what it found, as every other read does.

use std::collections::HashMap;

use chrono::{DateTime, Days, NaiveDate, Utc};

use crate::content;
use crate::error::ApiResult;
use crate::id::Id;
use crate::loaded::Loaded;
use crate::search_query::{self, Author, FilterKind, StatusQuery};
use crate::services::visibility::VisibilityRule;
use crate::store::{
    AccountRecord, AccountStore, MediaStore, PollStore, SearchCondition, SearchConditionKind,
    SearchDocument, StatusRecord, StatusSearch, StatusStore, Store,
};

/// The searchable text of a status: its content warning, its text (as plain text), the
/// descriptions of its media and the options of its poll, one paragraph each.
pub fn document(
    status: &StatusRecord,
    media: &[String],
    poll_options: &[String],
) -> SearchDocument {
    let mut parts: Vec<String> = vec![];
    if !status.spoiler_text.is_empty() {
        parts.push(status.spoiler_text.clone());
    }
    parts.push(content::html_to_plain(&status.content));
    parts.extend(media.iter().filter(|d| !d.is_empty()).cloned());
    parts.extend(poll_options.iter().cloned());
    SearchDocument {
        status_id: status.id,
        text: parts.join("\n\n"),
        language: status.language.clone(),
    }
}

/// Keeping the index up to date with posts and edits: a part of [`StatusAreas`](super::statuses::StatusAreas).
pub struct SearchIndexing<'a> {
    statuses: &'a dyn StatusStore,
    media: &'a dyn MediaStore,
    polls: &'a dyn PollStore,
}

impl<'a> SearchIndexing<'a> {
    /// The area over `store`.
    pub fn new(store: &'a dyn Store) -> Self {
        SearchIndexing {
            statuses: store,
            media: store,
            polls: store,
        }
    }

    /// Puts a status just posted or edited (its media and poll stored) into the index. A
    /// failure is logged, not returned: the status is stored, and `search reindex` repairs
    /// the index.
    pub(crate) async fn index(&self, status: &StatusRecord) -> ApiResult<()> {
        if status.reblog_of_id.is_some() {
            return Ok(());
        }
        for doc in self.documents(std::slice::from_ref(status)).await? {
            self.index_document(doc).await;
        }
        Ok(())
    }

    /// Writes the document of a status whose media and poll the caller already holds (a post
    /// just made), without reading them again; a failure is logged, as in [`Self::index`].
    pub(crate) async fn index_document(&self, doc: SearchDocument) {
        let id = doc.status_id;
        if let Err(e) = self.statuses.index_statuses(&[doc]).await {
            tracing::error!(status = %id, error = %e, "the search index could not be updated");
        }
    }

    /// The documents of `statuses` (reblogs left out), reading their media and polls in one
    /// batch each: what rebuilding the index writes.
    pub async fn documents(&self, statuses: &[StatusRecord]) -> ApiResult<Vec<SearchDocument>> {
        let statuses: Vec<&StatusRecord> = statuses
            .iter()
            .filter(|s| s.reblog_of_id.is_none())
            .collect();
        let media_ids: Vec<Id> = statuses.iter().flat_map(|s| s.media_ids.clone()).collect();
        let descriptions: HashMap<Id, String> = if media_ids.is_empty() {
            HashMap::new()
        } else {
            self.media
                .media_by_ids(&media_ids)
                .await?
                .into_iter()
                .filter_map(|m| Some((m.id, m.description?)))
                .collect()
        };
        let ids: Vec<Id> = statuses.iter().map(|s| s.id).collect();
        let mut options: HashMap<Id, Vec<String>> = HashMap::new();
        if !ids.is_empty() {
            for poll in self.polls.polls_by_status_ids(&ids).await? {
                options
                    .entry(poll.status_id)
                    .or_default()
                    .extend(poll.options);
            }
        }
        Ok(statuses
            .into_iter()
            .map(|s| {
                let media: Vec<String> = s
                    .media_ids
                    .iter()
                    .filter_map(|m| descriptions.get(m).cloned())
                    .collect();
                let poll = options.get(&s.id).map(Vec::as_slice).unwrap_or_default();
                document(s, &media, poll)
            })
            .collect())
    }
}

/// A status search as the API receives it (`q` aside).
#[derive(Clone, Debug, Default)]
pub struct StatusSearchParams {
    /// Only statuses by this account.
    pub account_id: Option<Id>,
    /// Only statuses with a smaller id.
    pub max_id: Option<Id>,
    /// Only statuses with a larger id.
    pub min_id: Option<Id>,
    /// How many of the newest to skip.
    pub offset: u64,
    /// How many.
    pub limit: u64,
}

/// The search area: `app.search()`.
pub struct Search<'a> {
    store: &'a dyn Store,
    visibility: VisibilityRule<'a>,
    domain: &'a str,
}

impl<'a> Search<'a> {
    /// The area over `store`, filtering through `visibility`, for the server at `domain`.
    pub fn new(store: &'a dyn Store, visibility: VisibilityRule<'a>, domain: &'a str) -> Self {
        Search {
            store,
            visibility,
            domain,
        }
    }

    /// The statuses matching the full-text query `q` that `me` may see, newest first.
    ///
    /// As Mastodon, nothing is searched for a query that is a single hashtag or names an
    /// account (`#tag`, `@user`, `user@host`, without a space) or is a URL, and a query with
    /// an operator value it does not know finds nothing, as does one that asks nothing (only
    /// exclusions or `in:`). Dates are days in UTC.
    pub async fn statuses(
        &self,
        me: &AccountRecord,
        q: &str,
        params: StatusSearchParams,
    ) -> ApiResult<Vec<StatusRecord>> {
        let q = q.trim();
        let single = !q.contains(char::is_whitespace);
        if (single && (q.starts_with('#') || q.contains('@')))
            || q.starts_with("https://")
            || q.starts_with("http://")
            || params.limit == 0
        {
            return Ok(vec![]);
        }
        let Ok(query) = search_query::parse(q) else {
            return Ok(vec![]);
        };
        let Some(search) = self.store_search(me, &query, &params).await? else {
            return Ok(vec![]);
        };
        let ids = self.store.search_statuses(&search).await?;
        let (found, mut loaded): (Vec<StatusRecord>, Loaded) = self
            .visibility
            .visible_unhidden_statuses(Some(me), &ids)
            .await?;
        self.visibility
            .without_blocked_domains(Some(me), found, &mut loaded)
            .await
    }

    /// The store's search for `query`: `None` when it can find nothing (an unknown author, or
    /// nothing asked).
    async fn store_search(
        &self,
        me: &AccountRecord,
        query: &StatusQuery,
        params: &StatusSearchParams,
    ) -> ApiResult<Option<StatusSearch>> {
        let mut conditions = vec![];
        if let Some(account) = params.account_id {
            conditions.push(SearchCondition {
                negated: false,
                kind: SearchConditionKind::Author(account),
            });
        }
        for filter in &query.filters {
            let kind = match &filter.kind {
                FilterKind::In(_) => continue,
                FilterKind::From(Author::Me) => SearchConditionKind::Author(me.id),
                FilterKind::From(Author::Handle(handle)) => match self.account_named(handle).await?
                {
                    Some(id) => SearchConditionKind::Author(id),
                    // Nobody of that name wrote anything; excluding them excludes nothing.
                    None if filter.negated => continue,
                    None => return Ok(None),
                },
                FilterKind::Has(has) => SearchConditionKind::Has(*has),
                FilterKind::Is(is) => SearchConditionKind::Is(*is),
                FilterKind::Language(code) => SearchConditionKind::Language(code.clone()),
                FilterKind::Before(day) => SearchConditionKind::Created {
                    from: None,
                    to: Some(start_of(*day)),
                },
                FilterKind::After(day) => SearchConditionKind::Created {
                    from: day.checked_add_days(Days::new(1)).map(start_of),
                    to: None,
                },
                FilterKind::During(day) => SearchConditionKind::Created {
                    from: Some(start_of(*day)),
                    to: day.checked_add_days(Days::new(1)).map(start_of),
                },
            };
            conditions.push(SearchCondition {
                negated: filter.negated,
                kind,
            });
        }
        let asks = !query.must.is_empty() || conditions.iter().any(|c| !c.negated);
        if !asks {
            return Ok(None);
        }
        Ok(Some(StatusSearch {
            searcher: me.id,
            scope: query.scope(),
            must: query.must.clone(),
            must_not: query.must_not.clone(),
            conditions,
            max_id: params.max_id,
            min_id: params.min_id,
            offset: params.offset,
            limit: params.limit,
        }))
    }

    /// The id of the account `handle` (`user` or `user@domain`, lower case) names, if known.
    async fn account_named(&self, handle: &str) -> ApiResult<Option<Id>> {
        let (user, domain) = match handle.split_once('@') {
            Some((user, domain)) if !domain.eq_ignore_ascii_case(self.domain) => {
                (user, Some(domain))
            }
            Some((user, _)) => (user, None),
            None => (handle, None),
        };
        Ok(AccountStore::account_by_username(self.store, user, domain)
            .await?
            .map(|a| a.id))
    }
}

/// Midnight UTC at the start of `day`.
fn start_of(day: NaiveDate) -> DateTime<Utc> {
    day.and_time(chrono::NaiveTime::MIN).and_utc()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::App;
    use crate::services::edits::StatusChanges;
    use crate::test_support::{account, app, post, private_post};

    /// `me`'s search for `q`: the texts found, newest first.
    async fn found(app: &App, me: &AccountRecord, q: &str) -> Vec<String> {
        let params = StatusSearchParams {
            limit: 20,
            ..Default::default()
        };
        app.search()
            .statuses(me, q, params)
            .await
            .expect("search")
            .into_iter()
            .map(|s| s.text)
            .collect()
    }

    /// An account that lets its public statuses be found (`indexable`).
    async fn indexable(app: &App, name: &str) -> AccountRecord {
        let mut a = account(app, name).await;
        a.indexable = true;
        app.store.update_account(&a).await.expect("update");
        a
    }

    #[tokio::test]
    async fn posts_and_edits_keep_the_index_up_to_date() {
        let app = app("example.test");
        let alice = account(&app, "alice").await;
        let s = post(&app, &alice, "Hello Rust world", None).await;
        assert_eq!(found(&app, &alice, "rust").await, vec!["Hello Rust world"]);
        assert_eq!(found(&app, &alice, "\"rust world\"").await.len(), 1);
        assert!(found(&app, &alice, "\"world rust\"").await.is_empty());
        let changes = StatusChanges {
            text: "Hello Go".into(),
            ..Default::default()
        };
        app.edits()
            .edit_status(&alice, s.id, changes)
            .await
            .expect("edit");
        assert!(found(&app, &alice, "rust").await.is_empty(), "the old text");
        assert_eq!(found(&app, &alice, "go").await, vec!["Hello Go"]);
        // Poll options are searchable text too.
        let poll = json!({"options": ["marmot", "quokka"], "expires_in": 3600});
        post(&app, &alice, "Favourite animal?", Some(poll)).await;
        assert_eq!(
            found(&app, &alice, "marmot").await,
            vec!["Favourite animal?"]
        );
        app.statuses().delete_status(&s).await.expect("delete");
        assert!(
            found(&app, &alice, "go").await.is_empty(),
            "a deleted status"
        );
    }

    #[tokio::test]
    async fn what_a_searcher_finds_follows_indexable_visibility_and_mutes() {
        let app = app("example.test");
        let alice = account(&app, "alice").await;
        let bob = indexable(&app, "bob").await;
        let carol = account(&app, "carol").await;
        post(&app, &bob, "quokka public", None).await;
        private_post(&app, &bob, "quokka private").await;
        post(&app, &carol, "quokka by carol", None).await;
        // Carol did not opt in: only her own search finds her post.
        assert_eq!(found(&app, &alice, "quokka").await, vec!["quokka public"]);
        assert_eq!(
            found(&app, &carol, "quokka").await,
            vec!["quokka by carol", "quokka public"]
        );
        // A status one favourited is in one's library, even by an author who did not opt in.
        let by_carol = post(&app, &carol, "wombat by carol", None).await;
        assert!(found(&app, &alice, "wombat").await.is_empty());
        app.interactions()
            .favourite(&alice, by_carol.id)
            .await
            .expect("favourite");
        assert_eq!(found(&app, &alice, "wombat").await, vec!["wombat by carol"]);
        assert_eq!(found(&app, &alice, "wombat in:public").await.len(), 0);
        assert_eq!(found(&app, &alice, "quokka in:library").await.len(), 0);
        // Muting (and blocking) hides an author's statuses from search as from everything.
        app.blocks()
            .mute(&alice, bob.id, true, 0)
            .await
            .expect("mute");
        assert!(found(&app, &alice, "quokka").await.is_empty());
    }

    #[tokio::test]
    async fn operators_name_accounts_and_some_queries_search_nothing() {
        let app = app("example.test");
        let alice = indexable(&app, "alice").await;
        let bob = indexable(&app, "bob").await;
        post(&app, &alice, "kiwi from alice", None).await;
        post(&app, &bob, "kiwi from bob", None).await;
        assert_eq!(
            found(&app, &alice, "kiwi from:bob").await,
            vec!["kiwi from bob"]
        );
        assert_eq!(
            found(&app, &alice, "kiwi from:@bob@example.test").await,
            vec!["kiwi from bob"]
        );
        assert_eq!(
            found(&app, &bob, "kiwi from:me").await,
            vec!["kiwi from bob"]
        );
        assert_eq!(
            found(&app, &alice, "kiwi -from:bob").await,
            vec!["kiwi from alice"]
        );
        assert!(found(&app, &alice, "kiwi from:nobody").await.is_empty());
        assert_eq!(found(&app, &alice, "kiwi -from:nobody").await.len(), 2);
        // Only operators: a condition is enough; only exclusions are not.
        assert_eq!(found(&app, &alice, "from:alice").await.len(), 1);
        assert!(found(&app, &alice, "-kiwi").await.is_empty());
        // A lone hashtag or address, a URL, or a bad operator value: nothing.
        post(&app, &alice, "#kiwi season", None).await;
        assert!(found(&app, &alice, "#kiwi").await.is_empty());
        assert_eq!(found(&app, &alice, "#kiwi season").await.len(), 1);
        assert!(found(&app, &alice, "bob@example.test").await.is_empty());
        assert!(found(&app, &alice, "kiwi has:banana").await.is_empty());
        // `account_id` restricts to one author.
        let params = StatusSearchParams {
            account_id: Some(bob.id),
            limit: 20,
            ..Default::default()
        };
        let by_bob = app.search().statuses(&alice, "kiwi", params).await.unwrap();
        assert_eq!(by_bob.len(), 1);
        assert_eq!(by_bob[0].account_id, bob.id);
    }
}
