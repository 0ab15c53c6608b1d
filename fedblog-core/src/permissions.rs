//! Staff permissions: Mastodon's role permission flags, the built-in roles' sets of them, and
//! the check every admin endpoint makes after its token's `admin:*` scope.
//! <https://docs.joinmastodon.org/entities/Role/#permission-flags>

use http::StatusCode;

use crate::app::Caller;
use crate::error::{ApiError, ApiResult};
use crate::store::{AccountRecord, Role};

/// A set of permission flags (`Role.permissions` is its decimal value as a string).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Permissions(pub u64);

impl Permissions {
    /// Every permission, whatever the other flags say.
    pub const ADMINISTRATOR: Permissions = Permissions(1 << 0);
    /// Sidekiq and PgHero dashboards in Mastodon.
    pub const VIEW_DEVOPS: Permissions = Permissions(1 << 1);
    /// The audit log.
    pub const VIEW_AUDIT_LOG: Permissions = Permissions(1 << 2);
    /// The dashboard and its measures.
    pub const VIEW_DASHBOARD: Permissions = Permissions(1 << 3);
    /// Reports: see, assign, resolve.
    pub const MANAGE_REPORTS: Permissions = Permissions(1 << 4);
    /// Domain blocks and allows.
    pub const MANAGE_FEDERATION: Permissions = Permissions(1 << 5);
    /// Server settings.
    pub const MANAGE_SETTINGS: Permissions = Permissions(1 << 6);
    /// E-mail domain, canonical e-mail and IP blocks.
    pub const MANAGE_BLOCKS: Permissions = Permissions(1 << 7);
    /// Hashtags and trends review.
    pub const MANAGE_TAXONOMIES: Permissions = Permissions(1 << 8);
    /// Appeals of moderation decisions.
    pub const MANAGE_APPEALS: Permissions = Permissions(1 << 9);
    /// Accounts: see them and act on them.
    pub const MANAGE_USERS: Permissions = Permissions(1 << 10);
    /// Invite links.
    pub const MANAGE_INVITES: Permissions = Permissions(1 << 11);
    /// Server rules.
    pub const MANAGE_RULES: Permissions = Permissions(1 << 12);
    /// Announcements.
    pub const MANAGE_ANNOUNCEMENTS: Permissions = Permissions(1 << 13);
    /// Custom emojis.
    pub const MANAGE_CUSTOM_EMOJIS: Permissions = Permissions(1 << 14);
    /// Webhooks.
    pub const MANAGE_WEBHOOKS: Permissions = Permissions(1 << 15);
    /// Creating invite links.
    pub const INVITE_USERS: Permissions = Permissions(1 << 16);
    /// Roles below one's own.
    pub const MANAGE_ROLES: Permissions = Permissions(1 << 17);
    /// Users' two-factor settings and e-mail addresses.
    pub const MANAGE_USER_ACCESS: Permissions = Permissions(1 << 18);
    /// Deleting users' data.
    pub const DELETE_USER_DATA: Permissions = Permissions(1 << 19);

    /// Every flag above.
    pub const ALL: Permissions = Permissions((1 << 20) - 1);
    /// Nothing.
    pub const NONE: Permissions = Permissions(0);

    /// The permissions of a built-in role, as Mastodon seeds them: everyone may invite; a
    /// moderator sees the audit log and manages reports, taxonomies and users; an admin has
    /// every flag; the owner is an administrator.
    pub fn of(role: Role) -> Permissions {
        match role {
            Role::Owner => Permissions::ADMINISTRATOR,
            Role::Admin => Permissions::ALL,
            Role::Moderator => Permissions(
                Permissions::VIEW_AUDIT_LOG.0
                    | Permissions::MANAGE_REPORTS.0
                    | Permissions::MANAGE_TAXONOMIES.0
                    | Permissions::MANAGE_USERS.0,
            ),
            Role::User => Permissions::INVITE_USERS,
        }
    }

    /// Whether this set grants `p` (the administrator flag grants everything).
    pub fn allow(self, p: Permissions) -> bool {
        self.0 & Permissions::ADMINISTRATOR.0 != 0 || self.0 & p.0 == p.0
    }

    /// Whether this set makes its holder staff (any flag but inviting).
    pub fn is_staff(self) -> bool {
        self.0 & !Permissions::INVITE_USERS.0 != 0
    }
}

/// The built-in role's id as Mastodon numbers them (`-99` for everyone, then moderator 1,
/// admin 2, owner 3), the `role.id` and `role_ids[]` of the API.
pub fn role_id(role: Role) -> &'static str {
    match role {
        Role::User => "-99",
        Role::Moderator => "1",
        Role::Admin => "2",
        Role::Owner => "3",
    }
}

/// The built-in role with this id, if any.
pub fn role_by_id(id: &str) -> Option<Role> {
    [Role::User, Role::Moderator, Role::Admin, Role::Owner]
        .into_iter()
        .find(|r| role_id(*r) == id.trim())
}

/// The signed-in caller, if its role grants `p`; otherwise 403 (the token's `admin:*` scope is
/// checked before, by the endpoint's `Auth`).
pub fn require(caller: &Caller, p: Permissions) -> ApiResult<&AccountRecord> {
    let account = caller.account()?;
    let role = caller.user.as_ref().map_or(Role::User, |u| u.role);
    if Permissions::of(role).allow(p) {
        Ok(account)
    } else {
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "This action is not allowed",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_roles_have_mastodons_permission_values() {
        assert_eq!(Permissions::of(Role::Admin).0, 1_048_575);
        assert_eq!(Permissions::of(Role::Moderator).0, 1300);
        assert_eq!(Permissions::of(Role::User).0, 65_536);
        assert!(Permissions::of(Role::Owner).allow(Permissions::MANAGE_FEDERATION));
        assert!(Permissions::of(Role::Moderator).allow(Permissions::MANAGE_REPORTS));
        assert!(!Permissions::of(Role::Moderator).allow(Permissions::MANAGE_FEDERATION));
        assert!(!Permissions::of(Role::User).is_staff());
        assert!(Permissions::of(Role::Moderator).is_staff());
    }

    #[test]
    fn role_ids_round_trip() {
        for r in [Role::User, Role::Moderator, Role::Admin, Role::Owner] {
            assert_eq!(role_by_id(role_id(r)), Some(r));
        }
        assert_eq!(role_by_id("7"), None);
    }
}
