//! `POST /api/v1/statuses/:id/unpin`: Unpin a status from one's profile; not pinned is not an error. <https://docs.joinmastodon.org/methods/statuses/#unpin>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::ApiResult;

/// Unpin a status from one's profile; not pinned is not an error. 404 for a status the caller
/// may not see. <https://docs.joinmastodon.org/methods/statuses/#unpin>
pub struct UnpinStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnpinStatusRequest {
    /// Status id (path).
    pub id: String,
}

impl Endpoint for UnpinStatus {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/statuses/:id/unpin";
    const AUTH: Auth = Auth::User("write:accounts");
    type Request = UnpinStatusRequest;
    type Response = Json<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnpinStatusRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let status = app.interactions().unpin(me, path_id(&r.id)?).await?;
        Ok(Json(app.render_status(&status, Some(me)).await?))
    }
}
