//! `GET /api/v1/statuses/:id/source`: the plain text of one's own status, for editing. <https://docs.joinmastodon.org/methods/statuses/#source>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::StatusSource;
use crate::error::ApiResult;

/// Returns `{id, text, spoiler_text}` of the caller's own status; 404 for any other.
pub struct GetStatusSource;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct StatusSourceRequest {
    /// Status id (path).
    pub id: String,
}

impl Endpoint for GetStatusSource {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/statuses/:id/source";
    const AUTH: Auth = Auth::User("read:statuses");
    type Request = StatusSourceRequest;
    type Response = Json<StatusSource>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: StatusSourceRequest,
    ) -> ApiResult<Self::Response> {
        let status = app
            .edits()
            .status_source(caller.account()?, path_id(&r.id)?)
            .await?;
        Ok(Json(app.render_status_source(&status)))
    }
}
