//! Translation end to end: a server built as `serve` builds it, with `FEDBLOG_TRANSLATION_URL`
//! pointing at a fake LibreTranslate service in this process, translates a status's content,
//! content warning and poll options in one backend request through the real HTTP API; lists the
//! service's language pairs; says translation is enabled; keeps the 403/404 rules; and turns a
//! failing, rate-limiting or hanging service into a 503, never a 500 or a hang.

mod common;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::follow_account::FollowAccount;
use fedblog_core::api::fill_path;
use fedblog_core::api::instance::{
    instance_v2::InstanceV2, translation_languages::TranslationLanguages,
};
use fedblog_core::api::statuses::{create_status::CreateStatus, translate_status::TranslateStatus};
use fedblog_core::{App, Store};
use fedblog_server::serve::{Running, build_app, spawn_on};
use fedblog_server::settings::SettingsArgs;
use fedblog_server::store::{ConnectSettings, connect};
use fedblog_server::translation::LibreTranslate;
use fedblog_testkit::client::{Body, Client, form};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// How the fake service behaves.
const OK: u8 = 0;
const FAIL_500: u8 = 1;
const RATE_LIMITED: u8 = 2;
const HANG: u8 = 3;

/// The fake service's dictionary (German → English).
const DICTIONARY: &[(&str, &str)] = &[
    ("Guten Morgen", "Good morning"),
    ("Achtung", "Warning"),
    ("Ja", "Yes"),
    ("Nein", "No"),
];

/// A LibreTranslate look-alike: `GET /languages` and `POST /translate` (dictionary look-up, and a
/// `<script>` smuggled into HTML answers to prove the server sanitises them).
struct FakeLibreTranslate {
    url: String,
    mode: Arc<AtomicU8>,
    /// Bodies of the `POST /translate` requests received.
    requests: Arc<Mutex<Vec<Value>>>,
    task: tokio::task::JoinHandle<()>,
}

impl FakeLibreTranslate {
    async fn start() -> FakeLibreTranslate {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind fake");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let mode = Arc::new(AtomicU8::new(OK));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let (m, r) = (mode.clone(), requests.clone());
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (m, r) = (m.clone(), r.clone());
                tokio::spawn(async move {
                    let _ = serve_one(stream, m, r).await;
                });
            }
        });
        FakeLibreTranslate {
            url,
            mode,
            requests,
            task,
        }
    }

    fn set_mode(&self, mode: u8) {
        self.mode.store(mode, Ordering::SeqCst);
    }

    fn translate_requests(&self) -> Vec<Value> {
        self.requests.lock().expect("requests").clone()
    }
}

impl Drop for FakeLibreTranslate {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve_one(
    mut stream: TcpStream,
    mode: Arc<AtomicU8>,
    requests: Arc<Mutex<Vec<Value>>>,
) -> std::io::Result<()> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let length: usize = head
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or(0);
    while buf.len() < head_end + length {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let body = &buf[head_end..];
    let request_line = head.lines().next().unwrap_or("");
    let (status, answer) = match mode.load(Ordering::SeqCst) {
        HANG => {
            tokio::time::sleep(Duration::from_secs(120)).await;
            (500, json!({"error": "too late"}))
        }
        FAIL_500 => (500, json!({"error": "the model crashed"})),
        RATE_LIMITED => (429, json!({"error": "Slowdown: 1 per 1 minute"})),
        _ if request_line.starts_with("GET /languages") => (
            200,
            json!([
                {"code": "en", "name": "English", "targets": ["de", "en", "fr"]},
                {"code": "de", "name": "German", "targets": ["de", "en", "fr"]},
                {"code": "fr", "name": "French", "targets": ["de", "en", "fr"]},
            ]),
        ),
        _ if request_line.starts_with("POST /translate") => {
            let request: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
            requests.lock().expect("requests").push(request.clone());
            let texts: Vec<String> = request["q"]
                .as_array()
                .map(|q| {
                    q.iter()
                        .map(|t| {
                            let mut t = t.as_str().unwrap_or("").to_string();
                            for (from, to) in DICTIONARY {
                                t = t.replace(from, to);
                            }
                            if t.starts_with("<p>") {
                                t.push_str("<script>alert('owned')</script>");
                            }
                            t
                        })
                        .collect()
                })
                .unwrap_or_default();
            let mut answer = json!({ "translatedText": texts });
            if request["source"] == "auto" {
                answer["detectedLanguage"] = texts
                    .iter()
                    .map(|_| json!({"confidence": 90.0, "language": "de"}))
                    .collect();
            }
            (200, answer)
        }
        _ => (404, json!({"error": "Not Found"})),
    };
    let body = answer.to_string();
    let reply = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(reply.as_bytes()).await?;
    stream.shutdown().await
}

/// A server built by `serve::build_app` with translation settings, over its own data folder.
struct Instance {
    running: Running,
    app: Arc<App>,
    client: Client,
    dir: PathBuf,
}

fn temp_dir(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "fedblog-translation-{what}-{}-{}",
        std::process::id(),
        chrono::Utc::now().timestamp_micros()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

impl Instance {
    /// Built from settings, exactly as `fedblog-server serve` builds its app.
    async fn from_settings(translation_url: &str, api_key: Option<&str>) -> Instance {
        let dir = temp_dir("settings");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let mut settings = SettingsArgs {
            data_dir: Some(dir.clone()),
            domain: Some(format!("127.0.0.1:{port}")),
            translation_url: Some(translation_url.to_string()),
            translation_api_key: api_key.map(str::to_string),
            ..Default::default()
        }
        .resolve()
        .expect("settings");
        settings.instance.password_hash_memory_kib = 64;
        let app = build_app(&settings).await.expect("build app");
        Self::serve(app, listener, dir).await
    }

    /// With a LibreTranslate client of a short timeout (to prove a hanging service is cut off).
    async fn with_timeout(translation_url: &str, timeout: Duration) -> Instance {
        let dir = temp_dir("timeout");
        let url = format!("sqlite://{}?mode=rwc", dir.join("test.sqlite").display());
        let store = connect(&url, &ConnectSettings::default())
            .await
            .expect("connect");
        store.migrate().await.expect("migrate");
        let store: Arc<dyn Store> = Arc::new(store);
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let mut config = fedblog_core::InstanceConfig::new(&format!("127.0.0.1:{port}"));
        config.password_hash_memory_kib = 64;
        let translator = LibreTranslate::new(translation_url, None, timeout).expect("translator");
        let app = Arc::new(App::new(store, config).with_translator(Arc::new(translator)));
        Self::serve(app, listener, dir).await
    }

    async fn serve(app: Arc<App>, listener: TcpListener, dir: PathBuf) -> Instance {
        let running = spawn_on(app.clone(), listener).await.expect("spawn");
        let client = Client::new(&running.base_url(), Some(common::openapi())).expect("client");
        Instance {
            running,
            app,
            client,
            dir,
        }
    }

    async fn stop(self) {
        self.running.stop().await;
        drop(self.app);
        let _ = std::fs::remove_dir_all(&self.dir);
    }

    /// A confirmed, approved user (locale `en`) with a `read write follow push` token: (id, token).
    async fn user(&self, username: &str) -> (String, String) {
        let (account, _, _) = self
            .app
            .accounts()
            .create_local_account(
                fedblog_core::services::accounts::NewAccount {
                    username: username.into(),
                    email: format!("{username}@example.com"),
                    password: common::PASSWORD.into(),
                    role: fedblog_core::store::Role::User,
                    confirmed: true,
                    approved: true,
                    locale: "en".into(),
                },
                true,
            )
            .await
            .expect("account");
        let cli = self.app.oauth().cli_application().await.expect("cli app");
        let scopes = fedblog_core::scope::Scopes::parse("read write follow push").expect("scopes");
        let token = self
            .app
            .oauth()
            .issue_token(cli.id, Some(account.id), &scopes)
            .await
            .expect("token")
            .access_token;
        (account.id.to_string(), token)
    }

    async fn post_status(&self, token: &str, body: Value) -> Value {
        let r = self
            .client
            .post(CreateStatus::PATH, Some(token), Body::Json(body))
            .await
            .expect("post status");
        assert_eq!(r.status, 200, "posting a status: {}", r.text);
        r.json.expect("status JSON")
    }

    /// `POST /api/v1/statuses/:id/translate` with `lang` when given: (status, body).
    async fn translate(&self, id: &str, token: Option<&str>, lang: Option<&str>) -> (u16, Value) {
        let pairs: Vec<(&str, &str)> = lang.map(|l| ("lang", l)).into_iter().collect();
        let r = self
            .client
            .post(
                &fill_path(TranslateStatus::PATH, &[("id", id)]),
                token,
                form(&pairs),
            )
            .await
            .expect("translate");
        (r.status, r.json.unwrap_or(Value::Null))
    }

    async fn get(&self, path: &str) -> Value {
        let r = self.client.get(path, None).await.expect("GET");
        assert_eq!(r.status, 200, "GET {path}: {}", r.text);
        r.json.expect("JSON")
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statuses_are_translated_through_a_libretranslate_service() {
    let fake = FakeLibreTranslate::start().await;
    let s = Instance::from_settings(&format!("{}/", fake.url), Some("k3y")).await;
    let (_, alice) = s.user("alice").await;
    let (_, bob) = s.user("bob").await;

    // The instance says translation works, and lists the service's pairs (a language never its
    // own target; `und` for statuses of unknown language).
    let v2 = s.get(InstanceV2::PATH).await;
    assert_eq!(v2["configuration"]["translation"]["enabled"], json!(true));
    assert_eq!(
        s.get(TranslationLanguages::PATH).await,
        json!({
            "de": ["en", "fr"],
            "en": ["de", "fr"],
            "fr": ["de", "en"],
            "und": ["de", "en", "fr"],
        })
    );

    // Content, content warning and poll options: one request, everything translated.
    let status = s
        .post_status(
            &alice,
            json!({
                "status": "Guten Morgen #rust",
                "spoiler_text": "Achtung",
                "language": "de",
                "poll": {"options": ["Ja", "Nein"], "expires_in": 3600},
            }),
        )
        .await;
    let id = status["id"].as_str().expect("id").to_string();
    let (code, t) = s.translate(&id, Some(&bob), Some("en")).await;
    assert_eq!(code, 200, "{t}");
    let content = t["content"].as_str().expect("content");
    assert!(content.starts_with("<p>Good morning "), "{content}");
    assert!(content.contains("#<span>rust</span></a>"), "{content}");
    assert!(
        !content.contains("script") && !content.contains("owned"),
        "the backend's <script> reached the client: {content}"
    );
    assert_eq!(t["spoiler_text"], json!("Warning"));
    assert_eq!(
        t["poll"],
        json!({"id": status["poll"]["id"], "options": [{"title": "Yes"}, {"title": "No"}]})
    );
    assert_eq!(t["media_attachments"], json!([]));
    assert_eq!(t["provider"], json!("LibreTranslate"));
    assert_eq!(t["language"], json!("en"));
    assert_eq!(t["detected_source_language"], json!("de"));

    let sent = fake.translate_requests();
    assert_eq!(
        sent.len(),
        1,
        "one backend request per translation: {sent:?}"
    );
    let q = sent[0]["q"].as_array().expect("q is a list");
    assert_eq!(q.len(), 4, "{q:?}");
    assert!(q[0].as_str().unwrap_or("").contains("Guten Morgen"));
    assert!(
        q[0].as_str().unwrap_or("").contains("translate=\"no\""),
        "hashtags go out marked untranslatable: {q:?}"
    );
    assert_eq!(&q[1..], &[json!("Achtung"), json!("Ja"), json!("Nein")]);
    assert_eq!(sent[0]["source"], json!("de"));
    assert_eq!(sent[0]["target"], json!("en"));
    assert_eq!(sent[0]["format"], json!("html"));
    assert_eq!(sent[0]["api_key"], json!("k3y"));

    // No `lang`: the login's locale (`en`). Unknown language: the service detects it.
    let plain = s
        .post_status(&alice, json!({"status": "Guten Morgen"}))
        .await;
    assert_eq!(plain["language"], Value::Null, "precondition: no language");
    let (code, t) = s
        .translate(plain["id"].as_str().expect("id"), Some(&bob), None)
        .await;
    assert_eq!(code, 200, "{t}");
    assert_eq!(t["content"], json!("<p>Good morning</p>"));
    assert_eq!(t["spoiler_text"], json!(""));
    assert_eq!(t["poll"], Value::Null);
    assert_eq!(t["language"], json!("en"));
    assert_eq!(t["detected_source_language"], json!("de"));
    let last = fake.translate_requests().pop().expect("a second request");
    assert_eq!(last["source"], json!("auto"));
    assert_eq!(last["target"], json!("en"));

    // Into its own language, or a language the service lacks: 403, and the service is not asked.
    let asked = fake.translate_requests().len();
    for lang in ["de", "xx"] {
        let (code, body) = s.translate(&id, Some(&bob), Some(lang)).await;
        assert_eq!(code, 403, "lang {lang}: {body}");
        assert_eq!(body["error"], json!("This action is not allowed"));
    }
    // Followers-only: 404 for a stranger, 403 for a follower who may see it.
    let private = s
        .post_status(
            &alice,
            json!({"status": "Guten Morgen", "language": "de", "visibility": "private"}),
        )
        .await;
    let private_id = private["id"].as_str().expect("id");
    let (code, body) = s.translate(private_id, Some(&bob), Some("en")).await;
    assert_eq!(code, 404, "{body}");
    let alice_id = status["account"]["id"].as_str().expect("account id");
    let r = s
        .client
        .post(
            &fill_path(FollowAccount::PATH, &[("id", alice_id)]),
            Some(&bob),
            form::<&str, &str>(&[]),
        )
        .await
        .expect("follow");
    assert_eq!(r.status, 200, "{}", r.text);
    let (code, body) = s.translate(private_id, Some(&bob), Some("en")).await;
    assert_eq!(code, 403, "{body}");
    // No token: 401.
    let (code, _) = s.translate(&id, None, Some("en")).await;
    assert_eq!(code, 401);
    assert_eq!(
        fake.translate_requests().len(),
        asked,
        "refused requests reached the service"
    );

    // The service fails or rate-limits: 503 with an error, never a 500.
    for (mode, needle) in [
        (FAIL_500, "unavailable"),
        (RATE_LIMITED, "too many requests"),
    ] {
        fake.set_mode(mode);
        let (code, body) = s.translate(&id, Some(&bob), Some("en")).await;
        assert_eq!(code, 503, "{body}");
        let error = body["error"].as_str().unwrap_or("");
        assert!(error.to_lowercase().contains(needle), "{body}");
    }
    fake.set_mode(OK);
    let (code, body) = s.translate(&id, Some(&bob), Some("fr")).await;
    assert_eq!(code, 200, "the service is back: {body}");
    assert_eq!(body["language"], json!("fr"));
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_or_unreachable_service_is_a_503_in_bounded_time() {
    let fake = FakeLibreTranslate::start().await;
    let s = Instance::with_timeout(&fake.url, Duration::from_millis(500)).await;
    let (_, alice) = s.user("alice").await;
    let status = s
        .post_status(&alice, json!({"status": "Guten Morgen", "language": "de"}))
        .await;
    let id = status["id"].as_str().expect("id").to_string();
    let (code, body) = s.translate(&id, Some(&alice), Some("en")).await;
    assert_eq!(code, 200, "{body}");

    // The translation request hangs (the language list is already known).
    fake.set_mode(HANG);
    let started = Instant::now();
    let (code, body) = s.translate(&id, Some(&alice), Some("en")).await;
    assert_eq!(code, 503, "{body}");
    assert!(body["error"].is_string(), "{body}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "took {:?}",
        started.elapsed()
    );
    s.stop().await;

    // A fresh server whose service never answers: the language list is a 503 too, in bounded time.
    let s = Instance::with_timeout(&fake.url, Duration::from_millis(500)).await;
    let started = Instant::now();
    let r = s
        .client
        .get(TranslationLanguages::PATH, None)
        .await
        .expect("languages");
    assert_eq!(r.status, 503, "{}", r.text);
    assert!(started.elapsed() < Duration::from_secs(10));
    s.stop().await;

    // Nothing listens at the URL at all.
    let closed = {
        let l = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        format!("http://{}", l.local_addr().expect("addr"))
    };
    let s = Instance::with_timeout(&closed, Duration::from_millis(500)).await;
    let (_, carol) = s.user("carol").await;
    let status = s
        .post_status(&carol, json!({"status": "Guten Morgen", "language": "de"}))
        .await;
    let (code, body) = s
        .translate(status["id"].as_str().expect("id"), Some(&carol), Some("en"))
        .await;
    assert_eq!(code, 503, "{body}");
    assert!(body["error"].is_string(), "{body}");
    s.stop().await;
}
