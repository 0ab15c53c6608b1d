//! `GET /api/v1/notifications/requests`: the caller's notification requests, newest first (40 by default, 80 at most), with `Link` pagination. <https://docs.joinmastodon.org/methods/notifications/#get-requests>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::NotificationRequest;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// The caller's notification requests: per sender, the notifications its policy filtered.
pub struct ListNotificationRequests;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListNotificationRequestsRequest {
    /// Cursor (request ids) and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListNotificationRequests {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/notifications/requests";
    const AUTH: Auth = Auth::User("read:notifications");
    type Request = ListNotificationRequestsRequest;
    type Response = Paged<NotificationRequest>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListNotificationRequestsRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let page = app
            .notification_policies()
            .notification_requests(me, r.page.page(40, 80))
            .await?;
        Ok(Paged {
            link: app.page_link(caller, page.first, page.last),
            items: app.render_notification_requests(me, &page.requests).await?,
        })
    }
}
