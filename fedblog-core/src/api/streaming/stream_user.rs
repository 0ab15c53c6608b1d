//! `GET /api/v1/streaming/user`: the caller's home feed, notifications and filter changes. <https://docs.joinmastodon.org/methods/streaming/#user>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Streamed};
use crate::error::ApiResult;

use super::{NoRequest, channel, open};

/// Server-sent events of the `user` stream.
pub struct StreamUser;

impl Endpoint for StreamUser {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/streaming/user";
    const AUTH: Auth = Auth::User("read:statuses");
    type Request = NoRequest;
    type Response = Streamed;

    async fn handle(app: &App, caller: &Caller, _r: NoRequest) -> ApiResult<Streamed> {
        open(app, caller, vec![channel("user", None, None)?]).await
    }
}
