//! `GET /api/v1/statuses/:id/quotes`: The statuses quoting one of one's own statuses with an accepted quote, newest quote first. <https://docs.joinmastodon.org/methods/statuses/#quotes>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged, path_id};
use crate::entities::Status;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// The statuses that quote one of the caller's own statuses with an accepted quote, newest
/// quote first (20 by default, 40 at most), paginated on hidden quote ids with Link headers;
/// those the caller may not see are left out. 404 for a status the caller may not see, 403
/// for someone else's. <https://docs.joinmastodon.org/methods/statuses/#quotes>
pub struct ListQuotes;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListQuotesRequest {
    /// Status id (path).
    pub id: String,
    /// Cursor (hidden quote ids; follow the Link header) and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListQuotes {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/statuses/:id/quotes";
    const AUTH: Auth = Auth::User("read:statuses");
    type Request = ListQuotesRequest;
    type Response = Paged<Status>;

    async fn handle(app: &App, caller: &Caller, r: ListQuotesRequest) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let (statuses, first, last) = app
            .quotes()
            .quotes_of(me, path_id(&r.id)?, r.page.page(20, 40))
            .await?;
        Ok(Paged {
            items: app.render_statuses(&statuses, Some(me), false).await?,
            link: app.page_link(caller, first, last),
        })
    }
}
