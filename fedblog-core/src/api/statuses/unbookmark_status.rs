//! `POST /api/v1/statuses/:id/unbookmark`: Take back a bookmark and answer the status; succeeds even when the caller has lost access to it since. <https://docs.joinmastodon.org/methods/statuses/#unbookmark>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::ApiResult;

/// Take back a bookmark and answer the status; succeeds even when the caller has lost access to
/// it since. Without a bookmark, 404 for a status the caller may not see.
/// <https://docs.joinmastodon.org/methods/statuses/#unbookmark>
pub struct UnbookmarkStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnbookmarkStatusRequest {
    /// Status id (path).
    pub id: String,
}

impl Endpoint for UnbookmarkStatus {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/statuses/:id/unbookmark";
    const AUTH: Auth = Auth::User("write:bookmarks");
    type Request = UnbookmarkStatusRequest;
    type Response = Json<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnbookmarkStatusRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let status = app.interactions().unbookmark(me, path_id(&r.id)?).await?;
        Ok(Json(app.render_status(&status, Some(me)).await?))
    }
}
