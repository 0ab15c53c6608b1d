//! The badges local accounts show to everyone in `Account.roles`, as Mastodon shows them: the
//! role of a login whose role is highlighted (the built-in owner, admin and moderator roles,
//! and custom roles marked so). Rendering an account reads nothing: the holders of highlighted
//! roles are read at most once per [`BADGES_TTL`] (a handful of accounts on any server) into
//! [`StaffBadges`], which the app keeps and every request refreshes when it is stale.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::error::ApiResult;
use crate::id::Id;
use crate::pagination::Page;
use crate::store::{AccountOrigin, AdminAccountFilter, ModerationStore, Role, UserRoleRecord};

/// How long the badge holders read are trusted: a role given or taken, or a role's badge
/// changed, by another process (the CLI) shows within this time.
pub const BADGES_TTL: Duration = Duration::from_secs(30);

/// Holders read per page.
const HOLDERS_PER_READ: usize = 200;

/// A login's highlighted role: the built-in one, or a custom role with its record.
#[derive(Clone, Debug, PartialEq)]
pub struct Badge {
    /// The role.
    pub role: Role,
    /// Its record, for a custom role.
    pub custom: Option<UserRoleRecord>,
}

/// The holders of highlighted roles, by account, as last read.
type Holders = Arc<HashMap<Id, Badge>>;

/// The badge holders as last read, kept by the app.
#[derive(Debug, Default)]
pub struct StaffBadges {
    read: Mutex<Option<(Instant, Holders)>>,
}

impl StaffBadges {
    /// The badge of the local account `account`, as last read (`None`: no highlighted role, or
    /// nothing read yet).
    pub fn of(&self, account: Id) -> Option<Badge> {
        let read = self.read.lock().unwrap_or_else(PoisonError::into_inner);
        read.as_ref()
            .and_then(|(_, holders)| holders.get(&account).cloned())
    }

    /// Reads the holders again when the last read is older than [`BADGES_TTL`] (or there was
    /// none). A store without moderation data cannot list role holders: nobody shows a badge.
    pub async fn refresh_if_stale(&self, store: Option<&dyn ModerationStore>) -> ApiResult<()> {
        let fresh = {
            let read = self.read.lock().unwrap_or_else(PoisonError::into_inner);
            read.as_ref()
                .is_some_and(|(at, _)| at.elapsed() < BADGES_TTL)
        };
        let Some(store) = store else {
            return Ok(());
        };
        if fresh {
            return Ok(());
        }
        let holders = Arc::new(read_holders(store).await?);
        *self.read.lock().unwrap_or_else(PoisonError::into_inner) = Some((Instant::now(), holders));
        Ok(())
    }

    /// Forgets what was read (a role changed in this process): the next request reads again.
    pub fn forget(&self) {
        *self.read.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

/// Every local account whose login holds a highlighted role, with that role.
async fn read_holders(store: &dyn ModerationStore) -> ApiResult<HashMap<Id, Badge>> {
    let mut badges: Vec<Badge> = [Role::Owner, Role::Admin, Role::Moderator]
        .into_iter()
        .map(|role| Badge { role, custom: None })
        .collect();
    badges.extend(
        store
            .user_roles()
            .await?
            .into_iter()
            .filter(|r| r.highlighted)
            .map(|r| Badge {
                role: Role::Custom(r.id),
                custom: Some(r),
            }),
    );
    let mut holders = HashMap::new();
    for badge in badges {
        let filter = AdminAccountFilter {
            origin: Some(AccountOrigin::Local),
            roles: vec![badge.role.as_str().into_owned()],
            ..AdminAccountFilter::default()
        };
        let mut page = Page::first(HOLDERS_PER_READ);
        loop {
            let ids = store.admin_account_ids(&filter, page).await?;
            holders.extend(ids.iter().map(|&id| (id, badge.clone())));
            match ids.last() {
                Some(&last) if ids.len() == HOLDERS_PER_READ => page.max_id = Some(last),
                _ => break,
            }
        }
    }
    Ok(holders)
}

#[cfg(test)]
mod tests {
    use crate::store::{Role, UserRoleRecord};
    use crate::test_support::{account, app, member};

    /// What anyone sees of `account`'s badges, after the app read the holders.
    async fn badges_of(app: &crate::App, account: &crate::store::AccountRecord) -> Vec<String> {
        app.staff_badges.forget();
        app.staff_badges
            .refresh_if_stale(app.store.moderation())
            .await
            .expect("read");
        app.render_account(account)
            .roles
            .into_iter()
            .map(|r| r.name)
            .collect()
    }

    #[tokio::test]
    async fn staff_and_highlighted_custom_roles_show_to_everyone_and_others_do_not() {
        let app = app("badges.test");
        let admin = member(&app, "boss", Role::Admin).await;
        let moderator = member(&app, "keeper", Role::Moderator).await;
        let user = account(&app, "plain").await;
        let now = app.now();
        let role = |name: &str, highlighted: bool| UserRoleRecord {
            id: app.ids.next(),
            name: name.into(),
            color: "#00ff00".into(),
            permissions: 0,
            position: 5,
            highlighted,
            created_at: now,
            updated_at: now,
        };
        let helpers = role("Helpers", true);
        let quiet = role("Quiet", false);
        let store = app.store.moderation().expect("moderation data");
        store.save_user_role(&helpers).await.expect("role");
        store.save_user_role(&quiet).await.expect("role");
        let helper = member(&app, "helper", Role::Custom(helpers.id)).await;
        let quiet_one = member(&app, "hush", Role::Custom(quiet.id)).await;

        assert_eq!(badges_of(&app, &admin).await, ["Admin"]);
        assert_eq!(badges_of(&app, &moderator).await, ["Moderator"]);
        assert_eq!(badges_of(&app, &helper).await, ["Helpers"]);
        assert!(badges_of(&app, &quiet_one).await.is_empty());
        assert!(badges_of(&app, &user).await.is_empty());

        // A suspended holder shows nothing.
        let mut suspended = moderator.clone();
        suspended.suspended_at = Some(now);
        assert!(badges_of(&app, &suspended).await.is_empty());
    }

    #[tokio::test]
    async fn holders_are_read_once_per_ttl() {
        let app = app("badges.test");
        let store = app.store.moderation().expect("moderation data");
        app.staff_badges
            .refresh_if_stale(Some(store))
            .await
            .expect("read");
        // Made a moderator after the read: not seen until the read is stale or forgotten.
        let late = member(&app, "late", Role::Moderator).await;
        app.staff_badges
            .refresh_if_stale(Some(store))
            .await
            .expect("fresh: not read");
        assert!(app.render_account(&late).roles.is_empty());
        app.staff_badges.forget();
        app.staff_badges
            .refresh_if_stale(Some(store))
            .await
            .expect("read again");
        assert_eq!(app.render_account(&late).roles.len(), 1);
    }
}
