//! Followers collection synchronisation (FEP-8fcf) between two apps in one process: the header
//! on followers-only deliveries only, the partial collection served to signed requests of the
//! right server only, and the three corrections a receiver makes when its copy of an author's
//! followers has drifted from the author's server.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use crate::api::in_process::InProcessNetwork;
use crate::app::App;
use crate::federation::collection_sync::{self, CollectionSync, partial_digest};
use crate::federation::{OutboundRequest, OutboundResponse, Transport, TransportError, paths};
use crate::pagination::Page;
use crate::services::relationships::FollowOptions;
use crate::store::AccountRecord;
use crate::test_support::{account, app, drain, post, private_post};

/// A transport that notes every request's `Collection-Synchronization` header (by URL) before
/// passing it on.
struct Recording {
    inner: Arc<dyn Transport>,
    seen: Mutex<Vec<(String, Option<String>)>>,
}

#[async_trait]
impl Transport for Recording {
    async fn send(&self, req: OutboundRequest) -> Result<OutboundResponse, TransportError> {
        let header = req
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(collection_sync::HEADER))
            .map(|(_, v)| v.clone());
        if let Ok(mut seen) = self.seen.lock() {
            seen.push((req.url.clone(), header));
        }
        self.inner.send(req).await
    }
}

impl Recording {
    /// The headers of the POSTs to inboxes noted since the last call.
    fn take(&self) -> Vec<(String, Option<String>)> {
        let mut seen = self.seen.lock().expect("lock");
        std::mem::take(&mut *seen)
            .into_iter()
            .filter(|(url, _)| url.ends_with("/inbox"))
            .collect()
    }
}

/// Apps on `a.test` and `b.test`; what `b` sends is recorded.
fn pair() -> (Arc<App>, Arc<App>, Arc<Recording>) {
    let net = InProcessNetwork::new();
    let recording = Arc::new(Recording {
        inner: net.transport(),
        seen: Mutex::new(vec![]),
    });
    let a = Arc::new(app("a.test").with_transport(net.transport()));
    let b = Arc::new(app("b.test").with_transport(recording.clone()));
    net.join(&a);
    net.join(&b);
    (a, b, recording)
}

async fn follow(app: &App, follower: &AccountRecord, name: &str, host: &str) -> AccountRecord {
    let target = app
        .federation()
        .resolve_handle(name, host)
        .await
        .expect("resolved");
    app.relationships()
        .follow(follower, target.id, FollowOptions::default())
        .await
        .expect("followed");
    target
}

async fn follows(app: &App, follower: &AccountRecord, target: &AccountRecord) -> bool {
    app.store
        .follows(follower.id, target.id)
        .await
        .expect("follows")
}

#[tokio::test]
async fn only_followers_only_deliveries_carry_the_digest_of_the_followers_there() {
    let (a, b, sent) = pair();
    let alice = account(&a, "alice").await;
    let carol = account(&a, "carol").await;
    let bob = account(&b, "bob").await;
    follow(&a, &alice, "bob", "b.test").await;
    follow(&a, &carol, "bob", "b.test").await;
    drain(&[&a, &b]).await;
    sent.take();

    post(&b, &bob, "for everyone", None).await;
    drain(&[&a, &b]).await;
    let public = sent.take();
    assert_eq!(public.len(), 1, "{public:?}");
    assert_eq!(public[0].1, None, "a public post carries no header");

    private_post(&b, &bob, "for followers").await;
    drain(&[&a, &b]).await;
    let private = sent.take();
    assert_eq!(private.len(), 1, "{private:?}");
    let header = private[0].1.as_deref().expect("a header");
    let sync = CollectionSync::parse(header).expect("a valid header");
    let bob_actor = paths::actor("https://b.test", "bob");
    assert_eq!(sync.collection_id, paths::followers(&bob_actor));
    assert_eq!(sync.url, format!("{bob_actor}/followers_synchronization"));
    assert_eq!(
        sync.digest,
        partial_digest([
            paths::actor("https://a.test", "alice").as_str(),
            paths::actor("https://a.test", "carol").as_str(),
        ])
    );
    // In agreement, a receives it and changes nothing.
    assert!(follows(&a, &alice, &b_account(&a).await).await);
    assert!(follows(&a, &carol, &b_account(&a).await).await);

    // The partial collection: a's followers to a signed request from a; 401 unsigned.
    let doc = a.federation().fetch(&sync.url).await.expect("served");
    assert_eq!(doc["type"], "OrderedCollection");
    let mut items: Vec<String> = crate::federation::vocab::uris(&doc["orderedItems"]);
    items.sort();
    assert_eq!(
        items,
        [
            paths::actor("https://a.test", "alice"),
            paths::actor("https://a.test", "carol")
        ]
    );
    let unsigned = sent
        .inner
        .send(OutboundRequest {
            method: http::Method::GET,
            url: sync.url.clone(),
            headers: vec![],
            body: None,
        })
        .await
        .expect("an answer");
    assert_eq!(unsigned.status, 401);
}

#[tokio::test]
async fn the_partial_collection_lists_only_the_signers_server() {
    let net = InProcessNetwork::new();
    let apps: Vec<Arc<App>> = ["a.test", "b.test", "c.test"]
        .iter()
        .map(|d| Arc::new(app(d).with_transport(net.transport())))
        .collect();
    for app in &apps {
        net.join(app);
    }
    let (a, b, c) = (&apps[0], &apps[1], &apps[2]);
    let bob = account(b, "bob").await;
    let alice = account(a, "alice").await;
    let carl = account(c, "carl").await;
    follow(a, &alice, "bob", "b.test").await;
    follow(c, &carl, "bob", "b.test").await;
    drain(&[a, b, c]).await;
    let url = format!(
        "{}/followers_synchronization",
        paths::actor("https://b.test", &bob.username)
    );
    for (app, expected) in [
        (a, "https://a.test/users/alice"),
        (c, "https://c.test/users/carl"),
    ] {
        let doc = app.federation().fetch(&url).await.expect("served");
        assert_eq!(
            crate::federation::vocab::uris(&doc["orderedItems"]),
            [expected]
        );
    }
    // The local account asked for, not another: 404 for none.
    let missing = url.replace("/bob/", "/nobody/");
    assert!(a.federation().fetch(&missing).await.is_err());
}

async fn b_account(a: &App) -> AccountRecord {
    a.federation()
        .resolve_handle("bob", "b.test")
        .await
        .expect("bob")
}

#[tokio::test]
async fn a_receiver_corrects_its_copy_from_the_authors_server() {
    let (a, b, _) = pair();
    let alice = account(&a, "alice").await;
    let carol = account(&a, "carol").await;
    let dave = account(&a, "dave").await;
    let erin = account(&a, "erin").await;
    let bob = account(&b, "bob").await;
    let bob_at_a = follow(&a, &alice, "bob", "b.test").await;
    follow(&a, &carol, "bob", "b.test").await;
    drain(&[&a, &b]).await;

    // The copies drift apart (a lost message, a restored backup): b forgot alice's follow; b
    // has dave following, whom a knows nothing of; b has erin following, whose request a
    // still waits on.
    let alice_at_b = b_remote(&b, "alice").await;
    let dave_at_b = b_remote(&b, "dave").await;
    let erin_at_b = b_remote(&b, "erin").await;
    assert!(
        b.store
            .delete_follow(alice_at_b.id, bob.id)
            .await
            .expect("deleted")
    );
    for follower in [&dave_at_b, &erin_at_b] {
        b.store
            .insert_follow(b.ids.next(), follower.id, bob.id)
            .await
            .expect("inserted");
    }
    a.store
        .insert_follow_request(a.ids.next(), erin.id, bob_at_a.id)
        .await
        .expect("requested");

    let secret = private_post(&b, &bob, "followers only").await;
    drain(&[&a, &b]).await;

    // a listened to b: alice no longer follows bob, nor sees his private posts; erin's request
    // became a follow; dave's follow, unknown at a, was undone at b.
    assert!(!follows(&a, &alice, &bob_at_a).await);
    assert!(follows(&a, &carol, &bob_at_a).await);
    assert!(follows(&a, &erin, &bob_at_a).await);
    assert!(
        !a.store
            .follow_requested(erin.id, bob_at_a.id)
            .await
            .unwrap()
    );
    assert!(!follows(&a, &dave, &bob_at_a).await);
    assert!(!follows(&b, &dave_at_b, &bob).await);
    assert!(follows(&b, &erin_at_b, &bob).await);
    let copy = a
        .store
        .status_by_uri(&paths::status("https://b.test", "bob", secret.id))
        .await
        .unwrap()
        .expect("carol's copy");
    let home = a
        .timelines()
        .home_timeline(&alice, Page::first(40))
        .await
        .unwrap();
    assert!(home.statuses.iter().all(|s| s.id != copy.id));
    let visibility = a.visibility();
    assert!(
        visibility
            .visible_status(Some(&alice), copy.id)
            .await
            .is_err()
    );
    assert!(
        visibility
            .visible_status(Some(&carol), copy.id)
            .await
            .is_ok()
    );

    // Now in agreement: the next private post changes nothing.
    let before = a.store.local_follower_ids(bob_at_a.id).await.unwrap();
    private_post(&b, &bob, "again").await;
    drain(&[&a, &b]).await;
    let mut after = a.store.local_follower_ids(bob_at_a.id).await.unwrap();
    let mut before = before;
    before.sort();
    after.sort();
    assert_eq!(before, after);
}

/// `name@a.test` as `b` knows it.
async fn b_remote(b: &App, name: &str) -> AccountRecord {
    b.federation()
        .resolve_handle(name, "a.test")
        .await
        .expect("resolved")
}
