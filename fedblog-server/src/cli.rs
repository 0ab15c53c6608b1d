//! The command line: `serve` (the default), `migrate`, `accounts create`, `accounts create-many`,
//! `accounts delete`, `tokens create`, `search reindex`, the `instance` commands of the
//! instance's policy ([`instance`]), and the `roles` commands of custom user roles ([`roles`]).

pub mod announcements;
pub mod emoji;
pub mod instance;
pub mod roles;

use clap::{Parser, Subcommand};
use fedblog_core::scope::Scopes;
use fedblog_core::services::accounts::NewAccount;
use fedblog_core::store::Role;

use crate::settings::SettingsArgs;
use crate::{serve, store};

/// fedblog: a federated microblogging server speaking the Mastodon API.
#[derive(Parser, Debug)]
#[command(name = "fedblog-server", version, about)]
pub struct Cli {
    /// Settings (also from FEDBLOG_* environment variables).
    #[command(flatten)]
    pub settings: SettingsArgs,
    /// What to do (default: serve).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serve the API (the default).
    Serve,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Manage accounts.
    Accounts {
        /// Action.
        #[command(subcommand)]
        action: AccountsCommand,
    },
    /// Manage access tokens.
    Tokens {
        /// Action.
        #[command(subcommand)]
        action: TokensCommand,
    },
    /// Manage the full-text search index of statuses.
    Search {
        /// Action.
        #[command(subcommand)]
        action: SearchCommand,
    },
    /// Manage the instance's policy: rules, texts, terms of service, settings, thumbnail.
    Instance {
        /// Action.
        #[command(subcommand)]
        action: instance::InstanceCommand,
    },
    /// Manage announcements: make, list, publish, unpublish and delete them.
    Announcements {
        /// Action.
        #[command(subcommand)]
        action: announcements::AnnouncementsCommand,
    },
    /// Manage user roles: custom roles and who holds which role.
    Roles {
        /// Action.
        #[command(subcommand)]
        action: roles::RolesCommand,
    },
    /// Manage this server's custom emojis: import a folder or archive of images.
    Emoji {
        /// Action.
        #[command(subcommand)]
        action: emoji::EmojiCommand,
    },
}

/// `search` actions.
#[derive(Subcommand, Debug)]
pub enum SearchCommand {
    /// Rebuild the index from the statuses stored, with a progress bar. An interrupted run
    /// resumes where it stopped; the server may keep running meanwhile.
    Reindex {
        /// Start from the first status even if an earlier run was interrupted.
        #[arg(long)]
        restart: bool,
    },
}

/// `accounts` actions.
#[derive(Subcommand, Debug)]
pub enum AccountsCommand {
    /// Create a local account.
    Create {
        /// Username.
        username: String,
        /// E-mail address.
        #[arg(long)]
        email: String,
        /// Password (at least 8 characters).
        #[arg(long)]
        password: String,
        /// Role: owner, admin, moderator, user, or a custom role's id or name.
        #[arg(long, default_value = "user")]
        role: String,
        /// Mark the e-mail address confirmed.
        #[arg(long)]
        confirmed: bool,
        /// Mark the account approved (needed when registrations need approval).
        #[arg(long)]
        approved: bool,
    },
    /// Create many confirmed, approved accounts at once (load tests, imports) and issue a token
    /// for each: reads one username per line from standard input, creates those that do not
    /// exist yet (`username@EMAIL_DOMAIN`, a random password nobody is told: they use the
    /// tokens), and prints `username<TAB>token` per line, in input order.
    CreateMany {
        /// Space-separated scopes of the tokens.
        #[arg(long, default_value = "read write follow push")]
        scopes: String,
        /// The domain of new accounts' e-mail addresses.
        #[arg(long, default_value = "example.com")]
        email_domain: String,
    },
    /// Delete a local account for good, with its statuses, follows, blocks, mutes, tokens and
    /// uploaded files (asks nothing).
    Delete {
        /// Username (with or without the leading @).
        username: String,
    },
    /// Set the aliases of a local account (Mastodon's "moving from a different account"): the
    /// accounts that may move to it. Replaces the list; no account given clears it.
    Aliases {
        /// Username (with or without the leading @).
        username: String,
        /// The other accounts: handles (`user@host`) or actor URLs, each looked up.
        aliases: Vec<String>,
    },
    /// Move a local account to another (Mastodon's "moving to a different account"): the new
    /// account must list this one among its aliases. Followers are told and, on this server,
    /// follow the new account instead.
    Move {
        /// Username (with or without the leading @).
        username: String,
        /// The new account: a handle (`user@host`) or an actor URL.
        target: String,
    },
}

/// `tokens` actions.
#[derive(Subcommand, Debug)]
pub enum TokensCommand {
    /// Issue a bearer token for a local account; printed on the last line.
    Create {
        /// Username.
        username: String,
        /// Space-separated scopes.
        #[arg(long, default_value = "read write follow push")]
        scopes: String,
    },
}

/// Runs the command line; the error is printed by `main`.
pub async fn run(cli: Cli) -> Result<(), String> {
    let settings = cli.settings.resolve()?;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve::serve(settings).await,
        Command::Migrate => {
            let store = serve::open_store(&settings).await?;
            store
                .migrate()
                .await
                .map_err(|e| format!("migrations failed: {e}"))?;
            println!("migrations applied ({})", store.backend_name());
            Ok(())
        }
        Command::Accounts {
            action:
                AccountsCommand::Create {
                    username,
                    email,
                    password,
                    role,
                    confirmed,
                    approved,
                },
        } => {
            let app = serve::build_app(&settings).await?;
            let role = roles::role_named(&app, &role).await?;
            let (account, _, confirmation) = app
                .accounts()
                .create_local_account(
                    NewAccount {
                        username,
                        email,
                        password,
                        role,
                        confirmed,
                        approved,
                        locale: "en".into(),
                    },
                    true,
                )
                .await
                .map_err(describe)?;
            store::mark_changed(&settings.database_url).map_err(marker_failed)?;
            println!("created account @{} (id {})", account.username, account.id);
            if confirmation.is_some() {
                println!(
                    "the e-mail address is not confirmed: pass --confirmed, or open the link the server logs"
                );
            }
            Ok(())
        }
        Command::Accounts {
            action:
                AccountsCommand::CreateMany {
                    scopes,
                    email_domain,
                },
        } => create_many(settings, &scopes, &email_domain).await,
        Command::Accounts {
            action: AccountsCommand::Delete { username },
        } => {
            let app = serve::build_app(&settings).await?;
            let account = local_account(&app, &username).await?;
            let deleted = app
                .accounts()
                .delete_account(account.id)
                .await
                .map_err(describe)?;
            store::mark_changed(&settings.database_url).map_err(marker_failed)?;
            let a = &deleted.account;
            println!(
                "deleted account @{} (id {}) with {} statuses, {} followers and {} follows; removed {} stored file(s)",
                a.username,
                a.id,
                a.statuses_count,
                a.followers_count,
                a.following_count,
                deleted.files_removed
            );
            Ok(())
        }
        Command::Accounts {
            action: AccountsCommand::Aliases { username, aliases },
        } => {
            let app = serve::build_app(&settings).await?;
            let account = local_account(&app, &username).await?;
            let saved = app
                .moves()
                .set_aliases(&account, &aliases)
                .await
                .map_err(describe)?;
            store::mark_changed(&settings.database_url).map_err(marker_failed)?;
            match saved.also_known_as.as_slice() {
                [] => println!("@{} has no aliases", saved.username),
                list => println!("@{} has the aliases {}", saved.username, list.join(", ")),
            }
            Ok(())
        }
        Command::Accounts {
            action: AccountsCommand::Move { username, target },
        } => {
            let app = serve::build_app(&settings).await?;
            let account = local_account(&app, &username).await?;
            let moved_to = app
                .moves()
                .move_to(&account, &target)
                .await
                .map_err(describe)?;
            store::mark_changed(&settings.database_url).map_err(marker_failed)?;
            println!(
                "@{} moved to {}; its followers are being told",
                account.username,
                moved_to.acct()
            );
            Ok(())
        }
        Command::Search {
            action: SearchCommand::Reindex { restart },
        } => {
            let store = serve::open_store(&settings).await?;
            if settings.migrate_on_start {
                store
                    .migrate()
                    .await
                    .map_err(|e| format!("migrations failed: {e}"))?;
            }
            let bar = crate::reindex::progress_bar();
            let done = crate::reindex::reindex(&store, restart, &bar).await?;
            println!(
                "indexed {} statuses in {:.1} s ({:.0} per second)",
                done.statuses,
                done.seconds,
                done.statuses as f64 / done.seconds.max(0.001)
            );
            Ok(())
        }
        Command::Instance { action } => instance::run(settings, action).await,
        Command::Roles { action } => roles::run(settings, action).await,
        Command::Announcements { action } => announcements::run(settings, action).await,
        Command::Emoji { action } => emoji::run(settings, action).await,
        Command::Tokens {
            action: TokensCommand::Create { username, scopes },
        } => {
            let app = serve::build_app(&settings).await?;
            let scopes = Scopes::parse(&scopes)?;
            let account = app
                .store
                .account_by_username(username.trim_start_matches('@'), None)
                .await
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("no local account named {username}"))?;
            let cli_app = app.oauth().cli_application().await.map_err(describe)?;
            let issued = app
                .oauth()
                .issue_token(cli_app.id, Some(account.id), &scopes)
                .await
                .map_err(describe)?;
            store::mark_changed(&settings.database_url).map_err(marker_failed)?;
            println!(
                "token for @{} with scopes \"{}\":",
                account.username, scopes
            );
            println!("{}", issued.access_token);
            Ok(())
        }
    }
}

/// Accounts `create-many` makes at once (SQLite has one writer; a few tasks keep it busy).
const CREATE_MANY_CONCURRENCY: usize = 8;

/// Argon2 memory, in KiB, for the passwords `create-many` makes. The slow hash protects
/// passwords people choose; these are 256-bit random secrets nobody is told, which no amount
/// of guessing finds, so the cheapest setting keeps 10,000 accounts within seconds.
const RANDOM_PASSWORD_HASH_MEMORY_KIB: u32 = 64;

/// `accounts create-many`: usernames from standard input, `username<TAB>token` lines out.
async fn create_many(
    mut settings: crate::settings::Settings,
    scopes: &str,
    email_domain: &str,
) -> Result<(), String> {
    use futures_util::StreamExt;
    use std::io::{BufRead, Write};

    let scopes = Scopes::parse(scopes)?;
    let mut usernames = Vec::new();
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| format!("cannot read standard input: {e}"))?;
        let name = line.trim().trim_start_matches('@');
        if !name.is_empty() {
            usernames.push(name.to_string());
        }
    }
    settings.instance.password_hash_memory_kib = RANDOM_PASSWORD_HASH_MEMORY_KIB;
    let app = serve::build_app(&settings).await?;
    let cli_app = app.oauth().cli_application().await.map_err(describe)?;
    let (app, scopes) = (&app, &scopes);
    let made: Vec<Result<String, String>> = futures_util::stream::iter(usernames.iter())
        .map(|username| async move {
            let found = app
                .store
                .account_by_username(username, None)
                .await
                .map_err(|e| format!("cannot look up @{username}: {e}"))?;
            let id = match found {
                Some(account) => account.id,
                None => {
                    let new = NewAccount {
                        username: username.clone(),
                        email: format!("{username}@{email_domain}"),
                        password: fedblog_core::services::oauth::random_secret(),
                        role: Role::User,
                        confirmed: true,
                        approved: true,
                        locale: "en".into(),
                    };
                    let (account, _, _) = app
                        .accounts()
                        .create_local_account(new, true)
                        .await
                        .map_err(|e| format!("cannot create @{username}: {}", describe(e)))?;
                    account.id
                }
            };
            let issued = app
                .oauth()
                .issue_token(cli_app.id, Some(id), scopes)
                .await
                .map_err(|e| format!("cannot issue a token for @{username}: {}", describe(e)))?;
            Ok(issued.access_token)
        })
        .buffered(CREATE_MANY_CONCURRENCY)
        .collect()
        .await;
    store::mark_changed(&settings.database_url).map_err(marker_failed)?;
    let mut out = std::io::stdout().lock();
    for (username, token) in usernames.iter().zip(made) {
        writeln!(out, "{username}\t{}", token?)
            .map_err(|e| format!("cannot write to standard output: {e}"))?;
    }
    Ok(())
}

/// A running server could not be told of this command's writes.
/// The local account `username` (with or without the leading @) names.
async fn local_account(
    app: &fedblog_core::App,
    username: &str,
) -> Result<fedblog_core::store::AccountRecord, String> {
    let name = username.trim_start_matches('@');
    app.store
        .account_by_username(name, None)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no local account named @{name}"))
}

fn marker_failed(e: std::io::Error) -> String {
    format!(
        "the change was made, but running servers could not be told of it (they see it within 10 s): {e}"
    )
}

fn describe(e: fedblog_core::ApiError) -> String {
    match &e.details {
        Some(d) if !d.is_empty() => d
            .values()
            .flatten()
            .map(|f| f.description.clone())
            .collect::<Vec<_>>()
            .join("; "),
        _ => e.message,
    }
}
