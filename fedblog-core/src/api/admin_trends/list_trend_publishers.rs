//! `GET /api/v1/admin/trends/links/publishers`: the publishers of links (preview card providers), as staff see them; none while fedblog makes no preview cards.

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};

/// The publishers of links (Mastodon's preview card providers: `id`, `domain`, `trendable`,
/// `requires_review`; 100 by default, paginated by id). fedblog makes no preview cards yet, so the list is
/// empty. Needs the `admin:read` scope and a role that manages taxonomies. Mastodon serves this
/// route without documenting it.
pub struct ListTrendPublishers;

impl Endpoint for ListTrendPublishers {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/trends/links/publishers";
    const AUTH: Auth = Auth::User("admin:read");
    type Request = NoParams;
    type Response = Json<Vec<serde_json::Value>>;

    async fn handle(_app: &App, caller: &Caller, _r: NoParams) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_TAXONOMIES)?;
        Ok(Json(vec![]))
    }
}
