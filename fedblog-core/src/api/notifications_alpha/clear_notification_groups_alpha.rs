//! `POST /api/v2_alpha/notifications/clear`: Remove all of the caller's notifications, under the path of Mastodon 4.3's betas (its `Api::V2Alpha::NotificationsController#clear`, undocumented).

use http::Method;

use crate::api::notifications::clear_notifications::{
    ClearNotifications, ClearNotificationsRequest,
};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Empty;
use crate::error::ApiResult;

/// `POST /api/v1/notifications/clear` under the grouped API's beta path: every notification of
/// the caller's goes, and the answer is `{}`.
pub struct ClearNotificationGroupsAlpha;

impl Endpoint for ClearNotificationGroupsAlpha {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v2_alpha/notifications/clear";
    const AUTH: Auth = Auth::User("write:notifications");
    type Request = ClearNotificationsRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ClearNotificationsRequest,
    ) -> ApiResult<Self::Response> {
        <ClearNotifications as Endpoint>::handle(app, caller, r).await
    }
}
