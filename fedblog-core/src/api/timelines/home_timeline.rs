//! `GET /api/v1/timelines/home`: the caller's home feed. <https://docs.joinmastodon.org/methods/timelines/#home>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::Status;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// Statuses of followed accounts and one's own, newest first (20 by default, 40 at most).
pub struct HomeTimeline;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct HomeRequest {
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for HomeTimeline {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/timelines/home";
    const AUTH: Auth = Auth::User("read:statuses");
    type Request = HomeRequest;
    type Response = Paged<Status>;

    async fn handle(app: &App, caller: &Caller, r: HomeRequest) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let records = app
            .timelines()
            .home_timeline(me, r.page.page(20, 40))
            .await?;
        let link = app.page_link(caller, records.first, records.last);
        Ok(Paged {
            items: app
                .render_page_in(records, Some(me), crate::store::FilterContext::Home)
                .await?,
            link,
        })
    }
}
