//! `GET /api/v1/streaming/public`: public statuses, as the public timeline shows them. <https://docs.joinmastodon.org/methods/streaming/#public>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Streamed};
use crate::error::ApiResult;

use super::{MediaRequest, channel, open};

/// Server-sent events of the `public` stream (`public:media` with `only_media`).
pub struct StreamPublic;

impl Endpoint for StreamPublic {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/streaming/public";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = MediaRequest;
    type Response = Streamed;

    async fn handle(app: &App, caller: &Caller, r: MediaRequest) -> ApiResult<Streamed> {
        let name = if r.only_media {
            "public:media"
        } else {
            "public"
        };
        open(app, caller, vec![channel(name, None, None)?]).await
    }
}
