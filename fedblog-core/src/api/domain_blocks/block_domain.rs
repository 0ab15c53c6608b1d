//! `POST /api/v1/domain_blocks`: Block a domain: its accounts' posts leave the caller's timelines and its accounts stop following the caller. <https://docs.joinmastodon.org/methods/domain_blocks/#block>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Empty;
use crate::error::ApiResult;
use crate::params::de;

/// Block a domain: posts by its accounts leave the caller's home and public timelines, its
/// accounts stop following the caller (pending requests dropped), and the caller cannot follow
/// accounts there. `domain` is lower-cased; a blank or invalid host name, a scheme, path or
/// `*.` wildcard, and this server's own domain are a 422 (see `App::normalize_blocked_domain`).
/// Blocking twice is not an error. <https://docs.joinmastodon.org/methods/domain_blocks/#block>
pub struct BlockDomain;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct BlockDomainRequest {
    /// The domain.
    #[serde(deserialize_with = "de::opt_string")]
    pub domain: Option<String>,
}

impl Endpoint for BlockDomain {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/domain_blocks";
    const AUTH: Auth = Auth::User("write:blocks");
    type Request = BlockDomainRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: BlockDomainRequest,
    ) -> ApiResult<Self::Response> {
        app.blocks()
            .block_domain(caller.account()?, r.domain.as_deref().unwrap_or(""))
            .await?;
        Ok(Json(Empty {}))
    }
}
