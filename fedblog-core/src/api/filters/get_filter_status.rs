//! `GET /api/v2/filters/statuses/:id`: one status of the caller's filters. <https://docs.joinmastodon.org/methods/filters/#statuses-get-one>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::FilterStatus;
use crate::error::ApiResult;
use crate::render::render_filter_status;

/// One status of the caller's filters.
pub struct GetFilterStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetFilterStatusRequest {
    /// Filter status id (path).
    pub id: String,
}

impl Endpoint for GetFilterStatus {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2/filters/statuses/:id";
    const AUTH: Auth = Auth::User("read:filters");
    type Request = GetFilterStatusRequest;
    type Response = Json<FilterStatus>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetFilterStatusRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let f = app.filters().own_filter_status(me, path_id(&r.id)?).await?;
        Ok(Json(render_filter_status(&f)))
    }
}
