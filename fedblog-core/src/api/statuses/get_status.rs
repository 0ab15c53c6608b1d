//! `GET /api/v1/statuses/:id`: one status. <https://docs.joinmastodon.org/methods/statuses/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::{ApiError, ApiResult};

/// Returns a status the caller may see; 404 otherwise.
pub struct GetStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetStatusRequest {
    /// Status id (path).
    pub id: String,
}

impl Endpoint for GetStatus {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/statuses/:id";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = GetStatusRequest;
    type Response = Json<Status>;

    async fn handle(app: &App, caller: &Caller, r: GetStatusRequest) -> ApiResult<Self::Response> {
        let status = app
            .visible_status(caller.account.as_ref(), path_id(&r.id)?)
            .await?;
        let mut out = app
            .render_statuses(&[status], caller.account.as_ref(), false)
            .await?;
        out.pop().map(Json).ok_or_else(ApiError::not_found)
    }
}
