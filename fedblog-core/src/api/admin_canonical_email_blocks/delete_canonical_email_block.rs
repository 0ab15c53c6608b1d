//! `DELETE /api/v1/admin/canonical_email_blocks/:id`: Lifts a canonical e-mail block; answers an empty object. <https://docs.joinmastodon.org/methods/admin/canonical_email_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};
use crate::store::ValueList;

/// Lifts a canonical e-mail block; answers an empty object. Needs the `admin:write:canonical_email_blocks` scope and a role that manages blocks. <https://docs.joinmastodon.org/methods/admin/canonical_email_blocks/>
pub struct DeleteAdminCanonicalEmailBlock;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteAdminCanonicalEmailBlockRequest {
    /// Block id (path).
    pub id: String,
}

impl Endpoint for DeleteAdminCanonicalEmailBlock {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/admin/canonical_email_blocks/:id";
    const AUTH: Auth = Auth::User("admin:write:canonical_email_blocks");
    type Request = DeleteAdminCanonicalEmailBlockRequest;
    type Response = Json<serde_json::Value>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteAdminCanonicalEmailBlockRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_BLOCKS)?;
        app.server_blocks()
            .remove_listed(ValueList::CanonicalEmailBlocks, path_id(&r.id)?)
            .await?;
        Ok(Json(serde_json::json!({})))
    }
}
