//! `POST /api/v1/admin/ip_blocks`: Blocks an IP address or range (`ip` and `severity` required; 422 otherwise, or when the range is blocked already). <https://docs.joinmastodon.org/methods/admin/ip_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminIpBlock;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_ip_block;
use crate::services::server_blocks::IpBlockChange;

/// Blocks an IP address or range (`ip` and `severity` required; 422 otherwise, or when the range is blocked already). Needs the `admin:write:ip_blocks` scope and a role that manages blocks. <https://docs.joinmastodon.org/methods/admin/ip_blocks/>
pub struct CreateAdminIpBlock;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct CreateAdminIpBlockRequest {
    /// The address or range in CIDR notation.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub ip: Option<String>,
    /// `sign_up_requires_approval`, `sign_up_block` or `no_access`.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub severity: Option<String>,
    /// Note for moderators.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub comment: Option<String>,
    /// Seconds until it stops applying.
    #[serde(default, deserialize_with = "de::opt_i64")]
    pub expires_in: Option<i64>,
}

impl Endpoint for CreateAdminIpBlock {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/ip_blocks";
    const AUTH: Auth = Auth::User("admin:write:ip_blocks");
    type Request = CreateAdminIpBlockRequest;
    type Response = Json<AdminIpBlock>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CreateAdminIpBlockRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_BLOCKS)?;
        let block = app
            .server_blocks()
            .block_ip(IpBlockChange {
                ip: r.ip,
                severity: r.severity,
                comment: r.comment,
                expires_in: r.expires_in,
            })
            .await?;
        Ok(Json(render_admin_ip_block(&block)))
    }
}
