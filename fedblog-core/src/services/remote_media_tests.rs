//! Remote media copied into the file store (`download_remote_media`): an app on `local.test`
//! among a remote server played in process (its actor, its files, every request it is sent
//! counted), posts delivered to our shared inbox signed as over HTTP. Off, only URLs are kept
//! and nothing is fetched; on, attachments, avatars and headers are copied by a background job
//! within the size limit, a refusal keeps the URL and is not retried, a failure that may pass
//! is retried a few times.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use chrono::Duration;
use serde_json::{Value, json};

use crate::api::in_process::InProcessNetwork;
use crate::app::App;
use crate::federation::keys::PrivateKey;
use crate::federation::keys::test_keys::{ACTOR_KEY, ACTOR_PUB};
use crate::federation::paths;
use crate::federation::signatures::sign_request;
use crate::federation::vocab::ACTIVITY_JSON;
use crate::federation::{OutboundRequest, OutboundResponse, Transport, TransportError};
use crate::services::jobs::RoundReport;
use crate::services::media::{DOWNLOAD_REMOTE_MEDIA, REMOTE_MEDIA_ATTEMPTS};
use crate::store::{
    AccountRecord, ActorKeyRecord, INSTANCE_ACTOR, JobRecord, MediaRecord, StatusRecord,
};
use crate::test_support::app;

/// Our server.
const LOCAL: &str = "local.test";
/// Bob's actor on the remote server.
const BOB: &str = "https://remote.test/users/bob";
/// The largest remote file copied in these tests.
const MAX_BYTES: usize = 1024;

/// A 1x1 PNG.
const PNG: &[u8] = &[
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0,
    0, 0, 144, 119, 83, 222, 0, 0, 0, 12, 73, 68, 65, 84, 120, 156, 99, 232, 233, 253, 15, 0, 3,
    193, 2, 25, 188, 44, 160, 75, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

/// What the remote server answers for a file.
#[derive(Clone)]
enum File {
    /// 200 with these bytes.
    Bytes(Vec<u8>),
    /// This status, no body.
    Status(u16),
    /// The transport refuses the answer as too large (a `Content-Length` over its bound).
    TooLarge,
}

/// A GET our app made: the URL and the headers.
type Get = (String, Vec<(String, String)>);

/// The remote server: bob's actor, files by URL, and the requests our app made to it.
struct Remote {
    net: Arc<InProcessNetwork>,
    actor: Mutex<Value>,
    files: Mutex<HashMap<String, File>>,
    /// Each GET of ours (URL and headers), in order.
    gets: Mutex<Vec<Get>>,
}

impl Remote {
    /// How many times our app GOT `url`.
    fn got(&self, url: &str) -> usize {
        let gets = self.gets.lock().expect("gets");
        gets.iter().filter(|(u, _)| u == url).count()
    }

    /// How many of our GETs were of files (not of the actor).
    fn files_got(&self) -> usize {
        let gets = self.gets.lock().expect("gets");
        gets.iter().filter(|(u, _)| u.contains("/files/")).count()
    }

    fn serve(&self, url: &str, file: File) {
        let mut files = self.files.lock().expect("files");
        files.insert(url.to_string(), file);
    }

    /// Bob's actor says his avatar is at `icon` and his header at `image`.
    fn set_images(&self, icon: Option<&str>, image: Option<&str>) {
        let mut actor = self.actor.lock().expect("actor");
        for (field, url) in [("icon", icon), ("image", image)] {
            match url {
                Some(url) => {
                    actor[field] = json!({ "type": "Image", "mediaType": "image/png", "url": url })
                }
                None => {
                    if let Some(o) = actor.as_object_mut() {
                        o.remove(field);
                    }
                }
            }
        }
    }
}

#[async_trait]
impl Transport for Remote {
    async fn send(&self, req: OutboundRequest) -> Result<OutboundResponse, TransportError> {
        if paths::host_of(&req.url).as_deref() == Some(LOCAL) {
            return self.net.transport().send(req).await;
        }
        let answer = |status, body| {
            Ok(OutboundResponse {
                status,
                content_type: None,
                body,
            })
        };
        if req.method == http::Method::POST {
            return answer(202, vec![]);
        }
        self.gets
            .lock()
            .expect("gets")
            .push((req.url.clone(), req.headers.clone()));
        if req.url == BOB {
            let actor = self.actor.lock().expect("actor").to_string();
            return answer(200, actor.into_bytes());
        }
        let file = self.files.lock().expect("files").get(&req.url).cloned();
        match file {
            Some(File::Bytes(bytes)) => answer(200, bytes),
            Some(File::Status(status)) => answer(status, vec![]),
            Some(File::TooLarge) => Err(TransportError::TooLarge),
            None => answer(404, vec![]),
        }
    }
}

/// Our app, copying remote media when `download`, and the remote server.
async fn world(download: bool) -> (Arc<App>, Arc<Remote>) {
    let net = InProcessNetwork::new();
    let actor = json!({
        "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
        "id": BOB,
        "type": "Person",
        "preferredUsername": "bob",
        "inbox": format!("{BOB}/inbox"),
        "outbox": format!("{BOB}/outbox"),
        "followers": format!("{BOB}/followers"),
        "publicKey": { "id": format!("{BOB}#main-key"), "owner": BOB, "publicKeyPem": ACTOR_PUB },
    });
    let remote = Arc::new(Remote {
        net: net.clone(),
        actor: Mutex::new(actor),
        files: Mutex::default(),
        gets: Mutex::default(),
    });
    remote.set_images(
        Some("https://remote.test/files/avatar-1.png"),
        Some("https://remote.test/files/header-1.png"),
    );
    for name in ["avatar-1", "avatar-2", "header-1"] {
        remote.serve(
            &format!("https://remote.test/files/{name}.png"),
            File::Bytes(PNG.to_vec()),
        );
    }
    let mut app = app(LOCAL);
    app.config.limits.download_remote_media = download;
    app.config.limits.remote_media_max_bytes = MAX_BYTES;
    let app = Arc::new(app.with_transport(remote.clone()));
    net.join(&app);
    // Our fetches are signed with the test key: making an RSA key is slow.
    let key = ActorKeyRecord {
        owner: INSTANCE_ACTOR,
        private_key_pem: ACTOR_KEY.into(),
        public_key_pem: ACTOR_PUB.into(),
        created_at: app.now(),
    };
    app.store.insert_actor_key(&key).await.expect("key");
    (app, remote)
}

/// Bob's post `n` with these attachments (`mediaType`, URL), delivered to our shared inbox,
/// signed by bob; the status stored.
async fn deliver_post(app: &App, n: u32, attachments: &[(&str, &str)]) -> StatusRecord {
    let public = "https://www.w3.org/ns/activitystreams#Public";
    let uri = format!("{BOB}/statuses/{n}");
    let attachment: Vec<Value> = attachments
        .iter()
        .map(|(media_type, url)| {
            json!({ "type": "Document", "mediaType": media_type, "url": url, "name": "a cat" })
        })
        .collect();
    let activity = json!({
        "@context": "https://www.w3.org/ns/activitystreams",
        "id": format!("{uri}#create"),
        "type": "Create",
        "actor": BOB,
        "to": [public],
        "object": {
            "id": uri,
            "type": "Note",
            "attributedTo": BOB,
            "content": format!("<p>post {n}</p>"),
            "to": [public],
            "attachment": attachment,
        },
    });
    let inbox = paths::shared_inbox(&app.base_url());
    let body = activity.to_string().into_bytes();
    let key = PrivateKey::from_pem(ACTOR_KEY).expect("key");
    let key_id = format!("{BOB}#main-key");
    let mut headers =
        sign_request("POST", &inbox, Some(&body), &key_id, &key, app.now()).expect("signed");
    headers.push(("Content-Type".into(), ACTIVITY_JSON.into()));
    let request = OutboundRequest {
        method: http::Method::POST,
        url: inbox,
        headers,
        body: Some(body),
    };
    // The app's own transport reaches its inbox through the network it joined.
    let sent = app
        .transport
        .as_ref()
        .expect("a transport")
        .send(request)
        .await
        .expect("answered");
    assert_eq!(
        sent.status,
        202,
        "the inbox takes the post: {}",
        String::from_utf8_lossy(&sent.body)
    );
    app.store
        .status_by_uri(&uri)
        .await
        .expect("status_by_uri")
        .expect("the post is stored")
}

/// Runs the due jobs until none is left: what they did, all rounds together.
async fn run_jobs(app: &App) -> RoundReport {
    let mut total = RoundReport::default();
    for _ in 0..10 {
        let round = app
            .run_due_jobs("test", 100, Duration::seconds(60))
            .await
            .expect("jobs run");
        if round.claimed == 0 {
            return total;
        }
        total.claimed += round.claimed;
        total.done += round.done;
        total.failed += round.failed;
    }
    panic!("jobs kept coming");
}

/// The download jobs still queued (retries included, however far off), claimed to look at them.
async fn queued_downloads(app: &App) -> Vec<JobRecord> {
    let later = app.now() + Duration::days(30);
    let claimed = app
        .store
        .claim_jobs("peek", later, later + Duration::seconds(60), 100)
        .await
        .expect("claim");
    claimed
        .into_iter()
        .filter(|j| j.kind == DOWNLOAD_REMOTE_MEDIA)
        .collect()
}

async fn media(app: &App, status: &StatusRecord) -> Vec<MediaRecord> {
    let mut found = vec![];
    for id in &status.media_ids {
        let m = app.store.media_by_id(*id).await.expect("media_by_id");
        found.push(m.expect("the attachment"));
    }
    found
}

async fn bob(app: &App) -> AccountRecord {
    let found = app.store.account_by_username("bob", Some("remote.test"));
    found.await.expect("account").expect("bob is known")
}

async fn stored_file(app: &App, key: &str) -> Option<Vec<u8>> {
    app.files.get(key).await.expect("file store")
}

#[tokio::test]
async fn off_only_the_remote_urls_are_kept_and_nothing_is_fetched() {
    let (app, remote) = world(false).await;
    let url = "https://remote.test/files/cat.png";
    remote.serve(url, File::Bytes(PNG.to_vec()));
    let post = deliver_post(&app, 1, &[("image/png", url)]).await;
    let report = run_jobs(&app).await;
    assert_eq!(report.failed, 0);
    assert_eq!(remote.files_got(), 0, "no file is fetched");
    assert!(queued_downloads(&app).await.is_empty(), "none is queued");

    let m = media(&app, &post).await.remove(0);
    assert_eq!((m.file_key.as_str(), m.processed), ("", true));
    let shown = app.render_media(&m);
    assert_eq!(shown.url.as_deref(), Some(url));
    assert_eq!(shown.preview_url.as_deref(), Some(url));
    assert_eq!(shown.remote_url.as_deref(), Some(url));

    // Bob's avatar and header are shown from his server, as they are.
    let bob = bob(&app).await;
    let avatar = "https://remote.test/files/avatar-1.png";
    assert_eq!(bob.avatar.as_deref(), Some(avatar));
    assert_eq!(bob.avatar_remote_url.as_deref(), Some(avatar));
    let shown = app.render_account(&bob);
    assert_eq!(
        (shown.avatar.as_str(), shown.avatar_static.as_str()),
        (avatar, avatar)
    );
    assert_eq!(shown.header, "https://remote.test/files/header-1.png");
}

#[tokio::test]
async fn on_an_attachment_is_copied_signed_and_shown_from_here_with_its_original() {
    let (app, remote) = world(true).await;
    let url = "https://remote.test/files/cat.png";
    remote.serve(url, File::Bytes(PNG.to_vec()));
    let post = deliver_post(&app, 1, &[("image/png", url)]).await;

    // Until the job runs, it is shown from its server.
    let pending = media(&app, &post).await.remove(0);
    let key = format!("media_attachments/files/{}/original.png", pending.id);
    assert_eq!(
        (pending.file_key.as_str(), pending.processed),
        (key.as_str(), false)
    );
    assert_eq!(app.render_media(&pending).url.as_deref(), Some(url));

    let report = run_jobs(&app).await;
    assert_eq!(report.failed, 0);
    assert_eq!(remote.got(url), 1);
    let signed = {
        let gets = remote.gets.lock().expect("gets");
        let (_, headers) = gets.iter().find(|(u, _)| u == url).expect("fetched");
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("signature"))
            .map(|(_, v)| v.clone())
    };
    let signed = signed.expect("the fetch is signed");
    assert!(
        signed.contains(&paths::instance_actor(&app.base_url())),
        "by the instance actor: {signed}"
    );

    let copied = media(&app, &post).await.remove(0);
    assert_eq!(
        (copied.file_key.as_str(), copied.processed),
        (key.as_str(), true)
    );
    assert_eq!(stored_file(&app, &key).await.as_deref(), Some(PNG));
    let shown = app.render_media(&copied);
    let ours = app.files.public_url(&app.base_url(), &key);
    assert!(ours.starts_with("https://local.test/"), "{ours}");
    assert_eq!(shown.url.as_deref(), Some(ours.as_str()));
    assert_eq!(shown.preview_url.as_deref(), Some(ours.as_str()));
    assert_eq!(shown.remote_url.as_deref(), Some(url));
    assert_eq!(shown.description.as_deref(), Some("a cat"));
    assert_eq!(shown.meta["original"]["width"], 1, "the copy's dimensions");
    // Other servers are still given the original.
    let parts = app.note_parts(post.id).await.expect("parts").expect("note");
    let doc = app.render_ap_note(&parts).to_json(false);
    assert_eq!(doc["attachment"][0]["url"], url);

    // Done once: running the jobs again fetches nothing.
    run_jobs(&app).await;
    assert_eq!(remote.got(url), 1);
    assert!(queued_downloads(&app).await.is_empty());
}

#[tokio::test]
async fn a_file_over_the_limit_or_refused_keeps_its_url_and_is_not_retried() {
    let (app, remote) = world(true).await;
    let mut big = PNG.to_vec();
    big.resize(MAX_BYTES + 1, 0);
    let files = [
        (
            "image/png",
            "https://remote.test/files/big.png",
            File::Bytes(big),
        ),
        (
            "image/png",
            "https://remote.test/files/huge.png",
            File::TooLarge,
        ),
        (
            "image/png",
            "https://remote.test/files/gone.png",
            File::Status(410),
        ),
        (
            "image/png",
            "https://remote.test/files/page.png",
            File::Bytes(b"<html>".to_vec()),
        ),
    ];
    for (_, url, file) in &files {
        remote.serve(url, file.clone());
    }
    let said: Vec<(&str, &str)> = files.iter().map(|(t, u, _)| (*t, *u)).collect();
    let post = deliver_post(&app, 1, &said).await;
    assert_eq!(
        run_jobs(&app).await.failed,
        0,
        "each job ends at its first try"
    );
    for (m, (_, url, _)) in media(&app, &post).await.iter().zip(&files) {
        assert_eq!(remote.got(url), 1, "{url} is asked for once");
        assert!(!m.processed, "{url}");
        assert_eq!(
            stored_file(&app, &m.file_key).await,
            None,
            "{url} is not stored"
        );
        let shown = app.render_media(m);
        assert_eq!(shown.url.as_deref(), Some(*url));
        assert_eq!(shown.remote_url.as_deref(), Some(*url));
    }
    assert!(
        queued_downloads(&app).await.is_empty(),
        "nothing is retried"
    );

    // An avatar that is no image is refused as an upload would be, once, and stays at its URL.
    let page = "https://remote.test/files/avatar-3.png";
    remote.serve(page, File::Bytes(b"<html>".to_vec()));
    remote.set_images(Some(page), Some("https://remote.test/files/header-1.png"));
    app.federation()
        .refresh_actor(BOB)
        .await
        .expect("refreshed");
    assert_eq!(run_jobs(&app).await.failed, 0);
    assert_eq!(remote.got(page), 1);
    let bob = bob(&app).await;
    assert_eq!(bob.avatar.as_deref(), Some(page));
    assert_eq!(app.render_account(&bob).avatar, page);
    assert!(queued_downloads(&app).await.is_empty());
}

#[tokio::test]
async fn a_server_error_is_retried_a_few_times_and_the_url_stays_meanwhile() {
    let (app, remote) = world(true).await;
    let url = "https://remote.test/files/busy.png";
    remote.serve(url, File::Status(503));
    let post = deliver_post(&app, 1, &[("image/png", url)]).await;
    let report = run_jobs(&app).await;
    assert_eq!(report.failed, 1, "the job fails, to be retried");
    let m = media(&app, &post).await.remove(0);
    assert_eq!(app.render_media(&m).url.as_deref(), Some(url));
    let retries = queued_downloads(&app).await;
    assert_eq!(retries.len(), 1, "queued again");
    assert_eq!(retries[0].max_attempts, REMOTE_MEDIA_ATTEMPTS);
    const { assert!(REMOTE_MEDIA_ATTEMPTS <= 3, "not retried for long") };
    assert!(
        retries[0]
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("503")),
        "{:?}",
        retries[0].last_error
    );
}

#[tokio::test]
async fn an_avatar_is_copied_kept_across_a_refresh_and_replaced_when_its_url_changes() {
    let (app, remote) = world(true).await;
    let first = "https://remote.test/files/avatar-1.png";
    let header = "https://remote.test/files/header-1.png";
    let bob_before = app.federation().refresh_actor(BOB).await.expect("bob");
    // Shown from his server until copied.
    assert_eq!(bob_before.avatar.as_deref(), Some(first));
    assert_eq!(app.render_account(&bob_before).avatar, first);
    assert_eq!(run_jobs(&app).await.failed, 0);

    let copied = bob(&app).await;
    let key = copied.avatar.clone().expect("an avatar");
    assert!(
        key.starts_with("accounts/avatars/") && key.ends_with(".png"),
        "{key}"
    );
    assert_eq!(copied.avatar_remote_url.as_deref(), Some(first));
    assert_eq!(stored_file(&app, &key).await.as_deref(), Some(PNG));
    let header_key = copied.header.clone().expect("a header");
    assert!(header_key.starts_with("accounts/headers/"), "{header_key}");
    assert_eq!(copied.header_remote_url.as_deref(), Some(header));
    let shown = app.render_account(&copied);
    let ours = app.files.public_url(&app.base_url(), &key);
    assert_eq!(
        (shown.avatar.as_str(), shown.avatar_static.as_str()),
        (ours.as_str(), ours.as_str())
    );
    assert_eq!(
        shown.header,
        app.files.public_url(&app.base_url(), &header_key)
    );

    // A refresh with the same URLs keeps the copies and fetches no file again.
    let refreshed = app.federation().refresh_actor(BOB).await.expect("bob");
    assert_eq!(refreshed.avatar.as_deref(), Some(key.as_str()));
    assert_eq!(refreshed.header.as_deref(), Some(header_key.as_str()));
    assert_eq!(run_jobs(&app).await.claimed, 0, "nothing to copy");
    assert_eq!((remote.got(first), remote.got(header)), (1, 1));

    // A new avatar is shown from its server at once, then copied; the old copy goes.
    let second = "https://remote.test/files/avatar-2.png";
    remote.set_images(Some(second), Some(header));
    let changed = app.federation().refresh_actor(BOB).await.expect("bob");
    assert_eq!(changed.avatar.as_deref(), Some(second));
    assert_eq!(changed.avatar_remote_url.as_deref(), Some(second));
    assert_eq!(changed.header.as_deref(), Some(header_key.as_str()));
    assert_eq!(app.render_account(&changed).avatar, second);
    assert_eq!(run_jobs(&app).await.failed, 0);
    let replaced = bob(&app).await;
    let new_key = replaced.avatar.clone().expect("an avatar");
    assert!(new_key.starts_with("accounts/avatars/"), "{new_key}");
    assert_ne!(new_key, key);
    assert_eq!(stored_file(&app, &new_key).await.as_deref(), Some(PNG));
    assert_eq!(
        stored_file(&app, &key).await,
        None,
        "the old copy is removed"
    );
    assert_eq!(remote.got(second), 1);

    // No avatar any more: none is shown, and the copy goes.
    remote.set_images(None, Some(header));
    let bare = app.federation().refresh_actor(BOB).await.expect("bob");
    assert_eq!(
        (bare.avatar.as_ref(), bare.avatar_remote_url.as_ref()),
        (None, None)
    );
    assert_eq!(run_jobs(&app).await.failed, 0);
    assert_eq!(
        stored_file(&app, &new_key).await,
        None,
        "the copy is removed"
    );
    assert!(
        app.render_account(&bare)
            .avatar
            .ends_with(crate::render::MISSING_AVATAR)
    );
}
