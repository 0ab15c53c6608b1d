//! `GET /api/v1/streaming/public/local`: public statuses of this server. <https://docs.joinmastodon.org/methods/streaming/#public-local>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Streamed};
use crate::error::ApiResult;

use super::{MediaRequest, channel, open};

/// Server-sent events of the `public:local` stream (`public:local:media` with `only_media`).
pub struct StreamPublicLocal;

impl Endpoint for StreamPublicLocal {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/streaming/public/local";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = MediaRequest;
    type Response = Streamed;

    async fn handle(app: &App, caller: &Caller, r: MediaRequest) -> ApiResult<Streamed> {
        let name = if r.only_media {
            "public:local:media"
        } else {
            "public:local"
        };
        open(app, caller, vec![channel(name, None, None)?]).await
    }
}
