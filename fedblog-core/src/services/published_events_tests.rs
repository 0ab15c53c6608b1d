//! The events services publish for streaming: one per change, after it is stored, naming ids
//! only; a notification its policy filtered is not published.

use crate::events::{DOMAIN_STREAM, DomainEvent, Subscription};
use crate::services::edits::StatusChanges;
use crate::services::filters::FilterChanges;
use crate::services::notification_policies::PolicyChanges;
use crate::services::statuses::NewStatus;
use crate::store::AccountRecord;
use crate::test_support::{account, app, post};
use crate::{App, Id};

/// Every domain event published so far, in order.
fn drain(events: &mut Subscription) -> Vec<DomainEvent> {
    std::iter::from_fn(|| events.try_recv())
        .map(|e| {
            assert_eq!(e.stream, DOMAIN_STREAM);
            let domain = DomainEvent::from_event(&e).expect("a domain event");
            assert_eq!(e.event, domain.mastodon_event());
            domain
        })
        .collect()
}

async fn direct(app: &App, author: &AccountRecord, text: &str) -> Id {
    let new = NewStatus {
        text: text.into(),
        visibility: Some("direct".into()),
        ..Default::default()
    };
    crate::test_support::post_new(app, author, new).await.id
}

#[tokio::test]
async fn statuses_notifications_conversations_and_filters_are_published() {
    let app = app("events.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    let mut events = app.events.subscribe();

    let hello = post(&app, &alice, "hello @bob", None).await;
    let got = drain(&mut events);
    let mention = match got.as_slice() {
        [
            DomainEvent::Notification {
                notification,
                account,
            },
            DomainEvent::StatusCreated { status, author },
        ] => {
            assert_eq!((*account, *status, *author), (bob.id, hello.id, alice.id));
            *notification
        }
        other => panic!("posting a mention published {other:?}"),
    };
    let shown = app
        .notifications()
        .notification(&bob, mention)
        .await
        .expect("bob's mention");
    assert_eq!(shown.status_id, Some(hello.id));

    app.edits()
        .edit_status(
            &alice,
            hello.id,
            StatusChanges {
                text: "hello again @bob".into(),
                ..Default::default()
            },
        )
        .await
        .expect("edit");
    let got = drain(&mut events);
    assert!(
        got.contains(&DomainEvent::StatusEdited {
            status: hello.id,
            author: alice.id
        }),
        "editing published {got:?}"
    );

    let reblog = app
        .statuses()
        .reblog(&bob, None, hello.id, None)
        .await
        .expect("reblog");
    let got = drain(&mut events);
    assert!(
        matches!(got.as_slice(), [
            DomainEvent::Notification { account, .. },
            DomainEvent::StatusCreated { status, author },
        ] if *account == alice.id && *status == reblog.id && *author == bob.id),
        "reblogging published {got:?}"
    );
    app.statuses()
        .unreblog(&bob, hello.id)
        .await
        .expect("unreblog");
    assert_eq!(
        drain(&mut events),
        vec![DomainEvent::StatusDeleted {
            status: reblog.id,
            author: bob.id,
            visibility: "public".into(),
            mentions: vec![],
        }]
    );

    // Private mentions from people one does not follow are filtered by default: bob follows.
    app.relationships()
        .follow(&bob, alice.id, Default::default())
        .await
        .expect("follow");
    drain(&mut events);
    let secret = direct(&app, &alice, "psst @bob").await;
    let got = drain(&mut events);
    let conversations: Vec<Id> = got
        .iter()
        .filter_map(|e| match e {
            DomainEvent::Conversation {
                account, status, ..
            } if *status == secret => Some(*account),
            _ => None,
        })
        .collect();
    assert_eq!(
        conversations,
        vec![alice.id, bob.id],
        "a direct status published {got:?}"
    );

    let status = app.store.status_by_id(hello.id).await.unwrap().unwrap();
    app.statuses().delete_status(&status).await.expect("delete");
    assert_eq!(
        drain(&mut events),
        vec![DomainEvent::StatusDeleted {
            status: hello.id,
            author: alice.id,
            visibility: "public".into(),
            mentions: vec![bob.id],
        }]
    );

    let filter = app
        .filters()
        .create_filter(
            &bob,
            FilterChanges {
                title: Some("spoilers".into()),
                context: Some(vec!["home".into()]),
                ..Default::default()
            },
        )
        .await
        .expect("filter");
    app.filters()
        .delete_filter(&bob, filter.id)
        .await
        .expect("delete filter");
    assert_eq!(
        drain(&mut events),
        vec![
            DomainEvent::FiltersChanged { account: bob.id },
            DomainEvent::FiltersChanged { account: bob.id }
        ]
    );
}

#[tokio::test]
async fn a_notification_its_policy_filters_is_not_published() {
    let app = app("events.test");
    let alice = account(&app, "alice").await;
    let bob = account(&app, "bob").await;
    app.notification_policies()
        .update_notification_policy(
            &bob,
            PolicyChanges {
                for_not_following: Some("filter".into()),
                ..Default::default()
            },
        )
        .await
        .expect("policy");
    let mut events = app.events.subscribe();
    let hello = post(&app, &alice, "hello @bob", None).await;
    assert_eq!(
        drain(&mut events),
        vec![DomainEvent::StatusCreated {
            status: hello.id,
            author: alice.id
        }],
        "a filtered mention is not streamed"
    );
}
