//! `GET /api/v2/filters/keywords/:id`: one keyword of the caller's filters. <https://docs.joinmastodon.org/methods/filters/#keywords-get-one>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::FilterKeyword;
use crate::error::ApiResult;
use crate::render::render_filter_keyword;

/// One keyword of the caller's filters.
pub struct GetFilterKeyword;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetFilterKeywordRequest {
    /// Keyword id (path).
    pub id: String,
}

impl Endpoint for GetFilterKeyword {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2/filters/keywords/:id";
    const AUTH: Auth = Auth::User("read:filters");
    type Request = GetFilterKeywordRequest;
    type Response = Json<FilterKeyword>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetFilterKeywordRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let k = app
            .filters()
            .own_filter_keyword(me, path_id(&r.id)?)
            .await?;
        Ok(Json(render_filter_keyword(&k)))
    }
}
