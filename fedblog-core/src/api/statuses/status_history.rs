//! `GET /api/v1/statuses/:id/history`: every revision of a status. <https://docs.joinmastodon.org/methods/statuses/#history>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::StatusEdit;
use crate::error::ApiResult;

/// Returns the revisions of a status the caller may see, oldest first, the original included (a
/// status never edited has one: its current version); 404 when the caller may not see it.
pub struct GetStatusHistory;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct StatusHistoryRequest {
    /// Status id (path).
    pub id: String,
}

impl Endpoint for GetStatusHistory {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/statuses/:id/history";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = StatusHistoryRequest;
    type Response = Json<Vec<StatusEdit>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: StatusHistoryRequest,
    ) -> ApiResult<Self::Response> {
        let (status, author, revisions) = app
            .edits()
            .status_history(caller.account.as_ref(), path_id(&r.id)?)
            .await?;
        Ok(Json(
            app.render_status_edits(&status, &author, &revisions)
                .await?,
        ))
    }
}
