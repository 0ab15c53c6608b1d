//! `GET /api/v1/admin/canonical_email_blocks`: The canonical e-mail addresses refused at sign-up, newest first (100 by default, 200 at most), paginated through the Link header. <https://docs.joinmastodon.org/methods/admin/canonical_email_blocks/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::AdminCanonicalEmailBlock;
use crate::error::ApiResult;
use crate::pagination::PageParams;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_canonical_email_block;
use crate::store::ValueList;

/// The canonical e-mail addresses refused at sign-up, newest first (100 by default, 200 at most), paginated through the Link header. Needs the `admin:read:canonical_email_blocks` scope and a role that manages blocks. <https://docs.joinmastodon.org/methods/admin/canonical_email_blocks/>
pub struct ListAdminCanonicalEmailBlocks;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListAdminCanonicalEmailBlocksRequest {
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListAdminCanonicalEmailBlocks {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/canonical_email_blocks";
    const AUTH: Auth = Auth::User("admin:read:canonical_email_blocks");
    type Request = ListAdminCanonicalEmailBlocksRequest;
    type Response = Paged<AdminCanonicalEmailBlock>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListAdminCanonicalEmailBlocksRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_BLOCKS)?;
        let rows = app
            .server_blocks()
            .listed(ValueList::CanonicalEmailBlocks, r.page.page(100, 200))
            .await?;
        let link = app.page_link(
            caller,
            rows.first().map(|v| v.id),
            rows.last().map(|v| v.id),
        );
        Ok(Paged {
            items: rows
                .iter()
                .map(render_admin_canonical_email_block)
                .collect(),
            link,
        })
    }
}
