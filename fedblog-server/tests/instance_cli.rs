//! `fedblog-server instance ...`: rules, policy texts, terms of service and settings written by
//! the CLI into a SQLite database are what the instance area then reads, and what the API
//! answers; wrong names, values and dates fail the command and write nothing. A thumbnail set
//! by the CLI is what a server running beside it shows and serves, until it is cleared.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;

use chrono::{Duration, Utc};
use fedblog_core::api::instance::{
    extended_description::GetExtendedDescription, instance_rules::InstanceRules,
    instance_v1::InstanceV1, instance_v2::InstanceV2, privacy_policy::GetPrivacyPolicy,
    terms_of_service::GetTermsOfService,
};
use fedblog_core::api::{Endpoint, Reply, route};
use fedblog_core::app::{Request, RequestInfo};
use fedblog_core::params::Params;
use fedblog_core::services::instance::{PolicyText, SHOW_DOMAIN_BLOCKS, THUMBNAIL_SETTING};
use fedblog_server::serve::{build_app, spawn_on};
use fedblog_server::settings::SettingsArgs;
use fedblog_testkit::client::Client;
use fedblog_testkit::openapi::OpenApi;

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

/// A `width` x `height` picture with some detail, encoded as `format`.
fn picture(width: u32, height: u32, format: image::ImageFormat) -> Vec<u8> {
    let img = image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x % 251) as u8, (y % 241) as u8, ((x + y) % 239) as u8])
    });
    let mut out = Vec::new();
    image::DynamicImage::ImageRgb8(img)
        .write_to(&mut std::io::Cursor::new(&mut out), format)
        .expect("encode");
    out
}

/// The status, content type and bytes of `url`.
async fn fetch(url: &str) -> (u16, String, Vec<u8>) {
    let reply = reqwest::get(url).await.expect("fetch");
    let status = reply.status().as_u16();
    let content_type = reply
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let bytes = reply.bytes().await.expect("body").to_vec();
    (status, content_type, bytes)
}

/// The `thumbnail` of `GET /api/v2/instance` and of `GET /api/v1/instance`.
async fn thumbnail(client: &Client) -> (serde_json::Value, serde_json::Value) {
    let v2 = client.get(InstanceV2::PATH, None).await.expect("v2");
    let v1 = client.get(InstanceV1::PATH, None).await.expect("v1");
    (
        v2.json().expect("v2 JSON")["thumbnail"].clone(),
        v1.json().expect("v1 JSON")["thumbnail"].clone(),
    )
}

#[tokio::test]
async fn instance_thumbnail_is_stored_served_by_a_running_server_and_cleared() {
    let dir = std::env::temp_dir().join(format!(
        "fedblog-instance-thumbnail-{}-{}",
        std::process::id(),
        Utc::now().timestamp_micros()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let settings = SettingsArgs {
        data_dir: Some(dir.clone()),
        ..Default::default()
    }
    .resolve()
    .expect("settings");
    // A server running over the same database and media folder as the commands.
    let app = build_app(&settings).await.expect("app");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let running = spawn_on(app.clone(), listener).await.expect("serve");
    let origin = format!("http://{}", running.addr);
    let openapi = OpenApi::discover(Path::new(env!("CARGO_MANIFEST_DIR"))).expect("the schema");
    // Every instance document is checked against Mastodon's schema.
    let client = Client::new(&origin, Some(Arc::new(openapi))).expect("client");
    let base = app.base_url();
    let here = |url: &str| {
        let path = url.strip_prefix(&base).expect("a URL of this server");
        format!("{origin}{path}")
    };
    let built_in = serde_json::json!({ "url": format!("{base}/thumbnail.png") });
    assert_eq!(thumbnail(&client).await.0, built_in);

    // Not an image, or no file: refused before the database is opened, nothing stored.
    let text = dir.join("notes.txt");
    std::fs::write(&text, "not a picture").expect("write");
    let err = fails(&dir, &["thumbnail", "set", &text.to_string_lossy()]);
    assert!(err.contains("PNG, JPEG, GIF or WebP"), "{err}");
    let err = fails(&dir, &["thumbnail", "set", "/nonexistent/banner.png"]);
    assert!(err.contains("cannot read"), "{err}");
    let store = app.store.moderation().expect("moderation data");
    assert_eq!(
        store.setting(THUMBNAIL_SETTING).await.expect("setting"),
        None
    );
    assert!(!settings.media_dir.join("site_uploads").exists());
    assert_eq!(thumbnail(&client).await.0, built_in);

    // A PNG: two versions within 1200x630 and 2400x1260 (never enlarged), with a BlurHash.
    let png = dir.join("banner.png");
    std::fs::write(&png, picture(1500, 750, image::ImageFormat::Png)).expect("write");
    let out = ok(&dir, &["thumbnail", "set", &png.to_string_lossy()], "");
    assert!(out.starts_with("thumbnail set: "), "{out}");
    let (v2, v1) = thumbnail(&client).await;
    let url = v2["url"].as_str().expect("url").to_string();
    assert!(out.contains(&url), "{out}");
    assert_eq!(v2["versions"]["@1x"], url.as_str());
    assert_eq!(v1, url.as_str());
    assert!(
        v2["blurhash"].as_str().is_some_and(|b| b.len() >= 6),
        "{v2}"
    );
    let url_2x = v2["versions"]["@2x"].as_str().expect("@2x").to_string();
    assert_ne!(url_2x, url);
    let mut first = vec![];
    for (u, most, want) in [
        (&url, (1200, 630), None),
        (&url_2x, (2400, 1260), Some((1500, 750))),
    ] {
        let (status, content_type, bytes) = fetch(&here(u)).await;
        assert_eq!(status, 200, "{u}");
        assert!(content_type.starts_with("image/"), "{u}: {content_type}");
        let decoded = image::load_from_memory(&bytes).expect("an image");
        let size = (decoded.width(), decoded.height());
        assert!(size.0 <= most.0 && size.1 <= most.1, "{u}: {size:?}");
        assert!(size.0 >= most.0.min(1500) - 2, "fills its box: {size:?}");
        if let Some(want) = want {
            assert_eq!(size, want, "not enlarged");
        }
        first.push(here(u));
    }

    // A new image (a JPEG): new URLs, the old files gone.
    let jpeg = dir.join("banner.jpg");
    std::fs::write(&jpeg, picture(400, 300, image::ImageFormat::Jpeg)).expect("write");
    ok(&dir, &["thumbnail", "set", &jpeg.to_string_lossy()], "");
    let (v2, _) = thumbnail(&client).await;
    let second = here(v2["url"].as_str().expect("url"));
    assert!(!first.contains(&second), "{second}");
    let (status, content_type, bytes) = fetch(&second).await;
    assert_eq!((status, content_type.as_str()), (200, "image/jpeg"));
    let decoded = image::load_from_memory(&bytes).expect("an image");
    assert_eq!((decoded.width(), decoded.height()), (400, 300));
    for old in &first {
        assert_eq!(fetch(old).await.0, 404, "{old}");
    }

    // Cleared: the built-in image again, served; clearing twice is no error.
    let out = ok(&dir, &["thumbnail", "clear"], "");
    assert!(out.contains("cleared"), "{out}");
    assert_eq!(
        thumbnail(&client).await,
        (built_in.clone(), built_in["url"].clone())
    );
    assert_eq!(fetch(&second).await.0, 404);
    let (status, content_type, _) = fetch(&here(&format!("{base}/thumbnail.png"))).await;
    assert_eq!((status, content_type.as_str()), (200, "image/png"));
    let out = ok(&dir, &["thumbnail", "clear"], "");
    assert!(out.contains("no thumbnail was set"), "{out}");

    running.stop().await;
    drop(app);
    let _ = std::fs::remove_dir_all(&dir);
}
