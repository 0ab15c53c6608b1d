//! `fedblog-server roles ...`: a custom role made with the CLI grants over HTTP exactly the
//! permissions it was given (with the token's admin scopes), shows in the holder's
//! `verify_credentials` (its `role`, and its badge in `roles` while highlighted), counts as
//! staff for new reports, and goes when deleted, its holders back to the user role; the server
//! runs meanwhile and sees each change. Wrong names, colours and permissions fail the command
//! and write nothing.

mod common;

use chrono::Utc;
use common::cli::{account, fails, ok};
use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::lookup_account::LookupAccount;
use fedblog_core::api::accounts::verify_credentials::VerifyCredentials;
use fedblog_core::api::admin_accounts::list_accounts_v1::ListAccountsV1;
use fedblog_core::api::admin_domain_blocks::list_domain_blocks::ListAdminDomainBlocks;
use fedblog_core::api::admin_reports::list_reports::ListReports;
use fedblog_core::api::notifications::list_notifications::ListNotifications;
use fedblog_core::api::reports::create_report::CreateReport;
use fedblog_server::http::HttpOptions;
use fedblog_server::serve::{build_app, spawn_with};
use fedblog_server::settings::SettingsArgs;
use fedblog_testkit::client::{Client, form};
use serde_json::{Value, json};

/// The status of `GET path` with `token`.
async fn status(client: &Client, path: &str, token: &str) -> u16 {
    client.get(path, Some(token)).await.expect("request").status
}

/// The caller's credential account.
async fn me(client: &Client, token: &str) -> Value {
    let r = client
        .get(VerifyCredentials::PATH, Some(token))
        .await
        .expect("verify_credentials");
    r.expect(200).expect("200");
    r.json().expect("json").clone()
}

#[tokio::test]
async fn a_custom_role_grants_its_permissions_over_http_and_shows_as_a_badge() {
    let dir = std::env::temp_dir().join(format!(
        "fedblog-roles-cli-{}-{}",
        std::process::id(),
        Utc::now().timestamp_micros()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");

    // Accounts: one to hold the role, one reporting, one reported; tokens with admin scopes
    // for the first.
    let alice = account(&dir, "alice", None, "read write admin:read admin:write");
    let bob = account(&dir, "bob", None, "read write");
    account(&dir, "carol", None, "read");

    // A role that manages reports, and what the CLI refuses.
    let out = ok(
        &dir,
        &[
            "roles",
            "create",
            "Reporters",
            "--color",
            "#FF0000",
            "--permissions",
            "manage_reports",
            "--position",
            "5",
            "--highlighted",
        ],
    );
    let role_id = out
        .split_whitespace()
        .nth(2)
        .expect("created role <id> ...")
        .to_string();
    assert!(role_id.parse::<u64>().is_ok(), "{out}");
    for (args, error) in [
        (
            &["roles", "create", "Painters", "--color", "red"][..],
            "not a colour",
        ),
        (
            &[
                "roles",
                "create",
                "Painters",
                "--permissions",
                "manage_reports,paint",
            ],
            "unknown permission \"paint\"",
        ),
        (&["roles", "create", "Admin"], "built-in role"),
        (
            &["roles", "create", "reporters"],
            "named \"Reporters\" already",
        ),
        (&["roles", "create", "  "], "blank"),
        (&["roles", "assign", "alice", "painters"], "unknown role"),
        (
            &["roles", "assign", "nobody", "Reporters"],
            "no local account",
        ),
        (
            &["roles", "update", "Painters", "--position", "3"],
            "no custom role",
        ),
        (&["roles", "delete", "12345"], "no custom role"),
    ] {
        let err = fails(&dir, args);
        assert!(err.contains(error), "{args:?}: {err}");
    }
    let listed = ok(&dir, &["roles", "list"]);
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(
        lines,
        [
            "-99\t-1\tuser\t\tplain\tinvite_users".to_string(),
            format!("{role_id}\t5\tReporters\t#ff0000\thighlighted\tmanage_reports"),
            "1\t10\tmoderator\t\thighlighted\tview_audit_log,view_dashboard,manage_reports,manage_taxonomies,manage_users,invite_users"
                .to_string(),
            format!(
                "2\t100\tadmin\t\thighlighted\t{}",
                fedblog_core::permissions::Permissions::ALL.names().join(",")
            ),
            "3\t1000\towner\t\thighlighted\tadministrator".to_string(),
        ],
        "{listed}"
    );

    // The server runs over the same database from here on.
    let settings = SettingsArgs {
        data_dir: Some(dir.clone()),
        ..Default::default()
    }
    .resolve()
    .expect("settings");
    let app = build_app(&settings).await.expect("app");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let running = spawn_with(app, listener, HttpOptions::default())
        .await
        .expect("serve");
    let client = Client::new(&running.base_url(), Some(common::openapi())).expect("client");

    // Admin scopes alone are not enough.
    assert_eq!(status(&client, ListReports::PATH, &alice).await, 403);
    assert_eq!(me(&client, &alice).await["roles"], json!([]));

    // With the role: reports, but not domain blocks, nor accounts.
    ok(&dir, &["roles", "assign", "@alice", "reporters"]);
    assert_eq!(status(&client, ListReports::PATH, &alice).await, 200);
    assert_eq!(
        status(&client, ListAdminDomainBlocks::PATH, &alice).await,
        403
    );
    assert_eq!(status(&client, ListAccountsV1::PATH, &alice).await, 403);
    let creds = me(&client, &alice).await;
    assert_eq!(
        creds["role"],
        json!({
            "id": role_id,
            "name": "Reporters",
            "color": "#ff0000",
            "permissions": (16 | 65_536).to_string(),
            "highlighted": true,
        })
    );
    assert_eq!(
        creds["roles"],
        json!([{ "id": role_id, "name": "Reporters", "color": "#ff0000" }])
    );

    // A holder of the role handles reports: a new one notifies them.
    let carol = client
        .get(&format!("{}?acct=carol", LookupAccount::PATH), Some(&bob))
        .await
        .expect("lookup");
    let carol_id = carol.json().expect("json")["id"]
        .as_str()
        .expect("an id")
        .to_string();
    client
        .post(
            CreateReport::PATH,
            Some(&bob),
            form(&[("account_id", carol_id.as_str()), ("comment", "spam")]),
        )
        .await
        .expect("report")
        .expect(200)
        .expect("filed");
    let told = client
        .get(ListNotifications::PATH, Some(&alice))
        .await
        .expect("notifications");
    let types: Vec<&str> = told
        .json()
        .expect("json")
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|n| n["type"].as_str())
        .collect();
    assert_eq!(types, ["admin.report"]);

    // Not highlighted: no badge; the role stays.
    ok(&dir, &["roles", "update", &role_id, "--no-highlighted"]);
    let creds = me(&client, &alice).await;
    assert_eq!(creds["roles"], json!([]));
    assert_eq!(creds["role"]["highlighted"], false);
    assert_eq!(creds["role"]["name"], "Reporters");

    // `accounts create --role` takes a custom role too; deleting the role takes it from both.
    let erin = account(&dir, "erin", Some(&role_id), "read admin:read");
    assert_eq!(status(&client, ListReports::PATH, &erin).await, 200);
    let out = ok(&dir, &["roles", "delete", "Reporters"]);
    assert!(out.contains("2 account(s) now have the user role"), "{out}");
    for token in [&alice, &erin] {
        assert_eq!(status(&client, ListReports::PATH, token).await, 403);
        assert_eq!(me(&client, token).await["role"]["id"], "-99");
    }
    assert!(fails(&dir, &["roles", "assign", "alice", &role_id]).contains("unknown role"));

    running.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
