//! `GET /api/v1/notifications/:id`: One of the caller's notifications (404 for anyone else's). <https://docs.joinmastodon.org/methods/notifications/#get-one>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Notification;
use crate::error::{ApiError, ApiResult};

/// One of the caller's notifications; another account's, or one the caller may no longer see, is
/// a 404.
pub struct GetNotification;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetNotificationRequest {
    /// The notification's id (path).
    pub id: String,
}

impl Endpoint for GetNotification {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/notifications/:id";
    const AUTH: Auth = Auth::User("read:notifications");
    type Request = GetNotificationRequest;
    type Response = Json<Notification>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetNotificationRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let n = app
            .notifications()
            .notification(me, path_id(&r.id)?)
            .await?;
        app.render_notifications(me, std::slice::from_ref(&n))
            .await?
            .pop()
            .map(Json)
            .ok_or_else(ApiError::not_found)
    }
}
