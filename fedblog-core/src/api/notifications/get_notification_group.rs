//! `GET /api/v2/notifications/:group_key`: One group of the caller's notifications, with its accounts and status (404 when the caller has none under the key). <https://docs.joinmastodon.org/methods/grouped_notifications/#get-notification-group>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::GroupedNotificationsResults;
use crate::error::ApiResult;

/// One group of the caller's notifications, whole, as a one-group result; 404 when the caller
/// has no notification under the key (another account's keys included).
pub struct GetNotificationGroup;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct NotificationGroupRequest {
    /// The group's key (path).
    pub group_key: String,
}

impl Endpoint for GetNotificationGroup {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2/notifications/:group_key";
    const AUTH: Auth = Auth::User("read:notifications");
    type Request = NotificationGroupRequest;
    type Response = Json<GroupedNotificationsResults>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: NotificationGroupRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let group = app
            .notification_groups()
            .notification_group(me, &r.group_key)
            .await?;
        Ok(Json(
            app.render_notification_groups(me, std::slice::from_ref(&group), false)
                .await?,
        ))
    }
}
