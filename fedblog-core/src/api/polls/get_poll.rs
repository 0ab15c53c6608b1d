//! `GET /api/v1/polls/:id`: a poll, when its status is visible to the caller. <https://docs.joinmastodon.org/methods/polls/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Poll;
use crate::error::ApiResult;

/// Returns a poll whose status the caller may see (anonymous callers: public and unlisted
/// statuses only); 404 otherwise, never revealing that it exists.
pub struct GetPoll;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetPollRequest {
    /// Poll id (path).
    pub id: String,
}

impl Endpoint for GetPoll {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/polls/:id";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = GetPollRequest;
    type Response = Json<Poll>;

    async fn handle(app: &App, caller: &Caller, r: GetPollRequest) -> ApiResult<Self::Response> {
        let viewer = caller.account.as_ref();
        let poll = app.polls().visible_poll(viewer, path_id(&r.id)?).await?;
        Ok(Json(app.render_poll_for(&poll, viewer).await?))
    }
}
