//! `DELETE /api/v1/notifications/:id`: The older route of dismissing a notification, still in Mastodon's route table (404 for anyone else's). <https://docs.joinmastodon.org/methods/notifications/#dismiss>

use http::Method;

use crate::api::notifications::dismiss_notification::DismissNotificationRequest;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Dismiss one of the caller's notifications (as `POST .../dismiss`).
pub struct DeleteNotification;

impl Endpoint for DeleteNotification {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/notifications/:id";
    const AUTH: Auth = Auth::User("write:notifications");
    type Request = DismissNotificationRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DismissNotificationRequest,
    ) -> ApiResult<Self::Response> {
        app.notifications()
            .dismiss_notification(caller.account()?, path_id(&r.id)?)
            .await?;
        Ok(Json(Empty {}))
    }
}
