//! `GET /api/v1/admin/email_domain_blocks`: The e-mail domains refused at sign-up, newest first (100 by default, 200 at most), paginated through the Link header. <https://docs.joinmastodon.org/methods/admin/email_domain_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::AdminEmailDomainBlock;
use crate::error::ApiResult;
use crate::pagination::PageParams;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_email_domain_block;
use crate::store::ValueList;

/// The e-mail domains refused at sign-up, newest first (100 by default, 200 at most), paginated through the Link header. Needs the `admin:read:email_domain_blocks` scope and a role that manages blocks. <https://docs.joinmastodon.org/methods/admin/email_domain_blocks/>
pub struct ListAdminEmailDomainBlocks;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListAdminEmailDomainBlocksRequest {
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListAdminEmailDomainBlocks {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/email_domain_blocks";
    const AUTH: Auth = Auth::User("admin:read:email_domain_blocks");
    type Request = ListAdminEmailDomainBlocksRequest;
    type Response = Paged<AdminEmailDomainBlock>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListAdminEmailDomainBlocksRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_BLOCKS)?;
        let rows = app
            .server_blocks()
            .listed(ValueList::EmailDomainBlocks, r.page.page(100, 200))
            .await?;
        let link = app.page_link(
            caller,
            rows.first().map(|v| v.id),
            rows.last().map(|v| v.id),
        );
        Ok(Paged {
            items: rows.iter().map(render_admin_email_domain_block).collect(),
            link,
        })
    }
}
