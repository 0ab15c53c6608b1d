//! Checks of [`FollowStore`](fedblog_core::store::FollowStore): follows and the counters they
//! maintain, follower/following pages, pending follow requests, the options of follows and
//! requests, and the graph queries (familiar followers, friends of friends).

use fedblog_core::pagination::Page;
use fedblog_core::store::{AccountRecord, FollowRecord};
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

/// `notified_follower_ids` lists the local followers of the target whose follow has `notify`:
/// not followers without it (or who turned it off), not remote followers, not pending requests
/// asking for it, not followers of other accounts, not the accounts the target follows.
pub async fn notified_follower_ids_lists_local_followers_asking_for_posts(store: &dyn Store) {
    let ids = IdGenerator::default();
    let target = add_local(store, &ids, "target").await;
    let other = add_local(store, &ids, "other").await;
    let a = add_local(store, &ids, "a").await;
    let b = add_local(store, &ids, "b").await;
    let c = add_local(store, &ids, "c").await;
    let d = add_local(store, &ids, "d").await;
    let e = add_local(store, &ids, "e").await;
    let f = add_local(store, &ids, "f").await;
    let remote = add_remote(store, &ids, "r", "remote.example").await;
    let notifying =
        |follower: &AccountRecord, followed: &AccountRecord, millis: i64| FollowRecord {
            notify: true,
            ..FollowRecord::new(ids.next_at(millis), follower.id, followed.id)
        };
    for (record, what) in [
        (notifying(&a, &target, T0 + 1_000), "a's follow of target"),
        (notifying(&remote, &target, T0 + 2_000), "the remote follow"),
        (notifying(&c, &target, T0 + 3_000), "c's follow of target"),
        (notifying(&d, &other, T0 + 4_000), "d's follow of other"),
        (notifying(&target, &e, T0 + 5_000), "target's follow of e"),
        (notifying(&f, &target, T0 + 6_000), "f's follow of target"),
    ] {
        assert!(
            store
                .upsert_follow(&record)
                .await
                .unwrap_or_else(|err| panic!("upsert_follow({what}) failed: {err:?}")),
            "upsert_follow of a new follow ({what}) must return true"
        );
    }
    follow(store, &ids, T0 + 7_000, b.id, target.id).await;
    // f turns notifications off again.
    let off = FollowRecord {
        notify: false,
        ..notifying(&f, &target, T0 + 8_000)
    };
    assert!(
        !store.upsert_follow(&off).await.expect("upsert_follow"),
        "upsert_follow of an existing follow must return false"
    );
    // e asks to follow target, with notify.
    let request = notifying(&e, &target, T0 + 9_000);
    assert!(
        store
            .upsert_follow_request(&request)
            .await
            .expect("upsert_follow_request"),
        "upsert_follow_request of a new request must return true"
    );
    let got = store
        .notified_follower_ids(target.id)
        .await
        .expect("notified_follower_ids");
    assert_eq!(
        sorted(got),
        vec![a.id, c.id],
        "notified_follower_ids must list exactly the local followers of the target whose follow \
         has notify (not b without it, not f who turned it off, not the remote follower, not e's \
         pending request, not d who follows another account, not e whom the target follows)"
    );
    assert_eq!(
        store
            .notified_follower_ids(b.id)
            .await
            .expect("notified_follower_ids"),
        vec![],
        "notified_follower_ids of an account nobody follows must be empty"
    );
}

/// `language_restricted_followers` lists the local followers of the target whose follow has
/// `languages`, with those languages: not followers without them, not remote followers, not
/// followers of other accounts.
pub async fn language_restricted_followers_lists_local_followers_with_languages(store: &dyn Store) {
    let ids = IdGenerator::default();
    let target = add_local(store, &ids, "target").await;
    let other = add_local(store, &ids, "other").await;
    let a = add_local(store, &ids, "a").await;
    let b = add_local(store, &ids, "b").await;
    let c = add_local(store, &ids, "c").await;
    let remote = add_remote(store, &ids, "r", "remote.example").await;
    let speaking =
        |follower: &AccountRecord, followed: &AccountRecord, langs: &[&str], millis: i64| {
            FollowRecord {
                languages: Some(langs.iter().map(|l| l.to_string()).collect()),
                ..FollowRecord::new(ids.next_at(millis), follower.id, followed.id)
            }
        };
    for record in [
        speaking(&a, &target, &["de", "fr"], T0 + 1_000),
        speaking(&remote, &target, &["en"], T0 + 2_000),
        speaking(&c, &other, &["en"], T0 + 3_000),
    ] {
        store.upsert_follow(&record).await.expect("upsert_follow");
    }
    follow(store, &ids, T0 + 4_000, b.id, target.id).await;
    let mut got = store
        .language_restricted_followers(target.id)
        .await
        .expect("language_restricted_followers");
    got.sort();
    assert_eq!(
        got,
        vec![(a.id, vec!["de".to_string(), "fr".to_string()])],
        "language_restricted_followers must list exactly the local followers of the target whose \
         follow has languages, with them (not b without languages, not the remote follower, not c \
         who follows another account)"
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

// ---- follows and requests with their options ----

/// A follow record of `follower` to `target` with options unlike the defaults.
fn follow_with_options(id: Id, follower: Id, target: Id) -> FollowRecord {
    FollowRecord {
        show_reblogs: false,
        notify: true,
        languages: Some(vec!["de".into(), "en".into()]),
        ..FollowRecord::new(id, follower, target)
    }
}

async fn follow_of(store: &dyn Store, follower: Id, target: Id) -> Option<FollowRecord> {
    store.follow_of(follower, target).await.expect("follow_of")
}

async fn request_of(store: &dyn Store, follower: Id, target: Id) -> Option<FollowRecord> {
    store
        .follow_request_of(follower, target)
        .await
        .expect("follow_request_of")
}

/// `follow_of` is `None` without a follow (and for the reverse pair, and for a pending request),
/// and returns the follow `insert_follow` made with its id and Mastodon's default options.
pub async fn follow_of_returns_the_follow_with_default_options(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_remote(store, &ids, "carol", "remote.example").await;
    assert_eq!(
        follow_of(store, alice.id, bob.id).await,
        None,
        "follow_of must be None before any follow"
    );
    let id = follow(store, &ids, T0 + 1_000, alice.id, bob.id).await;
    request(store, &ids, T0 + 2_000, carol.id, bob.id).await;
    assert_eq!(
        follow_of(store, alice.id, bob.id).await,
        Some(FollowRecord::new(id, alice.id, bob.id)),
        "follow_of must return the follow insert_follow made, with its id and the default options \
         (show_reblogs, no notify, all languages)"
    );
    assert_eq!(
        follow_of(store, bob.id, alice.id).await,
        None,
        "follow_of is directional: the reverse pair must be None"
    );
    assert_eq!(
        follow_of(store, carol.id, bob.id).await,
        None,
        "follow_of must be None for a pending follow request"
    );
    assert!(
        store
            .delete_follow(alice.id, bob.id)
            .await
            .expect("delete_follow"),
        "delete_follow of an existing follow must return true"
    );
    assert_eq!(
        follow_of(store, alice.id, bob.id).await,
        None,
        "follow_of must be None after delete_follow"
    );
}

/// `upsert_follow` of a new follow returns true, stores it with its options (read back by
/// `follow_of`, listed by the pages with its id) and updates both counters.
pub async fn upsert_follow_inserts_a_new_follow_with_counters(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let f = follow_with_options(ids.next_at(T0 + 1_000), alice.id, bob.id);
    assert!(
        store.upsert_follow(&f).await.expect("upsert_follow"),
        "upsert_follow of a new follow must return true"
    );
    assert_eq!(
        follow_of(store, alice.id, bob.id).await,
        Some(f.clone()),
        "follow_of must return the follow exactly as upserted, options included"
    );
    assert!(
        store.follows(alice.id, bob.id).await.expect("follows"),
        "follows must be true after upsert_follow"
    );
    assert_eq!(
        followers(store, bob.id).await,
        vec![(f.id, alice.id)],
        "followers_page must list an upserted follow with its id"
    );
    assert_eq!(
        (counts(store, &alice).await, counts(store, &bob).await),
        ((0, 1), (1, 0)),
        "a new follow by upsert_follow must update following_count and followers_count"
    );
}

/// `upsert_follow` of an existing follow returns false, keeps the first id, takes the new
/// options (including unsetting `languages`), and leaves the counters alone.
pub async fn upsert_follow_updates_options_keeping_id_and_counters(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let first = follow(store, &ids, T0 + 1_000, alice.id, bob.id).await;
    let changed = follow_with_options(ids.next_at(T0 + 2_000), alice.id, bob.id);
    assert!(
        !store.upsert_follow(&changed).await.expect("upsert_follow"),
        "upsert_follow of an existing follow must return false"
    );
    assert_eq!(
        follow_of(store, alice.id, bob.id).await,
        Some(FollowRecord {
            id: first,
            ..changed.clone()
        }),
        "upsert_follow of an existing follow must keep its id and take the new options"
    );
    let back = FollowRecord {
        show_reblogs: true,
        notify: false,
        languages: None,
        ..FollowRecord::new(ids.next_at(T0 + 3_000), alice.id, bob.id)
    };
    assert!(
        !store.upsert_follow(&back).await.expect("upsert_follow"),
        "upsert_follow of an existing follow must return false"
    );
    assert_eq!(
        follow_of(store, alice.id, bob.id).await,
        Some(FollowRecord { id: first, ..back }),
        "upsert_follow must be able to unset languages and reset the flags"
    );
    assert_eq!(
        (counts(store, &alice).await, counts(store, &bob).await),
        ((0, 1), (1, 0)),
        "upsert_follow of an existing follow must not change the counters"
    );
    assert_eq!(
        followers(store, bob.id).await,
        vec![(first, alice.id)],
        "an updated follow is listed once, with its first id"
    );
}

/// `follow_request_of` is `None` without a pending request (and for the reverse pair, and for a
/// follow), and returns the request `insert_follow_request` made with its id and default options.
pub async fn follow_request_of_returns_the_request_with_default_options(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    assert_eq!(
        request_of(store, alice.id, bob.id).await,
        None,
        "follow_request_of must be None before any request"
    );
    let id = request(store, &ids, T0 + 1_000, alice.id, bob.id).await;
    follow(store, &ids, T0 + 2_000, carol.id, bob.id).await;
    assert_eq!(
        request_of(store, alice.id, bob.id).await,
        Some(FollowRecord::new(id, alice.id, bob.id)),
        "follow_request_of must return the request insert_follow_request made, with its id and \
         the default options"
    );
    assert_eq!(
        request_of(store, bob.id, alice.id).await,
        None,
        "follow_request_of is directional: the reverse pair must be None"
    );
    assert_eq!(
        request_of(store, carol.id, bob.id).await,
        None,
        "follow_request_of must be None for a follow"
    );
    assert!(
        store
            .delete_follow_request(alice.id, bob.id)
            .await
            .expect("delete_follow_request"),
        "delete_follow_request of a pending request must return true"
    );
    assert_eq!(
        request_of(store, alice.id, bob.id).await,
        None,
        "follow_request_of must be None after delete_follow_request"
    );
}

/// `upsert_follow_request` inserts a new request (true) with its options, then updates it (false)
/// keeping the first id; it never touches follows or counters.
pub async fn upsert_follow_request_inserts_then_updates_keeping_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let first = FollowRecord::new(ids.next_at(T0 + 1_000), alice.id, bob.id);
    assert!(
        store
            .upsert_follow_request(&first)
            .await
            .expect("upsert_follow_request"),
        "upsert_follow_request of a new request must return true"
    );
    assert_eq!(
        request_of(store, alice.id, bob.id).await,
        Some(first.clone()),
        "follow_request_of must return the request as upserted"
    );
    let changed = follow_with_options(ids.next_at(T0 + 2_000), alice.id, bob.id);
    assert!(
        !store
            .upsert_follow_request(&changed)
            .await
            .expect("upsert_follow_request"),
        "upsert_follow_request of a pending request must return false"
    );
    assert_eq!(
        request_of(store, alice.id, bob.id).await,
        Some(FollowRecord {
            id: first.id,
            ..changed
        }),
        "upsert_follow_request of a pending request must keep its id and take the new options"
    );
    assert_eq!(
        requests(store, bob.id).await,
        vec![(first.id, alice.id)],
        "an updated request is listed once, with its first id"
    );
    assert!(
        requested(store, alice.id, bob.id).await,
        "follow_requested must be true after upsert_follow_request"
    );
    assert!(
        !store.follows(alice.id, bob.id).await.expect("follows"),
        "a follow request is not a follow"
    );
    assert_eq!(
        (counts(store, &alice).await, counts(store, &bob).await),
        ((0, 0), (0, 0)),
        "follow requests must not change the follow counters"
    );
}

async fn familiar(store: &dyn Store, account: Id, target: Id, limit: u64) -> Vec<Id> {
    store
        .familiar_followers(account, target, limit)
        .await
        .expect("familiar_followers")
}

/// `familiar_followers(account, target)` lists the followers of `target` whom `account` follows,
/// newest follow of `target` first, up to `limit`: not followers `account` does not follow, not
/// accounts `account` follows that do not follow `target` (or only asked to), not `account`'s own
/// followers, not pending requests of `account`.
pub async fn familiar_followers_lists_followed_followers_newest_first(store: &dyn Store) {
    let ids = IdGenerator::default();
    let me = add_local(store, &ids, "me").await.id;
    let target = add_local(store, &ids, "target").await.id;
    let x = add_local(store, &ids, "x").await.id;
    let y = add_remote(store, &ids, "y", "remote.example").await.id;
    let z = add_local(store, &ids, "z").await.id;
    let stranger = add_local(store, &ids, "stranger").await.id;
    let friend = add_local(store, &ids, "friend").await.id;
    let fan = add_local(store, &ids, "fan").await.id;
    let asked = add_local(store, &ids, "asked").await.id;
    // `me` follows x, y, z, friend; asked to follow `asked`; `fan` follows `me`.
    for (i, &followed) in [z, x, friend, y].iter().enumerate() {
        follow(store, &ids, T0 + 1_000 + i as i64, me, followed).await;
    }
    request(store, &ids, T0 + 1_500, me, asked).await;
    follow(store, &ids, T0 + 1_600, fan, me).await;
    // Followers of `target`, in this order: x, stranger, z, y, fan, asked (`friend` only asks).
    follow(store, &ids, T0 + 2_000, x, target).await;
    follow(store, &ids, T0 + 3_000, stranger, target).await;
    follow(store, &ids, T0 + 4_000, z, target).await;
    follow(store, &ids, T0 + 5_000, y, target).await;
    follow(store, &ids, T0 + 6_000, fan, target).await;
    follow(store, &ids, T0 + 7_000, asked, target).await;
    request(store, &ids, T0 + 8_000, friend, target).await;
    // `target` follows `friend`: the wrong direction.
    follow(store, &ids, T0 + 9_000, target, friend).await;
    assert_eq!(
        familiar(store, me, target, 40).await,
        vec![y, z, x],
        "familiar_followers must list the target's followers whom the account follows, newest \
         follow of the target first"
    );
    assert_eq!(
        familiar(store, me, target, 2).await,
        vec![y, z],
        "familiar_followers must return at most `limit`, the newest follows of the target"
    );
    assert_eq!(
        familiar(store, me, friend, 40).await,
        vec![],
        "familiar_followers of an account none of whose followers the account follows is empty"
    );
    assert_eq!(
        familiar(store, stranger, target, 40).await,
        vec![],
        "familiar_followers of an account that follows nobody is empty"
    );
}

async fn fof(store: &dyn Store, account: Id, limit: u64) -> Vec<(Id, i64)> {
    store
        .friends_of_friends(account, limit)
        .await
        .expect("friends_of_friends")
}

/// `friends_of_friends` ranks the accounts followed by the accounts `account` follows by how
/// many of those follow each (most first), then newest id first, up to `limit`; it counts follows
/// of the accounts `account` follows, not their followers or pending requests.
pub async fn friends_of_friends_ranks_by_count_then_newest_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let me = add_local(store, &ids, "me").await.id;
    let b = add_local(store, &ids, "b").await.id;
    let c = add_local(store, &ids, "c").await.id;
    let d = add_remote(store, &ids, "d", "remote.example").await.id;
    let z = add_local(store, &ids, "z").await.id;
    let x = add_local(store, &ids, "x").await.id;
    let w = add_remote(store, &ids, "w", "other.example").await.id;
    let y = add_local(store, &ids, "y").await.id;
    let fan = add_local(store, &ids, "fan").await.id;
    let wanted = add_local(store, &ids, "wanted").await.id;
    let mut t = T0 + 1_000;
    let mut f = |follower: Id, target: Id| {
        t += 1_000;
        (t, follower, target)
    };
    let edges = [
        f(me, b),
        f(me, c),
        f(me, d),
        // x: followed by b, c, d (3); y: by b, c (2); z and w: by one each (z older id).
        f(b, x),
        f(c, x),
        f(d, x),
        f(c, y),
        f(b, y),
        f(b, w),
        f(d, z),
        // `fan` follows b: a follower of a followed account, not one it follows.
        f(fan, b),
        // someone not followed by `me` follows many.
        f(fan, z),
        f(fan, w),
    ];
    for (millis, follower, target) in edges {
        follow(store, &ids, millis, follower, target).await;
    }
    request(store, &ids, T0 + 50_000, b, wanted).await;
    request(store, &ids, T0 + 51_000, c, wanted).await;
    assert_eq!(
        fof(store, me, 40).await,
        vec![(x, 3), (y, 2), (w, 1), (z, 1)],
        "friends_of_friends must rank by how many of the account's follows follow each, then \
         newest id first (pending requests and followers of follows do not count)"
    );
    assert_eq!(
        fof(store, me, 2).await,
        vec![(x, 3), (y, 2)],
        "friends_of_friends must return at most `limit`, the best ranked"
    );
    assert_eq!(
        fof(store, x, 40).await,
        vec![],
        "friends_of_friends of an account that follows nobody is empty"
    );
}

/// `friends_of_friends` leaves out `account` itself and the accounts it already follows, however
/// many of its follows follow them.
pub async fn friends_of_friends_excludes_self_and_already_followed(store: &dyn Store) {
    let ids = IdGenerator::default();
    let me = add_local(store, &ids, "me").await.id;
    let b = add_local(store, &ids, "b").await.id;
    let c = add_local(store, &ids, "c").await.id;
    let x = add_local(store, &ids, "x").await.id;
    let y = add_local(store, &ids, "y").await.id;
    let mut t = T0;
    for (follower, target) in [
        (me, b),
        (me, c),
        (me, y),
        (b, me),
        (c, me),
        (b, c),
        (c, b),
        (b, y),
        (c, y),
        (b, x),
    ] {
        t += 1_000;
        follow(store, &ids, t, follower, target).await;
    }
    assert_eq!(
        fof(store, me, 40).await,
        vec![(x, 1)],
        "friends_of_friends must leave out the account itself and the accounts it follows"
    );
}

/// `reblog_audience(booster, author, now)`: the local followers of `booster` whose follow shows
/// reblogs, without those blocking or blocked by `author` and those muting `author` at `now`
/// (an expired mute no longer counts); remote followers and mere requests are not in it.
pub async fn reblog_audience_filters_options_blocks_and_mutes(store: &dyn Store) {
    let ids = IdGenerator::default();
    let booster = add_local(store, &ids, "booster").await.id;
    let author = add_local(store, &ids, "author").await.id;
    let plain = add_local(store, &ids, "plain").await.id;
    let no_reblogs = add_local(store, &ids, "noreblogs").await.id;
    let blocker = add_local(store, &ids, "blocker").await.id;
    let blocked = add_local(store, &ids, "blocked").await.id;
    let muter = add_local(store, &ids, "muter").await.id;
    let was_muter = add_local(store, &ids, "wasmuter").await.id;
    let remote = add_remote(store, &ids, "far", "remote.example").await.id;
    let asker = add_local(store, &ids, "asker").await.id;
    for (i, &f) in [plain, blocker, blocked, muter, was_muter, remote]
        .iter()
        .enumerate()
    {
        follow(store, &ids, T0 + 1_000 + i as i64, f, booster).await;
    }
    let mut off = FollowRecord::new(ids.next_at(T0 + 2_000), no_reblogs, booster);
    off.show_reblogs = false;
    store.upsert_follow(&off).await.expect("upsert_follow");
    request(store, &ids, T0 + 2_100, asker, booster).await;
    store
        .insert_block(ids.next_at(T0 + 3_000), blocker, author)
        .await
        .expect("insert_block");
    store
        .insert_block(ids.next_at(T0 + 3_100), author, blocked)
        .await
        .expect("insert_block");
    let now = super::at(T0 + 10_000);
    for (m, expires) in [
        (muter, None),
        (was_muter, Some(now - chrono::TimeDelta::seconds(1))),
    ] {
        store
            .upsert_mute(&fedblog_core::store::MuteRecord {
                id: ids.next_at(T0 + 4_000),
                account_id: m,
                target_id: author,
                notifications: true,
                expires_at: expires,
            })
            .await
            .expect("upsert_mute");
    }
    let got = store
        .reblog_audience(booster, author, now)
        .await
        .expect("reblog_audience");
    assert_eq!(
        sorted(got),
        sorted(vec![plain, was_muter]),
        "reblog_audience must hold the local followers showing reblogs, without those blocked \
         either way by the author or muting it now"
    );
}
