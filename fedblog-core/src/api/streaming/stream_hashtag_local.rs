//! `GET /api/v1/streaming/hashtag/local`: public statuses of this server with a hashtag. <https://docs.joinmastodon.org/methods/streaming/#hashtag-local>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Streamed};
use crate::error::ApiResult;

use super::{TagRequest, channel, open};

/// Server-sent events of the `hashtag:local` stream of the `tag` parameter.
pub struct StreamHashtagLocal;

impl Endpoint for StreamHashtagLocal {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/streaming/hashtag/local";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = TagRequest;
    type Response = Streamed;

    async fn handle(app: &App, caller: &Caller, r: TagRequest) -> ApiResult<Streamed> {
        open(
            app,
            caller,
            vec![channel("hashtag:local", r.tag.as_deref(), None)?],
        )
        .await
    }
}
