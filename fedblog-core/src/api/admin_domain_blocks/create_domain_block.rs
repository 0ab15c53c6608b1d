//! `POST /api/v1/admin/domain_blocks`: Blocks a domain server-wide (422 if it is blocked already or not a domain). <https://docs.joinmastodon.org/methods/admin/domain_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminDomainBlock;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_domain_block;
use crate::services::server_blocks::DomainBlockChange;

/// Blocks a domain server-wide (422 if it is blocked already or not a domain). Needs the `admin:write:domain_blocks` scope and a role that manages federation. <https://docs.joinmastodon.org/methods/admin/domain_blocks/>
pub struct CreateAdminDomainBlock;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct CreateAdminDomainBlockRequest {
    /// The domain (required).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub domain: Option<String>,
    /// `noop`, `silence` (the default) or `suspend`.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub severity: Option<String>,
    /// Media from the domain is not stored.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub reject_media: Option<bool>,
    /// Reports from the domain are ignored.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub reject_reports: Option<bool>,
    /// Note for moderators.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub private_comment: Option<String>,
    /// Reason shown publicly.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub public_comment: Option<String>,
    /// Shown partly hidden in public lists.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub obfuscate: Option<bool>,
}

impl Endpoint for CreateAdminDomainBlock {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/domain_blocks";
    const AUTH: Auth = Auth::User("admin:write:domain_blocks");
    type Request = CreateAdminDomainBlockRequest;
    type Response = Json<AdminDomainBlock>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CreateAdminDomainBlockRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_FEDERATION)?;
        let domain = r.domain.clone().unwrap_or_default();
        let change = DomainBlockChange {
            severity: r.severity,
            reject_media: r.reject_media,
            reject_reports: r.reject_reports,
            private_comment: r.private_comment,
            public_comment: r.public_comment,
            obfuscate: r.obfuscate,
        };
        let block = app.server_blocks().block_domain(&domain, change).await?;
        Ok(Json(render_admin_domain_block(&block)))
    }
}
