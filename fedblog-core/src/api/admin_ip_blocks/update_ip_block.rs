//! `PUT /api/v1/admin/ip_blocks/:id`: Changes a blocked IP range. <https://docs.joinmastodon.org/methods/admin/ip_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminIpBlock;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_ip_block;
use crate::services::server_blocks::IpBlockChange;

/// Changes a blocked IP range. Needs the `admin:write:ip_blocks` scope and a role that manages blocks. <https://docs.joinmastodon.org/methods/admin/ip_blocks/>
pub struct UpdateAdminIpBlock;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UpdateAdminIpBlockRequest {
    /// Block id (path).
    pub id: String,
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

impl Endpoint for UpdateAdminIpBlock {
    const METHOD: Method = Method::PUT;
    const PATH: &'static str = "/api/v1/admin/ip_blocks/:id";
    const AUTH: Auth = Auth::User("admin:write:ip_blocks");
    type Request = UpdateAdminIpBlockRequest;
    type Response = Json<AdminIpBlock>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UpdateAdminIpBlockRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_BLOCKS)?;
        let id = path_id(&r.id)?;
        let block = app
            .server_blocks()
            .update_ip_block(
                id,
                IpBlockChange {
                    ip: r.ip,
                    severity: r.severity,
                    comment: r.comment,
                    expires_in: r.expires_in,
                },
            )
            .await?;
        Ok(Json(render_admin_ip_block(&block)))
    }
}
