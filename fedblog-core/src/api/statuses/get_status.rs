//! `GET /api/v1/statuses/:id`: one status. <https://docs.joinmastodon.org/methods/statuses/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::ApiResult;

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
        app.render_visible_status(path_id(&r.id)?, caller.account.as_ref())
            .await
            .map(Json)
    }
}
