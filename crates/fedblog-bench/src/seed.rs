//! `seed`: the benchmark's accounts and tokens, created directly in a fedblog database through the
//! fedblog-server library (fedblog-specific, fast); everything else is set up through the API.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use fedblog_core::App;
use fedblog_core::scope::Scopes;
use fedblog_core::services::accounts::NewAccount;
use fedblog_core::services::oauth::random_secret;
use fedblog_core::store::Role;
use fedblog_server::serve::open_store;
use fedblog_server::settings::SettingsArgs;

use crate::cli::{Scale, SeedArgs};
use crate::pool;
use crate::tokens::Tokens;

/// Argon2 memory for the seeded accounts' password hashes, in KiB. The server's default (19 MiB)
/// makes each hash cost tens of milliseconds; these accounts never sign in with their password
/// (a random one, thrown away), so the cheapest setting keeps 10,103 accounts within seconds.
const SEED_HASH_MEMORY_KIB: u32 = 64;

/// Accounts created at once (SQLite has one writer; a few tasks keep it busy).
const SEED_CONCURRENCY: usize = 8;

/// The scopes of every seeded token.
const SCOPES: &str = "read write follow push";

/// What seeding made.
pub struct Seeded {
    /// A token for each account.
    pub tokens: Tokens,
    /// Time taken, migrations included.
    pub elapsed: Duration,
}

/// `fedblog-bench seed`.
pub async fn command(args: SeedArgs) -> Result<(), String> {
    let scale = args.scale.resolve()?;
    let seeded = seed(&args.database_url, None, &scale).await?;
    seeded.tokens.write(&args.out)?;
    println!("tokens written to {}", args.out.display());
    Ok(())
}

/// Usernames in tokens-file order: the reader, the authors, big_author, poster, the followers.
fn usernames(scale: &Scale) -> Vec<String> {
    let mut names = vec!["bench_reader".to_string()];
    names.extend((1..=scale.authors).map(|n| format!("bench_author_{n}")));
    names.push("bench_big".into());
    names.push("bench_poster".into());
    names.extend((1..=scale.followers).map(|n| format!("bench_follower_{n}")));
    names
}

/// The folder of a `sqlite://PATH?...` database, created by the store if missing; `None` for
/// other databases.
fn sqlite_folder(database_url: &str) -> Option<PathBuf> {
    let rest = database_url.strip_prefix("sqlite:")?;
    let path = rest.strip_prefix("//").unwrap_or(rest);
    let path = path.split('?').next().unwrap_or(path);
    let parent = std::path::Path::new(path).parent()?;
    Some(if parent.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        parent.to_path_buf()
    })
}

/// Creates (or reuses) the accounts of `scale` in the database and issues a token for each.
/// `domain` is the server's public host when known (it does not change what is stored).
pub async fn seed(
    database_url: &str,
    domain: Option<&str>,
    scale: &Scale,
) -> Result<Seeded, String> {
    let start = std::time::Instant::now();
    let settings = SettingsArgs {
        database_url: Some(database_url.to_string()),
        data_dir: sqlite_folder(database_url),
        domain: domain.map(str::to_string),
        ..Default::default()
    }
    .resolve()?;
    let store = open_store(&settings).await?;
    store
        .migrate()
        .await
        .map_err(|e| format!("migrations failed: {e}"))?;
    let mut config = settings.instance.clone();
    config.password_hash_memory_kib = SEED_HASH_MEMORY_KIB;
    let app = Arc::new(App::new(Arc::new(store), config));
    let cli_app = app
        .cli_application()
        .await
        .map_err(|e| format!("cannot register the CLI application: {e}"))?;
    let scopes = Arc::new(Scopes::parse(SCOPES)?);
    let names = Arc::new(usernames(scale));
    println!(
        "seeding {} accounts with a token each ({} authors, {} followers) into {}",
        names.len(),
        scale.authors,
        scale.followers,
        settings.instance.domain
    );
    let (made, _) = pool::each("accounts", names.len(), SEED_CONCURRENCY, {
        let (app, names) = (app.clone(), names.clone());
        move |i| {
            let (app, names, scopes) = (app.clone(), names.clone(), scopes.clone());
            async move {
                let username = &names[i];
                let existing = app
                    .store
                    .account_by_username(username, None)
                    .await
                    .map_err(|e| format!("cannot look up @{username}: {e}"))?;
                let (id, created) = match existing {
                    Some(account) => (account.id, false),
                    None => {
                        let (account, _, _) = app
                            .create_local_account(
                                NewAccount {
                                    username: username.clone(),
                                    email: format!("{username}@bench.example"),
                                    password: random_secret(),
                                    role: Role::User,
                                    confirmed: true,
                                    approved: true,
                                    locale: "en".into(),
                                },
                                true,
                            )
                            .await
                            .map_err(|e| format!("cannot create @{username}: {e}"))?;
                        (account.id, true)
                    }
                };
                let issued = app
                    .issue_token(cli_app.id, Some(id), &scopes)
                    .await
                    .map_err(|e| format!("cannot issue a token for @{username}: {e}"))?;
                Ok((issued.access_token, created))
            }
        }
    })
    .await?;
    let created = made.iter().filter(|(_, c)| *c).count();
    let mut tokens = made.into_iter().map(|(t, _)| t);
    let mut take = |n: usize| tokens.by_ref().take(n).collect::<Vec<String>>();
    let reader = take(1);
    let authors = take(scale.authors);
    let big_author = take(1);
    let poster = take(1);
    let followers = take(scale.followers);
    let single = |mut v: Vec<String>, what: &str| {
        v.pop()
            .ok_or_else(|| format!("no token was made for the {what}"))
    };
    let tokens = Tokens {
        reader: single(reader, "reader")?,
        authors,
        big_author: single(big_author, "big author")?,
        poster: single(poster, "poster")?,
        followers,
    };
    let elapsed = start.elapsed();
    println!(
        "seeded {} accounts ({created} created, {} reused) in {:.2} s",
        names.len(),
        names.len() - created,
        elapsed.as_secs_f64()
    );
    Ok(Seeded { tokens, elapsed })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_follow_the_tokens_file_order() {
        let scale = Scale {
            authors: 2,
            posts_per_author: 1,
            followers: 3,
            post_count: 1,
            small: true,
        };
        assert_eq!(
            usernames(&scale),
            [
                "bench_reader",
                "bench_author_1",
                "bench_author_2",
                "bench_big",
                "bench_poster",
                "bench_follower_1",
                "bench_follower_2",
                "bench_follower_3"
            ]
        );
    }

    #[test]
    fn sqlite_folder_is_the_database_file_folder() {
        assert_eq!(
            sqlite_folder("sqlite:///tmp/x/fedblog.sqlite?mode=rwc"),
            Some(PathBuf::from("/tmp/x"))
        );
        assert_eq!(
            sqlite_folder("sqlite://fedblog.sqlite"),
            Some(PathBuf::from("."))
        );
        assert_eq!(sqlite_folder("postgres://postgres@127.0.0.1/db"), None);
    }
}
