//! `DELETE /api/v1/domain_blocks`: Lift a domain block; not blocking the domain is not an error. <https://docs.joinmastodon.org/methods/domain_blocks/#unblock>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Empty;
use crate::error::ApiResult;
use crate::params::de;

/// Lift a domain block; not blocking the domain is not an error. `domain` is checked as for
/// blocking (blank or invalid: 422). <https://docs.joinmastodon.org/methods/domain_blocks/#unblock>
pub struct UnblockDomain;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct UnblockDomainRequest {
    /// The domain.
    #[serde(deserialize_with = "de::opt_string")]
    pub domain: Option<String>,
}

impl Endpoint for UnblockDomain {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/domain_blocks";
    const AUTH: Auth = Auth::User("write:blocks");
    type Request = UnblockDomainRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnblockDomainRequest,
    ) -> ApiResult<Self::Response> {
        app.blocks()
            .unblock_domain(caller.account()?, r.domain.as_deref().unwrap_or(""))
            .await?;
        Ok(Json(Empty {}))
    }
}
