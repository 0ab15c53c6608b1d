//! `GET /api/v1/notifications/requests/:id`: one of the caller's notification requests (anyone else's is a 404). <https://docs.joinmastodon.org/methods/notifications/#get-one-request>

use http::Method;

use crate::api::notification_requests::RequestId;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::NotificationRequest;
use crate::error::{ApiError, ApiResult};

/// One of the caller's notification requests.
pub struct GetNotificationRequest;

impl Endpoint for GetNotificationRequest {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/notifications/requests/:id";
    const AUTH: Auth = Auth::User("read:notifications");
    type Request = RequestId;
    type Response = Json<NotificationRequest>;

    async fn handle(app: &App, caller: &Caller, r: RequestId) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let request = app
            .notification_policies()
            .own_notification_request(me, path_id(&r.id)?)
            .await?;
        let mut rendered = app.render_notification_requests(me, &[request]).await?;
        rendered.pop().map(Json).ok_or_else(ApiError::not_found)
    }
}
