//! `GET /api/v1/admin/tags`: every hashtag, as staff see them, newest first (100 by default, 200 at most), paginated through the Link header.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::AdminTag;
use crate::error::ApiResult;
use crate::pagination::PageParams;
use crate::permissions::{Permissions, require};

/// Every hashtag, as staff see them, newest first (100 by default, 200 at most), paginated through the Link header. Needs the `admin:read` scope and a role that manages taxonomies.
pub struct ListAdminTags;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListAdminTagsRequest {
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListAdminTags {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/tags";
    const AUTH: Auth = Auth::User("admin:read");
    type Request = ListAdminTagsRequest;
    type Response = Paged<AdminTag>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListAdminTagsRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_TAXONOMIES)?;
        let views = app.tags().admin_tags(r.page.page(100, 200)).await?;
        let link = app.page_link(
            caller,
            views.first().map(|v| v.tag.id),
            views.last().map(|v| v.tag.id),
        );
        Ok(Paged {
            items: views.iter().map(|v| app.render_admin_tag(v)).collect(),
            link,
        })
    }
}
