//! `POST /api/v1/statuses/:id/pin`: Pin one of one's own statuses on one's profile (followers-only ones too). <https://docs.joinmastodon.org/methods/statuses/#pin>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::ApiResult;

/// Pin one of one's own statuses on one's profile (followers-only ones too). 404 for a status
/// the caller may not see; 422 for a reblog, someone else's status, a direct status, or beyond
/// 5 pinned statuses (deleted statuses do not count). Pinning again is not an error.
/// <https://docs.joinmastodon.org/methods/statuses/#pin>
pub struct PinStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct PinStatusRequest {
    /// Status id (path).
    pub id: String,
}

impl Endpoint for PinStatus {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/statuses/:id/pin";
    const AUTH: Auth = Auth::User("write:accounts");
    type Request = PinStatusRequest;
    type Response = Json<Status>;

    async fn handle(app: &App, caller: &Caller, r: PinStatusRequest) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let status = app.interactions().pin(me, path_id(&r.id)?).await?;
        Ok(Json(app.render_status(&status, Some(me)).await?))
    }
}
