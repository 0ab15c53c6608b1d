//! `GET /api/v2/notifications/:group_key/accounts`: The accounts of one group of the caller's notifications, most recent first (404 when the caller has none under the key). <https://docs.joinmastodon.org/methods/grouped_notifications/#get-group-accounts>

use http::Method;

use crate::api::notifications::get_notification_group::NotificationGroupRequest;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Account;
use crate::error::ApiResult;

/// The accounts that acted in one group of the caller's notifications, most recent first, each
/// once.
pub struct NotificationGroupAccounts;

impl Endpoint for NotificationGroupAccounts {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2/notifications/:group_key/accounts";
    const AUTH: Auth = Auth::User("read:notifications");
    type Request = NotificationGroupRequest;
    type Response = Json<Vec<Account>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: NotificationGroupRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let group = app
            .notification_groups()
            .notification_group(me, &r.group_key)
            .await?;
        let mut ids = Vec::new();
        for n in &group.notifications {
            if !ids.contains(&n.from_account_id) {
                ids.push(n.from_account_id);
            }
        }
        let found = app.store.accounts_by_ids(&ids).await?;
        Ok(Json(
            ids.iter()
                .filter_map(|id| found.iter().find(|a| a.id == *id))
                .map(|a| app.render_account(a))
                .collect(),
        ))
    }
}
