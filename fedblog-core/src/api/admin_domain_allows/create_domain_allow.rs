//! `POST /api/v1/admin/domain_allows`: Allows a domain to federate (an allowed domain answers its existing allow; 422 if not a domain). <https://docs.joinmastodon.org/methods/admin/domain_allows/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminDomainAllow;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_domain_allow;

/// Allows a domain to federate (an allowed domain answers its existing allow; 422 if not a domain). Needs the `admin:write:domain_allows` scope and a role that manages federation. <https://docs.joinmastodon.org/methods/admin/domain_allows/>
pub struct CreateAdminDomainAllow;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct CreateAdminDomainAllowRequest {
    /// The domain (required).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub domain: Option<String>,
}

impl Endpoint for CreateAdminDomainAllow {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/domain_allows";
    const AUTH: Auth = Auth::User("admin:write:domain_allows");
    type Request = CreateAdminDomainAllowRequest;
    type Response = Json<AdminDomainAllow>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CreateAdminDomainAllowRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_FEDERATION)?;
        let allow = app
            .server_blocks()
            .allow_domain(r.domain.as_deref().unwrap_or_default())
            .await?;
        Ok(Json(render_admin_domain_allow(&allow)))
    }
}
