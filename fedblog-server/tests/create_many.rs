//! `fedblog-server accounts create-many`: usernames on standard input, one confirmed account
//! and a working token each on standard output, in input order; existing accounts are reused.

use std::io::Write;
use std::process::{Command, Stdio};

use fedblog_core::services::oauth::hash_secret;
use fedblog_server::serve::build_app;
use fedblog_server::settings::SettingsArgs;

const BIN: &str = env!("CARGO_BIN_EXE_fedblog-server");

fn create_many(dir: &std::path::Path, input: &str) -> (bool, String, String) {
    let mut child = Command::new(BIN)
        .args(["accounts", "create-many", "--scopes", "read write"])
        .env("FEDBLOG_DATA_DIR", dir)
        .env("FEDBLOG_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run fedblog-server");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write usernames");
    let out = child.wait_with_output().expect("wait");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn pairs(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .map(|l| {
            let (user, token) = l.split_once('\t').expect("username<TAB>token");
            (user.to_string(), token.to_string())
        })
        .collect()
}

#[tokio::test]
async fn accounts_and_tokens_come_out_in_input_order_and_existing_accounts_are_reused() {
    let dir = std::env::temp_dir().join(format!(
        "fedblog-create-many-{}-{}",
        std::process::id(),
        chrono::Utc::now().timestamp_micros()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");

    let (ok, out, err) = create_many(&dir, "carol\n@alice\n\n  bob  \n");
    assert!(ok, "create-many failed: {err}");
    let first = pairs(&out);
    let names: Vec<&str> = first.iter().map(|(u, _)| u.as_str()).collect();
    assert_eq!(
        names,
        ["carol", "alice", "bob"],
        "blank lines skipped, @ and spaces trimmed"
    );

    let (ok, out, err) = create_many(&dir, "alice\ndave\n");
    assert!(ok, "create-many failed: {err}");
    let second = pairs(&out);
    assert_eq!(second.len(), 2);

    let (ok, _, err) = create_many(&dir, "not a valid name!\n");
    assert!(!ok, "an invalid username fails the command");
    assert!(err.contains("cannot create @not a valid name!"), "{err}");

    let settings = SettingsArgs {
        data_dir: Some(dir.clone()),
        ..Default::default()
    }
    .resolve()
    .expect("settings");
    let app = build_app(&settings).await.expect("app");
    for (username, token) in first.iter().chain(&second) {
        let record = app
            .store
            .token_by_hash(&hash_secret(token))
            .await
            .expect("token lookup")
            .unwrap_or_else(|| panic!("the token printed for {username} is not stored"));
        assert_eq!(record.scopes, "read write");
        let account = app
            .store
            .account_by_id(record.account_id.expect("a user token"))
            .await
            .expect("account lookup")
            .expect("the account exists");
        assert_eq!(&account.username, username);
        let user = app
            .store
            .user_by_account_id(account.id)
            .await
            .expect("login lookup")
            .expect("a login");
        assert!(
            user.confirmed_at.is_some() && user.approved,
            "{username} can use the API"
        );
    }
    let alice_then = &first[1];
    let alice_now = &second[0];
    let then = app
        .store
        .token_by_hash(&hash_secret(&alice_then.1))
        .await
        .unwrap()
        .unwrap();
    let now = app
        .store
        .token_by_hash(&hash_secret(&alice_now.1))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        then.account_id, now.account_id,
        "alice was reused, with a new token"
    );
    assert_ne!(alice_then.1, alice_now.1);
    drop(app);
    let _ = std::fs::remove_dir_all(&dir);
}
