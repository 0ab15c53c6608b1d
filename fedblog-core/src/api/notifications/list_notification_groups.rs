//! `GET /api/v2/notifications`: The caller's notifications as groups (40 groups by default, 80 at most). <https://docs.joinmastodon.org/methods/grouped_notifications/#get-grouped>

use http::Method;
use serde::Deserialize;

use crate::api::notifications::{NotificationFilter, grouped_types};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Linked};
use crate::entities::GroupedNotificationsResults;
use crate::error::ApiResult;
use crate::pagination::PageParams;
use crate::params::de;

/// The caller's notifications as groups: favourites and reblogs of one status and follows
/// within a window share a group (`grouped_types[]` narrows which types group), filtered as
/// `GET /api/v1/notifications` is and paginated over notification ids (`max_id`, `since_id`,
/// `min_id`) with Link headers. The answer carries the groups, their accounts and statuses.
pub struct ListNotificationGroups;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListNotificationGroupsRequest {
    /// Cursor (notification ids) and limit (groups).
    #[serde(flatten)]
    pub page: PageParams,
    /// Type and account filters.
    #[serde(flatten)]
    pub filter: NotificationFilter,
    /// The types that may be grouped.
    #[serde(default, deserialize_with = "de::list")]
    pub grouped_types: Vec<String>,
    /// `full` (default) or `partial_avatars`.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub expand_accounts: Option<String>,
    /// Also the notifications the caller's notification policy held back.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub include_filtered: Option<bool>,
}

impl Endpoint for ListNotificationGroups {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2/notifications";
    const AUTH: Auth = Auth::User("read:notifications");
    type Request = ListNotificationGroupsRequest;
    type Response = Linked<GroupedNotificationsResults>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListNotificationGroupsRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let query = r.filter.query(r.include_filtered.unwrap_or(false));
        let grouped = grouped_types(&r.grouped_types);
        let page = app
            .notification_groups()
            .page(me, &query, &grouped, r.page.page(40, 80))
            .await?;
        let partial = r.expand_accounts.as_deref() == Some("partial_avatars");
        let body = app
            .render_notification_groups(me, &page.groups, partial)
            .await?;
        Ok(Linked {
            body,
            link: app.page_link(caller, page.first, page.last),
        })
    }
}
