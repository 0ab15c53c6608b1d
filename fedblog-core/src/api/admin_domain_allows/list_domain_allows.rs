//! `GET /api/v1/admin/domain_allows`: The domains allowed to federate, newest first (100 by default, 200 at most), paginated through the Link header. <https://docs.joinmastodon.org/methods/admin/domain_allows/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::AdminDomainAllow;
use crate::error::ApiResult;
use crate::pagination::PageParams;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_domain_allow;
use crate::store::ValueList;

/// The domains allowed to federate, newest first (100 by default, 200 at most), paginated through the Link header. Needs the `admin:read:domain_allows` scope and a role that manages federation. <https://docs.joinmastodon.org/methods/admin/domain_allows/>
pub struct ListAdminDomainAllows;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListAdminDomainAllowsRequest {
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListAdminDomainAllows {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/domain_allows";
    const AUTH: Auth = Auth::User("admin:read:domain_allows");
    type Request = ListAdminDomainAllowsRequest;
    type Response = Paged<AdminDomainAllow>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListAdminDomainAllowsRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_FEDERATION)?;
        let rows = app
            .server_blocks()
            .listed(ValueList::DomainAllows, r.page.page(100, 200))
            .await?;
        let link = app.page_link(
            caller,
            rows.first().map(|v| v.id),
            rows.last().map(|v| v.id),
        );
        Ok(Paged {
            items: rows.iter().map(render_admin_domain_allow).collect(),
            link,
        })
    }
}
