//! `POST /api/v1/notifications/requests/dismiss`: dismiss several of the caller's notification requests (`id[]`; ids of no request of the caller's are skipped). <https://docs.joinmastodon.org/methods/notifications/#dismiss-multiple-requests>

use http::Method;

use crate::api::notification_requests::RequestIds;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Dismiss several of the caller's notification requests (`id[]`; ids of no request of the caller's are skipped).
pub struct DismissNotificationRequests;

impl Endpoint for DismissNotificationRequests {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/notifications/requests/dismiss";
    const AUTH: Auth = Auth::User("write:notifications");
    type Request = RequestIds;
    type Response = Json<Empty>;

    async fn handle(app: &App, caller: &Caller, r: RequestIds) -> ApiResult<Self::Response> {
        app.notification_policies()
            .dismiss_notification_requests(caller.account()?, &r.ids()?, false)
            .await?;
        Ok(Json(Empty {}))
    }
}
