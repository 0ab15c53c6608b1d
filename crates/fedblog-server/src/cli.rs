//! The command line: `serve` (the default), `migrate`, `accounts create`, `accounts delete`,
//! `tokens create`.

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
        /// Role: owner, admin, moderator or user.
        #[arg(long, default_value = "user")]
        role: String,
        /// Mark the e-mail address confirmed.
        #[arg(long)]
        confirmed: bool,
        /// Mark the account approved (needed when registrations need approval).
        #[arg(long)]
        approved: bool,
    },
    /// Delete a local account for good, with its statuses, follows, blocks, mutes, tokens and
    /// uploaded files (asks nothing).
    Delete {
        /// Username (with or without the leading @).
        username: String,
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
            let role = Role::parse(&role).ok_or_else(|| {
                format!("unknown role {role:?}: use owner, admin, moderator or user")
            })?;
            let (account, _, confirmation) = app
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
            action: AccountsCommand::Delete { username },
        } => {
            let app = serve::build_app(&settings).await?;
            let name = username.trim_start_matches('@');
            let account = app
                .store
                .account_by_username(name, None)
                .await
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("no local account named @{name}"))?;
            let deleted = app.delete_account(account.id).await.map_err(describe)?;
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
            let cli_app = app.cli_application().await.map_err(describe)?;
            let issued = app
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

/// A running server could not be told of this command's writes.
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
