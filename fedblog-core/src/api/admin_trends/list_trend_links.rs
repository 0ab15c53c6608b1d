//! `GET /api/v1/admin/trends/links`: the links shared this week, reviewed or not, as staff see them. <https://docs.joinmastodon.org/methods/admin/trends/#links>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::AdminTrendLink;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};
use crate::services::discovery::{offset_limit, offset_of};

use super::{TrendsPageRequest, offset_link};

/// The links (preview cards) shared this week, ranked by score (see `services/cards.rs`),
/// reviewed or not, each a `Trends::Link` with its card's `id`, `trendable` and
/// `requires_review`; 10 by default, 20 at most, `offset` to skip. Needs the `admin:read` scope
/// and a role that manages taxonomies.
/// <https://docs.joinmastodon.org/methods/admin/trends/#links>
pub struct ListTrendLinks;

impl Endpoint for ListTrendLinks {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/trends/links";
    const AUTH: Auth = Auth::User("admin:read");
    type Request = TrendsPageRequest;
    type Response = Paged<AdminTrendLink>;

    async fn handle(app: &App, caller: &Caller, r: TrendsPageRequest) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_TAXONOMIES)?;
        let (offset, limit) = (offset_of(r.offset), offset_limit(r.limit, 10, 20));
        let views = app.cards().staff_links(offset, limit).await?;
        Ok(Paged {
            link: offset_link(app, caller, offset, limit, views.len()),
            items: views
                .iter()
                .map(|v| app.render_admin_trend_link(v))
                .collect(),
        })
    }
}
