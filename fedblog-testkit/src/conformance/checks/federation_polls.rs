//! Polls across servers, with the kit playing the remote server: a local poll goes out as a
//! `Question` with its options and end; a remote `Question` shows as a status with its poll
//! and totals, and its `Update` refreshes them; a local vote in a remote poll reaches the
//! poll's author as a `Note` whose `name` is the option chosen; and such a `Note` from a
//! remote account counts as a vote in a local poll, never as a reply.

use chrono::{Duration as Span, Utc};
use serde_json::{Value, json};

use fedblog_core::api::polls::{get_poll::GetPoll, vote_poll::VotePoll};
use fedblog_core::api::statuses::get_context::GetContext;
use fedblog_core::federation::vocab::{self, PUBLIC};

use super::federation::{
    LocalActor, WAIT, delivered, json_of, mention, poll, remote_follows, setup,
};
use crate::check;
use crate::client::Body;
use crate::conformance::{Check, CheckResult, Cx, Failure, SetUp, User, path, str_of};
use crate::ensure;
use crate::peer::Peer;

/// The checks of this part of the federation area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "federation/polls/local-poll-as-question",
            "a local poll reaches a remote follower as a Create of a Question with the options as oneOf notes (anyOf when multiple) and an endTime",
            local_poll_as_question
        ),
        check!(
            "federation/polls/remote-question-shown",
            "a remote Question shows as a status with a poll: its options in order, their totals, votersCount, multiple and the end time",
            remote_question_shown
        ),
        check!(
            "federation/polls/vote-reaches-remote-author",
            "voting in a remote poll answers voted and own_votes and sends its author a signed Create of a Note named after the option, inReplyTo the Question",
            vote_reaches_remote_author
        ),
        check!(
            "federation/polls/remote-update-refreshes-totals",
            "a remote Update of a Question with new totals and `closed` changes the poll's counts and ends it",
            remote_update_refreshes_totals
        ),
        check!(
            "federation/polls/remote-vote-counted",
            "a remote Note named after an option and inReplyTo a local poll counts as that account's vote and is not a reply in the thread",
            remote_vote_counted
        ),
    ]
}

/// Posts a public poll as `user` (`marker` as its text): the status.
async fn local_poll(
    cx: &Cx,
    user: &User,
    marker: &str,
    options: &[&str],
) -> Result<Value, Failure> {
    cx.post_status_json(
        user,
        json!({
            "status": marker,
            "visibility": "public",
            "poll": {"options": options, "expires_in": 86_400, "multiple": false},
        }),
    )
    .await
}

/// The titles of a `Question`'s options (`oneOf` or `anyOf`), and whether it is multiple.
fn question_options(q: &Value) -> (Vec<String>, bool) {
    let (list, multiple) = match (&q["oneOf"], &q["anyOf"]) {
        (Value::Array(a), _) => (a, false),
        (_, Value::Array(a)) => (a, true),
        _ => return (Vec::new(), false),
    };
    let names = list
        .iter()
        .filter_map(|o| o["name"].as_str().map(str::to_string))
        .collect();
    (names, multiple)
}

/// A `Question` by `name` mentioning `user`: options `(title, votes)`, ending in a day.
fn question(
    peer: &Peer,
    name: &str,
    (user, actor): (&User, &LocalActor),
    marker: &str,
    options: &[(&str, u64)],
    voters: u64,
) -> Value {
    let content = format!("<p>@{} {marker}</p>", user.username);
    let mut q = peer.note(
        name,
        &content,
        &[PUBLIC],
        &[&actor.id],
        mention(actor, user),
    );
    q["type"] = json!("Question");
    q["oneOf"] = options
        .iter()
        .map(|(title, votes)| {
            json!({"type": "Note", "name": title,
                   "replies": {"type": "Collection", "totalItems": votes}})
        })
        .collect();
    q["votersCount"] = json!(voters);
    q["endTime"] = json!(vocab::timestamp(Utc::now() + Span::days(1)));
    peer.publish(&q);
    q
}

/// The remote actor `name` asks `user` a question (options `(title, votes)`): the Question
/// and the local status showing it.
async fn asked(
    cx: &Cx,
    (peer, user, actor): (&Peer, &User, &LocalActor),
    name: &str,
    marker: &str,
    options: &[(&str, u64)],
) -> Result<(Value, Value), Failure> {
    let voters = options.iter().map(|(_, v)| v).sum();
    let q = question(peer, name, (user, actor), marker, options, voters);
    let create = peer.activity(name, "Create", q.clone(), &[PUBLIC], &[&actor.id]);
    let (code, body) = peer.deliver(name, &actor.inbox, &create).await?;
    ensure!(
        (200..300).contains(&code),
        "the signed Create of the Question was answered {code}: {body}"
    );
    let n = super::federation::notification(cx, user, "mention", marker)
        .await?
        .ok_or_else(|| {
            Failure::Fail(format!(
                "the Question mentioning the user never notified within {WAIT:?}"
            ))
        })?;
    Ok((q, n["status"].clone()))
}

/// Whether a poll entity's `voters_count` is `n`, or null for a single-choice poll (Mastodon
/// gives the voters of multiple-choice polls only).
fn voters_ok(poll: &Value, n: i64) -> bool {
    poll["voters_count"] == n || (poll["voters_count"].is_null() && poll["multiple"] == false)
}

/// `(title, votes_count)` of each option of a poll entity.
fn tally(poll: &Value) -> Vec<(String, i64)> {
    poll["options"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|o| {
                    (
                        o["title"].as_str().unwrap_or_default().to_string(),
                        o["votes_count"].as_i64().unwrap_or(-1),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

async fn local_poll_as_question(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_lpoll").await?;
    let name = cx.unique("pq");
    remote_follows(&peer, &name, &actor)
        .await
        .setup("a remote account follows the user")?;
    let marker = cx.unique("question");
    let (a, b) = (cx.unique("yes"), cx.unique("no"));
    let status = local_poll(cx, &user, &marker, &[&a, &b]).await?;
    let create = delivered(&peer, "the Create of the poll", |d| {
        d.kind() == "Create"
            && d.signer == actor.id
            && d.object()["content"]
                .as_str()
                .is_some_and(|c| c.contains(&marker))
    })
    .await?;
    let q = create.object();
    ensure!(
        q["type"] == "Question",
        "the poll went out as a {}, not a Question",
        q["type"]
    );
    ensure!(q["id"] == status["uri"], "the Question's id is {}", q["id"]);
    let (names, multiple) = question_options(q);
    ensure!(
        names == [a.clone(), b.clone()] && !multiple,
        "the Question's oneOf options are {names:?} (multiple: {multiple}), not [{a:?}, {b:?}]: {q}"
    );
    ensure!(
        q["endTime"]
            .as_str()
            .is_some_and(|t| chrono::DateTime::parse_from_rfc3339(t).is_ok()),
        "the Question has no endTime: {}",
        q["endTime"]
    );
    Ok(())
}

async fn remote_question_shown(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_rpoll").await?;
    let name = cx.unique("rq");
    let marker = cx.unique("asked");
    let (a, b) = (cx.unique("tea"), cx.unique("coffee"));
    let (_, status) = asked(
        cx,
        (&peer, &user, &actor),
        &name,
        &marker,
        &[(&a, 3), (&b, 1)],
    )
    .await?;
    let poll = &status["poll"];
    ensure!(
        poll.is_object(),
        "the remote Question has no poll: {status}"
    );
    ensure!(
        tally(poll) == [(a.clone(), 3), (b.clone(), 1)],
        "the poll's options are {:?}, not [({a}, 3), ({b}, 1)]",
        tally(poll)
    );
    ensure!(
        poll["votes_count"] == 4 && voters_ok(poll, 4),
        "the poll counts {} votes by {} voters, not 4 by 4 (or null voters: single choice)",
        poll["votes_count"],
        poll["voters_count"]
    );
    ensure!(
        poll["multiple"] == false && poll["expired"] == false && poll["expires_at"].is_string(),
        "the poll is multiple {}, expired {}, ends {}",
        poll["multiple"],
        poll["expired"],
        poll["expires_at"]
    );
    Ok(())
}

async fn vote_reaches_remote_author(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_vote").await?;
    let name = cx.unique("rv");
    let (a, b) = (cx.unique("left"), cx.unique("right"));
    let (q, status) = asked(
        cx,
        (&peer, &user, &actor),
        &name,
        &cx.unique("choose"),
        &[(&a, 0), (&b, 0)],
    )
    .await
    .setup("a remote Question reaches the user")?;
    let poll_id = str_of(&status["poll"], "id").setup("reading the remote poll's id")?;
    let r = cx
        .send(
            "POST",
            &path::<VotePoll>(&[("id", &poll_id)]),
            Some(&user.token),
            Body::Json(json!({"choices": [1]})),
        )
        .await?;
    let answer = json_of(r, 200).await?;
    ensure!(
        answer["voted"] == true && answer["own_votes"] == json!([1]),
        "after voting the poll shows voted {} and own_votes {}",
        answer["voted"],
        answer["own_votes"]
    );
    let vote = delivered(&peer, "the vote", |d| {
        d.kind() == "Create"
            && d.signer == actor.id
            && d.object()["name"] == b.as_str()
            && vocab::first_str(&d.object()["inReplyTo"]) == q["id"].as_str()
    })
    .await?;
    let note = vote.object();
    ensure!(
        note["type"] == "Note",
        "the vote is a {}, not a Note",
        note["type"]
    );
    ensure!(
        vocab::first_str(&note["attributedTo"]) == Some(actor.id.as_str()),
        "the vote is attributed to {}",
        note["attributedTo"]
    );
    ensure!(
        peer.deliveries()
            .iter()
            .all(|d| !(d.kind() == "Create" && d.object()["name"] == a.as_str())),
        "the option not chosen was sent as a vote too"
    );
    Ok(())
}

async fn remote_update_refreshes_totals(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_rtally").await?;
    let name = cx.unique("ru");
    let (a, b) = (cx.unique("up"), cx.unique("down"));
    let (q, status) = asked(
        cx,
        (&peer, &user, &actor),
        &name,
        &cx.unique("count"),
        &[(&a, 1), (&b, 1)],
    )
    .await
    .setup("a remote Question reaches the user")?;
    let poll_id = str_of(&status["poll"], "id").setup("reading the remote poll's id")?;
    let mut changed = q.clone();
    let ended = vocab::timestamp(Utc::now() - Span::minutes(1));
    changed["oneOf"][0]["replies"]["totalItems"] = json!(5);
    changed["oneOf"][1]["replies"]["totalItems"] = json!(2);
    changed["votersCount"] = json!(7);
    changed["endTime"] = json!(ended);
    changed["closed"] = json!(ended);
    peer.publish(&changed);
    let update = peer.activity(&name, "Update", changed, &[PUBLIC], &[&actor.id]);
    let (code, body) = peer.deliver(&name, &actor.inbox, &update).await?;
    ensure!(
        (200..300).contains(&code),
        "the signed Update of the Question was answered {code}: {body}"
    );
    let url = path::<GetPoll>(&[("id", &poll_id)]);
    let want = [(a.clone(), 5), (b.clone(), 2)];
    let shown = poll(cx, &user, &url, |p| (tally(p) == want).then(|| p.clone())).await?;
    let shown = shown.ok_or_else(|| {
        Failure::Fail(format!(
            "the poll still counts {:?} after {WAIT:?}, not {want:?}",
            tally(&status["poll"])
        ))
    })?;
    ensure!(
        voters_ok(&shown, 7),
        "the poll's voters_count is {}, not 7 (or null: single choice)",
        shown["voters_count"]
    );
    ensure!(
        shown["expired"] == true,
        "the closed poll is not expired: {shown}"
    );
    Ok(())
}

async fn remote_vote_counted(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_rvote").await?;
    let name = cx.unique("rc");
    let (a, b) = (cx.unique("red"), cx.unique("blue"));
    let status = local_poll(cx, &user, &cx.unique("pick"), &[&a, &b]).await?;
    let uri = str_of(&status, "uri").setup("reading the status's uri")?;
    let poll_id = str_of(&status["poll"], "id").setup("reading the poll's id")?;
    let vote = json!({
        "id": peer.new_id(&name, "votes"),
        "type": "Note",
        "name": b,
        "attributedTo": peer.actor(&name),
        "inReplyTo": uri,
        "to": [actor.id],
    });
    let create = peer.activity(&name, "Create", vote, &[&actor.id], &[]);
    let (code, body) = peer.deliver(&name, &actor.inbox, &create).await?;
    ensure!(
        (200..300).contains(&code),
        "the signed vote was answered {code}: {body}"
    );
    let url = path::<GetPoll>(&[("id", &poll_id)]);
    let want = [(a.clone(), 0), (b.clone(), 1)];
    let counted = poll(cx, &user, &url, |p| (tally(p) == want).then(|| p.clone())).await?;
    let counted = counted.ok_or_else(|| {
        Failure::Fail(format!(
            "the remote vote for {b:?} was not counted within {WAIT:?}"
        ))
    })?;
    ensure!(
        counted["votes_count"] == 1 && voters_ok(&counted, 1),
        "the poll counts {} votes by {} voters, not 1 by 1 (or null voters: single choice)",
        counted["votes_count"],
        counted["voters_count"]
    );
    let r = cx
        .client
        .get(
            &path::<GetContext>(&[("id", &str_of(&status, "id")?)]),
            Some(&user.token),
        )
        .await?;
    let context = json_of(r, 200).await?;
    ensure!(
        context["descendants"].as_array().is_some_and(Vec::is_empty),
        "the vote shows as a reply in the poll's thread: {}",
        context["descendants"]
    );
    Ok(())
}
