//! Checks of [`InteractionStore`](fedblog_core::store::InteractionStore): favourites (with the
//! status's `favourites_count`), bookmarks, pins, reblog lookups, replies and muted threads.

use fedblog_core::pagination::Page;
use fedblog_core::store::{AccountRecord, StatusRecord};
use fedblog_core::{Id, IdGenerator, Store};

use super::{
    Cursor, T0, add_local, add_remote, add_status, assert_pages, counters, reblog, reply, sorted,
    status,
};

/// Favourites `status` as `account` with an id made at `millis`; returns the id.
async fn favourite(
    store: &dyn Store,
    ids: &IdGenerator,
    millis: i64,
    account: Id,
    status: Id,
) -> Id {
    let id = ids.next_at(millis);
    let new = store
        .insert_favourite(id, account, status)
        .await
        .unwrap_or_else(|e| panic!("insert_favourite({account} -> {status}) failed: {e:?}"));
    assert!(new, "insert_favourite of a new favourite must return true");
    id
}

/// Bookmarks `status` as `account` with an id made at `millis`; returns the id.
async fn bookmark(
    store: &dyn Store,
    ids: &IdGenerator,
    millis: i64,
    account: Id,
    status: Id,
) -> Id {
    let id = ids.next_at(millis);
    let new = store
        .insert_bookmark(id, account, status)
        .await
        .unwrap_or_else(|e| panic!("insert_bookmark({account} -> {status}) failed: {e:?}"));
    assert!(new, "insert_bookmark of a new bookmark must return true");
    id
}

/// Pins `status` as `account` with an id made at `millis`; returns the id.
async fn pin(store: &dyn Store, ids: &IdGenerator, millis: i64, account: Id, status: Id) -> Id {
    let id = ids.next_at(millis);
    let new = store
        .insert_pin(id, account, status)
        .await
        .unwrap_or_else(|e| panic!("insert_pin({account} -> {status}) failed: {e:?}"));
    assert!(new, "insert_pin of a new pin must return true");
    id
}

async fn favourites(store: &dyn Store, account: Id) -> Vec<(Id, Id)> {
    store
        .favourites_page(account, Page::first(40))
        .await
        .expect("favourites_page")
}

async fn favourited_by(store: &dyn Store, status: Id) -> Vec<(Id, Id)> {
    store
        .favourited_by_page(status, Page::first(40))
        .await
        .expect("favourited_by_page")
}

async fn bookmarks(store: &dyn Store, account: Id) -> Vec<(Id, Id)> {
    store
        .bookmarks_page(account, Page::first(40))
        .await
        .expect("bookmarks_page")
}

async fn pinned(store: &dyn Store, account: Id) -> Vec<Id> {
    store
        .pinned_status_ids(account)
        .await
        .expect("pinned_status_ids")
}

/// Three accounts and two statuses by the third: `(alice, bob, carol, s1, s2)`.
async fn fixture(
    store: &dyn Store,
    ids: &IdGenerator,
) -> (
    AccountRecord,
    AccountRecord,
    AccountRecord,
    StatusRecord,
    StatusRecord,
) {
    let alice = add_local(store, ids, "alice").await;
    let bob = add_remote(store, ids, "bob", "remote.example").await;
    let carol = add_local(store, ids, "carol").await;
    let s1 = add_status(store, status(ids, &carol, T0 + 1_000)).await;
    let s2 = add_status(store, status(ids, &carol, T0 + 2_000)).await;
    (alice, bob, carol, s1, s2)
}

/// A new favourite returns true and raises the status's `favourites_count` by one; repeating it
/// (same or new id) returns false, keeps the first id and does not count again. Favourites of
/// other accounts count too; other statuses' counts stay.
pub async fn insert_favourite_counts_once_keeping_first_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, bob, _, s1, s2) = fixture(store, &ids).await;
    let first = favourite(store, &ids, T0 + 10_000, alice.id, s1.id).await;
    assert_eq!(
        counters(store, s1.id).await,
        (0, 0, 1),
        "a new favourite must raise favourites_count by one (and no other counter)"
    );
    for (label, id) in [
        ("the same id", first),
        ("a new id", ids.next_at(T0 + 11_000)),
    ] {
        let new = store
            .insert_favourite(id, alice.id, s1.id)
            .await
            .unwrap_or_else(|e| panic!("insert_favourite is idempotent: repeating it with {label} must succeed, got {e:?}"));
        assert!(
            !new,
            "a repeated insert_favourite (with {label}) must return false"
        );
    }
    assert_eq!(
        counters(store, s1.id).await,
        (0, 0, 1),
        "a repeated favourite must not count again"
    );
    assert_eq!(
        favourites(store, alice.id).await,
        vec![(first, s1.id)],
        "a repeated insert_favourite must keep the first id and list the status once"
    );
    favourite(store, &ids, T0 + 12_000, bob.id, s1.id).await;
    assert_eq!(
        counters(store, s1.id).await,
        (0, 0, 2),
        "another account's favourite must count too"
    );
    assert_eq!(
        counters(store, s2.id).await,
        (0, 0, 0),
        "favourites of one status must not count on another"
    );
}

/// `delete_favourite` returns true and lowers the count once, then returns false and changes
/// nothing; other accounts' favourites of the status stay.
pub async fn delete_favourite_lowers_count_true_then_false(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, bob, _, s1, s2) = fixture(store, &ids).await;
    favourite(store, &ids, T0 + 10_000, alice.id, s1.id).await;
    let kept = favourite(store, &ids, T0 + 11_000, bob.id, s1.id).await;
    assert!(
        store
            .delete_favourite(alice.id, s1.id)
            .await
            .expect("delete_favourite"),
        "delete_favourite of an existing favourite must return true"
    );
    assert_eq!(
        counters(store, s1.id).await,
        (0, 0, 1),
        "delete_favourite must lower favourites_count by one"
    );
    for (account, status, label) in [
        (alice.id, s1.id, "an already deleted favourite"),
        (alice.id, s2.id, "a favourite never made"),
    ] {
        assert!(
            !store
                .delete_favourite(account, status)
                .await
                .expect("delete_favourite"),
            "delete_favourite of {label} must return false"
        );
    }
    assert_eq!(
        counters(store, s1.id).await,
        (0, 0, 1),
        "delete_favourite of an absent favourite must not lower the count"
    );
    assert_eq!(
        counters(store, s2.id).await,
        (0, 0, 0),
        "delete_favourite of an absent favourite must not lower the count below zero"
    );
    assert_eq!(
        favourites(store, alice.id).await,
        vec![],
        "a deleted favourite must leave the account's favourites"
    );
    assert_eq!(
        favourited_by(store, s1.id).await,
        vec![(kept, bob.id)],
        "delete_favourite must keep other accounts' favourites of the status"
    );
}

/// `favourited_among` lists the given statuses the account favourited (in no particular order),
/// not the ones other accounts favourited, and nothing for no ids.
pub async fn favourited_among_is_per_account(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, bob, carol, s1, s2) = fixture(store, &ids).await;
    let s3 = add_status(store, status(&ids, &carol, T0 + 3_000)).await;
    favourite(store, &ids, T0 + 10_000, alice.id, s1.id).await;
    favourite(store, &ids, T0 + 11_000, alice.id, s3.id).await;
    favourite(store, &ids, T0 + 12_000, bob.id, s2.id).await;
    let among = |account: Id, statuses: Vec<Id>| async move {
        sorted(
            store
                .favourited_among(account, &statuses)
                .await
                .expect("favourited_among"),
        )
    };
    assert_eq!(
        among(alice.id, vec![s3.id, s2.id, s1.id]).await,
        sorted(vec![s1.id, s3.id]),
        "favourited_among must list exactly the given statuses the account favourited"
    );
    assert_eq!(
        among(alice.id, vec![s2.id]).await,
        vec![],
        "favourited_among must not list statuses only other accounts favourited"
    );
    assert_eq!(
        among(bob.id, vec![s1.id, s2.id, s3.id]).await,
        vec![s2.id],
        "favourited_among is per account"
    );
    assert_eq!(
        among(alice.id, vec![]).await,
        vec![],
        "favourited_among of no ids must be empty"
    );
}

/// Ten statuses favourited in the opposite order of their creation, one second apart, plus
/// other accounts' favourites in between; returns `(account, favourite ids oldest first, the
/// statuses in the same order)`.
async fn ten_favourites(store: &dyn Store, ids: &IdGenerator) -> (Id, Vec<Id>, Vec<Id>) {
    let alice = add_local(store, ids, "alice").await.id;
    let bob = add_local(store, ids, "bob").await.id;
    let carol = add_local(store, ids, "carol").await;
    let mut statuses = vec![];
    for i in 0..10 {
        statuses.push(
            add_status(store, status(ids, &carol, T0 + 1_000 * (i + 1)))
                .await
                .id,
        );
    }
    statuses.reverse();
    let mut favs = vec![];
    for (i, &s) in (0i64..).zip(&statuses) {
        let millis = T0 + 100_000 + i * 1_000;
        favs.push(favourite(store, ids, millis, alice, s).await);
        if i % 3 == 0 {
            favourite(store, ids, millis + 500, bob, s).await;
        }
    }
    (alice, favs, statuses)
}

/// `favourites_page` pairs each favourite id with the status, newest favourite first (not by
/// status id), lists only the account's favourites, and pages on favourite ids.
pub async fn favourites_page_lists_newest_favourite_first_with_cursors(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, favs, statuses) = ten_favourites(store, &ids).await;
    let expected: Vec<(Id, Id)> = favs.iter().copied().zip(statuses).rev().collect();
    assert_eq!(
        favourites(store, alice).await,
        expected,
        "favourites_page must pair each favourite id with the status, newest favourite first, \
         the account's favourites only"
    );
    let read = |page: Page| async move {
        store
            .favourites_page(alice, page)
            .await
            .expect("favourites_page")
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    };
    for kind in [
        Cursor::Limit,
        Cursor::MaxId,
        Cursor::SinceId,
        Cursor::MinId,
        Cursor::Combined,
        Cursor::Absent,
    ] {
        assert_pages("favourites_page (on favourite ids)", kind, &favs, read).await;
    }
}

/// `favourited_by_page` pairs each favourite id with the account, newest first, lists only
/// that status's favourites, and pages on favourite ids.
pub async fn favourited_by_page_lists_newest_first_with_cursors(store: &dyn Store) {
    let ids = IdGenerator::default();
    let author = add_local(store, &ids, "author").await;
    let s = add_status(store, status(&ids, &author, T0 + 1_000))
        .await
        .id;
    let other = add_status(store, status(&ids, &author, T0 + 2_000))
        .await
        .id;
    let mut accounts = vec![];
    for i in 0..10 {
        accounts.push(add_local(store, &ids, &format!("u{i}")).await.id);
    }
    accounts.reverse();
    let mut favs = vec![];
    for (i, &a) in (0i64..).zip(&accounts) {
        let millis = T0 + 100_000 + i * 1_000;
        favs.push(favourite(store, &ids, millis, a, s).await);
        if i % 3 == 0 {
            favourite(store, &ids, millis + 500, a, other).await;
        }
    }
    let expected: Vec<(Id, Id)> = favs.iter().copied().zip(accounts).rev().collect();
    assert_eq!(
        favourited_by(store, s).await,
        expected,
        "favourited_by_page must pair each favourite id with the account, newest first, \
         that status's favourites only"
    );
    let read = |page: Page| async move {
        store
            .favourited_by_page(s, page)
            .await
            .expect("favourited_by_page")
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    };
    for kind in [
        Cursor::Limit,
        Cursor::MaxId,
        Cursor::SinceId,
        Cursor::MinId,
        Cursor::Combined,
        Cursor::Absent,
    ] {
        assert_pages("favourited_by_page (on favourite ids)", kind, &favs, read).await;
    }
}

/// A new bookmark returns true; repeating it (same or new id) returns false and keeps the first
/// id. Bookmarks touch no counter of the status and are not favourites.
pub async fn insert_bookmark_is_idempotent_keeping_first_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, _, _, s1, _) = fixture(store, &ids).await;
    let first = bookmark(store, &ids, T0 + 10_000, alice.id, s1.id).await;
    for (label, id) in [
        ("the same id", first),
        ("a new id", ids.next_at(T0 + 11_000)),
    ] {
        let new = store
            .insert_bookmark(id, alice.id, s1.id)
            .await
            .unwrap_or_else(|e| panic!("insert_bookmark is idempotent: repeating it with {label} must succeed, got {e:?}"));
        assert!(
            !new,
            "a repeated insert_bookmark (with {label}) must return false"
        );
    }
    assert_eq!(
        bookmarks(store, alice.id).await,
        vec![(first, s1.id)],
        "a repeated insert_bookmark must keep the first id and list the status once"
    );
    assert_eq!(
        counters(store, s1.id).await,
        (0, 0, 0),
        "a bookmark must not change the status's counters"
    );
    assert_eq!(
        favourites(store, alice.id).await,
        vec![],
        "a bookmark is not a favourite"
    );
}

/// `delete_bookmark` returns true once, then false; other accounts' bookmarks stay.
pub async fn delete_bookmark_true_then_false(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, bob, _, s1, s2) = fixture(store, &ids).await;
    bookmark(store, &ids, T0 + 10_000, alice.id, s1.id).await;
    let kept = bookmark(store, &ids, T0 + 11_000, bob.id, s1.id).await;
    assert!(
        store
            .delete_bookmark(alice.id, s1.id)
            .await
            .expect("delete_bookmark"),
        "delete_bookmark of an existing bookmark must return true"
    );
    for (status, label) in [
        (s1.id, "an already deleted bookmark"),
        (s2.id, "a bookmark never made"),
    ] {
        assert!(
            !store
                .delete_bookmark(alice.id, status)
                .await
                .expect("delete_bookmark"),
            "delete_bookmark of {label} must return false"
        );
    }
    assert_eq!(
        bookmarks(store, alice.id).await,
        vec![],
        "a deleted bookmark must leave the account's bookmarks"
    );
    assert_eq!(
        bookmarks(store, bob.id).await,
        vec![(kept, s1.id)],
        "delete_bookmark must keep other accounts' bookmarks"
    );
}

/// `bookmarked_among` lists the given statuses the account bookmarked, per account.
pub async fn bookmarked_among_is_per_account(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, bob, carol, s1, s2) = fixture(store, &ids).await;
    let s3 = add_status(store, status(&ids, &carol, T0 + 3_000)).await;
    bookmark(store, &ids, T0 + 10_000, alice.id, s1.id).await;
    bookmark(store, &ids, T0 + 11_000, alice.id, s3.id).await;
    bookmark(store, &ids, T0 + 12_000, bob.id, s2.id).await;
    favourite(store, &ids, T0 + 13_000, alice.id, s2.id).await;
    let among = |account: Id, statuses: Vec<Id>| async move {
        sorted(
            store
                .bookmarked_among(account, &statuses)
                .await
                .expect("bookmarked_among"),
        )
    };
    assert_eq!(
        among(alice.id, vec![s3.id, s2.id, s1.id]).await,
        sorted(vec![s1.id, s3.id]),
        "bookmarked_among must list exactly the given statuses the account bookmarked \
         (not other accounts' bookmarks, not favourites)"
    );
    assert_eq!(
        among(bob.id, vec![s1.id, s2.id, s3.id]).await,
        vec![s2.id],
        "bookmarked_among is per account"
    );
    assert_eq!(
        among(alice.id, vec![]).await,
        vec![],
        "bookmarked_among of no ids must be empty"
    );
}

/// `bookmarks_page` pairs each bookmark id with the status, newest bookmark first, lists only
/// the account's bookmarks, and pages on bookmark ids.
pub async fn bookmarks_page_lists_newest_bookmark_first_with_cursors(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let carol = add_local(store, &ids, "carol").await;
    let mut statuses = vec![];
    for i in 0..10 {
        statuses.push(
            add_status(store, status(&ids, &carol, T0 + 1_000 * (i + 1)))
                .await
                .id,
        );
    }
    statuses.reverse();
    let mut marks = vec![];
    for (i, &s) in (0i64..).zip(&statuses) {
        let millis = T0 + 100_000 + i * 1_000;
        marks.push(bookmark(store, &ids, millis, alice, s).await);
        if i % 3 == 0 {
            bookmark(store, &ids, millis + 500, bob, s).await;
        }
    }
    let expected: Vec<(Id, Id)> = marks.iter().copied().zip(statuses).rev().collect();
    assert_eq!(
        bookmarks(store, alice).await,
        expected,
        "bookmarks_page must pair each bookmark id with the status, newest bookmark first, \
         the account's bookmarks only"
    );
    let read = |page: Page| async move {
        store
            .bookmarks_page(alice, page)
            .await
            .expect("bookmarks_page")
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    };
    for kind in [
        Cursor::Limit,
        Cursor::MaxId,
        Cursor::SinceId,
        Cursor::MinId,
        Cursor::Combined,
        Cursor::Absent,
    ] {
        assert_pages("bookmarks_page (on bookmark ids)", kind, &marks, read).await;
    }
}

/// A new pin returns true; repeating it returns false and lists the status once; pins are per
/// account.
pub async fn insert_pin_is_idempotent_and_per_account(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, bob, _, _, _) = fixture(store, &ids).await;
    let a1 = add_status(store, status(&ids, &alice, T0 + 3_000)).await.id;
    let b1 = add_status(store, status(&ids, &bob, T0 + 4_000)).await.id;
    let first = pin(store, &ids, T0 + 10_000, alice.id, a1).await;
    for (label, id) in [
        ("the same id", first),
        ("a new id", ids.next_at(T0 + 11_000)),
    ] {
        let new = store
            .insert_pin(id, alice.id, a1)
            .await
            .unwrap_or_else(|e| {
                panic!(
                    "insert_pin is idempotent: repeating it with {label} must succeed, got {e:?}"
                )
            });
        assert!(
            !new,
            "a repeated insert_pin (with {label}) must return false"
        );
    }
    pin(store, &ids, T0 + 12_000, bob.id, b1).await;
    assert_eq!(
        pinned(store, alice.id).await,
        vec![a1],
        "a repeated insert_pin must list the status once, and pins are per account"
    );
    assert_eq!(
        pinned(store, bob.id).await,
        vec![b1],
        "pins are per account"
    );
    assert_eq!(
        counters(store, a1).await,
        (0, 0, 0),
        "a pin must not change the status's counters"
    );
}

/// `delete_pin` returns true once, then false; the account's other pins stay.
pub async fn delete_pin_true_then_false(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let a1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await.id;
    let a2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await.id;
    pin(store, &ids, T0 + 10_000, alice.id, a1).await;
    pin(store, &ids, T0 + 11_000, alice.id, a2).await;
    assert!(
        store.delete_pin(alice.id, a1).await.expect("delete_pin"),
        "delete_pin of an existing pin must return true"
    );
    assert!(
        !store.delete_pin(alice.id, a1).await.expect("delete_pin"),
        "delete_pin of an already deleted pin must return false"
    );
    assert_eq!(
        pinned(store, alice.id).await,
        vec![a2],
        "delete_pin must remove that pin only"
    );
}

/// `pinned_status_ids` lists the account's pinned statuses newest pin first (not by status
/// id); `pinned_among` lists the given statuses the account pinned.
pub async fn pinned_status_ids_newest_pin_first_and_pinned_among(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let a1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await.id;
    let a2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await.id;
    let a3 = add_status(store, status(&ids, &alice, T0 + 3_000)).await.id;
    let a4 = add_status(store, status(&ids, &alice, T0 + 4_000)).await.id;
    let b1 = add_status(store, status(&ids, &bob, T0 + 5_000)).await.id;
    pin(store, &ids, T0 + 10_000, alice.id, a3).await;
    pin(store, &ids, T0 + 11_000, bob.id, b1).await;
    pin(store, &ids, T0 + 12_000, alice.id, a1).await;
    pin(store, &ids, T0 + 13_000, alice.id, a4).await;
    assert_eq!(
        pinned(store, alice.id).await,
        vec![a4, a1, a3],
        "pinned_status_ids must list the account's pinned statuses, newest pin first"
    );
    let among = sorted(
        store
            .pinned_among(alice.id, &[a1, a2, a3, b1])
            .await
            .expect("pinned_among"),
    );
    assert_eq!(
        among,
        sorted(vec![a1, a3]),
        "pinned_among must list exactly the given statuses the account pinned"
    );
    assert_eq!(
        store
            .pinned_among(bob.id, &[a1, a3, a4])
            .await
            .expect("pinned_among"),
        vec![],
        "pinned_among is per account"
    );
}

/// `reblog_by` finds the account's own reblog of the status as stored, and nothing for another
/// account, another status, or the original's author.
pub async fn reblog_by_finds_the_accounts_reblog_only(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, bob, carol, s1, s2) = fixture(store, &ids).await;
    let r = add_status(store, reblog(&ids, &alice, &s1, T0 + 10_000)).await;
    add_status(store, reblog(&ids, &bob, &s2, T0 + 11_000)).await;
    let by = |account: Id, status: Id| async move {
        store.reblog_by(account, status).await.expect("reblog_by")
    };
    assert_eq!(
        by(alice.id, s1.id)
            .await
            .map(|x| (x.id, x.account_id, x.reblog_of_id)),
        Some((r.id, alice.id, Some(s1.id))),
        "reblog_by must return the account's reblog of the status"
    );
    for (account, status, label) in [
        (bob.id, s1.id, "another account"),
        (
            alice.id,
            s2.id,
            "a status the account did not reblog (but another did)",
        ),
        (carol.id, s1.id, "the original's author"),
    ] {
        assert_eq!(
            by(account, status).await,
            None,
            "reblog_by must be None for {label}"
        );
    }
}

/// `reblogged_among` lists the given statuses the account reblogged, per account.
pub async fn reblogged_among_is_per_account(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, bob, carol, s1, s2) = fixture(store, &ids).await;
    let s3 = add_status(store, status(&ids, &carol, T0 + 3_000)).await;
    add_status(store, reblog(&ids, &alice, &s1, T0 + 10_000)).await;
    add_status(store, reblog(&ids, &alice, &s3, T0 + 11_000)).await;
    add_status(store, reblog(&ids, &bob, &s2, T0 + 12_000)).await;
    let among = |account: Id, statuses: Vec<Id>| async move {
        sorted(
            store
                .reblogged_among(account, &statuses)
                .await
                .expect("reblogged_among"),
        )
    };
    assert_eq!(
        among(alice.id, vec![s3.id, s2.id, s1.id]).await,
        sorted(vec![s1.id, s3.id]),
        "reblogged_among must list exactly the given statuses the account reblogged"
    );
    assert_eq!(
        among(bob.id, vec![s1.id, s2.id, s3.id]).await,
        vec![s2.id],
        "reblogged_among is per account"
    );
    assert_eq!(
        among(carol.id, vec![s1.id, s2.id, s3.id]).await,
        vec![],
        "authoring a status is not reblogging it"
    );
}

/// `reblogged_by_page` pairs each reblog's status id with its author, newest first, lists only
/// that status's reblogs, and pages on the reblogs' ids.
pub async fn reblogged_by_page_lists_newest_first_with_cursors(store: &dyn Store) {
    let ids = IdGenerator::default();
    let author = add_local(store, &ids, "author").await;
    let s = add_status(store, status(&ids, &author, T0 + 1_000)).await;
    let other = add_status(store, status(&ids, &author, T0 + 2_000)).await;
    let mut accounts = vec![];
    for i in 0..10 {
        accounts.push(add_local(store, &ids, &format!("u{i}")).await);
    }
    accounts.reverse();
    let mut reblogs = vec![];
    for (i, a) in (0i64..).zip(&accounts) {
        let millis = T0 + 100_000 + i * 1_000;
        reblogs.push(add_status(store, reblog(&ids, a, &s, millis)).await.id);
        if i % 3 == 0 {
            add_status(store, reblog(&ids, a, &other, millis + 500)).await;
            add_status(store, status(&ids, a, millis + 600)).await;
        }
    }
    let expected: Vec<(Id, Id)> = reblogs
        .iter()
        .copied()
        .zip(accounts.iter().map(|a| a.id))
        .rev()
        .collect();
    let read = |page: Page| async move {
        store
            .reblogged_by_page(s.id, page)
            .await
            .expect("reblogged_by_page")
    };
    assert_eq!(
        read(Page::first(40)).await,
        expected,
        "reblogged_by_page must pair each reblog's id with its author, newest first, \
         that status's reblogs only"
    );
    let read_ids =
        |page: Page| async move { read(page).await.into_iter().map(|(id, _)| id).collect() };
    for kind in [
        Cursor::Limit,
        Cursor::MaxId,
        Cursor::SinceId,
        Cursor::MinId,
        Cursor::Combined,
        Cursor::Absent,
    ] {
        assert_pages(
            "reblogged_by_page (on reblog ids)",
            kind,
            &reblogs,
            read_ids,
        )
        .await;
    }
}

/// `replies_to` lists the direct replies to any of the given statuses as complete records,
/// oldest first: not replies to replies, not other statuses' replies, not reblogs.
pub async fn replies_to_lists_direct_replies_oldest_first(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, bob, carol, s1, s2) = fixture(store, &ids).await;
    let s3 = add_status(store, status(&ids, &carol, T0 + 3_000)).await;
    let r1 = add_status(store, reply(&ids, &alice, &s2, T0 + 10_000)).await;
    let r2 = add_status(store, reply(&ids, &bob, &s1, T0 + 11_000)).await;
    let own = add_status(store, reply(&ids, &carol, &s1, T0 + 12_000)).await;
    let nested = add_status(store, reply(&ids, &alice, &r2, T0 + 13_000)).await;
    add_status(store, reply(&ids, &alice, &s3, T0 + 14_000)).await;
    add_status(store, reblog(&ids, &bob, &s1, T0 + 15_000)).await;
    let replies =
        |parents: Vec<Id>| async move { store.replies_to(&parents).await.expect("replies_to") };
    // As stored now: r2 counts its reply.
    let r2 = StatusRecord {
        replies_count: 1,
        ..r2
    };
    assert_eq!(
        replies(vec![s2.id, s1.id]).await,
        vec![r1, r2.clone(), own],
        "replies_to must list the direct replies to any of the parents as stored, oldest first"
    );
    assert_eq!(
        replies(vec![r2.id]).await,
        vec![nested.clone()],
        "replies_to of a reply must list the replies to it"
    );
    assert_eq!(
        replies(vec![]).await,
        vec![],
        "replies_to of no parents must be empty"
    );
    assert_eq!(
        replies(vec![nested.id]).await,
        vec![],
        "replies_to of a status without replies must be empty"
    );
}

/// `mute_conversation` is idempotent and per account; `muted_conversations_among` lists the
/// given threads the account muted.
pub async fn mute_conversation_is_idempotent_and_per_account(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, bob, _, s1, s2) = fixture(store, &ids).await;
    let s3 = ids.next_at(T0 + 3_000);
    for _ in 0..2 {
        store
            .mute_conversation(alice.id, s1.id)
            .await
            .expect("mute_conversation is idempotent: repeating it must succeed");
    }
    store
        .mute_conversation(alice.id, s3)
        .await
        .expect("mute_conversation");
    store
        .mute_conversation(bob.id, s2.id)
        .await
        .expect("mute_conversation");
    let among = |account: Id, threads: Vec<Id>| async move {
        sorted(
            store
                .muted_conversations_among(account, &threads)
                .await
                .expect("muted_conversations_among"),
        )
    };
    assert_eq!(
        among(alice.id, vec![s3, s2.id, s1.id, s1.id]).await,
        sorted(vec![s1.id, s3]),
        "muted_conversations_among must list each given thread the account muted once"
    );
    assert_eq!(
        among(bob.id, vec![s1.id, s2.id, s3]).await,
        vec![s2.id],
        "muted_conversations_among is per account"
    );
    assert_eq!(
        among(alice.id, vec![]).await,
        vec![],
        "muted_conversations_among of no ids must be empty"
    );
}

/// `unmute_conversation` returns true once, then false; the account's other muted threads and
/// other accounts' mutes of that thread stay.
pub async fn unmute_conversation_true_then_false(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, bob, _, s1, s2) = fixture(store, &ids).await;
    for (account, thread) in [(alice.id, s1.id), (alice.id, s2.id), (bob.id, s1.id)] {
        store
            .mute_conversation(account, thread)
            .await
            .expect("mute_conversation");
    }
    assert!(
        store
            .unmute_conversation(alice.id, s1.id)
            .await
            .expect("unmute_conversation"),
        "unmute_conversation of a muted thread must return true"
    );
    assert!(
        !store
            .unmute_conversation(alice.id, s1.id)
            .await
            .expect("unmute_conversation"),
        "unmute_conversation of a thread no longer muted must return false"
    );
    assert_eq!(
        store
            .muted_conversations_among(alice.id, &[s1.id, s2.id])
            .await
            .expect("muted_conversations_among"),
        vec![s2.id],
        "unmute_conversation must unmute that thread only"
    );
    assert_eq!(
        store
            .muted_conversations_among(bob.id, &[s1.id, s2.id])
            .await
            .expect("muted_conversations_among"),
        vec![s1.id],
        "unmute_conversation must keep other accounts' mutes of the thread"
    );
}

/// `interactions_among` answers what the five `_among` methods answer, each list sorted: the
/// favourites, reblogs and bookmarks among `statuses`, the pins among `own` and the muted threads
/// among `conversations`, of the account asked about only.
pub async fn interactions_among_matches_the_among_methods(store: &dyn Store) {
    use fedblog_core::store::InteractionsRecord;
    let ids = IdGenerator::default();
    let (alice, bob, carol, s1, s2) = fixture(store, &ids).await;
    let s3 = add_status(store, status(&ids, &carol, T0 + 3_000)).await;
    let own = add_status(store, status(&ids, &alice, T0 + 4_000)).await;
    let own2 = add_status(store, status(&ids, &alice, T0 + 5_000)).await;
    favourite(store, &ids, T0 + 10_000, alice.id, s2.id).await;
    favourite(store, &ids, T0 + 11_000, alice.id, s1.id).await;
    favourite(store, &ids, T0 + 12_000, bob.id, s3.id).await;
    add_status(store, reblog(&ids, &alice, &s3, T0 + 13_000)).await;
    add_status(store, reblog(&ids, &bob, &s1, T0 + 14_000)).await;
    bookmark(store, &ids, T0 + 15_000, alice.id, s1.id).await;
    bookmark(store, &ids, T0 + 16_000, bob.id, s2.id).await;
    pin(store, &ids, T0 + 17_000, alice.id, own2.id).await;
    store
        .mute_conversation(alice.id, s2.id)
        .await
        .expect("mute_conversation");
    store
        .mute_conversation(bob.id, s3.id)
        .await
        .expect("mute_conversation");
    let statuses = [s3.id, s1.id, s2.id, own.id];
    let got = store
        .interactions_among(
            alice.id,
            &statuses,
            &[own.id, own2.id],
            &[s1.id, s2.id, s3.id],
        )
        .await
        .expect("interactions_among");
    assert_eq!(
        got,
        InteractionsRecord {
            favourited: sorted(vec![s1.id, s2.id]),
            reblogged: vec![s3.id],
            bookmarked: vec![s1.id],
            pinned: vec![own2.id],
            muted_conversations: vec![s2.id],
        },
        "interactions_among must answer the account's favourites, reblogs, bookmarks, pins and muted threads among those given, sorted"
    );
    assert_eq!(
        store
            .interactions_among(alice.id, &[], &[], &[])
            .await
            .expect("interactions_among"),
        InteractionsRecord::default(),
        "interactions_among of nothing must be empty"
    );
}
