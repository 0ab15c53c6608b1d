//! `GET /api/v2/filters/:filter_id/statuses`: the statuses of one of the caller's filters. <https://docs.joinmastodon.org/methods/filters/#statuses-get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::FilterStatus;
use crate::error::ApiResult;
use crate::render::render_filter_status;

/// The statuses of one of the caller's filters.
pub struct ListFilterStatuses;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListFilterStatusesRequest {
    /// Filter id (path).
    pub filter_id: String,
}

impl Endpoint for ListFilterStatuses {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2/filters/:filter_id/statuses";
    const AUTH: Auth = Auth::User("read:filters");
    type Request = ListFilterStatusesRequest;
    type Response = Json<Vec<FilterStatus>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListFilterStatusesRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let f = app.filters().own_filter(me, path_id(&r.filter_id)?).await?;
        Ok(Json(f.statuses.iter().map(render_filter_status).collect()))
    }
}
