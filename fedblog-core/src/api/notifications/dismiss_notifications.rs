//! `DELETE /api/v1/notifications/destroy_multiple`: Dismiss several of the caller's notifications at once (`ids[]`; others' ids are ignored). Mastodon's route table still has it.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Empty;
use crate::error::ApiResult;
use crate::id::Id;
use crate::params::de;

/// Dismiss several of the caller's notifications; ids of other accounts' notifications, and ids
/// that are no ids, are ignored.
pub struct DismissNotifications;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DismissNotificationsRequest {
    /// The notifications' ids.
    #[serde(deserialize_with = "de::list")]
    pub ids: Vec<String>,
}

impl Endpoint for DismissNotifications {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/notifications/destroy_multiple";
    const AUTH: Auth = Auth::User("write:notifications");
    type Request = DismissNotificationsRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DismissNotificationsRequest,
    ) -> ApiResult<Self::Response> {
        let ids: Vec<Id> = r.ids.iter().filter_map(|s| s.parse().ok()).collect();
        app.notifications()
            .dismiss_notifications(caller.account()?, &ids)
            .await?;
        Ok(Json(Empty {}))
    }
}
