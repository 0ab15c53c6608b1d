//! `seed`: the benchmark's accounts and tokens, made in a fedblog database by the server's own
//! `fedblog-server accounts create-many` (fedblog-specific, fast); everything else is set up
//! through the API.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::cli::{Scale, SeedArgs};
use crate::tokens::Tokens;

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
    let server_bin = match args.server_bin {
        Some(p) => p,
        None => default_server_bin()?,
    };
    let seeded = seed(&server_bin, &args.database_url, None, &scale).await?;
    seeded.tokens.write(&args.out)?;
    println!("tokens written to {}", args.out.display());
    Ok(())
}

/// `fedblog-server` in the folder of this executable (`target/release` after a release build).
pub fn default_server_bin() -> Result<PathBuf, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find this executable's folder: {e}; pass --server-bin"))?;
    let folder = exe
        .parent()
        .ok_or("this executable has no folder; pass --server-bin")?;
    let bin = folder.join(format!("fedblog-server{}", std::env::consts::EXE_SUFFIX));
    if !bin.is_file() {
        return Err(format!(
            "no server binary at {}: build it (cargo build --release -p fedblog-server) or pass --server-bin",
            bin.display()
        ));
    }
    Ok(bin)
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
    let parent = Path::new(path).parent()?;
    Some(if parent.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        parent.to_path_buf()
    })
}

/// Creates (or reuses) the accounts of `scale` in the database with `server_bin accounts
/// create-many` and issues a token for each. `domain` is the server's public host when known
/// (it does not change what is stored).
pub async fn seed(
    server_bin: &Path,
    database_url: &str,
    domain: Option<&str>,
    scale: &Scale,
) -> Result<Seeded, String> {
    let start = std::time::Instant::now();
    let names = usernames(scale);
    println!(
        "seeding {} accounts with a token each ({} authors, {} followers) with {} accounts create-many",
        names.len(),
        scale.authors,
        scale.followers,
        server_bin.display()
    );
    let mut command = Command::new(server_bin);
    command
        .args(["accounts", "create-many", "--scopes", SCOPES])
        .env("FEDBLOG_DATABASE_URL", database_url)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(folder) = sqlite_folder(database_url) {
        command.env("FEDBLOG_DATA_DIR", folder);
    }
    if let Some(domain) = domain {
        command.env("FEDBLOG_DOMAIN", domain);
    }
    let input = names.join("\n") + "\n";
    let output = tokio::task::spawn_blocking(move || {
        let mut child = command.spawn()?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(input.as_bytes())?;
        }
        child.wait_with_output()
    })
    .await
    .map_err(|e| format!("seeding stopped: {e}"))?
    .map_err(|e| format!("cannot run {}: {e}", server_bin.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{} accounts create-many failed ({}): {}",
            server_bin.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let tokens = tokens_in_order(&String::from_utf8_lossy(&output.stdout), &names)?;
    let tokens = Tokens::from_ordered(tokens, scale)?;
    let elapsed = start.elapsed();
    println!(
        "seeded {} accounts in {:.2} s",
        names.len(),
        elapsed.as_secs_f64()
    );
    Ok(Seeded { tokens, elapsed })
}

/// The tokens of `create-many`'s `username<TAB>token` lines, in the order of `names`.
fn tokens_in_order(output: &str, names: &[String]) -> Result<Vec<String>, String> {
    let lines: Vec<&str> = output.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.len() != names.len() {
        return Err(format!(
            "accounts create-many printed {} lines for {} accounts",
            lines.len(),
            names.len()
        ));
    }
    names
        .iter()
        .zip(lines)
        .map(|(name, line)| match line.split_once('\t') {
            Some((user, token)) if user == name && !token.is_empty() => Ok(token.to_string()),
            _ => Err(format!(
                "accounts create-many printed {line:?} where a token for {name} was expected"
            )),
        })
        .collect()
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

    #[test]
    fn tokens_are_read_in_the_order_of_the_names() {
        let names = vec!["a".to_string(), "b".to_string()];
        assert_eq!(
            tokens_in_order("a\tT1\nb\tT2\n", &names).unwrap(),
            ["T1", "T2"]
        );
        assert!(
            tokens_in_order("a\tT1\n", &names)
                .unwrap_err()
                .contains("1 lines for 2")
        );
        assert!(
            tokens_in_order("b\tT2\na\tT1\n", &names)
                .unwrap_err()
                .contains("for a")
        );
    }
}
