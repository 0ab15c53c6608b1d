//! Administration of accounts (`/api/v1/admin/accounts`, `/api/v2/admin/accounts`). <https://docs.joinmastodon.org/methods/admin/accounts/>
//!
//! Every endpoint takes a user token with its `admin:*` scope, then a role granting Manage Users
//! (deleting: Delete User Data), else 403; a store without moderation data answers 404.
//! Filters by IP address (`ip`) and by inviter (`invited_by`) are accepted but match no account:
//! fedblog records neither sign-up nor sign-in addresses, and has no invites, so no account is
//! known to match.

pub mod approve_account;
pub mod delete_account;
pub mod enable_account;
pub mod get_account;
pub mod list_accounts_v1;
pub mod list_accounts_v2;
pub mod moderate_account;
pub mod reject_account;
pub mod unsensitive_account;
pub mod unsilence_account;
pub mod unsuspend_account;

use serde_json::Value;

use crate::app::{App, Caller};
use crate::endpoint::Paged;
use crate::entities::AdminAccount;
use crate::error::ApiResult;
use crate::permissions::{Permissions, role_by_id, roles_that_can};
use crate::services::moderation::AdminAccountPage;
use crate::store::Role;

/// Accounts listed by default.
const DEFAULT_LIMIT: usize = 100;
/// Accounts listed at most.
const MAX_LIMIT: usize = 200;

/// The roles whose accounts count as staff, read when a list asks for staff only (`asked`):
/// those who may handle reports (Mastodon's `UserRole.that_can(:manage_reports)`), custom
/// roles included; `None` when not asked.
async fn staff_roles(app: &App, asked: bool) -> ApiResult<Option<Vec<Role>>> {
    if !asked {
        return Ok(None);
    }
    let roles = roles_that_can(app.store.moderation(), Permissions::MANAGE_REPORTS).await?;
    Ok(Some(roles))
}

/// The role names a list filter takes from `staff` (the staff roles, when the list asks for
/// staff only) and `role_ids[]` (built-in roles' ids or custom roles' ids; both must hold when
/// both are given): `Some(vec![])` for any role, `None` when no account can match (no role id
/// among `role_ids[]`, or no staff role among them).
fn roles_filter(staff: Option<&[Role]>, role_ids: &[Value]) -> Option<Vec<String>> {
    let mut roles: Option<Vec<String>> = None;
    if !role_ids.is_empty() {
        let named: Vec<String> = role_ids
            .iter()
            .filter_map(|v| match v {
                Value::String(s) => role_by_id(s),
                Value::Number(n) => role_by_id(&n.to_string()),
                _ => None,
            })
            .map(|r| r.as_str().to_string())
            .collect();
        roles = Some(named);
    }
    if let Some(staff) = staff {
        let staff: Vec<String> = staff.iter().map(|r| r.as_str().to_string()).collect();
        roles = Some(match roles {
            Some(named) => named.into_iter().filter(|r| staff.contains(r)).collect(),
            None => staff,
        });
    }
    match roles {
        None => Some(Vec::new()),
        Some(named) if named.is_empty() => None,
        Some(mut named) => {
            named.sort();
            named.dedup();
            Some(named)
        }
    }
}

/// A page of accounts rendered for moderators, with its `Link` header.
fn rendered_page(app: &App, caller: &Caller, page: AdminAccountPage) -> Paged<AdminAccount> {
    Paged {
        link: app.page_link(caller, page.first, page.last),
        items: page
            .accounts
            .iter()
            .map(|v| app.render_admin_account(v))
            .collect(),
    }
}

/// The caller's role (a signed-in caller always has a login; its rank, a custom role's
/// included, is what `permissions::Credentials::rank` gives).
fn caller_role(caller: &Caller) -> Role {
    caller.user.as_ref().map_or(Role::User, |u| u.role)
}

/// A lower-case domain, or `None` for an empty one.
fn domain_filter(raw: Option<String>) -> Option<String> {
    raw.map(|d| d.trim().to_lowercase())
        .filter(|d| !d.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in staff roles, as `staff_roles` reads them from a store without custom roles.
    const STAFF: [Role; 3] = [Role::Moderator, Role::Admin, Role::Owner];

    #[tokio::test]
    async fn staff_are_the_roles_that_handle_reports() {
        let app = crate::test_support::app("social.example");
        assert_eq!(staff_roles(&app, false).await.expect("roles"), None);
        assert_eq!(
            staff_roles(&app, true).await.expect("roles").as_deref(),
            Some(&STAFF[..])
        );
    }

    #[test]
    fn role_filters_combine_ids_and_staff() {
        let ids = |v: &[&str]| v.iter().map(|s| Value::from(*s)).collect::<Vec<_>>();
        let staff = Some(&STAFF[..]);
        assert_eq!(roles_filter(None, &[]), Some(vec![]));
        assert_eq!(
            roles_filter(None, &ids(&["2", "-99"])),
            Some(vec!["admin".to_string(), "user".to_string()])
        );
        assert_eq!(
            roles_filter(None, &[Value::from(3)]),
            Some(vec!["owner".into()])
        );
        // Another id is a custom role's.
        assert_eq!(
            roles_filter(None, &ids(&["42"])),
            Some(vec!["42".to_string()])
        );
        // No role id at all, or no staff among the ids asked with `staff`: nothing matches.
        assert_eq!(roles_filter(None, &ids(&["staff"])), None);
        assert_eq!(roles_filter(staff, &ids(&["-99"])), None);
        assert_eq!(roles_filter(staff, &ids(&["-99", "42"])), None);
        assert_eq!(
            roles_filter(staff, &ids(&["-99", "1"])),
            Some(vec!["moderator".to_string()])
        );
        assert_eq!(roles_filter(staff, &[]).map(|r| r.len()), Some(3));
        // A custom staff role counts.
        let custom = [Role::Moderator, Role::Custom(crate::id::Id(42))];
        assert_eq!(
            roles_filter(Some(&custom), &ids(&["42", "2"])),
            Some(vec!["42".to_string()])
        );
        assert_eq!(
            domain_filter(Some(" Remote.Example ".into())).as_deref(),
            Some("remote.example")
        );
        assert_eq!(domain_filter(Some("  ".into())), None);
    }
}
