//! `POST /api/v2/notifications/:group_key/dismiss`: Dismiss every notification of one group of the caller's (404 when the caller has none under the key). <https://docs.joinmastodon.org/methods/grouped_notifications/#dismiss-group>

use http::Method;

use crate::api::notifications::get_notification_group::NotificationGroupRequest;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Dismiss every notification of one group of the caller's; only its owner may (another
/// account's key is a 404 and its notifications stay).
pub struct DismissNotificationGroup;

impl Endpoint for DismissNotificationGroup {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v2/notifications/:group_key/dismiss";
    const AUTH: Auth = Auth::User("write:notifications");
    type Request = NotificationGroupRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: NotificationGroupRequest,
    ) -> ApiResult<Self::Response> {
        app.notification_groups()
            .dismiss_notification_group(caller.account()?, &r.group_key)
            .await?;
        Ok(Json(Empty {}))
    }
}
