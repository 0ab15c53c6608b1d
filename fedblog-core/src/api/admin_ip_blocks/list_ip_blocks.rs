//! `GET /api/v1/admin/ip_blocks`: The blocked IP ranges, newest first (100 by default, 200 at most), paginated through the Link header. <https://docs.joinmastodon.org/methods/admin/ip_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::AdminIpBlock;
use crate::error::ApiResult;
use crate::pagination::PageParams;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_ip_block;

/// The blocked IP ranges, newest first (100 by default, 200 at most), paginated through the Link header. Needs the `admin:read:ip_blocks` scope and a role that manages blocks. <https://docs.joinmastodon.org/methods/admin/ip_blocks/>
pub struct ListAdminIpBlocks;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListAdminIpBlocksRequest {
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListAdminIpBlocks {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/ip_blocks";
    const AUTH: Auth = Auth::User("admin:read:ip_blocks");
    type Request = ListAdminIpBlocksRequest;
    type Response = Paged<AdminIpBlock>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListAdminIpBlocksRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_BLOCKS)?;
        let rows = app.server_blocks().ip_blocks(r.page.page(100, 200)).await?;
        let link = app.page_link(
            caller,
            rows.first().map(|b| b.id),
            rows.last().map(|b| b.id),
        );
        Ok(Paged {
            items: rows.iter().map(render_admin_ip_block).collect(),
            link,
        })
    }
}
