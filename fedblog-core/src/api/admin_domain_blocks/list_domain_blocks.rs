//! `GET /api/v1/admin/domain_blocks`: The server-wide domain blocks, newest first (100 by default, 200 at most), paginated through the Link header. <https://docs.joinmastodon.org/methods/admin/domain_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::AdminDomainBlock;
use crate::error::ApiResult;
use crate::pagination::PageParams;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_domain_block;

/// The server-wide domain blocks, newest first (100 by default, 200 at most), paginated through the Link header. Needs the `admin:read:domain_blocks` scope and a role that manages federation. <https://docs.joinmastodon.org/methods/admin/domain_blocks/>
pub struct ListAdminDomainBlocks;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListAdminDomainBlocksRequest {
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListAdminDomainBlocks {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/domain_blocks";
    const AUTH: Auth = Auth::User("admin:read:domain_blocks");
    type Request = ListAdminDomainBlocksRequest;
    type Response = Paged<AdminDomainBlock>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListAdminDomainBlocksRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_FEDERATION)?;
        let rows = app
            .server_blocks()
            .domain_blocks(r.page.page(100, 200))
            .await?;
        let link = app.page_link(
            caller,
            rows.first().map(|b| b.id),
            rows.last().map(|b| b.id),
        );
        Ok(Paged {
            items: rows.iter().map(render_admin_domain_block).collect(),
            link,
        })
    }
}
