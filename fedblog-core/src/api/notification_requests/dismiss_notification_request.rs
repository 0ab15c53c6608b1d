//! `POST /api/v1/notifications/requests/:id/dismiss`: dismiss one of the caller's notification requests with its notifications. Anyone else's request is a 404. <https://docs.joinmastodon.org/methods/notifications/#dismiss-request>

use http::Method;

use crate::api::notification_requests::RequestId;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Dismiss one of the caller's notification requests with its notifications.
pub struct DismissNotificationRequest;

impl Endpoint for DismissNotificationRequest {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/notifications/requests/:id/dismiss";
    const AUTH: Auth = Auth::User("write:notifications");
    type Request = RequestId;
    type Response = Json<Empty>;

    async fn handle(app: &App, caller: &Caller, r: RequestId) -> ApiResult<Self::Response> {
        app.notification_policies()
            .dismiss_notification_requests(caller.account()?, &[path_id(&r.id)?], true)
            .await?;
        Ok(Json(Empty {}))
    }
}
