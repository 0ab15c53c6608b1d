//! `GET /api/v2_alpha/notifications/:group_key`: One group of the caller's notifications, under the path of Mastodon 4.3's betas. <https://docs.joinmastodon.org/methods/notifications_alpha/#get-notification-group>

use http::Method;

use crate::api::notifications::get_notification_group::{
    GetNotificationGroup, NotificationGroupRequest,
};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::GroupedNotificationsResults;
use crate::error::ApiResult;

/// `GET /api/v2/notifications/:group_key` under its beta path: the group as a one-group
/// result, 404 when the caller has no notification under the key.
pub struct GetNotificationGroupAlpha;

impl Endpoint for GetNotificationGroupAlpha {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2_alpha/notifications/:group_key";
    const AUTH: Auth = Auth::User("read:notifications");
    type Request = NotificationGroupRequest;
    type Response = Json<GroupedNotificationsResults>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: NotificationGroupRequest,
    ) -> ApiResult<Self::Response> {
        <GetNotificationGroup as Endpoint>::handle(app, caller, r).await
    }
}
