//! Federation as the client API shows it, with the kit playing a remote server
//! ([`crate::peer::Peer`], on a loopback port the server must be able to reach): a remote
//! account's mention notifies and makes it known to lookups, a follow of it stays pending
//! until its `Accept`, its posts reach the follower's home timeline and the federated public
//! timeline, its likes notify and its deletions remove; the server's posts reach a remote
//! follower, addressed by visibility; and inbox POSTs that are unsigned, whose digest does not
//! match, or that change another actor's object change nothing.
//!
//! A remote server queues what it sends and receives, so these checks wait (up to
//! [`WAIT`]) for an effect to show, never a fixed time.

use std::time::Duration;

use serde_json::{Value, json};

use fedblog_core::api::accounts::{
    follow_account::FollowAccount, get_followers::GetFollowers,
    get_relationships::GetRelationships, lookup_account::LookupAccount,
    unfollow_account::UnfollowAccount,
};
use fedblog_core::api::follows::follow_by_uri::FollowByUri;
use fedblog_core::api::instance::instance_v2::InstanceV2;
use fedblog_core::api::notifications::list_notifications::ListNotifications;
use fedblog_core::api::statuses::{
    delete_status::DeleteStatus, edit_status::EditStatus, get_context::GetContext,
    get_status::GetStatus, reblog_status::ReblogStatus, status_history::GetStatusHistory,
};
use fedblog_core::api::timelines::{home_timeline::HomeTimeline, public_timeline::PublicTimeline};
use fedblog_core::api::well_known::webfinger::GetWebfinger;
use fedblog_core::federation::vocab::{self, ACTIVITY_JSON, Actor, PUBLIC};

use crate::check;
use crate::client::{Body, query};
use crate::conformance::{
    Check, CheckResult, Cx, Failure, SET_UP_FAILED, SetUp, User, path, str_of,
};
use crate::ensure;
use crate::peer::{Delivery, Peer};

/// How long an effect may take to show.
pub const WAIT: Duration = Duration::from_secs(20);

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "federation/actor/webfinger-and-document",
            "WebFinger names a local account's actor, whose ActivityStreams document has its inbox, followers collection and a public key it owns",
            webfinger_and_document
        ),
        check!(
            "federation/inbox/mention-notifies",
            "a signed Create of a remote Note mentioning a local account gives it a mention notification from the remote account (acct user@host)",
            mention_notifies
        ),
        check!(
            "federation/accounts/lookup-known-remote",
            "accounts/lookup finds a remote account the server has seen, by user@host",
            lookup_known_remote
        ),
        check!(
            "federation/follows/remote-pending-until-accept",
            "following a remote account sends it a signed Follow and stays requested until its Accept arrives, then is following",
            remote_follow_pending
        ),
        check!(
            "federation/follows/follow-by-url",
            "POST /api/v1/follows with the URL of a remote actor the server has never seen fetches it and sends it a signed Follow",
            follow_by_url
        ),
        check!(
            "federation/timelines/remote-post-in-home",
            "a public post of a followed remote account reaches the follower's home timeline and the federated public timeline",
            remote_post_in_home
        ),
        check!(
            "federation/follows/unfollow-sends-undo",
            "unfollowing a remote account sends it a signed Undo of the Follow",
            unfollow_sends_undo
        ),
        check!(
            "federation/delivery/post-reaches-remote-follower",
            "a remote Follow is answered with a signed Accept, the follower is listed, and a public post reaches it as a Create addressed to Public",
            post_reaches_follower
        ),
        check!(
            "federation/delivery/followers-only-addressing",
            "a followers-only post reaches a remote follower addressed to the followers collection and never to Public; a direct post to a local account never leaves",
            followers_only_addressing
        ),
        check!(
            "federation/inbox/like-notifies",
            "a signed Like of a local post gives its author a favourite notification from the remote account",
            like_notifies
        ),
        check!(
            "federation/inbox/delete-removes-status",
            "a signed Delete of a remote post removes it: the status is a 404 afterwards",
            delete_removes_status
        ),
        check!(
            "federation/threads/remote-reply-in-context",
            "a remote reply to a local post is among the post's descendants in its context, and its ancestor is the post",
            remote_reply_in_context
        ),
        check!(
            "federation/threads/local-reply-reaches-author",
            "a local reply to a remote post reaches the remote author as a Create whose note is inReplyTo the post",
            local_reply_reaches_author
        ),
        check!(
            "federation/boosts/remote-announce-notifies",
            "a signed Announce of a local post gives its author a reblog notification from the remote account",
            remote_announce_notifies
        ),
        check!(
            "federation/boosts/local-reblog-reaches-author",
            "reblogging a remote post sends its author a signed Announce of the post",
            local_reblog_reaches_author
        ),
        check!(
            "federation/edits/local-edit-sends-update",
            "editing a post sends its remote followers an Update of the note with the new text and an updated time",
            local_edit_sends_update
        ),
        check!(
            "federation/edits/remote-edit-keeps-history",
            "a remote author's Update of its note changes the status and keeps the earlier text in its history",
            remote_edit_keeps_history
        ),
        check!(
            "federation/delivery/local-delete-sends-delete",
            "deleting a post sends its remote followers a Delete of the note",
            local_delete_sends_delete
        ),
        check!(
            "federation/inbox/unsigned-refused",
            "an unsigned POST to an inbox is a 401 and changes nothing",
            unsigned_refused
        ),
        check!(
            "federation/inbox/bad-digest-refused",
            "a POST whose body does not match its signed digest is a 401 or 403 and changes nothing",
            bad_digest_refused
        ),
        check!(
            "federation/inbox/foreign-update-ignored",
            "an Update of a note by an actor that is not its author changes nothing",
            foreign_update_ignored
        ),
    ]
}

/// A local account as the fediverse sees it.
pub(super) struct LocalActor {
    pub(super) id: String,
    pub(super) inbox: String,
    pub(super) shared_inbox: String,
    pub(super) followers: String,
}

/// The server's domain (`GET /api/v2/instance`).
async fn domain(cx: &Cx) -> Result<String, Failure> {
    let r = cx.client.get(&path::<InstanceV2>(&[]), None).await?;
    r.expect(200)?;
    str_of(r.json()?, "domain")
}

/// The actor of `user`, found by WebFinger and fetched (signed) by the peer.
async fn local_actor(cx: &Cx, peer: &Peer, user: &User) -> Result<LocalActor, Failure> {
    let resource = format!("acct:{}@{}", user.username, domain(cx).await?);
    let url = format!(
        "{}?{}",
        path::<GetWebfinger>(&[]),
        query(&[("resource", &resource)])
    );
    let r = cx.client.get(&url, None).await?;
    r.expect(200)?;
    let jrd = r.json()?;
    let link = jrd["links"]
        .as_array()
        .and_then(|links| {
            links.iter().find(|l| {
                l["rel"] == "self"
                    && l["type"]
                        .as_str()
                        .is_some_and(|t| t == ACTIVITY_JSON || t.starts_with("application/ld+json"))
            })
        })
        .and_then(|l| l["href"].as_str())
        .ok_or_else(|| {
            Failure::Fail(format!(
                "WebFinger for {resource} has no self link of type {ACTIVITY_JSON}: {jrd}"
            ))
        })?
        .to_string();
    let doc = peer.fetch(&link).await?;
    let actor = Actor::from_json(&doc)
        .map_err(|e| Failure::Fail(format!("{link} is not an actor: {e}: {doc}")))?;
    ensure!(
        actor.id == link,
        "the actor at {link} says its id is {}",
        actor.id
    );
    ensure!(
        actor.preferred_username == user.username,
        "the actor's preferredUsername is {:?}, not {:?}",
        actor.preferred_username,
        user.username
    );
    let key = vocab::one_or_many(&doc["publicKey"])
        .into_iter()
        .next()
        .cloned()
        .unwrap_or_default();
    ensure!(
        vocab::first_str(&key["owner"]) == Some(actor.id.as_str()),
        "the actor's key is owned by {}, not by the actor",
        key["owner"]
    );
    let followers = actor
        .followers
        .clone()
        .ok_or_else(|| Failure::Fail(format!("the actor {link} has no followers collection")))?;
    Ok(LocalActor {
        shared_inbox: actor
            .shared_inbox
            .clone()
            .unwrap_or_else(|| actor.inbox.clone()),
        inbox: actor.inbox,
        id: actor.id,
        followers,
    })
}

/// A user and its actor, with the peer: the set-up of every check here.
pub(super) async fn setup(
    cx: &Cx,
    prefix: &str,
) -> Result<(std::sync::Arc<Peer>, User, LocalActor), Failure> {
    let peer = cx.peer().await?;
    let user = cx.user(prefix).await?;
    let actor = local_actor(cx, &peer, &user)
        .await
        .setup("finding the local account's actor (WebFinger, then its document)")?;
    Ok((peer, user, actor))
}

/// A mention tag of `actor`.
pub(super) fn mention(actor: &LocalActor, user: &User) -> Value {
    json!([{"type": "Mention", "href": actor.id, "name": format!("@{}", user.username)}])
}

/// The remote actor `name` posts a public note mentioning `user` (to Public, cc the user) to
/// the user's inbox: the note.
async fn post_mention(
    cx: &Cx,
    peer: &Peer,
    name: &str,
    user: &User,
    actor: &LocalActor,
    text: &str,
) -> Result<Value, Failure> {
    let content = format!(
        "<p><span class=\"h-card\"><a href=\"{}\">@{}</a></span> {text}</p>",
        actor.id, user.username
    );
    let note = peer.note(
        name,
        &content,
        &[PUBLIC],
        &[&actor.id],
        mention(actor, user),
    );
    let create = peer.activity(name, "Create", note.clone(), &[PUBLIC], &[&actor.id]);
    let (status, body) = peer.deliver(name, &actor.inbox, &create).await?;
    ensure!(
        (200..300).contains(&status),
        "the signed Create to {} was answered {status}: {body}",
        actor.inbox
    );
    let _ = cx;
    Ok(note)
}

/// Polls `GET path` as `user` until `found` picks something from the answer.
pub(super) async fn poll<T>(
    cx: &Cx,
    user: &User,
    url: &str,
    found: impl Fn(&Value) -> Option<T>,
) -> Result<Option<T>, Failure> {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let r = cx.client.get(url, Some(&user.token)).await?;
        r.expect(200)?;
        if let Some(t) = found(r.json()?) {
            return Ok(Some(t));
        }
        if tokio::time::Instant::now() >= deadline {
            return Ok(None);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The first element of a JSON array that `pick` accepts.
pub(super) fn first_of(v: &Value, pick: impl Fn(&Value) -> bool) -> Option<Value> {
    v.as_array()?.iter().find(|x| pick(x)).cloned()
}

/// Waits for `user`'s notification of `kind` whose status contains `marker`.
pub(super) async fn notification(
    cx: &Cx,
    user: &User,
    kind: &str,
    marker: &str,
) -> Result<Option<Value>, Failure> {
    let url = format!(
        "{}?{}",
        path::<ListNotifications>(&[]),
        query(&[("types[]", kind)])
    );
    poll(cx, user, &url, |v| {
        first_of(v, |n| {
            n["status"]["content"]
                .as_str()
                .is_some_and(|c| c.contains(marker))
        })
    })
    .await
}

/// The notifications of `user` now (any kind), as text, to look for a marker that must not be there.
async fn notifications_text(cx: &Cx, user: &User) -> Result<String, Failure> {
    let r = cx
        .client
        .get(&path::<ListNotifications>(&[]), Some(&user.token))
        .await?;
    r.expect(200)?;
    Ok(r.text.clone())
}

/// Makes the peer's actor `name` known to the server by mentioning `user`: the remote
/// account's id there.
async fn known_remote(
    cx: &Cx,
    peer: &Peer,
    name: &str,
    user: &User,
    actor: &LocalActor,
) -> Result<String, Failure> {
    let (_, n) = mentioned(cx, (peer, user, actor), name, &cx.unique("hello")).await?;
    str_of(&n["account"], "id").setup("reading the remote account's id")
}

/// Set-up: the remote actor `name` mentions `user` with `marker` and the mention notifies: the
/// note and the notification.
async fn mentioned(
    cx: &Cx,
    (peer, user, actor): (&Peer, &User, &LocalActor),
    name: &str,
    marker: &str,
) -> Result<(Value, Value), Failure> {
    let note = post_mention(cx, peer, name, user, actor, marker)
        .await
        .setup("a remote account mentions the user (signed Create)")?;
    let n = notification(cx, user, "mention", marker)
        .await
        .setup("waiting for the mention notification")?
        .ok_or_else(|| {
            Failure::NotRun(format!(
                "{SET_UP_FAILED}: the remote mention never notified within {WAIT:?}"
            ))
        })?;
    Ok((note, n))
}

/// The relationship of `user` to the account `id`.
async fn relationship(cx: &Cx, user: &User, id: &str) -> Result<Value, Failure> {
    let url = format!(
        "{}?{}",
        path::<GetRelationships>(&[]),
        query(&[("id[]", id)])
    );
    let r = cx.client.get(&url, Some(&user.token)).await?;
    r.expect(200)?;
    r.json()?
        .as_array()
        .and_then(|a| a.first())
        .cloned()
        .ok_or_else(|| Failure::Fail(format!("no relationship with {id}: {}", r.text)))
}

/// Waits until `user`'s relationship to `id` has `flag` true.
async fn wait_relationship(cx: &Cx, user: &User, id: &str, flag: &str) -> Result<bool, Failure> {
    let url = format!(
        "{}?{}",
        path::<GetRelationships>(&[]),
        query(&[("id[]", id)])
    );
    Ok(poll(cx, user, &url, |v| (v[0][flag] == true).then_some(()))
        .await?
        .is_some())
}

/// Waits for a delivery to the peer that `matches`, failing with `what` when none comes.
pub(super) async fn delivered(
    peer: &Peer,
    what: &str,
    matches: impl Fn(&Delivery) -> bool,
) -> Result<Delivery, Failure> {
    match peer.wait_for(WAIT, matches).await {
        Some(d) => Ok(d),
        None => {
            let refusals = peer.refusals();
            let seen: Vec<String> = peer
                .deliveries()
                .iter()
                .map(|d| format!("{} by {}", d.kind(), d.signer))
                .collect();
            Err(Failure::Fail(format!(
                "{what} never reached the peer within {WAIT:?} (it verified: {seen:?}; it refused: {refusals:?})"
            )))
        }
    }
}

/// `user` follows the remote account `id` (`POST /api/v1/accounts/:id/follow`): the answer.
async fn follow(cx: &Cx, user: &User, id: &str) -> Result<Value, Failure> {
    let r = cx
        .client
        .post(
            &path::<FollowAccount>(&[("id", id)]),
            Some(&user.token),
            Body::None,
        )
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// The remote actor `name` follows `actor` and the server accepts: the Follow.
pub(super) async fn remote_follows(
    peer: &Peer,
    name: &str,
    actor: &LocalActor,
) -> Result<Value, Failure> {
    let follow = peer.activity(name, "Follow", json!(actor.id), &[&actor.id], &[]);
    let (status, body) = peer.deliver(name, &actor.inbox, &follow).await?;
    ensure!(
        (200..300).contains(&status),
        "the signed Follow to {} was answered {status}: {body}",
        actor.inbox
    );
    let follow_id = follow["id"].clone();
    delivered(peer, "the Accept of the remote Follow", |d| {
        d.kind() == "Accept"
            && d.signer == actor.id
            && (d.object()["id"] == follow_id || d.object() == &follow_id)
    })
    .await?;
    Ok(follow)
}

async fn webfinger_and_document(cx: &Cx) -> CheckResult {
    let peer = cx.peer().await?;
    let user = cx.user("fed_actor").await?;
    let actor = local_actor(cx, &peer, &user).await?;
    ensure!(
        actor.inbox.starts_with("http"),
        "the actor's inbox {:?} is not a URL",
        actor.inbox
    );
    ensure!(
        actor.followers.starts_with("http"),
        "the followers collection {:?} is not a URL",
        actor.followers
    );
    Ok(())
}

async fn mention_notifies(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_mention").await?;
    let name = cx.unique("rm");
    let marker = cx.unique("mention");
    let note = post_mention(cx, &peer, &name, &user, &actor, &marker).await?;
    let n = notification(cx, &user, "mention", &marker)
        .await?
        .ok_or_else(|| Failure::Fail(format!("no mention notification within {WAIT:?}")))?;
    ensure!(
        n["account"]["acct"] == peer.handle(&name).as_str(),
        "the mention is from {}, not {}",
        n["account"]["acct"],
        peer.handle(&name)
    );
    ensure!(
        n["status"]["uri"] == note["id"],
        "the status's uri is {}, not the note's id {}",
        n["status"]["uri"],
        note["id"]
    );
    ensure!(
        n["status"]["visibility"] == "public",
        "the public note became {}",
        n["status"]["visibility"]
    );
    Ok(())
}

async fn lookup_known_remote(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_lookup").await?;
    let name = cx.unique("rl");
    let id = known_remote(cx, &peer, &name, &user, &actor).await?;
    let handle = peer.handle(&name);
    let url = format!(
        "{}?{}",
        path::<LookupAccount>(&[]),
        query(&[("acct", &handle)])
    );
    let r = cx.client.get(&url, Some(&user.token)).await?;
    r.expect(200)?;
    let account = r.json()?;
    ensure!(
        account["id"] == id.as_str(),
        "lookup of {handle} found {}, not the account {id}",
        account["id"]
    );
    ensure!(
        account["acct"] == handle.as_str(),
        "its acct is {}, not {handle}",
        account["acct"]
    );
    ensure!(
        account["username"] == name.as_str(),
        "its username is {}, not {name}",
        account["username"]
    );
    Ok(())
}

async fn remote_follow_pending(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_pending").await?;
    let name = cx.unique("rp");
    peer.set_manual(&name, true);
    let id = known_remote(cx, &peer, &name, &user, &actor).await?;
    let answer = follow(cx, &user, &id).await?;
    ensure!(
        answer["requested"] == true && answer["following"] == false,
        "a follow of a remote account is requested until accepted, yet the answer is {answer}"
    );
    let remote = peer.actor(&name);
    let follow = delivered(&peer, "the Follow", |d| {
        d.kind() == "Follow"
            && d.signer == actor.id
            && vocab::first_str(d.object()) == Some(remote.as_str())
    })
    .await?;
    let now = relationship(cx, &user, &id).await?;
    ensure!(
        now["requested"] == true && now["following"] == false,
        "before the Accept the relationship is {now}"
    );
    peer.accept(&follow.activity).await?;
    ensure!(
        wait_relationship(cx, &user, &id, "following").await?,
        "after the Accept the relationship is still {}",
        relationship(cx, &user, &id).await?
    );
    Ok(())
}

/// `user` follows the remote actor `name` (accepted at once): the remote account's id.
async fn followed_remote(
    cx: &Cx,
    peer: &Peer,
    name: &str,
    user: &User,
    actor: &LocalActor,
) -> Result<String, Failure> {
    let id = known_remote(cx, peer, name, user, actor).await?;
    follow(cx, user, &id)
        .await
        .setup("following the remote account")?;
    if !wait_relationship(cx, user, &id, "following")
        .await
        .setup("reading the relationship")?
    {
        return Err(Failure::NotRun(format!(
            "set-up failed: the follow of {} was not accepted within {WAIT:?}",
            peer.handle(name)
        )));
    }
    Ok(id)
}

async fn remote_post_in_home(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_home").await?;
    let name = cx.unique("rh");
    followed_remote(cx, &peer, &name, &user, &actor).await?;
    let marker = cx.unique("remote_post");
    let followers = format!("{}/followers", peer.actor(&name));
    let note = peer.note(
        &name,
        &format!("<p>{marker}</p>"),
        &[PUBLIC],
        &[&followers],
        json!([]),
    );
    let create = peer.activity(&name, "Create", note.clone(), &[PUBLIC], &[&followers]);
    let (status, body) = peer.deliver(&name, &actor.shared_inbox, &create).await?;
    ensure!(
        (200..300).contains(&status),
        "the Create to the shared inbox was answered {status}: {body}"
    );
    let has_note = |v: &Value| first_of(v, |s| s["uri"] == note["id"]);
    let home = poll(cx, &user, &path::<HomeTimeline>(&[]), has_note).await?;
    let home = home.ok_or_else(|| {
        Failure::Fail(format!(
            "the remote post never reached the follower's home timeline within {WAIT:?}"
        ))
    })?;
    ensure!(
        home["account"]["acct"] == peer.handle(&name).as_str(),
        "the post is by {}",
        home["account"]["acct"]
    );
    let public = format!(
        "{}?{}",
        path::<PublicTimeline>(&[]),
        query(&[("remote", "true")])
    );
    ensure!(
        poll(cx, &user, &public, has_note).await?.is_some(),
        "the remote public post is not in timelines/public?remote=true"
    );
    Ok(())
}

async fn unfollow_sends_undo(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_undo").await?;
    let name = cx.unique("ru");
    let id = followed_remote(cx, &peer, &name, &user, &actor).await?;
    let r = cx
        .client
        .post(
            &path::<UnfollowAccount>(&[("id", &id)]),
            Some(&user.token),
            Body::None,
        )
        .await?;
    r.expect(200)?;
    let remote = peer.actor(&name);
    delivered(&peer, "the Undo of the Follow", |d| {
        d.kind() == "Undo"
            && d.signer == actor.id
            && d.object()["type"] == "Follow"
            && vocab::first_str(&d.object()["object"]) == Some(remote.as_str())
    })
    .await?;
    Ok(())
}

async fn post_reaches_follower(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_deliver").await?;
    let name = cx.unique("rf");
    remote_follows(&peer, &name, &actor).await?;
    let handle = peer.handle(&name);
    let url = path::<GetFollowers>(&[("id", &user.id)]);
    ensure!(
        poll(cx, &user, &url, |v| first_of(v, |a| a["acct"]
            == handle.as_str()))
        .await?
        .is_some(),
        "the remote follower {handle} is not among the account's followers"
    );
    let marker = cx.unique("outbound");
    let status = cx
        .post_status(&user, &[("status", &marker), ("visibility", "public")])
        .await?;
    let create = delivered(&peer, "the Create of the public post", |d| {
        d.kind() == "Create"
            && d.object()["content"]
                .as_str()
                .is_some_and(|c| c.contains(&marker))
    })
    .await?;
    let note = create.object();
    ensure!(
        create.signer == actor.id,
        "the Create is signed by {}, not the author",
        create.signer
    );
    ensure!(
        note["id"] == status["uri"],
        "the note's id {} is not the status's uri {}",
        note["id"],
        status["uri"]
    );
    ensure!(
        vocab::first_str(&note["attributedTo"]) == Some(actor.id.as_str()),
        "the note is attributed to {}",
        note["attributedTo"]
    );
    let addressed: Vec<String> = [&note["to"], &note["cc"]]
        .iter()
        .flat_map(|v| vocab::uris(v))
        .collect();
    ensure!(
        addressed.iter().any(|a| vocab::is_public(a)),
        "the public post is not addressed to Public: {addressed:?}"
    );
    Ok(())
}

async fn followers_only_addressing(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_private").await?;
    let name = cx.unique("rq");
    remote_follows(&peer, &name, &actor).await?;
    let other = cx.user("fed_private_other").await?;
    let secret = cx.unique("direct");
    cx.post_status(
        &user,
        &[
            ("status", &format!("@{} {secret}", other.username)),
            ("visibility", "direct"),
        ],
    )
    .await?;
    let marker = cx.unique("private");
    cx.post_status(&user, &[("status", &marker), ("visibility", "private")])
        .await?;
    let create = delivered(&peer, "the Create of the followers-only post", |d| {
        d.kind() == "Create"
            && d.object()["content"]
                .as_str()
                .is_some_and(|c| c.contains(&marker))
    })
    .await?;
    let note = create.object();
    let addressed: Vec<String> = [
        &create.activity["to"],
        &create.activity["cc"],
        &note["to"],
        &note["cc"],
    ]
    .iter()
    .flat_map(|v| vocab::uris(v))
    .collect();
    ensure!(
        !addressed.iter().any(|a| vocab::is_public(a)),
        "a followers-only post is addressed to Public: {addressed:?}"
    );
    ensure!(
        vocab::uris(&note["to"]).contains(&actor.followers),
        "the followers-only note is not addressed to {}: to = {}",
        actor.followers,
        note["to"]
    );
    ensure!(
        !peer
            .deliveries()
            .iter()
            .any(|d| d.activity.to_string().contains(&secret)),
        "a direct post to a local account reached a server with no recipient on it"
    );
    Ok(())
}

async fn like_notifies(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_like").await?;
    let name = cx.unique("rk");
    let marker = cx.unique("liked");
    let status = cx
        .post_status(&user, &[("status", &marker), ("visibility", "public")])
        .await?;
    let uri = str_of(&status, "uri").setup("reading the status's uri")?;
    let like = peer.activity(&name, "Like", json!(uri), &[&actor.id], &[]);
    let (code, body) = peer.deliver(&name, &actor.inbox, &like).await?;
    ensure!(
        (200..300).contains(&code),
        "the signed Like was answered {code}: {body}"
    );
    let n = notification(cx, &user, "favourite", &marker)
        .await?
        .ok_or_else(|| Failure::Fail(format!("no favourite notification within {WAIT:?}")))?;
    ensure!(
        n["account"]["acct"] == peer.handle(&name).as_str(),
        "the favourite is from {}",
        n["account"]["acct"]
    );
    Ok(())
}

async fn delete_removes_status(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_delete").await?;
    let name = cx.unique("rd");
    let marker = cx.unique("deleted");
    let (note, n) = mentioned(cx, (&peer, &user, &actor), &name, &marker).await?;
    let id = str_of(&n["status"], "id").setup("reading the status id")?;
    let tombstone = json!({"id": note["id"], "type": "Tombstone"});
    let delete = peer.activity(&name, "Delete", tombstone, &[PUBLIC], &[]);
    let (code, body) = peer.deliver(&name, &actor.inbox, &delete).await?;
    ensure!(
        (200..300).contains(&code),
        "the signed Delete was answered {code}: {body}"
    );
    let url = path::<GetStatus>(&[("id", &id)]);
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let r = cx.client.get(&url, Some(&user.token)).await?;
        if r.status == 404 {
            return Ok(());
        }
        ensure!(
            tokio::time::Instant::now() < deadline,
            "the deleted remote status still answers {} after {WAIT:?}",
            r.status
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Sends `spoiled` (an inbox POST the server must refuse, carrying `marker`), expects one of
/// `statuses`, then proves it changed nothing: a signed mention sent after it arrives, and the
/// marker is nowhere in the user's notifications.
async fn refused_changes_nothing(
    cx: &Cx,
    (peer, user, actor): (&Peer, &User, &LocalActor),
    name: &str,
    marker: &str,
    sent: Result<(u16, String), String>,
    statuses: &[u16],
) -> CheckResult {
    let (code, body) = sent?;
    ensure!(
        statuses.contains(&code),
        "expected HTTP {statuses:?}, got {code}: {body}"
    );
    // What was sent after it and shows was processed after it.
    mentioned(cx, (peer, user, actor), name, &cx.unique("after")).await?;
    ensure!(
        !notifications_text(cx, user).await?.contains(marker),
        "the refused activity was applied anyway: its mention is in the notifications"
    );
    Ok(())
}

/// A Create of a note by `name` mentioning `user`, carrying `marker`, as bytes.
fn create_bytes(peer: &Peer, name: &str, user: &User, actor: &LocalActor, marker: &str) -> Vec<u8> {
    let note = peer.note(
        name,
        &format!("<p>@{} {marker}</p>", user.username),
        &[PUBLIC],
        &[&actor.id],
        mention(actor, user),
    );
    peer.activity(name, "Create", note, &[PUBLIC], &[&actor.id])
        .to_string()
        .into_bytes()
}

async fn unsigned_refused(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_unsigned").await?;
    let name = cx.unique("rn");
    let marker = cx.unique("unsigned");
    let body = create_bytes(&peer, &name, &user, &actor, &marker);
    let sent = peer.post(&actor.inbox, Vec::new(), body).await;
    refused_changes_nothing(cx, (&peer, &user, &actor), &name, &marker, sent, &[401]).await
}

async fn bad_digest_refused(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_digest").await?;
    let name = cx.unique("rg");
    let harmless = create_bytes(&peer, &name, &user, &actor, &cx.unique("signed"));
    let headers = peer.sign_post(&name, &actor.inbox, &harmless)?;
    let marker = cx.unique("swapped");
    let swapped = create_bytes(&peer, &name, &user, &actor, &marker);
    let sent = peer.post(&actor.inbox, headers, swapped).await;
    refused_changes_nothing(
        cx,
        (&peer, &user, &actor),
        &name,
        &marker,
        sent,
        &[401, 403],
    )
    .await
}

async fn foreign_update_ignored(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_foreign").await?;
    let (author, intruder) = (cx.unique("ra"), cx.unique("ri"));
    let marker = cx.unique("original");
    let (note, n) = mentioned(cx, (&peer, &user, &actor), &author, &marker).await?;
    let id = str_of(&n["status"], "id").setup("reading the status id")?;
    let hijack = cx.unique("hijacked");
    let mut changed = note.clone();
    changed["content"] = json!(format!("<p>{hijack}</p>"));
    changed["updated"] = json!(vocab::timestamp(chrono::Utc::now()));
    let update = peer.activity(&intruder, "Update", changed, &[PUBLIC], &[]);
    let (code, body) = peer.deliver(&intruder, &actor.inbox, &update).await?;
    ensure!(
        code < 500,
        "the Update by another actor was answered {code}: {body}"
    );
    // What was sent after it and shows was processed after it.
    mentioned(cx, (&peer, &user, &actor), &intruder, &cx.unique("after")).await?;
    let r = cx
        .client
        .get(&path::<GetStatus>(&[("id", &id)]), Some(&user.token))
        .await?;
    r.expect(200)?;
    let content = r.json()?["content"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    ensure!(
        !content.contains(&hijack),
        "another actor's Update changed the note: {content}"
    );
    ensure!(
        content.contains(&marker),
        "the note lost its text: {content}"
    );
    Ok(())
}

/// The Create of the note carrying `marker` that reached the peer.
async fn created(peer: &Peer, actor: &LocalActor, marker: &str) -> Result<Delivery, Failure> {
    delivered(peer, "the Create of the post", |d| {
        d.kind() == "Create"
            && d.signer == actor.id
            && d.object()["content"]
                .as_str()
                .is_some_and(|c| c.contains(marker))
    })
    .await
}

/// Answers a check's request as JSON, expecting `status`.
pub(super) async fn json_of(r: crate::client::Response, status: u16) -> Result<Value, Failure> {
    r.expect(status)?;
    Ok(r.json()?.clone())
}

async fn remote_reply_in_context(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_thread").await?;
    let name = cx.unique("rt");
    let status = cx
        .post_status(&user, &[("status", "a thread"), ("visibility", "public")])
        .await?;
    let uri = str_of(&status, "uri").setup("reading the status's uri")?;
    let marker = cx.unique("reply");
    let content = format!("<p>@{} {marker}</p>", user.username);
    let mut note = peer.note(
        &name,
        &content,
        &[PUBLIC],
        &[&actor.id],
        mention(&actor, &user),
    );
    note["inReplyTo"] = json!(uri);
    peer.publish(&note);
    let create = peer.activity(&name, "Create", note.clone(), &[PUBLIC], &[&actor.id]);
    let (code, body) = peer.deliver(&name, &actor.inbox, &create).await?;
    ensure!(
        (200..300).contains(&code),
        "the signed reply was answered {code}: {body}"
    );
    let url = path::<GetContext>(&[("id", &str_of(&status, "id")?)]);
    let found = poll(cx, &user, &url, |v| {
        first_of(&v["descendants"], |s| s["uri"] == note["id"])
    })
    .await?;
    let reply = found.ok_or_else(|| {
        Failure::Fail(format!(
            "the remote reply is not among the post's descendants within {WAIT:?}"
        ))
    })?;
    ensure!(
        reply["in_reply_to_id"] == status["id"],
        "the reply's in_reply_to_id is {}, not the post {}",
        reply["in_reply_to_id"],
        status["id"]
    );
    let up = cx
        .client
        .get(
            &path::<GetContext>(&[("id", &str_of(&reply, "id")?)]),
            Some(&user.token),
        )
        .await?;
    let up = json_of(up, 200).await?;
    ensure!(
        first_of(&up["ancestors"], |s| s["id"] == status["id"]).is_some(),
        "the post is not among the remote reply's ancestors: {}",
        up["ancestors"]
    );
    Ok(())
}

async fn local_reply_reaches_author(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_lreply").await?;
    let name = cx.unique("ro");
    let (note, n) = mentioned(cx, (&peer, &user, &actor), &name, &cx.unique("ask")).await?;
    let parent = str_of(&n["status"], "id").setup("reading the status id")?;
    let marker = cx.unique("answer");
    let text = format!("@{} {marker}", peer.handle(&name));
    cx.post_status(
        &user,
        &[
            ("status", text.as_str()),
            ("in_reply_to_id", parent.as_str()),
        ],
    )
    .await?;
    let create = created(&peer, &actor, &marker).await?;
    ensure!(
        vocab::first_str(&create.object()["inReplyTo"]) == note["id"].as_str(),
        "the reply's inReplyTo is {}, not the remote post {}",
        create.object()["inReplyTo"],
        note["id"]
    );
    Ok(())
}

async fn remote_announce_notifies(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_boosted").await?;
    let name = cx.unique("rb");
    let marker = cx.unique("boosted");
    let status = cx
        .post_status(&user, &[("status", &marker), ("visibility", "public")])
        .await?;
    let uri = str_of(&status, "uri").setup("reading the status's uri")?;
    let followers = format!("{}/followers", peer.actor(&name));
    let announce = peer.activity(
        &name,
        "Announce",
        json!(uri),
        &[PUBLIC],
        &[&actor.id, &followers],
    );
    let (code, body) = peer.deliver(&name, &actor.inbox, &announce).await?;
    ensure!(
        (200..300).contains(&code),
        "the signed Announce was answered {code}: {body}"
    );
    let n = notification(cx, &user, "reblog", &marker)
        .await?
        .ok_or_else(|| Failure::Fail(format!("no reblog notification within {WAIT:?}")))?;
    ensure!(
        n["account"]["acct"] == peer.handle(&name).as_str(),
        "the reblog is from {}",
        n["account"]["acct"]
    );
    Ok(())
}

async fn local_reblog_reaches_author(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_reblog").await?;
    let name = cx.unique("rr");
    let (note, n) = mentioned(cx, (&peer, &user, &actor), &name, &cx.unique("boost")).await?;
    let id = str_of(&n["status"], "id").setup("reading the status id")?;
    let r = cx
        .client
        .post(
            &path::<ReblogStatus>(&[("id", &id)]),
            Some(&user.token),
            Body::None,
        )
        .await?;
    r.expect(200)?;
    delivered(&peer, "the Announce of the remote post", |d| {
        d.kind() == "Announce"
            && d.signer == actor.id
            && vocab::first_str(d.object()).or(d.object()["id"].as_str()) == note["id"].as_str()
    })
    .await?;
    Ok(())
}

async fn local_edit_sends_update(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_ledit").await?;
    let name = cx.unique("re");
    remote_follows(&peer, &name, &actor).await?;
    let marker = cx.unique("before");
    let status = cx
        .post_status(&user, &[("status", &marker), ("visibility", "public")])
        .await?;
    created(&peer, &actor, &marker).await?;
    let edited = cx.unique("after");
    let r = cx
        .client
        .send(
            "PUT",
            &path::<EditStatus>(&[("id", &str_of(&status, "id")?)]),
            Some(&user.token),
            crate::client::form(&[("status", edited.as_str())]),
            &[],
        )
        .await?;
    r.expect(200)?;
    let update = delivered(&peer, "the Update of the edited post", |d| {
        d.kind() == "Update"
            && d.signer == actor.id
            && d.object()["content"]
                .as_str()
                .is_some_and(|c| c.contains(&edited))
    })
    .await?;
    ensure!(
        update.object()["id"] == status["uri"],
        "the Update is of {}, not the post {}",
        update.object()["id"],
        status["uri"]
    );
    ensure!(
        update.object()["updated"].is_string(),
        "the updated note has no `updated` time: {}",
        update.object()
    );
    Ok(())
}

async fn remote_edit_keeps_history(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_redit").await?;
    let name = cx.unique("rv");
    let first = cx.unique("first");
    let (note, n) = mentioned(cx, (&peer, &user, &actor), &name, &first).await?;
    let id = str_of(&n["status"], "id").setup("reading the status id")?;
    let second = cx.unique("second");
    let mut changed = note.clone();
    changed["content"] = json!(format!("<p>@{} {second}</p>", user.username));
    changed["updated"] = json!(vocab::timestamp(chrono::Utc::now()));
    peer.publish(&changed);
    let update = peer.activity(&name, "Update", changed, &[PUBLIC], &[&actor.id]);
    let (code, body) = peer.deliver(&name, &actor.inbox, &update).await?;
    ensure!(
        (200..300).contains(&code),
        "the signed Update was answered {code}: {body}"
    );
    let url = path::<GetStatus>(&[("id", &id)]);
    let shown = poll(cx, &user, &url, |v| {
        v["content"]
            .as_str()
            .is_some_and(|c| c.contains(&second))
            .then(|| v.clone())
    })
    .await?;
    let shown = shown.ok_or_else(|| {
        Failure::Fail(format!(
            "the status still shows its first text after {WAIT:?}"
        ))
    })?;
    ensure!(
        shown["edited_at"].is_string(),
        "the edited status has no edited_at: {}",
        shown["edited_at"]
    );
    let r = cx
        .client
        .get(&path::<GetStatusHistory>(&[("id", &id)]), Some(&user.token))
        .await?;
    let history = json_of(r, 200).await?;
    let texts: Vec<&str> = history
        .as_array()
        .map(|a| a.iter().filter_map(|e| e["content"].as_str()).collect())
        .unwrap_or_default();
    ensure!(
        texts.iter().any(|t| t.contains(&first)) && texts.iter().any(|t| t.contains(&second)),
        "the history does not hold both texts: {texts:?}"
    );
    Ok(())
}

async fn local_delete_sends_delete(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_ldelete").await?;
    let name = cx.unique("rx");
    remote_follows(&peer, &name, &actor).await?;
    let marker = cx.unique("doomed");
    let status = cx
        .post_status(&user, &[("status", &marker), ("visibility", "public")])
        .await?;
    created(&peer, &actor, &marker).await?;
    let r = cx
        .client
        .delete(
            &path::<DeleteStatus>(&[("id", &str_of(&status, "id")?)]),
            Some(&user.token),
        )
        .await?;
    r.expect(200)?;
    let uri = status["uri"].clone();
    delivered(&peer, "the Delete of the post", |d| {
        d.kind() == "Delete"
            && d.signer == actor.id
            && (d.object()["id"] == uri || d.object() == &uri)
    })
    .await?;
    Ok(())
}

async fn follow_by_url(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "fed_byurl").await?;
    let name = cx.unique("ry");
    let remote = peer.actor(&name);
    let r = cx
        .client
        .post(
            &path::<FollowByUri>(&[]),
            Some(&user.token),
            crate::client::form(&[("uri", remote.as_str())]),
        )
        .await?;
    let account = json_of(r, 200).await?;
    ensure!(
        account["acct"] == peer.handle(&name).as_str(),
        "following {remote} answered the account {}, not {}",
        account["acct"],
        peer.handle(&name)
    );
    delivered(&peer, "the Follow", |d| {
        d.kind() == "Follow"
            && d.signer == actor.id
            && vocab::first_str(d.object()) == Some(remote.as_str())
    })
    .await?;
    Ok(())
}
