//! `PATCH /api/v2/notifications/policy`: change the caller's notification policy (`for_not_following`, `for_not_followers`, `for_new_accounts`, `for_private_mentions`, `for_limited_accounts`: `accept`, `filter` or `drop`; anything else is a 422). <https://docs.joinmastodon.org/methods/notifications/#update-the-filtering-policy-for-notifications>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::NotificationPolicy;
use crate::error::ApiResult;
use crate::params::de;
use crate::render::render_notification_policy;
use crate::services::notification_policies::PolicyChanges;

/// Change the caller's notification policy; the values not given are kept.
pub struct UpdateNotificationPolicy;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct UpdateNotificationPolicyRequest {
    /// From accounts the caller does not follow.
    #[serde(deserialize_with = "de::opt_string")]
    pub for_not_following: Option<String>,
    /// From accounts that do not follow the caller.
    #[serde(deserialize_with = "de::opt_string")]
    pub for_not_followers: Option<String>,
    /// From accounts created in the past 30 days.
    #[serde(deserialize_with = "de::opt_string")]
    pub for_new_accounts: Option<String>,
    /// Private mentions.
    #[serde(deserialize_with = "de::opt_string")]
    pub for_private_mentions: Option<String>,
    /// From accounts a moderator limited.
    #[serde(deserialize_with = "de::opt_string")]
    pub for_limited_accounts: Option<String>,
}

impl Endpoint for UpdateNotificationPolicy {
    const METHOD: Method = Method::PATCH;
    const PATH: &'static str = "/api/v2/notifications/policy";
    const AUTH: Auth = Auth::User("write:notifications");
    type Request = UpdateNotificationPolicyRequest;
    type Response = Json<NotificationPolicy>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UpdateNotificationPolicyRequest,
    ) -> ApiResult<Self::Response> {
        let changes = PolicyChanges {
            for_not_following: r.for_not_following,
            for_not_followers: r.for_not_followers,
            for_new_accounts: r.for_new_accounts,
            for_private_mentions: r.for_private_mentions,
            for_limited_accounts: r.for_limited_accounts,
        };
        let (policy, summary) = app
            .notification_policies()
            .update_notification_policy(caller.account()?, changes)
            .await?;
        Ok(Json(render_notification_policy(&policy, summary)))
    }
}
