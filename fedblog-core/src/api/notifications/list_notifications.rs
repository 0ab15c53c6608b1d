//! `GET /api/v1/notifications`: The caller's notifications, newest first (40 by default, 80 at most). <https://docs.joinmastodon.org/methods/notifications/#get>

use http::Method;
use serde::Deserialize;

use crate::api::notifications::NotificationFilter;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::Notification;
use crate::error::ApiResult;
use crate::pagination::PageParams;
use crate::params::de;

/// The caller's notifications, newest first (40 by default, 80 at most), filtered by `types[]`,
/// `exclude_types[]` and `account_id`, paginated with `max_id`, `since_id` and `min_id` and Link
/// headers. Notifications from accounts the caller blocks or mutes the notifications of, and
/// about statuses the caller can no longer see, are left out.
pub struct ListNotifications;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListNotificationsRequest {
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
    /// Type and account filters.
    #[serde(flatten)]
    pub filter: NotificationFilter,
    /// Also the notifications the caller's notification policy held back.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub include_filtered: Option<bool>,
}

impl Endpoint for ListNotifications {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/notifications";
    const AUTH: Auth = Auth::User("read:notifications");
    type Request = ListNotificationsRequest;
    type Response = Paged<Notification>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListNotificationsRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let query = r.filter.query(r.include_filtered.unwrap_or(false));
        let page = app
            .notifications()
            .page(me, &query, r.page.page(40, 80))
            .await?;
        Ok(Paged {
            link: app.page_link(caller, page.first, page.last),
            items: app.render_notifications(me, &page.notifications).await?,
        })
    }
}
