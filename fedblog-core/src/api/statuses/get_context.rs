//! `GET /api/v1/statuses/:id/context`: The thread around a status: ancestors and descendants. <https://docs.joinmastodon.org/methods/statuses/#context>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Context;
use crate::error::ApiResult;

/// The thread around a status the caller may see (404 otherwise; for a reblog, the original's):
/// ancestors oldest first, descendants depth-first in thread order, each list without the
/// statuses the caller may not see, by accounts blocked either way or muted, or on a domain the
/// caller blocks. Anonymous callers get at most 40 ancestors, 60 descendants and 20 levels of
/// replies; signed-in callers at most 4,096 of each.
/// <https://docs.joinmastodon.org/methods/statuses/#context>
pub struct GetContext;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetContextRequest {
    /// Status id (path).
    pub id: String,
}

impl Endpoint for GetContext {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/statuses/:id/context";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = GetContextRequest;
    type Response = Json<Context>;

    async fn handle(app: &App, caller: &Caller, r: GetContextRequest) -> ApiResult<Self::Response> {
        let viewer = caller.account.as_ref();
        let thread = app.interactions().context(viewer, path_id(&r.id)?).await?;
        Ok(Json(app.render_context(thread, viewer).await?))
    }
}
