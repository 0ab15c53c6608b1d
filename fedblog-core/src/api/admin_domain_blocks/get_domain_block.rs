//! `GET /api/v1/admin/domain_blocks/:id`: One server-wide domain block. <https://docs.joinmastodon.org/methods/admin/domain_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminDomainBlock;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_domain_block;

/// One server-wide domain block. Needs the `admin:read:domain_blocks` scope and a role that manages federation. <https://docs.joinmastodon.org/methods/admin/domain_blocks/>
pub struct GetAdminDomainBlock;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetAdminDomainBlockRequest {
    /// Block id (path).
    pub id: String,
}

impl Endpoint for GetAdminDomainBlock {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/domain_blocks/:id";
    const AUTH: Auth = Auth::User("admin:read:domain_blocks");
    type Request = GetAdminDomainBlockRequest;
    type Response = Json<AdminDomainBlock>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetAdminDomainBlockRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_FEDERATION)?;
        let block = app.server_blocks().domain_block(path_id(&r.id)?).await?;
        Ok(Json(render_admin_domain_block(&block)))
    }
}
