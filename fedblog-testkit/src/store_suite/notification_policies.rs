//! Checks of [`NotificationPolicyStore`](fedblog_core::store::NotificationPolicyStore):
//! policies, the requests gathering filtered notifications per sender (counted), accepting them
//! (the sender accepted from then on, its notifications unfiltered) and dismissing them.

use fedblog_core::pagination::Page;
use fedblog_core::store::{
    AccountRecord, NotificationPolicyRecord, NotificationQuery, NotificationRecord,
    NotificationType, PolicyAction, StatusRecord,
};
use fedblog_core::{Id, IdGenerator, Store};

use super::{Cursor, T0, add_local, add_status, assert_pages, at, status};

/// Stores a notification from `from` to `to` at `millis`, filtered or not.
async fn notified(
    store: &dyn Store,
    ids: &IdGenerator,
    (to, from): (&AccountRecord, &AccountRecord),
    about: Option<&StatusRecord>,
    filtered: bool,
    millis: i64,
) -> NotificationRecord {
    let id = ids.next_at(millis);
    let n = NotificationRecord {
        id,
        account_id: to.id,
        from_account_id: from.id,
        kind: NotificationType::Mention,
        status_id: about.map(|s| s.id),
        subject_id: None,
        group_key: format!("ungrouped-{id}"),
        filtered,
        created_at: at(millis),
    };
    store
        .insert_notifications(std::slice::from_ref(&n))
        .await
        .expect("insert_notifications");
    n
}

async fn note(
    store: &dyn Store,
    ids: &IdGenerator,
    (to, from): (&AccountRecord, &AccountRecord),
    last_status: Option<Id>,
    millis: i64,
) -> fedblog_core::store::NotificationRequestRecord {
    store
        .note_notification_request(ids.next_at(millis), to.id, from.id, last_status, at(millis))
        .await
        .expect("note_notification_request")
}

/// The ids of `account`'s unfiltered notifications.
async fn unfiltered(store: &dyn Store, account: Id) -> Vec<Id> {
    store
        .notifications_page(account, &NotificationQuery::default(), Page::first(40))
        .await
        .expect("notifications_page")
        .iter()
        .map(|n| n.id)
        .collect()
}

/// A policy is `None` until saved, then read back as saved; saving again replaces it.
pub async fn notification_policy_round_trips(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    assert_eq!(
        store.notification_policy(alice.id).await.expect("policy"),
        None,
        "an account that never saved a policy has none"
    );
    let mut policy = NotificationPolicyRecord::default_for(alice.id);
    policy.for_not_following = PolicyAction::Drop;
    policy.for_new_accounts = PolicyAction::Filter;
    store.save_notification_policy(&policy).await.expect("save");
    assert_eq!(
        store.notification_policy(alice.id).await.expect("policy"),
        Some(policy.clone())
    );
    policy.for_private_mentions = PolicyAction::Accept;
    policy.for_not_following = PolicyAction::Accept;
    store.save_notification_policy(&policy).await.expect("save");
    assert_eq!(
        store.notification_policy(alice.id).await.expect("policy"),
        Some(policy),
        "saving again must replace the policy"
    );
}

/// One request per account and sender: noting again keeps its id and creation, moves
/// `updated_at` and, when given, the last status; it counts the sender's filtered notifications
/// to the account only.
pub async fn notification_request_per_sender_counts_filtered(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let s1 = add_status(store, status(&ids, &bob, T0 + 100)).await;
    let s2 = add_status(store, status(&ids, &bob, T0 + 200)).await;
    notified(store, &ids, (&alice, &bob), Some(&s1), true, T0 + 1_000).await;
    notified(store, &ids, (&alice, &bob), Some(&s2), true, T0 + 2_000).await;
    notified(store, &ids, (&alice, &bob), None, false, T0 + 3_000).await;
    notified(store, &ids, (&alice, &carol), None, true, T0 + 4_000).await;
    notified(store, &ids, (&carol, &bob), None, true, T0 + 4_500).await;
    let first = note(store, &ids, (&alice, &bob), Some(s1.id), T0 + 5_000).await;
    let second = note(store, &ids, (&alice, &bob), Some(s2.id), T0 + 6_000).await;
    let third = note(store, &ids, (&alice, &bob), None, T0 + 7_000).await;
    assert_eq!(
        (second.id, second.created_at, second.last_status_id),
        (first.id, at(T0 + 5_000), Some(s2.id)),
        "noting again keeps the request and its creation, and takes the new last status"
    );
    assert_eq!(
        (third.last_status_id, third.updated_at),
        (Some(s2.id), at(T0 + 7_000)),
        "noting without a status keeps the last status and moves updated_at"
    );
    assert_eq!(
        third.notifications_count, 2,
        "a request counts the sender's filtered notifications to the account, only those"
    );
    let carols = note(store, &ids, (&alice, &carol), None, T0 + 8_000).await;
    assert_ne!(carols.id, first.id, "another sender makes another request");
    assert_eq!(
        store
            .notification_request_by_id(first.id)
            .await
            .expect("by id"),
        Some(third)
    );
    let page = store
        .notification_requests_page(alice.id, Page::first(40))
        .await
        .expect("page");
    assert_eq!(
        page.iter().map(|r| r.id).collect::<Vec<_>>(),
        vec![carols.id, first.id],
        "an account's requests, newest first"
    );
    assert_eq!(
        store
            .notification_request_by_id(ids.next_at(T0 + 9_000))
            .await
            .expect("by id"),
        None,
        "an unknown request is None"
    );
}

/// Accepting a request accepts its sender from then on, unfilters the sender's filtered
/// notifications to the owner (answering them) and removes the request; an unknown request
/// answers nothing.
pub async fn accept_notification_request_unfilters_and_permits(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let n1 = notified(store, &ids, (&alice, &bob), None, true, T0 + 1_000).await;
    let n2 = notified(store, &ids, (&alice, &bob), None, true, T0 + 2_000).await;
    let other = notified(store, &ids, (&alice, &carol), None, true, T0 + 3_000).await;
    let r = note(store, &ids, (&alice, &bob), None, T0 + 4_000).await;
    assert!(
        !store
            .notification_permitted(alice.id, bob.id)
            .await
            .expect("permitted"),
        "no sender is accepted before a request is"
    );
    let mut got = store
        .accept_notification_request(r.id)
        .await
        .expect("accept");
    got.sort_by_key(|n| n.id);
    let unfiltered_n = |n: &NotificationRecord| NotificationRecord {
        filtered: false,
        ..n.clone()
    };
    assert_eq!(
        got,
        vec![unfiltered_n(&n1), unfiltered_n(&n2)],
        "accepting answers the sender's notifications, unfiltered"
    );
    let mut visible = unfiltered(store, alice.id).await;
    visible.sort();
    assert_eq!(
        visible,
        vec![n1.id, n2.id],
        "the sender's notifications join the unfiltered ones; others stay filtered"
    );
    assert!(!visible.contains(&other.id));
    assert!(
        store
            .notification_permitted(alice.id, bob.id)
            .await
            .expect("permitted"),
        "the sender is accepted from then on"
    );
    assert!(
        !store
            .notification_permitted(bob.id, alice.id)
            .await
            .expect("permitted"),
        "a permission goes one way"
    );
    assert_eq!(
        store.notification_request_by_id(r.id).await.expect("by id"),
        None,
        "an accepted request is gone"
    );
    assert_eq!(
        store
            .accept_notification_request(r.id)
            .await
            .expect("accept"),
        vec![],
        "accepting an unknown request answers nothing"
    );
}

/// Dismissing a request removes it and the sender's filtered notifications to the owner, and
/// accepts no one; the sender's unfiltered notifications stay.
pub async fn dismiss_notification_request_drops_its_notifications(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    notified(store, &ids, (&alice, &bob), None, true, T0 + 1_000).await;
    let kept = notified(store, &ids, (&alice, &bob), None, false, T0 + 2_000).await;
    let r = note(store, &ids, (&alice, &bob), None, T0 + 3_000).await;
    assert!(
        store
            .dismiss_notification_request(r.id)
            .await
            .expect("dismiss")
    );
    assert_eq!(
        store.notification_request_by_id(r.id).await.expect("by id"),
        None,
        "a dismissed request is gone"
    );
    let all = store
        .notifications_page(
            alice.id,
            &NotificationQuery {
                include_filtered: true,
                ..NotificationQuery::default()
            },
            Page::first(40),
        )
        .await
        .expect("notifications_page");
    assert_eq!(
        all.iter().map(|n| n.id).collect::<Vec<_>>(),
        vec![kept.id],
        "dismissing removes the sender's filtered notifications, only those"
    );
    assert!(
        !store
            .notification_permitted(alice.id, bob.id)
            .await
            .expect("permitted"),
        "dismissing accepts no one"
    );
    assert!(
        !store
            .dismiss_notification_request(r.id)
            .await
            .expect("dismiss"),
        "dismissing it again must return false"
    );
}

/// An account's requests page by request id, newest first, with every cursor.
pub async fn notification_requests_page_by_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let mut made = Vec::new();
    for i in 0..10 {
        let sender = add_local(store, &ids, &format!("sender{i}")).await;
        made.push(
            note(store, &ids, (&alice, &sender), None, T0 + 1_000 * (i + 1))
                .await
                .id,
        );
    }
    let other = add_local(store, &ids, "other").await;
    note(store, &ids, (&other, &alice), None, T0 + 5_500).await;
    for kind in [
        Cursor::Limit,
        Cursor::MaxId,
        Cursor::SinceId,
        Cursor::MinId,
        Cursor::Combined,
        Cursor::Absent,
    ] {
        assert_pages(
            "notification_requests_page",
            kind,
            &made,
            |page| async move {
                store
                    .notification_requests_page(alice.id, page)
                    .await
                    .expect("page")
                    .iter()
                    .map(|r| r.id)
                    .collect()
            },
        )
        .await;
    }
}

/// Deleting an account removes its policy, the permissions it gave and was given, and its
/// requests both ways; other accounts' stay.
pub async fn delete_account_removes_policies_both_ways(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    store
        .save_notification_policy(&NotificationPolicyRecord::default_for(alice.id))
        .await
        .expect("save");
    let to_alice = note(store, &ids, (&alice, &carol), None, T0 + 1_000).await;
    let from_alice = note(store, &ids, (&bob, &alice), None, T0 + 2_000).await;
    let others = note(store, &ids, (&bob, &carol), None, T0 + 3_000).await;
    let accepted = note(store, &ids, (&carol, &alice), None, T0 + 4_000).await;
    store
        .accept_notification_request(accepted.id)
        .await
        .expect("accept");
    store
        .delete_account(alice.id)
        .await
        .expect("delete_account");
    assert_eq!(
        store.notification_policy(alice.id).await.expect("policy"),
        None,
        "its policy goes"
    );
    for r in [to_alice.id, from_alice.id] {
        assert_eq!(
            store.notification_request_by_id(r).await.expect("by id"),
            None,
            "its requests both ways go"
        );
    }
    assert!(
        !store
            .notification_permitted(carol.id, alice.id)
            .await
            .expect("permitted"),
        "the permissions given to it go"
    );
    assert_eq!(
        store
            .notification_request_by_id(others.id)
            .await
            .expect("by id")
            .map(|r| r.id),
        Some(others.id),
        "other accounts' requests stay"
    );
}
