//! `POST /api/v1/notifications/requests/:id/accept`: accept one of the caller's notification requests: its notifications join the others, and its sender is accepted from now on. Anyone else's request is a 404. <https://docs.joinmastodon.org/methods/notifications/#accept-request>

use http::Method;

use crate::api::notification_requests::RequestId;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Accept one of the caller's notification requests: its notifications join the others, and its sender is accepted from now on.
pub struct AcceptNotificationRequest;

impl Endpoint for AcceptNotificationRequest {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/notifications/requests/:id/accept";
    const AUTH: Auth = Auth::User("write:notifications");
    type Request = RequestId;
    type Response = Json<Empty>;

    async fn handle(app: &App, caller: &Caller, r: RequestId) -> ApiResult<Self::Response> {
        app.notification_policies()
            .accept_notification_requests(caller.account()?, &[path_id(&r.id)?], true)
            .await?;
        Ok(Json(Empty {}))
    }
}
