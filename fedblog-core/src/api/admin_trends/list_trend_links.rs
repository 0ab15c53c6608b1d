//! `GET /api/v1/admin/trends/links`: the links shared this week, as staff see them; none while fedblog makes no preview cards. <https://docs.joinmastodon.org/methods/admin/trends/#links>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};

use super::TrendsPageRequest;

/// The links shared the most (Mastodon's `Trends::Link`, a preview card with its history),
/// reviewed or not. fedblog makes no preview cards yet, so the list is empty. Needs the
/// `admin:read` scope and a role that manages taxonomies.
/// <https://docs.joinmastodon.org/methods/admin/trends/#links>
pub struct ListTrendLinks;

impl Endpoint for ListTrendLinks {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/trends/links";
    const AUTH: Auth = Auth::User("admin:read");
    type Request = TrendsPageRequest;
    type Response = Json<Vec<serde_json::Value>>;

    async fn handle(
        _app: &App,
        caller: &Caller,
        _r: TrendsPageRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_TAXONOMIES)?;
        Ok(Json(vec![]))
    }
}
