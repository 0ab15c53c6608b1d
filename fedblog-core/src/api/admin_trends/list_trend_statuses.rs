//! `GET /api/v1/admin/trends/statuses`: the statuses favourited or reblogged this week, reviewed or not, as staff see them. <https://docs.joinmastodon.org/methods/admin/trends/#statuses>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::AdminTrendStatus;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};
use crate::services::discovery::{offset_limit, offset_of};

use super::{TrendsPageRequest, offset_link};

/// The public statuses of the last week (not replies, not by suspended or silenced accounts)
/// that the most accounts favourited or reblogged (then newest first), reviewed or not, each
/// with `requires_review`; 20 by default, 40 at most, `offset` to skip. Needs the `admin:read`
/// scope and a role that manages taxonomies.
/// <https://docs.joinmastodon.org/methods/admin/trends/#statuses>
pub struct ListTrendStatuses;

impl Endpoint for ListTrendStatuses {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/trends/statuses";
    const AUTH: Auth = Auth::User("admin:read");
    type Request = TrendsPageRequest;
    type Response = Paged<AdminTrendStatus>;

    async fn handle(app: &App, caller: &Caller, r: TrendsPageRequest) -> ApiResult<Self::Response> {
        let me = require(caller, Permissions::MANAGE_TAXONOMIES)?;
        let (offset, limit) = (offset_of(r.offset), offset_limit(r.limit, 20, 40));
        let views = app.trends().statuses(offset, limit).await?;
        Ok(Paged {
            link: offset_link(app, caller, offset, limit, views.len()),
            items: app.render_admin_trend_statuses(&views, me).await?,
        })
    }
}
