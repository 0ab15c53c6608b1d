//! `GET /api/v1/admin/email_domain_blocks/:id`: One e-mail domain refused at sign-up. <https://docs.joinmastodon.org/methods/admin/email_domain_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminEmailDomainBlock;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_email_domain_block;
use crate::store::ValueList;

/// One e-mail domain refused at sign-up. Needs the `admin:read:email_domain_blocks` scope and a role that manages blocks. <https://docs.joinmastodon.org/methods/admin/email_domain_blocks/>
pub struct GetAdminEmailDomainBlock;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetAdminEmailDomainBlockRequest {
    /// Block id (path).
    pub id: String,
}

impl Endpoint for GetAdminEmailDomainBlock {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/email_domain_blocks/:id";
    const AUTH: Auth = Auth::User("admin:read:email_domain_blocks");
    type Request = GetAdminEmailDomainBlockRequest;
    type Response = Json<AdminEmailDomainBlock>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetAdminEmailDomainBlockRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_BLOCKS)?;
        let block = app
            .server_blocks()
            .listed_one(ValueList::EmailDomainBlocks, path_id(&r.id)?)
            .await?;
        Ok(Json(render_admin_email_domain_block(&block)))
    }
}
