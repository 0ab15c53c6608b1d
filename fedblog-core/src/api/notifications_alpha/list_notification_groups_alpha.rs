//! `GET /api/v2_alpha/notifications`: The caller's notifications as groups, under the path of Mastodon 4.3's betas. <https://docs.joinmastodon.org/methods/notifications_alpha/#get-grouped>

use http::Method;

use crate::api::notifications::list_notification_groups::{
    ListNotificationGroups, ListNotificationGroupsRequest,
};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Linked};
use crate::entities::GroupedNotificationsResults;
use crate::error::ApiResult;

/// `GET /api/v2/notifications` under its beta path: the same parameters, page and body, with
/// `Link` headers naming this path (they are built from the request's own path).
pub struct ListNotificationGroupsAlpha;

impl Endpoint for ListNotificationGroupsAlpha {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2_alpha/notifications";
    const AUTH: Auth = Auth::User("read:notifications");
    type Request = ListNotificationGroupsRequest;
    type Response = Linked<GroupedNotificationsResults>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListNotificationGroupsRequest,
    ) -> ApiResult<Self::Response> {
        <ListNotificationGroups as Endpoint>::handle(app, caller, r).await
    }
}
