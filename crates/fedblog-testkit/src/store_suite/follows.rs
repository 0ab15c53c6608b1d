//! Checks of [`FollowStore`](fedblog_core::store::FollowStore): follows and the counters they
//! maintain, follower/following pages, and pending follow requests.

use fedblog_core::pagination::Page;
use fedblog_core::store::AccountRecord;
use fedblog_core::{Id, IdGenerator, Store};

use super::{Cursor, T0, add_local, add_remote, assert_pages, get_account, sorted};

/// Every kind of page request, for the cursor checks.
const ALL_CURSORS: [Cursor; 6] = [
    Cursor::Limit,
    Cursor::MaxId,
    Cursor::SinceId,
    Cursor::MinId,
    Cursor::Combined,
    Cursor::Absent,
];

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

/// Makes a follow with a follow id made at `millis`; returns the follow id.
async fn follow(store: &dyn Store, ids: &IdGenerator, millis: i64, follower: Id, target: Id) -> Id {
    let id = ids.next_at(millis);
    store
        .insert_follow(id, follower, target)
        .await
        .unwrap_or_else(|e| panic!("insert_follow({follower} -> {target}) failed: {e:?}"));
    id
}

/// Makes a follow request with a request id made at `millis`; returns the request id.
async fn request(
    store: &dyn Store,
    ids: &IdGenerator,
    millis: i64,
    follower: Id,
    target: Id,
) -> Id {
    let id = ids.next_at(millis);
    store
        .insert_follow_request(id, follower, target)
        .await
        .unwrap_or_else(|e| panic!("insert_follow_request({follower} -> {target}) failed: {e:?}"));
    id
}

async fn followers(store: &dyn Store, target: Id) -> Vec<(Id, Id)> {
    store
        .followers_page(target, Page::first(40))
        .await
        .expect("followers_page")
}

async fn following(store: &dyn Store, follower: Id) -> Vec<(Id, Id)> {
    store
        .following_page(follower, Page::first(40))
        .await
        .expect("following_page")
}

async fn requests(store: &dyn Store, target: Id) -> Vec<(Id, Id)> {
    store
        .follow_requests_page(target, Page::first(40))
        .await
        .expect("follow_requests_page")
}

async fn requested(store: &dyn Store, follower: Id, target: Id) -> bool {
    store
        .follow_requested(follower, target)
        .await
        .expect("follow_requested")
}

/// `followers_page` lists `(follow id, follower id)` of the target's followers (remote ones
/// too), newest follow first whatever the account ids: not the accounts the target follows, not
/// the followers of other accounts, not a follow that was deleted.
pub async fn followers_page_lists_followers_newest_follow_first(store: &dyn Store) {
    let ids = IdGenerator::default();
    let target = add_local(store, &ids, "target").await;
    let other = add_local(store, &ids, "other").await;
    let a = add_local(store, &ids, "a").await;
    let b = add_local(store, &ids, "b").await;
    let c = add_local(store, &ids, "c").await;
    let r = add_remote(store, &ids, "r", "remote.example").await;
    let fc = follow(store, &ids, T0 + 1_000, c.id, target.id).await;
    let fa = follow(store, &ids, T0 + 2_000, a.id, target.id).await;
    let fbo = follow(store, &ids, T0 + 3_000, b.id, other.id).await;
    let fta = follow(store, &ids, T0 + 4_000, target.id, a.id).await;
    let fb = follow(store, &ids, T0 + 5_000, b.id, target.id).await;
    let fr = follow(store, &ids, T0 + 6_000, r.id, target.id).await;
    assert_eq!(
        followers(store, target.id).await,
        vec![(fr, r.id), (fb, b.id), (fa, a.id), (fc, c.id)],
        "followers_page must list (follow id, follower id) of the target's followers, newest follow first"
    );
    assert_eq!(
        followers(store, other.id).await,
        vec![(fbo, b.id)],
        "followers_page must list only the followers of the account asked for"
    );
    assert_eq!(
        followers(store, a.id).await,
        vec![(fta, target.id)],
        "followers_page lists who follows the account, not whom it follows"
    );
    assert_eq!(
        followers(store, c.id).await,
        vec![],
        "followers_page of an account nobody follows must be empty"
    );
    assert!(
        store
            .delete_follow(a.id, target.id)
            .await
            .expect("delete_follow"),
        "delete_follow of an existing follow must return true"
    );
    assert_eq!(
        followers(store, target.id).await,
        vec![(fr, r.id), (fb, b.id), (fc, c.id)],
        "followers_page must not list a deleted follow"
    );
}

/// `following_page` lists `(follow id, followed id)` of the accounts the follower follows,
/// newest follow first whatever the account ids: not its followers, not other accounts' follows.
pub async fn following_page_lists_followed_newest_follow_first(store: &dyn Store) {
    let ids = IdGenerator::default();
    let hub = add_local(store, &ids, "hub").await;
    let other = add_local(store, &ids, "other").await;
    let a = add_local(store, &ids, "a").await;
    let b = add_local(store, &ids, "b").await;
    let c = add_local(store, &ids, "c").await;
    let r = add_remote(store, &ids, "r", "remote.example").await;
    let fc = follow(store, &ids, T0 + 1_000, hub.id, c.id).await;
    let fa = follow(store, &ids, T0 + 2_000, hub.id, a.id).await;
    let fob = follow(store, &ids, T0 + 3_000, other.id, b.id).await;
    let fah = follow(store, &ids, T0 + 4_000, a.id, hub.id).await;
    let fr = follow(store, &ids, T0 + 5_000, hub.id, r.id).await;
    let fb = follow(store, &ids, T0 + 6_000, hub.id, b.id).await;
    assert_eq!(
        following(store, hub.id).await,
        vec![(fb, b.id), (fr, r.id), (fa, a.id), (fc, c.id)],
        "following_page must list (follow id, followed id) of the accounts followed, newest follow first"
    );
    assert_eq!(
        following(store, other.id).await,
        vec![(fob, b.id)],
        "following_page must list only the follows of the account asked for"
    );
    assert_eq!(
        following(store, a.id).await,
        vec![(fah, hub.id)],
        "following_page lists whom the account follows, not who follows it"
    );
    assert_eq!(
        following(store, c.id).await,
        vec![],
        "following_page of an account that follows nobody must be empty"
    );
}

/// Ten accounts made first, then followed by (or following) `hub` in the reverse order of their
/// ids, one second apart, with `other`'s follows of the same accounts in between. Returns the
/// hub, its follow ids oldest first, and the accounts in the same order.
async fn follow_fixture(store: &dyn Store, hub_follows: bool) -> (Id, Vec<Id>, Vec<Id>) {
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
        let (follower, target) = if hub_follows {
            (hub, acct)
        } else {
            (acct, hub)
        };
        s.push(follow(store, &ids, millis, follower, target).await);
        if i % 3 == 0 {
            let (follower, target) = if hub_follows {
                (other, acct)
            } else {
                (acct, other)
            };
            follow(store, &ids, millis + 500, follower, target).await;
        }
    }
    (hub, s, accounts)
}

/// `followers_page` cursors (`max_id`, `since_id`, `min_id`, `limit`) are follow ids, not
/// account ids, and pages hold one target's followers only.
pub async fn followers_page_cursors_are_follow_ids(store: &dyn Store) {
    let (hub, s, accounts) = follow_fixture(store, false).await;
    let expected: Vec<(Id, Id)> = s.iter().copied().zip(accounts).rev().collect();
    assert_eq!(
        followers(store, hub).await,
        expected,
        "followers_page must pair each follow id with its follower, newest follow first"
    );
    let read = |page: Page| async move {
        store
            .followers_page(hub, page)
            .await
            .expect("followers_page")
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    };
    for kind in ALL_CURSORS {
        assert_pages("followers_page (on follow ids)", kind, &s, read).await;
    }
}

/// `following_page` cursors (`max_id`, `since_id`, `min_id`, `limit`) are follow ids, not
/// account ids, and pages hold one follower's follows only.
pub async fn following_page_cursors_are_follow_ids(store: &dyn Store) {
    let (hub, s, accounts) = follow_fixture(store, true).await;
    let expected: Vec<(Id, Id)> = s.iter().copied().zip(accounts).rev().collect();
    assert_eq!(
        following(store, hub).await,
        expected,
        "following_page must pair each follow id with the followed account, newest follow first"
    );
    let read = |page: Page| async move {
        store
            .following_page(hub, page)
            .await
            .expect("following_page")
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    };
    for kind in ALL_CURSORS {
        assert_pages("following_page (on follow ids)", kind, &s, read).await;
    }
}

/// `insert_follow_request` of a pending request succeeds and changes nothing: the first
/// request's id is kept and the requester is listed once.
pub async fn insert_follow_request_is_idempotent_keeping_first_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let first = request(store, &ids, T0 + 1_000, alice.id, bob.id).await;
    store
        .insert_follow_request(first, alice.id, bob.id)
        .await
        .expect("insert_follow_request is idempotent: repeating it must succeed");
    store
        .insert_follow_request(ids.next_at(T0 + 2_000), alice.id, bob.id)
        .await
        .expect("insert_follow_request is idempotent: repeating it with a new id must succeed");
    assert_eq!(
        requests(store, bob.id).await,
        vec![(first, alice.id)],
        "a repeated insert_follow_request must keep the first request's id and list it once"
    );
    assert!(
        requested(store, alice.id, bob.id).await,
        "follow_requested must be true after repeated requests"
    );
}

/// `follow_requested` is true for the pair requested only: not the reverse, not other pairs,
/// and not for a plain follow.
pub async fn follow_requested_is_per_pair_and_directional(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    assert!(
        !requested(store, alice.id, bob.id).await,
        "follow_requested must be false before insert_follow_request"
    );
    request(store, &ids, T0 + 1_000, alice.id, bob.id).await;
    follow(store, &ids, T0 + 2_000, carol.id, bob.id).await;
    assert!(
        requested(store, alice.id, bob.id).await,
        "follow_requested(follower, target) must be true after insert_follow_request"
    );
    assert!(
        !requested(store, bob.id, alice.id).await,
        "a follow request is directional: follow_requested(target, follower) must stay false"
    );
    assert!(
        !requested(store, alice.id, carol.id).await,
        "follow_requested must be false for a target not requested"
    );
    assert!(
        !requested(store, carol.id, bob.id).await,
        "follow_requested must be false for a follow that is not a request"
    );
}

/// `delete_follow_request` of a pending request returns true and removes it (only it); a second
/// delete, or the delete of a request never made, returns false.
pub async fn delete_follow_request_true_then_false(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    request(store, &ids, T0 + 1_000, alice.id, bob.id).await;
    let kept = request(store, &ids, T0 + 2_000, carol.id, bob.id).await;
    assert!(
        store
            .delete_follow_request(alice.id, bob.id)
            .await
            .expect("delete_follow_request"),
        "delete_follow_request of a pending request must return true"
    );
    assert!(
        !requested(store, alice.id, bob.id).await,
        "follow_requested must be false after delete_follow_request"
    );
    assert_eq!(
        requests(store, bob.id).await,
        vec![(kept, carol.id)],
        "delete_follow_request must remove that request only"
    );
    assert!(
        !store
            .delete_follow_request(alice.id, bob.id)
            .await
            .expect("delete_follow_request"),
        "delete_follow_request of a request already deleted must return false"
    );
    assert!(
        !store
            .delete_follow_request(bob.id, carol.id)
            .await
            .expect("delete_follow_request"),
        "delete_follow_request of a request never made (the reverse of one) must return false"
    );
    assert!(
        requested(store, carol.id, bob.id).await,
        "deleting the reverse request must keep the request"
    );
}

/// `follow_requests_page` lists `(request id, requester id)` of the requests to the target,
/// newest first: not its own requests, not requests to other accounts.
pub async fn follow_requests_page_lists_requests_per_target_newest_first(store: &dyn Store) {
    let ids = IdGenerator::default();
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let a = add_local(store, &ids, "a").await;
    let c = add_local(store, &ids, "c").await;
    let r = add_remote(store, &ids, "r", "remote.example").await;
    let rc = request(store, &ids, T0 + 1_000, c.id, bob.id).await;
    let ra = request(store, &ids, T0 + 2_000, a.id, bob.id).await;
    let rac = request(store, &ids, T0 + 3_000, a.id, carol.id).await;
    let rba = request(store, &ids, T0 + 4_000, bob.id, a.id).await;
    let rr = request(store, &ids, T0 + 5_000, r.id, bob.id).await;
    assert_eq!(
        requests(store, bob.id).await,
        vec![(rr, r.id), (ra, a.id), (rc, c.id)],
        "follow_requests_page must list (request id, requester id) of the requests to the target, newest first"
    );
    assert_eq!(
        requests(store, carol.id).await,
        vec![(rac, a.id)],
        "follow_requests_page must list only the requests to the account asked for"
    );
    assert_eq!(
        requests(store, a.id).await,
        vec![(rba, bob.id)],
        "follow_requests_page lists requests to the account, not the ones it made"
    );
    assert_eq!(
        requests(store, c.id).await,
        vec![],
        "follow_requests_page of an account without requests must be empty"
    );
}

/// `follow_requests_page` cursors (`max_id`, `since_id`, `min_id`, `limit`) are request ids, and
/// pages hold one target's requests only.
pub async fn follow_requests_page_cursors_are_request_ids(store: &dyn Store) {
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
        s.push(request(store, &ids, millis, acct, hub).await);
        if i % 3 == 0 {
            request(store, &ids, millis + 500, acct, other).await;
        }
    }
    let expected: Vec<(Id, Id)> = s.iter().copied().zip(accounts).rev().collect();
    assert_eq!(
        requests(store, hub).await,
        expected,
        "follow_requests_page must pair each request id with its requester, newest first"
    );
    let read = |page: Page| async move {
        store
            .follow_requests_page(hub, page)
            .await
            .expect("follow_requests_page")
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    };
    for kind in ALL_CURSORS {
        assert_pages("follow_requests_page (on request ids)", kind, &s, read).await;
    }
}
