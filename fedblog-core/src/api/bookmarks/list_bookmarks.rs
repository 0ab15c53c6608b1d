//! `GET /api/v1/bookmarks`: The statuses the caller bookmarked, newest bookmark first (20 by default, 40 at most). <https://docs.joinmastodon.org/methods/bookmarks/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::Status;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// The statuses the caller bookmarked, newest bookmark first (20 by default, 40 at most), paginated on
/// hidden bookmark ids (`max_id`, `since_id`, `min_id`) with Link headers. Statuses the caller
/// may no longer see are left out; deleted ones are gone with their bookmarks.
/// <https://docs.joinmastodon.org/methods/bookmarks/#get>
pub struct ListBookmarks;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListBookmarksRequest {
    /// Cursor (hidden bookmark ids; follow the Link header) and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListBookmarks {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/bookmarks";
    const AUTH: Auth = Auth::User("read:bookmarks");
    type Request = ListBookmarksRequest;
    type Response = Paged<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListBookmarksRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let page = app
            .interactions()
            .bookmarks(me, r.page.page(20, 40))
            .await?;
        Ok(Paged {
            link: app.page_link(caller, page.first, page.last),
            items: app.render_page(page, Some(me)).await?,
        })
    }
}
