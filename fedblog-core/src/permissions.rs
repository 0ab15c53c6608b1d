//! Staff permissions: Mastodon's role permission flags, the built-in roles' sets of them and
//! ranks, custom roles resolved from their records, and the check every admin endpoint makes
//! after its token's `admin:*` scope.
//! <https://docs.joinmastodon.org/entities/Role/#permission-flags>
//!
//! The rules are Mastodon's (`UserRole`): a custom role grants its own flags and everyone's
//! (the `everyone` role, id `-99`: inviting users; fixed here, so that checking a built-in role
//! reads nothing), the administrator flag grants every flag, and a role's position ranks it
//! (everyone -1, moderator 10, admin 100, owner 1000; a moderator acts only on accounts ranking
//! strictly lower). A login whose custom role is gone has everyone's rights and rank.

use std::borrow::Cow;

use http::StatusCode;

use crate::error::{ApiError, ApiResult, StoreResult};
use crate::store::{AccountRecord, ModerationStore, Role, UserRoleRecord};

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
    /// Everyone's (the `everyone` role's, Mastodon's default): inviting users.
    pub const EVERYONE: Permissions = Permissions::INVITE_USERS;

    /// Every flag with Mastodon's name for it (`UserRole::FLAGS`), lowest bit first.
    pub const NAMED: [(&'static str, Permissions); 20] = [
        ("administrator", Permissions::ADMINISTRATOR),
        ("view_devops", Permissions::VIEW_DEVOPS),
        ("view_audit_log", Permissions::VIEW_AUDIT_LOG),
        ("view_dashboard", Permissions::VIEW_DASHBOARD),
        ("manage_reports", Permissions::MANAGE_REPORTS),
        ("manage_federation", Permissions::MANAGE_FEDERATION),
        ("manage_settings", Permissions::MANAGE_SETTINGS),
        ("manage_blocks", Permissions::MANAGE_BLOCKS),
        ("manage_taxonomies", Permissions::MANAGE_TAXONOMIES),
        ("manage_appeals", Permissions::MANAGE_APPEALS),
        ("manage_users", Permissions::MANAGE_USERS),
        ("manage_invites", Permissions::MANAGE_INVITES),
        ("manage_rules", Permissions::MANAGE_RULES),
        ("manage_announcements", Permissions::MANAGE_ANNOUNCEMENTS),
        ("manage_custom_emojis", Permissions::MANAGE_CUSTOM_EMOJIS),
        ("manage_webhooks", Permissions::MANAGE_WEBHOOKS),
        ("invite_users", Permissions::INVITE_USERS),
        ("manage_roles", Permissions::MANAGE_ROLES),
        ("manage_user_access", Permissions::MANAGE_USER_ACCESS),
        ("delete_user_data", Permissions::DELETE_USER_DATA),
    ];

    /// The permissions of a built-in role, as Mastodon seeds them (`config/roles.yml`): everyone
    /// may invite; a moderator also sees the dashboard and the audit log and manages reports,
    /// taxonomies and users; an admin has
    /// every flag; the owner is an administrator. A custom role without its record (see
    /// [`Permissions::of_custom`]) has everyone's.
    pub fn of(role: Role) -> Permissions {
        match role {
            Role::Owner => Permissions::ADMINISTRATOR,
            Role::Admin => Permissions::ALL,
            Role::Moderator => Permissions(
                Permissions::EVERYONE.0
                    | Permissions::VIEW_DASHBOARD.0
                    | Permissions::VIEW_AUDIT_LOG.0
                    | Permissions::MANAGE_REPORTS.0
                    | Permissions::MANAGE_TAXONOMIES.0
                    | Permissions::MANAGE_USERS.0,
            ),
            Role::User | Role::Custom(_) => Permissions::EVERYONE,
        }
    }

    /// What a custom role grants (Mastodon's `computed_permissions`): its flags and everyone's,
    /// or every flag when it has the administrator flag.
    pub fn of_custom(role: &UserRoleRecord) -> Permissions {
        let own = Permissions(role.permissions | Permissions::EVERYONE.0);
        if own.0 & Permissions::ADMINISTRATOR.0 != 0 {
            Permissions::ALL
        } else {
            own
        }
    }

    /// Parses a set of flags: their names separated by commas (or spaces), or the decimal value
    /// (only known flags). An empty text is no flag.
    pub fn parse(text: &str) -> Result<Permissions, String> {
        let text = text.trim();
        if let Ok(value) = text.parse::<u64>() {
            if value & !Permissions::ALL.0 != 0 {
                return Err(format!(
                    "{value} holds unknown permission bits (the flags go up to {})",
                    Permissions::ALL.0
                ));
            }
            return Ok(Permissions(value));
        }
        let mut value = 0;
        for name in text
            .split([',', ' '])
            .map(str::trim)
            .filter(|n| !n.is_empty())
        {
            let Some((_, flag)) = Permissions::NAMED
                .iter()
                .find(|(known, _)| known.eq_ignore_ascii_case(name))
            else {
                let known: Vec<&str> = Permissions::NAMED.iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "unknown permission {name:?}: use {}",
                    known.join(", ")
                ));
            };
            value |= flag.0;
        }
        Ok(Permissions(value))
    }

    /// The names of the flags set, lowest bit first.
    pub fn names(self) -> Vec<&'static str> {
        Permissions::NAMED
            .iter()
            .filter(|(_, flag)| self.0 & flag.0 == flag.0)
            .map(|(name, _)| *name)
            .collect()
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

/// The built-in roles, lowest first.
pub const BUILT_IN: [Role; 4] = [Role::User, Role::Moderator, Role::Admin, Role::Owner];

/// A role's id in the API, the `role.id` and `role_ids[]`: a built-in role's as Mastodon
/// numbers them (`-99` for everyone, then moderator 1, admin 2, owner 3), a custom role's own.
pub fn role_id(role: Role) -> Cow<'static, str> {
    match role {
        Role::User => "-99".into(),
        Role::Moderator => "1".into(),
        Role::Admin => "2".into(),
        Role::Owner => "3".into(),
        Role::Custom(id) => id.to_string().into(),
    }
}

/// The role with this API id: a built-in one, or else a custom role of that id (whether it
/// exists is not checked here); `None` for a text that is no id.
pub fn role_by_id(id: &str) -> Option<Role> {
    let id = id.trim();
    BUILT_IN
        .into_iter()
        .find(|r| role_id(*r) == id)
        .or_else(|| id.parse().ok().map(Role::Custom))
}

/// What a role grants and where it ranks, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rank {
    /// The permissions it grants.
    pub permissions: Permissions,
    /// Its position (see the module documentation).
    pub position: i32,
}

impl Rank {
    /// The rank of `role`; for a custom role, from `custom` when that is its record (without
    /// it, or with another role's record: everyone's).
    pub fn of(role: Role, custom: Option<&UserRoleRecord>) -> Rank {
        let position = match role {
            Role::Owner => 1000,
            Role::Admin => 100,
            Role::Moderator => 10,
            Role::User => -1,
            Role::Custom(id) => match custom.filter(|c| c.id == id) {
                Some(c) => {
                    return Rank {
                        permissions: Permissions::of_custom(c),
                        position: c.position,
                    };
                }
                None => -1,
            },
        };
        Rank {
            permissions: Permissions::of(role),
            position,
        }
    }

    /// Whether a holder of this rank may act on an account of rank `other` (`None`: a remote
    /// account, which has no role): Mastodon's `UserRole#overrides?`, a strictly higher
    /// position.
    pub fn overrides(self, other: Option<Rank>) -> bool {
        other.is_none_or(|o| self.position > o.position)
    }
}

/// The record of `role` when it is a custom role that `store` keeps; read only for a custom
/// role (a built-in one reads nothing).
pub async fn custom_role(
    store: Option<&dyn ModerationStore>,
    role: Role,
) -> StoreResult<Option<UserRoleRecord>> {
    match (role, store) {
        (Role::Custom(id), Some(store)) => store.user_role_by_id(id).await,
        _ => Ok(None),
    }
}

/// The rank of `role`, its record read from `store` when it is a custom role.
pub async fn rank_in(store: Option<&dyn ModerationStore>, role: Role) -> StoreResult<Rank> {
    Ok(Rank::of(role, custom_role(store, role).await?.as_ref()))
}

/// The custom role record of `role` among `roles` (records read together), if any.
pub fn custom_among(role: Role, roles: &[UserRoleRecord]) -> Option<UserRoleRecord> {
    match role {
        Role::Custom(id) => roles.iter().find(|r| r.id == id).cloned(),
        _ => None,
    }
}

/// The roles granting `p` (Mastodon's `UserRole.that_can`): the built-in ones, then the custom
/// ones `store` keeps, by position.
pub async fn roles_that_can(
    store: Option<&dyn ModerationStore>,
    p: Permissions,
) -> StoreResult<Vec<Role>> {
    let mut roles: Vec<Role> = BUILT_IN
        .into_iter()
        .filter(|r| Permissions::of(*r).allow(p))
        .collect();
    if let Some(store) = store {
        roles.extend(
            store
                .user_roles()
                .await?
                .iter()
                .filter(|r| Permissions::of_custom(r).allow(p))
                .map(|r| Role::Custom(r.id)),
        );
    }
    Ok(roles)
}

/// A badge colour as Mastodon accepts it (`#` and three or six hexadecimal digits, the `#`
/// optional), written `#` and lower case; empty for none.
pub fn parse_color(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(String::new());
    }
    let digits = text.strip_prefix('#').unwrap_or(text);
    if matches!(digits.len(), 3 | 6) && digits.chars().all(|c| c.is_ascii_hexdigit()) {
        Ok(format!("#{}", digits.to_ascii_lowercase()))
    } else {
        Err(format!(
            "{text:?} is not a colour: use #rrggbb or #rgb (hexadecimal digits)"
        ))
    }
}

/// What a permission check reads of a caller: its account, and its login's rank. The app's
/// `Caller` is one (its custom role read by authentication); this module names no `App` or
/// `Caller`, so that the services may rank roles with it.
pub trait Credentials {
    /// The signed-in account, or 401.
    fn signed_in(&self) -> ApiResult<&AccountRecord>;
    /// The rank of its login's role (without a login: everyone's).
    fn rank(&self) -> Rank;
}

/// The signed-in caller, if its role grants `p`; otherwise 403 (the token's `admin:*` scope is
/// checked before, by the endpoint's `Auth`).
pub fn require<C: Credentials + ?Sized>(caller: &C, p: Permissions) -> ApiResult<&AccountRecord> {
    let account = caller.signed_in()?;
    if caller.rank().permissions.allow(p) {
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
    use crate::id::Id;

    #[test]
    fn built_in_roles_have_mastodons_permission_values() {
        assert_eq!(Permissions::of(Role::Admin).0, 1_048_575);
        assert_eq!(Permissions::of(Role::Moderator).0, 66_844);
        assert_eq!(Permissions::of(Role::User).0, 65_536);
        assert!(Permissions::of(Role::Owner).allow(Permissions::MANAGE_FEDERATION));
        assert!(Permissions::of(Role::Moderator).allow(Permissions::MANAGE_REPORTS));
        assert!(!Permissions::of(Role::Moderator).allow(Permissions::MANAGE_FEDERATION));
        assert!(!Permissions::of(Role::User).is_staff());
        assert!(Permissions::of(Role::Moderator).is_staff());
    }

    #[test]
    fn role_ids_round_trip() {
        for r in [
            Role::User,
            Role::Moderator,
            Role::Admin,
            Role::Owner,
            Role::Custom(Id(7_000_000_000)),
        ] {
            assert_eq!(role_by_id(&role_id(r)), Some(r));
        }
        assert_eq!(role_by_id(" 7 "), Some(Role::Custom(Id(7))));
        assert_eq!(role_by_id("staff"), None);
        assert_eq!(role_by_id("-5"), None);
    }

    fn custom(permissions: u64, position: i32) -> UserRoleRecord {
        UserRoleRecord {
            id: Id(42),
            name: "Helpers".into(),
            color: String::new(),
            permissions,
            position,
            highlighted: false,
            created_at: chrono::Utc::now(),
            updated_at: chrono::Utc::now(),
        }
    }

    #[test]
    fn custom_roles_add_everyones_flags_and_rank_by_position() {
        let helpers = custom(Permissions::MANAGE_REPORTS.0, 5);
        let rank = Rank::of(Role::Custom(helpers.id), Some(&helpers));
        assert_eq!(rank.position, 5);
        assert_eq!(
            rank.permissions,
            Permissions(Permissions::MANAGE_REPORTS.0 | Permissions::INVITE_USERS.0)
        );
        assert!(rank.permissions.allow(Permissions::MANAGE_REPORTS));
        assert!(!rank.permissions.allow(Permissions::MANAGE_FEDERATION));
        assert!(rank.overrides(Some(Rank::of(Role::User, None))));
        assert!(!rank.overrides(Some(Rank::of(Role::Moderator, None))));
        assert!(rank.overrides(None));
        // Another role's record, or none: everyone's.
        assert_eq!(
            Rank::of(Role::Custom(Id(43)), Some(&helpers)),
            Rank::of(Role::User, None)
        );
        assert_eq!(
            Rank::of(Role::Custom(helpers.id), None),
            Rank::of(Role::User, None)
        );
        // The administrator flag grants every flag.
        let chiefs = custom(Permissions::ADMINISTRATOR.0, 500);
        assert_eq!(Permissions::of_custom(&chiefs), Permissions::ALL);
    }

    #[test]
    fn permissions_parse_from_names_or_a_number() {
        assert_eq!(
            Permissions::parse("manage_reports, Manage_Users"),
            Ok(Permissions(
                Permissions::MANAGE_REPORTS.0 | Permissions::MANAGE_USERS.0
            ))
        );
        assert_eq!(Permissions::parse("1040"), Ok(Permissions(1040)));
        assert_eq!(Permissions::parse(""), Ok(Permissions::NONE));
        assert!(
            Permissions::parse("manage_reports,fly")
                .unwrap_err()
                .contains("unknown permission \"fly\"")
        );
        assert!(Permissions::parse("2097152").is_err());
        assert_eq!(
            Permissions(1040).names(),
            ["manage_reports", "manage_users"]
        );
        assert_eq!(Permissions::ALL.names().len(), 20);
    }

    /// A confirmed, approved login `name` with `role`, and a token of `scopes` for it.
    async fn member(
        app: &crate::App,
        name: &str,
        role: Role,
        scopes: &str,
    ) -> (AccountRecord, String) {
        let (account, _, _) = app
            .accounts()
            .create_local_account(
                crate::services::accounts::NewAccount {
                    username: name.to_string(),
                    email: format!("{name}@example.test"),
                    password: "correct horse battery".into(),
                    role,
                    confirmed: true,
                    approved: true,
                    locale: "en".into(),
                },
                false,
            )
            .await
            .expect("account");
        let cli = app.oauth().cli_application().await.expect("cli app");
        let token = app
            .oauth()
            .issue_token(
                cli.id,
                Some(account.id),
                &crate::scope::Scopes::parse(scopes).expect("scopes"),
            )
            .await
            .expect("token");
        (account, token.access_token)
    }

    #[tokio::test]
    async fn a_custom_role_is_read_once_at_sign_in_and_ranks_moderation_actions() {
        use crate::endpoint::Auth;
        use crate::services::moderation::{AccountAction, AccountActionType};

        let app = crate::test_support::app("social.example");
        let store = app.store.moderation().expect("moderation store");
        let helpers = UserRoleRecord {
            id: app.ids.next(),
            permissions: Permissions::MANAGE_USERS.0 | Permissions::MANAGE_REPORTS.0,
            highlighted: true,
            color: "#00ff00".into(),
            ..custom(0, 5)
        };
        store.save_user_role(&helpers).await.expect("saved");
        let (helper, token) = member(&app, "helper", Role::Custom(helpers.id), "admin:read").await;
        let (plain, _) = member(&app, "plain", Role::User, "read").await;
        let (moderator, _) = member(&app, "moddy", Role::Moderator, "read").await;

        // Authentication reads the role: the permission checks see it.
        let caller = app
            .authenticate(
                Auth::User("admin:read"),
                Some(&token),
                None,
                Default::default(),
            )
            .await
            .expect("signed in");
        assert_eq!(caller.custom_role.as_ref(), Some(&helpers));
        assert_eq!(
            require(&caller, Permissions::MANAGE_USERS).map(|a| a.id),
            Ok(helper.id)
        );
        assert_eq!(
            require(&caller, Permissions::MANAGE_FEDERATION).map_err(|e| e.status),
            Err(StatusCode::FORBIDDEN)
        );

        // Position 5 outranks a user (-1), not a moderator (10).
        let warn = || AccountAction {
            kind: AccountActionType::None,
            report_id: None,
            warning_preset_id: None,
            text: String::new(),
            send_email_notification: false,
        };
        let m = app.moderation();
        let role = Role::Custom(helpers.id);
        assert!(m.act(&helper, role, plain.id, warn()).await.is_ok());
        assert_eq!(
            m.act(&helper, role, moderator.id, warn())
                .await
                .map(|_| ())
                .map_err(|e| e.status),
            Err(StatusCode::FORBIDDEN)
        );
        // A moderator outranks the custom role's holder.
        assert!(
            m.act(&moderator, Role::Moderator, helper.id, warn())
                .await
                .is_ok()
        );

        // Moderators see the role, and its badge.
        let view = m.account(helper.id).await.expect("view");
        assert_eq!(view.custom_role.as_ref(), Some(&helpers));
        let shown = app.render_admin_account(&view);
        let role = shown.role.expect("a role");
        assert_eq!(
            (role.id, role.name.as_str()),
            (helpers.id.to_string(), "Helpers")
        );
        assert_eq!(role.permissions, (1024 | 16 | 65_536).to_string());
        assert_eq!(shown.account.roles.len(), 1);
        assert_eq!(shown.account.roles[0].color, "#00ff00");
    }

    #[test]
    fn colours_are_hexadecimal() {
        assert_eq!(parse_color("#FF0000").as_deref(), Ok("#ff0000"));
        assert_eq!(parse_color("abc").as_deref(), Ok("#abc"));
        assert_eq!(parse_color(" ").as_deref(), Ok(""));
        for bad in ["red", "#ff00", "#gg0000", "#ff00000"] {
            assert!(parse_color(bad).is_err(), "{bad}");
        }
    }
}
