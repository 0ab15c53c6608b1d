//! Checks of [`ScheduledStatusStore`](fedblog_core::store::ScheduledStatusStore): statuses
//! waiting for their publication time, listed per account in cursor pages.

use fedblog_core::pagination::Page;
use fedblog_core::store::ScheduledStatusRecord;
use fedblog_core::{Id, IdGenerator, Store};

use super::{
    Cursor, T0, add_app, add_local, assert_already_exists, assert_not_found, assert_pages, at,
    scheduled_status,
};

async fn insert(store: &dyn Store, s: ScheduledStatusRecord) -> ScheduledStatusRecord {
    store
        .insert_scheduled_status(&s)
        .await
        .unwrap_or_else(|e| panic!("insert_scheduled_status({}) failed: {e:?}", s.id));
    s
}

async fn get(store: &dyn Store, id: Id) -> Option<ScheduledStatusRecord> {
    store
        .scheduled_status_by_id(id)
        .await
        .unwrap_or_else(|e| panic!("scheduled_status_by_id({id}) failed: {e:?}"))
}

async fn list(store: &dyn Store, account: Id) -> Vec<Id> {
    store
        .scheduled_statuses(account, Page::first(40))
        .await
        .expect("scheduled_statuses")
        .into_iter()
        .map(|s| s.id)
        .collect()
}

/// A scheduled status comes back exactly as inserted, with and without an application,
/// timestamps to the millisecond; an unknown id is `None`.
pub async fn scheduled_status_round_trips(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let app = add_app(store, &ids, "client-a").await;
    let plain = scheduled_status(&ids, alice.id, T0 + 1_234);
    let full = ScheduledStatusRecord {
        scheduled_at: at(T0 + 7_200_567),
        params: r#"{"text":"later ✓","visibility":"unlisted","media_ids":["1","2"]}"#.into(),
        application_id: Some(app.id),
        created_at: at(T0 + 2_345),
        ..scheduled_status(&ids, alice.id, T0 + 2_000)
    };
    for s in [&plain, &full] {
        store
            .insert_scheduled_status(s)
            .await
            .expect("insert_scheduled_status");
    }
    for s in [&plain, &full] {
        assert_eq!(
            get(store, s.id).await.as_ref(),
            Some(s),
            "scheduled_status_by_id must return the scheduled status exactly as inserted"
        );
    }
    assert_eq!(
        get(store, ids.next_at(T0)).await,
        None,
        "scheduled_status_by_id of an unknown id must be None"
    );
}

/// A taken id is `AlreadyExists("scheduled_status")` and the first one is unchanged.
pub async fn duplicate_scheduled_status_id_is_already_exists(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let first = insert(store, scheduled_status(&ids, alice.id, T0 + 1_000)).await;
    let second = ScheduledStatusRecord {
        params: r#"{"text":"impostor"}"#.into(),
        ..first.clone()
    };
    assert_already_exists(
        store.insert_scheduled_status(&second).await,
        "scheduled_status",
        "insert_scheduled_status with a taken id",
    );
    assert_eq!(
        get(store, first.id).await,
        Some(first),
        "a rejected insert_scheduled_status must not change the existing one"
    );
}

/// An account's scheduled statuses are listed newest id first, whatever the order of insertion
/// and of `scheduled_at`, and only its own.
pub async fn scheduled_statuses_list_newest_first_per_account(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let a1 = scheduled_status(&ids, alice.id, T0 + 1_000);
    let b1 = scheduled_status(&ids, bob.id, T0 + 2_000);
    let a2 = ScheduledStatusRecord {
        // Published before a1: the list still goes by id.
        scheduled_at: at(T0 + 60_000),
        ..scheduled_status(&ids, alice.id, T0 + 3_000)
    };
    let a3 = scheduled_status(&ids, alice.id, T0 + 4_000);
    for s in [&a2, &b1, &a3, &a1] {
        insert(store, s.clone()).await;
    }
    assert_eq!(
        list(store, alice.id).await,
        vec![a3.id, a2.id, a1.id],
        "scheduled_statuses must list the account's own, newest id first"
    );
    assert_eq!(
        list(store, bob.id).await,
        vec![b1.id],
        "scheduled_statuses is per account"
    );
    let got = store
        .scheduled_statuses(alice.id, Page::first(40))
        .await
        .expect("scheduled_statuses");
    assert_eq!(
        got,
        vec![a3, a2, a1],
        "scheduled_statuses returns the records exactly as inserted"
    );
    let nobody = ids.next_at(T0);
    assert_eq!(
        list(store, nobody).await,
        vec![],
        "an account without scheduled statuses has an empty list"
    );
}

/// Ten scheduled statuses of one account, one second apart, with another account's in between,
/// read page by page.
async fn scheduled_pages(store: &dyn Store, kind: Cursor) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let mut s = vec![];
    for i in 0..10 {
        let own = scheduled_status(&ids, alice.id, T0 + 10_000 + i * 1_000);
        s.push(own.id);
        insert(store, own).await;
        if i % 3 == 0 {
            insert(
                store,
                scheduled_status(&ids, bob.id, T0 + 10_000 + i * 1_000 + 500),
            )
            .await;
        }
    }
    let alice = alice.id;
    let read = |page: Page| async move {
        store
            .scheduled_statuses(alice, page)
            .await
            .expect("scheduled_statuses")
            .into_iter()
            .map(|x| x.id)
            .collect()
    };
    assert_pages("scheduled_statuses", kind, &s, read).await;
}

/// Scheduled status pages honour `limit`: the newest first.
pub async fn scheduled_statuses_page_limit(store: &dyn Store) {
    scheduled_pages(store, Cursor::Limit).await;
}

/// Scheduled status pages honour `max_id`: strictly older ids, newest first.
pub async fn scheduled_statuses_page_max_id(store: &dyn Store) {
    scheduled_pages(store, Cursor::MaxId).await;
}

/// Scheduled status pages honour `since_id`: the newest strictly newer than it.
pub async fn scheduled_statuses_page_since_id(store: &dyn Store) {
    scheduled_pages(store, Cursor::SinceId).await;
}

/// Scheduled status pages honour `min_id`: the ones immediately newer than it, newest first.
pub async fn scheduled_statuses_page_min_id(store: &dyn Store) {
    scheduled_pages(store, Cursor::MinId).await;
}

/// Scheduled status pages honour `max_id` together with `since_id` or `min_id`.
pub async fn scheduled_statuses_page_combined_cursors(store: &dyn Store) {
    scheduled_pages(store, Cursor::Combined).await;
}

/// Scheduled status cursors need not be ids of scheduled statuses: they are compared as ids.
pub async fn scheduled_statuses_page_absent_cursors(store: &dyn Store) {
    scheduled_pages(store, Cursor::Absent).await;
}

/// `update_scheduled_status` replaces `scheduled_at` and `params` and keeps the rest (author,
/// application, creation time), whatever the record passed says about them.
pub async fn update_scheduled_status_replaces_time_and_params(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let app = add_app(store, &ids, "client-a").await;
    let original = insert(
        store,
        ScheduledStatusRecord {
            application_id: Some(app.id),
            ..scheduled_status(&ids, alice.id, T0 + 1_000)
        },
    )
    .await;
    let other = insert(store, scheduled_status(&ids, alice.id, T0 + 2_000)).await;
    let update = ScheduledStatusRecord {
        id: original.id,
        account_id: bob.id,
        scheduled_at: at(T0 + 86_400_123),
        params: r#"{"text":"moved"}"#.into(),
        application_id: None,
        created_at: at(T0 + 9_999),
    };
    store
        .update_scheduled_status(&update)
        .await
        .expect("update_scheduled_status");
    let expected = ScheduledStatusRecord {
        scheduled_at: update.scheduled_at,
        params: update.params.clone(),
        ..original.clone()
    };
    assert_eq!(
        get(store, original.id).await,
        Some(expected),
        "update_scheduled_status must replace scheduled_at and params only"
    );
    assert_eq!(
        get(store, other.id).await,
        Some(other),
        "update_scheduled_status must not touch other scheduled statuses"
    );
    assert_eq!(
        list(store, bob.id).await,
        vec![],
        "update_scheduled_status does not move a scheduled status to another account"
    );
}

/// Updating an unknown scheduled status is `NotFound`.
pub async fn update_unknown_scheduled_status_is_not_found(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    insert(store, scheduled_status(&ids, alice.id, T0 + 1_000)).await;
    let ghost = scheduled_status(&ids, alice.id, T0 + 2_000);
    assert_not_found(
        store.update_scheduled_status(&ghost).await,
        "update_scheduled_status of an unknown id",
    );
    assert_eq!(
        get(store, ghost.id).await,
        None,
        "an update of an unknown id must not insert it"
    );
}

/// `delete_scheduled_status` removes it and says so (`true`), then `false`; others stay.
pub async fn delete_scheduled_status_true_then_false(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let doomed = insert(store, scheduled_status(&ids, alice.id, T0 + 1_000)).await;
    let kept = insert(store, scheduled_status(&ids, alice.id, T0 + 2_000)).await;
    let r = store
        .delete_scheduled_status(doomed.id)
        .await
        .expect("delete_scheduled_status");
    assert!(r, "delete_scheduled_status of a stored one must be true");
    assert_eq!(get(store, doomed.id).await, None, "a deleted one is gone");
    assert_eq!(
        list(store, alice.id).await,
        vec![kept.id],
        "a deleted one leaves the account's list"
    );
    let r = store
        .delete_scheduled_status(doomed.id)
        .await
        .expect("delete_scheduled_status");
    assert!(!r, "deleting it again must be false");
    let r = store
        .delete_scheduled_status(ids.next_at(T0))
        .await
        .expect("delete_scheduled_status of an unknown id is Ok(false), not an error");
    assert!(!r, "delete_scheduled_status of an unknown id must be false");
    assert_eq!(get(store, kept.id).await, Some(kept), "others stay");
}
