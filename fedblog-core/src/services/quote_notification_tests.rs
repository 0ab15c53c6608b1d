//! The notifications quotes make (Mastodon 4.5): `quote` to the author of a local post quoted
//! and accepted at once (from the quoting account, about the quoting status), none for a
//! self-quote, a pending quote or a quoter the author blocks or mutes, filtered by the author's
//! notification policy; `quoted_update` to the local authors of accepted quotes when the quoted
//! post is edited (about their own quoting status); both through the `types[]` filters and
//! pushed to the Web Push subscriptions whose alerts take them.

use crate::App;
use crate::api::notifications::NotificationFilter;
use crate::api::statuses::create_status::{CreateStatus, CreateStatusRequest, Created};
use crate::app::RequestInfo;
use crate::endpoint::{Endpoint, Json};
use crate::error::ApiResult;
use crate::id::Id;
use crate::pagination::Page;
use crate::services::edits::StatusChanges;
use crate::store::{
    AccountRecord, NotificationPolicyRecord, NotificationQuery, NotificationRecord,
    NotificationType, PolicyAction, QuotePolicyBits, QuoteState, StatusRecord,
};
use crate::test_support::{account, app, post};

/// `who`'s notifications, newest first (filtered ones too).
async fn told(app: &App, who: &AccountRecord) -> Vec<NotificationRecord> {
    let query = NotificationQuery {
        include_filtered: true,
        ..NotificationQuery::default()
    };
    app.store
        .notifications_page(who.id, &query, Page::first(40))
        .await
        .expect("notifications")
}

/// `who`'s notifications of `kind`, as `(sender, status)`.
async fn told_of(app: &App, who: &AccountRecord, kind: NotificationType) -> Vec<(Id, Option<Id>)> {
    told(app, who)
        .await
        .into_iter()
        .filter(|n| n.kind == kind)
        .map(|n| (n.from_account_id, n.status_id))
        .collect()
}

/// `author` posts `text` quoting `quoted` through `POST /api/v1/statuses`, as a client does.
async fn quote(
    app: &App,
    author: &AccountRecord,
    quoted: &StatusRecord,
    text: &str,
) -> ApiResult<StatusRecord> {
    publish(app, author, Some(quoted), text).await
}

/// `author` posts `text` through `POST /api/v1/statuses` (with Mastodon's default quote
/// policy, `public`), quoting `quoted` if given.
async fn publish(
    app: &App,
    author: &AccountRecord,
    quoted: Option<&StatusRecord>,
    text: &str,
) -> ApiResult<StatusRecord> {
    let cli = app.oauth().cli_application().await.expect("cli app");
    let scopes = crate::scope::Scopes::parse("read write").expect("scopes");
    let token = app
        .oauth()
        .issue_token(cli.id, Some(author.id), &scopes)
        .await
        .expect("token")
        .access_token;
    let caller = app
        .authenticate(
            CreateStatus::AUTH,
            Some(&token),
            None,
            RequestInfo::default(),
        )
        .await
        .expect("authenticated");
    let Json(created) = CreateStatus::handle(
        app,
        &caller,
        CreateStatusRequest {
            status: Some(text.into()),
            quoted_status_id: quoted.map(|q| q.id.to_string()),
            ..Default::default()
        },
    )
    .await?;
    let Created::Status(s) = created else {
        panic!("posted now, not scheduled");
    };
    Ok(app
        .store
        .status_by_id(s.id)
        .await
        .expect("read")
        .expect("the quoting status"))
}

/// The state of the quote `status` makes.
async fn quote_state(app: &App, status: &StatusRecord) -> Option<QuoteState> {
    let quotes = app.store.quotes().expect("the memory store keeps quotes");
    quotes
        .quotes_of_statuses(&[status.id])
        .await
        .expect("quotes")
        .pop()
        .map(|q| q.state)
}

#[tokio::test]
async fn a_quote_accepted_at_once_tells_the_quoted_author_about_the_quoting_status() {
    let app = app("social.example");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let original = publish(&app, &alice, None, "quotable")
        .await
        .expect("posted");
    let quoting = quote(&app, &bob, &original, "look at this")
        .await
        .expect("quoted");
    assert_eq!(
        quote_state(&app, &quoting).await,
        Some(QuoteState::Accepted)
    );
    let notes = told(&app, &alice).await;
    assert_eq!(notes.len(), 1, "one notification: {notes:?}");
    let n = &notes[0];
    assert_eq!(n.kind, NotificationType::Quote);
    assert_eq!(n.from_account_id, bob.id, "from the quoting account");
    assert_eq!(n.status_id, Some(quoting.id), "about the quoting status");
    assert!(!n.filtered);
    assert!(
        n.group_key.starts_with("ungrouped-"),
        "quotes are not grouped, as in Mastodon: {}",
        n.group_key
    );
    assert!(
        told(&app, &bob).await.is_empty(),
        "the quoting account is told nothing"
    );
    let rendered = app
        .render_notifications(&alice, &notes)
        .await
        .expect("rendered");
    assert_eq!(rendered.len(), 1);
    assert_eq!(rendered[0].kind, "quote");
    assert_eq!(rendered[0].account.id, bob.id);
    assert_eq!(
        rendered[0].status.as_ref().map(|s| s.id),
        Some(quoting.id),
        "the notification carries the quoting status"
    );
    // Deleting the quoting status takes the notification with it.
    app.statuses()
        .delete_status(&quoting)
        .await
        .expect("deleted");
    assert!(
        told_of(&app, &alice, NotificationType::Quote)
            .await
            .is_empty()
    );
}

#[tokio::test]
async fn a_self_quote_and_a_pending_quote_tell_nobody() {
    let app = app("social.example");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let original = publish(&app, &alice, None, "mine").await.expect("posted");
    let own = quote(&app, &alice, &original, "me again")
        .await
        .expect("self-quote");
    assert_eq!(quote_state(&app, &own).await, Some(QuoteState::Accepted));
    assert!(
        told(&app, &alice).await.is_empty(),
        "a self-quote tells nobody"
    );
    // A policy fedblog cannot read leaves the quote pending (the author would review it).
    let odd = post(&app, &alice, "odd policy", None).await;
    app.store
        .quotes()
        .expect("quotes")
        .set_quote_policy(odd.id, QuotePolicyBits(QuotePolicyBits::UNSUPPORTED << 16))
        .await
        .expect("policy");
    let pending = quote(&app, &bob, &odd, "pending").await.expect("quoted");
    assert_eq!(quote_state(&app, &pending).await, Some(QuoteState::Pending));
    assert!(
        told(&app, &alice).await.is_empty(),
        "a pending quote tells nobody"
    );
}

#[tokio::test]
async fn a_quoter_the_author_mutes_or_blocks_tells_nothing() {
    let app = app("social.example");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let carol = account(&app, "carol").await;
    let original = publish(&app, &alice, None, "quotable")
        .await
        .expect("posted");
    app.blocks()
        .mute(&alice, bob.id, true, 0)
        .await
        .expect("muted");
    let muted = quote(&app, &bob, &original, "muted").await.expect("quoted");
    assert_eq!(quote_state(&app, &muted).await, Some(QuoteState::Accepted));
    assert!(
        told(&app, &alice).await.is_empty(),
        "a muted quoter (notifications muted) tells nothing"
    );
    app.blocks().block(&alice, carol.id).await.expect("blocked");
    assert!(
        quote(&app, &carol, &original, "blocked").await.is_err(),
        "a blocked account cannot see, so cannot quote, the status"
    );
    assert!(told(&app, &alice).await.is_empty());
}

#[tokio::test]
async fn the_notification_policy_filters_quotes() {
    let app = app("social.example");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    app.store
        .save_notification_policy(&NotificationPolicyRecord {
            for_not_following: PolicyAction::Filter,
            ..NotificationPolicyRecord::default_for(alice.id)
        })
        .await
        .expect("policy");
    let original = publish(&app, &alice, None, "quotable")
        .await
        .expect("posted");
    let quoting = quote(&app, &bob, &original, "filtered")
        .await
        .expect("quoted");
    let notes = told(&app, &alice).await;
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].kind, NotificationType::Quote);
    assert_eq!(notes[0].status_id, Some(quoting.id));
    assert!(
        notes[0].filtered,
        "quote is filterable, as in Mastodon 4.5: from an account alice does not follow"
    );
    app.store
        .save_notification_policy(&NotificationPolicyRecord {
            for_not_following: PolicyAction::Drop,
            ..NotificationPolicyRecord::default_for(alice.id)
        })
        .await
        .expect("policy");
    let second = publish(&app, &alice, None, "again").await.expect("posted");
    quote(&app, &bob, &second, "dropped").await.expect("quoted");
    assert_eq!(
        told(&app, &alice).await.len(),
        1,
        "a dropped quote is not kept"
    );
}

#[tokio::test]
async fn an_edit_tells_the_local_authors_of_accepted_quotes_about_their_own_quote() {
    let app = app("social.example");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let carol = account(&app, "carol").await;
    let dave = account(&app, "dave").await;
    let original = publish(&app, &alice, None, "first draft")
        .await
        .expect("posted");
    let by_bob = quote(&app, &bob, &original, "bob quotes")
        .await
        .expect("quoted");
    let by_carol = quote(&app, &carol, &original, "carol quotes")
        .await
        .expect("quoted");
    let by_alice = quote(&app, &alice, &original, "alice quotes herself")
        .await
        .expect("quoted");
    // Carol's quote is revoked: no longer accepted, no longer told.
    app.quotes()
        .revoke(&alice, original.id, by_carol.id)
        .await
        .expect("revoked");
    // Dave only posts; an unrelated status of alice is edited too.
    post(&app, &dave, "unrelated", None).await;
    app.edits()
        .edit_status(
            &alice,
            original.id,
            StatusChanges {
                text: "second draft".into(),
                ..Default::default()
            },
        )
        .await
        .expect("edited");
    assert_eq!(
        told_of(&app, &bob, NotificationType::QuotedUpdate).await,
        [(alice.id, Some(by_bob.id))],
        "bob is told, from alice, about his own quote"
    );
    assert!(
        told_of(&app, &carol, NotificationType::QuotedUpdate)
            .await
            .is_empty()
    );
    assert!(
        told_of(&app, &dave, NotificationType::QuotedUpdate)
            .await
            .is_empty()
    );
    assert!(
        told_of(&app, &alice, NotificationType::QuotedUpdate)
            .await
            .is_empty(),
        "the editor is not told of her own quote ({})",
        by_alice.id
    );
    let notes: Vec<NotificationRecord> = told(&app, &bob)
        .await
        .into_iter()
        .filter(|n| n.kind == NotificationType::QuotedUpdate)
        .collect();
    let rendered = app
        .render_notifications(&bob, &notes)
        .await
        .expect("rendered");
    assert_eq!(rendered.len(), 1);
    assert_eq!(rendered[0].kind, "quoted_update");
    assert_eq!(rendered[0].account.id, alice.id);
    assert_eq!(rendered[0].status.as_ref().map(|s| s.id), Some(by_bob.id));
}

#[tokio::test]
async fn the_types_filters_know_quote_and_quoted_update() {
    let app = app("social.example");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let original = publish(&app, &alice, None, "quotable")
        .await
        .expect("posted");
    let quoting = quote(&app, &bob, &original, "quoting")
        .await
        .expect("quoted");
    // A mention too, so that the filters have something to leave out.
    post(&app, &bob, "hello @alice", None).await;
    let kinds = |types: &[&str], exclude: &[&str]| {
        let filter = NotificationFilter {
            types: types.iter().map(|t| t.to_string()).collect(),
            exclude_types: exclude.iter().map(|t| t.to_string()).collect(),
            account_id: None,
        };
        filter.query(false)
    };
    let page = |q: NotificationQuery| {
        let app = &app;
        let alice = &alice;
        async move {
            app.notifications()
                .page(alice, &q, Page::first(40))
                .await
                .expect("page")
                .notifications
                .into_iter()
                .map(|n| (n.kind, n.status_id))
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        page(kinds(&["quote"], &[])).await,
        [(NotificationType::Quote, Some(quoting.id))]
    );
    assert_eq!(
        page(kinds(&[], &["quote"])).await.len(),
        1,
        "exclude_types[]=quote leaves the mention"
    );
    assert!(page(kinds(&["quoted_update"], &[])).await.is_empty());
    // The grouped list filters the same way and shows the quote alone.
    let grouped = app
        .notification_groups()
        .page(
            &alice,
            &kinds(&["quote"], &[]),
            &crate::services::notification_groups::GROUPABLE_TYPES,
            Page::first(40),
        )
        .await
        .expect("groups");
    assert_eq!(grouped.groups.len(), 1);
    assert_eq!(grouped.groups[0].kind, NotificationType::Quote);
    assert!(grouped.groups[0].key.starts_with("ungrouped-"));
    let rendered = app
        .render_notification_groups(&alice, &grouped.groups, false)
        .await
        .expect("rendered");
    assert_eq!(rendered.notification_groups[0].kind, "quote");
    assert_eq!(rendered.notification_groups[0].status_id, Some(quoting.id));
}

/// A push service that keeps the endpoints it was sent to and accepts every push.
#[derive(Default)]
struct Pushes(std::sync::Mutex<Vec<String>>);

#[async_trait::async_trait]
impl crate::federation::Transport for Pushes {
    async fn send(
        &self,
        req: crate::federation::OutboundRequest,
    ) -> Result<crate::federation::OutboundResponse, crate::federation::TransportError> {
        self.0.lock().expect("pushes").push(req.url);
        Ok(crate::federation::OutboundResponse {
            status: 201,
            content_type: None,
            body: vec![],
        })
    }
}

/// Subscribes a fresh `push` token of `who` at `endpoint` to the `alerts`.
async fn subscribe(app: &App, who: &AccountRecord, endpoint: &str, alerts: &[&str], n: u8) {
    let token = crate::store::TokenRecord {
        id: app.ids.next(),
        token_hash: format!("{n:064x}"),
        app_id: app.ids.next(),
        account_id: Some(who.id),
        scopes: "read write push".into(),
        created_at: chrono::Utc::now(),
        revoked_at: None,
    };
    app.store.insert_token(&token).await.expect("token");
    let sub = app
        .web_push()
        .subscribe(
            who,
            &token,
            None,
            crate::services::web_push::NewPushSubscription {
                endpoint: Some(endpoint.into()),
                p256dh: Some(crate::push::VapidKey::generate().public_key()),
                auth: Some("AAAAAAAAAAAAAAAAAAAAAA".into()),
                standard: true,
                data: crate::services::web_push::PushData {
                    alerts: alerts.iter().map(|a| (a.to_string(), true)).collect(),
                    policy: None,
                },
            },
        )
        .await
        .expect("subscribed");
    let rendered = app.render_push_subscription(&sub);
    for alert in alerts {
        assert_eq!(
            rendered.alerts.get(*alert),
            Some(&serde_json::Value::Bool(true)),
            "the subscription shows alerts[{alert}] on: {:?}",
            rendered.alerts
        );
    }
}

#[tokio::test]
async fn quote_and_quoted_update_are_pushed_to_the_subscriptions_that_take_them() {
    let pushes = std::sync::Arc::new(Pushes::default());
    let app = app("push.test").with_push_transport(pushes.clone());
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let carol = account(&app, "carol").await;
    subscribe(&app, &alice, "https://push.example/alice", &["quote"], 1).await;
    subscribe(
        &app,
        &bob,
        "https://push.example/bob",
        &["quoted_update"],
        2,
    )
    .await;
    subscribe(&app, &carol, "https://push.example/carol", &["mention"], 3).await;
    let original = publish(&app, &alice, None, "push me")
        .await
        .expect("posted");
    quote(&app, &bob, &original, "bob quotes")
        .await
        .expect("quoted");
    quote(&app, &carol, &original, "carol quotes")
        .await
        .expect("quoted");
    app.edits()
        .edit_status(
            &alice,
            original.id,
            StatusChanges {
                text: "push me (edited)".into(),
                ..Default::default()
            },
        )
        .await
        .expect("edited");
    let run = app
        .run_due_jobs("test", 100, chrono::Duration::seconds(60))
        .await
        .expect("jobs");
    assert_eq!(run.failed, 0);
    let mut sent = pushes.0.lock().expect("pushes").clone();
    sent.sort();
    assert_eq!(
        sent,
        [
            "https://push.example/alice",
            "https://push.example/alice",
            "https://push.example/bob",
        ],
        "alice is pushed both quotes, bob the edit of what he quoted, carol (mentions only) \
         nothing"
    );
}
