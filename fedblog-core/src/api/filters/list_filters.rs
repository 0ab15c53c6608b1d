//! `GET /api/v2/filters`: the caller's filters (expired ones too), each with its keywords and statuses. <https://docs.joinmastodon.org/methods/filters/#get>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::Filter;
use crate::error::ApiResult;
use crate::render::render_filter;

/// The caller's filters (expired ones too), each with its keywords and statuses.
pub struct ListFilters;

impl Endpoint for ListFilters {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2/filters";
    const AUTH: Auth = Auth::User("read:filters");
    type Request = NoParams;
    type Response = Json<Vec<Filter>>;

    async fn handle(app: &App, caller: &Caller, _: NoParams) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let filters = app.filters().filters(me).await?;
        Ok(Json(
            filters.iter().map(|f| render_filter(f, true)).collect(),
        ))
    }
}
