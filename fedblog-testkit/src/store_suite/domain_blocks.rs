//! Checks of [`DomainBlockStore`](fedblog_core::store::DomainBlockStore): an account's blocked
//! domains, the followers and follow requests a domain block removes, and the page of blocks.

use fedblog_core::pagination::Page;
use fedblog_core::store::AccountRecord;
use fedblog_core::{Id, IdGenerator, Store};

use super::{Cursor, T0, add_local, add_remote, assert_pages, get_account, sorted};

/// Makes a domain block with an id made at `millis`; returns the id.
async fn block_domain(
    store: &dyn Store,
    ids: &IdGenerator,
    millis: i64,
    account: Id,
    domain: &str,
) -> Id {
    let id = ids.next_at(millis);
    store
        .insert_domain_block(id, account, domain)
        .await
        .unwrap_or_else(|e| panic!("insert_domain_block({account}, {domain:?}) failed: {e:?}"));
    id
}

async fn blocked(store: &dyn Store, account: Id, domain: &str) -> bool {
    store
        .domain_blocked(account, domain)
        .await
        .expect("domain_blocked")
}

async fn blocked_domains(store: &dyn Store, account: Id) -> Vec<(Id, String)> {
    store
        .domain_blocks_page(account, Page::first(40))
        .await
        .expect("domain_blocks_page")
}

async fn follow(store: &dyn Store, ids: &IdGenerator, follower: Id, target: Id) {
    store
        .insert_follow(ids.next_at(T0 + 1_000), follower, target)
        .await
        .unwrap_or_else(|e| panic!("insert_follow({follower} -> {target}) failed: {e:?}"));
}

/// `(followers_count, following_count)` of a stored account.
async fn counts(store: &dyn Store, account: &AccountRecord) -> (i64, i64) {
    let a = get_account(store, account.id).await;
    (a.followers_count, a.following_count)
}

async fn follower_ids(store: &dyn Store, target: Id) -> Vec<Id> {
    let rows = store
        .followers_page(target, Page::first(40))
        .await
        .expect("followers_page");
    sorted(rows.into_iter().map(|(_, a)| a).collect())
}

/// `domain_blocked` is true after `insert_domain_block` for that account and domain only; a
/// repeated block (same or new id) succeeds and keeps the first id, listed once.
pub async fn insert_domain_block_is_idempotent_keeping_first_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    assert!(
        !blocked(store, alice, "bad.example").await,
        "domain_blocked must be false before insert_domain_block"
    );
    let first = block_domain(store, &ids, T0 + 1_000, alice, "bad.example").await;
    store
        .insert_domain_block(first, alice, "bad.example")
        .await
        .expect("insert_domain_block is idempotent: repeating it must succeed");
    store
        .insert_domain_block(ids.next_at(T0 + 2_000), alice, "bad.example")
        .await
        .expect("insert_domain_block is idempotent: repeating it with a new id must succeed");
    assert!(
        blocked(store, alice, "bad.example").await,
        "domain_blocked must be true after insert_domain_block"
    );
    assert!(
        !blocked(store, bob, "bad.example").await,
        "a domain block is per account: another account does not block the domain"
    );
    assert!(
        !blocked(store, alice, "good.example").await,
        "domain_blocked must be false for a domain not blocked"
    );
    assert!(
        !blocked(store, alice, "sub.bad.example").await && !blocked(store, alice, "example").await,
        "domain_blocked compares whole domains"
    );
    assert_eq!(
        blocked_domains(store, alice).await,
        vec![(first, "bad.example".to_string())],
        "a repeated insert_domain_block must keep the first id and list the domain once"
    );
}

/// `insert_domain_block` removes the account's followers on that domain, with both counters;
/// followers elsewhere (local or on other domains) and the domain's follows of other accounts
/// stay.
pub async fn insert_domain_block_removes_followers_on_that_domain(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let local = add_local(store, &ids, "local").await;
    let bad1 = add_remote(store, &ids, "one", "bad.example").await;
    let bad2 = add_remote(store, &ids, "two", "bad.example").await;
    let good = add_remote(store, &ids, "good", "good.example").await;
    let sub = add_remote(store, &ids, "sub", "notbad.example").await;
    for follower in [&bad1, &bad2, &good, &sub, &local] {
        follow(store, &ids, follower.id, alice.id).await;
    }
    follow(store, &ids, bad1.id, bob.id).await;
    block_domain(store, &ids, T0 + 5_000, alice.id, "bad.example").await;
    assert_eq!(
        follower_ids(store, alice.id).await,
        sorted(vec![local.id, good.id, sub.id]),
        "insert_domain_block must remove the account's followers on that domain, and only them"
    );
    assert!(
        !store.follows(bad1.id, alice.id).await.expect("follows"),
        "follows must be false for a follower removed by a domain block"
    );
    assert_eq!(
        counts(store, &alice).await,
        (3, 0),
        "insert_domain_block must decrement the account's followers_count"
    );
    assert_eq!(
        [counts(store, &bad1).await, counts(store, &bad2).await],
        [(0, 1), (0, 0)],
        "insert_domain_block must decrement the removed followers' following_count"
    );
    assert_eq!(
        follower_ids(store, bob.id).await,
        vec![bad1.id],
        "insert_domain_block must not remove the domain's follows of other accounts"
    );
}

/// `insert_domain_block` drops the pending follow requests from that domain to the account; other
/// requests (from elsewhere, or from that domain to other accounts) stay.
pub async fn insert_domain_block_drops_follow_requests_from_that_domain(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let bad = add_remote(store, &ids, "one", "bad.example").await.id;
    let good = add_remote(store, &ids, "good", "good.example").await.id;
    let local = add_local(store, &ids, "local").await.id;
    for (follower, target) in [(bad, alice), (good, alice), (local, alice), (bad, bob)] {
        store
            .insert_follow_request(ids.next_at(T0 + 1_000), follower, target)
            .await
            .expect("insert_follow_request");
    }
    block_domain(store, &ids, T0 + 5_000, alice, "bad.example").await;
    let requesters = |target: Id| async move {
        let rows = store
            .follow_requests_page(target, Page::first(40))
            .await
            .expect("follow_requests_page");
        sorted(rows.into_iter().map(|(_, a)| a).collect())
    };
    assert_eq!(
        requesters(alice).await,
        sorted(vec![good, local]),
        "insert_domain_block must drop the follow requests from that domain to the account"
    );
    assert!(
        !store
            .follow_requested(bad, alice)
            .await
            .expect("follow_requested"),
        "follow_requested must be false for a request dropped by a domain block"
    );
    assert_eq!(
        requesters(bob).await,
        vec![bad],
        "insert_domain_block must keep that domain's requests to other accounts"
    );
}

/// `delete_domain_block` returns true and removes that block only; a second delete, or one of a
/// block never made, returns false.
pub async fn delete_domain_block_true_then_false(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    block_domain(store, &ids, T0 + 1_000, alice, "bad.example").await;
    let kept = block_domain(store, &ids, T0 + 2_000, alice, "worse.example").await;
    block_domain(store, &ids, T0 + 3_000, bob, "bad.example").await;
    assert!(
        store
            .delete_domain_block(alice, "bad.example")
            .await
            .expect("delete_domain_block"),
        "delete_domain_block of a blocked domain must return true"
    );
    assert!(
        !blocked(store, alice, "bad.example").await,
        "domain_blocked must be false after delete_domain_block"
    );
    assert_eq!(
        blocked_domains(store, alice).await,
        vec![(kept, "worse.example".to_string())],
        "delete_domain_block must remove that block only"
    );
    assert!(
        blocked(store, bob, "bad.example").await,
        "delete_domain_block must not remove other accounts' blocks of the domain"
    );
    assert!(
        !store
            .delete_domain_block(alice, "bad.example")
            .await
            .expect("delete_domain_block"),
        "delete_domain_block of a block already deleted must return false"
    );
    assert!(
        !store
            .delete_domain_block(alice, "never.example")
            .await
            .expect("delete_domain_block"),
        "delete_domain_block of a block never made must return false"
    );
}

/// `domain_blocks_page` lists `(block id, domain)` of the account's blocks, newest first whatever
/// the domains' order, one account's only; its cursors are block ids.
pub async fn domain_blocks_page_lists_newest_first_with_cursors(store: &dyn Store) {
    let ids = IdGenerator::default();
    let hub = add_local(store, &ids, "hub").await.id;
    let other = add_local(store, &ids, "other").await.id;
    let domains: Vec<String> = (0..10).rev().map(|i| format!("d{i}.example")).collect();
    let mut s = vec![];
    for (i, domain) in (0i64..).zip(&domains) {
        let millis = T0 + 10_000 + i * 1_000;
        s.push(block_domain(store, &ids, millis, hub, domain).await);
        if i % 3 == 0 {
            block_domain(store, &ids, millis + 500, other, domain).await;
        }
    }
    let expected: Vec<(Id, String)> = s.iter().copied().zip(domains).rev().collect();
    assert_eq!(
        blocked_domains(store, hub).await,
        expected,
        "domain_blocks_page must pair each block id with its domain, newest first"
    );
    let read = |page: Page| async move {
        store
            .domain_blocks_page(hub, page)
            .await
            .expect("domain_blocks_page")
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
        assert_pages("domain_blocks_page (on block ids)", kind, &s, read).await;
    }
}
