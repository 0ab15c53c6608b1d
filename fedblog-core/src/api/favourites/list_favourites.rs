//! `GET /api/v1/favourites`: The statuses the caller favourited, newest favourite first (20 by default, 40 at most). <https://docs.joinmastodon.org/methods/favourites/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::Status;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// The statuses the caller favourited, newest favourite first (20 by default, 40 at most), paginated on
/// hidden favourite ids (`max_id`, `since_id`, `min_id`) with Link headers. Statuses the caller
/// may no longer see are left out; deleted ones are gone with their favourites.
/// <https://docs.joinmastodon.org/methods/favourites/#get>
pub struct ListFavourites;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListFavouritesRequest {
    /// Cursor (hidden favourite ids; follow the Link header) and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListFavourites {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/favourites";
    const AUTH: Auth = Auth::User("read:favourites");
    type Request = ListFavouritesRequest;
    type Response = Paged<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListFavouritesRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let page = app
            .interactions()
            .favourites(me, r.page.page(20, 40))
            .await?;
        Ok(Paged {
            link: app.page_link(caller, page.first, page.last),
            items: app.render_page(page, Some(me)).await?,
        })
    }
}
