//! `GET /api/v1/streaming/user/notification`: the caller's notifications. <https://docs.joinmastodon.org/methods/streaming/#notification>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Streamed};
use crate::error::ApiResult;

use super::{NoRequest, channel, open};

/// Server-sent events of the `user:notification` stream.
pub struct StreamUserNotification;

impl Endpoint for StreamUserNotification {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/streaming/user/notification";
    const AUTH: Auth = Auth::User("read:notifications");
    type Request = NoRequest;
    type Response = Streamed;

    async fn handle(app: &App, caller: &Caller, _r: NoRequest) -> ApiResult<Streamed> {
        open(app, caller, vec![channel("user:notification", None, None)?]).await
    }
}
