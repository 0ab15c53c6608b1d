//! `GET /api/v1/streaming/public/remote`: public statuses of other servers. <https://docs.joinmastodon.org/methods/streaming/#public-remote>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Streamed};
use crate::error::ApiResult;

use super::{MediaRequest, channel, open};

/// Server-sent events of the `public:remote` stream (`public:remote:media` with `only_media`).
pub struct StreamPublicRemote;

impl Endpoint for StreamPublicRemote {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/streaming/public/remote";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = MediaRequest;
    type Response = Streamed;

    async fn handle(app: &App, caller: &Caller, r: MediaRequest) -> ApiResult<Streamed> {
        let name = if r.only_media {
            "public:remote:media"
        } else {
            "public:remote"
        };
        open(app, caller, vec![channel(name, None, None)?]).await
    }
}
