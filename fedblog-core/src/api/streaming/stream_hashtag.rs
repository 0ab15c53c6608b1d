//! `GET /api/v1/streaming/hashtag`: public statuses with a hashtag. <https://docs.joinmastodon.org/methods/streaming/#hashtag>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Streamed};
use crate::error::ApiResult;

use super::{TagRequest, channel, open};

/// Server-sent events of the `hashtag` stream of the `tag` parameter.
pub struct StreamHashtag;

impl Endpoint for StreamHashtag {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/streaming/hashtag";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = TagRequest;
    type Response = Streamed;

    async fn handle(app: &App, caller: &Caller, r: TagRequest) -> ApiResult<Streamed> {
        open(
            app,
            caller,
            vec![channel("hashtag", r.tag.as_deref(), None)?],
        )
        .await
    }
}
