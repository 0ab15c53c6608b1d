//! `DELETE /api/v1/admin/email_domain_blocks/:id`: Lifts an e-mail domain block; answers an empty object. <https://docs.joinmastodon.org/methods/admin/email_domain_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};
use crate::store::ValueList;

/// Lifts an e-mail domain block; answers an empty object. Needs the `admin:write:email_domain_blocks` scope and a role that manages blocks. <https://docs.joinmastodon.org/methods/admin/email_domain_blocks/>
pub struct DeleteAdminEmailDomainBlock;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteAdminEmailDomainBlockRequest {
    /// Block id (path).
    pub id: String,
}

impl Endpoint for DeleteAdminEmailDomainBlock {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/admin/email_domain_blocks/:id";
    const AUTH: Auth = Auth::User("admin:write:email_domain_blocks");
    type Request = DeleteAdminEmailDomainBlockRequest;
    type Response = Json<serde_json::Value>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteAdminEmailDomainBlockRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_BLOCKS)?;
        app.server_blocks()
            .remove_listed(ValueList::EmailDomainBlocks, path_id(&r.id)?)
            .await?;
        Ok(Json(serde_json::json!({})))
    }
}
