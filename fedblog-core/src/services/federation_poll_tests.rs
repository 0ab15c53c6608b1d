//! Polls across two apps federating in one process (through [`InProcessNetwork`], every request
//! signed and checked as over HTTP, and recorded on the way): a local poll goes out as a
//! `Question` with its options and end; votes come back as named notes and count once; the new
//! totals go to the servers with a copy, which keep their own voters' choices; edits keep or
//! replace a remote poll; a poll's end goes out `closed`.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};

use crate::Id;
use crate::api::in_process::InProcessNetwork;
use crate::app::App;
use crate::federation::vocab;
use crate::federation::{OutboundRequest, OutboundResponse, Transport, TransportError};
use crate::pagination::Page;
use crate::services::edits::StatusChanges;
use crate::services::federation::Delivered;
use crate::services::federation_runner::Collection;
use crate::services::outbox::Delivery;
use crate::services::relationships::FollowOptions;
use crate::store::{AccountRecord, NotificationQuery, NotificationType, PollRecord, StatusRecord};
use crate::test_support::{account, app, drain, poll_of, post};

/// The network between the apps, keeping every activity POSTed: where to, and what.
struct Recorder {
    network: Arc<dyn Transport>,
    posted: Mutex<Vec<(String, Value)>>,
}

#[async_trait]
impl Transport for Recorder {
    async fn send(&self, req: OutboundRequest) -> Result<OutboundResponse, TransportError> {
        if req.method == http::Method::POST
            && let Some(body) = &req.body
            && let Ok(activity) = serde_json::from_slice::<Value>(body)
        {
            let mut posted = self.posted.lock().expect("recorder");
            posted.push((req.url.clone(), activity));
        }
        self.network.send(req).await
    }
}

impl Recorder {
    /// The activities of type `kind` POSTed to an inbox on `host`, in order.
    fn delivered(&self, host: &str, kind: &str) -> Vec<Value> {
        let prefix = format!("https://{host}/");
        let posted = self.posted.lock().expect("recorder");
        posted
            .iter()
            .filter(|(url, a)| url.starts_with(&prefix) && a["type"] == kind)
            .map(|(_, a)| a.clone())
            .collect()
    }
}

/// Apps on `a.test` and `b.test` that reach each other through a [`Recorder`].
fn pair() -> (Arc<App>, Arc<App>, Arc<Recorder>) {
    let net = InProcessNetwork::new();
    let recorder = Arc::new(Recorder {
        network: net.transport(),
        posted: Mutex::default(),
    });
    let a = Arc::new(app("a.test").with_transport(recorder.clone()));
    let b = Arc::new(app("b.test").with_transport(recorder.clone()));
    net.join(&a);
    net.join(&b);
    (a, b, recorder)
}

/// `name@host` as `app` knows it (fetched by WebFinger if need be).
async fn remote(app: &App, name: &str, host: &str) -> AccountRecord {
    app.federation()
        .resolve_handle(name, host)
        .await
        .expect("resolved")
}

/// Two servers, `bob` on `b.test` following `alice` on `a.test` (accepted): the apps, the
/// recorder, alice, bob, and alice as `b.test` knows her.
async fn bob_follows_alice() -> (
    Arc<App>,
    Arc<App>,
    Arc<Recorder>,
    AccountRecord,
    AccountRecord,
    AccountRecord,
) {
    let (a, b, recorder) = pair();
    let alice = account(&a, "alice").await;
    let bob = account(&b, "bob").await;
    let alice_at_b = remote(&b, "alice", "a.test").await;
    b.relationships()
        .follow(&bob, alice_at_b.id, FollowOptions::default())
        .await
        .expect("follow");
    drain(&[&a, &b]).await;
    assert!(b.store.follows(bob.id, alice_at_b.id).await.unwrap());
    (a, b, recorder, alice, bob, alice_at_b)
}

/// `author`'s status on `app` with a poll of `options` ending in ten minutes.
async fn poll_post(
    app: &App,
    author: &AccountRecord,
    options: &[&str],
    multiple: bool,
) -> (StatusRecord, PollRecord) {
    let poll = json!({"options": options, "expires_in": 600, "multiple": multiple});
    let status = post(app, author, "which one?", Some(poll)).await;
    let poll = poll_of(app, &status).await;
    (status, poll)
}

/// The ActivityPub id of `username`'s status `id` on `host`.
fn note_uri(host: &str, username: &str, id: Id) -> String {
    crate::federation::paths::status(&format!("https://{host}"), username, id)
}

/// `app`'s copy of the status `uri` names, with its poll.
async fn copy_of(app: &App, uri: &str) -> (StatusRecord, PollRecord) {
    let status = app
        .store
        .status_by_uri(uri)
        .await
        .expect("lookup")
        .unwrap_or_else(|| panic!("{uri} is stored on {}", app.config.domain));
    let poll = poll_of(app, &status).await;
    (status, poll)
}

/// The poll `id` on `app` as it is now.
async fn poll_now(app: &App, id: Id) -> PollRecord {
    app.store
        .poll_by_id(id)
        .await
        .expect("poll_by_id")
        .expect("the poll is there")
}

/// `(votes per option, voters)` of the poll `id` on `app`.
async fn counts(app: &App, id: Id) -> (Vec<i64>, i64) {
    let p = poll_now(app, id).await;
    (p.votes, p.voters_count)
}

/// `who` votes for `choices` in the poll `id` on `app`.
async fn vote(app: &App, who: &AccountRecord, id: Id, choices: &[&str]) -> PollRecord {
    let choices: Vec<String> = choices.iter().map(|c| c.to_string()).collect();
    app.polls()
        .vote_in_poll(who, id, &choices)
        .await
        .expect("vote")
}

/// `me`'s notifications on `app`: kind and status.
async fn notifications(app: &App, me: &AccountRecord) -> Vec<(NotificationType, Option<Id>)> {
    let query = NotificationQuery {
        include_filtered: true,
        ..Default::default()
    };
    app.store
        .notifications_page(me.id, &query, Page::first(40))
        .await
        .expect("notifications")
        .into_iter()
        .map(|n| (n.kind, n.status_id))
        .collect()
}

/// `t` to the second, as ActivityPub timestamps carry it.
fn to_seconds(t: DateTime<Utc>) -> DateTime<Utc> {
    DateTime::from_timestamp(t.timestamp(), 0).expect("in range")
}

/// Delivers `activity` from `signer` on `from` to the shared inbox of `host`, signed as any
/// delivery (the inbox takes it: 202).
async fn deliver(from: &App, signer: &AccountRecord, host: &str, activity: &Value) {
    let sent = from
        .federation()
        .deliver(&Delivery {
            inbox: format!("https://{host}/inbox"),
            signer: signer.id,
            body: activity.to_string(),
            collection_sync: None,
        })
        .await
        .expect("delivered");
    assert_eq!(sent, Delivered::Yes);
}

/// `voter`'s vote `n` (on `b.test`) for `name` in alice's status `question` on `a.test`, as
/// Mastodon sends one.
fn vote_activity(voter: &str, n: u32, question: &str, name: &str) -> Value {
    vocab::vote(
        &format!("https://b.test/users/{voter}#votes/{n}"),
        &format!("https://b.test/users/{voter}"),
        "https://a.test/users/alice",
        question,
        name,
    )
}

/// The counts of the `Question` an activity carries, per option.
fn totals(activity: &Value) -> Vec<u64> {
    let object = &activity["object"];
    let options = object
        .get("oneOf")
        .or_else(|| object.get("anyOf"))
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("no options in {activity}"));
    options
        .iter()
        .map(|o| o["replies"]["totalItems"].as_u64().expect("a count"))
        .collect()
}

#[tokio::test]
async fn a_local_poll_reaches_the_other_server_with_its_options_and_end() {
    let (a, b, recorder, alice, _bob, alice_at_b) = bob_follows_alice().await;
    let (status, poll) = poll_post(&a, &alice, &["tea", "coffee"], false).await;
    let (several, _) = poll_post(&a, &alice, &["red", "green", "blue"], true).await;
    drain(&[&a, &b]).await;

    let uri = note_uri("a.test", "alice", status.id);
    let (copy, copy_poll) = copy_of(&b, &uri).await;
    assert_eq!(copy.account_id, alice_at_b.id);
    assert_eq!(
        copy_poll,
        PollRecord {
            id: copy_poll.id,
            status_id: copy.id,
            account_id: alice_at_b.id,
            options: vec!["tea".into(), "coffee".into()],
            votes: vec![0, 0],
            voters_count: 0,
            multiple: false,
            hide_totals: false,
            expires_at: poll.expires_at.map(to_seconds),
            created_at: copy.created_at,
        },
        "the copy has the poll's options, counts and end"
    );
    let (_, several_copy) = copy_of(&b, &note_uri("a.test", "alice", several.id)).await;
    assert!(several_copy.multiple, "anyOf is several choices");
    assert_eq!(several_copy.options, vec!["red", "green", "blue"]);

    // What went out: a Create of a Question.
    let created = recorder.delivered("b.test", "Create");
    let create = created
        .iter()
        .find(|c| c["object"]["id"] == uri.as_str())
        .expect("the poll's Create reached b");
    assert_eq!(create["object"]["type"], "Question");
    assert_eq!(create["object"]["oneOf"][1]["name"], "coffee");
    assert_eq!(totals(create), vec![0, 0]);
    let end = poll.expires_at.map(vocab::timestamp).expect("an end");
    assert_eq!(create["object"]["endTime"], end.as_str());
    assert!(create["object"].get("closed").is_none(), "not ended");
    assert_eq!(create["object"]["votersCount"], 0);

    // The status's document and the outbox carry it too.
    let parts = a.note_parts(status.id).await.unwrap().expect("a note");
    let doc = a.render_ap_note_document(&parts);
    assert_eq!(doc["type"], "Question");
    assert_eq!(doc["@context"][1]["votersCount"], "toot:votersCount");
    let outbox = a
        .render_ap_collection(Collection::Outbox, &alice, true, None)
        .await
        .expect("outbox");
    let items = outbox["orderedItems"].as_array().expect("items");
    let listed = items
        .iter()
        .find(|i| i["object"]["id"] == uri.as_str())
        .expect("the poll in the outbox");
    assert_eq!(listed["object"]["type"], "Question");
    assert_eq!(listed["object"]["oneOf"][0]["name"], "tea");
}

#[tokio::test]
async fn a_remote_vote_counts_and_the_new_totals_reach_the_voters_server() {
    let (a, b, recorder, alice, bob, alice_at_b) = bob_follows_alice().await;
    let carol = account(&a, "carol").await;
    let (status, poll) = poll_post(&a, &alice, &["tea", "coffee"], false).await;
    drain(&[&a, &b]).await;
    let uri = note_uri("a.test", "alice", status.id);
    let (copy, copy_poll) = copy_of(&b, &uri).await;
    // bob stops following: b now hears of the poll only as its voter's server.
    b.relationships()
        .unfollow(&bob, alice_at_b.id)
        .await
        .expect("unfollow");
    drain(&[&a, &b]).await;
    // A vote on a.test b does not hear of.
    vote(&a, &carol, poll.id, &["0"]).await;
    drain(&[&a, &b]).await;
    assert_eq!(counts(&b, copy_poll.id).await, (vec![0, 0], 0));

    // bob votes on b: counted there at once, then sent to alice.
    let after = vote(&b, &bob, copy_poll.id, &["1"]).await;
    assert_eq!((after.votes.clone(), after.voters_count), (vec![0, 1], 1));
    drain(&[&a, &b]).await;

    let votes = recorder.delivered("a.test", "Create");
    let sent = votes
        .iter()
        .find(|v| v["object"]["inReplyTo"] == uri.as_str())
        .expect("bob's vote went to a");
    let vote_id = format!("https://b.test/users/bob#votes/{}/1", copy_poll.id);
    assert_eq!(
        sent,
        &json!({
            "@context": vocab::note_context(),
            "id": format!("{vote_id}/activity"),
            "type": "Create",
            "actor": "https://b.test/users/bob",
            "to": "https://a.test/users/alice",
            "object": {
                "id": vote_id,
                "type": "Note",
                "name": "coffee",
                "attributedTo": "https://b.test/users/bob",
                "inReplyTo": uri,
                "to": "https://a.test/users/alice",
            },
        })
    );
    assert_eq!(
        counts(&a, poll.id).await,
        (vec![1, 1], 2),
        "alice sees bob's vote counted"
    );
    let bob_at_a = remote(&a, "bob", "b.test").await;
    assert_eq!(
        a.store.poll_votes_of(poll.id, bob_at_a.id).await.unwrap(),
        vec![1]
    );

    // The new totals went back to bob's server, his own vote kept there.
    let updates = recorder.delivered("b.test", "Update");
    let update = updates.last().expect("an Update reached b");
    assert_eq!(update["object"]["id"], uri.as_str());
    assert_eq!(totals(update), vec![1, 1]);
    assert_eq!(update["object"]["votersCount"], 2);
    assert_eq!(counts(&b, copy_poll.id).await, (vec![1, 1], 2));
    let seen = b
        .render_poll_for(&poll_now(&b, copy_poll.id).await, Some(&bob))
        .await
        .expect("poll");
    assert_eq!((seen.voted, seen.own_votes), (Some(true), Some(vec![1])));
    assert!(
        b.store.status_edits(copy.id).await.unwrap().is_empty(),
        "new totals are no edit"
    );
}

#[tokio::test]
async fn a_vote_for_several_options_counts_each() {
    let (a, b, recorder, alice, bob, _) = bob_follows_alice().await;
    let (status, poll) = poll_post(&a, &alice, &["red", "green", "blue"], true).await;
    drain(&[&a, &b]).await;
    let (_, copy_poll) = copy_of(&b, &note_uri("a.test", "alice", status.id)).await;
    vote(&b, &bob, copy_poll.id, &["2", "0"]).await;
    drain(&[&a, &b]).await;
    let names: Vec<Value> = recorder
        .delivered("a.test", "Create")
        .iter()
        .map(|c| c["object"]["name"].clone())
        .collect();
    assert_eq!(names.len(), 2, "one Create per choice: {names:?}");
    assert!(names.contains(&json!("red")) && names.contains(&json!("blue")));
    assert_eq!(
        counts(&a, poll.id).await,
        (vec![1, 0, 1], 1),
        "both choices counted, one voter"
    );
    assert_eq!(counts(&b, copy_poll.id).await, (vec![1, 0, 1], 1));
    let update = recorder.delivered("b.test", "Update");
    let update = update.last().expect("the totals went to b");
    assert!(update["object"].get("oneOf").is_none());
    assert_eq!(totals(update), vec![1, 0, 1]);
}

#[tokio::test]
async fn votes_that_cannot_count_change_nothing() {
    let (a, b, recorder, alice, bob, _) = bob_follows_alice().await;
    let carol = account(&b, "carol").await;
    let (status, poll) = poll_post(&a, &alice, &["tea", "coffee"], false).await;
    drain(&[&a, &b]).await;
    let uri = note_uri("a.test", "alice", status.id);
    let (_, copy_poll) = copy_of(&b, &uri).await;
    vote(&b, &bob, copy_poll.id, &["0"]).await;
    drain(&[&a, &b]).await;
    assert_eq!(counts(&a, poll.id).await, (vec![1, 0], 1));
    let updates = recorder.delivered("b.test", "Update").len();

    // A second choice in a single-choice poll, a title the poll does not have.
    deliver(&b, &bob, "a.test", &vote_activity("bob", 1, &uri, "coffee")).await;
    deliver(
        &b,
        &carol,
        "a.test",
        &vote_activity("carol", 2, &uri, "milk"),
    )
    .await;
    drain(&[&a, &b]).await;
    assert_eq!(counts(&a, poll.id).await, (vec![1, 0], 1));
    let carol_at_a = remote(&a, "carol", "b.test").await;
    assert!(
        a.store
            .poll_votes_of(poll.id, carol_at_a.id)
            .await
            .unwrap()
            .is_empty(),
        "an unknown title is no vote"
    );
    // The poll ends: a vote after it is not counted.
    let ended = a.now() - Duration::seconds(1);
    a.store
        .set_poll_tally(poll.id, &[1, 0], 1, Some(ended))
        .await
        .unwrap();
    deliver(
        &b,
        &carol,
        "a.test",
        &vote_activity("carol", 3, &uri, "tea"),
    )
    .await;
    drain(&[&a, &b]).await;
    assert_eq!(counts(&a, poll.id).await, (vec![1, 0], 1));
    assert_eq!(
        a.store.poll_voters(poll.id).await.unwrap(),
        vec![remote(&a, "bob", "b.test").await.id],
        "bob alone voted"
    );
    assert_eq!(
        recorder.delivered("b.test", "Update").len(),
        updates,
        "nothing counted, no new totals sent"
    );
    for n in 1..=3 {
        let voter = if n == 1 { "bob" } else { "carol" };
        let id = format!("https://b.test/users/{voter}#votes/{n}");
        assert!(a.store.status_by_uri(&id).await.unwrap().is_none());
    }
}

#[tokio::test]
async fn a_vote_is_never_a_status() {
    let (a, b, _recorder, alice, bob, _) = bob_follows_alice().await;
    let (status, poll) = poll_post(&a, &alice, &["tea", "coffee"], false).await;
    drain(&[&a, &b]).await;
    let uri = note_uri("a.test", "alice", status.id);
    // An empty `content` is no content, as an absent one.
    let mut activity = vote_activity("bob", 7, &uri, "tea");
    activity["object"]["content"] = json!("");
    deliver(&b, &bob, "a.test", &activity).await;
    drain(&[&a, &b]).await;
    assert_eq!(counts(&a, poll.id).await, (vec![1, 0], 1));
    assert!(
        a.store
            .status_by_uri("https://b.test/users/bob#votes/7")
            .await
            .unwrap()
            .is_none(),
        "the vote is not stored as a status"
    );
    let now = a.store.status_by_id(status.id).await.unwrap().unwrap();
    assert_eq!(now.replies_count, 0, "nor counted as a reply");
    let bob_at_a = remote(&a, "bob", "b.test").await;
    assert_eq!(bob_at_a.statuses_count, 0);
    assert_eq!(
        notifications(&a, &alice).await,
        vec![(NotificationType::Follow, None)],
        "alice is told of bob's follow, of no vote"
    );
}

#[tokio::test]
async fn new_totals_keep_a_local_voters_choice_and_so_does_an_edit_keeping_the_poll() {
    let (a, b, recorder, alice, bob, _) = bob_follows_alice().await;
    let dave = account(&a, "dave").await;
    let (status, poll) = poll_post(&a, &alice, &["tea", "coffee"], false).await;
    drain(&[&a, &b]).await;
    let uri = note_uri("a.test", "alice", status.id);
    let (copy, copy_poll) = copy_of(&b, &uri).await;
    vote(&b, &bob, copy_poll.id, &["0"]).await;
    drain(&[&a, &b]).await;

    // A vote on a.test: its totals reach b, bob's own vote stays.
    vote(&a, &dave, poll.id, &["1"]).await;
    drain(&[&a, &b]).await;
    let update = recorder.delivered("b.test", "Update");
    assert_eq!(totals(update.last().expect("new totals")), vec![1, 1]);
    assert_eq!(counts(&b, copy_poll.id).await, (vec![1, 1], 2));
    let seen = b
        .render_poll_for(&poll_now(&b, copy_poll.id).await, Some(&bob))
        .await
        .unwrap();
    assert_eq!((seen.voted, seen.own_votes), (Some(true), Some(vec![0])));

    // alice edits her text, keeping the poll: bob's vote stays, the edit is in the history.
    let edit = StatusChanges {
        text: "which one, really?".into(),
        poll: Some(json!({"options": ["tea", "coffee"], "expires_in": 600})),
        ..Default::default()
    };
    a.edits()
        .edit_status(&alice, status.id, edit)
        .await
        .expect("edit");
    drain(&[&a, &b]).await;
    let (edited, kept) = copy_of(&b, &uri).await;
    assert!(edited.content.contains("really"), "{}", edited.content);
    assert_eq!(kept.id, copy_poll.id, "the same poll");
    assert_eq!((kept.votes, kept.voters_count), (vec![1, 1], 2));
    assert_eq!(
        b.store.poll_votes_of(copy_poll.id, bob.id).await.unwrap(),
        vec![0]
    );
    let history = b.store.status_edits(copy.id).await.unwrap();
    assert_eq!(history.len(), 2);
    let options = Some(vec!["tea".to_string(), "coffee".to_string()]);
    assert!(history.iter().all(|e| e.poll_options == options));
}

#[tokio::test]
async fn an_edit_changing_the_options_replaces_the_remote_poll() {
    let (a, b, _recorder, alice, bob, _) = bob_follows_alice().await;
    let (status, _) = poll_post(&a, &alice, &["tea", "coffee"], false).await;
    drain(&[&a, &b]).await;
    let uri = note_uri("a.test", "alice", status.id);
    let (copy, copy_poll) = copy_of(&b, &uri).await;
    vote(&b, &bob, copy_poll.id, &["0"]).await;
    drain(&[&a, &b]).await;

    let edit = StatusChanges {
        text: "which one?".into(),
        poll: Some(json!({"options": ["tea", "coffee", "water"], "expires_in": 900})),
        ..Default::default()
    };
    a.edits()
        .edit_status(&alice, status.id, edit)
        .await
        .expect("edit");
    drain(&[&a, &b]).await;
    let (_, replaced) = copy_of(&b, &uri).await;
    assert_ne!(replaced.id, copy_poll.id, "a new poll");
    assert_eq!(replaced.options, vec!["tea", "coffee", "water"]);
    assert_eq!((replaced.votes, replaced.voters_count), (vec![0, 0, 0], 0));
    assert!(
        b.store
            .poll_votes_of(replaced.id, bob.id)
            .await
            .unwrap()
            .is_empty(),
        "voting starts over"
    );
    let history: Vec<Option<Vec<String>>> = b
        .store
        .status_edits(copy.id)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.poll_options)
        .collect();
    let strings = |v: &[&str]| Some(v.iter().map(|s| s.to_string()).collect());
    assert_eq!(
        history,
        vec![
            strings(&["tea", "coffee"]),
            strings(&["tea", "coffee", "water"])
        ]
    );
}

#[tokio::test]
async fn a_polls_end_goes_out_closed_and_its_voters_are_told() {
    let (a, b, recorder, alice, bob, _) = bob_follows_alice().await;
    let (status, poll) = poll_post(&a, &alice, &["tea", "coffee"], false).await;
    drain(&[&a, &b]).await;
    let uri = note_uri("a.test", "alice", status.id);
    let (copy, copy_poll) = copy_of(&b, &uri).await;
    vote(&b, &bob, copy_poll.id, &["1"]).await;
    drain(&[&a, &b]).await;

    // The poll ends (as if its ten minutes had passed) and its close job runs.
    let ended = a.now() - Duration::seconds(2);
    a.store
        .set_poll_tally(poll.id, &[0, 1], 1, Some(ended))
        .await
        .unwrap();
    let payload = json!({"poll_id": poll.id.to_string()});
    a.run_close_poll(&payload).await.expect("close_poll");
    drain(&[&a, &b]).await;

    let updates = recorder.delivered("b.test", "Update");
    let closing = updates.last().expect("the end went to b");
    let end = vocab::timestamp(ended);
    assert_eq!(closing["object"]["closed"], end.as_str());
    assert_eq!(closing["object"]["endTime"], end.as_str());
    assert_eq!(totals(closing), vec![0, 1]);
    let closed = poll_now(&b, copy_poll.id).await;
    assert_eq!(closed.expires_at, Some(to_seconds(ended)));
    let seen = b.render_poll_for(&closed, Some(&bob)).await.unwrap();
    assert!(seen.expired);
    // Each side tells its own: alice of her poll's end, bob (through the job the sooner end
    // got on b) of the end of the poll he voted in.
    assert!(
        notifications(&a, &alice)
            .await
            .contains(&(NotificationType::Poll, Some(status.id)))
    );
    assert_eq!(
        notifications(&b, &bob).await,
        vec![(NotificationType::Poll, Some(copy.id))]
    );
    // Run again, it tells no one twice.
    b.run_close_poll(&json!({"poll_id": copy_poll.id.to_string()}))
        .await
        .expect("close_poll again");
    assert_eq!(notifications(&b, &bob).await.len(), 1);
}
