//! What each streaming listener receives: the events of the bus rendered for it, by the rules
//! of the read paths (home feed, lists, public and hashtag timelines, notifications,
//! conversations), with nothing private reaching another account's stream.

use std::sync::Arc;

use serde_json::Value;

use crate::events::{DomainEvent, Subscription};
use crate::services::edits::StatusChanges;
use crate::services::filters::{FilterChanges, KeywordChange};
use crate::services::lists::ListChanges;
use crate::services::relationships::FollowOptions;
use crate::services::statuses::NewStatus;
use crate::store::AccountRecord;
use crate::streaming::{Channel, Closed, Connection, Grants, Outgoing};
use crate::test_support::{account, app, post, post_new};
use crate::{App, Id};

/// A connection of `who` (anonymous when `None`) with every read scope, listening to
/// `channels`.
fn listen(app: &App, who: Option<&AccountRecord>, channels: &[&str]) -> Connection {
    let channels = channels
        .iter()
        .map(|c| match c.split_once('=') {
            Some(("hashtag", tag)) => Channel::parse("hashtag", Some(tag), None),
            Some(("list", list)) => Channel::parse("list", None, Some(list)),
            _ => Channel::parse(c, None, None),
        })
        .map(|c| c.expect("a channel"))
        .collect();
    let grants = who.map(|_| Grants::of("read")).unwrap_or_default();
    app.streams
        .connect(who.cloned(), who.map(|a| Id(a.id.0 + 1)), grants, channels)
        .expect("connected")
}

/// Streams every domain event published since `events` was made.
async fn stream(app: &App, events: &mut Subscription) {
    while let Some(e) = events.try_recv() {
        let domain = DomainEvent::from_event(&e).expect("a domain event");
        app.stream_event(&domain).await.expect("streamed");
    }
}

/// What `connection` received: (stream, event, payload) each.
fn received(connection: &Connection) -> Vec<(String, String, String)> {
    std::iter::from_fn(|| connection.try_recv())
        .map(|m| match m {
            Outgoing::Event {
                stream,
                event,
                payload,
            } => (stream.join(" "), event, payload),
            Outgoing::Error { status, error } => panic!("an error {status}: {error}"),
        })
        .collect()
}

/// The ids of the statuses among `got` (`update` and `status.update` payloads).
fn status_ids(got: &[(String, String, String)]) -> Vec<String> {
    got.iter()
        .filter(|(_, e, _)| e == "update" || e == "status.update")
        .map(|(_, _, p)| {
            let v: Value = serde_json::from_str(p).expect("a status");
            v["id"].as_str().expect("an id").to_string()
        })
        .collect()
}

async fn follow(app: &App, me: &AccountRecord, target: &AccountRecord, reblogs: bool) {
    let options = FollowOptions {
        reblogs: Some(reblogs),
        ..Default::default()
    };
    app.relationships()
        .follow(me, target.id, options)
        .await
        .expect("follow");
}

async fn post_as(app: &App, author: &AccountRecord, text: &str, visibility: &str) -> Id {
    let new = NewStatus {
        text: text.into(),
        visibility: Some(visibility.into()),
        ..Default::default()
    };
    post_new(app, author, new).await.id
}

#[tokio::test]
async fn each_status_reaches_the_streams_of_those_who_may_see_it() {
    let app = app("stream.test");
    let alice = account(&app, "alice").await;
    let follower = account(&app, "follower").await;
    let stranger = account(&app, "stranger").await;
    let mentioned = account(&app, "mentioned").await;
    follow(&app, &follower, &alice, true).await;
    let mut events = app.events.subscribe();
    let f = listen(&app, Some(&follower), &["user"]);
    let s = listen(&app, Some(&stranger), &["user", "public:local"]);
    let m = listen(&app, Some(&mentioned), &["user"]);
    let anonymous = listen(&app, None, &["public", "public:remote", "hashtag=Rust"]);

    let public = post_as(&app, &alice, "hello #rust", "public").await;
    let unlisted = post_as(&app, &alice, "quiet", "unlisted").await;
    let private = post_as(&app, &alice, "friends only @mentioned", "private").await;
    let direct = post_as(&app, &alice, "psst @mentioned", "direct").await;
    stream(&app, &mut events).await;

    let ids = |v: &[Id]| v.iter().map(|i| i.to_string()).collect::<Vec<_>>();
    assert_eq!(
        status_ids(&received(&f)),
        ids(&[public, unlisted, private]),
        "the follower's home feed: not the direct status"
    );
    let stranger_got = received(&s);
    assert_eq!(status_ids(&stranger_got), ids(&[public]));
    assert_eq!(stranger_got[0].0, "public:local", "only on public:local");
    // The mentioned account, not following, learns of mentions through notifications, not
    // the home stream; the default policy filters a private mention by an account it does not
    // follow into a request, which is not streamed.
    let mentioned_got = received(&m);
    assert!(status_ids(&mentioned_got).is_empty(), "{mentioned_got:?}");
    let notified: Vec<String> = mentioned_got
        .iter()
        .filter(|(_, e, _)| e == "notification")
        .map(|(_, _, p)| serde_json::from_str::<Value>(p).unwrap()["status"]["id"].to_string())
        .collect();
    assert_eq!(notified.len(), 1, "{notified:?}");
    let anonymous_got = received(&anonymous);
    assert_eq!(
        anonymous_got
            .iter()
            .map(|(stream, e, _)| format!("{stream} {e}"))
            .collect::<Vec<_>>(),
        vec!["public update", "hashtag rust update"],
        "a local public status: not on public:remote"
    );
    assert_eq!(status_ids(&anonymous_got), ids(&[public, public]));
    let _ = direct;
}

#[tokio::test]
async fn blocks_mutes_and_hide_filters_keep_statuses_off_a_stream() {
    let app = app("stream.test");
    let alice = account(&app, "alice").await;
    let blocked = account(&app, "blocked").await;
    let blocker = account(&app, "blocker").await;
    let muter = account(&app, "muter").await;
    let filterer = account(&app, "filterer").await;
    let warned = account(&app, "warned").await;
    for who in [&blocker, &muter, &filterer, &warned] {
        follow(&app, who, &alice, true).await;
    }
    app.blocks().block(&alice, blocked.id).await.expect("block");
    app.blocks().block(&blocker, alice.id).await.expect("block");
    app.blocks()
        .mute(&muter, alice.id, true, 0)
        .await
        .expect("mute");
    for (who, action) in [(&filterer, "hide"), (&warned, "warn")] {
        let changes = FilterChanges {
            title: Some("no spoilers".into()),
            context: Some(vec!["public".into(), "home".into()]),
            action: Some(action.into()),
            keywords: vec![KeywordChange {
                keyword: Some("spoiler".into()),
                ..Default::default()
            }],
            ..Default::default()
        };
        app.filters()
            .create_filter(who, changes)
            .await
            .expect("filter");
    }
    let mut events = app.events.subscribe();
    let listeners: Vec<Connection> = [&blocked, &blocker, &muter, &filterer, &warned]
        .iter()
        .map(|who| listen(&app, Some(who), &["user", "public"]))
        .collect();
    post_as(&app, &alice, "a spoiler", "public").await;
    stream(&app, &mut events).await;

    let got: Vec<_> = listeners.iter().map(received).collect();
    assert!(got[0].is_empty(), "blocked by the author: {:?}", got[0]);
    assert!(got[1].is_empty(), "blocking the author: {:?}", got[1]);
    assert!(got[2].is_empty(), "muting the author: {:?}", got[2]);
    assert!(got[3].is_empty(), "a hide filter: {:?}", got[3]);
    assert_eq!(got[4].len(), 2, "a warn filter marks, on both streams");
    for (_, _, payload) in &got[4] {
        let status: Value = serde_json::from_str(payload).unwrap();
        assert_eq!(status["filtered"][0]["filter"]["title"], "no spoilers");
    }
}

#[tokio::test]
async fn reblogs_lists_and_each_listeners_own_state() {
    let app = app("stream.test");
    let alice = account(&app, "alice").await;
    let booster = account(&app, "booster").await;
    let fan = account(&app, "fan").await;
    let quiet = account(&app, "quiet").await;
    follow(&app, &fan, &booster, true).await;
    follow(&app, &quiet, &booster, false).await;
    let original = post(&app, &alice, "worth sharing", None).await;
    app.interactions()
        .favourite(&fan, original.id)
        .await
        .expect("favourite");
    let list = app
        .lists()
        .create_list(
            &fan,
            ListChanges {
                title: Some("boosters".into()),
                ..Default::default()
            },
        )
        .await
        .expect("list");
    app.lists()
        .add_list_members(&fan, list.id, &[booster.id])
        .await
        .expect("member");
    let mut events = app.events.subscribe();
    let f = listen(&app, Some(&fan), &["user", &format!("list={}", list.id)]);
    let q = listen(&app, Some(&quiet), &["user"]);
    let b = listen(&app, Some(&booster), &["user"]);
    app.statuses()
        .reblog(&booster, None, original.id, None)
        .await
        .expect("reblog");
    stream(&app, &mut events).await;

    let fan_got = received(&f);
    let streams: Vec<&str> = fan_got.iter().map(|(s, _, _)| s.as_str()).collect();
    assert_eq!(streams, vec!["user", &format!("list {}", list.id)]);
    for (_, _, payload) in &fan_got {
        let reblog: Value = serde_json::from_str(payload).unwrap();
        assert_eq!(
            reblog["reblog"]["favourited"], true,
            "the fan's own favourite"
        );
    }
    assert!(received(&q).is_empty(), "a follow without reblogs");
    let own = received(&b);
    assert_eq!(own.len(), 1);
    let reblog: Value = serde_json::from_str(&own[0].2).unwrap();
    assert_eq!(
        reblog["reblog"]["favourited"], false,
        "the booster did not favourite it"
    );
    assert_eq!(reblog["reblogged"], true);
}

#[tokio::test]
async fn edits_deletions_conversations_and_filter_changes() {
    let app = app("stream.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let stranger = account(&app, "stranger").await;
    follow(&app, &bob, &alice, true).await;
    let mut events = app.events.subscribe();
    let b = listen(&app, Some(&bob), &["user", "direct"]);
    let s = listen(&app, Some(&stranger), &["user"]);
    let anonymous = listen(&app, None, &["public:local"]);

    // Each event is streamed as it happens (a deleted status can no longer be rendered).
    let secret = post_as(&app, &alice, "for followers", "private").await;
    stream(&app, &mut events).await;
    app.edits()
        .edit_status(
            &alice,
            secret,
            StatusChanges {
                text: "for followers, edited".into(),
                ..Default::default()
            },
        )
        .await
        .expect("edit");
    stream(&app, &mut events).await;
    let doomed = app
        .statuses()
        .status_to_delete(&alice, secret)
        .await
        .expect("own");
    app.statuses().delete_status(&doomed).await.expect("delete");
    stream(&app, &mut events).await;
    // Deleting an unlisted status tells the followers, not the public streams it never
    // reached.
    let quiet = post_as(&app, &alice, "quiet", "unlisted").await;
    stream(&app, &mut events).await;
    let quiet = app
        .statuses()
        .status_to_delete(&alice, quiet)
        .await
        .unwrap();
    app.statuses().delete_status(&quiet).await.expect("delete");
    stream(&app, &mut events).await;
    post_as(&app, &alice, "hi @bob", "direct").await;
    app.filters()
        .create_filter(
            &bob,
            FilterChanges {
                title: Some("f".into()),
                context: Some(vec!["home".into()]),
                ..Default::default()
            },
        )
        .await
        .expect("filter");
    stream(&app, &mut events).await;

    let events_of = |got: Vec<(String, String, String)>| {
        got.into_iter()
            .map(|(stream, e, _)| format!("{stream} {e}"))
            .collect::<Vec<_>>()
    };
    let bob_got = received(&b);
    assert_eq!(bob_got[2].2, secret.to_string(), "delete carries the id");
    assert_eq!(
        events_of(bob_got),
        vec![
            "user update",
            "user status.update",
            "user delete",
            "user update",
            "user delete",
            "user notification",
            "direct conversation",
            // A direct status goes to the home feed of the mentioned followers.
            "user update",
            "user filters_changed",
        ]
    );
    assert!(
        received(&s).is_empty(),
        "nothing private reaches a stranger"
    );
    assert!(received(&anonymous).is_empty());
}

#[tokio::test]
async fn revoked_tokens_and_closed_accounts_end_their_streams() {
    let app = Arc::new(app("stream.test"));
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let a = listen(&app, Some(&alice), &["user"]);
    let b = listen(&app, Some(&bob), &["user"]);
    let token = a.token().expect("a token");
    app.stream_event(&DomainEvent::TokenRevoked { token })
        .await
        .unwrap();
    assert_eq!(a.closed(), Some(Closed::AccessEnded));
    assert_eq!(b.closed(), None);
    app.stream_event(&DomainEvent::AccountClosed { account: bob.id })
        .await
        .unwrap();
    assert_eq!(b.closed(), Some(Closed::AccessEnded));
    assert_eq!(a.recv().await, None);
}

#[tokio::test]
async fn accepting_notification_requests_tells_the_notification_streams() {
    let app = app("stream.test");
    let bob = account(&app, "bob").await;
    let stranger = account(&app, "stranger").await;
    post_as(&app, &stranger, "psst @bob", "direct").await;
    let policies = app.notification_policies();
    let requests = policies
        .notification_requests(&bob, crate::pagination::Page::first(10))
        .await
        .expect("requests");
    assert_eq!(
        requests.requests.len(),
        1,
        "the private mention was filtered"
    );
    let mut events = app.events.subscribe();
    let b = listen(&app, Some(&bob), &["user:notification"]);
    policies
        .accept_notification_requests(&bob, &[requests.requests[0].id], true)
        .await
        .expect("accept");
    stream(&app, &mut events).await;
    assert_eq!(
        received(&b),
        vec![(
            "user:notification".to_string(),
            "notifications_merged".to_string(),
            "1".to_string()
        )]
    );
}

#[tokio::test]
async fn a_new_status_carries_each_listeners_own_state_of_its_thread() {
    let app = app("stream.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let carol = account(&app, "carol").await;
    follow(&app, &bob, &alice, true).await;
    follow(&app, &carol, &alice, true).await;
    let root = post(&app, &alice, "a thread", None).await;
    app.interactions()
        .mute_conversation(&bob, root.id)
        .await
        .expect("mute the thread");
    let mut events = app.events.subscribe();
    let b = listen(&app, Some(&bob), &["user"]);
    let c = listen(&app, Some(&carol), &["user"]);
    let reply = NewStatus {
        text: "and more".into(),
        in_reply_to_id: Some(root.id),
        ..Default::default()
    };
    post_new(&app, &alice, reply).await;
    post(&app, &alice, "a new thread", None).await;
    stream(&app, &mut events).await;

    let muted = |got: Vec<(String, String, String)>| -> Vec<bool> {
        got.iter()
            .map(|(_, _, p)| serde_json::from_str::<Value>(p).unwrap()["muted"] == true)
            .collect()
    };
    assert_eq!(
        muted(received(&b)),
        vec![true, false],
        "bob muted the thread"
    );
    assert_eq!(muted(received(&c)), vec![false, false]);
}
