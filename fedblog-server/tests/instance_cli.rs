//! `fedblog-server instance ...`: rules, policy texts, terms of service and settings written by
//! the CLI into a SQLite database are what the instance area then reads, and what the API
//! answers; wrong names, values and dates fail the command and write nothing.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;

use chrono::{Duration, Utc};
use fedblog_core::api::instance::{
    extended_description::GetExtendedDescription, instance_rules::InstanceRules,
    privacy_policy::GetPrivacyPolicy, terms_of_service::GetTermsOfService,
};
use fedblog_core::api::{Endpoint, Reply, route};
use fedblog_core::app::{Request, RequestInfo};
use fedblog_core::params::Params;
use fedblog_core::services::instance::{PolicyText, SHOW_DOMAIN_BLOCKS};
use fedblog_server::serve::build_app;
use fedblog_server::settings::SettingsArgs;

const BIN: &str = env!("CARGO_BIN_EXE_fedblog-server");

/// Runs `fedblog-server instance <args>` on the data directory `dir`, with `stdin` as standard
/// input: whether it succeeded, its standard output and its standard error.
fn instance(dir: &Path, args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(BIN)
        .arg("instance")
        .args(args)
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
        .write_all(stdin.as_bytes())
        .expect("write standard input");
    let out = child.wait_with_output().expect("wait");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs a command that must succeed; its standard output.
fn ok(dir: &Path, args: &[&str], stdin: &str) -> String {
    let (success, out, err) = instance(dir, args, stdin);
    assert!(success, "instance {args:?} failed: {err}");
    out
}

/// Runs a command that must fail; its standard error.
fn fails(dir: &Path, args: &[&str]) -> String {
    let (success, out, err) = instance(dir, args, "");
    assert!(!success, "instance {args:?} succeeded: {out}");
    err
}

async fn get<E: Endpoint>(app: &Arc<fedblog_core::App>) -> Reply {
    app.dispatch(
        &route::<E>(),
        Request {
            authorization: None,
            params: Params::new(),
            info: RequestInfo {
                path: E::PATH.into(),
                ..Default::default()
            },
        },
    )
    .await
}

#[tokio::test]
async fn instance_commands_write_what_the_api_then_answers() {
    let dir = std::env::temp_dir().join(format!(
        "fedblog-instance-cli-{}-{}",
        std::process::id(),
        Utc::now().timestamp_micros()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");

    // Rules: added in order, one placed first, one removed.
    let out = ok(&dir, &["rules", "add", "Be kind", "--hint", "Always."], "");
    let kind_id = out
        .split_whitespace()
        .nth(2)
        .expect("added rule <id> ...")
        .to_string();
    ok(&dir, &["rules", "add", "No spam"], "");
    ok(
        &dir,
        &["rules", "add", "Read this first", "--position", "-5"],
        "",
    );
    let spam_line = ok(&dir, &["rules", "list"], "");
    let lines: Vec<&str> = spam_line.lines().collect();
    assert_eq!(lines.len(), 3, "{spam_line}");
    let texts: Vec<&str> = lines.iter().filter_map(|l| l.split('\t').nth(2)).collect();
    assert_eq!(texts, ["Read this first", "Be kind", "No spam"]);
    let spam_id = lines[2].split('\t').next().expect("an id").to_string();
    ok(&dir, &["rules", "remove", &spam_id], "");
    assert!(fails(&dir, &["rules", "remove", &spam_id]).contains("no rule with id"));
    assert!(fails(&dir, &["rules", "remove", "not-an-id"]).contains("not a rule id"));
    assert!(fails(&dir, &["rules", "add", "  "]).contains("blank"));

    // Texts: from a file and from standard input; a cleared one.
    let file = dir.join("about.md");
    std::fs::write(&file, "# About us\n\nA *small* server.").expect("write");
    let file_arg = file.to_string_lossy().into_owned();
    ok(
        &dir,
        &["text", "set", "extended_description", "--file", &file_arg],
        "",
    );
    ok(
        &dir,
        &["text", "set", "privacy_policy", "--file", "-"],
        "We keep **nothing** we do not need.",
    );
    ok(
        &dir,
        &["text", "set", "privacy_policy", "--file", "-"],
        "Ours.",
    );
    ok(&dir, &["text", "clear", "privacy_policy"], "");
    assert!(
        fails(&dir, &["text", "set", "site_terms", "--file", &file_arg]).contains("unknown text")
    );
    assert!(
        fails(
            &dir,
            &[
                "text",
                "set",
                "extended_description",
                "--file",
                "/nonexistent/x.md"
            ]
        )
        .contains("cannot read")
    );

    // Terms: one in effect today, a draft for next week then published, a date in the past
    // and a bad date refused.
    let today = Utc::now().date_naive();
    let next_week = (today + Duration::days(7)).to_string();
    let terms_file = dir.join("terms.md");
    std::fs::write(&terms_file, "Be good on %{domain}.").expect("write");
    let terms_arg = terms_file.to_string_lossy().into_owned();
    let today_s = today.to_string();
    ok(
        &dir,
        &[
            "terms",
            "add",
            "--effective-date",
            &today_s,
            "--file",
            &terms_arg,
            "--changelog",
            "First terms",
            "--publish",
        ],
        "",
    );
    let draft = ok(
        &dir,
        &[
            "terms",
            "add",
            "--effective-date",
            &next_week,
            "--file",
            &terms_arg,
        ],
        "",
    );
    assert!(draft.contains("draft"), "{draft}");
    ok(&dir, &["terms", "publish", &next_week], "");
    assert!(fails(&dir, &["terms", "publish", &next_week]).contains("already published"));
    let yesterday = (today - Duration::days(1)).to_string();
    assert!(
        fails(
            &dir,
            &[
                "terms",
                "add",
                "--effective-date",
                &yesterday,
                "--file",
                &terms_arg
            ]
        )
        .contains("past")
    );
    assert!(
        fails(
            &dir,
            &[
                "terms",
                "add",
                "--effective-date",
                "soon",
                "--file",
                &terms_arg
            ]
        )
        .contains("not a date")
    );
    let listed = ok(&dir, &["terms", "list"], "");
    assert_eq!(
        listed.lines().collect::<Vec<_>>(),
        [
            format!("{next_week}\tpublished\t"),
            format!("{today_s}\tpublished\tFirst terms")
        ]
    );

    // Settings: validated names and values.
    ok(&dir, &["setting", "set", "show_domain_blocks", "users"], "");
    assert!(
        fails(&dir, &["setting", "set", "show_domain_blocks", "everyone"])
            .contains("disabled, users or all")
    );
    assert!(fails(&dir, &["setting", "set", "site_title", "all"]).contains("unknown setting"));

    // What was written, read back through the store and the API.
    let settings = SettingsArgs {
        data_dir: Some(dir.clone()),
        ..Default::default()
    }
    .resolve()
    .expect("settings");
    let app = build_app(&settings).await.expect("app");
    let store = app
        .store
        .moderation()
        .expect("the SQLite store keeps moderation data");
    assert_eq!(
        store
            .setting(SHOW_DOMAIN_BLOCKS)
            .await
            .expect("setting")
            .as_deref(),
        Some("users")
    );
    let privacy = app
        .instance()
        .text(PolicyText::PrivacyPolicy)
        .await
        .expect("text");
    assert_eq!(privacy.markdown, None, "cleared");
    assert!(privacy.updated_at.is_some(), "the clearing is dated");

    let rules = get::<InstanceRules>(&app).await.json().expect("rules");
    assert_eq!(
        rules,
        serde_json::json!([
            { "id": rules[0]["id"].clone(), "text": "Read this first", "hint": "" },
            { "id": kind_id, "text": "Be kind", "hint": "Always." },
        ])
    );
    let about = get::<GetExtendedDescription>(&app)
        .await
        .json()
        .expect("about");
    assert_eq!(
        about["content"],
        "<h1>About us</h1>\n<p>A <em>small</em> server.</p>\n"
    );
    let policy = get::<GetPrivacyPolicy>(&app).await.json().expect("policy");
    assert!(
        policy["content"]
            .as_str()
            .is_some_and(|c| c.contains("default privacy policy")),
        "{policy}"
    );
    let terms = get::<GetTermsOfService>(&app).await.json().expect("terms");
    assert_eq!(terms["effective_date"], today_s.as_str());
    assert_eq!(terms["effective"], true);
    assert_eq!(terms["succeeded_by"], next_week.as_str());
    assert_eq!(
        terms["content"],
        format!("<p>Be good on {}.</p>\n", app.config.domain).as_str()
    );
    drop(app);
    let _ = std::fs::remove_dir_all(&dir);
}
