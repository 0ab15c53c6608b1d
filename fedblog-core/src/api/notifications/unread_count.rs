//! `GET /api/v1/notifications/unread_count`: How many notifications came after the caller's notifications marker (100 counted by default, 1,000 at most). <https://docs.joinmastodon.org/methods/notifications/#unread-count>

use http::Method;
use serde::{Deserialize, Serialize};

use crate::api::notifications::{NotificationFilter, unread_limit};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::ApiResult;
use crate::params::de;

/// How many of the caller's notifications are newer than its `notifications` marker (all of
/// them without a marker), filtered as the list is, counting no further than `limit` (100 by
/// default, 1,000 at most).
pub struct UnreadCount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnreadCountRequest {
    /// Most to count.
    #[serde(default, deserialize_with = "de::opt_i64")]
    pub limit: Option<i64>,
    /// Type and account filters.
    #[serde(flatten)]
    pub filter: NotificationFilter,
}

/// The answer.
#[derive(Debug, Serialize)]
pub struct UnreadCountResponse {
    /// Notifications not read yet.
    pub count: u64,
}

impl Endpoint for UnreadCount {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/notifications/unread_count";
    const AUTH: Auth = Auth::User("read:notifications");
    type Request = UnreadCountRequest;
    type Response = Json<UnreadCountResponse>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnreadCountRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let limit = unread_limit(r.limit);
        let after = app.markers().last_read_notification(me).await?;
        let count = app
            .notifications()
            .count_notifications(me, &r.filter.query(false), after, limit)
            .await?;
        Ok(Json(UnreadCountResponse { count }))
    }
}
