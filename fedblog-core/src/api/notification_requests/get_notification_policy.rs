//! `GET /api/v2/notifications/policy`: the caller's notification filtering policy, with what it holds back. <https://docs.joinmastodon.org/methods/notifications/#get-policy>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::NotificationPolicy;
use crate::error::ApiResult;
use crate::render::render_notification_policy;

/// The caller's notification policy (Mastodon's defaults until changed) and its summary.
pub struct GetNotificationPolicy;

impl Endpoint for GetNotificationPolicy {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2/notifications/policy";
    const AUTH: Auth = Auth::User("read:notifications");
    type Request = NoParams;
    type Response = Json<NotificationPolicy>;

    async fn handle(app: &App, caller: &Caller, _: NoParams) -> ApiResult<Self::Response> {
        let (policy, summary) = app
            .notification_policies()
            .notification_policy(caller.account()?)
            .await?;
        Ok(Json(render_notification_policy(&policy, summary)))
    }
}
