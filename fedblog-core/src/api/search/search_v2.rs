//! `GET /api/v2/search`: Accounts, hashtags and statuses matching `q`. <https://docs.joinmastodon.org/methods/search/#v2>

use http::{Method, StatusCode};
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Search;
use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::params::de;
use crate::services::discovery::{SearchQuery, offset_limit, offset_of};
use crate::services::search::StatusSearchParams;
use crate::store::{AccountRecord, StatusRecord};

/// Accounts, hashtags (as `Tag` objects) and statuses matching `q`, 20 of each by default, 40
/// at most, `offset` to skip; `type` (`accounts`, `hashtags`, `statuses`) keeps one kind.
///
/// - **Accounts** as `GET /api/v1/accounts/search` finds them (`following` too), for anyone.
/// - **Hashtags** whose name starts with `q` (a leading `#` dropped), the exact one first.
/// - **Statuses**: the post whose URL `q` is, when the caller may see it; and for a signed-in
///   caller, the full-text search of [`Search::statuses`](crate::services::search::Search::statuses)
///   (words, phrases, exclusions and operators), newest first, `account_id` restricting it to
///   one author and `max_id` / `min_id` paging it.
/// - With `resolve` (signed in only), a handle or URL is looked up on its server when not known
///   here.
///
/// Without a token, search works but `offset` is a 401 (no pagination, as the specification
/// says) and so is `resolve`, and statuses are found by URL only (as Mastodon). A missing `q`
/// is a 400. `exclude_unreviewed` is accepted; hashtags have no review yet, so every tag is
/// shown.
pub struct SearchV2;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SearchV2Request {
    /// The query.
    #[serde(deserialize_with = "de::opt_string")]
    pub q: Option<String>,
    /// `accounts`, `hashtags` or `statuses`: only that kind.
    #[serde(rename = "type", deserialize_with = "de::opt_string")]
    pub kind: Option<String>,
    /// Look a handle or URL up on its server (signed in only).
    #[serde(deserialize_with = "de::bool")]
    pub resolve: bool,
    /// Only accounts the caller follows.
    #[serde(deserialize_with = "de::bool")]
    pub following: bool,
    /// Only statuses by this account.
    #[serde(deserialize_with = "de::opt_string")]
    pub account_id: Option<String>,
    /// Leave out hashtags not reviewed (no review exists yet: every tag is shown).
    #[serde(deserialize_with = "de::bool")]
    pub exclude_unreviewed: bool,
    /// Statuses older than this id.
    #[serde(deserialize_with = "de::opt_string")]
    pub max_id: Option<String>,
    /// Statuses newer than this id.
    #[serde(deserialize_with = "de::opt_string")]
    pub min_id: Option<String>,
    /// How many of each kind.
    #[serde(deserialize_with = "de::opt_i64")]
    pub limit: Option<i64>,
    /// How many of each kind to skip.
    #[serde(deserialize_with = "de::opt_i64")]
    pub offset: Option<i64>,
}

impl Endpoint for SearchV2 {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2/search";
    const AUTH: Auth = Auth::Optional("read:search");
    type Request = SearchV2Request;
    type Response = Json<Search>;

    async fn handle(app: &App, caller: &Caller, r: SearchV2Request) -> ApiResult<Json<Search>> {
        let q = r
            .q
            .as_deref()
            .map(str::trim)
            .filter(|q| !q.is_empty())
            .ok_or_else(|| ApiError::bad_request("param is missing or the value is empty: q"))?;
        let viewer = caller.account.as_ref();
        if viewer.is_none() {
            if r.offset.is_some() {
                return Err(ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "Search queries pagination is not supported without authentication",
                ));
            }
            if r.resolve {
                return Err(ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "Search queries that resolve remote resources are not supported without authentication",
                ));
            }
        }
        let wants = |kind: &str| r.kind.as_deref().is_none_or(|k| k == kind);
        let limit = offset_limit(r.limit, 20, 40);
        let offset = offset_of(r.offset);

        let mut accounts: Vec<AccountRecord> = vec![];
        if wants("accounts") {
            let resolved = match viewer {
                Some(me) if r.resolve => app.resolve_account_query(me, q).await?,
                _ => None,
            };
            let query = SearchQuery {
                q: q.to_string(),
                following: r.following,
                offset,
                limit,
            };
            accounts = app.discovery().search_accounts(viewer, query).await?;
            if let Some(account) = resolved
                && offset == 0
            {
                accounts.retain(|a| a.id != account.id);
                accounts.insert(0, account);
                accounts.truncate(limit as usize);
            }
        }

        let mut statuses: Vec<StatusRecord> = vec![];
        if wants("statuses") {
            if offset == 0 {
                statuses.extend(status_named(app, viewer, q, r.resolve).await?);
            }
            if let Some(me) = viewer {
                let params = StatusSearchParams {
                    account_id: match r.account_id.as_deref().map(str::parse) {
                        Some(Ok(id)) => Some(id),
                        // No account has that id: no status is by it.
                        Some(Err(_)) => Some(Id(0)),
                        None => None,
                    },
                    max_id: r.max_id.as_deref().and_then(|id| id.parse().ok()),
                    min_id: r.min_id.as_deref().and_then(|id| id.parse().ok()),
                    offset,
                    limit: limit.saturating_sub(statuses.len() as u64),
                };
                statuses.extend(app.search().statuses(me, q, params).await?);
            }
        }

        let mut hashtags = vec![];
        if wants("hashtags") {
            let tags = app.tags().search_hashtags(q, offset, limit).await?;
            hashtags = app.tags().tag_views(&tags, viewer).await?;
        }

        let statuses = app.render_statuses(&statuses, viewer, false).await?;
        Ok(Json(app.render_search(&accounts, statuses, &hashtags)))
    }
}

/// The status the URL `q` names, if the viewer may see it: known here, or with `resolve`
/// fetched from its server.
async fn status_named(
    app: &App,
    viewer: Option<&AccountRecord>,
    q: &str,
    resolve: bool,
) -> ApiResult<Option<StatusRecord>> {
    if !(q.starts_with("https://") || q.starts_with("http://")) {
        return Ok(None);
    }
    let found = if resolve && viewer.is_some() {
        match app.status_at_url(q).await {
            Ok(status) => Some(status),
            Err(e) if e.status == StatusCode::NOT_FOUND => None,
            Err(e) => return Err(e),
        }
    } else {
        app.remote().status_by_uri(q).await?
    };
    let Some(status) = found else {
        return Ok(None);
    };
    match app.visibility().visible_status(viewer, status.id).await {
        Ok(visible) => Ok(Some(visible)),
        Err(e) if e.status == StatusCode::NOT_FOUND => Ok(None),
        Err(e) => Err(e),
    }
}
