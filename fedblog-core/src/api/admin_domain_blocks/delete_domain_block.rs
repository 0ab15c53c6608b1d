//! `DELETE /api/v1/admin/domain_blocks/:id`: Lifts a server-wide domain block; answers an empty object. <https://docs.joinmastodon.org/methods/admin/domain_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};

/// Lifts a server-wide domain block; answers an empty object. Needs the `admin:write:domain_blocks` scope and a role that manages federation. <https://docs.joinmastodon.org/methods/admin/domain_blocks/>
pub struct DeleteAdminDomainBlock;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteAdminDomainBlockRequest {
    /// Block id (path).
    pub id: String,
}

impl Endpoint for DeleteAdminDomainBlock {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/admin/domain_blocks/:id";
    const AUTH: Auth = Auth::User("admin:write:domain_blocks");
    type Request = DeleteAdminDomainBlockRequest;
    type Response = Json<serde_json::Value>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteAdminDomainBlockRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_FEDERATION)?;
        app.server_blocks().unblock_domain(path_id(&r.id)?).await?;
        Ok(Json(serde_json::json!({})))
    }
}
