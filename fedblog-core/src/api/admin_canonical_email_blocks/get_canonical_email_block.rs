//! `GET /api/v1/admin/canonical_email_blocks/:id`: One canonical e-mail block. <https://docs.joinmastodon.org/methods/admin/canonical_email_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminCanonicalEmailBlock;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_canonical_email_block;
use crate::store::ValueList;

/// One canonical e-mail block. Needs the `admin:read:canonical_email_blocks` scope and a role that manages blocks. <https://docs.joinmastodon.org/methods/admin/canonical_email_blocks/>
pub struct GetAdminCanonicalEmailBlock;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetAdminCanonicalEmailBlockRequest {
    /// Block id (path).
    pub id: String,
}

impl Endpoint for GetAdminCanonicalEmailBlock {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/canonical_email_blocks/:id";
    const AUTH: Auth = Auth::User("admin:read:canonical_email_blocks");
    type Request = GetAdminCanonicalEmailBlockRequest;
    type Response = Json<AdminCanonicalEmailBlock>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetAdminCanonicalEmailBlockRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_BLOCKS)?;
        let block = app
            .server_blocks()
            .listed_one(ValueList::CanonicalEmailBlocks, path_id(&r.id)?)
            .await?;
        Ok(Json(render_admin_canonical_email_block(&block)))
    }
}
