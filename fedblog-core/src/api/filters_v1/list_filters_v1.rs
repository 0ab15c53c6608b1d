//! `GET /api/v1/filters`: the caller's filters as v1 filters, one per keyword. <https://docs.joinmastodon.org/methods/filters/#get-v1>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::V1Filter;
use crate::error::ApiResult;
use crate::render::render_v1_filter;

/// The caller's filters as v1 filters, one per keyword.
pub struct ListFiltersV1;

impl Endpoint for ListFiltersV1 {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/filters";
    const AUTH: Auth = Auth::User("read:filters");
    type Request = NoParams;
    type Response = Json<Vec<V1Filter>>;

    async fn handle(app: &App, caller: &Caller, _: NoParams) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let all = app.filters().v1_filters(me).await?;
        Ok(Json(
            all.iter().map(|(k, f)| render_v1_filter(k, f)).collect(),
        ))
    }
}
