//! `DELETE /api/v1/admin/ip_blocks/:id`: Lifts an IP block; answers an empty object. <https://docs.joinmastodon.org/methods/admin/ip_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};

/// Lifts an IP block; answers an empty object. Needs the `admin:write:ip_blocks` scope and a role that manages blocks. <https://docs.joinmastodon.org/methods/admin/ip_blocks/>
pub struct DeleteAdminIpBlock;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteAdminIpBlockRequest {
    /// Block id (path).
    pub id: String,
}

impl Endpoint for DeleteAdminIpBlock {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/admin/ip_blocks/:id";
    const AUTH: Auth = Auth::User("admin:write:ip_blocks");
    type Request = DeleteAdminIpBlockRequest;
    type Response = Json<serde_json::Value>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteAdminIpBlockRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_BLOCKS)?;
        app.server_blocks().unblock_ip(path_id(&r.id)?).await?;
        Ok(Json(serde_json::json!({})))
    }
}
