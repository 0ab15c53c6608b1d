//! `fedblog-server roles ...`: custom user roles (Mastodon's `UserRole`) as the administrator
//! keeps them: listed with the built-in ones, created, changed, deleted, and given to local
//! accounts. A custom role grants its permission flags (by Mastodon's names, or their decimal
//! value) and everyone's, ranks by its position (the built-in moderator 10, admin 100, owner
//! 1000: a moderator acts only on accounts ranking strictly lower), and, highlighted, shows as
//! a badge on its holders' profiles. Arguments are checked before the database is opened;
//! every change is told to running servers.

use clap::Subcommand;
use fedblog_core::pagination::Page;
use fedblog_core::permissions::{Permissions, Rank, parse_color};
use fedblog_core::store::{
    AccountOrigin, AdminAccountFilter, ModerationStore, Role, UserRecord, UserRoleRecord,
};
use fedblog_core::{App, Id};

use super::{local_account, marker_failed};
use crate::settings::Settings;
use crate::{serve, store};

/// The names of the built-in roles the CLI takes (`everyone` is the plain user role).
const BUILT_IN_NAMES: [(&str, Role); 5] = [
    ("owner", Role::Owner),
    ("admin", Role::Admin),
    ("moderator", Role::Moderator),
    ("user", Role::User),
    ("everyone", Role::User),
];

/// Holders of a deleted role given the user role per read.
const HOLDERS_PER_READ: usize = 100;

/// `roles` actions.
#[derive(Subcommand, Debug)]
pub enum RolesCommand {
    /// Print the roles by position, built-in ones included, one per line: id, position, name,
    /// colour, `highlighted` or `plain`, and the permissions, tab-separated.
    List,
    /// Create a custom role; prints its id.
    Create {
        /// Its name (not a built-in role's, nor another custom role's, nor a number).
        name: String,
        /// Badge colour: `#rrggbb` or `#rgb`.
        #[arg(long, default_value = "")]
        color: String,
        /// Permissions: Mastodon's flag names separated by commas (`manage_reports,manage_users`)
        /// or their decimal value; everyone's (`invite_users`) come with any role.
        #[arg(long, default_value = "")]
        permissions: String,
        /// Rank among the roles (moderator 10, admin 100, owner 1000).
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        position: i32,
        /// Show it as a badge on its holders' profiles.
        #[arg(long)]
        highlighted: bool,
    },
    /// Change a custom role: only what is given changes.
    Update {
        /// The role: its id or name.
        role: String,
        /// A new name.
        #[arg(long)]
        name: Option<String>,
        /// A new badge colour (`""` for none).
        #[arg(long)]
        color: Option<String>,
        /// New permissions (replacing the old ones), as for `create`.
        #[arg(long)]
        permissions: Option<String>,
        /// A new position.
        #[arg(long, allow_negative_numbers = true)]
        position: Option<i32>,
        /// Show it as a badge.
        #[arg(long, conflicts_with = "no_highlighted")]
        highlighted: bool,
        /// Stop showing it as a badge.
        #[arg(long)]
        no_highlighted: bool,
    },
    /// Delete a custom role; its holders get the plain user role.
    Delete {
        /// The role: its id or name.
        role: String,
    },
    /// Give a local account a role.
    Assign {
        /// Username (with or without the leading @).
        username: String,
        /// `owner`, `admin`, `moderator`, `user`, or a custom role's id or name.
        role: String,
    },
}

/// A role's fields as a command gives them, checked.
#[derive(Debug, Default)]
struct Fields {
    name: Option<String>,
    color: Option<String>,
    permissions: Option<Permissions>,
    position: Option<i32>,
    highlighted: Option<bool>,
}

impl Fields {
    /// Checks what was typed: a name that is not blank and could not be taken for a built-in
    /// role or an id, a colour, known permissions.
    fn check(
        name: Option<String>,
        color: Option<String>,
        permissions: Option<String>,
        position: Option<i32>,
        highlighted: Option<bool>,
    ) -> Result<Fields, String> {
        let name = match name {
            Some(n) => Some(checked_name(&n)?),
            None => None,
        };
        Ok(Fields {
            name,
            color: color.as_deref().map(parse_color).transpose()?,
            permissions: permissions.as_deref().map(Permissions::parse).transpose()?,
            position,
            highlighted,
        })
    }

    /// `role` with these fields applied.
    fn apply(self, role: &mut UserRoleRecord) {
        if let Some(name) = self.name {
            role.name = name;
        }
        if let Some(color) = self.color {
            role.color = color;
        }
        if let Some(p) = self.permissions {
            role.permissions = p.0;
        }
        if let Some(position) = self.position {
            role.position = position;
        }
        if let Some(highlighted) = self.highlighted {
            role.highlighted = highlighted;
        }
    }
}

/// A role name as typed, trimmed: not blank, no built-in role's name, not a number.
fn checked_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("a role's name can't be blank".into());
    }
    if built_in(name).is_some() {
        return Err(format!("{name:?} is a built-in role's name"));
    }
    if name.parse::<i64>().is_ok() {
        return Err(format!(
            "{name:?} would be taken for a role id: a name can't be a number"
        ));
    }
    Ok(name.to_string())
}

/// The built-in role `name` names, if any.
fn built_in(name: &str) -> Option<Role> {
    BUILT_IN_NAMES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
        .map(|(_, r)| *r)
}

/// A command with its arguments checked.
enum Checked {
    List,
    Create(Fields),
    Update(String, Fields),
    Delete(String),
    Assign(String, String),
}

impl Checked {
    fn from(action: RolesCommand) -> Result<Checked, String> {
        Ok(match action {
            RolesCommand::List => Checked::List,
            RolesCommand::Create {
                name,
                color,
                permissions,
                position,
                highlighted,
            } => Checked::Create(Fields::check(
                Some(name),
                Some(color),
                Some(permissions),
                Some(position),
                Some(highlighted),
            )?),
            RolesCommand::Update {
                role,
                name,
                color,
                permissions,
                position,
                highlighted,
                no_highlighted,
            } => {
                let highlighted = match (highlighted, no_highlighted) {
                    (true, _) => Some(true),
                    (_, true) => Some(false),
                    _ => None,
                };
                Checked::Update(
                    role,
                    Fields::check(name, color, permissions, position, highlighted)?,
                )
            }
            RolesCommand::Delete { role } => Checked::Delete(role),
            RolesCommand::Assign { username, role } => Checked::Assign(username, role),
        })
    }
}

/// Runs a `roles` command.
pub async fn run(settings: Settings, action: RolesCommand) -> Result<(), String> {
    let action = Checked::from(action)?;
    let app = serve::build_app(&settings).await?;
    let wrote = execute(&app, action).await?;
    if wrote {
        store::mark_changed(&settings.database_url).map_err(marker_failed)?;
    }
    Ok(())
}

/// The store's custom roles, or an error for a store that keeps no moderation data.
fn roles_store(app: &App) -> Result<&dyn ModerationStore, String> {
    app.store
        .moderation()
        .ok_or_else(|| "this server keeps no moderation data (no custom roles)".to_string())
}

/// The custom role `text` names: its id, or its name (in any case).
async fn custom_role(app: &App, text: &str) -> Result<UserRoleRecord, String> {
    let text = text.trim();
    let roles = roles_store(app)?
        .user_roles()
        .await
        .map_err(|e| e.to_string())?;
    let id: Option<Id> = text.parse().ok();
    roles
        .into_iter()
        .find(|r| Some(r.id) == id || r.name.eq_ignore_ascii_case(text))
        .ok_or_else(|| format!("no custom role {text:?} (see `roles list`)"))
}

/// The role `text` names: a built-in role's name, or a custom role's id or name. What
/// `roles assign` and `accounts create --role` take.
pub async fn role_named(app: &App, text: &str) -> Result<Role, String> {
    if let Some(role) = built_in(text) {
        return Ok(role);
    }
    custom_role(app, text)
        .await
        .map(|r| Role::Custom(r.id))
        .map_err(|_| {
            format!(
                "unknown role {:?}: use owner, admin, moderator, user, or a custom role's id or name (see `roles list`)",
                text.trim()
            )
        })
}

/// Fails when another custom role than `except` has the name `name`.
async fn name_free(app: &App, name: &str, except: Option<Id>) -> Result<(), String> {
    let roles = roles_store(app)?
        .user_roles()
        .await
        .map_err(|e| e.to_string())?;
    match roles
        .iter()
        .find(|r| Some(r.id) != except && r.name.eq_ignore_ascii_case(name))
    {
        Some(other) => Err(format!(
            "the custom role {} is named {:?} already",
            other.id, other.name
        )),
        None => Ok(()),
    }
}

/// One line of `roles list`.
fn line(id: &str, position: i32, name: &str, color: &str, highlighted: bool, p: Permissions) {
    let shown = if highlighted { "highlighted" } else { "plain" };
    println!(
        "{id}\t{position}\t{name}\t{color}\t{shown}\t{}",
        p.names().join(",")
    );
}

/// Runs a checked command; whether it wrote.
async fn execute(app: &App, action: Checked) -> Result<bool, String> {
    match action {
        Checked::List => {
            let custom = roles_store(app)?
                .user_roles()
                .await
                .map_err(|e| e.to_string())?;
            let mut all: Vec<(Rank, Role, Option<&UserRoleRecord>)> = BUILT_IN_NAMES[..4]
                .iter()
                .map(|(_, r)| (Rank::of(*r, None), *r, None))
                .collect();
            all.extend(custom.iter().map(|c| {
                (
                    Rank::of(Role::Custom(c.id), Some(c)),
                    Role::Custom(c.id),
                    Some(c),
                )
            }));
            all.sort_by_key(|(rank, role, _)| (rank.position, matches!(role, Role::Custom(_))));
            for (rank, role, record) in all {
                match record {
                    Some(c) => line(
                        &c.id.to_string(),
                        c.position,
                        &c.name,
                        &c.color,
                        c.highlighted,
                        Permissions(c.permissions),
                    ),
                    None => line(
                        &fedblog_core::permissions::role_id(role),
                        rank.position,
                        &role.as_str(),
                        "",
                        role != Role::User,
                        rank.permissions,
                    ),
                }
            }
            Ok(false)
        }
        Checked::Create(fields) => {
            let store = roles_store(app)?;
            let name = fields.name.clone().unwrap_or_default();
            name_free(app, &name, None).await?;
            let now = app.now();
            let mut role = UserRoleRecord {
                id: app.ids.next(),
                name: String::new(),
                color: String::new(),
                permissions: 0,
                position: 0,
                highlighted: false,
                created_at: now,
                updated_at: now,
            };
            fields.apply(&mut role);
            store
                .save_user_role(&role)
                .await
                .map_err(|e| e.to_string())?;
            println!(
                "created role {} ({:?}) at position {} with permissions {}",
                role.id,
                role.name,
                role.position,
                described(Permissions(role.permissions))
            );
            Ok(true)
        }
        Checked::Update(which, fields) => {
            let store = roles_store(app)?;
            let mut role = custom_role(app, &which).await?;
            if let Some(name) = &fields.name {
                name_free(app, name, Some(role.id)).await?;
            }
            fields.apply(&mut role);
            role.updated_at = app.now();
            store
                .save_user_role(&role)
                .await
                .map_err(|e| e.to_string())?;
            println!(
                "updated role {} ({:?}): position {}, permissions {}{}",
                role.id,
                role.name,
                role.position,
                described(Permissions(role.permissions)),
                if role.highlighted {
                    ", highlighted"
                } else {
                    ""
                }
            );
            Ok(true)
        }
        Checked::Delete(which) => {
            let store = roles_store(app)?;
            let role = custom_role(app, &which).await?;
            let moved = demote_holders(app, store, role.id).await?;
            store
                .delete_user_role(role.id)
                .await
                .map_err(|e| e.to_string())?;
            println!(
                "deleted role {} ({:?}); {moved} account(s) now have the user role",
                role.id, role.name
            );
            Ok(true)
        }
        Checked::Assign(username, which) => {
            let role = role_named(app, &which).await?;
            let account = local_account(app, &username).await?;
            let mut user: UserRecord = app
                .store
                .user_by_account_id(account.id)
                .await
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("@{} has no login", account.username))?;
            user.role = role;
            app.store
                .update_user(&user)
                .await
                .map_err(|e| e.to_string())?;
            let shown = match role {
                Role::Custom(_) => custom_role(app, &role.as_str()).await?.name,
                built_in => built_in.as_str().into_owned(),
            };
            println!("@{} now has the role {shown}", account.username);
            Ok(true)
        }
    }
}

/// Permissions as `roles create` prints them.
fn described(p: Permissions) -> String {
    match p.names() {
        names if names.is_empty() => "none (besides everyone's)".into(),
        names => names.join(","),
    }
}

/// Gives every login holding custom role `id` the plain user role (through the account store,
/// so that caches of logins learn of it); how many there were.
async fn demote_holders(app: &App, store: &dyn ModerationStore, id: Id) -> Result<usize, String> {
    let filter = AdminAccountFilter {
        origin: Some(AccountOrigin::Local),
        roles: vec![Role::Custom(id).as_str().into_owned()],
        ..AdminAccountFilter::default()
    };
    let mut moved = 0;
    loop {
        // Those given the user role leave the filter: the first page again until it is empty.
        let holders = store
            .admin_account_ids(&filter, Page::first(HOLDERS_PER_READ))
            .await
            .map_err(|e| e.to_string())?;
        if holders.is_empty() {
            return Ok(moved);
        }
        for account in holders {
            let Some(mut user) = app
                .store
                .user_by_account_id(account)
                .await
                .map_err(|e| e.to_string())?
            else {
                continue;
            };
            user.role = Role::User;
            app.store
                .update_user(&user)
                .await
                .map_err(|e| e.to_string())?;
            moved += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(checked_name("  Helpers ").as_deref(), Ok("Helpers"));
        for bad in ["", "  ", "Admin", "everyone", "42"] {
            assert!(checked_name(bad).is_err(), "{bad:?}");
        }
        assert_eq!(built_in("Moderator"), Some(Role::Moderator));
        assert_eq!(built_in("helpers"), None);
    }

    #[test]
    fn fields_are_checked_before_anything_is_opened() {
        let f = Fields::check(
            Some("Helpers".into()),
            Some("#FF0000".into()),
            Some("manage_reports".into()),
            Some(5),
            Some(true),
        )
        .expect("valid");
        assert_eq!(f.color.as_deref(), Some("#ff0000"));
        assert_eq!(f.permissions, Some(Permissions::MANAGE_REPORTS));
        let bad_color = Fields::check(None, Some("red".into()), None, None, None);
        assert!(bad_color.unwrap_err().contains("not a colour"));
        let bad_flag = Fields::check(None, None, Some("manage_everything".into()), None, None);
        assert!(bad_flag.unwrap_err().contains("unknown permission"));
    }
}
