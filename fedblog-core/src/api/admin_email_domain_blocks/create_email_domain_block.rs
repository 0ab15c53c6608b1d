//! `POST /api/v1/admin/email_domain_blocks`: Refuses sign-ups with addresses at a domain and its subdomains (422 if refused already or not a domain). <https://docs.joinmastodon.org/methods/admin/email_domain_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminEmailDomainBlock;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_email_domain_block;

/// Refuses sign-ups with addresses at a domain and its subdomains (422 if refused already or not a domain). Needs the `admin:write:email_domain_blocks` scope and a role that manages blocks. <https://docs.joinmastodon.org/methods/admin/email_domain_blocks/>
pub struct CreateAdminEmailDomainBlock;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct CreateAdminEmailDomainBlockRequest {
    /// The domain (required).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub domain: Option<String>,
}

impl Endpoint for CreateAdminEmailDomainBlock {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/email_domain_blocks";
    const AUTH: Auth = Auth::User("admin:write:email_domain_blocks");
    type Request = CreateAdminEmailDomainBlockRequest;
    type Response = Json<AdminEmailDomainBlock>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CreateAdminEmailDomainBlockRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_BLOCKS)?;
        let block = app
            .server_blocks()
            .block_email_domain(r.domain.as_deref().unwrap_or_default())
            .await?;
        Ok(Json(render_admin_email_domain_block(&block)))
    }
}
