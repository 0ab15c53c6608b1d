//! Two apps federating in one process (through [`InProcessNetwork`], every request signed and
//! checked as over HTTP): follows by handle, posts, favourites, replies, boosts, edits,
//! deletions, unfollows, and the refusals of what is unsigned or not the signer's to change.

use std::sync::Arc;

use chrono::Duration;

use crate::api::in_process::InProcessNetwork;
use crate::app::App;
use crate::pagination::Page;
use crate::services::relationships::FollowOptions;
use crate::services::statuses::NewStatus;
use crate::store::{AccountRecord, NotificationQuery, NotificationType, StatusRecord};
use crate::test_support::{account, app, drain, post, post_new, private_post};

/// Apps on `a.test` and `b.test` that reach each other.
fn pair() -> (Arc<App>, Arc<App>) {
    let net = InProcessNetwork::new();
    let a = Arc::new(app("a.test").with_transport(net.transport()));
    let b = Arc::new(app("b.test").with_transport(net.transport()));
    net.join(&a);
    net.join(&b);
    (a, b)
}

/// `name@host` as `app` knows it (fetched by WebFinger if need be).
async fn remote(app: &App, name: &str, host: &str) -> AccountRecord {
    app.federation()
        .resolve_handle(name, host)
        .await
        .expect("resolved")
}

async fn notifications(
    app: &App,
    me: &AccountRecord,
) -> Vec<(NotificationType, Option<crate::Id>)> {
    app.store
        .notifications_page(me.id, &NotificationQuery::default(), Page::first(40))
        .await
        .expect("notifications")
        .into_iter()
        .map(|n| (n.kind, n.status_id))
        .collect()
}

async fn home(app: &App, me: &AccountRecord) -> Vec<StatusRecord> {
    app.timelines()
        .home_timeline(me, Page::first(40))
        .await
        .expect("home")
        .statuses
}

/// Two servers, `alice` on `a.test` following `bob` on `b.test` (accepted): the apps, alice,
/// bob, and bob as `a.test` knows him.
async fn alice_follows_bob() -> (
    Arc<App>,
    Arc<App>,
    AccountRecord,
    AccountRecord,
    AccountRecord,
) {
    let (a, b) = pair();
    let alice = account(&a, "alice").await;
    let bob = account(&b, "bob").await;
    let bob_at_a = remote(&a, "bob", "b.test").await;
    a.relationships()
        .follow(&alice, bob_at_a.id, FollowOptions::default())
        .await
        .unwrap();
    drain(&[&a, &b]).await;
    (a, b, alice, bob, bob_at_a)
}

#[tokio::test]
async fn a_follow_post_favourite_reply_edit_and_deletion_cross_servers() {
    let (a, b) = pair();
    let alice = account(&a, "alice").await;
    let bob = account(&b, "bob").await;

    // alice follows bob@b.test by handle: pending until b accepts.
    let bob_at_a = remote(&a, "bob", "b.test").await;
    assert_eq!(bob_at_a.acct(), "bob@b.test");
    a.relationships()
        .follow(&alice, bob_at_a.id, FollowOptions::default())
        .await
        .expect("follow");
    assert!(
        a.store
            .follow_requested(alice.id, bob_at_a.id)
            .await
            .unwrap()
    );
    drain(&[&a, &b]).await;
    assert!(
        a.store.follows(alice.id, bob_at_a.id).await.unwrap(),
        "accepted"
    );
    let alice_at_b = b
        .store
        .account_by_username("alice", Some("a.test"))
        .await
        .unwrap()
        .expect("alice known at b");
    assert!(b.store.follows(alice_at_b.id, bob.id).await.unwrap());
    assert!(
        notifications(&b, &bob)
            .await
            .contains(&(NotificationType::Follow, None))
    );

    // bob posts: it lands in alice's home feed.
    let hello = post(&b, &bob, "Hello from b #federation", None).await;
    drain(&[&a, &b]).await;
    let feed = home(&a, &alice).await;
    let copy = feed
        .iter()
        .find(|s| s.account_id == bob_at_a.id)
        .expect("bob's post in alice's home feed")
        .clone();
    assert!(copy.content.contains("Hello from b"));
    assert_eq!(copy.tags, vec!["federation".to_string()]);
    assert!(!copy.local);

    // alice favourites and replies: bob is told of both.
    a.interactions()
        .favourite(&alice, copy.id)
        .await
        .expect("favourite");
    let reply = post_new(
        &a,
        &alice,
        NewStatus {
            text: "@bob@b.test nice one".into(),
            in_reply_to_id: Some(copy.id),
            ..Default::default()
        },
    )
    .await;
    drain(&[&a, &b]).await;
    let told = notifications(&b, &bob).await;
    assert!(
        told.contains(&(NotificationType::Favourite, Some(hello.id))),
        "{told:?}"
    );
    let reply_at_b = b
        .store
        .status_by_uri(&format!("https://a.test/users/alice/statuses/{}", reply.id))
        .await
        .unwrap()
        .expect("the reply reached b");
    assert_eq!(reply_at_b.in_reply_to_id, Some(hello.id));
    assert!(
        told.contains(&(NotificationType::Mention, Some(reply_at_b.id))),
        "{told:?}"
    );
    assert_eq!(
        b.store
            .status_by_id(hello.id)
            .await
            .unwrap()
            .unwrap()
            .favourites_count,
        1
    );

    // bob edits: alice's copy changes and keeps its history.
    b.edits()
        .edit_status(
            &bob,
            hello.id,
            crate::services::edits::StatusChanges {
                text: "Hello again from b".into(),
                ..Default::default()
            },
        )
        .await
        .expect("edit");
    drain(&[&a, &b]).await;
    let edited = a.store.status_by_id(copy.id).await.unwrap().unwrap();
    assert!(edited.content.contains("Hello again"), "{}", edited.content);
    assert_eq!(a.store.status_edits(copy.id).await.unwrap().len(), 2);

    // bob deletes it: gone at a too.
    let gone = b.store.status_by_id(hello.id).await.unwrap().unwrap();
    b.statuses().delete_status(&gone).await.expect("delete");
    drain(&[&a, &b]).await;
    assert!(a.store.status_by_id(copy.id).await.unwrap().is_none());

    // alice unfollows: bob stops delivering to a.
    a.relationships()
        .unfollow(&alice, bob_at_a.id)
        .await
        .expect("unfollow");
    drain(&[&a, &b]).await;
    assert!(!b.store.follows(alice_at_b.id, bob.id).await.unwrap());
    post(&b, &bob, "after the unfollow", None).await;
    let queued = b
        .store
        .claim_jobs("peek", b.now(), b.now(), 10)
        .await
        .unwrap();
    assert!(queued.is_empty(), "nothing to deliver: {queued:?}");
}

#[tokio::test]
async fn a_locked_account_answers_a_remote_follow_when_it_decides() {
    let (a, b) = pair();
    let alice = account(&a, "alice").await;
    let mut carol = account(&b, "carol").await;
    carol.locked = true;
    b.store.update_account(&carol).await.unwrap();
    let carol_at_a = remote(&a, "carol", "b.test").await;
    assert!(carol_at_a.locked);
    a.relationships()
        .follow(&alice, carol_at_a.id, FollowOptions::default())
        .await
        .unwrap();
    drain(&[&a, &b]).await;
    assert!(!a.store.follows(alice.id, carol_at_a.id).await.unwrap());
    let alice_at_b = b
        .store
        .account_by_username("alice", Some("a.test"))
        .await
        .unwrap()
        .unwrap();
    assert!(
        b.store
            .follow_requested(alice_at_b.id, carol.id)
            .await
            .unwrap()
    );
    b.relationships()
        .authorize_follow_request(&carol, alice_at_b.id)
        .await
        .unwrap();
    drain(&[&a, &b]).await;
    assert!(a.store.follows(alice.id, carol_at_a.id).await.unwrap());
}

#[tokio::test]
async fn a_boost_reaches_the_author_and_a_block_stops_the_follow() {
    let (a, b, alice, bob, bob_at_a) = alice_follows_bob().await;
    let hello = post(&b, &bob, "boost me", None).await;
    drain(&[&a, &b]).await;
    let copy = a
        .store
        .status_by_uri(&format!("https://b.test/users/bob/statuses/{}", hello.id))
        .await
        .unwrap()
        .unwrap();
    a.statuses()
        .reblog(&alice, None, copy.id, None)
        .await
        .unwrap();
    drain(&[&a, &b]).await;
    assert!(
        notifications(&b, &bob)
            .await
            .contains(&(NotificationType::Reblog, Some(hello.id)))
    );
    assert_eq!(
        b.store
            .status_by_id(hello.id)
            .await
            .unwrap()
            .unwrap()
            .reblogs_count,
        1
    );
    // bob blocks alice: her follow ends on both sides.
    let alice_at_b = b
        .store
        .account_by_username("alice", Some("a.test"))
        .await
        .unwrap()
        .unwrap();
    b.blocks().block(&bob, alice_at_b.id).await.unwrap();
    drain(&[&a, &b]).await;
    assert!(!a.store.follows(alice.id, bob_at_a.id).await.unwrap());
    assert!(a.store.blocks(bob_at_a.id, alice.id).await.unwrap());
}

#[tokio::test]
async fn a_remote_posts_attachments_are_kept_by_url() {
    let (a, b, _alice, bob, _bob_at_a) = alice_follows_bob().await;
    // bob's server sends a post with a picture (signed by bob, as any delivery).
    let note = serde_json::json!({
        "@context": "https://www.w3.org/ns/activitystreams",
        "id": "https://b.test/users/bob/statuses/1#create",
        "type": "Create",
        "actor": "https://b.test/users/bob",
        "to": ["https://www.w3.org/ns/activitystreams#Public"],
        "object": {
            "id": "https://b.test/users/bob/statuses/1",
            "type": "Note",
            "attributedTo": "https://b.test/users/bob",
            "content": "<p>a picture</p>",
            "to": ["https://www.w3.org/ns/activitystreams#Public"],
            "attachment": [{
                "type": "Document", "mediaType": "image/png",
                "url": "https://b.test/files/cat.png", "name": "a cat",
                "blurhash": "LEHV6nWB2yk8pyo0adR*.7kCMdnj", "width": 640, "height": 480,
                "focalPoint": [0.5, -0.25],
            }],
        },
    });
    deliver_to_a(&b, &bob, &note).await;
    let copy = a
        .store
        .status_by_uri("https://b.test/users/bob/statuses/1")
        .await
        .unwrap()
        .expect("stored");
    assert_eq!(copy.media_ids.len(), 1);
    let media = a
        .store
        .media_by_id(copy.media_ids[0])
        .await
        .unwrap()
        .unwrap();
    let shown = a.render_media(&media);
    assert_eq!(shown.kind, "image");
    assert_eq!(shown.url.as_deref(), Some("https://b.test/files/cat.png"));
    assert_eq!(
        shown.remote_url.as_deref(),
        Some("https://b.test/files/cat.png")
    );
    assert_eq!(shown.description.as_deref(), Some("a cat"));
    assert_eq!(shown.meta["original"]["width"], 640);
    assert_eq!(shown.meta["focus"]["y"], -0.25);
    // And it goes out again with the same fields when rendered as a note.
    let parts = a.note_parts(copy.id).await.unwrap().unwrap();
    let doc = a.render_ap_note(&parts).to_json(false);
    assert_eq!(doc["attachment"][0]["url"], "https://b.test/files/cat.png");
    assert_eq!(doc["attachment"][0]["mediaType"], "image/png");
    assert_eq!(
        doc["attachment"][0]["blurhash"],
        "LEHV6nWB2yk8pyo0adR*.7kCMdnj"
    );
}

#[tokio::test]
async fn a_followers_only_post_is_served_only_to_a_signed_follower() {
    let net = InProcessNetwork::new();
    let a = Arc::new(app("a.test").with_transport(net.transport()));
    let b = Arc::new(app("b.test").with_transport(net.transport()));
    net.join(&a);
    net.join(&b);
    let alice = account(&a, "alice").await;
    let mallory = account(&a, "mallory").await;
    let bob = account(&b, "bob").await;
    let bob_at_a = remote(&a, "bob", "b.test").await;
    a.relationships()
        .follow(&alice, bob_at_a.id, FollowOptions::default())
        .await
        .unwrap();
    drain(&[&a, &b]).await;
    let secret = private_post(&b, &bob, "followers only").await;
    let url = format!("https://b.test/users/bob/statuses/{}", secret.id);
    let fetch = |signer: Option<AccountRecord>| {
        let (a, net, url) = (a.clone(), net.clone(), url.clone());
        async move {
            let mut headers = vec![(
                "Accept".to_string(),
                crate::federation::vocab::ACTIVITY_JSON.to_string(),
            )];
            if let Some(signer) = signer {
                let key = a.federation().local_key(signer.id).await.unwrap();
                let private =
                    crate::federation::keys::PrivateKey::from_pem(&key.private_key_pem).unwrap();
                let key_id = format!("https://a.test/users/{}#main-key", signer.username);
                headers.extend(
                    crate::federation::signatures::sign_request(
                        "GET",
                        &url,
                        None,
                        &key_id,
                        &private,
                        a.now(),
                    )
                    .unwrap(),
                );
            }
            net.transport()
                .send(crate::federation::OutboundRequest {
                    method: http::Method::GET,
                    url,
                    headers,
                    body: None,
                })
                .await
                .unwrap()
                .status
        }
    };
    assert_eq!(fetch(None).await, 404, "never served unsigned");
    assert_eq!(
        fetch(Some(mallory)).await,
        404,
        "not to someone who does not follow"
    );
    assert_eq!(fetch(Some(alice)).await, 200, "to a follower, signed");
}

/// Runs work in place and counts it.
#[derive(Default)]
struct Counting(std::sync::atomic::AtomicUsize);

#[async_trait::async_trait]
impl crate::blocking::Blocking for Counting {
    async fn run(&self, work: crate::blocking::Work) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        work()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn callers_needing_a_key_at_once_make_one_between_them() {
    let counting = Arc::new(Counting::default());
    let a = Arc::new(app("a.test").with_blocking(counting.clone()));
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let a = a.clone();
            tokio::spawn(async move {
                a.federation()
                    .local_key(crate::store::INSTANCE_ACTOR)
                    .await
                    .expect("key")
            })
        })
        .collect();
    let mut keys = vec![];
    for t in tasks {
        keys.push(t.await.expect("task"));
    }
    assert!(keys.windows(2).all(|w| w[0] == w[1]), "one key for all");
    assert_eq!(
        counting.0.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "made once"
    );
}

/// A `Create` of bob's post `n` on b.test with one picture, as b.test would send it.
fn post_with_picture(n: u32) -> serde_json::Value {
    let public = "https://www.w3.org/ns/activitystreams#Public";
    serde_json::json!({
        "@context": "https://www.w3.org/ns/activitystreams",
        "id": format!("https://b.test/users/bob/statuses/{n}#create"),
        "type": "Create",
        "actor": "https://b.test/users/bob",
        "to": [public],
        "object": {
            "id": format!("https://b.test/users/bob/statuses/{n}"),
            "type": "Note",
            "attributedTo": "https://b.test/users/bob",
            "content": format!("<p>picture {n}</p>"),
            "to": [public],
            "attachment": [{
                "type": "Document", "mediaType": "image/png",
                "url": format!("https://b.test/files/{n}.png"), "name": "a cat",
            }],
        },
    })
}

/// Delivers `activity` from `signer` on b to a's shared inbox, signed as any delivery.
async fn deliver_to_a(b: &App, signer: &AccountRecord, activity: &serde_json::Value) {
    let sent = b
        .federation()
        .deliver(&crate::services::outbox::Delivery {
            inbox: "https://a.test/inbox".into(),
            signer: signer.id,
            body: activity.to_string(),
            collection_sync: None,
        })
        .await
        .expect("delivered");
    assert_eq!(sent, crate::services::federation::Delivered::Yes);
}

#[tokio::test]
async fn a_deleted_remote_posts_attachments_go_with_it() {
    let (a, b, _alice, bob, bob_at_a) = alice_follows_bob().await;
    deliver_to_a(&b, &bob, &post_with_picture(1)).await;
    deliver_to_a(&b, &bob, &post_with_picture(2)).await;
    let stored = |n: u32| {
        let a = a.clone();
        async move {
            a.store
                .status_by_uri(&format!("https://b.test/users/bob/statuses/{n}"))
                .await
                .unwrap()
        }
    };
    let (first, second) = (stored(1).await.unwrap(), stored(2).await.unwrap());
    let (gone, kept) = (first.media_ids[0], second.media_ids[0]);
    assert!(a.store.media_by_id(gone).await.unwrap().is_some());

    let delete = serde_json::json!({
        "@context": "https://www.w3.org/ns/activitystreams",
        "id": "https://b.test/users/bob/statuses/1#delete",
        "type": "Delete",
        "actor": "https://b.test/users/bob",
        "to": ["https://www.w3.org/ns/activitystreams#Public"],
        "object": { "id": "https://b.test/users/bob/statuses/1", "type": "Tombstone" },
    });
    deliver_to_a(&b, &bob, &delete).await;

    assert!(stored(1).await.is_none(), "the post is gone");
    assert!(
        a.store.media_by_id(gone).await.unwrap().is_none(),
        "its attachment is gone with it"
    );
    let left: Vec<_> = a
        .store
        .account_media(bob_at_a.id)
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(left, vec![kept], "the other post keeps its attachment");
    assert_eq!(
        a.store.media_by_id(kept).await.unwrap().unwrap().status_id,
        Some(second.id)
    );
}

#[tokio::test]
async fn seen_activity_ids_are_forgotten_after_thirty_days() {
    let a = app("a.test");
    let now = a.now();
    let max_age = crate::services::federation::SEEN_ACTIVITY_MAX_AGE;
    assert_eq!(max_age, Duration::days(30));
    let old = "https://b.test/activities/old";
    let recent = "https://b.test/activities/recent";
    let at = |age: Duration| now - age;
    assert!(
        a.store
            .note_activity(old, at(max_age + Duration::hours(1)))
            .await
            .unwrap()
    );
    assert!(
        a.store
            .note_activity(recent, at(max_age - Duration::hours(1)))
            .await
            .unwrap()
    );
    assert_eq!(a.federation().prune_seen_activities().await.unwrap(), 1);
    let federation = a.federation();
    assert!(
        !federation.first_time(recent).await.unwrap(),
        "a recent id is kept: its activity is not applied again"
    );
    assert!(
        federation.first_time(old).await.unwrap(),
        "an old id is forgotten"
    );
    assert_eq!(a.federation().prune_seen_activities().await.unwrap(), 0);
}

// Threads across servers (issue 24): replies both ways, missing ancestors fetched, replies
// collections served and read.

/// The ActivityPub id of `username`'s status `id` on `host`.
fn note_uri(host: &str, username: &str, id: crate::Id) -> String {
    crate::federation::paths::status(&format!("https://{host}"), username, id)
}

/// `app`'s copy of the status `uri` names.
async fn stored(app: &App, uri: &str) -> StatusRecord {
    app.remote()
        .status_by_uri(uri)
        .await
        .expect("lookup")
        .unwrap_or_else(|| panic!("{uri} is stored on {}", app.config.domain))
}

/// Whether `app` has a copy of the status `uri` names.
async fn has(app: &App, uri: &str) -> bool {
    app.store
        .status_by_uri(uri)
        .await
        .expect("lookup")
        .is_some()
}

/// The ids of the ancestors and descendants `viewer` sees around `id` on `app`.
async fn thread(
    app: &App,
    viewer: &AccountRecord,
    id: crate::Id,
) -> (Vec<crate::Id>, Vec<crate::Id>) {
    let t = app
        .interactions()
        .context(Some(viewer), id)
        .await
        .expect("context");
    let ids = |v: Vec<StatusRecord>| v.into_iter().map(|s| s.id).collect();
    (ids(t.ancestors), ids(t.descendants))
}

/// `author`'s reply on `app` to `parent`, with `visibility` (public when `None`).
async fn reply_to(
    app: &App,
    author: &AccountRecord,
    parent: crate::Id,
    text: &str,
    visibility: Option<&str>,
) -> StatusRecord {
    post_new(
        app,
        author,
        NewStatus {
            text: text.into(),
            in_reply_to_id: Some(parent),
            visibility: visibility.map(str::to_string),
            ..Default::default()
        },
    )
    .await
}

/// The note `app` serves for its status `id`.
async fn note_doc(app: &App, id: crate::Id) -> serde_json::Value {
    let parts = app.note_parts(id).await.expect("parts").expect("a note");
    app.render_ap_note(&parts).to_json(false)
}

/// Every item of the collection at `url`, as `app` reads it: its first page (embedded or not),
/// then each `next`.
async fn collection_items(app: &App, url: &str) -> Vec<String> {
    let federation = app.federation();
    let doc = federation.fetch(url).await.expect("collection");
    let mut page = match &doc["first"] {
        serde_json::Value::String(first) => federation.fetch(first).await.expect("first page"),
        first => first.clone(),
    };
    let mut items = vec![];
    for _ in 0..10 {
        items.extend(crate::federation::vocab::collection_page_items(&page));
        let Some(next) = page["next"].as_str() else {
            return items;
        };
        page = federation.fetch(next).await.expect("next page");
    }
    panic!("{url} has too many pages");
}

#[tokio::test]
async fn a_remote_reply_to_a_local_post_joins_its_thread() {
    let (a, b, alice, bob, _bob_at_a) = alice_follows_bob().await;
    let hi = post(&a, &alice, "@bob@b.test what do you think?", None).await;
    drain(&[&a, &b]).await;
    let hi_at_b = stored(&b, &note_uri("a.test", "alice", hi.id)).await;
    let answer = reply_to(&b, &bob, hi_at_b.id, "@alice@a.test I agree", None).await;
    drain(&[&a, &b]).await;

    let answer_at_a = stored(&a, &note_uri("b.test", "bob", answer.id)).await;
    assert_eq!(answer_at_a.in_reply_to_id, Some(hi.id));
    assert_eq!(
        answer_at_a.conversation_id,
        Some(hi.conversation_id.unwrap_or(hi.id))
    );
    assert_eq!(
        thread(&a, &alice, hi.id).await,
        (vec![], vec![answer_at_a.id])
    );
    assert_eq!(
        thread(&a, &alice, answer_at_a.id).await,
        (vec![hi.id], vec![])
    );
    assert!(
        notifications(&a, &alice)
            .await
            .contains(&(NotificationType::Mention, Some(answer_at_a.id)))
    );
    // alice's note names her thread, as Mastodon 4.5 names a conversation (`conversation`) and
    // its context collection (`context`); bob's reply, in a thread begun on a.test, names none
    // of b's.
    let thread_name = crate::federation::paths::conversation("a.test", hi.id);
    let context = crate::federation::paths::context(&a.base_url(), alice.id, hi.id);
    let doc = note_doc(&a, hi.id).await;
    assert_eq!(
        (&doc["conversation"], &doc["context"]),
        (&thread_name.into(), &context.into())
    );
    let answer_doc = note_doc(&b, answer.id).await;
    assert_eq!(answer_doc["inReplyTo"], note_uri("a.test", "alice", hi.id));
    assert!(answer_doc.get("conversation").is_none(), "{answer_doc}");

    // A reply whose parent cannot be had (b has no such post) still joins the thread its
    // `context` names, when that thread is ours.
    let public = "https://www.w3.org/ns/activitystreams#Public";
    let lost = serde_json::json!({
        "@context": "https://www.w3.org/ns/activitystreams",
        "id": "https://b.test/users/bob/statuses/2#create",
        "type": "Create",
        "actor": "https://b.test/users/bob",
        "to": [public],
        "object": {
            "id": "https://b.test/users/bob/statuses/2",
            "type": "Note",
            "attributedTo": "https://b.test/users/bob",
            "inReplyTo": "https://b.test/users/bob/statuses/1",
            "context": doc["context"],
            "content": "<p>as I said</p>",
            "to": [public],
        },
    });
    deliver_to_a(&b, &bob, &lost).await;
    drain(&[&a, &b]).await;
    let lost_at_a = stored(&a, "https://b.test/users/bob/statuses/2").await;
    assert_eq!(
        (lost_at_a.in_reply_to_id, lost_at_a.conversation_id),
        (None, answer_at_a.conversation_id)
    );
}

#[tokio::test]
async fn a_local_reply_to_a_remote_post_reaches_its_author_and_both_threads() {
    let (a, b, alice, bob, _bob_at_a) = alice_follows_bob().await;
    let hello = post(&b, &bob, "threads, anyone?", None).await;
    drain(&[&a, &b]).await;
    let copy = stored(&a, &note_uri("b.test", "bob", hello.id)).await;
    // No mention: a public reply goes to the author replied to all the same.
    let mine = reply_to(&a, &alice, copy.id, "yes, please", None).await;
    drain(&[&a, &b]).await;

    let mine_at_b = stored(&b, &note_uri("a.test", "alice", mine.id)).await;
    assert_eq!(mine_at_b.in_reply_to_id, Some(hello.id));
    assert_eq!(
        mine_at_b.conversation_id,
        Some(hello.conversation_id.unwrap_or(hello.id))
    );
    assert_eq!(thread(&a, &alice, copy.id).await, (vec![], vec![mine.id]));
    assert_eq!(thread(&a, &alice, mine.id).await, (vec![copy.id], vec![]));
    assert_eq!(
        thread(&b, &bob, hello.id).await,
        (vec![], vec![mine_at_b.id])
    );
    assert_eq!(
        thread(&b, &bob, mine_at_b.id).await,
        (vec![hello.id], vec![])
    );
    let doc = note_doc(&a, mine.id).await;
    assert_eq!(doc["inReplyTo"], note_uri("b.test", "bob", hello.id));
    assert!(
        doc.get("conversation").is_none(),
        "the thread began on b: {doc}"
    );
}

#[tokio::test]
async fn a_replys_missing_ancestors_are_fetched_and_linked_up_to_the_bound() {
    use crate::services::federation_runner::MAX_FETCHED_ANCESTORS;

    let (a, b, alice, bob, _bob_at_a) = alice_follows_bob().await;
    // carol's long thread on b: nobody on a follows her, so a has none of it.
    let carol = account(&b, "carol").await;
    let bound = MAX_FETCHED_ANCESTORS as usize;
    let mut chain = vec![post(&b, &carol, "the first of a long thread", None).await];
    for n in 1..bound + 2 {
        let last = chain[n - 1].id;
        chain.push(reply_to(&b, &carol, last, &format!("part {n}"), None).await);
    }
    let uris: Vec<String> = chain
        .iter()
        .map(|s| note_uri("b.test", "carol", s.id))
        .collect();
    let last = chain.last().expect("a chain").id;
    let answer = reply_to(&b, &bob, last, "late to this one", None).await;
    drain(&[&a, &b]).await;

    // The parent, the grandparent and on up, `bound` levels, are fetched and linked; the
    // thread is one conversation.
    let answer_at_a = stored(&a, &note_uri("b.test", "bob", answer.id)).await;
    let mut fetched = vec![];
    for uri in &uris[2..] {
        fetched.push(stored(&a, uri).await);
    }
    let fetched_ids: Vec<crate::Id> = fetched.iter().map(|s| s.id).collect();
    assert_eq!(fetched.len(), bound);
    assert_eq!(answer_at_a.in_reply_to_id, fetched_ids.last().copied());
    assert_eq!(
        thread(&a, &alice, answer_at_a.id).await,
        (fetched_ids.clone(), vec![])
    );
    let top = fetched[0].id;
    for s in fetched.iter().chain([&answer_at_a]) {
        assert_eq!(s.conversation_id, Some(top), "{s:?}");
    }
    let (_, below_top) = thread(&a, &alice, top).await;
    assert_eq!(below_top.last(), Some(&answer_at_a.id));
    // Past the bound nothing is fetched: the topmost fetched replies to nothing known.
    assert_eq!(fetched[0].in_reply_to_id, None);
    for uri in &uris[..2] {
        assert!(!has(&a, uri).await, "{uri} is past the bound");
    }
}

#[tokio::test]
async fn a_replies_collection_lists_public_and_unlisted_replies_only() {
    let (a, b, alice, bob, _bob_at_a) = alice_follows_bob().await;
    let dave = account(&a, "dave").await;
    let hi = post(&a, &alice, "@bob@b.test replies welcome", None).await;
    drain(&[&a, &b]).await;
    let own_public = reply_to(&a, &alice, hi.id, "more", None).await;
    let own_unlisted = reply_to(&a, &alice, hi.id, "and more", Some("unlisted")).await;
    reply_to(&a, &alice, hi.id, "for followers", Some("private")).await;
    reply_to(&a, &dave, hi.id, "for my followers", Some("private")).await;
    let dave_public = reply_to(&a, &dave, hi.id, "for all", None).await;
    let hi_at_b = stored(&b, &note_uri("a.test", "alice", hi.id)).await;
    let bobs = reply_to(&b, &bob, hi_at_b.id, "@alice@a.test sure", None).await;
    let bobs_private = reply_to(
        &b,
        &bob,
        hi_at_b.id,
        "@alice@a.test for you",
        Some("private"),
    )
    .await;
    drain(&[&a, &b]).await;
    assert!(has(&a, &note_uri("b.test", "bob", bobs_private.id)).await);

    // The author's own replies first, then everyone else's, oldest first; private ones never.
    let hi_uri = note_uri("a.test", "alice", hi.id);
    let replies = crate::federation::paths::replies(&hi_uri);
    let own = |s: &StatusRecord| note_uri("a.test", "alice", s.id);
    assert_eq!(
        collection_items(&b, &replies).await,
        vec![
            own(&own_public),
            own(&own_unlisted),
            note_uri("a.test", "dave", dave_public.id),
            note_uri("b.test", "bob", bobs.id),
        ]
    );
    // The note embeds the collection with the author's own replies on its first page.
    let doc = note_doc(&a, hi.id).await;
    assert_eq!(doc["replies"]["id"], replies);
    assert_eq!(
        doc["replies"]["first"]["items"],
        serde_json::json!([own(&own_public), own(&own_unlisted)])
    );
    // A followers-only post has no replies collection to show.
    let secret = private_post(&a, &alice, "between us").await;
    let hidden = crate::federation::paths::replies(&note_uri("a.test", "alice", secret.id));
    let refused = b.federation().fetch(&hidden).await.expect_err("hidden");
    assert_eq!(refused.status, http::StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_fetched_notes_replies_collection_is_read_and_its_replies_stored() {
    use crate::services::federation_runner::MAX_FETCHED_REPLIES;

    let (a, b, alice, bob, _bob_at_a) = alice_follows_bob().await;
    // carol's post and its replies on b, which a has not seen (nobody there follows them).
    let carol = account(&b, "carol").await;
    let dave = account(&b, "dave").await;
    let topic = post(&b, &carol, "what is your favourite tree?", None).await;
    let mut listed = vec![note_uri(
        "b.test",
        "carol",
        reply_to(&b, &carol, topic.id, "mine is the oak", None)
            .await
            .id,
    )];
    reply_to(&b, &dave, topic.id, "followers only", Some("private")).await;
    for n in 0..MAX_FETCHED_REPLIES {
        let r = reply_to(&b, &dave, topic.id, &format!("tree {n}"), None).await;
        listed.push(note_uri("b.test", "dave", r.id));
    }
    drain(&[&a, &b]).await;
    assert!(!has(&a, &listed[0]).await);

    // bob boosts it: a fetches the post, then the first pages of its replies collection, and
    // stores at most MAX_FETCHED_REPLIES of the replies listed, in order.
    b.statuses()
        .reblog(&bob, None, topic.id, None)
        .await
        .expect("reblog");
    drain(&[&a, &b]).await;
    let topic_at_a = stored(&a, &note_uri("b.test", "carol", topic.id)).await;
    let mut got = vec![];
    for uri in &listed[..MAX_FETCHED_REPLIES] {
        let reply = stored(&a, uri).await;
        assert_eq!(reply.in_reply_to_id, Some(topic_at_a.id));
        got.push(reply.id);
    }
    assert!(
        !has(&a, &listed[MAX_FETCHED_REPLIES]).await,
        "past the bound"
    );
    assert_eq!(thread(&a, &alice, topic_at_a.id).await, (vec![], got));
    let private_replies = a
        .store
        .replies_to(&[topic_at_a.id])
        .await
        .expect("replies")
        .into_iter()
        .filter(|r| r.visibility != crate::store::Visibility::Public)
        .count();
    assert_eq!(private_replies, 0, "a followers-only reply is not listed");
}

#[tokio::test]
async fn a_post_is_found_by_its_url_and_stored() {
    let (a, b) = pair();
    let alice = account(&a, "alice").await;
    let bob = account(&b, "bob").await;
    let hello = post(&b, &bob, "found by its address", None).await;
    let secret = private_post(&b, &bob, "followers only").await;
    let uri = crate::federation::paths::status("https://b.test", "bob", hello.id);
    let found = a.status_at_url(&uri).await.expect("fetched");
    assert!(!found.local);
    assert!(found.content.contains("found by its address"));
    assert_eq!(found.uri.as_deref(), Some(uri.as_str()));
    // Known now: the same record, by its id or by its page.
    assert_eq!(a.status_at_url(&uri).await.unwrap().id, found.id);
    let page = format!("https://b.test/@bob/{}", hello.id);
    assert_eq!(a.status_at_url(&page).await.unwrap().id, found.id);
    // Ours by its address.
    let mine = post(&a, &alice, "at home", None).await;
    let mine_url = crate::federation::paths::status("https://a.test", "alice", mine.id);
    assert_eq!(a.status_at_url(&mine_url).await.unwrap().id, mine.id);
    // Not to be had: a followers-only post (its server does not serve it to us), an unknown
    // one, a local id that is no status, something that is not a URL.
    let hidden = crate::federation::paths::status("https://b.test", "bob", secret.id);
    for url in [
        hidden.as_str(),
        "https://b.test/users/bob/statuses/1",
        "https://a.test/users/alice/statuses/1",
        "bob@b.test",
    ] {
        let e = a.status_at_url(url).await.expect_err(url);
        assert_eq!(e.status, http::StatusCode::NOT_FOUND, "{url}");
    }
    assert!(a.store.status_by_uri(&hidden).await.unwrap().is_none());
}

#[tokio::test]
async fn a_search_resolves_a_handle_or_url_on_its_server() {
    let (a, b) = pair();
    let alice = account(&a, "alice").await;
    account(&b, "bob").await;
    let carol = account(&b, "carol").await;
    for q in ["bob@b.test", "@bob@b.test", "https://b.test/users/bob"] {
        let found = a.resolve_account_query(&alice, q).await.unwrap();
        assert_eq!(
            found.map(|f| f.acct()),
            Some("bob@b.test".to_string()),
            "{q}"
        );
    }
    // Not addresses elsewhere, or nobody there.
    for q in ["bob", "alice@a.test", "nobody@b.test"] {
        assert!(
            a.resolve_account_query(&alice, q).await.unwrap().is_none(),
            "{q}"
        );
    }
    // Someone who blocks alice is not resolved for her.
    let alice_at_b = b
        .federation()
        .resolve_handle("alice", "a.test")
        .await
        .unwrap();
    b.blocks().block(&carol, alice_at_b.id).await.unwrap();
    drain(&[&a, &b]).await;
    assert!(
        a.resolve_account_query(&alice, "carol@b.test")
            .await
            .unwrap()
            .is_none()
    );
}
