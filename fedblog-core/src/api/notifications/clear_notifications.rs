//! `POST /api/v1/notifications/clear`: Remove all of the caller's notifications. <https://docs.joinmastodon.org/methods/notifications/#clear>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Remove all of the caller's notifications.
pub struct ClearNotifications;

/// No parameters.
#[derive(Debug, Default, Deserialize)]
pub struct ClearNotificationsRequest {}

impl Endpoint for ClearNotifications {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/notifications/clear";
    const AUTH: Auth = Auth::User("write:notifications");
    type Request = ClearNotificationsRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        _r: ClearNotificationsRequest,
    ) -> ApiResult<Self::Response> {
        app.notifications()
            .clear_notifications(caller.account()?)
            .await?;
        Ok(Json(Empty {}))
    }
}
