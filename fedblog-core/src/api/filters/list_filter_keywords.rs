//! `GET /api/v2/filters/:filter_id/keywords`: the keywords of one of the caller's filters. <https://docs.joinmastodon.org/methods/filters/#keywords-get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::FilterKeyword;
use crate::error::ApiResult;
use crate::render::render_filter_keyword;

/// The keywords of one of the caller's filters.
pub struct ListFilterKeywords;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListFilterKeywordsRequest {
    /// Filter id (path).
    pub filter_id: String,
}

impl Endpoint for ListFilterKeywords {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2/filters/:filter_id/keywords";
    const AUTH: Auth = Auth::User("read:filters");
    type Request = ListFilterKeywordsRequest;
    type Response = Json<Vec<FilterKeyword>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListFilterKeywordsRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let f = app.filters().own_filter(me, path_id(&r.filter_id)?).await?;
        Ok(Json(f.keywords.iter().map(render_filter_keyword).collect()))
    }
}
