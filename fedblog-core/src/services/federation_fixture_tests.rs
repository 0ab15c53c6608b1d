//! Activities as Mastodon, GoToSocial, Misskey and Pleroma send them: hand-written fixtures in
//! `tests/fixtures/activitypub` (where each shape comes from is in its README), signed by their
//! actors and POSTed to the shared inbox of an app on `fedblog.example`, each checked by what it
//! did there. Types fedblog does not act on yet are checked to be taken without error
//! (`*_is_accepted_and_ignored_for_now`). Polls: a Mastodon `Question` and its new totals, and
//! votes as Mastodon and Misskey send them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use chrono::Duration;
use serde_json::Value;

use crate::Id;
use crate::api::in_process::InProcessNetwork;
use crate::app::App;
use crate::federation::keys::PrivateKey;
use crate::federation::keys::test_keys::{ACTOR_KEY, ACTOR_PUB};
use crate::federation::paths;
use crate::federation::signatures::sign_request;
use crate::federation::vocab::{ACTIVITY_JSON, ACTIVITY_STREAMS};
use crate::federation::{OutboundRequest, OutboundResponse, Transport, TransportError};
use crate::pagination::Page;
use crate::services::discovery::AccountStatusesQuery;
use crate::services::federation::FetchFeatured;
use crate::services::relationships::FollowOptions;
use crate::store::{
    AccountRecord, ActorKeyRecord, INSTANCE_ACTOR, NotificationQuery, NotificationType,
    StatusRecord, Visibility,
};
use crate::test_support::{account, app, post};

/// Our server, as the fixtures name it.
const LOCAL: &str = "fedblog.example";
/// The four implementations, by the directory of their fixtures.
const SERVERS: [&str; 4] = ["mastodon", "gotosocial", "misskey", "pleroma"];
/// Alice's post in the fixtures, swapped for the URL of the one she made.
const ALICE_POST: &str = "https://fedblog.example/users/alice/statuses/110000000000000001";
/// Alice's follow in the fixtures, swapped for the id of the one she sent.
const ALICE_FOLLOW: &str = "https://fedblog.example/users/alice#follows/110000000000000002";
/// What the other servers serve: their actors, GoToSocial's key stub, and ana's featured
/// collections.
const SERVED: [&str; 9] = [
    "mastodon/actor.json",
    "mastodon/moved-actor.json",
    "mastodon/instance-actor.json",
    "mastodon/featured.json",
    "mastodon/featured-tags.json",
    "gotosocial/actor.json",
    "gotosocial/main-key.json",
    "misskey/actor.json",
    "pleroma/actor.json",
];

fn fixture_text(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/activitypub/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or_else(|| panic!("no {key} in {v}"))
}

/// The other servers: they serve their documents (with the test key), take every POST, and
/// pass what is for our server to the in-process network.
struct Fediverse {
    net: Arc<InProcessNetwork>,
    docs: Mutex<HashMap<String, Value>>,
    received: Mutex<Vec<Value>>,
}

impl Fediverse {
    fn new(net: Arc<InProcessNetwork>) -> Self {
        let docs = SERVED
            .iter()
            .map(|name| {
                let mut doc: Value = serde_json::from_str(&fixture_text(name)).unwrap();
                if doc.get("publicKey").is_none() {
                    return (str_of(&doc, "id").to_string(), doc);
                }
                doc["publicKey"]["publicKeyPem"] = ACTOR_PUB.into();
                // An actor is served at its id, a key stub (no inbox) at its key's id.
                let at = match doc.get("inbox") {
                    Some(_) => str_of(&doc, "id"),
                    None => str_of(&doc["publicKey"], "id"),
                };
                (at.to_string(), doc)
            })
            .collect();
        Fediverse {
            net,
            docs: Mutex::new(docs),
            received: Mutex::default(),
        }
    }

    /// Serves `doc` at its id from now on.
    fn serve(&self, doc: Value) {
        let id = str_of(&doc, "id").to_string();
        self.docs.lock().unwrap().insert(id, doc);
    }

    /// The document served at `url`.
    fn doc(&self, url: &str) -> Value {
        self.docs.lock().unwrap()[url].clone()
    }

    /// What our server POSTed to the others, of type `kind`.
    fn received(&self, kind: &str) -> Vec<Value> {
        let received = self.received.lock().unwrap();
        received
            .iter()
            .filter(|a| a["type"] == kind)
            .cloned()
            .collect()
    }
}

#[async_trait]
impl Transport for Fediverse {
    async fn send(&self, req: OutboundRequest) -> Result<OutboundResponse, TransportError> {
        if paths::host_of(&req.url).as_deref() == Some(LOCAL) {
            return self.net.transport().send(req).await;
        }
        let served = self.docs.lock().unwrap().get(&req.url).cloned();
        let (status, body) = match (req.method.as_str(), served) {
            ("POST", _) => {
                let sent = serde_json::from_slice(&req.body.unwrap_or_default()).unwrap();
                self.received.lock().unwrap().push(sent);
                (202, vec![])
            }
            (_, Some(doc)) => (200, doc.to_string().into_bytes()),
            (_, None) => (404, vec![]),
        };
        Ok(OutboundResponse {
            status,
            content_type: Some(ACTIVITY_JSON.into()),
            body,
        })
    }
}

/// An app on `fedblog.example` among the other servers, with alice and a post of hers.
struct World {
    app: Arc<App>,
    fedi: Arc<Fediverse>,
    alice: AccountRecord,
    post: StatusRecord,
    /// The id of the follow alice sent last, once she sent one.
    follow: Option<String>,
}

impl World {
    async fn new() -> World {
        World::with_poll(None).await
    }

    /// A world whose post of alice's has a poll (the `poll` parameter of posting).
    async fn with_poll(poll: Option<Value>) -> World {
        let net = InProcessNetwork::new();
        let fedi = Arc::new(Fediverse::new(net.clone()));
        let app = Arc::new(app(LOCAL).with_transport(fedi.clone()));
        net.join(&app);
        let alice = account(&app, "alice").await;
        // Our signatures use the test key too: making an RSA key is slow.
        for owner in [INSTANCE_ACTOR, alice.id] {
            let key = ActorKeyRecord {
                owner,
                private_key_pem: ACTOR_KEY.into(),
                public_key_pem: ACTOR_PUB.into(),
                created_at: app.now(),
            };
            app.store.insert_actor_key(&key).await.unwrap();
        }
        let post = post(&app, &alice, "Tea or coffee?", poll).await;
        World {
            app,
            fedi,
            alice,
            post,
            follow: None,
        }
    }

    /// Fixture `name`, alice's post and follow in place of their stand-ins.
    fn fixture(&self, name: &str) -> Value {
        let post = paths::status(&self.app.base_url(), "alice", self.post.id);
        let mut text = fixture_text(name).replace(ALICE_POST, &post);
        if let Some(follow) = &self.follow {
            text = text.replace(ALICE_FOLLOW, follow);
        }
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// POSTs fixture `name` to our shared inbox, signed by its actor as its server signs: the
    /// answer, and the activity as sent.
    async fn deliver(&self, name: &str) -> (OutboundResponse, Value) {
        let activity = self.fixture(name);
        (self.deliver_value(&activity).await, activity)
    }

    /// POSTs `activity` to our shared inbox, signed by its actor as its server signs.
    async fn deliver_value(&self, activity: &Value) -> OutboundResponse {
        let actor = str_of(activity, "actor");
        let key_id = str_of(&self.fedi.doc(actor)["publicKey"], "id").to_string();
        // GoToSocial's key id serves a stub of its actor without an inbox: the first delivery
        // from an actor unknown here leads from it to the actor (its `publicKey.owner`).
        let inbox = paths::shared_inbox(&self.app.base_url());
        let body = activity.to_string().into_bytes();
        let key = PrivateKey::from_pem(ACTOR_KEY).unwrap();
        let now = self.app.now();
        let mut headers = sign_request("POST", &inbox, Some(&body), &key_id, &key, now).unwrap();
        headers.push(("Content-Type".into(), ACTIVITY_JSON.into()));
        let request = OutboundRequest {
            method: http::Method::POST,
            url: inbox,
            headers,
            body: Some(body),
        };
        self.fedi.net.transport().send(request).await.unwrap()
    }

    /// Delivers fixture `name`, which the inbox must take (202); the activity as sent.
    async fn receive(&self, name: &str) -> Value {
        let (answer, activity) = self.deliver(name).await;
        let said = String::from_utf8_lossy(&answer.body);
        assert_eq!(answer.status, 202, "{name}: {said}");
        activity
    }

    /// The account of the remote actor `uri` (fetched if need be).
    async fn remote(&self, uri: &str) -> AccountRecord {
        self.app.federation().resolve_actor(uri).await.unwrap()
    }

    /// The account of the actor of fixture `name`.
    async fn actor_of(&self, name: &str) -> AccountRecord {
        self.remote(str_of(&self.fixture(name), "actor")).await
    }

    async fn status(&self, uri: &str) -> Option<StatusRecord> {
        self.app.store.status_by_uri(uri).await.unwrap()
    }

    /// Alice's post as it is now.
    async fn alice_post(&self) -> StatusRecord {
        let post = self.app.store.status_by_id(self.post.id).await.unwrap();
        post.expect("alice's post")
    }

    async fn follows(&self, follower: Id, target: Id) -> bool {
        self.app.store.follows(follower, target).await.unwrap()
    }

    async fn requested(&self, follower: Id, target: Id) -> bool {
        self.app
            .store
            .follow_requested(follower, target)
            .await
            .unwrap()
    }

    /// Alice's notifications, filtered ones too (a private mention from a stranger is filtered,
    /// as Mastodon's default policy has it).
    async fn notifications(&self) -> Vec<(NotificationType, Option<Id>)> {
        let query = NotificationQuery {
            include_filtered: true,
            ..Default::default()
        };
        let page = self
            .app
            .store
            .notifications_page(self.alice.id, &query, Page::first(40));
        let found = page.await.unwrap();
        found.into_iter().map(|n| (n.kind, n.status_id)).collect()
    }

    /// Runs our jobs (deliveries to the other servers) until none is left.
    async fn run_jobs(&self) {
        loop {
            let report = self.app.run_due_jobs("test", 100, Duration::seconds(60));
            let report = report.await.unwrap();
            assert_eq!(report.failed, 0, "a job failed");
            if report.claimed == 0 {
                return;
            }
        }
    }

    /// Alice asks to follow the actor of fixture `name`: her Follow is sent (its id is kept
    /// for the fixtures) and pending.
    async fn alice_follows_actor_of(&mut self, name: &str) -> AccountRecord {
        let target = self.actor_of(name).await;
        let relationships = self.app.relationships();
        let asked = relationships.follow(&self.alice, target.id, FollowOptions::default());
        asked.await.unwrap();
        self.run_jobs().await;
        let sent = self.fedi.received("Follow");
        self.follow = Some(str_of(sent.last().expect("a Follow sent"), "id").to_string());
        assert!(self.requested(self.alice.id, target.id).await, "{name}");
        target
    }
}

/// `{server}/{what}.json` for each of `servers`.
fn each(servers: &[&str], what: &str) -> Vec<String> {
    servers.iter().map(|s| format!("{s}/{what}.json")).collect()
}

#[tokio::test]
async fn a_follow_from_each_server_is_accepted_and_notified() {
    for name in each(&SERVERS, "follow") {
        let w = World::new().await;
        let follow = w.receive(&name).await;
        let follower = w.actor_of(&name).await;
        assert!(w.follows(follower.id, w.alice.id).await, "{name}");
        let told = w.notifications().await;
        assert!(told.contains(&(NotificationType::Follow, None)), "{name}");
        w.run_jobs().await;
        let accepts = w.fedi.received("Accept");
        assert_eq!(accepts.len(), 1, "{name}: one Accept sent back");
        assert_eq!(accepts[0]["object"]["id"], follow["id"], "{name}");
    }
}

#[tokio::test]
async fn alices_follow_is_accepted_or_rejected_by_each_server() {
    for (what, accepted) in [("accept-follow", true), ("reject-follow", false)] {
        for name in each(&SERVERS, what) {
            let mut w = World::new().await;
            let target = w.alice_follows_actor_of(&name).await;
            w.receive(&name).await;
            let alice = w.alice.id;
            assert_eq!(w.follows(alice, target.id).await, accepted, "{name}");
            assert!(!w.requested(alice, target.id).await, "{name}: answered");
        }
    }
}

#[tokio::test]
async fn an_undone_follow_ends() {
    for server in SERVERS {
        let w = World::new().await;
        w.receive(&format!("{server}/follow.json")).await;
        w.receive(&format!("{server}/undo-follow.json")).await;
        let follower = w.actor_of(&format!("{server}/follow.json")).await;
        assert!(!w.follows(follower.id, w.alice.id).await, "{server}");
    }
}

/// What a post from another server should become here.
struct Post {
    fixture: &'static str,
    /// A piece of its text.
    text: &'static str,
    visibility: Visibility,
    language: Option<&'static str>,
    spoiler: &'static str,
    sensitive: bool,
    tags: &'static [&'static str],
    /// Whether it replies to alice's post.
    reply: bool,
    /// Its attachments: URL, description, blurhash, focal point.
    media: &'static [Media],
    /// The custom emojis its rendering shows: shortcode and image URL.
    emojis: &'static [(&'static str, &'static str)],
}

type Media = (
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
    Option<(f64, f64)>,
);

const POSTS: &[Post] = &[
    Post {
        fixture: "mastodon/create-note.json",
        text: "Morning ride along the river",
        visibility: Visibility::Public,
        language: Some("en"),
        spoiler: "",
        sensitive: false,
        tags: &["cycling"],
        reply: false,
        media: &[(
            "https://files.mastodon.example/media_attachments/files/112/240/093/201/554/120/original/3c1d9e.jpeg",
            Some("A green bicycle leaning on a railing by the river"),
            Some("U9Fh~t00_N%M4n%M9FWB?bRj-;ay-;t7%Mof"),
            Some((-0.12, 0.4)),
        )],
        emojis: &[(
            "bike",
            "https://files.mastodon.example/custom_emojis/images/000/004/821/original/bike.png",
        )],
    },
    Post {
        fixture: "mastodon/create-reply.json",
        text: "o barco afundou",
        visibility: Visibility::Private,
        language: Some("pt"),
        spoiler: "final episode spoilers",
        sensitive: true,
        tags: &[],
        reply: true,
        media: &[],
        emojis: &[],
    },
    Post {
        fixture: "gotosocial/create-note.json",
        text: "First harvest of the year!",
        visibility: Visibility::Public,
        language: Some("en"),
        spoiler: "",
        sensitive: false,
        tags: &["gardening"],
        reply: false,
        media: &[(
            "https://gts.example/fileserver/01HWZ2A1B3C5D7E9F1G3H5J7K9/attachment/original/01HX0B6K8M0N2P4Q6R8S0T2V4W.webp",
            Some("Three ripe tomatoes on the vine, one still green"),
            Some("LEF~2_of00WB00ay~qj[ayj[fQfQ"),
            Some((0.25, -0.5)),
        )],
        emojis: &[],
    },
    Post {
        fixture: "gotosocial/create-reply.json",
        text: "the slugs got most of mine",
        visibility: Visibility::Private,
        language: None,
        spoiler: "garden pests",
        sensitive: true,
        tags: &[],
        reply: true,
        media: &[],
        emojis: &[],
    },
    Post {
        fixture: "misskey/create-note.json",
        text: "うちの子が箱に入った",
        visibility: Visibility::Unlisted,
        language: None,
        spoiler: "ねこ",
        sensitive: true,
        tags: &["caturday"],
        reply: false,
        media: &[(
            "https://misskey.example/files/webpublic-7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
            None,
            None,
            None,
        )],
        emojis: &[(
            "blobcat_box",
            "https://misskey.example/files/7c1e2d3f-blobcat_box.png",
        )],
    },
    Post {
        fixture: "pleroma/create-note.json",
        text: "Found this in a flea market",
        visibility: Visibility::Public,
        language: None,
        spoiler: "",
        sensitive: false,
        tags: &["teapots"],
        reply: false,
        media: &[(
            "https://pleroma.example/media/3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b.jpg",
            Some("A teapot shaped like a cat"),
            Some("UDF~LQ9F00%M~qxu9FRj4n%Mt7ay?bWBRjof"),
            None,
        )],
        emojis: &[],
    },
    Post {
        fixture: "pleroma/create-direct-note.json",
        text: "are you coming on Saturday?",
        visibility: Visibility::Direct,
        language: None,
        spoiler: "",
        sensitive: false,
        tags: &[],
        reply: false,
        media: &[],
        emojis: &[],
    },
];

#[tokio::test]
async fn a_post_from_each_server_keeps_what_it_says() {
    for want in POSTS {
        let name = want.fixture;
        let w = World::new().await;
        let create = w.receive(name).await;
        let got = w.status(str_of(&create["object"], "id")).await;
        let got = got.unwrap_or_else(|| panic!("{name}: not stored"));
        assert!(got.content.contains(want.text), "{name}: {}", got.content);
        assert!(!got.local, "{name}");
        assert_eq!(got.visibility, want.visibility, "{name}");
        assert_eq!(got.language.as_deref(), want.language, "{name}");
        assert_eq!(got.spoiler_text, want.spoiler, "{name}");
        assert_eq!(got.sensitive, want.sensitive, "{name}");
        assert_eq!(got.tags, want.tags, "{name}");
        let parent = want.reply.then_some(w.post.id);
        assert_eq!(got.in_reply_to_id, parent, "{name}");
        assert_eq!(got.mentions, vec![w.alice.id], "{name}");
        let told = w.notifications().await;
        let mention = (NotificationType::Mention, Some(got.id));
        assert!(told.contains(&mention), "{name}: {told:?}");
        let mut media = w.app.store.media_by_ids(&got.media_ids).await.unwrap();
        media.sort_by_key(|m| got.media_ids.iter().position(|id| *id == m.id));
        let media: Vec<_> = media
            .into_iter()
            .map(|m| (m.remote_url, m.description, m.blurhash, m.focus))
            .collect();
        let owned = |s: Option<&str>| s.map(str::to_string);
        let want_media: Vec<_> = want
            .media
            .iter()
            .map(|&(url, description, blurhash, focus)| {
                (
                    Some(url.to_string()),
                    owned(description),
                    owned(blurhash),
                    focus,
                )
            })
            .collect();
        assert_eq!(media, want_media, "{name}");
        let shown = w.app.render_status(&got, Some(&w.alice)).await.unwrap();
        let emojis: Vec<(&str, &str)> = shown
            .emojis
            .iter()
            .map(|e| (e.shortcode.as_str(), e.url.as_str()))
            .collect();
        assert_eq!(emojis, want.emojis, "{name}");
    }
}

#[tokio::test]
async fn an_edit_from_each_server_keeps_the_history() {
    for (server, now_says) in [
        ("mastodon", "Evening ride"),
        ("gotosocial", "First real harvest"),
        ("pleroma", "flea market last Sunday"),
    ] {
        let w = World::new().await;
        let create = w.receive(&format!("{server}/create-note.json")).await;
        let before = w.status(str_of(&create["object"], "id")).await.unwrap();
        w.receive(&format!("{server}/update-note.json")).await;
        let after = w.app.store.status_by_id(before.id).await.unwrap().unwrap();
        assert!(
            after.content.contains(now_says),
            "{server}: {}",
            after.content
        );
        assert!(after.edited_at.is_some(), "{server}");
        let history = w.app.store.status_edits(before.id).await.unwrap();
        let versions: Vec<&str> = history.iter().map(|e| e.content.as_str()).collect();
        let want = vec![before.content.as_str(), after.content.as_str()];
        assert_eq!(versions, want, "{server}: the original, then the edit");
    }
}

#[tokio::test]
async fn a_profile_update_from_each_server_refreshes_the_account() {
    for (server, name, bio, locked) in [
        ("mastodon", "Ana L. 🚲", "Now mostly bread", true),
        (
            "gotosocial",
            "Dana (balcony farmer)",
            "Now with chillies",
            true,
        ),
        ("misskey", "Miko 🐈‍⬛", "最近は写真も", false),
        ("pleroma", "Pat 🫖", "more tea", true),
    ] {
        let w = World::new().await;
        let fixture = format!("{server}/update-person.json");
        let before = w.actor_of(&fixture).await;
        w.receive(&fixture).await;
        let after = w.app.store.account_by_id(before.id).await.unwrap().unwrap();
        assert_ne!(before.display_name, after.display_name, "{server}");
        assert_eq!(after.display_name, name, "{server}");
        assert!(after.note.contains(bio), "{server}: {}", after.note);
        assert_eq!(after.locked, locked, "{server}");
    }
}

#[tokio::test]
async fn a_deletion_from_each_server_removes_the_post() {
    for server in SERVERS {
        let w = World::new().await;
        let create = w.receive(&format!("{server}/create-note.json")).await;
        let uri = str_of(&create["object"], "id");
        assert!(w.status(uri).await.is_some(), "{server}");
        w.receive(&format!("{server}/delete-note.json")).await;
        assert!(w.status(uri).await.is_none(), "{server}: deleted");
    }
}

#[tokio::test]
async fn a_deleted_actor_from_each_server_is_gone() {
    for name in each(&SERVERS, "delete-actor") {
        let w = World::new().await;
        let actor = w.actor_of(&name).await;
        w.receive(&name).await;
        let left = w.app.store.account_by_id(actor.id).await.unwrap();
        assert!(left.is_none(), "{name}");
    }
}

#[tokio::test]
async fn a_like_from_each_server_favourites_alices_post() {
    let mut names = each(&SERVERS, "like");
    names.push("misskey/like-custom-emoji.json".into());
    for name in names {
        let w = World::new().await;
        w.receive(&name).await;
        assert_eq!(w.alice_post().await.favourites_count, 1, "{name}");
        let favourite = (NotificationType::Favourite, Some(w.post.id));
        assert!(w.notifications().await.contains(&favourite), "{name}");
    }
}

#[tokio::test]
async fn an_announce_from_each_server_reblogs_alices_post() {
    for name in each(&SERVERS, "announce") {
        let w = World::new().await;
        let announce = w.receive(&name).await;
        let reblog = w.status(str_of(&announce, "id")).await;
        let reblog = reblog.unwrap_or_else(|| panic!("{name}: no reblog"));
        assert_eq!(reblog.reblog_of_id, Some(w.post.id), "{name}");
        assert_eq!(reblog.visibility, Visibility::Public, "{name}");
        assert_eq!(w.alice_post().await.reblogs_count, 1, "{name}");
        let told = (NotificationType::Reblog, Some(w.post.id));
        assert!(w.notifications().await.contains(&told), "{name}");
    }
}

/// Servers whose `Undo` embeds what it undoes (Pleroma's likes and announces name it by id
/// only; see the README).
const EMBEDDING_UNDO: [&str; 3] = ["mastodon", "gotosocial", "misskey"];

#[tokio::test]
async fn an_undone_like_or_announce_is_taken_back() {
    for server in EMBEDDING_UNDO {
        let w = World::new().await;
        w.receive(&format!("{server}/like.json")).await;
        w.receive(&format!("{server}/undo-like.json")).await;
        let announce = w.receive(&format!("{server}/announce.json")).await;
        w.receive(&format!("{server}/undo-announce.json")).await;
        let post = w.alice_post().await;
        assert_eq!(post.favourites_count, 0, "{server}: unfavourited");
        assert_eq!(post.reblogs_count, 0, "{server}: unreblogged");
        let reblog = w.status(str_of(&announce, "id")).await;
        assert!(reblog.is_none(), "{server}: the reblog is gone");
    }
}

#[tokio::test]
async fn a_block_from_each_server_ends_its_follow() {
    for server in SERVERS {
        let w = World::new().await;
        w.receive(&format!("{server}/follow.json")).await;
        let blocker = w.actor_of(&format!("{server}/follow.json")).await;
        w.receive(&format!("{server}/block.json")).await;
        assert!(w.app.store.blocks(blocker.id, w.alice.id).await.unwrap());
        assert!(!w.follows(blocker.id, w.alice.id).await, "{server}");
        if EMBEDDING_UNDO.contains(&server) {
            w.receive(&format!("{server}/undo-block.json")).await;
            let blocks = w.app.store.blocks(blocker.id, w.alice.id).await.unwrap();
            assert!(!blocks, "{server}: unblocked");
        }
    }
}

#[tokio::test]
async fn a_pleromas_undo_of_a_like_by_id_is_read_from_pleroma_and_takes_it_back() {
    let w = World::new().await;
    let like = w.receive("pleroma/like.json").await;
    assert_eq!(w.alice_post().await.favourites_count, 1);
    // Its id alone names the Like: unknown on Pleroma, nothing happens.
    w.receive("pleroma/undo-like.json").await;
    assert_eq!(w.alice_post().await.favourites_count, 1);
    // Served there, it is read and undone.
    w.fedi.serve(like.clone());
    let mut again = w.fixture("pleroma/undo-like.json");
    again["id"] = format!("{}-again", str_of(&again, "id")).into();
    w.deliver_value(&again).await;
    assert_eq!(w.alice_post().await.favourites_count, 0);
    // Another actor's Like, or another server's id, is not undone.
    let mut like_again = like.clone();
    like_again["id"] = format!("{}-again", str_of(&like, "id")).into();
    w.deliver_value(&like_again).await;
    assert_eq!(w.alice_post().await.favourites_count, 1);
    // What the id names now is someone else's.
    let mut theirs = like;
    theirs["actor"] = "https://mastodon.example/users/ana".into();
    w.fedi.serve(theirs);
    let mut third = w.fixture("pleroma/undo-like.json");
    third["id"] = format!("{}-third", str_of(&third, "id")).into();
    w.deliver_value(&third).await;
    assert_eq!(w.alice_post().await.favourites_count, 1);
}

#[tokio::test]
async fn a_pleromas_undo_of_an_announce_by_id_takes_it_back() {
    let w = World::new().await;
    let announce = w.receive("pleroma/announce.json").await;
    assert_eq!(w.alice_post().await.reblogs_count, 1);
    w.receive("pleroma/undo-announce.json").await;
    assert_eq!(w.alice_post().await.reblogs_count, 0, "unreblogged");
    assert!(
        w.status(str_of(&announce, "id")).await.is_none(),
        "the reblog is gone"
    );
}

/// Delivers each of `names`, checking that the inbox takes it and that nothing reaches alice
/// (no notification, her post untouched).
async fn accepted_and_ignored(w: &World, names: &[&str]) {
    let before = w.notifications().await;
    for name in names {
        w.receive(name).await;
    }
    assert_eq!(w.notifications().await, before, "{names:?}");
    let post = w.alice_post().await;
    assert_eq!((post.favourites_count, post.reblogs_count), (0, 0));
}

#[tokio::test]
async fn an_unknown_activity_type_is_accepted_and_ignored() {
    accepted_and_ignored(&World::new().await, &["pleroma/bite.json"]).await;
}

#[tokio::test]
async fn a_mastodon_flag_is_accepted_and_ignored_for_now() {
    accepted_and_ignored(&World::new().await, &["mastodon/flag.json"]).await;
}

#[tokio::test]
async fn a_pleroma_emoji_react_is_accepted_and_ignored_for_now() {
    accepted_and_ignored(&World::new().await, &["pleroma/emoji-react.json"]).await;
}

impl World {
    /// The posts the actor of fixture `name` has pinned here, by ActivityPub id.
    async fn pins_of(&self, name: &str) -> Vec<String> {
        let actor = self.actor_of(name).await;
        let mut uris = vec![];
        for id in self.app.store.pinned_status_ids(actor.id).await.unwrap() {
            let status = self.app.store.status_by_id(id).await.unwrap();
            uris.extend(status.and_then(|s| s.uri));
        }
        uris
    }

    /// The hashtags the actor of fixture `name` features here.
    async fn featured_tags_of(&self, name: &str) -> Vec<String> {
        let actor = self.actor_of(name).await;
        let tags = self.app.store.featured_tags(actor.id).await.unwrap();
        tags.into_iter().map(|t| t.name).collect()
    }
}

#[tokio::test]
async fn a_pin_from_mastodon_and_pleroma_pins_and_mastodons_remove_unpins() {
    for server in ["mastodon", "pleroma"] {
        let w = World::new().await;
        let post = w.receive(&format!("{server}/create-note.json")).await;
        let uri = str_of(&post["object"], "id").to_string();
        // The featured collections, read when the actor is first seen, come first.
        w.run_jobs().await;
        let add = format!("{server}/add-featured.json");
        assert!(!w.pins_of(&add).await.contains(&uri), "{server}");
        w.receive(&add).await;
        assert!(w.pins_of(&add).await.contains(&uri), "{server}");
        if server == "mastodon" {
            w.receive("mastodon/remove-featured.json").await;
            assert!(!w.pins_of(&add).await.contains(&uri), "unpinned");
        }
    }
}

#[tokio::test]
async fn a_pin_of_an_unknown_post_that_cannot_be_fetched_changes_nothing() {
    let w = World::new().await;
    w.receive("mastodon/add-featured.json").await;
    assert_eq!(
        w.pins_of("mastodon/add-featured.json").await,
        Vec::<String>::new()
    );
}

#[tokio::test]
async fn a_featured_hashtag_is_added_and_removed() {
    let w = World::new().await;
    let add = "mastodon/add-featured-tag.json";
    w.receive(add).await;
    assert!(
        w.featured_tags_of(add)
            .await
            .contains(&"coffee".to_string())
    );
    w.receive("mastodon/remove-featured-tag.json").await;
    assert!(
        !w.featured_tags_of(add)
            .await
            .contains(&"coffee".to_string())
    );
}

#[tokio::test]
async fn an_actors_featured_collections_are_read_when_it_is_first_seen() {
    let w = World::new().await;
    let ana = w.actor_of("mastodon/add-featured.json").await;
    w.run_jobs().await;
    let pinned = "https://mastodon.example/users/ana/statuses/112240093318770001";
    assert_eq!(w.pins_of("mastodon/add-featured.json").await, vec![pinned]);
    let status = w.status(pinned).await.expect("the inlined pin is stored");
    assert_eq!(status.account_id, ana.id);
    assert!(status.content.contains("how I brew tea"));
    assert_eq!(
        w.featured_tags_of("mastodon/add-featured.json").await,
        vec!["tea"]
    );
    // As the client API lists them (`accounts/:id/statuses?pinned=true`, `featured_tags`).
    let query = AccountStatusesQuery {
        pinned: true,
        ..Default::default()
    };
    let discovery = w.app.discovery();
    let shown = discovery.account_statuses(Some(&w.alice), ana.id, query, Page::first(20));
    let shown: Vec<Id> = shown.await.unwrap().statuses.iter().map(|s| s.id).collect();
    assert_eq!(shown, vec![status.id]);
    let tags = w.app.tags().account_featured_tags(ana.id).await.unwrap();
    let names: Vec<&str> = tags.iter().map(|t| t.featured.name.as_str()).collect();
    assert_eq!(names, vec!["tea"]);
    // A pin of a post by someone else is refused and changes nothing.
    let (answer, _) = w.deliver("pleroma/create-note.json").await;
    assert_eq!(answer.status, 202);
    let pleroma_note = "https://pleroma.example/objects/8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d";
    assert!(w.status(pleroma_note).await.is_some());
    let mut add = w.fixture("mastodon/add-featured.json");
    add["object"] = pleroma_note.into();
    assert_eq!(w.deliver_value(&add).await.status, 403);
    assert_eq!(w.pins_of("mastodon/add-featured.json").await, vec![pinned]);
    // Read again once emptied, as Fedify serves an empty collection (no items named at all),
    // the collections leave no pin and no featured tag behind.
    for name in ["mastodon/featured.json", "mastodon/featured-tags.json"] {
        let id = str_of(&w.fixture(name), "id").to_string();
        w.fedi.serve(serde_json::json!({
            "@context": ACTIVITY_STREAMS, "id": id, "type": "OrderedCollection", "totalItems": 0
        }));
    }
    w.app
        .run_fetch_featured(&serde_json::to_value(FetchFeatured { account: ana.id }).unwrap())
        .await
        .unwrap();
    assert!(w.pins_of("mastodon/add-featured.json").await.is_empty());
    assert!(
        w.featured_tags_of("mastodon/add-featured.json")
            .await
            .is_empty()
    );
}

#[tokio::test]
async fn alices_pins_and_featured_tags_reach_her_followers() {
    let w = World::new().await;
    w.receive("mastodon/follow.json").await;
    w.run_jobs().await;
    w.app.interactions().pin(&w.alice, w.post.id).await.unwrap();
    w.app
        .tags()
        .create_featured_tag(&w.alice, "tea")
        .await
        .unwrap();
    w.run_jobs().await;
    let base = w.app.base_url();
    let alice = paths::actor(&base, "alice");
    let post = paths::status(&base, "alice", w.post.id);
    let adds = w.fedi.received("Add");
    assert_eq!(adds.len(), 2, "{adds:?}");
    assert_eq!(adds[0]["actor"], alice.as_str());
    assert_eq!(adds[0]["object"], post.as_str());
    assert_eq!(adds[0]["target"], paths::featured(&alice).as_str());
    assert_eq!(adds[1]["object"]["type"], "Hashtag");
    assert_eq!(adds[1]["object"]["name"], "#tea");
    assert_eq!(adds[1]["target"], paths::featured_tags(&alice).as_str());
    // Pinning again sends nothing; unpinning and unfeaturing send Removes.
    w.app.interactions().pin(&w.alice, w.post.id).await.unwrap();
    w.app
        .interactions()
        .unpin(&w.alice, w.post.id)
        .await
        .unwrap();
    let featured = w.app.store.featured_tags(w.alice.id).await.unwrap();
    let tags = w.app.tags();
    tags.delete_featured_tag(&w.alice, featured[0].id)
        .await
        .unwrap();
    w.run_jobs().await;
    assert_eq!(w.fedi.received("Add").len(), 2);
    let removes = w.fedi.received("Remove");
    assert_eq!(removes.len(), 2, "{removes:?}");
    assert_eq!(removes[0]["object"], post.as_str());
    assert_eq!(removes[1]["object"]["name"], "#tea");
}

#[tokio::test]
async fn a_mastodon_move_moves_alices_follow_to_the_new_account() {
    let mut w = World::new().await;
    let ana = w
        .alice_follows_actor_of("mastodon/accept-follow.json")
        .await;
    w.receive("mastodon/accept-follow.json").await;
    w.receive("mastodon/move.json").await;
    let new = w.remote("https://mastodon2.example/users/ana").await;
    let old = w.app.store.account_by_id(ana.id).await.unwrap().unwrap();
    assert_eq!(old.moved_to_account_id, Some(new.id));
    assert!(!w.follows(w.alice.id, ana.id).await, "the old follow ends");
    assert!(
        w.requested(w.alice.id, new.id).await,
        "the new one is asked"
    );
    w.run_jobs().await;
    let follows = w.fedi.received("Follow");
    assert_eq!(
        follows.last().unwrap()["object"],
        "https://mastodon2.example/users/ana"
    );
    let undo = w.fedi.received("Undo");
    assert_eq!(
        undo.last().unwrap()["object"]["object"],
        "https://mastodon.example/users/ana"
    );
    // The client API shows where the account went.
    let shown = w.app.render_account_alone(&old).await.unwrap();
    assert_eq!(shown.moved.expect("moved").acct, "ana@mastodon2.example");
}

#[tokio::test]
async fn a_move_to_an_account_that_does_not_name_the_old_one_is_ignored() {
    let mut w = World::new().await;
    let ana = w
        .alice_follows_actor_of("mastodon/accept-follow.json")
        .await;
    w.receive("mastodon/accept-follow.json").await;
    let mut to_pat = w.fixture("mastodon/move.json");
    to_pat["target"] = "https://pleroma.example/users/pat".into();
    assert_eq!(w.deliver_value(&to_pat).await.status, 202);
    let old = w.app.store.account_by_id(ana.id).await.unwrap().unwrap();
    assert_eq!(old.moved_to_account_id, None);
    assert!(
        w.follows(w.alice.id, ana.id).await,
        "alice still follows ana"
    );
    // Nor may an actor move someone else.
    let mut pats = w.fixture("mastodon/move.json");
    pats["object"] = "https://pleroma.example/users/pat".into();
    pats["id"] = "https://mastodon.example/users/ana#moves/18".into();
    assert_eq!(w.deliver_value(&pats).await.status, 403);
}

#[tokio::test]
async fn alice_moves_to_a_remote_account_that_names_her() {
    let w = World::new().await;
    w.receive("mastodon/follow.json").await;
    let bob = account(&w.app, "bob").await;
    let ana = w.actor_of("mastodon/follow.json").await;
    w.app
        .relationships()
        .follow(&bob, w.alice.id, FollowOptions::default())
        .await
        .unwrap();
    w.run_jobs().await;
    // ana@mastodon.example does not name alice: refused, nothing changes.
    let refused = w
        .app
        .moves()
        .move_to(&w.alice, "ana@mastodon.example")
        .await;
    assert_eq!(
        refused.unwrap_err().status,
        http::StatusCode::UNPROCESSABLE_ENTITY
    );
    // Carol here names alice, so alice may move to her.
    let carol = account(&w.app, "carol").await;
    let carol = w
        .app
        .moves()
        .set_aliases(&carol, &["alice".to_string()])
        .await
        .unwrap();
    assert_eq!(
        carol.also_known_as,
        vec![paths::actor(&w.app.base_url(), "alice")]
    );
    let moved_to = w.app.moves().move_to(&w.alice, "@carol").await.unwrap();
    assert_eq!(moved_to.id, carol.id);
    assert!(w.follows(bob.id, carol.id).await, "bob follows carol now");
    assert!(!w.follows(bob.id, w.alice.id).await);
    assert!(
        w.follows(ana.id, w.alice.id).await,
        "ana's server moves ana's follow itself"
    );
    w.run_jobs().await;
    let moves = w.fedi.received("Move");
    assert_eq!(moves.len(), 1, "{moves:?}");
    let alice = paths::actor(&w.app.base_url(), "alice");
    assert_eq!(moves[0]["actor"], alice.as_str());
    assert_eq!(moves[0]["object"], alice.as_str());
    assert_eq!(
        moves[0]["target"],
        paths::actor(&w.app.base_url(), "carol").as_str()
    );
    // Her actor names where she went, and carol's names her.
    let moved = w
        .app
        .store
        .account_by_id(w.alice.id)
        .await
        .unwrap()
        .unwrap();
    let doc = w.app.local_actor_document(&moved).await.unwrap();
    assert_eq!(
        doc["movedTo"],
        paths::actor(&w.app.base_url(), "carol").as_str()
    );
    let doc = w.app.local_actor_document(&carol).await.unwrap();
    assert_eq!(doc["alsoKnownAs"][0], alice.as_str());
}

#[tokio::test]
async fn a_gotosocial_accept_of_an_interaction_is_accepted_and_ignored_for_now() {
    let mut w = World::new().await;
    let dana = w
        .alice_follows_actor_of("gotosocial/accept-reply.json")
        .await;
    accepted_and_ignored(
        &w,
        &[
            "gotosocial/accept-reply.json",
            "gotosocial/accept-like.json",
        ],
    )
    .await;
    let alice = w.alice.id;
    assert!(
        w.requested(alice, dana.id).await,
        "alice's follow still waits"
    );
}

#[tokio::test]
async fn a_mastodon_question_is_stored_with_its_poll_and_takes_new_totals() {
    let w = World::new().await;
    let create = w.receive("mastodon/create-question.json").await;
    let status = w.status(str_of(&create["object"], "id")).await.unwrap();
    assert!(status.content.contains("Sourdough or rye?"));
    let poll = crate::test_support::poll_of(&w.app, &status).await;
    let ends = chrono::DateTime::parse_from_rfc3339("2099-05-03T12:06:40Z").unwrap();
    assert_eq!(
        (
            poll.options.clone(),
            poll.votes.clone(),
            poll.voters_count,
            poll.multiple,
            poll.hide_totals,
            poll.expires_at,
        ),
        (
            vec!["Sourdough".to_string(), "Rye".to_string()],
            vec![0, 0],
            0,
            false,
            false,
            Some(ends.to_utc()),
        )
    );
    assert_eq!(
        poll.account_id,
        w.actor_of("mastodon/create-question.json").await.id
    );
    // Its end is told of to those who vote in it here: a close_poll job at its end (read by
    // claiming what is due a day after it).
    let after = ends.to_utc() + Duration::days(1);
    let due = w.app.store.claim_jobs("peek", after, after, 100).await;
    let close = due
        .unwrap()
        .into_iter()
        .find(|j| j.kind == crate::services::notifications::CLOSE_POLL)
        .expect("a close_poll job");
    assert_eq!(close.run_at, ends.to_utc());
    assert!(close.payload.contains(&poll.id.to_string()), "{close:?}");

    // Mastodon's Update with new totals (no `updated`: not an edit) refreshes the counts.
    w.receive("mastodon/update-question.json").await;
    let now = crate::test_support::poll_of(&w.app, &status).await;
    assert_eq!(now.id, poll.id, "the same poll");
    assert_eq!((now.votes, now.voters_count), (vec![3, 1], 4));
    let history = w.app.store.status_edits(status.id).await.unwrap();
    assert!(history.is_empty(), "new totals are no edit: {history:?}");
}

#[tokio::test]
async fn a_vote_from_mastodon_or_misskey_counts_in_alices_poll() {
    for name in ["mastodon/vote.json", "misskey/vote.json"] {
        let poll = serde_json::json!({"options": ["Tea", "Coffee"], "expires_in": 600});
        let w = World::with_poll(Some(poll)).await;
        let vote = w.receive(name).await;
        let poll = crate::test_support::poll_of(&w.app, &w.post).await;
        assert_eq!((poll.votes, poll.voters_count), (vec![1, 0], 1), "{name}");
        let voter = w.actor_of(name).await;
        let voters = w.app.store.poll_voters(poll.id).await.unwrap();
        assert_eq!(voters, vec![voter.id], "{name}");
        // Never a status, nor a reply, nor anything alice is told of.
        let vote_note = str_of(&vote["object"], "id");
        assert!(w.status(vote_note).await.is_none(), "{name}");
        assert_eq!(w.alice_post().await.replies_count, 0, "{name}");
        assert!(w.notifications().await.is_empty(), "{name}");
        // The new totals go to the voter.
        w.run_jobs().await;
        let updates = w.fedi.received("Update");
        assert_eq!(updates.len(), 1, "{name}: {updates:?}");
        let question = &updates[0]["object"];
        assert_eq!(question["type"], "Question", "{name}");
        assert_eq!(question["oneOf"][0]["name"], "Tea", "{name}");
        assert_eq!(question["oneOf"][0]["replies"]["totalItems"], 1, "{name}");
        assert_eq!(question["votersCount"], 1, "{name}");
    }
}
