//! `GET /api/v1/admin/trends/links/publishers`: the publishers of links (the domains of preview cards), reviewed or not, as staff see them.

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::AdminTrendPublisher;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};

/// The publishers of links (Mastodon's preview card providers: `id`, `domain`, `trendable`,
/// `requires_review`), newest first. Needs the `admin:read` scope and a role that manages
/// taxonomies. Mastodon serves this route without documenting it.
pub struct ListTrendPublishers;

impl Endpoint for ListTrendPublishers {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/trends/links/publishers";
    const AUTH: Auth = Auth::User("admin:read");
    type Request = NoParams;
    type Response = Json<Vec<AdminTrendPublisher>>;

    async fn handle(app: &App, caller: &Caller, _r: NoParams) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_TAXONOMIES)?;
        let views = app.cards().publishers().await?;
        Ok(Json(
            views
                .iter()
                .map(|v| app.render_admin_trend_publisher(v))
                .collect(),
        ))
    }
}
