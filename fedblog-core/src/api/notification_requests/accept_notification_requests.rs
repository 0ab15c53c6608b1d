//! `POST /api/v1/notifications/requests/accept`: accept several of the caller's notification requests (`id[]`; ids of no request of the caller's are skipped). <https://docs.joinmastodon.org/methods/notifications/#accept-multiple-requests>

use http::Method;

use crate::api::notification_requests::RequestIds;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Accept several of the caller's notification requests (`id[]`; ids of no request of the caller's are skipped).
pub struct AcceptNotificationRequests;

impl Endpoint for AcceptNotificationRequests {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/notifications/requests/accept";
    const AUTH: Auth = Auth::User("write:notifications");
    type Request = RequestIds;
    type Response = Json<Empty>;

    async fn handle(app: &App, caller: &Caller, r: RequestIds) -> ApiResult<Self::Response> {
        app.notification_policies()
            .accept_notification_requests(caller.account()?, &r.ids()?, false)
            .await?;
        Ok(Json(Empty {}))
    }
}
