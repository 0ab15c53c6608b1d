//! `GET /api/v1/streaming/direct`: the caller's conversations. <https://docs.joinmastodon.org/methods/streaming/#direct>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Streamed};
use crate::error::ApiResult;

use super::{NoRequest, channel, open};

/// Server-sent events of the `direct` stream.
pub struct StreamDirect;

impl Endpoint for StreamDirect {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/streaming/direct";
    const AUTH: Auth = Auth::User("read:statuses");
    type Request = NoRequest;
    type Response = Streamed;

    async fn handle(app: &App, caller: &Caller, _r: NoRequest) -> ApiResult<Streamed> {
        open(app, caller, vec![channel("direct", None, None)?]).await
    }
}
