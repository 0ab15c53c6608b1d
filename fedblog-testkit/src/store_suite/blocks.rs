//! Checks of [`BlockStore`](fedblog_core::store::BlockStore): blocks (which sever follows and
//! follow requests both ways), mutes with their settings and expiry, and their pages.
//!
//! Expiry boundary: a mute whose `expires_at` is at or before `now` has expired (`expires_at <=
//! now`); one ending a millisecond after `now` is still in force.

use chrono::{DateTime, TimeDelta, Utc};
use fedblog_core::pagination::Page;
use fedblog_core::store::{AccountRecord, MuteRecord};
use fedblog_core::{Id, IdGenerator, Store};

use super::{
    Capabilities, Capability, Cursor, T0, add_local, add_remote, assert_pages, at, get_account,
    sorted,
};

/// Every kind of page request, for the cursor checks.
const ALL_CURSORS: [Cursor; 6] = [
    Cursor::Limit,
    Cursor::MaxId,
    Cursor::SinceId,
    Cursor::MinId,
    Cursor::Combined,
    Cursor::Absent,
];

/// The `now` of the mute checks.
fn now() -> DateTime<Utc> {
    at(T0 + 100_000)
}

/// `now` shifted by `millis`.
fn now_plus(millis: i64) -> DateTime<Utc> {
    now() + TimeDelta::milliseconds(millis)
}

/// `(followers_count, following_count)` of a stored account.
async fn counts(store: &dyn Store, account: &AccountRecord) -> (i64, i64) {
    let a = get_account(store, account.id).await;
    (a.followers_count, a.following_count)
}

/// Makes a block with a block id made at `millis`; returns the block id.
async fn block(store: &dyn Store, ids: &IdGenerator, millis: i64, account: Id, target: Id) -> Id {
    let id = ids.next_at(millis);
    store
        .insert_block(id, account, target)
        .await
        .unwrap_or_else(|e| panic!("insert_block({account} -> {target}) failed: {e:?}"));
    id
}

/// Makes a mute with a mute id made at `millis`; returns it as given.
async fn mute(
    store: &dyn Store,
    ids: &IdGenerator,
    millis: i64,
    (account, target): (Id, Id),
    notifications: bool,
    expires_at: Option<DateTime<Utc>>,
) -> MuteRecord {
    let m = MuteRecord {
        id: ids.next_at(millis),
        account_id: account,
        target_id: target,
        notifications,
        expires_at,
    };
    store
        .upsert_mute(&m)
        .await
        .unwrap_or_else(|e| panic!("upsert_mute({account} -> {target}) failed: {e:?}"));
    m
}

async fn follow(store: &dyn Store, ids: &IdGenerator, millis: i64, follower: Id, target: Id) {
    store
        .insert_follow(ids.next_at(millis), follower, target)
        .await
        .unwrap_or_else(|e| panic!("insert_follow({follower} -> {target}) failed: {e:?}"));
}

async fn request(store: &dyn Store, ids: &IdGenerator, millis: i64, follower: Id, target: Id) {
    store
        .insert_follow_request(ids.next_at(millis), follower, target)
        .await
        .unwrap_or_else(|e| panic!("insert_follow_request({follower} -> {target}) failed: {e:?}"));
}

async fn blocks(store: &dyn Store, account: Id, target: Id) -> bool {
    store.blocks(account, target).await.expect("blocks")
}

async fn blocked(store: &dyn Store, account: Id) -> Vec<(Id, Id)> {
    store
        .blocks_page(account, Page::first(40))
        .await
        .expect("blocks_page")
}

async fn mute_of(store: &dyn Store, account: Id, target: Id) -> Option<MuteRecord> {
    store
        .mute_of(account, target, now())
        .await
        .expect("mute_of")
}

async fn muted(store: &dyn Store, account: Id) -> Vec<MuteRecord> {
    store
        .mutes_page(account, now(), Page::first(40))
        .await
        .expect("mutes_page")
}

/// `blocks` is true after `insert_block` in that direction only; a repeated `insert_block`
/// succeeds and keeps the first block's id.
pub async fn insert_block_round_trips_and_is_idempotent_keeping_first_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    assert!(
        !blocks(store, alice.id, bob.id).await,
        "blocks must be false before insert_block"
    );
    let first = block(store, &ids, T0 + 1_000, alice.id, bob.id).await;
    assert!(
        blocks(store, alice.id, bob.id).await,
        "blocks(account, target) must be true after insert_block"
    );
    assert!(
        !blocks(store, bob.id, alice.id).await,
        "a block is directional: blocks(target, account) must stay false"
    );
    assert!(
        !blocks(store, alice.id, carol.id).await,
        "blocks must be false for a target not blocked"
    );
    store
        .insert_block(first, alice.id, bob.id)
        .await
        .expect("insert_block is idempotent: repeating it must succeed");
    store
        .insert_block(ids.next_at(T0 + 2_000), alice.id, bob.id)
        .await
        .expect("insert_block is idempotent: repeating it with a new id must succeed");
    assert_eq!(
        blocked(store, alice.id).await,
        vec![(first, bob.id)],
        "a repeated insert_block must keep the first block's id and list it once"
    );
    assert!(
        blocks(store, alice.id, bob.id).await,
        "blocks must stay true after repeated insert_block"
    );
}

/// `insert_block` removes the follows between the two accounts in both directions, moving
/// their counters back, and leaves every other follow and counter alone.
pub async fn insert_block_removes_follows_both_ways_with_counters(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_remote(store, &ids, "carol", "remote.example").await;
    follow(store, &ids, T0 + 1_000, alice.id, bob.id).await;
    follow(store, &ids, T0 + 2_000, bob.id, alice.id).await;
    follow(store, &ids, T0 + 3_000, carol.id, bob.id).await;
    follow(store, &ids, T0 + 4_000, alice.id, carol.id).await;
    block(store, &ids, T0 + 5_000, alice.id, bob.id).await;
    for (f, t, expected, what) in [
        (
            alice.id,
            bob.id,
            false,
            "the blocker's follow of the target",
        ),
        (
            bob.id,
            alice.id,
            false,
            "the target's follow of the blocker",
        ),
        (
            carol.id,
            bob.id,
            true,
            "a third account's follow of the target",
        ),
        (
            alice.id,
            carol.id,
            true,
            "the blocker's follow of a third account",
        ),
    ] {
        assert_eq!(
            store.follows(f, t).await.expect("follows"),
            expected,
            "after insert_block, {what} must {}",
            if expected { "stay" } else { "be removed" }
        );
    }
    for (account, expected) in [(&alice, (0, 1)), (&bob, (1, 0)), (&carol, (1, 1))] {
        assert_eq!(
            counts(store, account).await,
            expected,
            "(followers_count, following_count) of {} after insert_block",
            account.username
        );
    }
    block(store, &ids, T0 + 6_000, alice.id, bob.id).await;
    block(store, &ids, T0 + 7_000, bob.id, alice.id).await;
    for (account, expected) in [(&alice, (0, 1)), (&bob, (1, 0)), (&carol, (1, 1))] {
        assert_eq!(
            counts(store, account).await,
            expected,
            "(followers_count, following_count) of {}: blocks without follows left must not move counters",
            account.username
        );
    }
}

/// `insert_block` removes the pending follow requests between the two accounts in both
/// directions, and only those.
pub async fn insert_block_removes_follow_requests_both_ways(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    request(store, &ids, T0 + 1_000, alice.id, bob.id).await;
    request(store, &ids, T0 + 2_000, bob.id, alice.id).await;
    request(store, &ids, T0 + 3_000, carol.id, bob.id).await;
    request(store, &ids, T0 + 4_000, alice.id, carol.id).await;
    block(store, &ids, T0 + 5_000, alice.id, bob.id).await;
    for (f, t, expected, what) in [
        (
            alice.id,
            bob.id,
            false,
            "the blocker's request to the target",
        ),
        (
            bob.id,
            alice.id,
            false,
            "the target's request to the blocker",
        ),
        (
            carol.id,
            bob.id,
            true,
            "a third account's request to the target",
        ),
        (
            alice.id,
            carol.id,
            true,
            "the blocker's request to a third account",
        ),
    ] {
        assert_eq!(
            store
                .follow_requested(f, t)
                .await
                .expect("follow_requested"),
            expected,
            "after insert_block, {what} must {}",
            if expected { "stay" } else { "be removed" }
        );
    }
}

/// `delete_block` of a block returns true and removes it (only it); a second delete, or the
/// delete of a block never made, returns false.
pub async fn delete_block_true_then_false(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    block(store, &ids, T0 + 1_000, alice.id, bob.id).await;
    block(store, &ids, T0 + 2_000, carol.id, bob.id).await;
    assert!(
        store
            .delete_block(alice.id, bob.id)
            .await
            .expect("delete_block"),
        "delete_block of a block must return true"
    );
    assert!(
        !blocks(store, alice.id, bob.id).await,
        "blocks must be false after delete_block"
    );
    assert!(
        blocks(store, carol.id, bob.id).await,
        "delete_block must remove that block only"
    );
    assert!(
        !store
            .delete_block(alice.id, bob.id)
            .await
            .expect("delete_block"),
        "delete_block of a block already deleted must return false"
    );
    assert!(
        !store
            .delete_block(bob.id, carol.id)
            .await
            .expect("delete_block"),
        "delete_block of a block never made (the reverse of one) must return false"
    );
}

/// `blocked_either_way` lists the ids among `others` that the account blocks or that block it,
/// and ignores blocks between other accounts.
pub async fn blocked_either_way_matches_both_directions(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let carol = add_local(store, &ids, "carol").await.id;
    let dave = add_local(store, &ids, "dave").await.id;
    let erin = add_local(store, &ids, "erin").await.id;
    let frank = add_local(store, &ids, "frank").await.id;
    block(store, &ids, T0 + 1_000, alice, bob).await;
    block(store, &ids, T0 + 2_000, carol, alice).await;
    block(store, &ids, T0 + 3_000, dave, erin).await;
    let either = |account: Id, others: Vec<Id>| async move {
        sorted(
            store
                .blocked_either_way(account, &others)
                .await
                .expect("blocked_either_way"),
        )
    };
    assert_eq!(
        either(alice, vec![bob, carol, dave, erin, frank]).await,
        sorted(vec![bob, carol]),
        "blocked_either_way must list the accounts blocked by and blocking the account, and no others"
    );
    assert_eq!(
        either(bob, vec![alice, carol]).await,
        vec![alice],
        "blocked_either_way must list an account that blocks the one asked for"
    );
    assert_eq!(
        either(erin, vec![alice, dave]).await,
        vec![dave],
        "blocked_either_way must list an account that blocks the one asked for"
    );
    assert_eq!(
        either(frank, vec![alice, bob, carol, dave, erin]).await,
        vec![],
        "blocked_either_way of an account without blocks must be empty"
    );
    assert_eq!(
        either(alice, vec![]).await,
        vec![],
        "blocked_either_way among no accounts must be empty"
    );
}

/// `blocks_page` lists `(block id, blocked id)` of the account's blocks, newest first: not the
/// blocks of it, not other accounts' blocks.
pub async fn blocks_page_lists_blocked_newest_first(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let a = add_local(store, &ids, "a").await.id;
    let c = add_local(store, &ids, "c").await.id;
    let r = add_remote(store, &ids, "r", "remote.example").await.id;
    let b1 = block(store, &ids, T0 + 1_000, alice, c).await;
    let b2 = block(store, &ids, T0 + 2_000, alice, a).await;
    let b3 = block(store, &ids, T0 + 3_000, alice, r).await;
    let b4 = block(store, &ids, T0 + 4_000, bob, a).await;
    let b5 = block(store, &ids, T0 + 5_000, a, alice).await;
    assert_eq!(
        blocked(store, alice).await,
        vec![(b3, r), (b2, a), (b1, c)],
        "blocks_page must list (block id, blocked id) of the account's blocks, newest first"
    );
    assert_eq!(
        blocked(store, bob).await,
        vec![(b4, a)],
        "blocks_page must list only the blocks of the account asked for"
    );
    assert_eq!(
        blocked(store, a).await,
        vec![(b5, alice)],
        "blocks_page lists the blocks the account made, not the ones of it"
    );
    assert_eq!(
        blocked(store, c).await,
        vec![],
        "blocks_page of an account without blocks must be empty"
    );
}

/// `blocks_page` cursors (`max_id`, `since_id`, `min_id`, `limit`) are block ids, and pages
/// hold one account's blocks only.
pub async fn blocks_page_cursors_are_block_ids(store: &dyn Store) {
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
        s.push(block(store, &ids, millis, hub, acct).await);
        if i % 3 == 0 {
            block(store, &ids, millis + 500, other, acct).await;
        }
    }
    let expected: Vec<(Id, Id)> = s.iter().copied().zip(accounts).rev().collect();
    assert_eq!(
        blocked(store, hub).await,
        expected,
        "blocks_page must pair each block id with the blocked account, newest first"
    );
    let read = |page: Page| async move {
        store
            .blocks_page(hub, page)
            .await
            .expect("blocks_page")
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    };
    for kind in ALL_CURSORS {
        assert_pages("blocks_page (on block ids)", kind, &s, read).await;
    }
}

/// `upsert_mute` stores a mute as given (millisecond `expires_at`); a second one of the same
/// pair replaces `notifications` and `expires_at` and keeps the first id.
pub async fn upsert_mute_inserts_then_replaces_settings_keeping_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let first = mute(
        store,
        &ids,
        T0 + 1_000,
        (alice, bob),
        true,
        Some(now_plus(200_123)),
    )
    .await;
    assert_eq!(
        mute_of(store, alice, bob).await,
        Some(first.clone()),
        "mute_of must return the mute as upserted"
    );
    assert_eq!(
        mute_of(store, bob, alice).await,
        None,
        "a mute is directional: mute_of(target, account) must be None"
    );
    mute(store, &ids, T0 + 2_000, (alice, bob), false, None).await;
    let replaced = MuteRecord {
        notifications: false,
        expires_at: None,
        ..first.clone()
    };
    assert_eq!(
        mute_of(store, alice, bob).await,
        Some(replaced.clone()),
        "a second upsert_mute must replace notifications and expires_at and keep the first id"
    );
    mute(
        store,
        &ids,
        T0 + 3_000,
        (alice, bob),
        true,
        Some(now_plus(300_456)),
    )
    .await;
    let again = MuteRecord {
        notifications: true,
        expires_at: Some(now_plus(300_456)),
        ..first
    };
    assert_eq!(
        mute_of(store, alice, bob).await,
        Some(again.clone()),
        "a third upsert_mute must replace the settings again and keep the first id"
    );
    assert_eq!(
        muted(store, alice).await,
        vec![again],
        "repeated upsert_mute must list the mute once"
    );
}

/// `mute_of` is `None` for a mute never made and for an expired one: `expires_at <= now` has
/// expired, one ending a millisecond after `now` (or never) is in force.
pub async fn mute_of_is_none_when_expired_or_absent(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let carol = add_local(store, &ids, "carol").await.id;
    let dave = add_local(store, &ids, "dave").await.id;
    let erin = add_local(store, &ids, "erin").await.id;
    let frank = add_local(store, &ids, "frank").await.id;
    mute(
        store,
        &ids,
        T0 + 1_000,
        (alice, bob),
        true,
        Some(now_plus(-1)),
    )
    .await;
    mute(store, &ids, T0 + 2_000, (alice, carol), true, Some(now())).await;
    let d = mute(
        store,
        &ids,
        T0 + 3_000,
        (alice, dave),
        true,
        Some(now_plus(1)),
    )
    .await;
    let e = mute(store, &ids, T0 + 4_000, (alice, erin), false, None).await;
    assert_eq!(
        mute_of(store, alice, bob).await,
        None,
        "mute_of must be None for a mute that expired before now"
    );
    assert_eq!(
        mute_of(store, alice, carol).await,
        None,
        "mute_of must be None for a mute expiring exactly at now (expires_at <= now has expired)"
    );
    assert_eq!(
        mute_of(store, alice, dave).await,
        Some(d),
        "mute_of must return a mute expiring a millisecond after now"
    );
    assert_eq!(
        mute_of(store, alice, erin).await,
        Some(e),
        "mute_of must return a mute without expiry"
    );
    assert_eq!(
        mute_of(store, alice, frank).await,
        None,
        "mute_of must be None for a mute never made"
    );
}

/// `muted_among` lists the ids among `others` that the account mutes at `now`: not expired
/// mutes, not mutes of the account by others, not accounts it does not mute.
pub async fn muted_among_lists_mutes_in_force(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let carol = add_local(store, &ids, "carol").await.id;
    let dave = add_local(store, &ids, "dave").await.id;
    let erin = add_local(store, &ids, "erin").await.id;
    let frank = add_local(store, &ids, "frank").await.id;
    mute(store, &ids, T0 + 1_000, (alice, bob), true, None).await;
    mute(store, &ids, T0 + 2_000, (alice, carol), true, Some(now())).await;
    mute(
        store,
        &ids,
        T0 + 3_000,
        (alice, dave),
        false,
        Some(now_plus(1)),
    )
    .await;
    mute(store, &ids, T0 + 4_000, (erin, alice), true, None).await;
    let among = |account: Id, others: Vec<Id>| async move {
        sorted(
            store
                .muted_among(account, &others, now())
                .await
                .expect("muted_among"),
        )
    };
    assert_eq!(
        among(alice, vec![bob, carol, dave, erin, frank]).await,
        sorted(vec![bob, dave]),
        "muted_among must list the accounts muted at now (expires_at <= now has expired), and no others"
    );
    assert_eq!(
        among(erin, vec![alice, bob]).await,
        vec![alice],
        "muted_among must list only the mutes of the account asked for"
    );
    assert_eq!(
        among(bob, vec![alice, carol]).await,
        vec![],
        "muted_among of an account that mutes nobody must be empty"
    );
    assert_eq!(
        among(alice, vec![]).await,
        vec![],
        "muted_among among no accounts must be empty"
    );
}

/// `mutes_page` lists the account's mutes in force at `now` as stored, newest first: not
/// expired ones, not mutes of it, not other accounts' mutes.
pub async fn mutes_page_excludes_expired_newest_first(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let a = add_local(store, &ids, "a").await.id;
    let c = add_local(store, &ids, "c").await.id;
    let r = add_remote(store, &ids, "r", "remote.example").await.id;
    let x = add_local(store, &ids, "x").await.id;
    let mc = mute(store, &ids, T0 + 1_000, (alice, c), true, None).await;
    mute(
        store,
        &ids,
        T0 + 2_000,
        (alice, a),
        true,
        Some(now_plus(-1_000)),
    )
    .await;
    let mr = mute(
        store,
        &ids,
        T0 + 3_000,
        (alice, r),
        false,
        Some(now_plus(1_000)),
    )
    .await;
    mute(store, &ids, T0 + 4_000, (alice, x), true, Some(now())).await;
    let mb = mute(store, &ids, T0 + 5_000, (bob, a), true, None).await;
    assert_eq!(
        muted(store, alice).await,
        vec![mr, mc],
        "mutes_page must list the account's mutes in force at now, newest first (expires_at <= now has expired)"
    );
    assert_eq!(
        muted(store, bob).await,
        vec![mb],
        "mutes_page must list only the mutes of the account asked for"
    );
    assert_eq!(
        muted(store, a).await,
        vec![],
        "mutes_page lists the mutes the account made, not the ones of it"
    );
}

/// `mutes_page` cursors (`max_id`, `since_id`, `min_id`, `limit`) are mute ids, pages hold one
/// account's mutes only, and expired mutes between them take no place in a page.
pub async fn mutes_page_cursors_are_mute_ids(store: &dyn Store) {
    let ids = IdGenerator::default();
    let hub = add_local(store, &ids, "hub").await.id;
    let other = add_local(store, &ids, "other").await.id;
    let mut accounts = vec![];
    for i in 0..10 {
        accounts.push(add_local(store, &ids, &format!("u{i}")).await.id);
    }
    let mut expired = vec![];
    for i in 0..4 {
        expired.push(add_local(store, &ids, &format!("x{i}")).await.id);
    }
    accounts.reverse();
    let mut s = vec![];
    for (i, &acct) in (0i64..).zip(&accounts) {
        let millis = T0 + 10_000 + i * 1_000;
        let expires = (i % 2 == 0).then(|| now_plus(1_000 + i));
        s.push(mute(store, &ids, millis, (hub, acct), i % 2 == 1, expires).await);
        if i % 3 == 0 {
            mute(store, &ids, millis + 500, (other, acct), true, None).await;
            let x = expired[(i / 3) as usize];
            mute(store, &ids, millis + 700, (hub, x), true, Some(now())).await;
        }
    }
    let expected: Vec<MuteRecord> = s.iter().rev().cloned().collect();
    assert_eq!(
        muted(store, hub).await,
        expected,
        "mutes_page must list the mutes in force, newest first"
    );
    let s: Vec<Id> = s.iter().map(|m| m.id).collect();
    let read = |page: Page| async move {
        store
            .mutes_page(hub, now(), page)
            .await
            .expect("mutes_page")
            .into_iter()
            .map(|m| m.id)
            .collect()
    };
    for kind in ALL_CURSORS {
        assert_pages("mutes_page (on mute ids)", kind, &s, read).await;
    }
}

/// `delete_mute` of a mute returns true and removes it (only it); a second delete, or the
/// delete of a mute never made, returns false.
pub async fn delete_mute_true_then_false(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let carol = add_local(store, &ids, "carol").await.id;
    mute(store, &ids, T0 + 1_000, (alice, bob), true, None).await;
    let kept = mute(store, &ids, T0 + 2_000, (carol, bob), false, None).await;
    assert!(
        store.delete_mute(alice, bob).await.expect("delete_mute"),
        "delete_mute of a mute must return true"
    );
    assert_eq!(
        mute_of(store, alice, bob).await,
        None,
        "mute_of must be None after delete_mute"
    );
    assert_eq!(
        mute_of(store, carol, bob).await,
        Some(kept),
        "delete_mute must remove that mute only"
    );
    assert!(
        !store.delete_mute(alice, bob).await.expect("delete_mute"),
        "delete_mute of a mute already deleted must return false"
    );
    assert!(
        !store.delete_mute(bob, carol).await.expect("delete_mute"),
        "delete_mute of a mute never made (the reverse of one) must return false"
    );
}

/// `relations_among` says, for each of the given accounts the account has a relation with, whether
/// it blocks it, is blocked by it and mutes it (a mute in force at `now`), once each; accounts
/// with none, expired mutes, other accounts' relations and accounts not asked about are left out.
pub async fn relations_among_reports_blocks_both_ways_and_mutes_in_force(store: &dyn Store) {
    use fedblog_core::store::RelationRecord;
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let carol = add_local(store, &ids, "carol").await.id;
    let dave = add_local(store, &ids, "dave").await.id;
    let erin = add_local(store, &ids, "erin").await.id;
    let frank = add_local(store, &ids, "frank").await.id;
    let gina = add_local(store, &ids, "gina").await.id;
    block(store, &ids, T0 + 1_000, alice, bob).await;
    block(store, &ids, T0 + 2_000, carol, alice).await;
    block(store, &ids, T0 + 3_000, alice, dave).await;
    block(store, &ids, T0 + 4_000, dave, alice).await;
    mute(store, &ids, T0 + 5_000, (alice, dave), true, None).await;
    mute(
        store,
        &ids,
        T0 + 6_000,
        (alice, erin),
        true,
        Some(now_plus(1)),
    )
    .await;
    mute(store, &ids, T0 + 7_000, (alice, frank), true, Some(now())).await;
    block(store, &ids, T0 + 8_000, bob, gina).await;
    let mut got = store
        .relations_among(alice, &[bob, carol, dave, erin, frank, gina, bob], now())
        .await
        .expect("relations_among");
    got.sort_by_key(|r| r.id);
    let rel = |id, blocking, blocked_by, muting| RelationRecord {
        id,
        blocking,
        blocked_by,
        muting,
    };
    let mut want = vec![
        rel(bob, true, false, false),
        rel(carol, false, true, false),
        rel(dave, true, true, true),
        rel(erin, false, false, true),
    ];
    want.sort_by_key(|r| r.id);
    assert_eq!(
        got, want,
        "relations_among must report blocks both ways and mutes in force (an expired one, an account without relation and others' blocks left out), once each"
    );
    assert_eq!(
        store
            .relations_among(alice, &[], now())
            .await
            .expect("relations_among"),
        vec![],
        "relations_among of no accounts must be empty"
    );
}

/// Local accounts alice, bob, carol, dave and erin, in that order.
async fn five_locals(store: &dyn Store, ids: &IdGenerator) -> [Id; 5] {
    let mut made = vec![];
    for name in ["alice", "bob", "carol", "dave", "erin"] {
        made.push(add_local(store, ids, name).await.id);
    }
    made.try_into().expect("five accounts")
}

/// `has_relations` is true for an account that blocks someone, is blocked by someone, or mutes
/// someone (even once the mute has expired, since `relations_among` may be asked about an earlier
/// `now`); and `relations_among` follows blocks and mutes as they are made and removed even when
/// it was asked before (a store that remembers answers must forget them on those writes).
pub async fn has_relations_and_relations_among_follow_blocks_and_mutes(store: &dyn Store) {
    use fedblog_core::store::RelationRecord;
    let ids = IdGenerator::default();
    let everyone = five_locals(store, &ids).await;
    let [alice, bob, carol, dave, erin] = everyone;
    let among = |account: Id, other: Id| async move {
        store
            .relations_among(account, &[other], now())
            .await
            .expect("relations_among")
    };
    for a in everyone {
        assert_eq!(
            store
                .relations_among(a, &everyone, now())
                .await
                .expect("relations_among"),
            vec![],
            "relations_among must be empty before any block or mute"
        );
    }
    block(store, &ids, T0 + 1_000, alice, bob).await;
    mute(store, &ids, T0 + 2_000, (carol, dave), true, Some(now())).await;
    mute(store, &ids, T0 + 3_000, (erin, dave), false, None).await;
    for (who, what) in [
        (alice, "blocks someone"),
        (bob, "is blocked by someone"),
        (carol, "has an expired mute"),
        (erin, "mutes someone"),
    ] {
        assert!(
            store.has_relations(who).await.expect("has_relations"),
            "has_relations must be true for an account that {what}"
        );
    }
    let rel = |id, blocking, blocked_by, muting| RelationRecord {
        id,
        blocking,
        blocked_by,
        muting,
    };
    for (account, other, want, what) in [
        (alice, bob, rel(bob, true, false, false), "a block made"),
        (
            bob,
            alice,
            rel(alice, false, true, false),
            "being blocked once the block is made",
        ),
        (erin, dave, rel(dave, false, false, true), "a mute made"),
    ] {
        assert_eq!(
            among(account, other).await,
            vec![want],
            "relations_among must show {what} after it was asked"
        );
    }
    assert!(
        store.delete_block(alice, bob).await.expect("delete_block"),
        "delete_block of a block made must return true"
    );
    assert!(
        store.delete_mute(erin, dave).await.expect("delete_mute"),
        "delete_mute of a mute made must return true"
    );
    for (a, b) in [(alice, bob), (bob, alice), (erin, dave)] {
        assert_eq!(
            among(a, b).await,
            vec![],
            "relations_among must forget a block or mute once it is removed"
        );
    }
}

/// With [`Capability::PreciseHasRelations`], `has_relations` is false for accounts with no block
/// or mute either way: ones that only follow or are followed, ones whose block was removed, and
/// bystanders of others' blocks. Without it, any answer is allowed, but asking must work and
/// `relations_among` must still be empty for them.
pub async fn has_relations_is_false_without_blocks_or_mutes(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let ids = IdGenerator::default();
    let everyone = five_locals(store, &ids).await;
    let [alice, bob, carol, dave, erin] = everyone;
    follow(store, &ids, T0 + 1_000, alice, bob).await;
    block(store, &ids, T0 + 2_000, carol, dave).await;
    block(store, &ids, T0 + 3_000, erin, alice).await;
    assert!(
        store.delete_block(erin, alice).await.expect("delete_block"),
        "delete_block of a block made must return true"
    );
    let precise = capabilities.has(Capability::PreciseHasRelations);
    for (who, what) in [
        (alice, "follows and was blocked until the block was removed"),
        (bob, "is followed"),
        (erin, "blocked someone and removed the block"),
    ] {
        let answer = store.has_relations(who).await.expect("has_relations");
        if precise {
            assert!(
                !answer,
                "has_relations must be false for an account that only {what} \
                 (or declare the store `lacks = [PreciseHasRelations]`)"
            );
        }
        assert_eq!(
            store
                .relations_among(who, &everyone, now())
                .await
                .expect("relations_among"),
            vec![],
            "relations_among must be empty for an account that {what}"
        );
    }
    assert!(
        store.has_relations(carol).await.expect("has_relations"),
        "has_relations must stay true for an account with a block"
    );
}
