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
use crate::permissions::{Permissions, role_by_id};
use crate::services::moderation::AdminAccountPage;
use crate::store::Role;

/// Accounts listed by default.
const DEFAULT_LIMIT: usize = 100;
/// Accounts listed at most.
const MAX_LIMIT: usize = 200;

/// The built-in roles, lowest first.
const ROLES: [Role; 4] = [Role::User, Role::Moderator, Role::Admin, Role::Owner];

/// The names of the roles whose accounts count as staff: those who may handle reports
/// (Mastodon's `UserRole.that_can(:manage_reports)`).
fn staff_roles() -> Vec<String> {
    ROLES
        .into_iter()
        .filter(|r| Permissions::of(*r).allow(Permissions::MANAGE_REPORTS))
        .map(|r| r.as_str().to_string())
        .collect()
}

/// The role names a list filter takes from `staff` and `role_ids[]` (both must hold when both are
/// given): `Some(vec![])` for any role, `None` when no account can match (only unknown role
/// ids, or no staff role among them).
fn roles_filter(staff: bool, role_ids: &[Value]) -> Option<Vec<String>> {
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
    if staff {
        let staff = staff_roles();
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

/// The caller's role (a signed-in caller always has a login).
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

    #[test]
    fn staff_are_the_roles_that_handle_reports() {
        assert_eq!(staff_roles(), ["moderator", "admin", "owner"]);
    }

    #[test]
    fn role_filters_combine_ids_and_staff() {
        let ids = |v: &[&str]| v.iter().map(|s| Value::from(*s)).collect::<Vec<_>>();
        assert_eq!(roles_filter(false, &[]), Some(vec![]));
        assert_eq!(
            roles_filter(false, &ids(&["2", "-99"])),
            Some(vec!["admin".to_string(), "user".to_string()])
        );
        assert_eq!(
            roles_filter(false, &[Value::from(3)]),
            Some(vec!["owner".into()])
        );
        // Only unknown ids, or no staff among the ids asked with `staff`: nothing matches.
        assert_eq!(roles_filter(false, &ids(&["42"])), None);
        assert_eq!(roles_filter(true, &ids(&["-99"])), None);
        assert_eq!(
            roles_filter(true, &ids(&["-99", "1"])),
            Some(vec!["moderator".to_string()])
        );
        assert_eq!(roles_filter(true, &[]).map(|r| r.len()), Some(3));
        assert_eq!(
            domain_filter(Some(" Remote.Example ".into())).as_deref(),
            Some("remote.example")
        );
        assert_eq!(domain_filter(Some("  ".into())), None);
    }
}
