//! Checks of [`FollowStore`](fedblog_core::store::FollowStore): follows and the counters they
//! maintain.

use fedblog_core::store::AccountRecord;
use fedblog_core::{IdGenerator, Store};

use super::{T0, add_local, add_remote, get_account, sorted};

/// `(followers_count, following_count)` of a stored account.
async fn counts(store: &dyn Store, account: &AccountRecord) -> (i64, i64) {
    let a = get_account(store, account.id).await;
    (a.followers_count, a.following_count)
}

/// `follows` is true after `insert_follow` in that direction only.
pub async fn insert_follow_is_directional(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    assert!(
        !store.follows(alice.id, bob.id).await.expect("follows"),
        "follows must be false before insert_follow"
    );
    store
        .insert_follow(ids.next_at(T0 + 1_000), alice.id, bob.id)
        .await
        .expect("insert_follow");
    assert!(
        store.follows(alice.id, bob.id).await.expect("follows"),
        "follows(follower, target) must be true after insert_follow"
    );
    assert!(
        !store.follows(bob.id, alice.id).await.expect("follows"),
        "a follow is directional: follows(target, follower) must stay false"
    );
    assert!(
        !store.follows(alice.id, carol.id).await.expect("follows"),
        "follows must be false for a target not followed"
    );
    assert!(
        !store.follows(carol.id, bob.id).await.expect("follows"),
        "follows must be false for a follower who does not follow"
    );
}

/// `insert_follow` increments the follower's `following_count` and the target's
/// `followers_count`, and no other counter.
pub async fn insert_follow_updates_both_counters(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_remote(store, &ids, "carol", "remote.example").await;
    store
        .insert_follow(ids.next_at(T0 + 1_000), alice.id, bob.id)
        .await
        .expect("insert_follow");
    store
        .insert_follow(ids.next_at(T0 + 2_000), carol.id, bob.id)
        .await
        .expect("insert_follow");
    store
        .insert_follow(ids.next_at(T0 + 3_000), alice.id, carol.id)
        .await
        .expect("insert_follow");
    for (account, expected) in [(&alice, (0, 2)), (&bob, (2, 0)), (&carol, (1, 1))] {
        assert_eq!(
            counts(store, account).await,
            expected,
            "insert_follow must maintain (followers_count, following_count) of both accounts ({})",
            account.username
        );
    }
}

/// `insert_follow` of an existing follow (same or new follow id) succeeds and changes nothing:
/// counters are not incremented twice and the follower is listed once.
pub async fn insert_follow_is_idempotent(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let id = ids.next_at(T0 + 1_000);
    store
        .insert_follow(id, alice.id, bob.id)
        .await
        .expect("insert_follow");
    store
        .insert_follow(id, alice.id, bob.id)
        .await
        .expect("insert_follow is idempotent: repeating it must succeed");
    store
        .insert_follow(ids.next_at(T0 + 2_000), alice.id, bob.id)
        .await
        .expect("insert_follow is idempotent: repeating it with a new follow id must succeed");
    assert_eq!(
        counts(store, &alice).await,
        (0, 1),
        "a repeated insert_follow must not increment following_count again"
    );
    assert_eq!(
        counts(store, &bob).await,
        (1, 0),
        "a repeated insert_follow must not increment followers_count again"
    );
    assert_eq!(
        store
            .local_follower_ids(bob.id)
            .await
            .expect("local_follower_ids"),
        vec![alice.id],
        "a repeated insert_follow must not list the follower twice"
    );
}

/// `delete_follow` of an existing follow returns true, removes it and decrements both counters;
/// a second delete returns false.
pub async fn delete_follow_removes_and_updates_counters(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    store
        .insert_follow(ids.next_at(T0 + 1_000), alice.id, bob.id)
        .await
        .expect("insert_follow");
    store
        .insert_follow(ids.next_at(T0 + 2_000), carol.id, bob.id)
        .await
        .expect("insert_follow");
    assert!(
        store
            .delete_follow(alice.id, bob.id)
            .await
            .expect("delete_follow"),
        "delete_follow of an existing follow must return true"
    );
    assert!(
        !store.follows(alice.id, bob.id).await.expect("follows"),
        "follows must be false after delete_follow"
    );
    assert!(
        store.follows(carol.id, bob.id).await.expect("follows"),
        "delete_follow must not remove other follows"
    );
    assert_eq!(
        counts(store, &alice).await,
        (0, 0),
        "delete_follow must decrement the follower's following_count"
    );
    assert_eq!(
        counts(store, &bob).await,
        (1, 0),
        "delete_follow must decrement the target's followers_count"
    );
    assert!(
        !store
            .delete_follow(alice.id, bob.id)
            .await
            .expect("delete_follow"),
        "delete_follow of a follow already deleted must return false"
    );
    assert_eq!(
        counts(store, &bob).await,
        (1, 0),
        "a delete_follow that finds nothing must not change counters"
    );
}

/// `delete_follow` of a follow that never existed (including the reverse of an existing one)
/// returns false and changes no counter.
pub async fn delete_absent_follow_returns_false(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    store
        .insert_follow(ids.next_at(T0 + 1_000), alice.id, bob.id)
        .await
        .expect("insert_follow");
    assert!(
        !store
            .delete_follow(bob.id, alice.id)
            .await
            .expect("delete_follow"),
        "delete_follow of an absent follow (the reverse of an existing one) must return false"
    );
    assert!(
        store.follows(alice.id, bob.id).await.expect("follows"),
        "deleting the reverse follow must keep the follow"
    );
    assert_eq!(
        counts(store, &alice).await,
        (0, 1),
        "a delete_follow that finds nothing must not change counters"
    );
    assert_eq!(
        counts(store, &bob).await,
        (1, 0),
        "a delete_follow that finds nothing must not change counters"
    );
}

/// After an unfollow, following again (with a new follow id) works and counts once.
pub async fn refollow_after_unfollow(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    store
        .insert_follow(ids.next_at(T0 + 1_000), alice.id, bob.id)
        .await
        .expect("insert_follow");
    assert!(
        store
            .delete_follow(alice.id, bob.id)
            .await
            .expect("delete_follow"),
        "delete_follow of an existing follow must return true"
    );
    store
        .insert_follow(ids.next_at(T0 + 2_000), alice.id, bob.id)
        .await
        .expect("insert_follow after an unfollow");
    assert!(
        store.follows(alice.id, bob.id).await.expect("follows"),
        "follows must be true after following again"
    );
    assert_eq!(
        counts(store, &alice).await,
        (0, 1),
        "following again must count once"
    );
    assert_eq!(
        counts(store, &bob).await,
        (1, 0),
        "following again must count once"
    );
}

/// `local_follower_ids` lists the local followers of the target: not remote followers, not
/// followers of other accounts, not accounts the target follows.
pub async fn local_follower_ids_lists_local_followers_only(store: &dyn Store) {
    let ids = IdGenerator::default();
    let target = add_local(store, &ids, "target").await;
    let other = add_local(store, &ids, "other").await;
    let a = add_local(store, &ids, "a").await;
    let c = add_local(store, &ids, "c").await;
    let e = add_local(store, &ids, "e").await;
    let remote = add_remote(store, &ids, "r", "remote.example").await;
    let follow = |follower: &AccountRecord, followed: &AccountRecord| {
        (ids.next_at(T0 + 1_000), follower.id, followed.id)
    };
    for (id, follower, followed) in [
        follow(&c, &target),
        follow(&remote, &target),
        follow(&a, &target),
        follow(&e, &other),
        follow(&target, &e),
    ] {
        store
            .insert_follow(id, follower, followed)
            .await
            .expect("insert_follow");
    }
    let got = store
        .local_follower_ids(target.id)
        .await
        .expect("local_follower_ids");
    assert_eq!(
        sorted(got),
        vec![a.id, c.id],
        "local_follower_ids must list exactly the local accounts following the target (no remote followers)"
    );
}

/// `local_follower_ids` of an account nobody follows is empty.
pub async fn local_follower_ids_without_followers_is_empty(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    store
        .insert_follow(ids.next_at(T0 + 1_000), alice.id, bob.id)
        .await
        .expect("insert_follow");
    assert_eq!(
        store
            .local_follower_ids(alice.id)
            .await
            .expect("local_follower_ids"),
        vec![],
        "local_follower_ids of an account nobody follows must be empty"
    );
}
