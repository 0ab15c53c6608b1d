//! `POST /api/v2_alpha/notifications/:group_key/dismiss`: Dismiss one group of the caller's notifications, under the path of Mastodon 4.3's betas. <https://docs.joinmastodon.org/methods/notifications_alpha/#dismiss-group>

use http::Method;

use crate::api::notifications::dismiss_notification_group::DismissNotificationGroup;
use crate::api::notifications::get_notification_group::NotificationGroupRequest;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Empty;
use crate::error::ApiResult;

/// `POST /api/v2/notifications/:group_key/dismiss` under its beta path: `{}`, or 404 when the
/// caller has no notification under the key.
pub struct DismissNotificationGroupAlpha;

impl Endpoint for DismissNotificationGroupAlpha {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v2_alpha/notifications/:group_key/dismiss";
    const AUTH: Auth = Auth::User("write:notifications");
    type Request = NotificationGroupRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: NotificationGroupRequest,
    ) -> ApiResult<Self::Response> {
        <DismissNotificationGroup as Endpoint>::handle(app, caller, r).await
    }
}
