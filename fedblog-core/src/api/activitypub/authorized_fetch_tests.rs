//! Authorized fetch ("secure mode") between two apps in one process: unsigned ActivityPub GETs
//! refused (the actor reduced to its key), signed ones served, signers the owner blocks (or
//! whose server it blocks) refused, the instance actor, WebFinger, host-meta, NodeInfo and the
//! HTML pages public, nothing changed with the setting off, and two servers both in secure
//! mode still federating.

use std::sync::Arc;

use chrono::{Duration, Utc};
use serde_json::Value;

use crate::api::Endpoint;
use crate::api::activitypub::{
    actor::ActorDocument, featured::FeaturedCollection, featured_tags::FeaturedTagsCollection,
    followers::FollowersCollection, following::FollowingCollection, instance_actor::InstanceActor,
    instance_inbox::InstanceInbox, instance_outbox::InstanceOutbox, note::NoteDocument,
    outbox::OutboxCollection, profile_page::ProfilePage, status_page::StatusPage,
};
use crate::api::in_process::InProcessNetwork;
use crate::api::instance::nodeinfo::Nodeinfo;
use crate::api::well_known::{host_meta::HostMeta, webfinger::GetWebfinger};
use crate::app::App;
use crate::federation::keys::PrivateKey;
use crate::federation::signatures::sign_request;
use crate::federation::vocab::ACTIVITY_JSON;
use crate::federation::{OutboundRequest, Transport, paths};
use crate::pagination::Page;
use crate::services::relationships::FollowOptions;
use crate::store::{AccountRecord, INSTANCE_ACTOR};
use crate::test_support::{account, app, drain, post};

/// Apps on `a.test` and `b.test` that reach each other, with authorized fetch as given, and the
/// network's transport (to send requests of the test's own).
fn pair(a_secure: bool, b_secure: bool) -> (Arc<App>, Arc<App>, Arc<dyn Transport>) {
    let net = InProcessNetwork::new();
    let mut a = app("a.test").with_transport(net.transport());
    a.config.authorized_fetch = a_secure;
    let mut b = app("b.test").with_transport(net.transport());
    b.config.authorized_fetch = b_secure;
    let (a, b) = (Arc::new(a), Arc::new(b));
    net.join(&a);
    net.join(&b);
    (a, b, net.transport())
}

/// `https://domain` + an endpoint's path with its parameters filled in.
fn url(app: &App, path: &str, params: &[(&str, &str)]) -> String {
    let filled: Vec<String> = path
        .split('/')
        .map(|segment| match segment.split_once(':') {
            Some((prefix, name)) => {
                let value = params
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| *v)
                    .expect("a value for every parameter");
                format!("{prefix}{value}")
            }
            None => segment.to_string(),
        })
        .collect();
    format!("{}{}", app.config.base_url(), filled.join("/"))
}

/// Who signs a request of the test: `(app, owner)` signs with the key of `owner` (a local
/// account of `app`, or [`INSTANCE_ACTOR`]).
type Signer<'a> = Option<(&'a App, crate::Id)>;

/// A GET of `url` accepting `accept`, signed by `signer`: its status and body (JSON, or the
/// text as a string).
async fn get(
    net: &Arc<dyn Transport>,
    url: &str,
    accept: &str,
    signer: Signer<'_>,
) -> (u16, Value) {
    let mut headers = match signer {
        Some((app, owner)) => signed(app, owner, url).await,
        None => vec![],
    };
    headers.push(("Accept".into(), accept.into()));
    send(net, url, headers).await
}

/// The headers signing a GET of `url` with the key of `owner` (a local account of `app`, or
/// [`INSTANCE_ACTOR`]), dated now.
async fn signed(app: &App, owner: crate::Id, url: &str) -> Vec<(String, String)> {
    signed_at(app, owner, url, Utc::now()).await
}

/// [`signed`], dated `when`.
async fn signed_at(
    app: &App,
    owner: crate::Id,
    url: &str,
    when: chrono::DateTime<Utc>,
) -> Vec<(String, String)> {
    let key = app.federation().local_key(owner).await.expect("a key");
    let private = PrivateKey::from_pem(&key.private_key_pem).expect("a private key");
    let base = app.config.base_url();
    let actor = if owner == INSTANCE_ACTOR {
        paths::instance_actor(&base)
    } else {
        let account = app
            .store
            .account_by_id(owner)
            .await
            .unwrap()
            .expect("the signer");
        paths::actor(&base, &account.username)
    };
    sign_request("GET", url, None, &paths::key_id(&actor), &private, when).expect("signed")
}

/// A GET of `url` with `headers`: its status and body (JSON, or the text as a string).
async fn send(net: &Arc<dyn Transport>, url: &str, headers: Vec<(String, String)>) -> (u16, Value) {
    let answer = net
        .send(OutboundRequest {
            method: http::Method::GET,
            url: url.to_string(),
            headers,
            body: None,
        })
        .await
        .expect("an answer");
    let text = String::from_utf8_lossy(&answer.body).to_string();
    (
        answer.status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// alice's collections (outbox, followers, following, featured, featured tags) on `a`.
fn collections(a: &App) -> Vec<String> {
    [
        OutboxCollection::PATH,
        FollowersCollection::PATH,
        FollowingCollection::PATH,
        FeaturedCollection::PATH,
        FeaturedTagsCollection::PATH,
    ]
    .into_iter()
    .map(|p| url(a, p, &[("username", "alice")]))
    .collect()
}

/// Whether `doc` is the full actor (with its collections and profile), not the minimal one.
fn is_full_actor(doc: &Value) -> bool {
    doc.get("followers").is_some() && doc.get("published").is_some()
}

/// The minimal actor: what verifying signatures and delivering need, nothing of the profile.
fn assert_minimal_actor(doc: &Value, a: &App) {
    let id = paths::actor(&a.config.base_url(), "alice");
    assert_eq!(doc["id"], id.as_str(), "{doc}");
    assert_eq!(doc["type"], "Person");
    assert_eq!(doc["preferredUsername"], "alice");
    assert_eq!(doc["inbox"], paths::inbox(&id).as_str());
    assert_eq!(doc["outbox"], paths::outbox(&id).as_str());
    assert_eq!(doc["publicKey"]["id"], paths::key_id(&id).as_str());
    assert!(
        doc["publicKey"]["publicKeyPem"]
            .as_str()
            .is_some_and(|k| k.contains("PUBLIC KEY"))
    );
    assert!(doc["endpoints"]["sharedInbox"].is_string(), "{doc}");
    let mut members: Vec<&str> = doc
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    members.sort_unstable();
    assert_eq!(
        members,
        [
            "@context",
            "endpoints",
            "id",
            "inbox",
            "outbox",
            "preferredUsername",
            "publicKey",
            "type"
        ]
    );
}

#[tokio::test]
async fn unsigned_fetches_are_refused_and_signed_ones_served() {
    let (a, b, net) = pair(true, false);
    let alice = account(&a, "alice").await;
    let bob = account(&b, "bob").await;
    let hello = post(&a, &alice, "Hello, signed world", None).await;
    let id = hello.id.to_string();
    let note = url(
        &a,
        NoteDocument::PATH,
        &[("username", "alice"), ("id", &id)],
    );
    let page = url(&a, StatusPage::PATH, &[("username", "alice"), ("id", &id)]);
    let actor = url(&a, ActorDocument::PATH, &[("username", "alice")]);
    let profile = url(&a, ProfilePage::PATH, &[("username", "alice")]);

    // Unsigned: the note and every collection are a 401, in Mastodon's words.
    for u in [note.clone(), page.clone()]
        .into_iter()
        .chain(collections(&a))
    {
        let (status, body) = get(&net, &u, ACTIVITY_JSON, None).await;
        assert_eq!(status, 401, "{u}: {body}");
        assert_eq!(body["error"], "Request not signed", "{u}");
    }
    // The actor is reduced to its key, at both of its URLs.
    for u in [&actor, &profile] {
        let (status, doc) = get(&net, u, ACTIVITY_JSON, None).await;
        assert_eq!(status, 200, "{u}");
        assert_minimal_actor(&doc, &a);
    }

    // Signed by an account of b (its key fetched from b): served in full.
    let by_bob = Some((&*b, bob.id));
    let (status, doc) = get(&net, &note, ACTIVITY_JSON, by_bob).await;
    assert_eq!(status, 200, "{doc}");
    assert!(
        doc["content"]
            .as_str()
            .is_some_and(|c| c.contains("Hello, signed world"))
    );
    let (status, doc) = get(&net, &actor, ACTIVITY_JSON, by_bob).await;
    assert_eq!(status, 200);
    assert!(is_full_actor(&doc), "{doc}");
    for u in collections(&a) {
        let (status, doc) = get(&net, &u, ACTIVITY_JSON, by_bob).await;
        assert_eq!(status, 200, "{u}: {doc}");
        assert!(
            doc["type"]
                .as_str()
                .is_some_and(|t| t.contains("Collection"))
        );
    }
    // Signed by b's instance actor, as b's own fetches are: b finds alice by her handle and
    // reads her note and her outbox.
    let alice_at_b = b
        .federation()
        .resolve_handle("alice", "a.test")
        .await
        .expect("alice found through secure mode");
    assert_eq!(alice_at_b.acct(), "alice@a.test");
    let fetched = b.federation().fetch(&note).await.expect("the note");
    assert_eq!(fetched["id"], note.as_str());
    let outbox = url(&a, OutboxCollection::PATH, &[("username", "alice")]);
    b.federation().fetch(&outbox).await.expect("the outbox");
}

#[tokio::test]
async fn the_instance_actor_discovery_and_pages_stay_public() {
    let (a, _b, net) = pair(true, false);
    let alice = account(&a, "alice").await;
    let hello = post(&a, &alice, "Hello, browsers", None).await;
    let id = hello.id.to_string();

    let (status, doc) = get(
        &net,
        &url(&a, InstanceActor::PATH, &[]),
        ACTIVITY_JSON,
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(doc["type"], "Application");
    assert!(doc["publicKey"]["publicKeyPem"].is_string());
    // The outbox its document names answers, empty, to anyone.
    let outbox = doc["outbox"].as_str().expect("an outbox").to_string();
    assert_eq!(outbox, url(&a, InstanceOutbox::PATH, &[]));
    let (status, collection) = get(&net, &outbox, ACTIVITY_JSON, None).await;
    assert_eq!(status, 200);
    assert_eq!(collection["type"], "OrderedCollection");
    assert_eq!(collection["totalItems"], 0);
    assert_eq!(doc["inbox"], url(&a, InstanceInbox::PATH, &[]));

    let finger = format!(
        "{}?resource=acct:alice@a.test",
        url(&a, GetWebfinger::PATH, &[])
    );
    let (status, doc) = get(&net, &finger, "application/jrd+json", None).await;
    assert_eq!(status, 200, "{doc}");
    assert_eq!(doc["subject"], "acct:alice@a.test");
    let (status, _) = get(&net, &url(&a, HostMeta::PATH, &[]), "*/*", None).await;
    assert_eq!(status, 200);
    let (status, doc) = get(&net, &url(&a, Nodeinfo::PATH, &[]), "*/*", None).await;
    assert_eq!(status, 200);
    assert!(doc["software"].is_object());

    // The HTML pages, for browsers, are not affected.
    for u in [
        url(&a, ProfilePage::PATH, &[("username", "alice")]),
        url(&a, ActorDocument::PATH, &[("username", "alice")]),
        url(&a, StatusPage::PATH, &[("username", "alice"), ("id", &id)]),
        url(
            &a,
            NoteDocument::PATH,
            &[("username", "alice"), ("id", &id)],
        ),
    ] {
        let (status, page) = get(&net, &u, "text/html", None).await;
        assert_eq!(status, 200, "{u}");
        assert!(page.as_str().is_some_and(|p| p.contains("<html")), "{u}");
    }
}

#[tokio::test]
async fn bad_signatures_are_a_401_never_a_500() {
    let (a, b, net) = pair(true, false);
    let alice = account(&a, "alice").await;
    let bob = account(&b, "bob").await;
    let hello = post(&a, &alice, "Hello", None).await;
    let note = url(
        &a,
        NoteDocument::PATH,
        &[("username", "alice"), ("id", &hello.id.to_string())],
    );
    let accept = || ("Accept".to_string(), ACTIVITY_JSON.to_string());
    let refused = |(status, body): (u16, Value)| {
        assert_eq!(status, 401, "{body}");
        assert!(body["error"].is_string(), "{body}");
    };

    // Garbage in the header.
    refused(
        send(
            &net,
            &note,
            vec![accept(), ("Signature".into(), "nonsense".into())],
        )
        .await,
    );
    refused(
        send(
            &net,
            &note,
            vec![accept(), ("Signature-Input".into(), "sig1=()".into())],
        )
        .await,
    );
    // bob's real signature, for another URL (the target does not match).
    let other = url(&a, OutboxCollection::PATH, &[("username", "alice")]);
    let mut headers = signed(&b, bob.id, &other).await;
    headers.push(accept());
    refused(send(&net, &note, headers).await);
    // A stale date.
    let mut headers = signed_at(&b, bob.id, &note, Utc::now() - Duration::hours(3)).await;
    headers.push(accept());
    refused(send(&net, &note, headers).await);
    // A key nobody publishes.
    let mut headers: Vec<(String, String)> = signed(&b, bob.id, &note)
        .await
        .into_iter()
        .map(|(k, v)| {
            let v = if k.eq_ignore_ascii_case("signature") {
                v.replace("/users/bob#", "/users/nobody#")
            } else {
                v
            };
            (k, v)
        })
        .collect();
    headers.push(accept());
    refused(send(&net, &note, headers).await);
    // The same garbage on the actor gets the minimal actor, not an error.
    let actor = url(&a, ActorDocument::PATH, &[("username", "alice")]);
    let (status, doc) = send(
        &net,
        &actor,
        vec![accept(), ("Signature".into(), "nonsense".into())],
    )
    .await;
    assert_eq!(status, 200);
    assert_minimal_actor(&doc, &a);
}

#[tokio::test]
async fn signers_the_owner_blocks_or_whose_server_it_blocks_are_refused() {
    let (a, b, net) = pair(true, false);
    let alice = account(&a, "alice").await;
    let bob = account(&b, "bob").await;
    let carol = account(&b, "carol").await;
    let hello = post(&a, &alice, "Hello", None).await;
    let note = url(
        &a,
        NoteDocument::PATH,
        &[("username", "alice"), ("id", &hello.id.to_string())],
    );
    let actor = url(&a, ActorDocument::PATH, &[("username", "alice")]);
    let bob_at_a = a
        .federation()
        .resolve_handle("bob", "b.test")
        .await
        .expect("bob known at a");

    // alice blocks bob: his signed fetches of her note and collections are a 404 (as for a
    // status he may not see), and her actor is the minimal one.
    a.blocks().block(&alice, bob_at_a.id).await.expect("block");
    let by_bob = Some((&*b, bob.id));
    let (status, body) = get(&net, &note, ACTIVITY_JSON, by_bob).await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["error"], "Record not found");
    for u in collections(&a) {
        assert_eq!(get(&net, &u, ACTIVITY_JSON, by_bob).await.0, 404, "{u}");
    }
    let (status, doc) = get(&net, &actor, ACTIVITY_JSON, by_bob).await;
    assert_eq!(status, 200);
    assert_minimal_actor(&doc, &a);
    // carol, on the same server, is not blocked.
    let by_carol = Some((&*b, carol.id));
    assert_eq!(get(&net, &note, ACTIVITY_JSON, by_carol).await.0, 200);

    // alice blocks b.test: every signer there, its instance actor included, is refused.
    a.blocks()
        .block_domain(&alice, "b.test")
        .await
        .expect("domain block");
    assert_eq!(get(&net, &note, ACTIVITY_JSON, by_carol).await.0, 404);
    let by_b = Some((&*b, INSTANCE_ACTOR));
    assert_eq!(get(&net, &note, ACTIVITY_JSON, by_b).await.0, 404);
    let (_, doc) = get(&net, &actor, ACTIVITY_JSON, by_b).await;
    assert_minimal_actor(&doc, &a);
    assert!(b.federation().fetch(&note).await.is_err());
    // Another local account of a, who blocks nobody, is still served to b.
    let dave = account(&a, "dave").await;
    let hi = post(&a, &dave, "Hi", None).await;
    let dave_note = url(
        &a,
        NoteDocument::PATH,
        &[("username", "dave"), ("id", &hi.id.to_string())],
    );
    assert_eq!(get(&net, &dave_note, ACTIVITY_JSON, by_b).await.0, 200);
}

#[tokio::test]
async fn with_the_setting_off_nothing_changes() {
    let (a, b, net) = pair(false, false);
    let alice = account(&a, "alice").await;
    let bob = account(&b, "bob").await;
    let hello = post(&a, &alice, "Hello, anyone", None).await;
    let note = url(
        &a,
        NoteDocument::PATH,
        &[("username", "alice"), ("id", &hello.id.to_string())],
    );
    let (status, doc) = get(&net, &note, ACTIVITY_JSON, None).await;
    assert_eq!(status, 200);
    assert_eq!(doc["id"], note.as_str());
    for u in collections(&a) {
        assert_eq!(get(&net, &u, ACTIVITY_JSON, None).await.0, 200, "{u}");
    }
    let actor = url(&a, ActorDocument::PATH, &[("username", "alice")]);
    let (status, doc) = get(&net, &actor, ACTIVITY_JSON, None).await;
    assert_eq!(status, 200);
    assert!(is_full_actor(&doc), "{doc}");
    // A bad signature on a public document is ignored, as before.
    let garbage = vec![
        ("Accept".to_string(), ACTIVITY_JSON.to_string()),
        ("Signature".to_string(), "nonsense".to_string()),
    ];
    assert_eq!(send(&net, &note, garbage).await.0, 200);
    let bob_at_a = a
        .federation()
        .resolve_handle("bob", "b.test")
        .await
        .unwrap();
    a.blocks().block(&alice, bob_at_a.id).await.unwrap();
    assert_eq!(
        get(&net, &note, ACTIVITY_JSON, Some((&*b, bob.id))).await.0,
        200,
        "blocks are not checked on public documents with the setting off"
    );
}

/// Whether `me`'s home feed on `app` has a status whose text contains `text`.
async fn home_has(app: &App, me: &AccountRecord, text: &str) -> bool {
    app.timelines()
        .home_timeline(me, Page::first(40))
        .await
        .expect("home")
        .statuses
        .iter()
        .any(|s| s.content.contains(text))
}

#[tokio::test]
async fn two_servers_in_secure_mode_still_federate() {
    let (a, b, _net) = pair(true, true);
    let alice = account(&a, "alice").await;
    let bob = account(&b, "bob").await;

    // alice follows bob@b.test by handle; b accepts.
    let bob_at_a = a
        .federation()
        .resolve_handle("bob", "b.test")
        .await
        .expect("bob found");
    a.relationships()
        .follow(&alice, bob_at_a.id, FollowOptions::default())
        .await
        .expect("follow");
    drain(&[&a, &b]).await;
    assert!(
        a.store.follows(alice.id, bob_at_a.id).await.unwrap(),
        "accepted"
    );

    // bob posts: it reaches alice's home feed.
    post(&b, &bob, "Hello from secure b", None).await;
    drain(&[&a, &b]).await;
    assert!(home_has(&a, &alice, "Hello from secure b").await);

    // And the other way: bob follows alice back, alice posts.
    let alice_at_b = b
        .federation()
        .resolve_handle("alice", "a.test")
        .await
        .expect("alice found");
    b.relationships()
        .follow(&bob, alice_at_b.id, FollowOptions::default())
        .await
        .expect("follow back");
    drain(&[&a, &b]).await;
    assert!(b.store.follows(bob.id, alice_at_b.id).await.unwrap());
    post(&a, &alice, "Hello from secure a", None).await;
    drain(&[&a, &b]).await;
    assert!(home_has(&b, &bob, "Hello from secure a").await);
}
