//! `POST /api/v2/notifications/clear`: Remove all of the caller's notifications, from the grouped notifications API (Mastodon's `Api::V2::NotificationsController#clear`, routed but undocumented).

use http::Method;

use crate::api::notifications::clear_notifications::{
    ClearNotifications, ClearNotificationsRequest,
};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Remove all of the caller's notifications, every group with them: what
/// `POST /api/v1/notifications/clear` does (the same handler), answered with `{}`.
pub struct ClearNotificationGroups;

impl Endpoint for ClearNotificationGroups {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v2/notifications/clear";
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
