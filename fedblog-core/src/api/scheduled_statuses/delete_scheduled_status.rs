//! `DELETE /api/v1/scheduled_statuses/:id`: cancel a scheduled status. <https://docs.joinmastodon.org/methods/scheduled_statuses/#cancel>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Cancels it; it will not be published.
pub struct DeleteScheduledStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteRequest {
    /// Id (path).
    pub id: String,
}

impl Endpoint for DeleteScheduledStatus {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/scheduled_statuses/:id";
    const AUTH: Auth = Auth::User("write:statuses");
    type Request = DeleteRequest;
    type Response = Json<Empty>;

    async fn handle(app: &App, caller: &Caller, r: DeleteRequest) -> ApiResult<Self::Response> {
        app.scheduled()
            .cancel_scheduled_status(caller.account()?, path_id(&r.id)?)
            .await?;
        Ok(Json(Empty {}))
    }
}
