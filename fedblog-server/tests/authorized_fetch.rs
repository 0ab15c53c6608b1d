//! Authorized fetch ("secure mode", `FEDBLOG_AUTHORIZED_FETCH`) over HTTP: unsigned ActivityPub
//! GETs refused (the actor reduced to its key) while the instance actor, WebFinger, NodeInfo
//! and the HTML pages stay public; a GET signed by a known remote actor served, refused once
//! the owner blocks it, and a bad signature a 401; with the setting off, nothing changes. Then
//! a `fedblog-server serve` process started with `FEDBLOG_AUTHORIZED_FETCH=true` found, read
//! and followed by a second server, whose signed fetches it verifies.

mod common;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::verify_credentials::VerifyCredentials;
use fedblog_core::api::activitypub::{
    actor::ActorDocument, followers::FollowersCollection, instance_actor::InstanceActor,
    note::NoteDocument, outbox::OutboxCollection, profile_page::ProfilePage,
};
use fedblog_core::api::follows::follow_by_uri::FollowByUri;
use fedblog_core::api::instance::nodeinfo::Nodeinfo;
use fedblog_core::api::statuses::create_status::CreateStatus;
use fedblog_core::api::timelines::home_timeline::HomeTimeline;
use fedblog_core::api::well_known::webfinger::GetWebfinger;
use fedblog_core::federation::keys::{PrivateKey, generate_key_pair};
use fedblog_core::federation::signatures::sign_request;
use fedblog_core::federation::vocab::{ACTIVITY_JSON, Actor};
use serde_json::{Value, json};

use common::TestServer;

const BIN: &str = env!("CARGO_BIN_EXE_fedblog-server");

/// An endpoint's path with its parameters (`:name`) filled in, in order.
fn at(path: &str, values: &[&str]) -> String {
    let mut values = values.iter();
    path.split('/')
        .map(|segment| match segment.split_once(':') {
            Some((prefix, _)) => format!("{prefix}{}", values.next().expect("a value")),
            None => segment.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A GET of `url` with `headers` (a `Host` among them is left to the client, which sends the
/// same): its status and body (JSON, or the text as a string).
async fn get(url: &str, headers: &[(String, String)]) -> (u16, Value) {
    let mut r = reqwest::Client::new().get(url);
    for (k, v) in headers {
        if !k.eq_ignore_ascii_case("host") {
            r = r.header(k.as_str(), v.as_str());
        }
    }
    let r = r.send().await.expect("an answer");
    let status = r.status().as_u16();
    let text = r.text().await.expect("a body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn accept(kind: &str) -> Vec<(String, String)> {
    vec![("Accept".to_string(), kind.to_string())]
}

/// A client API call with a token.
async fn call(method: &str, url: &str, token: &str, form: &[(&str, &str)]) -> (u16, Value) {
    let client = reqwest::Client::new();
    let request = match method {
        "GET" => client.get(url),
        _ => client.post(url).form(form),
    };
    let r = request.bearer_auth(token).send().await.expect("request");
    let status = r.status().as_u16();
    let text = r.text().await.expect("body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// A remote actor (`mallory@remote.example`) whose key the server already knows, and the key:
/// its signed requests can be verified without fetching anything.
async fn known_remote_signer(server: &TestServer) -> (String, PrivateKey, fedblog_core::Id) {
    let pair = generate_key_pair().expect("a key pair");
    let id = "https://remote.example/users/mallory";
    let key_id = format!("{id}#main-key");
    let doc = json!({
        "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
        "id": id,
        "type": "Person",
        "preferredUsername": "mallory",
        "inbox": format!("{id}/inbox"),
        "outbox": format!("{id}/outbox"),
        "publicKey": {"id": key_id, "owner": id, "publicKeyPem": pair.public_key_pem},
    });
    let actor = Actor::from_json(&doc).expect("an actor");
    let account = server
        .app
        .federation()
        .store_actor(&actor, id)
        .await
        .expect("stored");
    let key = PrivateKey::from_pem(&pair.private_key_pem).expect("a private key");
    (key_id, key, account.id)
}

/// The headers of a GET of `url` signed with `key` as `key_id`, accepting ActivityStreams.
fn signed(url: &str, key_id: &str, key: &PrivateKey) -> Vec<(String, String)> {
    let mut headers =
        sign_request("GET", url, None, key_id, key, chrono::Utc::now()).expect("signed");
    headers.extend(accept(ACTIVITY_JSON));
    headers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secure_mode_over_http() {
    let server = TestServer::start_with(|c| c.authorized_fetch = true).await;
    let base = server.running.base_url();
    let (_, token) = server.user("alice").await;
    let (s, status) = call(
        "POST",
        &format!("{base}{}", CreateStatus::PATH),
        &token,
        &[("status", "Hello, signers")],
    )
    .await;
    assert_eq!(s, 200, "{status}");
    let id = status["id"].as_str().expect("an id");
    let note = format!("{base}{}", at(NoteDocument::PATH, &["alice", id]));
    let actor = format!("{base}{}", at(ActorDocument::PATH, &["alice"]));
    let outbox = format!("{base}{}", at(OutboxCollection::PATH, &["alice"]));
    let followers = format!("{base}{}", at(FollowersCollection::PATH, &["alice"]));
    let json = accept(ACTIVITY_JSON);

    // Unsigned: the note and the collections are a 401; the actor is only its key.
    for u in [&note, &outbox, &followers] {
        let (s, body) = get(u, &json).await;
        assert_eq!(s, 401, "{u}: {body}");
        assert_eq!(body["error"], "Request not signed");
    }
    let (s, doc) = get(&actor, &json).await;
    assert_eq!(s, 200);
    assert_eq!(doc["preferredUsername"], "alice");
    assert!(doc["publicKey"]["publicKeyPem"].is_string(), "{doc}");
    assert!(
        doc.get("followers").is_none() && doc.get("summary").is_none(),
        "{doc}"
    );

    // Public: the instance actor, WebFinger, NodeInfo, and the pages for browsers.
    let (s, doc) = get(&format!("{base}{}", InstanceActor::PATH), &json).await;
    assert_eq!((s, doc["type"].as_str()), (200, Some("Application")));
    let domain = server.running.addr.to_string();
    let finger = format!("{base}{}?resource=acct:alice@{domain}", GetWebfinger::PATH);
    assert_eq!(get(&finger, &[]).await.0, 200);
    assert_eq!(get(&format!("{base}{}", Nodeinfo::PATH), &[]).await.0, 200);
    let profile = format!("{base}{}", at(ProfilePage::PATH, &["alice"]));
    let (s, page) = get(&profile, &accept("text/html")).await;
    assert_eq!(s, 200);
    assert!(page.as_str().is_some_and(|p| p.contains("<html")));

    // Signed by a remote actor the server knows: served in full.
    let (key_id, key, mallory) = known_remote_signer(&server).await;
    let (s, doc) = get(&note, &signed(&note, &key_id, &key)).await;
    assert_eq!(s, 200, "{doc}");
    assert!(
        doc["content"]
            .as_str()
            .is_some_and(|c| c.contains("Hello, signers"))
    );
    let (s, doc) = get(&actor, &signed(&actor, &key_id, &key)).await;
    assert_eq!(s, 200);
    assert!(doc["followers"].is_string(), "{doc}");
    assert_eq!(get(&outbox, &signed(&outbox, &key_id, &key)).await.0, 200);
    // A signature for another URL does not verify: a 401, not a 500.
    let (s, body) = get(&note, &signed(&outbox, &key_id, &key)).await;
    assert_eq!(s, 401, "{body}");
    let mut garbage = json.clone();
    garbage.push(("Signature".into(), "keyId=nonsense".into()));
    assert_eq!(get(&note, &garbage).await.0, 401);

    // alice blocks mallory: refused (404, as a status one may not see), the actor reduced.
    let alice = server
        .app
        .store
        .account_by_username("alice", None)
        .await
        .unwrap()
        .expect("alice");
    server
        .app
        .blocks()
        .block(&alice, mallory)
        .await
        .expect("blocked");
    assert_eq!(get(&note, &signed(&note, &key_id, &key)).await.0, 404);
    assert_eq!(get(&outbox, &signed(&outbox, &key_id, &key)).await.0, 404);
    let (s, doc) = get(&actor, &signed(&actor, &key_id, &key)).await;
    assert_eq!(s, 200);
    assert!(doc.get("followers").is_none(), "{doc}");
    server.stop().await;

    // With the setting off (the default), unsigned fetches are served as before.
    let open = TestServer::start().await;
    let base = open.running.base_url();
    let (_, token) = open.user("alice").await;
    let (_, status) = call(
        "POST",
        &format!("{base}{}", CreateStatus::PATH),
        &token,
        &[("status", "Hello, anyone")],
    )
    .await;
    let id = status["id"].as_str().expect("an id");
    let note = format!("{base}{}", at(NoteDocument::PATH, &["alice", id]));
    assert_eq!(get(&note, &json).await.0, 200);
    let outbox = format!("{base}{}", at(OutboxCollection::PATH, &["alice"]));
    assert_eq!(get(&outbox, &json).await.0, 200);
    let (_, doc) = get(
        &format!("{base}{}", at(ActorDocument::PATH, &["alice"])),
        &json,
    )
    .await;
    assert!(doc["followers"].is_string(), "{doc}");
    open.stop().await;
}

/// A `fedblog-server serve` process, killed when dropped.
struct Proc {
    child: Child,
    dir: PathBuf,
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Waits (up to 20 s) until `check` holds.
async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..200 {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what} did not happen");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_started_in_secure_mode_still_federates() {
    // a: the binary with FEDBLOG_AUTHORIZED_FETCH=true, on SQLite.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port");
    let dir = std::env::temp_dir().join(format!(
        "fedblog-authorized-fetch-{}-{port}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let db_url = format!("sqlite://{}?mode=rwc", dir.join("fedblog.sqlite").display());
    let domain = format!("127.0.0.1:{port}");
    let a_base = format!("http://{domain}");
    let env = |c: &mut Command| {
        c.env("FEDBLOG_DATABASE_URL", &db_url)
            .env("FEDBLOG_DATA_DIR", &dir)
            .env("FEDBLOG_DOMAIN", &domain)
            .env("FEDBLOG_LOG", "warn");
    };
    let mut serve = Command::new(BIN);
    serve
        .arg("serve")
        .env("FEDBLOG_LISTEN", &domain)
        .env("FEDBLOG_AUTHORIZED_FETCH", "true")
        .env("FEDBLOG_ALLOW_PRIVATE_ADDRESSES", "true")
        .env("FEDBLOG_RATE_LIMITS", "off")
        .env("FEDBLOG_WORKER_POLL_MS", "50")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    env(&mut serve);
    let _a = Proc {
        child: serve.spawn().expect("start fedblog-server"),
        dir: dir.clone(),
    };
    eventually("the server starts", || async {
        reqwest::get(format!("{a_base}{}", Nodeinfo::PATH))
            .await
            .is_ok_and(|r| r.status().is_success())
    })
    .await;
    let cli = |args: &[&str]| {
        let mut c = Command::new(BIN);
        c.args(args);
        env(&mut c);
        let out = c.output().expect("run fedblog-server");
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    cli(&[
        "accounts",
        "create",
        "alice",
        "--email",
        "alice@example.com",
        "--password",
        "correct horse battery",
        "--confirmed",
        "--approved",
    ]);
    let out = cli(&["tokens", "create", "alice"]);
    let alice_token = out.lines().last().unwrap_or_default().trim().to_string();
    let (s, _) = call(
        "GET",
        &format!("{a_base}{}", VerifyCredentials::PATH),
        &alice_token,
        &[],
    )
    .await;
    assert_eq!(s, 200);
    let (_, hello) = call(
        "POST",
        &format!("{a_base}{}", CreateStatus::PATH),
        &alice_token,
        &[("status", "First, in secure mode")],
    )
    .await;
    let note = format!(
        "{a_base}{}",
        at(
            NoteDocument::PATH,
            &["alice", hello["id"].as_str().expect("an id")]
        )
    );
    assert_eq!(get(&note, &accept(ACTIVITY_JSON)).await.0, 401);

    // b: a server in this process. Its fetches are signed by its instance actor, which a
    // verifies by fetching b's `/actor`.
    let b = TestServer::start_federating(None, true).await;
    let b_base = b.running.base_url();
    let alice_at_b = b
        .app
        .federation()
        .resolve_handle("alice", &domain)
        .await
        .expect("alice found through secure mode");
    assert_eq!(alice_at_b.acct(), format!("alice@{domain}"));
    let doc = b.app.federation().fetch(&note).await.expect("the note");
    assert_eq!(doc["id"], note.as_str());

    // bob on b follows alice; alice posts; it reaches bob's home timeline.
    let (_, bob_token) = b.user("bob").await;
    let (s, r) = call(
        "POST",
        &format!("{b_base}{}", FollowByUri::PATH),
        &bob_token,
        &[("uri", &format!("alice@{domain}"))],
    )
    .await;
    assert_eq!(s, 200, "{r}");
    let alice_id = alice_at_b.id;
    eventually("bob follows alice", || {
        let app = b.app.clone();
        async move {
            let bob = app
                .store
                .account_by_username("bob", None)
                .await
                .ok()
                .flatten();
            match bob {
                Some(bob) => app.store.follows(bob.id, alice_id).await.unwrap_or(false),
                None => false,
            }
        }
    })
    .await;
    call(
        "POST",
        &format!("{a_base}{}", CreateStatus::PATH),
        &alice_token,
        &[("status", "Second, for bob")],
    )
    .await;
    eventually("alice's post at b", || async {
        let (_, home) = call(
            "GET",
            &format!("{b_base}{}", HomeTimeline::PATH),
            &bob_token,
            &[],
        )
        .await;
        home.as_array().is_some_and(|l| {
            l.iter().any(|s| {
                s["content"]
                    .as_str()
                    .is_some_and(|c| c.contains("Second, for bob"))
            })
        })
    })
    .await;
    b.stop().await;
}
