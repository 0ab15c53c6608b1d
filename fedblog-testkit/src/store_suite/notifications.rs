//! Checks of [`NotificationStore`](fedblog_core::store::NotificationStore): notifications
//! round-tripping with every field and type, batches stored all or none, pages of one account's
//! notifications newest first, the query (types, excluded types, sender, filtered ones), unread
//! counts, dismissing, clearing and retracting, and what deleting a status or an account takes
//! along.

use fedblog_core::pagination::Page;
use fedblog_core::store::{
    AccountRecord, NotificationQuery, NotificationRecord, NotificationType, StatusRecord,
};
use fedblog_core::{Id, IdGenerator, Store};

use super::{
    Cursor, T0, add_local, add_remote, add_status, assert_already_exists, assert_pages, at, reblog,
    status,
};

/// Every kind of page request, for the cursor check.
const ALL_CURSORS: [Cursor; 6] = [
    Cursor::Limit,
    Cursor::MaxId,
    Cursor::SinceId,
    Cursor::MinId,
    Cursor::Combined,
    Cursor::Absent,
];

/// The `limit` the checks count with: more than any fixture holds.
const NO_LIMIT: u64 = 1_000;

/// A notification to `to` from `from` of `kind` about `about` (if any), made at `millis` (its id
/// made at the same time), unfiltered, in a group of its own (`ungrouped-<id>`). Not inserted.
fn notification(
    ids: &IdGenerator,
    to: &AccountRecord,
    from: &AccountRecord,
    kind: NotificationType,
    about: Option<&StatusRecord>,
    millis: i64,
) -> NotificationRecord {
    let id = ids.next_at(millis);
    NotificationRecord {
        id,
        account_id: to.id,
        from_account_id: from.id,
        kind,
        status_id: about.map(|s| s.id),
        subject_id: None,
        group_key: format!("ungrouped-{id}"),
        filtered: false,
        created_at: at(millis),
    }
}

/// Inserts one notification and returns it.
async fn add(store: &dyn Store, n: NotificationRecord) -> NotificationRecord {
    store
        .insert_notifications(std::slice::from_ref(&n))
        .await
        .unwrap_or_else(|e| panic!("insert_notifications([{}]) failed: {e:?}", n.id));
    n
}

/// The stored notification, if any.
async fn find(store: &dyn Store, id: Id) -> Option<NotificationRecord> {
    store
        .notification_by_id(id)
        .await
        .unwrap_or_else(|e| panic!("notification_by_id({id}) failed: {e:?}"))
}

/// A query taking every notification, filtered ones included.
fn everything() -> NotificationQuery {
    NotificationQuery {
        include_filtered: true,
        ..NotificationQuery::default()
    }
}

/// The first page (40) of `account`'s notifications that `query` takes, as records.
async fn page_of(
    store: &dyn Store,
    account: Id,
    query: &NotificationQuery,
) -> Vec<NotificationRecord> {
    store
        .notifications_page(account, query, Page::first(40))
        .await
        .unwrap_or_else(|e| panic!("notifications_page({account}, {query:?}) failed: {e:?}"))
}

/// The ids of the first page (40) of `account`'s notifications that `query` takes.
async fn listed(store: &dyn Store, account: Id, query: &NotificationQuery) -> Vec<Id> {
    page_of(store, account, query)
        .await
        .into_iter()
        .map(|n| n.id)
        .collect()
}

/// The ids of all of `account`'s notifications, filtered ones included, newest first.
async fn all_of(store: &dyn Store, account: Id) -> Vec<Id> {
    listed(store, account, &everything()).await
}

/// `count_notifications` of `account` with `query`, `after` and `limit`.
async fn count(
    store: &dyn Store,
    account: Id,
    query: &NotificationQuery,
    after: Option<Id>,
    limit: u64,
) -> u64 {
    store
        .count_notifications(account, query, after, limit)
        .await
        .unwrap_or_else(|e| {
            panic!("count_notifications({account}, {query:?}, {after:?}, {limit}) failed: {e:?}")
        })
}

/// The ids of these notifications, newest first.
fn newest_first(ns: &[&NotificationRecord]) -> Vec<Id> {
    let mut ids: Vec<Id> = ns.iter().map(|n| n.id).collect();
    ids.sort_by(|a, b| b.cmp(a));
    ids
}

/// Asserts that `query` takes exactly `expected` of `account`'s notifications, in the page
/// (newest first) and in the count.
async fn assert_takes(
    store: &dyn Store,
    account: Id,
    query: &NotificationQuery,
    expected: &[&NotificationRecord],
    contract: &str,
) {
    let want = newest_first(expected);
    assert_eq!(
        listed(store, account, query).await,
        want,
        "notifications_page with {query:?}: {contract}"
    );
    assert_eq!(
        count(store, account, query, None, NO_LIMIT).await,
        want.len() as u64,
        "count_notifications with {query:?}: {contract}"
    );
}

/// A notification comes back exactly as inserted, by id and in its recipient's page: sender,
/// type (every one of them), `status_id` set or unset, `subject_id` (the report or warning) set
/// or unset, `group_key`, `filtered`, and `created_at`
/// to the millisecond. An unknown id finds nothing, and the sender has none of them.
pub async fn notification_round_trips_with_every_field_and_type(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let s = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let mut batch = vec![];
    for (i, kind) in (0i64..).zip(NotificationType::ALL) {
        let about = (i % 2 == 0).then_some(&s);
        batch.push(notification(
            &ids,
            &alice,
            &bob,
            kind,
            about,
            T0 + 10_000 + i * 1_000 + 123,
        ));
    }
    batch[1] = NotificationRecord {
        group_key: format!("favourite-{}-Ω \"grouped\"", s.id),
        filtered: true,
        ..batch[1].clone()
    };
    // A subject (the report or warning of the staff and warning types) set, then unset.
    let subject = ids.next_at(T0 + 5_000);
    for n in batch.iter_mut() {
        if matches!(
            n.kind,
            NotificationType::AdminReport | NotificationType::ModerationWarning
        ) {
            n.subject_id = Some(subject);
        }
    }
    store
        .insert_notifications(&batch)
        .await
        .expect("insert_notifications of a batch with every type");
    for n in &batch {
        assert_eq!(
            find(store, n.id).await.as_ref(),
            Some(n),
            "notification_by_id must return the {} notification as inserted (sender, type, \
             status_id and subject_id set or unset, group_key, filtered, created_at to the \
             millisecond)",
            n.kind.as_str()
        );
    }
    let mut expected = batch.clone();
    expected.reverse();
    assert_eq!(
        page_of(store, alice.id, &everything()).await,
        expected,
        "notifications_page must return the recipient's notifications as inserted, newest first"
    );
    assert_eq!(
        find(store, ids.next_at(T0 + 90_000)).await,
        None,
        "notification_by_id of an unknown id must be None"
    );
    assert_eq!(
        all_of(store, bob.id).await,
        vec![],
        "the sender of notifications must not have them in its own list"
    );
}

/// A batch with an id already taken (or naming one id twice) is `AlreadyExists("notification")`
/// and stores none of its notifications; the stored one stays as it was. An empty batch is fine.
pub async fn duplicate_notification_id_is_already_exists_storing_none(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let first = add(
        store,
        notification(
            &ids,
            &alice,
            &bob,
            NotificationType::Follow,
            None,
            T0 + 1_000,
        ),
    )
    .await;
    let fresh = notification(
        &ids,
        &alice,
        &bob,
        NotificationType::Mention,
        None,
        T0 + 2_000,
    );
    let taken = NotificationRecord {
        id: first.id,
        ..notification(
            &ids,
            &bob,
            &alice,
            NotificationType::Reblog,
            None,
            T0 + 3_000,
        )
    };
    assert_already_exists(
        store.insert_notifications(&[fresh.clone(), taken]).await,
        "notification",
        "insert_notifications with a taken id",
    );
    assert_eq!(
        find(store, fresh.id).await,
        None,
        "insert_notifications is all or none: a refused batch must store none of its notifications"
    );
    assert_eq!(
        find(store, first.id).await,
        Some(first.clone()),
        "a refused insert_notifications must leave the stored notification as it was"
    );
    let twice = notification(
        &ids,
        &alice,
        &bob,
        NotificationType::Favourite,
        None,
        T0 + 4_000,
    );
    assert_already_exists(
        store
            .insert_notifications(&[twice.clone(), twice.clone()])
            .await,
        "notification",
        "insert_notifications naming one id twice",
    );
    assert_eq!(
        find(store, twice.id).await,
        None,
        "insert_notifications is all or none: a batch naming one id twice must store nothing"
    );
    store
        .insert_notifications(&[])
        .await
        .expect("insert_notifications of an empty batch must succeed");
    assert_eq!(
        (all_of(store, alice.id).await, all_of(store, bob.id).await),
        (vec![first.id], vec![]),
        "only the first notification must be stored"
    );
}

/// `notifications_page` lists the account's notifications newest first, and its cursors
/// (`max_id`, `since_id`, `min_id`, `limit`) are notification ids.
pub async fn notifications_page_lists_newest_first_with_cursors(store: &dyn Store) {
    let ids = IdGenerator::default();
    let hub = add_local(store, &ids, "hub").await;
    let other = add_local(store, &ids, "other").await;
    let sender = add_local(store, &ids, "sender").await;
    let mut s = vec![];
    for (i, kind) in (0i64..10).zip(NotificationType::ALL.into_iter().cycle()) {
        let millis = T0 + 10_000 + i * 1_000;
        s.push(
            add(store, notification(&ids, &hub, &sender, kind, None, millis))
                .await
                .id,
        );
        if i % 3 == 0 {
            add(
                store,
                notification(&ids, &other, &sender, kind, None, millis + 500),
            )
            .await;
        }
    }
    let mut expected = s.clone();
    expected.reverse();
    assert_eq!(
        all_of(store, hub.id).await,
        expected,
        "notifications_page must list the account's notifications newest first"
    );
    let query = NotificationQuery::default();
    let query = &query;
    let hub_id = hub.id;
    let read = |page: Page| async move {
        store
            .notifications_page(hub_id, query, page)
            .await
            .expect("notifications_page")
            .into_iter()
            .map(|n| n.id)
            .collect()
    };
    for kind in ALL_CURSORS {
        assert_pages("notifications_page", kind, &s, read).await;
    }
}

/// `notifications_page` and `count_notifications` take the account's own notifications only:
/// not those it sent, not other accounts'.
pub async fn notifications_page_lists_only_the_accounts_own(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let a1 = add(
        store,
        notification(
            &ids,
            &alice,
            &bob,
            NotificationType::Follow,
            None,
            T0 + 1_000,
        ),
    )
    .await;
    let b1 = add(
        store,
        notification(
            &ids,
            &bob,
            &alice,
            NotificationType::Follow,
            None,
            T0 + 2_000,
        ),
    )
    .await;
    let a2 = add(
        store,
        notification(
            &ids,
            &alice,
            &carol,
            NotificationType::Mention,
            None,
            T0 + 3_000,
        ),
    )
    .await;
    let b2 = add(
        store,
        notification(
            &ids,
            &bob,
            &carol,
            NotificationType::Mention,
            None,
            T0 + 4_000,
        ),
    )
    .await;
    assert_takes(
        store,
        alice.id,
        &everything(),
        &[&a1, &a2],
        "must take alice's notifications only",
    )
    .await;
    assert_takes(
        store,
        bob.id,
        &everything(),
        &[&b1, &b2],
        "must take bob's notifications only",
    )
    .await;
    assert_takes(
        store,
        carol.id,
        &everything(),
        &[],
        "an account that was sent nothing has no notifications (it only sent some)",
    )
    .await;
}

/// The query's `types` takes only notifications of those types, `exclude_types` leaves those out
/// (both together: the listed types but the excluded ones), in pages and counts alike.
pub async fn notifications_query_takes_types_and_leaves_out_exclude_types(store: &dyn Store) {
    use NotificationType::{Favourite, Follow, Mention, Reblog};
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let mention = add(
        store,
        notification(&ids, &alice, &bob, Mention, None, T0 + 2_000),
    )
    .await;
    let fav = add(
        store,
        notification(&ids, &alice, &bob, Favourite, Some(&s), T0 + 3_000),
    )
    .await;
    let reb = add(
        store,
        notification(&ids, &alice, &bob, Reblog, Some(&s), T0 + 4_000),
    )
    .await;
    let follow = add(
        store,
        notification(&ids, &alice, &bob, Follow, None, T0 + 5_000),
    )
    .await;
    let q = |types: Option<Vec<NotificationType>>, exclude_types: Vec<NotificationType>| {
        NotificationQuery {
            types,
            exclude_types,
            ..NotificationQuery::default()
        }
    };
    assert_takes(
        store,
        alice.id,
        &q(None, vec![]),
        &[&mention, &fav, &reb, &follow],
        "without types every type must be taken",
    )
    .await;
    assert_takes(
        store,
        alice.id,
        &q(Some(vec![Favourite, Reblog]), vec![]),
        &[&fav, &reb],
        "types must take only notifications of those types",
    )
    .await;
    assert_takes(
        store,
        alice.id,
        &q(None, vec![Favourite, Mention]),
        &[&reb, &follow],
        "exclude_types must leave out notifications of those types",
    )
    .await;
    assert_takes(
        store,
        alice.id,
        &q(Some(vec![Favourite, Reblog]), vec![Reblog]),
        &[&fav],
        "types with exclude_types must take the listed types but the excluded ones",
    )
    .await;
}

/// A query with an empty `types` list (`Some(vec![])`) takes nothing, unlike `None`.
pub async fn notifications_query_with_empty_types_takes_nothing(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let n1 = add(
        store,
        notification(
            &ids,
            &alice,
            &bob,
            NotificationType::Follow,
            None,
            T0 + 1_000,
        ),
    )
    .await;
    let n2 = add(
        store,
        notification(
            &ids,
            &alice,
            &bob,
            NotificationType::Mention,
            None,
            T0 + 2_000,
        ),
    )
    .await;
    assert_takes(
        store,
        alice.id,
        &NotificationQuery::default(),
        &[&n1, &n2],
        "types None must take every type",
    )
    .await;
    assert_takes(
        store,
        alice.id,
        &NotificationQuery {
            types: Some(vec![]),
            include_filtered: true,
            ..NotificationQuery::default()
        },
        &[],
        "an empty types list must take no notification at all",
    )
    .await;
}

/// The query's `from_account_id` takes only the notifications that account sent (combined with
/// the other options).
pub async fn notifications_query_from_account_takes_only_that_senders(store: &dyn Store) {
    use NotificationType::{Favourite, Follow, Mention};
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let dave = add_local(store, &ids, "dave").await;
    let s = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let b_fav = add(
        store,
        notification(&ids, &alice, &bob, Favourite, Some(&s), T0 + 2_000),
    )
    .await;
    let c_fav = add(
        store,
        notification(&ids, &alice, &carol, Favourite, Some(&s), T0 + 3_000),
    )
    .await;
    let b_follow = add(
        store,
        notification(&ids, &alice, &bob, Follow, None, T0 + 4_000),
    )
    .await;
    let c_mention = add(
        store,
        notification(&ids, &alice, &carol, Mention, None, T0 + 5_000),
    )
    .await;
    // Bob's notification from carol: another recipient.
    add(
        store,
        notification(&ids, &bob, &carol, Mention, None, T0 + 6_000),
    )
    .await;
    let from = |a: &AccountRecord| NotificationQuery {
        from_account_id: Some(a.id),
        ..NotificationQuery::default()
    };
    assert_takes(
        store,
        alice.id,
        &from(&bob),
        &[&b_fav, &b_follow],
        "from_account_id must take only the notifications that account sent",
    )
    .await;
    assert_takes(
        store,
        alice.id,
        &from(&carol),
        &[&c_fav, &c_mention],
        "from_account_id must take only the notifications that account sent",
    )
    .await;
    assert_takes(
        store,
        alice.id,
        &NotificationQuery {
            types: Some(vec![Favourite]),
            ..from(&carol)
        },
        &[&c_fav],
        "from_account_id with types must take that sender's notifications of those types",
    )
    .await;
    assert_takes(
        store,
        alice.id,
        &from(&dave),
        &[],
        "from_account_id of an account that sent nothing must take nothing",
    )
    .await;
}

/// A query with `group_key` takes only the account's notifications of that group.
pub async fn notifications_query_group_key_takes_that_group(store: &dyn Store) {
    use NotificationType::{Favourite, Mention};
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let grouped = |n: NotificationRecord, key: &str| NotificationRecord {
        group_key: key.to_string(),
        ..n
    };
    let b_fav = add(
        store,
        grouped(
            notification(&ids, &alice, &bob, Favourite, None, T0 + 1_000),
            "favourite-1-9",
        ),
    )
    .await;
    let c_fav = add(
        store,
        grouped(
            notification(&ids, &alice, &carol, Favourite, None, T0 + 2_000),
            "favourite-1-9",
        ),
    )
    .await;
    add(
        store,
        grouped(
            notification(&ids, &alice, &carol, Favourite, None, T0 + 3_000),
            "favourite-2-9",
        ),
    )
    .await;
    add(
        store,
        notification(&ids, &alice, &bob, Mention, None, T0 + 4_000),
    )
    .await;
    // Bob's own notification under the same key: another recipient.
    add(
        store,
        grouped(
            notification(&ids, &bob, &carol, Favourite, None, T0 + 5_000),
            "favourite-1-9",
        ),
    )
    .await;
    assert_takes(
        store,
        alice.id,
        &NotificationQuery {
            group_key: Some("favourite-1-9".into()),
            ..NotificationQuery::default()
        },
        &[&c_fav, &b_fav],
        "group_key must take only the account's notifications of that group",
    )
    .await;
}

/// Filtered notifications (held back by the notification policy) are left out unless the query
/// has `include_filtered`.
pub async fn notifications_query_leaves_out_filtered_unless_included(store: &dyn Store) {
    use NotificationType::{Follow, Mention};
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let stranger = add_remote(store, &ids, "stranger", "remote.example").await;
    let plain = add(
        store,
        notification(&ids, &alice, &bob, Mention, None, T0 + 1_000),
    )
    .await;
    let held = add(
        store,
        NotificationRecord {
            filtered: true,
            ..notification(&ids, &alice, &stranger, Mention, None, T0 + 2_000)
        },
    )
    .await;
    let held_follow = add(
        store,
        NotificationRecord {
            filtered: true,
            ..notification(&ids, &alice, &stranger, Follow, None, T0 + 3_000)
        },
    )
    .await;
    let plain_follow = add(
        store,
        notification(&ids, &alice, &bob, Follow, None, T0 + 4_000),
    )
    .await;
    assert_takes(
        store,
        alice.id,
        &NotificationQuery::default(),
        &[&plain, &plain_follow],
        "without include_filtered, filtered notifications must be left out",
    )
    .await;
    assert_takes(
        store,
        alice.id,
        &everything(),
        &[&plain, &held, &held_follow, &plain_follow],
        "with include_filtered, filtered notifications must be taken too",
    )
    .await;
    assert_takes(
        store,
        alice.id,
        &NotificationQuery {
            types: Some(vec![Mention]),
            ..everything()
        },
        &[&plain, &held],
        "include_filtered with types must take the filtered ones of those types too",
    )
    .await;
}

/// `count_notifications` counts the account's notifications the query takes with an id above
/// `after` (an id of no notification works as well), and stops at `limit`.
pub async fn count_notifications_counts_after_and_stops_at_limit(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let mut n = vec![];
    for i in 0..6i64 {
        let millis = T0 + 10_000 + i * 1_000;
        n.push(
            add(
                store,
                notification(&ids, &alice, &bob, NotificationType::Mention, None, millis),
            )
            .await,
        );
        if i == 3 {
            add(
                store,
                NotificationRecord {
                    filtered: true,
                    ..notification(
                        &ids,
                        &alice,
                        &carol,
                        NotificationType::Mention,
                        None,
                        millis + 500,
                    )
                },
            )
            .await;
        }
        if i % 2 == 0 {
            add(
                store,
                notification(
                    &ids,
                    &bob,
                    &alice,
                    NotificationType::Follow,
                    None,
                    millis + 700,
                ),
            )
            .await;
        }
    }
    let unfiltered = NotificationQuery::default();
    let q = &unfiltered;
    let all = everything();
    // (label, account, query, after, limit, expected count)
    type Case<'a> = (&'a str, Id, &'a NotificationQuery, Option<Id>, u64, u64);
    let cases: Vec<Case> = vec![
        ("all unfiltered", alice.id, q, None, NO_LIMIT, 6),
        ("all, filtered too", alice.id, &all, None, NO_LIMIT, 7),
        ("after n2", alice.id, q, Some(n[2].id), NO_LIMIT, 3),
        (
            "after an id between n2 and n3",
            alice.id,
            q,
            Some(Id(n[2].id.0 + 1)),
            NO_LIMIT,
            3,
        ),
        ("after the newest", alice.id, q, Some(n[5].id), NO_LIMIT, 0),
        ("limit 4", alice.id, q, None, 4, 4),
        ("limit 1", alice.id, q, None, 1, 1),
        ("limit 6 (as many as there are)", alice.id, q, None, 6, 6),
        ("after n1, limit 2", alice.id, q, Some(n[1].id), 2, 2),
        ("bob's", bob.id, q, None, NO_LIMIT, 3),
        ("carol's (none)", carol.id, q, None, NO_LIMIT, 0),
    ];
    let mut failures = vec![];
    for (label, account, query, after, limit, expected) in cases {
        let got = count(store, account, query, after, limit).await;
        if got != expected {
            failures.push(format!("  {label}: expected {expected}, got {got}"));
        }
    }
    assert!(
        failures.is_empty(),
        "count_notifications must count the account's notifications the query takes, strictly \
         above `after`, no more than `limit` (n0..n5 are alice's unfiltered ones, oldest first):\n{}",
        failures.join("\n")
    );
}

/// `dismiss_notification` removes the account's own notification and returns true once; another
/// account's notification is not removed (false), nor is an unknown id (false).
pub async fn dismiss_notification_removes_only_the_accounts_own(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let a1 = add(
        store,
        notification(
            &ids,
            &alice,
            &bob,
            NotificationType::Follow,
            None,
            T0 + 1_000,
        ),
    )
    .await;
    let a2 = add(
        store,
        notification(
            &ids,
            &alice,
            &bob,
            NotificationType::Mention,
            None,
            T0 + 2_000,
        ),
    )
    .await;
    let b1 = add(
        store,
        notification(
            &ids,
            &bob,
            &alice,
            NotificationType::Follow,
            None,
            T0 + 3_000,
        ),
    )
    .await;
    let dismiss = |account: Id, id: Id| async move {
        store
            .dismiss_notification(account, id)
            .await
            .unwrap_or_else(|e| panic!("dismiss_notification({account}, {id}) failed: {e:?}"))
    };
    assert!(
        dismiss(alice.id, a1.id).await,
        "dismiss_notification of the account's own notification must return true"
    );
    assert_eq!(
        find(store, a1.id).await,
        None,
        "dismiss_notification must remove the notification"
    );
    assert_eq!(
        all_of(store, alice.id).await,
        vec![a2.id],
        "dismiss_notification must remove that notification only"
    );
    assert!(
        !dismiss(alice.id, a1.id).await,
        "dismiss_notification of a notification already dismissed must return false"
    );
    assert!(
        !dismiss(alice.id, b1.id).await,
        "dismiss_notification of another account's notification must return false"
    );
    assert_eq!(
        find(store, b1.id).await,
        Some(b1.clone()),
        "dismiss_notification must not remove another account's notification"
    );
    assert_eq!(
        all_of(store, bob.id).await,
        vec![b1.id],
        "dismiss_notification must not remove another account's notification"
    );
    assert!(
        !dismiss(alice.id, ids.next_at(T0 + 9_000)).await,
        "dismiss_notification of an unknown id must return false"
    );
}

/// `dismiss_notification_group` removes the account's notifications with that group key and
/// returns how many; the account's other groups and other accounts' notifications with the same
/// key stay.
pub async fn dismiss_notification_group_removes_the_accounts_group_only(store: &dyn Store) {
    use NotificationType::{Favourite, Follow};
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let s = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let key = format!("favourite-{}", s.id);
    let grouped = |n: NotificationRecord| NotificationRecord {
        group_key: key.clone(),
        ..n
    };
    add(
        store,
        grouped(notification(
            &ids,
            &alice,
            &bob,
            Favourite,
            Some(&s),
            T0 + 2_000,
        )),
    )
    .await;
    add(
        store,
        grouped(notification(
            &ids,
            &alice,
            &carol,
            Favourite,
            Some(&s),
            T0 + 3_000,
        )),
    )
    .await;
    let other_group = add(
        store,
        NotificationRecord {
            group_key: "follow-1".into(),
            ..notification(&ids, &alice, &bob, Follow, None, T0 + 4_000)
        },
    )
    .await;
    let lone = add(
        store,
        notification(&ids, &alice, &carol, Follow, None, T0 + 5_000),
    )
    .await;
    let bobs = add(
        store,
        grouped(notification(
            &ids,
            &bob,
            &carol,
            Favourite,
            Some(&s),
            T0 + 6_000,
        )),
    )
    .await;
    let dismiss = |account: Id, key: String| async move {
        store
            .dismiss_notification_group(account, &key)
            .await
            .unwrap_or_else(|e| {
                panic!("dismiss_notification_group({account}, {key:?}) failed: {e:?}")
            })
    };
    assert_eq!(
        dismiss(alice.id, key.clone()).await,
        2,
        "dismiss_notification_group must return how many of the account's notifications it removed"
    );
    assert_eq!(
        all_of(store, alice.id).await,
        vec![lone.id, other_group.id],
        "dismiss_notification_group must remove that group only, keeping the account's others"
    );
    assert_eq!(
        all_of(store, bob.id).await,
        vec![bobs.id],
        "dismiss_notification_group must keep other accounts' notifications with the same key"
    );
    assert_eq!(
        dismiss(alice.id, key.clone()).await,
        0,
        "dismiss_notification_group of a group already dismissed must return 0"
    );
    assert_eq!(
        dismiss(alice.id, "no-such-group".into()).await,
        0,
        "dismiss_notification_group of an unknown key must return 0"
    );
}

/// `clear_notifications` removes all of the account's notifications (filtered ones too) and
/// returns how many; other accounts keep theirs.
pub async fn clear_notifications_removes_the_accounts_own_and_counts_them(store: &dyn Store) {
    use NotificationType::{Follow, Mention};
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    add(
        store,
        notification(&ids, &alice, &bob, Follow, None, T0 + 1_000),
    )
    .await;
    add(
        store,
        notification(&ids, &alice, &carol, Mention, None, T0 + 2_000),
    )
    .await;
    add(
        store,
        NotificationRecord {
            filtered: true,
            ..notification(&ids, &alice, &carol, Follow, None, T0 + 3_000)
        },
    )
    .await;
    let b1 = add(
        store,
        notification(&ids, &bob, &alice, Follow, None, T0 + 4_000),
    )
    .await;
    let b2 = add(
        store,
        notification(&ids, &bob, &carol, Mention, None, T0 + 5_000),
    )
    .await;
    let clear = |account: Id| async move {
        store
            .clear_notifications(account)
            .await
            .unwrap_or_else(|e| panic!("clear_notifications({account}) failed: {e:?}"))
    };
    assert_eq!(
        clear(alice.id).await,
        3,
        "clear_notifications must return how many notifications it removed (filtered ones too)"
    );
    assert_eq!(
        all_of(store, alice.id).await,
        vec![],
        "clear_notifications must remove all of the account's notifications"
    );
    assert_eq!(
        all_of(store, bob.id).await,
        vec![b2.id, b1.id],
        "clear_notifications must keep other accounts' notifications"
    );
    assert_eq!(
        clear(alice.id).await,
        0,
        "clear_notifications of an account without notifications must return 0"
    );
    assert_eq!(
        clear(carol.id).await,
        0,
        "clear_notifications of an account without notifications must return 0"
    );
}

/// `retract_notifications` removes the account's notifications from that sender, of that type
/// only when given and about that status only when given, returning how many; notifications of
/// other senders, types, statuses or recipients stay.
pub async fn retract_notifications_removes_only_the_matching_ones(store: &dyn Store) {
    use NotificationType::{Favourite, Follow, FollowRequest, Reblog};
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let dave = add_local(store, &ids, "dave").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let d1 = add_status(store, status(&ids, &dave, T0 + 3_000)).await;
    let n = |to: &AccountRecord, from: &AccountRecord, kind, about, millis| {
        notification(&ids, to, from, kind, about, millis)
    };
    let fav_b1 = add(store, n(&alice, &bob, Favourite, Some(&s1), T0 + 10_000)).await;
    let fav_b2 = add(store, n(&alice, &bob, Favourite, Some(&s2), T0 + 11_000)).await;
    let reb_b1 = add(store, n(&alice, &bob, Reblog, Some(&s1), T0 + 12_000)).await;
    let fol_b = add(store, n(&alice, &bob, Follow, None, T0 + 13_000)).await;
    let fav_c1 = add(store, n(&alice, &carol, Favourite, Some(&s1), T0 + 14_000)).await;
    let req_c = add(store, n(&alice, &carol, FollowRequest, None, T0 + 15_000)).await;
    let d_fav = add(store, n(&dave, &bob, Favourite, Some(&d1), T0 + 16_000)).await;
    let d_fol = add(store, n(&dave, &bob, Follow, None, T0 + 17_000)).await;
    let alice_id = alice.id;
    let retract = |from: Id, kind: Option<NotificationType>, about: Option<Id>| async move {
        store
            .retract_notifications(alice_id, from, kind, about)
            .await
            .unwrap_or_else(|e| {
                panic!("retract_notifications(alice, {from}, {kind:?}, {about:?}) failed: {e:?}")
            })
    };
    assert_eq!(
        retract(bob.id, Some(Favourite), Some(s1.id)).await,
        1,
        "retract_notifications(sender, kind, status) must remove the one notification matching all three"
    );
    assert_eq!(
        find(store, fav_b1.id).await,
        None,
        "retract_notifications must remove the matching notification"
    );
    assert_eq!(
        all_of(store, alice.id).await,
        newest_first(&[&fav_b2, &reb_b1, &fol_b, &fav_c1, &req_c]),
        "retract_notifications(bob, favourite, s1) must keep bob's favourite of another status, \
         bob's reblog of s1 and carol's favourite of s1"
    );
    assert_eq!(
        retract(bob.id, Some(Follow), None).await,
        1,
        "retract_notifications(sender, kind, no status) must remove the sender's notifications of that kind"
    );
    assert_eq!(
        all_of(store, dave.id).await,
        newest_first(&[&d_fav, &d_fol]),
        "retract_notifications must not touch another recipient's notifications from the sender"
    );
    assert_eq!(
        retract(carol.id, None, None).await,
        2,
        "retract_notifications(sender) without kind or status must remove all of that sender's"
    );
    assert_eq!(
        retract(bob.id, None, Some(s2.id)).await,
        1,
        "retract_notifications(sender, no kind, status) must remove the sender's notifications about that status"
    );
    assert_eq!(
        all_of(store, alice.id).await,
        vec![reb_b1.id],
        "after the retractions only bob's reblog of s1 must be left"
    );
    assert_eq!(
        retract(bob.id, Some(Favourite), Some(s1.id)).await,
        0,
        "retracting what is gone already must return 0"
    );
    assert_eq!(
        all_of(store, dave.id).await,
        newest_first(&[&d_fav, &d_fol]),
        "retract_notifications must not touch another recipient's notifications"
    );
}

/// `delete_status` removes every notification about the status, whoever sent or received it
/// (its reblogs' reblog notifications among them); notifications about other statuses and
/// without a status stay.
pub async fn delete_status_removes_notifications_about_it(store: &dyn Store) {
    use NotificationType::{Favourite, Follow, Mention, Poll, Reblog, Update};
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    add_status(store, reblog(&ids, &bob, &s1, T0 + 3_000)).await;
    let c1 = add_status(
        store,
        StatusRecord {
            mentions: vec![alice.id],
            ..status(&ids, &carol, T0 + 4_000)
        },
    )
    .await;
    let n = |to: &AccountRecord, from: &AccountRecord, kind, about, millis| {
        notification(&ids, to, from, kind, about, millis)
    };
    let gone = [
        add(store, n(&alice, &bob, Favourite, Some(&s1), T0 + 10_000)).await,
        add(store, n(&alice, &bob, Reblog, Some(&s1), T0 + 11_000)).await,
        add(store, n(&bob, &alice, Poll, Some(&s1), T0 + 12_000)).await,
        add(store, n(&bob, &alice, Update, Some(&s1), T0 + 13_000)).await,
    ];
    let fav2 = add(store, n(&alice, &carol, Favourite, Some(&s2), T0 + 14_000)).await;
    let mention = add(store, n(&alice, &carol, Mention, Some(&c1), T0 + 15_000)).await;
    let follow = add(store, n(&alice, &bob, Follow, None, T0 + 16_000)).await;
    store.delete_status(s1.id).await.expect("delete_status");
    for g in &gone {
        assert_eq!(
            find(store, g.id).await,
            None,
            "delete_status must remove the {} notification about the status (to {}, from {})",
            g.kind.as_str(),
            g.account_id,
            g.from_account_id
        );
    }
    assert_eq!(
        all_of(store, alice.id).await,
        newest_first(&[&fav2, &mention, &follow]),
        "delete_status must keep notifications about other statuses and without a status"
    );
    assert_eq!(
        all_of(store, bob.id).await,
        vec![],
        "delete_status must remove notifications about the status sent to others too"
    );
    store.delete_status(c1.id).await.expect("delete_status");
    assert_eq!(
        all_of(store, alice.id).await,
        newest_first(&[&fav2, &follow]),
        "deleting a mentioning status must remove the mention notification about it"
    );
}

/// Deleting a reblog removes the `Reblog` notification its author sent about the original, and
/// nothing else: the original stays, and so do the author's other notifications about it (a
/// favourite), other accounts' reblog notifications about it and the author's reblog
/// notifications about other statuses.
pub async fn delete_reblog_removes_its_reblog_notification_only(store: &dyn Store) {
    use NotificationType::{Favourite, Reblog};
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let r1 = add_status(store, reblog(&ids, &bob, &s1, T0 + 3_000)).await;
    add_status(store, reblog(&ids, &bob, &s2, T0 + 4_000)).await;
    add_status(store, reblog(&ids, &carol, &s1, T0 + 5_000)).await;
    let n = |from: &AccountRecord, kind, about, millis| {
        notification(&ids, &alice, from, kind, about, millis)
    };
    let bob_reblog_s1 = add(store, n(&bob, Reblog, Some(&s1), T0 + 10_000)).await;
    let bob_reblog_s2 = add(store, n(&bob, Reblog, Some(&s2), T0 + 11_000)).await;
    let carol_reblog_s1 = add(store, n(&carol, Reblog, Some(&s1), T0 + 12_000)).await;
    let bob_fav_s1 = add(store, n(&bob, Favourite, Some(&s1), T0 + 13_000)).await;
    store.delete_status(r1.id).await.expect("delete_status");
    assert_eq!(
        find(store, bob_reblog_s1.id).await,
        None,
        "deleting a reblog must remove its author's reblog notification about the original"
    );
    assert_eq!(
        all_of(store, alice.id).await,
        newest_first(&[&bob_reblog_s2, &carol_reblog_s1, &bob_fav_s1]),
        "deleting a reblog must keep the reblogger's other notifications (about the original or \
         other statuses) and other accounts' reblog notifications"
    );
    assert!(
        store
            .status_by_id(s1.id)
            .await
            .expect("status_by_id")
            .is_some(),
        "deleting a reblog must keep the original"
    );
}

/// `delete_account` removes the notifications sent to the account and those it sent, and those
/// about its statuses; notifications between other accounts about other statuses stay.
pub async fn delete_account_removes_notifications_to_and_from_it(store: &dyn Store) {
    use NotificationType::{Favourite, Follow, Mention, Reblog};
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let a1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let b1 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let n = |to: &AccountRecord, from: &AccountRecord, kind, about, millis| {
        notification(&ids, to, from, kind, about, millis)
    };
    let to_it = [
        add(store, n(&alice, &bob, Follow, None, T0 + 10_000)).await,
        add(store, n(&alice, &carol, Favourite, Some(&a1), T0 + 11_000)).await,
    ];
    let from_it = [
        add(store, n(&bob, &alice, Mention, Some(&a1), T0 + 12_000)).await,
        add(store, n(&bob, &alice, Favourite, Some(&b1), T0 + 13_000)).await,
        add(store, n(&carol, &alice, Follow, None, T0 + 14_000)).await,
    ];
    // Between two others, about one of its statuses.
    let about_it = add(store, n(&carol, &bob, Reblog, Some(&a1), T0 + 15_000)).await;
    let kept_carol = add(store, n(&carol, &bob, Favourite, Some(&b1), T0 + 16_000)).await;
    let kept_bob = add(store, n(&bob, &carol, Follow, None, T0 + 17_000)).await;
    store
        .delete_account(alice.id)
        .await
        .expect("delete_account");
    for g in &to_it {
        assert_eq!(
            find(store, g.id).await,
            None,
            "delete_account must remove the notifications sent to the account ({})",
            g.kind.as_str()
        );
    }
    for g in &from_it {
        assert_eq!(
            find(store, g.id).await,
            None,
            "delete_account must remove the notifications the account sent ({})",
            g.kind.as_str()
        );
    }
    assert_eq!(
        find(store, about_it.id).await,
        None,
        "delete_account must remove notifications about its statuses, as delete_status does"
    );
    assert_eq!(
        (all_of(store, bob.id).await, all_of(store, carol.id).await),
        (vec![kept_bob.id], vec![kept_carol.id]),
        "delete_account must keep notifications between other accounts about other statuses"
    );
}
