//! The admin CLI driven as an admin runs it: `fedblog-server <args>` on a data directory.

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_fedblog-server");

/// Runs `fedblog-server <args>` on the data directory `dir`: whether it succeeded, its standard
/// output and its standard error.
pub fn cli(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .env("FEDBLOG_DATA_DIR", dir)
        .env("FEDBLOG_LOG", "warn")
        .output()
        .expect("run fedblog-server");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs a command that must succeed; its standard output.
pub fn ok(dir: &Path, args: &[&str]) -> String {
    let (success, out, err) = cli(dir, args);
    assert!(success, "{args:?} failed: {err}");
    out
}

/// Runs a command that must fail; its standard error.
pub fn fails(dir: &Path, args: &[&str]) -> String {
    let (success, out, err) = cli(dir, args);
    assert!(!success, "{args:?} succeeded: {out}");
    err
}

/// Creates a confirmed, approved local account (with `role`, if given) and returns a token of
/// `scopes` for it.
pub fn account(dir: &Path, username: &str, role: Option<&str>, scopes: &str) -> String {
    let email = format!("{username}@example.com");
    let mut args = vec![
        "accounts",
        "create",
        username,
        "--email",
        &email,
        "--password",
        super::PASSWORD,
        "--confirmed",
        "--approved",
    ];
    if let Some(role) = role {
        args.extend(["--role", role]);
    }
    ok(dir, &args);
    let out = ok(dir, &["tokens", "create", username, "--scopes", scopes]);
    out.lines().last().expect("a token line").trim().to_string()
}
