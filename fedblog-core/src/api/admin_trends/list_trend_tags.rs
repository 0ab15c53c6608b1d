//! `GET /api/v1/admin/trends/tags`: the hashtags used this week, reviewed or not, as staff see them. <https://docs.joinmastodon.org/methods/admin/trends/#tags>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::AdminTag;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};
use crate::services::discovery::{offset_limit, offset_of};

use super::{TrendsPageRequest, offset_link};

/// The hashtags used in the last week by the most accounts (then the most uses, then newest
/// first), unreviewed and rejected ones too, as `Admin::Tag`; 10 by default, 20 at most,
/// `offset` to skip. Needs the `admin:read` scope and a role that manages taxonomies.
/// <https://docs.joinmastodon.org/methods/admin/trends/#tags>
pub struct ListTrendTags;

impl Endpoint for ListTrendTags {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/trends/tags";
    const AUTH: Auth = Auth::User("admin:read");
    type Request = TrendsPageRequest;
    type Response = Paged<AdminTag>;

    async fn handle(app: &App, caller: &Caller, r: TrendsPageRequest) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_TAXONOMIES)?;
        let (offset, limit) = (offset_of(r.offset), offset_limit(r.limit, 10, 20));
        let views = app.trends().tags(offset, limit).await?;
        Ok(Paged {
            link: offset_link(app, caller, offset, limit, views.len()),
            items: views.iter().map(|v| app.render_admin_tag(v)).collect(),
        })
    }
}
