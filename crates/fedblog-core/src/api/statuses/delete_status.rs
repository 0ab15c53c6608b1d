//! `DELETE /api/v1/statuses/:id`: delete one's own status. <https://docs.joinmastodon.org/methods/statuses/#delete>

use http::Method;
use serde::Deserialize;

use crate::api::{Auth, Endpoint, Json, path_id};
use crate::app::{App, Caller};
use crate::entities::Status;
use crate::error::{ApiError, ApiResult};

/// Deletes a status and returns it with its source `text`, for "delete and redraft".
pub struct DeleteStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteStatusRequest {
    /// Status id (path).
    pub id: String,
}

impl Endpoint for DeleteStatus {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/statuses/:id";
    const AUTH: Auth = Auth::User("write:statuses");
    type Request = DeleteStatusRequest;
    type Response = Json<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteStatusRequest,
    ) -> ApiResult<Self::Response> {
        let status = app.status_to_delete(caller, path_id(&r.id)?).await?;
        // Rendered before the deletion, so the answer still carries the poll (delete and redraft).
        let mut out = app
            .render_statuses(std::slice::from_ref(&status), caller.account.as_ref(), true)
            .await?;
        app.delete_status(&status).await?;
        out.pop().map(Json).ok_or_else(ApiError::internal)
    }
}
