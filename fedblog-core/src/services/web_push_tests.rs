//! The Web Push area's rules: subscriptions checked and kept one per token, pushes queued only
//! for the alerts and policy a subscription takes, and the delivery's answers (sent, retried,
//! the subscription dropped).

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use chrono::{Duration, Utc};

use super::*;
use crate::App;
use crate::federation::{OutboundRequest, OutboundResponse, TransportError};
use crate::services::relationships::FollowOptions;
use crate::store::TokenRecord;
use crate::test_support::{account, app, post};

/// A push service that keeps what it was sent and answers `status`.
struct PushService {
    status: Mutex<u16>,
    sent: Mutex<Vec<OutboundRequest>>,
}

#[async_trait]
impl Transport for PushService {
    async fn send(&self, req: OutboundRequest) -> Result<OutboundResponse, TransportError> {
        self.sent.lock().expect("sent").push(req);
        Ok(OutboundResponse {
            status: *self.status.lock().expect("status"),
            content_type: None,
            body: vec![],
        })
    }
}

fn service() -> Arc<PushService> {
    Arc::new(PushService {
        status: Mutex::new(201),
        sent: Mutex::new(vec![]),
    })
}

/// An app whose pushes reach `push`.
fn push_app(push: &Arc<PushService>) -> Arc<App> {
    Arc::new(app("push.test").with_push_transport(push.clone()))
}

/// A token of `account` with the `push` scope.
async fn token(app: &App, account: &AccountRecord, n: u8) -> TokenRecord {
    let t = TokenRecord {
        id: app.ids.next(),
        token_hash: format!("{n:064x}"),
        app_id: app.ids.next(),
        account_id: Some(account.id),
        scopes: "read write follow push".into(),
        created_at: Utc::now(),
        revoked_at: None,
    };
    app.store.insert_token(&t).await.expect("token");
    t
}

/// A valid client key pair's public half and an auth secret (any P-256 point will do).
fn keys() -> (String, String) {
    (
        crate::push::VapidKey::generate().public_key(),
        "AAAAAAAAAAAAAAAAAAAAAA".to_string(),
    )
}

fn new_sub(endpoint: &str, alerts: &[&str], policy: Option<&str>) -> NewPushSubscription {
    let (p256dh, auth) = keys();
    NewPushSubscription {
        endpoint: Some(endpoint.to_string()),
        p256dh: Some(p256dh),
        auth: Some(auth),
        standard: true,
        data: PushData {
            alerts: alerts.iter().map(|a| (a.to_string(), true)).collect(),
            policy: policy.map(str::to_string),
        },
    }
}

async fn run_jobs(app: &App) -> (usize, usize) {
    let r = app
        .run_due_jobs("test", 100, Duration::seconds(60))
        .await
        .expect("jobs");
    (r.done, r.failed)
}

#[tokio::test]
async fn a_subscription_needs_an_https_endpoint_and_valid_keys() {
    let push = service();
    let app = push_app(&push);
    let bob = account(&app, "bob").await;
    let t = token(&app, &bob, 1).await;
    let area = app.web_push();
    for (endpoint, why) in [
        ("", "blank"),
        ("http://push.example/x", "plain http"),
        ("ftp://push.example/x", "another scheme"),
        ("https:///x", "no host"),
        ("https://push example/x", "a space"),
    ] {
        let e = area
            .subscribe(&bob, &t, None, new_sub(endpoint, &["mention"], None))
            .await
            .expect_err(why);
        assert_eq!(e.status, http::StatusCode::UNPROCESSABLE_ENTITY, "{why}");
    }
    let mut bad = new_sub("https://push.example/x", &[], None);
    bad.p256dh = Some("not-a-key".into());
    let e = area.subscribe(&bob, &t, None, bad).await.expect_err("key");
    assert_eq!(e.status, http::StatusCode::UNPROCESSABLE_ENTITY);
    let mut short = new_sub("https://push.example/x", &[], None);
    short.auth = Some("AAAA".into());
    assert!(area.subscribe(&bob, &t, None, short).await.is_err());
    let e = area
        .subscribe(
            &bob,
            &t,
            None,
            new_sub("https://push.example/x", &[], Some("friends")),
        )
        .await
        .expect_err("policy");
    assert_eq!(e.status, http::StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        area.subscription(&t).await.expect_err("none kept").status,
        http::StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn private_addresses_may_be_allowed_for_tests_on_one_machine() {
    let push = service();
    let mut app = app("push.test").with_push_transport(push.clone());
    app.config.allow_private_addresses = true;
    let bob = account(&app, "bob").await;
    let t = token(&app, &bob, 1).await;
    let sub = app
        .web_push()
        .subscribe(
            &bob,
            &t,
            None,
            new_sub("http://127.0.0.1:9/p", &["mention"], None),
        )
        .await
        .expect("allowed");
    assert_eq!(sub.endpoint, "http://127.0.0.1:9/p");
}

#[tokio::test]
async fn one_subscription_per_token_replaced_updated_and_removed_with_the_token() {
    let push = service();
    let app = push_app(&push);
    let bob = account(&app, "bob").await;
    let t = token(&app, &bob, 1).await;
    let area = app.web_push();
    let first = area
        .subscribe(
            &bob,
            &t,
            None,
            new_sub("https://push.example/1", &["mention"], None),
        )
        .await
        .expect("first");
    assert_eq!(first.policy, "all");
    assert_eq!(first.alerts, vec!["mention".to_string()]);
    let second = area
        .subscribe(
            &bob,
            &t,
            None,
            new_sub(
                "https://push.example/2",
                &["favourite", "admin.sign_up", "bogus"],
                Some("follower"),
            ),
        )
        .await
        .expect("second");
    let kept = area.subscription(&t).await.expect("kept");
    assert_eq!(kept.id, second.id);
    assert_eq!(kept.endpoint, "https://push.example/2");
    assert_eq!(
        kept.alerts,
        vec!["favourite".to_string(), "admin.sign_up".to_string()]
    );
    assert_eq!(kept.policy, "follower");
    let rendered = app.render_push_subscription(&kept);
    assert_eq!(rendered.alerts["favourite"], true);
    assert_eq!(rendered.alerts["mention"], false);
    assert_eq!(rendered.alerts.len(), DOCUMENTED_ALERTS.len());
    assert_eq!(rendered.server_key, app.vapid.public_key());

    // An update replaces the alerts and keeps the policy unless given.
    let updated = area
        .update(
            &t,
            PushData {
                alerts: vec![("poll".into(), true), ("favourite".into(), false)],
                policy: None,
            },
        )
        .await
        .expect("update");
    assert_eq!(updated.alerts, vec!["poll".to_string()]);
    assert_eq!(updated.policy, "follower");

    // Revoking the token removes its subscription.
    app.store
        .revoke_token(&t.token_hash, Utc::now())
        .await
        .expect("revoke");
    assert_eq!(
        area.subscription(&t).await.expect_err("gone").status,
        http::StatusCode::NOT_FOUND
    );
    area.unsubscribe(&t)
        .await
        .expect("deleting nothing is fine");
}

#[tokio::test]
async fn notifications_are_pushed_by_alert_and_policy_and_a_gone_subscription_is_dropped() {
    let push = service();
    let app = push_app(&push);
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let area = app.web_push();
    let (t_all, t_none, t_followed) = (
        token(&app, &bob, 1).await,
        token(&app, &bob, 2).await,
        token(&app, &bob, 3).await,
    );
    area.subscribe(
        &bob,
        &t_all,
        Some("tok"),
        new_sub("https://push.example/all", &["mention", "favourite"], None),
    )
    .await
    .expect("all");
    area.subscribe(
        &bob,
        &t_none,
        None,
        new_sub(
            "https://push.example/none",
            &["mention", "favourite", "follow"],
            Some("none"),
        ),
    )
    .await
    .expect("none");
    area.subscribe(
        &bob,
        &t_followed,
        None,
        new_sub(
            "https://push.example/followed",
            &["mention", "follow"],
            Some("followed"),
        ),
    )
    .await
    .expect("followed");

    // A mention and a follow from alice, whom bob does not follow.
    let mention = post(&app, &alice, "hello @bob", None).await;
    app.relationships()
        .follow(&alice, bob.id, FollowOptions::default())
        .await
        .expect("follow");
    let _ = mention;
    assert_eq!(run_jobs(&app).await.1, 0);
    let sent: Vec<OutboundRequest> = push.sent.lock().expect("sent").drain(..).collect();
    assert_eq!(
        sent.len(),
        1,
        "only the mention, only to the `all` subscription"
    );
    assert_eq!(sent[0].url, "https://push.example/all");
    let header = |name: &str| {
        sent[0]
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    assert_eq!(header("Content-Encoding").as_deref(), Some("aes128gcm"));
    assert!(header("Authorization").is_some_and(|a| a.starts_with("vapid t=")));
    assert!(header("TTL").is_some());

    // Once bob follows alice, the `followed` subscription takes her mentions too.
    app.relationships()
        .follow(&bob, alice.id, FollowOptions::default())
        .await
        .expect("follow back");
    post(&app, &alice, "again @bob", None).await;
    assert_eq!(run_jobs(&app).await.1, 0);
    let mut urls: Vec<String> = push
        .sent
        .lock()
        .expect("sent")
        .drain(..)
        .map(|r| r.url)
        .collect();
    urls.sort();
    assert_eq!(
        urls,
        ["https://push.example/all", "https://push.example/followed"]
    );

    // A push service failing is retried later; one saying the subscription is gone drops it.
    *push.status.lock().expect("status") = 503;
    post(&app, &alice, "third @bob", None).await;
    assert_eq!(run_jobs(&app).await.1, 2, "both pushes fail, to be retried");
    assert_eq!(push.sent.lock().expect("sent").drain(..).count(), 2);
    *push.status.lock().expect("status") = 410;
    post(&app, &alice, "fourth @bob", None).await;
    assert_eq!(run_jobs(&app).await.1, 0);
    assert_eq!(
        area.subscription(&t_all).await.expect_err("dropped").status,
        http::StatusCode::NOT_FOUND
    );
    assert_eq!(
        area.subscription(&t_followed)
            .await
            .expect_err("dropped")
            .status,
        http::StatusCode::NOT_FOUND
    );
    assert!(
        area.subscription(&t_none).await.is_ok(),
        "never pushed to, kept"
    );
}

#[test]
fn tokens_are_sealed_for_one_key_only() {
    let key = crate::push::VapidKey::generate();
    let sealed = seal(&key, "secret-token").expect("sealed");
    assert!(!sealed.contains("secret-token"));
    assert_eq!(open(&key, &sealed).as_deref(), Some("secret-token"));
    assert_eq!(open(&crate::push::VapidKey::generate(), &sealed), None);
    assert_eq!(open(&key, "garbage"), None);
}

#[tokio::test]
async fn the_body_is_the_warning_or_text_cut_to_140_characters() {
    let app = app("push.test");
    let mut from = account(&app, "alice").await;
    from.note = "my bio".into();
    assert_eq!(body(&from, None), "my bio");
    let mut s = post(&app, &from, &"x".repeat(200), None).await;
    let b = body(&from, Some(&s));
    assert_eq!(b.chars().count(), 140);
    assert!(b.ends_with('…'));
    s.spoiler_text = "spoiler".into();
    assert_eq!(body(&from, Some(&s)), "spoiler");
    from.display_name = "Alice".into();
    assert_eq!(
        title(NotificationType::Favourite, &from),
        "Alice favourited your post"
    );
}

#[tokio::test]
async fn a_server_on_plain_http_without_a_contact_address_still_pushes() {
    let push = service();
    let mut app = app("127.0.0.1:3000").with_push_transport(push.clone());
    app.config.contact_email.clear();
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let t = token(&app, &bob, 1).await;
    app.web_push()
        .subscribe(
            &bob,
            &t,
            None,
            new_sub("https://push.example/p", &["mention"], None),
        )
        .await
        .expect("subscribe");
    post(&app, &alice, "hi @bob", None).await;
    assert_eq!(run_jobs(&app).await.1, 0);
    assert_eq!(
        push.sent.lock().expect("sent").len(),
        1,
        "the push went out"
    );
    assert_eq!(app.web_push().contact(), "mailto:admin@127.0.0.1");
}
