//! `POST /api/v1/statuses/:id/bookmark`: Bookmark a status the caller may see (the original, when the id names a reblog); bookmarking again is not an error. <https://docs.joinmastodon.org/methods/statuses/#bookmark>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::ApiResult;

/// Bookmark a status the caller may see (the original, when the id names a reblog); bookmarking
/// again is not an error. 404 for a status the caller may not see.
/// <https://docs.joinmastodon.org/methods/statuses/#bookmark>
pub struct BookmarkStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct BookmarkStatusRequest {
    /// Status id (path).
    pub id: String,
}

impl Endpoint for BookmarkStatus {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/statuses/:id/bookmark";
    const AUTH: Auth = Auth::User("write:bookmarks");
    type Request = BookmarkStatusRequest;
    type Response = Json<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: BookmarkStatusRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let status = app.interactions().bookmark(me, path_id(&r.id)?).await?;
        Ok(Json(app.render_status(&status, Some(me)).await?))
    }
}
