//! `GET /api/v1/admin/ip_blocks/:id`: One blocked IP range. <https://docs.joinmastodon.org/methods/admin/ip_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminIpBlock;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_ip_block;

/// One blocked IP range. Needs the `admin:read:ip_blocks` scope and a role that manages blocks. <https://docs.joinmastodon.org/methods/admin/ip_blocks/>
pub struct GetAdminIpBlock;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetAdminIpBlockRequest {
    /// Block id (path).
    pub id: String,
}

impl Endpoint for GetAdminIpBlock {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/ip_blocks/:id";
    const AUTH: Auth = Auth::User("admin:read:ip_blocks");
    type Request = GetAdminIpBlockRequest;
    type Response = Json<AdminIpBlock>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetAdminIpBlockRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_BLOCKS)?;
        let block = app.server_blocks().ip_block(path_id(&r.id)?).await?;
        Ok(Json(render_admin_ip_block(&block)))
    }
}
