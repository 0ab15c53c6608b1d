//! `GET /api/v2/notifications/unread_count`: How many notification groups came after the caller's notifications marker (100 counted by default, 1,000 at most). <https://docs.joinmastodon.org/methods/grouped_notifications/#unread-group-count>

use http::Method;
use serde::Deserialize;

use crate::api::notifications::unread_count::UnreadCountResponse;
use crate::api::notifications::{NotificationFilter, grouped_types, unread_limit};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::ApiResult;
use crate::params::de;

/// How many groups the caller's notifications newer than its `notifications` marker make (all
/// of them without a marker), filtered as the list is, counting no further than `limit` (100 by
/// default, 1,000 at most).
pub struct UnreadGroupCount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnreadGroupCountRequest {
    /// Most to count.
    #[serde(default, deserialize_with = "de::opt_i64")]
    pub limit: Option<i64>,
    /// Type and account filters.
    #[serde(flatten)]
    pub filter: NotificationFilter,
    /// The types that may be grouped.
    #[serde(default, deserialize_with = "de::list")]
    pub grouped_types: Vec<String>,
}

impl Endpoint for UnreadGroupCount {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2/notifications/unread_count";
    const AUTH: Auth = Auth::User("read:notifications");
    type Request = UnreadGroupCountRequest;
    type Response = Json<UnreadCountResponse>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnreadGroupCountRequest,
    ) -> ApiResult<Self::Response> {
        let limit = unread_limit(r.limit);
        let count = app
            .notification_groups()
            .count_notification_groups(
                caller.account()?,
                &r.filter.query(false),
                &grouped_types(&r.grouped_types),
                limit,
            )
            .await?;
        Ok(Json(UnreadCountResponse { count }))
    }
}
