//! `POST /api/v1/notifications/:id/dismiss`: Dismiss one of the caller's notifications (404 for anyone else's, which stays). <https://docs.joinmastodon.org/methods/notifications/#dismiss>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Dismiss one of the caller's notifications; only its owner may: another account's is a 404 and
/// stays.
pub struct DismissNotification;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DismissNotificationRequest {
    /// The notification's id (path).
    pub id: String,
}

impl Endpoint for DismissNotification {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/notifications/:id/dismiss";
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
