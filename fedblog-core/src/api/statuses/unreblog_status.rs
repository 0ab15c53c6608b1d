//! `POST /api/v1/statuses/:id/unreblog`: Take back one's reblog of a status (the id of the original, or of a reblog of it) and answer the original; succeeds even when the caller has lost access to it since. <https://docs.joinmastodon.org/methods/statuses/#unreblog>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::ApiResult;

/// Take back one's reblog of a status (the id of the original, or of a reblog of it) and answer
/// the original; succeeds even when the caller has lost access to it since. Without a reblog,
/// 404 for a status the caller may not see.
/// <https://docs.joinmastodon.org/methods/statuses/#unreblog>
pub struct UnreblogStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnreblogStatusRequest {
    /// Status id (path).
    pub id: String,
}

impl Endpoint for UnreblogStatus {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/statuses/:id/unreblog";
    const AUTH: Auth = Auth::User("write:statuses");
    const RATE_LIMITS: &'static [crate::rate_limit::Family] = &[crate::rate_limit::Family::Deletes];
    type Request = UnreblogStatusRequest;
    type Response = Json<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnreblogStatusRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let status = app.statuses().unreblog(me, path_id(&r.id)?).await?;
        Ok(Json(app.render_status(&status, Some(me)).await?))
    }
}
