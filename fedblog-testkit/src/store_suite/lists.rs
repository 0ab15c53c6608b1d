//! Checks of [`ListStore`](fedblog_core::store::ListStore) and of list feeds
//! ([`FeedStore`](fedblog_core::store::FeedStore)): lists round-tripping, their members added all
//! or none and removed with their entries, pages of members and feed entries, and everything
//! removed with its list or account.

use fedblog_core::pagination::Page;
use fedblog_core::store::{ListRecord, RepliesPolicy};
use fedblog_core::{Id, IdGenerator, Store, StoreError};

use super::{
    Cursor, T0, add_local, add_status, assert_already_exists, assert_pages, sorted, status,
};

/// A list of `owner`, made at `millis`.
fn list(ids: &IdGenerator, owner: Id, title: &str, millis: i64) -> ListRecord {
    ListRecord {
        id: ids.next_at(millis),
        account_id: owner,
        title: title.to_string(),
        replies_policy: RepliesPolicy::List,
        exclusive: false,
    }
}

/// Inserts a list that must be inserted.
async fn add_list(store: &dyn Store, l: ListRecord) -> ListRecord {
    store
        .insert_list(&l)
        .await
        .unwrap_or_else(|e| panic!("insert_list({:?}) failed: {e:?}", l.title));
    l
}

/// Adds members that must be added.
async fn add_members(store: &dyn Store, list: Id, accounts: &[Id]) {
    store
        .add_list_accounts(list, accounts)
        .await
        .unwrap_or_else(|e| panic!("add_list_accounts({list}, {accounts:?}) failed: {e:?}"));
}

/// Every member of a list, highest id first.
async fn members(store: &dyn Store, list: Id) -> Vec<Id> {
    store
        .list_accounts_page(list, Page::first(80))
        .await
        .expect("list_accounts_page")
}

/// The first page of a list's feed.
async fn list_feed(store: &dyn Store, list: Id) -> Vec<Id> {
    store
        .list_feed(list, Page::first(40))
        .await
        .expect("list_feed")
}

/// A list comes back from `list_by_id` and `lists_of` exactly as inserted, for every replies
/// policy and both `exclusive` values.
pub async fn list_round_trips_with_every_field(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let mut made = vec![];
    for (i, (policy, exclusive)) in [
        (RepliesPolicy::Followed, true),
        (RepliesPolicy::List, false),
        (RepliesPolicy::None, true),
    ]
    .into_iter()
    .enumerate()
    {
        let l = ListRecord {
            replies_policy: policy,
            exclusive,
            ..list(
                &ids,
                alice.id,
                &format!("Liste n°{i} ✨"),
                T0 + 1_000 * i as i64,
            )
        };
        made.push(add_list(store, l).await);
    }
    for l in &made {
        assert_eq!(
            store.list_by_id(l.id).await.expect("list_by_id").as_ref(),
            Some(l),
            "list_by_id must return the list as inserted (title, replies_policy, exclusive)"
        );
    }
    assert_eq!(
        store.lists_of(alice.id).await.expect("lists_of"),
        made,
        "lists_of must return the owner's lists as inserted, oldest first"
    );
    assert_eq!(
        store
            .list_by_id(ids.next_at(T0 + 9_000))
            .await
            .expect("list_by_id"),
        None,
        "list_by_id of an unknown id must be None"
    );
}

/// Inserting a list with a taken id is `AlreadyExists("list")`.
pub async fn duplicate_list_id_is_already_exists(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let l = add_list(store, list(&ids, alice.id, "one", T0)).await;
    assert_already_exists(
        store
            .insert_list(&ListRecord {
                title: "two".into(),
                ..l.clone()
            })
            .await,
        "list",
        "insert_list with a taken id",
    );
}

/// `lists_of` lists only the owner's lists, oldest first, whatever the insertion order.
pub async fn lists_of_lists_only_the_owners_oldest_first(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let older = list(&ids, alice.id, "older", T0 + 1_000);
    let newer = list(&ids, alice.id, "newer", T0 + 2_000);
    add_list(store, newer.clone()).await;
    add_list(store, list(&ids, bob.id, "bob's", T0 + 1_500)).await;
    add_list(store, older.clone()).await;
    assert_eq!(
        store.lists_of(alice.id).await.expect("lists_of"),
        vec![older, newer],
        "lists_of must list the owner's lists only, oldest (lowest id) first"
    );
}

/// `update_list` replaces the title, replies policy and `exclusive` (not the owner), and answers
/// false for an unknown list.
pub async fn update_list_replaces_title_policy_and_exclusive(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let l = add_list(store, list(&ids, alice.id, "before", T0)).await;
    let changed = ListRecord {
        title: "after".into(),
        replies_policy: RepliesPolicy::None,
        exclusive: true,
        account_id: bob.id,
        ..l.clone()
    };
    assert!(
        store.update_list(&changed).await.expect("update_list"),
        "update_list of an existing list must answer true"
    );
    assert_eq!(
        store.list_by_id(l.id).await.expect("list_by_id"),
        Some(ListRecord {
            account_id: alice.id,
            ..changed.clone()
        }),
        "update_list must replace title, replies_policy and exclusive, and keep the owner"
    );
    let unknown = ListRecord {
        id: ids.next_at(T0 + 5_000),
        ..changed
    };
    assert!(
        !store.update_list(&unknown).await.expect("update_list"),
        "update_list of an unknown list must answer false"
    );
}

/// `delete_list` answers true once, then false; the list goes with its members and its feed.
pub async fn delete_list_removes_it_with_members_and_feed(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let l = add_list(store, list(&ids, alice.id, "doomed", T0)).await;
    let kept = add_list(store, list(&ids, alice.id, "kept", T0 + 1)).await;
    add_members(store, l.id, &[bob.id]).await;
    add_members(store, kept.id, &[bob.id]).await;
    let s = add_status(store, status(&ids, &bob, T0 + 1_000)).await;
    store
        .insert_list_entries(s.id, bob.id, &[l.id, kept.id])
        .await
        .expect("insert_list_entries");
    assert!(
        store.delete_list(l.id).await.expect("delete_list"),
        "delete_list must answer true for an existing list"
    );
    assert!(
        !store.delete_list(l.id).await.expect("delete_list"),
        "a second delete_list must answer false"
    );
    assert_eq!(
        store.list_by_id(l.id).await.expect("list_by_id"),
        None,
        "a deleted list must be gone"
    );
    assert!(
        members(store, l.id).await.is_empty(),
        "a deleted list's members must be gone"
    );
    assert!(
        list_feed(store, l.id).await.is_empty(),
        "a deleted list's feed must be gone"
    );
    assert_eq!(
        store
            .lists_with_member(bob.id, None)
            .await
            .expect("lists_with_member"),
        vec![kept.clone()],
        "lists_with_member must not name a deleted list"
    );
    assert_eq!(
        members(store, kept.id).await,
        vec![bob.id],
        "other lists must keep their members"
    );
    assert_eq!(
        list_feed(store, kept.id).await,
        vec![s.id],
        "other lists must keep their feeds"
    );
}

/// `add_list_accounts` adds all or none: with one account already in the list it is
/// `AlreadyExists("list_account")` and adds nothing; on an unknown list it is `NotFound`.
pub async fn add_list_accounts_is_all_or_none(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let dave = add_local(store, &ids, "dave").await;
    let l = add_list(store, list(&ids, alice.id, "friends", T0)).await;
    add_members(store, l.id, &[bob.id]).await;
    assert_already_exists(
        store
            .add_list_accounts(l.id, &[carol.id, bob.id, dave.id])
            .await,
        "list_account",
        "add_list_accounts with an account already in the list",
    );
    assert_eq!(
        members(store, l.id).await,
        vec![bob.id],
        "a refused add_list_accounts must add none of its accounts"
    );
    add_members(store, l.id, &[dave.id, carol.id]).await;
    assert_eq!(
        members(store, l.id).await,
        sorted(vec![bob.id, carol.id, dave.id])
            .into_iter()
            .rev()
            .collect::<Vec<_>>(),
        "add_list_accounts must add every account given"
    );
    match store
        .add_list_accounts(ids.next_at(T0 + 9_000), &[bob.id])
        .await
    {
        Err(StoreError::NotFound) => {}
        other => panic!("add_list_accounts on an unknown list must be NotFound, got {other:?}"),
    }
}

/// `remove_list_accounts` removes the given members with their entries in the list's feed,
/// counts those that were members, and leaves other members and other lists alone.
pub async fn remove_list_accounts_removes_members_and_their_entries(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let dave = add_local(store, &ids, "dave").await;
    let l = add_list(store, list(&ids, alice.id, "friends", T0)).await;
    let other = add_list(store, list(&ids, alice.id, "others", T0 + 1)).await;
    add_members(store, l.id, &[bob.id, carol.id]).await;
    add_members(store, other.id, &[bob.id]).await;
    let by_bob = add_status(store, status(&ids, &bob, T0 + 1_000)).await;
    let by_carol = add_status(store, status(&ids, &carol, T0 + 2_000)).await;
    store
        .insert_list_entries(by_bob.id, bob.id, &[l.id, other.id])
        .await
        .expect("insert_list_entries");
    store
        .insert_list_entries(by_carol.id, carol.id, &[l.id])
        .await
        .expect("insert_list_entries");
    assert_eq!(
        store
            .remove_list_accounts(l.id, &[bob.id, dave.id])
            .await
            .expect("remove_list_accounts"),
        1,
        "remove_list_accounts must count only the accounts that were members"
    );
    assert_eq!(
        members(store, l.id).await,
        vec![carol.id],
        "remove_list_accounts must remove the members given, only them"
    );
    assert_eq!(
        list_feed(store, l.id).await,
        vec![by_carol.id],
        "remove_list_accounts must remove the removed members' entries from the list's feed, only theirs"
    );
    assert_eq!(
        members(store, other.id).await,
        vec![bob.id],
        "other lists must keep their members"
    );
    assert_eq!(
        list_feed(store, other.id).await,
        vec![by_bob.id],
        "other lists must keep their entries"
    );
}

/// `remove_from_lists` takes an account out of every list of one owner, with its entries, and
/// leaves other owners' lists alone.
pub async fn remove_from_lists_takes_the_account_out_of_the_owners_lists(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let a1 = add_list(store, list(&ids, alice.id, "a1", T0)).await;
    let a2 = add_list(store, list(&ids, alice.id, "a2", T0 + 1)).await;
    let c1 = add_list(store, list(&ids, carol.id, "c1", T0 + 2)).await;
    for l in [&a1, &a2, &c1] {
        add_members(store, l.id, &[bob.id]).await;
    }
    add_members(store, a1.id, &[carol.id]).await;
    let s = add_status(store, status(&ids, &bob, T0 + 1_000)).await;
    let c = add_status(store, status(&ids, &carol, T0 + 2_000)).await;
    store
        .insert_list_entries(s.id, bob.id, &[a1.id, a2.id, c1.id])
        .await
        .expect("insert_list_entries");
    store
        .insert_list_entries(c.id, carol.id, &[a1.id])
        .await
        .expect("insert_list_entries");
    store
        .remove_from_lists(alice.id, bob.id)
        .await
        .expect("remove_from_lists");
    assert_eq!(
        store
            .lists_with_member(bob.id, None)
            .await
            .expect("lists_with_member"),
        vec![c1.clone()],
        "remove_from_lists must take the account out of all of the owner's lists, only those"
    );
    assert_eq!(
        list_feed(store, a1.id).await,
        vec![c.id],
        "remove_from_lists must remove the account's entries from the owner's lists, only its"
    );
    assert!(
        list_feed(store, a2.id).await.is_empty(),
        "remove_from_lists must remove the account's entries from every list of the owner"
    );
    assert_eq!(
        list_feed(store, c1.id).await,
        vec![s.id],
        "other owners' lists must keep their entries"
    );
}

/// `list_accounts_page` pages the members by account id, highest first, with every cursor.
pub async fn list_accounts_page_pages_members_by_account_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let owner = add_local(store, &ids, "owner").await;
    let l = add_list(store, list(&ids, owner.id, "many", T0)).await;
    let other = add_list(store, list(&ids, owner.id, "other", T0 + 1)).await;
    let mut s = vec![];
    for i in 0..10 {
        s.push(add_local(store, &ids, &format!("member{i}")).await.id);
    }
    // Added in another order than their ids.
    let mut shuffled = s.clone();
    shuffled.reverse();
    shuffled.swap(2, 7);
    add_members(store, l.id, &shuffled[..5]).await;
    add_members(store, l.id, &shuffled[5..]).await;
    let outsider = add_local(store, &ids, "outsider").await;
    add_members(store, other.id, &[outsider.id]).await;
    for kind in [
        Cursor::Limit,
        Cursor::MaxId,
        Cursor::SinceId,
        Cursor::MinId,
        Cursor::Combined,
    ] {
        let read = |page: Page| async move {
            store
                .list_accounts_page(l.id, page)
                .await
                .expect("list_accounts_page")
        };
        assert_pages("list_accounts_page", kind, &s, read).await;
    }
}

/// `lists_with_member` finds every list holding the account, or only one owner's, oldest first.
pub async fn lists_with_member_finds_all_or_one_owners_lists(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let a1 = list(&ids, alice.id, "a1", T0 + 1);
    let a2 = list(&ids, alice.id, "a2", T0 + 2);
    let c1 = list(&ids, carol.id, "c1", T0 + 3);
    // Inserted newest first.
    for l in [&c1, &a2, &a1] {
        add_list(store, l.clone()).await;
    }
    let without = add_list(store, list(&ids, alice.id, "without", T0 + 4)).await;
    for l in [&c1, &a2, &a1] {
        add_members(store, l.id, &[bob.id]).await;
    }
    add_members(store, without.id, &[carol.id]).await;
    assert_eq!(
        store
            .lists_with_member(bob.id, None)
            .await
            .expect("lists_with_member"),
        vec![a1.clone(), a2.clone(), c1],
        "lists_with_member without an owner must list every list holding the account, oldest first"
    );
    assert_eq!(
        store
            .lists_with_member(bob.id, Some(alice.id))
            .await
            .expect("lists_with_member"),
        vec![a1, a2],
        "lists_with_member with an owner must list only that owner's lists holding the account"
    );
}

/// `insert_list_entries` puts a status in each list's feed, idempotently; `list_feed` lists a
/// list's entries newest first, and only its own.
pub async fn list_feed_lists_its_entries_newest_first(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let l1 = add_list(store, list(&ids, alice.id, "l1", T0)).await;
    let l2 = add_list(store, list(&ids, alice.id, "l2", T0 + 1)).await;
    let s1 = add_status(store, status(&ids, &bob, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let s3 = add_status(store, status(&ids, &bob, T0 + 3_000)).await;
    for s in [&s2, &s3, &s1] {
        store
            .insert_list_entries(s.id, bob.id, &[l1.id])
            .await
            .expect("insert_list_entries");
    }
    store
        .insert_list_entries(s2.id, bob.id, &[l1.id, l2.id, l2.id])
        .await
        .expect("insert_list_entries is idempotent: an existing entry again must succeed");
    store
        .insert_list_entries(s3.id, bob.id, &[])
        .await
        .expect("insert_list_entries with no lists must succeed");
    assert_eq!(
        list_feed(store, l1.id).await,
        vec![s3.id, s2.id, s1.id],
        "list_feed must list the list's entries newest first, without repeats"
    );
    assert_eq!(
        list_feed(store, l2.id).await,
        vec![s2.id],
        "list_feed must list only that list's entries"
    );
    assert!(
        store
            .home_feed(alice.id, Page::first(40))
            .await
            .expect("home_feed")
            .is_empty(),
        "list entries must not land in the owner's home feed"
    );
}

/// `list_feed` pages by status id with every cursor.
pub async fn list_feed_pages_by_status_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let l = add_list(store, list(&ids, alice.id, "l", T0)).await;
    let other = add_list(store, list(&ids, alice.id, "other", T0 + 1)).await;
    let mut s = vec![];
    for i in 0..10 {
        s.push(
            add_status(store, status(&ids, &bob, T0 + 1_000 * (i + 1)))
                .await
                .id,
        );
    }
    for id in s.iter().rev() {
        store
            .insert_list_entries(*id, bob.id, &[l.id])
            .await
            .expect("insert_list_entries");
    }
    let extra = add_status(store, status(&ids, &bob, T0 + 20_000)).await;
    store
        .insert_list_entries(extra.id, bob.id, &[other.id])
        .await
        .expect("insert_list_entries");
    for kind in [
        Cursor::Limit,
        Cursor::MaxId,
        Cursor::SinceId,
        Cursor::MinId,
        Cursor::Combined,
    ] {
        let read =
            |page: Page| async move { store.list_feed(l.id, page).await.expect("list_feed") };
        assert_pages("list_feed", kind, &s, read).await;
    }
}

/// Deleting a status removes it from list feeds.
pub async fn delete_status_removes_list_entries(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let l = add_list(store, list(&ids, alice.id, "l", T0)).await;
    let gone = add_status(store, status(&ids, &bob, T0 + 1_000)).await;
    let kept = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    for s in [&gone, &kept] {
        store
            .insert_list_entries(s.id, bob.id, &[l.id])
            .await
            .expect("insert_list_entries");
    }
    store.delete_status(gone.id).await.expect("delete_status");
    assert_eq!(
        list_feed(store, l.id).await,
        vec![kept.id],
        "delete_status must remove the status from list feeds"
    );
}

/// Deleting an account removes its lists (members and feeds) and its places in others' lists.
pub async fn delete_account_removes_its_lists_and_memberships(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let own = add_list(store, list(&ids, alice.id, "alice's", T0)).await;
    let bobs = add_list(store, list(&ids, bob.id, "bob's", T0 + 1)).await;
    add_members(store, own.id, &[carol.id]).await;
    add_members(store, bobs.id, &[alice.id, carol.id]).await;
    let s = add_status(store, status(&ids, &carol, T0 + 1_000)).await;
    store
        .insert_list_entries(s.id, carol.id, &[own.id, bobs.id])
        .await
        .expect("insert_list_entries");
    store
        .delete_account(alice.id)
        .await
        .expect("delete_account");
    assert_eq!(
        store.list_by_id(own.id).await.expect("list_by_id"),
        None,
        "delete_account must remove the account's lists"
    );
    assert!(
        members(store, own.id).await.is_empty(),
        "delete_account must remove its lists' members"
    );
    assert!(
        list_feed(store, own.id).await.is_empty(),
        "delete_account must remove its lists' feeds"
    );
    assert_eq!(
        members(store, bobs.id).await,
        vec![carol.id],
        "delete_account must take the account out of others' lists, and only it"
    );
    assert_eq!(
        list_feed(store, bobs.id).await,
        vec![s.id],
        "others' list feeds must keep other authors' entries"
    );
}
