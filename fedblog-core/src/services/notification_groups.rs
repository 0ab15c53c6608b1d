//! Grouped notifications (`/api/v2/notifications`, Mastodon 4.3): notifications sharing a group
//! key (favourites and reblogs of one status, follows, within a window) shown as one group, paged
//! over the notifications themselves.

use std::collections::HashMap;

use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::pagination::Page;
use crate::services::markers::Markers;
use crate::services::notifications::Notifications;
use crate::store::{
    AccountRecord, NotificationQuery, NotificationRecord, NotificationStore, NotificationType,
    Store,
};

/// The types grouped unless a client asks for fewer (`grouped_types[]`).
pub const GROUPABLE_TYPES: [NotificationType; 4] = [
    NotificationType::Favourite,
    NotificationType::Reblog,
    NotificationType::Follow,
    NotificationType::AdminSignUp,
];

/// Accounts named per group (`sample_account_ids`), the most recent first.
pub const SAMPLE_ACCOUNTS: usize = 8;

/// Notifications read at once while gathering groups.
const GROUP_READ: usize = 80;

/// Reads one page of groups may take.
const MAX_GROUP_READS: usize = 8;

/// A group of notifications as one page shows it.
#[derive(Clone, Debug)]
pub struct NotificationGroup {
    /// The group's key (`ungrouped-<id>` for a notification shown alone).
    pub key: String,
    /// The type of its notifications.
    pub kind: NotificationType,
    /// Its notifications within the page, newest first (never empty).
    pub notifications: Vec<NotificationRecord>,
}

impl NotificationGroup {
    /// The newest notification of the group in the page.
    pub fn most_recent(&self) -> &NotificationRecord {
        &self.notifications[0]
    }

    /// The accounts that acted, most recent first, each once, at most [`SAMPLE_ACCOUNTS`].
    pub fn sample_account_ids(&self) -> Vec<Id> {
        let mut out: Vec<Id> = Vec::new();
        for n in &self.notifications {
            if !out.contains(&n.from_account_id) {
                out.push(n.from_account_id);
                if out.len() == SAMPLE_ACCOUNTS {
                    break;
                }
            }
        }
        out
    }
}

/// A page of groups, with the cursors (notification ids) of the notifications it covers.
pub struct GroupPage {
    /// The groups, the one with the most recent notification first.
    pub groups: Vec<NotificationGroup>,
    /// The newest notification id covered.
    pub first: Option<Id>,
    /// The oldest notification id covered.
    pub last: Option<Id>,
}

/// The key a notification is shown under when only `grouped` types are grouped.
pub fn shown_group_key(n: &NotificationRecord, grouped: &[NotificationType]) -> String {
    if grouped.contains(&n.kind) && !n.group_key.starts_with("ungrouped-") {
        n.group_key.clone()
    } else {
        format!("ungrouped-{}", n.id)
    }
}

/// The grouped notifications area (Mastodon 4.3's `/api/v2/notifications`): pages of groups,
/// one group, dismissing a group, counting unread groups.
pub struct NotificationGroups<'a> {
    notification_store: &'a dyn NotificationStore,
    notifications: Notifications<'a>,
    markers: Markers<'a>,
}

impl<'a> NotificationGroups<'a> {
    /// The area over the notifications of `store`, showing them as `notifications` does, and
    /// reading the notifications marker through `markers`.
    pub fn new(
        store: &'a dyn Store,
        notifications: Notifications<'a>,
        markers: Markers<'a>,
    ) -> Self {
        NotificationGroups {
            notification_store: store,
            notifications,
            markers,
        }
    }
    /// One page of `me`'s notifications as groups: notifications are read in order (newest
    /// first; from `min_id` upwards when paging back) and gathered under their keys until
    /// `page.limit` groups are found; the page covers the notifications read up to there. Read
    /// filters are those of [`App::notifications`].
    pub async fn page(
        &self,
        me: &AccountRecord,
        query: &NotificationQuery,
        grouped: &[NotificationType],
        page: Page,
    ) -> ApiResult<GroupPage> {
        let mut groups: Vec<NotificationGroup> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        let (mut first, mut last): (Option<Id>, Option<Id>) = (None, None);
        let mut cursor = Page {
            limit: GROUP_READ,
            ..page
        };
        'reads: for _ in 0..MAX_GROUP_READS {
            let read = self
                .notification_store
                .notifications_page(me.id, query, cursor)
                .await?;
            let full = read.len() >= GROUP_READ;
            let (Some(newest), Some(oldest)) =
                (read.first().map(|n| n.id), read.last().map(|n| n.id))
            else {
                break;
            };
            let mut shown = self.notifications.shown_notifications(me, read).await?;
            // Reading order: downwards newest first, upwards (from `min_id`) oldest first.
            if page.ascending() {
                shown.reverse();
            }
            for n in shown {
                let key = shown_group_key(&n, grouped);
                let at = match index.get(&key) {
                    Some(&i) => i,
                    None if groups.len() == page.limit => break 'reads,
                    None => {
                        index.insert(key.clone(), groups.len());
                        groups.push(NotificationGroup {
                            key,
                            kind: n.kind,
                            notifications: vec![],
                        });
                        groups.len() - 1
                    }
                };
                first = Some(first.map_or(n.id, |f: Id| f.max(n.id)));
                last = Some(last.map_or(n.id, |l: Id| l.min(n.id)));
                groups[at].notifications.push(n);
            }
            // Everything read was taken: the page covers it even where filters hid it.
            first = Some(first.map_or(newest, |f| f.max(newest)));
            last = Some(last.map_or(oldest, |l| l.min(oldest)));
            if !full {
                break;
            }
            cursor = if page.ascending() {
                Page {
                    min_id: Some(newest),
                    ..cursor
                }
            } else {
                Page {
                    max_id: Some(oldest),
                    ..cursor
                }
            };
        }
        for g in &mut groups {
            g.notifications.sort_by_key(|n| std::cmp::Reverse(n.id));
        }
        groups.sort_by_key(|g| std::cmp::Reverse(g.most_recent().id));
        Ok(GroupPage {
            groups,
            first,
            last,
        })
    }

    /// The group `key` of `me`'s notifications, whole; 404 when `me` has none under it.
    pub async fn notification_group(
        &self,
        me: &AccountRecord,
        key: &str,
    ) -> ApiResult<NotificationGroup> {
        let notifications = if let Some(id) = key.strip_prefix("ungrouped-") {
            let id = id.parse::<Id>().map_err(|_| ApiError::not_found())?;
            vec![self.notifications.notification(me, id).await?]
        } else {
            let query = NotificationQuery {
                group_key: Some(key.to_string()),
                ..Default::default()
            };
            let mut all = Vec::new();
            let mut page = Page::first(GROUP_READ);
            for _ in 0..MAX_GROUP_READS {
                let read = self
                    .notification_store
                    .notifications_page(me.id, &query, page)
                    .await?;
                let full = read.len() >= GROUP_READ;
                page.max_id = read.last().map(|n| n.id);
                all.extend(self.notifications.shown_notifications(me, read).await?);
                if !full {
                    break;
                }
            }
            all
        };
        let kind = notifications
            .first()
            .map(|n| n.kind)
            .ok_or_else(ApiError::not_found)?;
        Ok(NotificationGroup {
            key: key.to_string(),
            kind,
            notifications,
        })
    }

    /// Dismisses every notification of `me`'s group `key`; 404 when there is none.
    pub async fn dismiss_notification_group(&self, me: &AccountRecord, key: &str) -> ApiResult<()> {
        let gone = match key.strip_prefix("ungrouped-") {
            Some(id) => {
                let id = id.parse::<Id>().map_err(|_| ApiError::not_found())?;
                u64::from(
                    self.notification_store
                        .dismiss_notification(me.id, id)
                        .await?,
                )
            }
            None => {
                self.notification_store
                    .dismiss_notification_group(me.id, key)
                    .await?
            }
        };
        if gone == 0 {
            return Err(ApiError::not_found());
        }
        Ok(())
    }

    /// How many groups `me`'s notifications after its notifications marker make, counting no
    /// further than `limit`.
    pub async fn count_notification_groups(
        &self,
        me: &AccountRecord,
        query: &NotificationQuery,
        grouped: &[NotificationType],
        limit: u64,
    ) -> ApiResult<u64> {
        let after = self.markers.last_read_notification(me).await?;
        let mut keys = std::collections::HashSet::new();
        let mut page = Page {
            min_id: after,
            ..Page::first(GROUP_READ)
        };
        for _ in 0..MAX_GROUP_READS * 4 {
            let read = self
                .notification_store
                .notifications_page(me.id, query, page)
                .await?;
            let full = read.len() >= GROUP_READ;
            page.min_id = read.first().map(|n| n.id).or(page.min_id);
            for n in &read {
                keys.insert(shown_group_key(n, grouped));
                if keys.len() as u64 >= limit {
                    return Ok(limit);
                }
            }
            if !full {
                break;
            }
        }
        Ok(keys.len() as u64)
    }
}
