//! Moderation across servers, two (or three) apps federating in one process through
//! [`InProcessNetwork`]: a suspension told to the servers with a copy (the actor's `Update`,
//! saying `suspended`) and lifted the same way, a suspension of ours that the account's own
//! server cannot lift, and reports forwarded as `Flag`s and filed from them.

use std::sync::Arc;

use http::StatusCode;

use crate::api::in_process::InProcessNetwork;
use crate::app::App;
use crate::pagination::Page;
use crate::services::federation::Federation;
use crate::services::moderation::{AccountAction, AccountActionType};
use crate::services::outbox::{FEDERATE, Federate, Outgoing};
use crate::services::relationships::FollowOptions;
use crate::services::reports::{NewReport, ReportQuery, ReportView};
use crate::services::server_blocks::DomainBlockChange;
use crate::services::statuses::NewStatus;
use crate::store::{
    AccountRecord, NotificationQuery, NotificationType, ReportCategory, Role, SuspensionOrigin,
};
use crate::test_support::{account, app, drain, member, post, post_new};

/// Apps on each domain, reaching one another.
fn servers<const N: usize>(domains: [&str; N]) -> [Arc<App>; N] {
    let net = InProcessNetwork::new();
    let apps = domains.map(|d| Arc::new(app(d).with_transport(net.transport())));
    for a in &apps {
        net.join(a);
    }
    apps
}

/// `name@host` as `app` knows it (looked up if need be).
async fn remote(app: &App, name: &str, host: &str) -> AccountRecord {
    app.federation()
        .resolve_handle(name, host)
        .await
        .expect("resolved")
}

/// The account as stored now.
async fn stored(app: &App, id: crate::Id) -> AccountRecord {
    app.store
        .account_by_id(id)
        .await
        .expect("read")
        .expect("the account")
}

fn act(kind: AccountActionType) -> AccountAction {
    AccountAction {
        kind,
        report_id: None,
        warning_preset_id: None,
        text: String::new(),
        send_email_notification: false,
    }
}

/// The open reports moderators of `app` see.
async fn open_reports(app: &App) -> Vec<ReportView> {
    app.reports()
        .reports_page(&ReportQuery::default(), Page::first(20))
        .await
        .expect("reports")
        .reports
}

/// `app`'s `federate` jobs due now, claimed (so they will not run): what they send, where.
async fn queued_federation(app: &App) -> Vec<Federate> {
    app.store
        .claim_jobs(
            "peek",
            app.now(),
            app.now() + chrono::Duration::hours(1),
            50,
        )
        .await
        .expect("claim")
        .into_iter()
        .filter(|j| j.kind == FEDERATE)
        .map(|j| serde_json::from_str(&j.payload).expect("a federate payload"))
        .collect()
}

/// `uri` fetched by `federation` (signed, as another server reads it).
async fn fetched(federation: &Federation<'_>, uri: &str) -> serde_json::Value {
    federation.fetch(uri).await.expect("fetched")
}

/// `a.test` with alice (display name "Alice A", a bio) and an admin, `b.test` with bob following
/// alice: the apps, alice, the admin, bob and alice as `b.test` knows her.
async fn bob_follows_alice() -> (
    Arc<App>,
    Arc<App>,
    AccountRecord,
    AccountRecord,
    AccountRecord,
    AccountRecord,
) {
    let [a, b] = servers(["a.test", "b.test"]);
    let mut alice = account(&a, "alice").await;
    alice.display_name = "Alice A".into();
    alice.note = "Gardener".into();
    a.store.update_account(&alice).await.expect("profile");
    let admin = member(&a, "boss", Role::Admin).await;
    let bob = account(&b, "bob").await;
    let alice_at_b = remote(&b, "alice", "a.test").await;
    b.relationships()
        .follow(&bob, alice_at_b.id, FollowOptions::default())
        .await
        .expect("follow");
    drain(&[&a, &b]).await;
    assert!(b.store.follows(bob.id, alice_at_b.id).await.unwrap());
    (a, b, alice, admin, bob, alice_at_b)
}

#[tokio::test]
async fn a_suspension_reaches_the_servers_with_a_copy_and_so_does_its_end() {
    let (a, b, alice, admin, bob, alice_at_b) = bob_follows_alice().await;
    assert_eq!(alice_at_b.display_name, "Alice A");

    a.moderation()
        .act(
            &admin,
            Role::Admin,
            alice.id,
            act(AccountActionType::Suspend),
        )
        .await
        .expect("suspended");
    let here = stored(&a, alice.id).await;
    assert!(here.is_suspended());
    assert_eq!(here.suspension_origin, Some(SuspensionOrigin::Local));
    drain(&[&a, &b]).await;

    // b suspends its copy, as its own server did, and keeps the profile it had.
    let copy = stored(&b, alice_at_b.id).await;
    assert!(copy.is_suspended(), "suspended at b too");
    assert_eq!(copy.suspension_origin, Some(SuspensionOrigin::Remote));
    assert!(copy.is_suspended_remotely());
    assert_eq!(copy.display_name, "Alice A", "the profile is kept");
    assert_eq!(
        b.accounts()
            .visible_account(alice_at_b.id)
            .await
            .unwrap_err()
            .status,
        StatusCode::GONE,
        "the client API answers 410 for it at b"
    );
    assert!(
        b.store.follows(bob.id, alice_at_b.id).await.unwrap(),
        "bob's follow stays, for when it is lifted"
    );

    // What a serves of alice meanwhile: her actor, suspended and bare; not her collections.
    let fed = b.federation();
    let actor = fetched(&fed, "https://a.test/users/alice").await;
    assert_eq!(actor["suspended"], true, "{actor}");
    assert_eq!(actor["@context"][2]["suspended"], "toot:suspended");
    assert_eq!(
        actor["name"], "alice",
        "the username stands in for the name"
    );
    assert_eq!(actor["summary"], "");
    assert_eq!(actor["attachment"], serde_json::json!([]));
    assert!(actor.get("icon").is_none() && actor.get("image").is_none());
    assert_eq!(actor["manuallyApprovesFollowers"], false);
    assert_eq!(actor["discoverable"], false);
    assert_eq!(actor["inbox"], "https://a.test/users/alice/inbox");
    assert!(
        actor["publicKey"]["publicKeyPem"]
            .as_str()
            .is_some_and(|k| k.contains("PUBLIC KEY")),
        "the key stays, to verify what it signs"
    );
    let outbox = fed
        .fetch("https://a.test/users/alice/outbox")
        .await
        .expect_err("the outbox is refused");
    assert!(outbox.message.contains("403"), "{}", outbox.message);

    // While suspended there, what alice sends b is dropped.
    post(&a, &here, "posted while suspended", None).await;
    drain(&[&a, &b]).await;
    let posts = b
        .store
        .account_statuses(
            alice_at_b.id,
            &crate::store::AccountStatusesFilter {
                visibilities: vec![crate::store::Visibility::Public],
                ..Default::default()
            },
            Page::first(5),
        )
        .await
        .unwrap();
    assert!(posts.is_empty(), "{posts:?}");

    // Lifted at a: lifted at b, the profile shown again.
    a.moderation().unsuspend(alice.id).await.expect("lifted");
    let here = stored(&a, alice.id).await;
    assert!(!here.is_suspended() && here.suspension_origin.is_none());
    drain(&[&a, &b]).await;
    let copy = stored(&b, alice_at_b.id).await;
    assert!(!copy.is_suspended(), "lifted at b too");
    assert_eq!(copy.suspension_origin, None);
    assert_eq!(copy.display_name, "Alice A");
    assert!(b.accounts().visible_account(alice_at_b.id).await.is_ok());
    let actor = fetched(&fed, "https://a.test/users/alice").await;
    assert!(actor.get("suspended").is_none(), "{actor}");
    assert_eq!(actor["name"], "Alice A");
    assert!(b.store.follows(bob.id, alice_at_b.id).await.unwrap());
}

#[tokio::test]
async fn a_suspension_of_ours_is_not_lifted_by_the_accounts_server() {
    let (a, b, alice, admin, _bob, alice_at_b) = bob_follows_alice().await;
    let b_admin = member(&b, "warden", Role::Admin).await;

    // b suspends its copy of alice; a knows nothing of it and sends a profile update.
    b.moderation()
        .act(
            &b_admin,
            Role::Admin,
            alice_at_b.id,
            act(AccountActionType::Suspend),
        )
        .await
        .expect("suspended at b");
    a.outbox().profile_updated(&alice).await.expect("update");
    drain(&[&a, &b]).await;
    let copy = stored(&b, alice_at_b.id).await;
    assert!(
        copy.is_suspended(),
        "an actor not suspended lifts nothing of ours"
    );
    assert_eq!(copy.suspension_origin, Some(SuspensionOrigin::Local));

    // Suspended by a as well, then lifted by a: b's own suspension stays.
    b.moderation()
        .unsuspend(alice_at_b.id)
        .await
        .expect("lifted at b");
    a.moderation()
        .act(
            &admin,
            Role::Admin,
            alice.id,
            act(AccountActionType::Suspend),
        )
        .await
        .expect("suspended at a");
    drain(&[&a, &b]).await;
    assert!(stored(&b, alice_at_b.id).await.is_suspended_remotely());
    b.moderation()
        .act(
            &b_admin,
            Role::Admin,
            alice_at_b.id,
            act(AccountActionType::Suspend),
        )
        .await
        .expect("suspended at b again");
    assert_eq!(
        stored(&b, alice_at_b.id).await.suspension_origin,
        Some(SuspensionOrigin::Local),
        "a moderator's suspension makes it ours"
    );
    a.moderation()
        .unsuspend(alice.id)
        .await
        .expect("lifted at a");
    drain(&[&a, &b]).await;
    let copy = stored(&b, alice_at_b.id).await;
    assert!(copy.is_suspended(), "still suspended at b");
    assert_eq!(copy.suspension_origin, Some(SuspensionOrigin::Local));
}

#[tokio::test]
async fn a_forwarded_report_is_a_flag_that_becomes_a_report_there() {
    let [a, b] = servers(["a.test", "b.test"]);
    let alice = account(&a, "alice").await;
    let bob = account(&b, "bob").await;
    let moderator = member(&b, "keeper", Role::Moderator).await;
    let bob_at_a = remote(&a, "bob", "b.test").await;
    a.relationships()
        .follow(&alice, bob_at_a.id, FollowOptions::default())
        .await
        .expect("follow");
    drain(&[&a, &b]).await;
    let hello = post(&b, &bob, "something rude", None).await;
    drain(&[&a, &b]).await;
    let copy = a
        .store
        .status_by_uri(&format!("https://b.test/users/bob/statuses/{}", hello.id))
        .await
        .unwrap()
        .expect("a has bob's post");

    // Not forwarded: b hears nothing.
    a.reports()
        .file_report(
            &alice,
            NewReport {
                account_id: bob_at_a.id.to_string(),
                comment: "kept here".into(),
                ..Default::default()
            },
            &[Role::Moderator, Role::Admin, Role::Owner],
        )
        .await
        .expect("filed");
    drain(&[&a, &b]).await;
    assert!(open_reports(&b).await.is_empty());

    // Forwarded: a Flag from a's instance actor, filed at b.
    let filed = a
        .reports()
        .file_report(
            &alice,
            NewReport {
                account_id: bob_at_a.id.to_string(),
                status_ids: vec![copy.id.to_string()],
                comment: "Please look at this".into(),
                forward: true,
                category: Some("spam".into()),
                ..Default::default()
            },
            &[Role::Moderator, Role::Admin, Role::Owner],
        )
        .await
        .expect("filed");
    assert!(filed.report.forwarded);
    let flag_id = format!("https://a.test/actor#flags/{}", filed.report.id);
    assert_eq!(filed.report.uri.as_deref(), Some(flag_id.as_str()));
    drain(&[&a, &b]).await;
    let there = open_reports(&b).await;
    assert_eq!(there.len(), 1, "{there:?}");
    let r = &there[0].report;
    assert_eq!(r.target_account_id, bob.id);
    assert_eq!(r.status_ids, vec![hello.id]);
    assert_eq!(r.comment, "Please look at this");
    assert_eq!(
        r.category,
        ReportCategory::Other,
        "a Flag carries no category"
    );
    assert_eq!(r.uri.as_deref(), Some(flag_id.as_str()));
    assert!(!r.forwarded);
    let reporter = &there[0].account.account;
    assert_eq!(reporter.uri.as_deref(), Some("https://a.test/actor"));
    assert_eq!(reporter.domain.as_deref(), Some("a.test"));
    let told = b
        .store
        .notifications_page(moderator.id, &NotificationQuery::default(), Page::first(5))
        .await
        .unwrap();
    assert!(
        told.iter()
            .any(|n| n.kind == NotificationType::AdminReport && n.subject_id == Some(r.id)),
        "b's moderators are told: {told:?}"
    );

    // Reports from a server whose domain block rejects them are dropped.
    b.server_blocks()
        .block_domain(
            "a.test",
            DomainBlockChange {
                severity: Some("noop".into()),
                reject_reports: Some(true),
                ..Default::default()
            },
        )
        .await
        .expect("blocked");
    a.reports()
        .file_report(
            &alice,
            NewReport {
                account_id: bob_at_a.id.to_string(),
                comment: "again".into(),
                forward: true,
                ..Default::default()
            },
            &[Role::Moderator],
        )
        .await
        .expect("filed");
    drain(&[&a, &b]).await;
    assert_eq!(
        open_reports(&b).await.len(),
        1,
        "the second Flag was dropped"
    );
}

#[tokio::test]
async fn a_flag_goes_to_the_servers_asked_of_the_accounts_replied_to() {
    let [a, b, c] = servers(["a.test", "b.test", "c.test"]);
    let alice = account(&a, "alice").await;
    let bob = account(&b, "bob").await;
    let carol = account(&c, "carol").await;
    let carol_post = post(&c, &carol, "a question", None).await;
    let bob_at_a = remote(&a, "bob", "b.test").await;
    a.relationships()
        .follow(&alice, bob_at_a.id, FollowOptions::default())
        .await
        .expect("follow");
    drain(&[&a, &b, &c]).await;
    let carol_post_at_b = b
        .federation()
        .fetch(&format!(
            "https://c.test/users/carol/statuses/{}",
            carol_post.id
        ))
        .await
        .expect("fetched");
    assert_eq!(carol_post_at_b["type"], "Note");
    let parent = b
        .fetch_remote_note(
            carol_post_at_b["id"].as_str().unwrap(),
            crate::services::federation_runner::ThreadReach::Fetched { depth: 0 },
        )
        .await
        .unwrap()
        .expect("stored at b");
    let reply = post_new(
        &b,
        &bob,
        NewStatus {
            text: "@carol@c.test rude answer".into(),
            in_reply_to_id: Some(parent.id),
            ..Default::default()
        },
    )
    .await;
    drain(&[&a, &b, &c]).await;
    let reply_at_a = a
        .store
        .status_by_uri(&format!("https://b.test/users/bob/statuses/{}", reply.id))
        .await
        .unwrap()
        .expect("a has bob's reply");
    assert!(
        reply_at_a.in_reply_to_account_id.is_some(),
        "{reply_at_a:?}"
    );

    let report = |domains: Vec<&str>| NewReport {
        account_id: bob_at_a.id.to_string(),
        status_ids: vec![reply_at_a.id.to_string()],
        comment: "rude".into(),
        forward: true,
        forward_to_domains: domains.into_iter().map(str::to_string).collect(),
        ..Default::default()
    };
    // Only the server of the account replied to: not the reported account's.
    let filed = a
        .reports()
        .file_report(&alice, report(vec!["c.test"]), &[Role::Moderator])
        .await
        .expect("filed");
    assert!(!filed.report.forwarded, "b was not asked");
    let jobs = queued_federation(&a).await;
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    assert_eq!(
        jobs[0].activity,
        Outgoing::Flag {
            report: filed.report.id
        }
    );
    assert_eq!(jobs[0].inboxes, vec!["https://c.test/inbox".to_string()]);

    // Both: the reported account's inbox, and carol's server.
    let filed = a
        .reports()
        .file_report(
            &alice,
            report(vec!["B.test.", "c.test"]),
            &[Role::Moderator],
        )
        .await
        .expect("filed");
    assert!(filed.report.forwarded);
    let jobs = queued_federation(&a).await;
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    assert_eq!(
        jobs[0].inboxes,
        vec![
            "https://b.test/users/bob/inbox".to_string(),
            "https://c.test/inbox".to_string()
        ]
    );
    let (signer, flag) = a
        .render_flag(filed.report.id)
        .await
        .unwrap()
        .expect("rendered");
    assert_eq!(signer, crate::store::INSTANCE_ACTOR);
    assert_eq!(flag["type"], "Flag");
    assert_eq!(flag["actor"], "https://a.test/actor");
    assert_eq!(flag["content"], "rude");
    assert_eq!(
        flag["object"],
        serde_json::json!([
            "https://b.test/users/bob",
            format!("https://b.test/users/bob/statuses/{}", reply.id)
        ])
    );
}

#[tokio::test]
async fn a_suspension_reaches_the_accounts_mentioned_and_the_reporters_servers_too() {
    let [a, c, d] = servers(["a.test", "c.test", "d.test"]);
    let alice = account(&a, "alice").await;
    let admin = member(&a, "boss", Role::Admin).await;
    let carol = account(&c, "carol").await;
    let dave = account(&d, "dave").await;
    // c knows alice from a post mentioning carol; d from dave's report about her, forwarded.
    remote(&a, "carol", "c.test").await;
    post(&a, &alice, "hello @carol@c.test", None).await;
    let alice_at_d = remote(&d, "alice", "a.test").await;
    d.reports()
        .file_report(
            &dave,
            NewReport {
                account_id: alice_at_d.id.to_string(),
                comment: "spammy".into(),
                forward: true,
                ..Default::default()
            },
            &[Role::Moderator],
        )
        .await
        .expect("filed at d");
    drain(&[&a, &c, &d]).await;
    let alice_at_c = c
        .store
        .account_by_username("alice", Some("a.test"))
        .await
        .unwrap()
        .expect("c knows alice");
    assert_eq!(
        c.store
            .notifications_page(carol.id, &NotificationQuery::default(), Page::first(5))
            .await
            .unwrap()
            .len(),
        1,
        "carol was mentioned"
    );
    assert_eq!(open_reports(&a).await.len(), 1, "d's report reached a");

    a.moderation()
        .act(
            &admin,
            Role::Admin,
            alice.id,
            act(AccountActionType::Suspend),
        )
        .await
        .expect("suspended");
    drain(&[&a, &c, &d]).await;
    assert!(
        stored(&c, alice_at_c.id).await.is_suspended_remotely(),
        "the server of an account she mentioned lately"
    );
    assert!(
        stored(&d, alice_at_d.id).await.is_suspended_remotely(),
        "the server of an account that reported her"
    );
}

/// `bob_follows_alice`, seen from alice's side: a knows bob, who follows alice there.
async fn alice_followed_by_bob() -> (
    Arc<App>,
    Arc<App>,
    AccountRecord,
    AccountRecord,
    AccountRecord,
) {
    let (a, b, alice, admin, _bob, _) = bob_follows_alice().await;
    let bob_at_a = remote(&a, "bob", "b.test").await;
    assert!(a.store.follows(bob_at_a.id, alice.id).await.unwrap());
    (a, b, alice, admin, bob_at_a)
}

#[tokio::test]
async fn suspending_a_remote_follower_rejects_its_follows_and_lifting_it_fetches_it_again() {
    let (a, b, alice, admin, bob_at_a) = alice_followed_by_bob().await;
    let bob = b
        .store
        .account_by_username("bob", None)
        .await
        .unwrap()
        .expect("bob");
    let alice_at_b = remote(&b, "alice", "a.test").await;

    a.moderation()
        .act(
            &admin,
            Role::Admin,
            bob_at_a.id,
            act(AccountActionType::Suspend),
        )
        .await
        .expect("suspended");
    drain(&[&a, &b]).await;
    assert!(
        !a.store.follows(bob_at_a.id, alice.id).await.unwrap(),
        "the follow ended at a"
    );
    assert!(
        !b.store.follows(bob.id, alice_at_b.id).await.unwrap(),
        "b took the Reject: bob no longer follows alice"
    );

    // Meanwhile bob renames himself at b, which a does not hear of; lifting the suspension
    // fetches his actor again. The follow stays ended: it cannot be forced back.
    let mut renamed = bob.clone();
    renamed.display_name = "Bob Renamed".into();
    b.store.update_account(&renamed).await.expect("rename");
    a.moderation().unsuspend(bob_at_a.id).await.expect("lifted");
    drain(&[&a, &b]).await;
    assert_eq!(stored(&a, bob_at_a.id).await.display_name, "Bob Renamed");
    assert!(!a.store.follows(bob_at_a.id, alice.id).await.unwrap());
}

#[tokio::test]
async fn a_suspending_domain_block_ends_the_domains_follows_of_local_accounts() {
    let (a, b, alice, _admin, bob_at_a) = alice_followed_by_bob().await;
    a.server_blocks()
        .block_domain(
            "b.test",
            DomainBlockChange {
                severity: Some("suspend".into()),
                ..Default::default()
            },
        )
        .await
        .expect("blocked");
    drain(&[&a, &b]).await;
    assert!(stored(&a, bob_at_a.id).await.is_suspended());
    assert!(
        !a.store.follows(bob_at_a.id, alice.id).await.unwrap(),
        "the follow ended with the block"
    );
}

#[tokio::test]
async fn a_suspension_by_the_accounts_own_server_keeps_its_follows() {
    let (a, b, alice, _admin, bob_at_a) = alice_followed_by_bob().await;
    let b_admin = member(&b, "warden", Role::Admin).await;
    let bob = b
        .store
        .account_by_username("bob", None)
        .await
        .unwrap()
        .expect("bob");
    b.moderation()
        .act(
            &b_admin,
            Role::Admin,
            bob.id,
            act(AccountActionType::Suspend),
        )
        .await
        .expect("suspended at home");
    drain(&[&a, &b]).await;
    assert!(stored(&a, bob_at_a.id).await.is_suspended_remotely());
    assert!(
        a.store.follows(bob_at_a.id, alice.id).await.unwrap(),
        "lifting it at home must find the follow there"
    );
}
