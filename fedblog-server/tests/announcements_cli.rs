//! `fedblog-server announcements ...` and fedblog's admin endpoints for announcements: an
//! announcement made with the CLI (a draft, or published at once) is listed to users over HTTP
//! only while published and not ended, and goes when unpublished or deleted; the server runs
//! meanwhile and sees each change. Bad input fails the command and writes nothing. Over HTTP,
//! an administrator makes one (`POST /api/v1/admin/announcements`) and a moderator, whose role
//! lacks the announcements permission, is refused.

mod common;

use chrono::Utc;
use common::cli::{account, fails, ok};
use fedblog_core::api::Endpoint;
use fedblog_core::api::admin_announcements::create_announcement::CreateAdminAnnouncement;
use fedblog_core::api::announcements::list_announcements::ListAnnouncements;
use fedblog_server::http::HttpOptions;
use fedblog_server::serve::{build_app, spawn_with};
use fedblog_server::settings::SettingsArgs;
use fedblog_testkit::client::{Client, form};
use serde_json::Value;

/// The ids of the announcements `token`'s account is shown.
async fn listed(client: &Client, token: &str) -> Vec<String> {
    let r = client
        .get(ListAnnouncements::PATH, Some(token))
        .await
        .expect("list");
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
        .expect("json")
        .as_array()
        .expect("an array")
        .iter()
        .map(|a| a["id"].as_str().expect("an id").to_string())
        .collect()
}

#[tokio::test]
async fn announcements_made_with_the_cli_are_shown_while_published() {
    let dir = std::env::temp_dir().join(format!(
        "fedblog-announcements-cli-{}-{}",
        std::process::id(),
        Utc::now().timestamp_micros()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let alice = account(&dir, "alice", None, "read write");
    let boss = account(
        &dir,
        "boss",
        Some("admin"),
        "read write admin:read admin:write",
    );
    let mods = account(
        &dir,
        "mods",
        Some("moderator"),
        "read admin:read admin:write",
    );

    let draft = ok(&dir, &["announcements", "create", "--text", "A draft"])
        .trim()
        .to_string();
    let live = ok(
        &dir,
        &[
            "announcements",
            "create",
            "--text",
            "Server upgrade",
            "--starts-at",
            "2020-01-01T10:00:00Z",
            "--ends-at",
            "2999-01-01T12:00:00Z",
            "--all-day",
            "--publish",
        ],
    )
    .trim()
    .to_string();
    let ended = ok(
        &dir,
        &[
            "announcements",
            "create",
            "--text",
            "Over",
            "--starts-at",
            "2020-01-01T10:00:00Z",
            "--ends-at",
            "2020-01-02T10:00:00Z",
            "--publish",
        ],
    )
    .trim()
    .to_string();
    for (args, error) in [
        (&["announcements", "create", "--text", "  "][..], "blank"),
        (
            &[
                "announcements",
                "create",
                "--text",
                "half",
                "--starts-at",
                "2020-01-01T10:00:00Z",
            ],
            "Ends at",
        ),
        (
            &[
                "announcements",
                "create",
                "--text",
                "bad",
                "--starts-at",
                "soon",
                "--ends-at",
                "later",
            ],
            "not a valid datetime",
        ),
        (
            &["announcements", "publish", "nope"],
            "not an announcement id",
        ),
        (&["announcements", "delete", "12345"], "not found"),
    ] {
        let err = fails(&dir, args);
        assert!(
            err.to_lowercase().contains(&error.to_lowercase()),
            "{args:?}: {err}"
        );
    }
    let list = ok(&dir, &["announcements", "list"]);
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 3, "{list}");
    assert_eq!(
        lines[0],
        format!(
            "{live}\tpublished\t2020-01-01T10:00:00.000Z\t2999-01-01T12:00:00.000Z\tServer upgrade"
        )
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("{draft}\tdraft\t-\t-\tA draft"))),
        "{list}"
    );

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

    // Only the published one that has not ended.
    assert_eq!(listed(&client, &alice).await, vec![live.clone()]);
    let r = client
        .get(ListAnnouncements::PATH, Some(&alice))
        .await
        .expect("list");
    let first: &Value = &r.json().expect("json")[0];
    assert_eq!(first["all_day"], true);
    assert_eq!(first["content"], "<p>Server upgrade</p>");
    assert_ne!(ended, live);

    ok(&dir, &["announcements", "publish", &draft]);
    assert_eq!(
        listed(&client, &alice).await,
        vec![live.clone(), draft.clone()]
    );
    ok(&dir, &["announcements", "unpublish", &live]);
    assert_eq!(listed(&client, &alice).await, vec![draft.clone()]);
    ok(&dir, &["announcements", "delete", &draft]);
    assert_eq!(listed(&client, &alice).await, Vec::<String>::new());

    // fedblog's admin endpoint: the administrator may, a moderator may not.
    let made = client
        .post(
            CreateAdminAnnouncement::PATH,
            Some(&boss),
            form(&[("text", "From the API"), ("publish", "true")]),
        )
        .await
        .expect("create");
    assert_eq!(made.status, 200, "{}", made.text);
    let id = made.json().expect("json")["id"]
        .as_str()
        .expect("an id")
        .to_string();
    assert_eq!(listed(&client, &alice).await, vec![id]);
    let refused = client
        .post(
            CreateAdminAnnouncement::PATH,
            Some(&mods),
            form(&[("text", "Not mine to make")]),
        )
        .await
        .expect("create");
    assert_eq!(refused.status, 403, "{}", refused.text);
    let refused = client
        .post(
            CreateAdminAnnouncement::PATH,
            Some(&alice),
            form(&[("text", "Not mine either")]),
        )
        .await
        .expect("create");
    assert_eq!(refused.status, 403, "{}", refused.text);
    let _ = std::fs::remove_dir_all(&dir);
}
