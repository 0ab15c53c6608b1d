//! Checks of [`AccountNoteStore`](fedblog_core::store::AccountNoteStore): private notes on
//! accounts, endorsements and their page, and dismissed follow suggestions.

use fedblog_core::pagination::Page;
use fedblog_core::{Id, IdGenerator, Store};

use super::{Cursor, T0, add_local, add_remote, assert_pages, sorted};

async fn note(store: &dyn Store, account: Id, target: Id) -> Option<String> {
    store
        .account_note(account, target)
        .await
        .expect("account_note")
}

async fn set_note(store: &dyn Store, account: Id, target: Id, comment: &str) {
    store
        .set_account_note(account, target, comment)
        .await
        .unwrap_or_else(|e| panic!("set_account_note({account} -> {target}) failed: {e:?}"));
}

/// Makes an endorsement with an id made at `millis`; returns the id.
async fn endorse(store: &dyn Store, ids: &IdGenerator, millis: i64, account: Id, target: Id) -> Id {
    let id = ids.next_at(millis);
    store
        .insert_endorsement(id, account, target)
        .await
        .unwrap_or_else(|e| panic!("insert_endorsement({account} -> {target}) failed: {e:?}"));
    id
}

async fn endorsed(store: &dyn Store, account: Id) -> Vec<(Id, Id)> {
    store
        .endorsements_page(account, Page::first(40))
        .await
        .expect("endorsements_page")
}

async fn endorses(store: &dyn Store, account: Id, target: Id) -> bool {
    store.endorses(account, target).await.expect("endorses")
}

/// `set_account_note` stores a note (text kept exactly) per ordered pair, a second one replaces
/// it, and an empty comment removes it (also when there is none).
pub async fn account_note_is_set_replaced_and_cleared(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let carol = add_remote(store, &ids, "carol", "remote.example").await.id;
    assert_eq!(
        note(store, alice, bob).await,
        None,
        "account_note must be None before any note"
    );
    let text = "Met at RustConf 🦀\n  likes <b>tea</b> & 100% cotton";
    set_note(store, alice, bob, text).await;
    set_note(store, bob, carol, "bob's").await;
    assert_eq!(
        note(store, alice, bob).await.as_deref(),
        Some(text),
        "account_note must return the note exactly as set"
    );
    assert_eq!(
        note(store, bob, alice).await,
        None,
        "a note is per ordered pair: the reverse pair has none"
    );
    assert_eq!(
        note(store, alice, carol).await,
        None,
        "a note is per ordered pair: another target has none"
    );
    set_note(store, alice, bob, "replaced").await;
    assert_eq!(
        note(store, alice, bob).await.as_deref(),
        Some("replaced"),
        "a second set_account_note must replace the note"
    );
    set_note(store, alice, bob, "").await;
    assert_eq!(
        note(store, alice, bob).await,
        None,
        "an empty comment must remove the note"
    );
    set_note(store, alice, carol, "").await;
    assert_eq!(
        note(store, alice, carol).await,
        None,
        "an empty comment without a note must leave none"
    );
    assert_eq!(
        note(store, bob, carol).await.as_deref(),
        Some("bob's"),
        "clearing a note must not touch other accounts' notes"
    );
    set_note(store, alice, bob, "again").await;
    assert_eq!(
        note(store, alice, bob).await.as_deref(),
        Some("again"),
        "a note may be set again after being cleared"
    );
}

/// `insert_endorsement` is directional, and repeating it (same or new id) succeeds and keeps the
/// first id, listed once.
pub async fn insert_endorsement_is_idempotent_keeping_first_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let carol = add_local(store, &ids, "carol").await.id;
    assert!(
        !endorses(store, alice, bob).await,
        "endorses must be false before insert_endorsement"
    );
    let first = endorse(store, &ids, T0 + 1_000, alice, bob).await;
    store
        .insert_endorsement(first, alice, bob)
        .await
        .expect("insert_endorsement is idempotent: repeating it must succeed");
    store
        .insert_endorsement(ids.next_at(T0 + 2_000), alice, bob)
        .await
        .expect("insert_endorsement is idempotent: repeating it with a new id must succeed");
    assert!(
        endorses(store, alice, bob).await,
        "endorses must be true after insert_endorsement"
    );
    assert!(
        !endorses(store, bob, alice).await,
        "an endorsement is directional: endorses(target, account) must stay false"
    );
    assert!(
        !endorses(store, alice, carol).await,
        "endorses must be false for an account not endorsed"
    );
    assert_eq!(
        endorsed(store, alice).await,
        vec![(first, bob)],
        "a repeated insert_endorsement must keep the first id and list the account once"
    );
}

/// `delete_endorsement` returns true and removes that endorsement only; a second delete, or one
/// of an endorsement never made, returns false.
pub async fn delete_endorsement_true_then_false(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let carol = add_local(store, &ids, "carol").await.id;
    endorse(store, &ids, T0 + 1_000, alice, bob).await;
    let kept = endorse(store, &ids, T0 + 2_000, alice, carol).await;
    endorse(store, &ids, T0 + 3_000, carol, bob).await;
    assert!(
        store
            .delete_endorsement(alice, bob)
            .await
            .expect("delete_endorsement"),
        "delete_endorsement of an endorsement must return true"
    );
    assert!(
        !endorses(store, alice, bob).await,
        "endorses must be false after delete_endorsement"
    );
    assert_eq!(
        endorsed(store, alice).await,
        vec![(kept, carol)],
        "delete_endorsement must remove that endorsement only"
    );
    assert!(
        endorses(store, carol, bob).await,
        "delete_endorsement must not remove other accounts' endorsements of the target"
    );
    assert!(
        !store
            .delete_endorsement(alice, bob)
            .await
            .expect("delete_endorsement"),
        "delete_endorsement of one already deleted must return false"
    );
    assert!(
        !store
            .delete_endorsement(bob, alice)
            .await
            .expect("delete_endorsement"),
        "delete_endorsement of one never made must return false"
    );
}

/// `endorsements_page` lists `(endorsement id, endorsed id)` of the account's endorsements,
/// newest first whatever the account ids, one account's only; its cursors are endorsement ids.
pub async fn endorsements_page_lists_newest_first_with_cursors(store: &dyn Store) {
    let ids = IdGenerator::default();
    let hub = add_local(store, &ids, "hub").await.id;
    let other = add_local(store, &ids, "other").await.id;
    let mut accounts = vec![];
    for i in 0..10 {
        accounts.push(add_local(store, &ids, &format!("u{i}")).await.id);
    }
    accounts.reverse();
    let mut s = vec![];
    for (i, &acct) in (0i64..).zip(&accounts) {
        let millis = T0 + 10_000 + i * 1_000;
        s.push(endorse(store, &ids, millis, hub, acct).await);
        if i % 3 == 0 {
            endorse(store, &ids, millis + 500, other, acct).await;
            endorse(store, &ids, millis + 600, acct, hub).await;
        }
    }
    let expected: Vec<(Id, Id)> = s.iter().copied().zip(accounts).rev().collect();
    assert_eq!(
        endorsed(store, hub).await,
        expected,
        "endorsements_page must pair each endorsement id with the endorsed account, newest first"
    );
    let read = |page: Page| async move {
        store
            .endorsements_page(hub, page)
            .await
            .expect("endorsements_page")
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
        assert_pages("endorsements_page (on endorsement ids)", kind, &s, read).await;
    }
}

/// `dismiss_suggestion` is per account and idempotent: `dismissed_suggestions` lists each
/// dismissed account once (in no particular order), and nothing for an account that dismissed
/// none.
pub async fn dismissed_suggestions_are_per_account_and_idempotent(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let carol = add_local(store, &ids, "carol").await.id;
    let remote = add_remote(store, &ids, "r", "remote.example").await.id;
    let dismissed = |account: Id| async move {
        sorted(
            store
                .dismissed_suggestions(account)
                .await
                .expect("dismissed_suggestions"),
        )
    };
    assert_eq!(
        dismissed(alice).await,
        vec![],
        "dismissed_suggestions must be empty before any dismissal"
    );
    for (account, target) in [(alice, remote), (alice, bob), (alice, remote), (bob, carol)] {
        store
            .dismiss_suggestion(account, target)
            .await
            .expect("dismiss_suggestion is idempotent: repeating it must succeed");
    }
    assert_eq!(
        dismissed(alice).await,
        sorted(vec![bob, remote]),
        "dismissed_suggestions must list each account dismissed once"
    );
    assert_eq!(
        dismissed(bob).await,
        vec![carol],
        "dismissed_suggestions must list only the dismissals of the account asked for"
    );
    assert_eq!(
        dismissed(carol).await,
        vec![],
        "dismissed_suggestions lists the dismissals made by the account, not of it"
    );
}
