//! `GET /api/v2/filters/:id`: one of the caller's filters (another account's is a 404). <https://docs.joinmastodon.org/methods/filters/#get-one>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Filter;
use crate::error::ApiResult;
use crate::render::render_filter;

/// One of the caller's filters (another account's is a 404).
pub struct GetFilter;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetFilterRequest {
    /// Filter id (path).
    pub id: String,
}

impl Endpoint for GetFilter {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2/filters/:id";
    const AUTH: Auth = Auth::User("read:filters");
    type Request = GetFilterRequest;
    type Response = Json<Filter>;

    async fn handle(app: &App, caller: &Caller, r: GetFilterRequest) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let f = app.filters().own_filter(me, path_id(&r.id)?).await?;
        Ok(Json(render_filter(&f, true)))
    }
}
