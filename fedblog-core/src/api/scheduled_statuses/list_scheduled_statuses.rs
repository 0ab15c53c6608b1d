//! `GET /api/v1/scheduled_statuses`: the caller's scheduled statuses. <https://docs.joinmastodon.org/methods/scheduled_statuses/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::ScheduledStatus;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// Lists scheduled statuses, newest first (20 by default, 40 at most).
pub struct ListScheduledStatuses;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListRequest {
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListScheduledStatuses {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/scheduled_statuses";
    const AUTH: Auth = Auth::User("read:statuses");
    type Request = ListRequest;
    type Response = Paged<ScheduledStatus>;

    async fn handle(app: &App, caller: &Caller, r: ListRequest) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let records = app
            .store
            .scheduled_statuses(me.id, r.page.page(20, 40))
            .await?;
        let link = app.page_link(
            caller,
            records.first().map(|s| s.id),
            records.last().map(|s| s.id),
        );
        let mut items = Vec::with_capacity(records.len());
        for s in &records {
            items.push(app.render_scheduled_status(s).await?);
        }
        Ok(Paged { items, link })
    }
}
