//! The caller's notifications. <https://docs.joinmastodon.org/methods/notifications/>
pub mod clear_notification_groups;
pub mod clear_notifications;
pub mod delete_notification;
pub mod dismiss_notification;
pub mod dismiss_notification_group;
pub mod dismiss_notifications;
pub mod get_notification;
pub mod get_notification_group;
pub mod list_notification_groups;
pub mod list_notifications;
pub mod notification_group_accounts;
pub mod unread_count;
pub mod unread_group_count;

use serde::Deserialize;

use crate::id::Id;
use crate::params::de;
use crate::services::notification_groups::GROUPABLE_TYPES;
use crate::store::{NotificationQuery, NotificationType};

/// How far an unread count counts: 100 by default, 1,000 at most (Mastodon's clamp).
pub fn unread_limit(limit: Option<i64>) -> u64 {
    match limit {
        None | Some(0) => 100,
        Some(n) => n.unsigned_abs().min(1000),
    }
}

/// The types `grouped_types[]` lets group: those named that can be grouped, or all of them when
/// it is absent.
pub fn grouped_types(names: &[String]) -> Vec<NotificationType> {
    if names.is_empty() {
        return GROUPABLE_TYPES.to_vec();
    }
    GROUPABLE_TYPES
        .into_iter()
        .filter(|t| names.iter().any(|n| n.trim() == t.as_str()))
        .collect()
}

/// The filters shared by the notification list and the unread count.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct NotificationFilter {
    /// Only these types (unknown names are ignored; none known: nothing).
    #[serde(deserialize_with = "de::list")]
    pub types: Vec<String>,
    /// Not these types.
    #[serde(deserialize_with = "de::list")]
    pub exclude_types: Vec<String>,
    /// Only notifications from this account.
    #[serde(deserialize_with = "de::opt_string")]
    pub account_id: Option<String>,
}

impl NotificationFilter {
    /// The store query, as Mastodon reads these parameters: no `types` means every type; an
    /// `account_id` that is no id matches nothing.
    pub fn query(&self, include_filtered: bool) -> NotificationQuery {
        let known = |names: &[String]| -> Vec<NotificationType> {
            names
                .iter()
                .filter_map(|n| NotificationType::parse(n.trim()))
                .collect()
        };
        NotificationQuery {
            types: (!self.types.is_empty()).then(|| known(&self.types)),
            exclude_types: known(&self.exclude_types),
            from_account_id: self
                .account_id
                .as_deref()
                .filter(|a| !a.is_empty())
                .map(|a| a.parse::<Id>().unwrap_or(Id(0))),
            group_key: None,
            include_filtered,
        }
    }
}
