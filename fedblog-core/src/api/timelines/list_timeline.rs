//! `GET /api/v1/timelines/list/:list_id`: the timeline of one of the caller's lists. <https://docs.joinmastodon.org/methods/timelines/#list>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged, path_id};
use crate::entities::Status;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// Statuses of a list's members, newest first (20 by default, 40 at most).
pub struct ListTimeline;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListTimelineRequest {
    /// List id (path).
    pub list_id: String,
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListTimeline {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/timelines/list/:list_id";
    const AUTH: Auth = Auth::User("read:lists");
    type Request = ListTimelineRequest;
    type Response = Paged<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListTimelineRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let records = app
            .lists()
            .list_timeline(me, path_id(&r.list_id)?, r.page.page(20, 40))
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
