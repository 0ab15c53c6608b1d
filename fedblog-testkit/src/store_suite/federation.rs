//! Checks of [`FederationStore`](fedblog_core::store::FederationStore): local actors' key pairs
//! kept first come first served, remote actors saved with their accounts and found by account,
//! ActivityPub id and key id, the inboxes of an account's remote followers, remote statuses by
//! ActivityPub id, applied activities, the ActivityPub ids of follows, failing hosts, and what
//! `delete_account` takes with an account.

use fedblog_core::store::{AccountRecord, ActorKeyRecord, INSTANCE_ACTOR, RemoteActorRecord};
use fedblog_core::{Id, IdGenerator, Store};

use super::{
    T0, add_local, add_remote, add_status, assert_already_exists, at, get_account, get_status,
    remote_account, status,
};

/// A key pair of `owner` made at `millis`, its PEM texts naming `tag` (not real keys: the store
/// keeps text).
fn key(owner: Id, tag: &str, millis: i64) -> ActorKeyRecord {
    ActorKeyRecord {
        owner,
        private_key_pem: format!("-----BEGIN PRIVATE KEY-----\n{tag}\n-----END PRIVATE KEY-----\n"),
        public_key_pem: format!("-----BEGIN PUBLIC KEY-----\n{tag}\n-----END PUBLIC KEY-----\n"),
        created_at: at(millis),
    }
}

/// The actor behind `account` (a remote account from [`remote_account`]): its ActivityPub id is
/// the account's `uri`, with a personal inbox, its server's shared inbox, every collection and
/// a key, fetched at `millis`.
fn actor(account: &AccountRecord, millis: i64) -> RemoteActorRecord {
    let uri = account
        .uri
        .clone()
        .expect("fixture: a remote account has a uri");
    let domain = account.domain.clone().expect("fixture: a remote account");
    RemoteActorRecord {
        account_id: account.id,
        uri: uri.clone(),
        actor_type: "Person".into(),
        inbox: format!("{uri}/inbox"),
        shared_inbox: Some(format!("https://{domain}/inbox")),
        outbox: Some(format!("{uri}/outbox")),
        followers: Some(format!("{uri}/followers")),
        following: Some(format!("{uri}/following")),
        featured: Some(format!("{uri}/collections/featured")),
        featured_tags: Some(format!("{uri}/collections/tags")),
        key_id: format!("{uri}#main-key"),
        public_key_pem: format!(
            "-----BEGIN PUBLIC KEY-----\n{}\n-----END PUBLIC KEY-----\n",
            account.username
        ),
        fetched_at: at(millis),
    }
}

/// Saves `account` with `actor`, which must succeed, and returns the account as stored.
async fn save(
    store: &dyn Store,
    account: &AccountRecord,
    actor: &RemoteActorRecord,
) -> AccountRecord {
    store
        .save_remote_actor(account, actor)
        .await
        .unwrap_or_else(|e| panic!("save_remote_actor({:?}) failed: {e:?}", actor.uri))
}

/// Saves a new remote account `username@domain` with its [`actor`]; returns both as stored.
async fn add_actor(
    store: &dyn Store,
    ids: &IdGenerator,
    username: &str,
    domain: &str,
) -> (AccountRecord, RemoteActorRecord) {
    let account = remote_account(ids, username, domain);
    let a = actor(&account, T0);
    let saved = save(store, &account, &a).await;
    assert_eq!(
        saved, account,
        "save_remote_actor of a new actor returns the account as given"
    );
    (account, a)
}

/// The actor stored for `account`.
async fn actor_of(store: &dyn Store, account: Id) -> Option<RemoteActorRecord> {
    store
        .remote_actor(account)
        .await
        .unwrap_or_else(|e| panic!("remote_actor({account}) failed: {e:?}"))
}

/// The instance actor's key and each account's are kept first come first served: inserting a
/// second key for an owner keeps the first and answers it.
pub async fn insert_actor_key_keeps_the_first_key(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    assert_eq!(
        store.actor_key(INSTANCE_ACTOR).await.expect("actor_key"),
        None,
        "no key before one is inserted"
    );
    let first = key(INSTANCE_ACTOR, "instance-1", T0);
    assert_eq!(
        store.insert_actor_key(&first).await.expect("insert"),
        first,
        "inserting the first key answers it"
    );
    let second = key(INSTANCE_ACTOR, "instance-2", T0 + 1_000);
    assert_eq!(
        store.insert_actor_key(&second).await.expect("insert"),
        first,
        "inserting a second key for one owner answers the first"
    );
    assert_eq!(
        store.actor_key(INSTANCE_ACTOR).await.expect("actor_key"),
        Some(first.clone()),
        "the first key is kept"
    );
    assert_eq!(
        store.actor_key(alice.id).await.expect("actor_key"),
        None,
        "keys are per owner"
    );
    let alices = key(alice.id, "alice", T0 + 2_000);
    assert_eq!(
        store.insert_actor_key(&alices).await.expect("insert"),
        alices
    );
    assert_eq!(
        store.actor_key(alice.id).await.expect("actor_key"),
        Some(alices)
    );
    assert_eq!(
        store.actor_key(INSTANCE_ACTOR).await.expect("actor_key"),
        Some(first),
        "another owner's key changes nothing of the instance actor's"
    );
}

/// Two keys made at once for one owner: both inserts answer the same key, the one stored.
pub async fn racing_inserts_of_one_actor_key_agree_on_one(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let a = key(alice.id, "a", T0);
    let b = key(alice.id, "b", T0);
    let (ra, rb) = tokio::join!(store.insert_actor_key(&a), store.insert_actor_key(&b));
    let (ra, rb) = (ra.expect("insert a"), rb.expect("insert b"));
    assert_eq!(
        ra, rb,
        "two racing inserts of one owner's key answer one key"
    );
    assert!(
        ra == a || ra == b,
        "the key answered is one of those inserted"
    );
    assert_eq!(
        store.actor_key(alice.id).await.expect("actor_key"),
        Some(ra),
        "the key answered is the one stored"
    );
}

/// A new actor's account is inserted as given and its actor stored under that account (whatever
/// `account_id` the actor record carried); it is found by account, ActivityPub id and key id,
/// and unknown ones are not.
pub async fn save_remote_actor_inserts_the_account_and_its_actor(store: &dyn Store) {
    let ids = IdGenerator::default();
    let bob = remote_account(&ids, "Bob", "remote.example");
    let given = RemoteActorRecord {
        account_id: ids.next_at(T0),
        shared_inbox: None,
        outbox: None,
        followers: None,
        following: None,
        featured: None,
        featured_tags: None,
        ..actor(&bob, T0 + 500)
    };
    assert_eq!(save(store, &bob, &given).await, bob);
    assert_eq!(
        get_account(store, bob.id).await,
        bob,
        "the account as given"
    );
    assert_eq!(
        store
            .account_by_username("bob", Some("REMOTE.example"))
            .await
            .expect("account_by_username"),
        Some(bob.clone()),
        "the account is found by username@domain"
    );
    let stored = RemoteActorRecord {
        account_id: bob.id,
        ..given.clone()
    };
    assert_eq!(
        actor_of(store, bob.id).await,
        Some(stored.clone()),
        "the actor round-trips under the account's id, optional fields unset"
    );
    assert_eq!(
        store
            .remote_actor_by_uri(&given.uri)
            .await
            .expect("remote_actor_by_uri"),
        Some(stored.clone())
    );
    assert_eq!(
        store
            .remote_actor_by_key_id(&given.key_id)
            .await
            .expect("remote_actor_by_key_id"),
        Some(stored.clone())
    );
    let (carol, carols) = add_actor(store, &ids, "carol", "other.example").await;
    assert_eq!(
        actor_of(store, carol.id).await,
        Some(carols.clone()),
        "every optional field round-trips"
    );
    assert_eq!(
        store
            .remote_actor_by_uri("https://remote.example/users/nobody")
            .await
            .expect("remote_actor_by_uri"),
        None,
        "unknown ActivityPub id"
    );
    assert_eq!(
        store
            .remote_actor_by_key_id("https://remote.example/users/nobody#main-key")
            .await
            .expect("remote_actor_by_key_id"),
        None,
        "unknown key id"
    );
    let alice = add_local(store, &ids, "alice").await;
    assert_eq!(
        actor_of(store, alice.id).await,
        None,
        "a local account has no remote actor"
    );
    assert_eq!(
        actor_of(store, ids.next_at(T0)).await,
        None,
        "unknown account"
    );
}

/// Saving a known actor (same ActivityPub id) again keeps its account's id, counters,
/// `last_status_at` and `created_at`, takes every other field given (the username too), and
/// replaces the actor record.
pub async fn save_remote_actor_refresh_keeps_id_counters_and_created_at(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (bob, bobs) = add_actor(store, &ids, "bob", "remote.example").await;
    let alice = add_local(store, &ids, "alice").await;
    store
        .insert_follow(ids.next_at(T0 + 100), alice.id, bob.id)
        .await
        .expect("insert_follow");
    add_status(store, status(&ids, &bob, T0 + 200)).await;
    let before = get_account(store, bob.id).await;
    assert_eq!(
        (
            before.followers_count,
            before.statuses_count,
            before.last_status_at.is_some()
        ),
        (1, 1, true),
        "fixture: counters moved"
    );

    let mut fresh = remote_account(&ids, "Robert", "Remote.Example");
    fresh.created_at = at(T0 + 5_000);
    fresh.updated_at = at(T0 + 5_000);
    fresh.display_name = "Robert Remote".into();
    fresh.note = "<p>renamed</p>".into();
    fresh.locked = true;
    fresh.bot = true;
    fresh.uri = bob.uri.clone();
    fresh.avatar = Some("https://remote.example/avatar.png".into());
    let refreshed = RemoteActorRecord {
        account_id: fresh.id,
        actor_type: "Service".into(),
        inbox: "https://remote.example/new/inbox".into(),
        shared_inbox: None,
        outbox: None,
        key_id: format!("{}#key-2", bobs.uri),
        public_key_pem: "-----BEGIN PUBLIC KEY-----\nnew\n-----END PUBLIC KEY-----\n".into(),
        fetched_at: at(T0 + 5_000),
        ..bobs.clone()
    };
    let saved = save(store, &fresh, &refreshed).await;
    let expected = AccountRecord {
        id: bob.id,
        created_at: bob.created_at,
        statuses_count: 1,
        followers_count: 1,
        following_count: 0,
        last_status_at: before.last_status_at,
        ..fresh.clone()
    };
    assert_eq!(
        saved, expected,
        "a refresh keeps id, counters, last_status_at and created_at, and takes the rest"
    );
    assert_eq!(
        get_account(store, bob.id).await,
        expected,
        "the refreshed account as stored"
    );
    assert_eq!(
        store.account_by_id(fresh.id).await.expect("account_by_id"),
        None,
        "a refresh inserts no account under the id given"
    );
    assert_eq!(
        store
            .account_by_username("robert", Some("remote.example"))
            .await
            .expect("account_by_username")
            .map(|a| a.id),
        Some(bob.id),
        "the account is found under its new name"
    );
    assert_eq!(
        store
            .account_by_username("bob", Some("remote.example"))
            .await
            .expect("account_by_username"),
        None,
        "and no longer under its old one"
    );
    let stored = RemoteActorRecord {
        account_id: bob.id,
        ..refreshed.clone()
    };
    assert_eq!(
        actor_of(store, bob.id).await,
        Some(stored.clone()),
        "the actor record is replaced"
    );
    assert_eq!(
        store
            .remote_actor_by_uri(&bobs.uri)
            .await
            .expect("remote_actor_by_uri"),
        Some(stored.clone())
    );
    assert_eq!(
        store
            .remote_actor_by_key_id(&refreshed.key_id)
            .await
            .expect("remote_actor_by_key_id"),
        Some(stored)
    );
    assert_eq!(
        store
            .remote_actor_by_key_id(&bobs.key_id)
            .await
            .expect("remote_actor_by_key_id"),
        None,
        "the old key id is forgotten"
    );
}

/// A new actor whose `username@domain` (compared case-insensitively) another account holds is
/// refused with `AlreadyExists("username")`, storing nothing; so is renaming a known actor to
/// it. The same username on another domain, or locally, is no conflict.
pub async fn save_remote_actor_refuses_a_username_another_actor_holds(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, alices) = add_actor(store, &ids, "alice", "remote.example").await;
    let mut other = remote_account(&ids, "ALICE", "Remote.Example");
    other.uri = Some("https://remote.example/users/alice-2".into());
    let others = actor(&other, T0);
    assert_already_exists(
        store.save_remote_actor(&other, &others).await,
        "username",
        "save_remote_actor of a new actor whose username@domain another actor holds",
    );
    assert_eq!(
        store.account_by_id(other.id).await.expect("account_by_id"),
        None,
        "a refused actor's account is not stored"
    );
    assert_eq!(
        store
            .remote_actor_by_uri(&others.uri)
            .await
            .expect("remote_actor_by_uri"),
        None,
        "a refused actor is not stored"
    );

    let (bob, bobs) = add_actor(store, &ids, "bob", "remote.example").await;
    let renamed = AccountRecord {
        username: "Alice".into(),
        display_name: "not Alice".into(),
        ..bob.clone()
    };
    assert_already_exists(
        store
            .save_remote_actor(
                &renamed,
                &RemoteActorRecord {
                    inbox: "https://remote.example/elsewhere".into(),
                    ..bobs.clone()
                },
            )
            .await,
        "username",
        "save_remote_actor renaming a known actor to a username another holds",
    );
    assert_eq!(
        get_account(store, bob.id).await,
        bob,
        "a refused refresh changes nothing"
    );
    assert_eq!(actor_of(store, bob.id).await, Some(bobs));
    assert_eq!(actor_of(store, alice.id).await, Some(alices.clone()));

    add_local(store, &ids, "carol").await;
    add_actor(store, &ids, "carol", "remote.example").await;
    add_actor(store, &ids, "carol", "other.example").await;

    // A key id names one actor: a new actor claiming alice's key is refused.
    let thief = remote_account(&ids, "mallory", "remote.example");
    let thiefs = RemoteActorRecord {
        key_id: alices.key_id.clone(),
        ..actor(&thief, T0)
    };
    assert_already_exists(
        store.save_remote_actor(&thief, &thiefs).await,
        "key_id",
        "save_remote_actor of a new actor claiming another actor's key id",
    );
    assert_eq!(
        store.account_by_id(thief.id).await.expect("account_by_id"),
        None,
        "the refused actor's account is not stored"
    );
}

/// `remote_actors` answers the actors of the accounts named that have one, once each, in any
/// order.
pub async fn remote_actors_answers_the_known_ones_once(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (bob, bobs) = add_actor(store, &ids, "bob", "one.example").await;
    let (carol, carols) = add_actor(store, &ids, "carol", "two.example").await;
    add_actor(store, &ids, "dave", "two.example").await;
    let alice = add_local(store, &ids, "alice").await;
    let plain = add_remote(store, &ids, "erin", "three.example").await;
    let mut got = store
        .remote_actors(&[
            carol.id,
            bob.id,
            alice.id,
            carol.id,
            plain.id,
            ids.next_at(T0),
        ])
        .await
        .expect("remote_actors");
    got.sort_by_key(|a| a.account_id);
    let mut expected = vec![bobs, carols];
    expected.sort_by_key(|a| a.account_id);
    assert_eq!(got, expected);
    assert_eq!(
        store.remote_actors(&[]).await.expect("remote_actors"),
        vec![],
        "none asked, none answered"
    );
}

/// An account's follower inboxes: each remote follower's shared inbox when it has one (once
/// per server), else its own inbox; local followers, remote accounts without a known actor,
/// and the followers of other accounts are left out.
pub async fn follower_inboxes_dedupe_shared_and_fall_back_to_own(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let frank = add_local(store, &ids, "frank").await;
    let (bob, _) = add_actor(store, &ids, "bob", "one.example").await;
    let (carol, _) = add_actor(store, &ids, "carol", "one.example").await;
    let dave = remote_account(&ids, "dave", "two.example");
    let daves = RemoteActorRecord {
        shared_inbox: None,
        ..actor(&dave, T0)
    };
    save(store, &dave, &daves).await;
    let (erin, _) = add_actor(store, &ids, "erin", "three.example").await;
    let plain = add_remote(store, &ids, "gus", "four.example").await;
    assert_eq!(
        store.follower_inboxes(alice.id).await.expect("inboxes"),
        Vec::<String>::new(),
        "no followers, no inboxes"
    );
    for follower in [bob.id, carol.id, dave.id, frank.id, plain.id] {
        store
            .insert_follow(ids.next_at(T0 + 100), follower, alice.id)
            .await
            .expect("insert_follow");
    }
    store
        .insert_follow(ids.next_at(T0 + 200), erin.id, frank.id)
        .await
        .expect("insert_follow");
    let mut got = store.follower_inboxes(alice.id).await.expect("inboxes");
    got.sort();
    assert_eq!(
        got,
        vec!["https://one.example/inbox".to_string(), daves.inbox.clone()],
        "one shared inbox per server, else the follower's own"
    );
    assert_eq!(
        store.follower_inboxes(frank.id).await.expect("inboxes"),
        vec!["https://three.example/inbox".to_string()],
        "another account's followers"
    );
    assert_eq!(
        store.follower_inboxes(bob.id).await.expect("inboxes"),
        Vec::<String>::new(),
        "an account following others has no followers by that"
    );
}

/// `status_by_uri` finds a status by its ActivityPub id, complete; an unknown id finds none.
pub async fn status_by_uri_finds_the_status_with_that_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let alice = add_local(store, &ids, "alice").await;
    let mut s = status(&ids, &bob, T0 + 1_000);
    s.tags = vec!["fediverse".into()];
    s.mentions = vec![alice.id];
    let s = add_status(store, s).await;
    let other = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    add_status(store, status(&ids, &alice, T0 + 3_000)).await;
    let uri = s.uri.clone().expect("fixture: a remote status has a uri");
    assert_eq!(
        store.status_by_uri(&uri).await.expect("status_by_uri"),
        Some(get_status(store, s.id).await),
        "the status with that ActivityPub id, with its mentions and tags"
    );
    let other_uri = other
        .uri
        .clone()
        .expect("fixture: a remote status has a uri");
    assert_eq!(
        store
            .status_by_uri(&other_uri)
            .await
            .expect("status_by_uri")
            .map(|s| s.id),
        Some(other.id)
    );
    assert_eq!(
        store
            .status_by_uri("https://remote.example/statuses/unknown")
            .await
            .expect("status_by_uri"),
        None,
        "unknown ActivityPub id"
    );
}

/// An activity is noted once: `true` the first time, `false` after; pruning forgets those
/// noted before the cutoff (not at it), which may then be noted again.
pub async fn note_activity_is_new_once_and_prune_forgets_older_ones(store: &dyn Store) {
    let a1 = "https://remote.example/activities/1";
    let a2 = "https://remote.example/activities/2";
    let a3 = "https://other.example/activities/1";
    let note = |id: &'static str, millis: i64| async move {
        store
            .note_activity(id, at(millis))
            .await
            .unwrap_or_else(|e| panic!("note_activity({id:?}) failed: {e:?}"))
    };
    assert!(note(a1, T0 + 1_000).await, "a new activity");
    assert!(!note(a1, T0 + 1_500).await, "an activity noted already");
    assert!(note(a2, T0 + 2_000).await, "another activity");
    assert!(note(a3, T0 + 3_000).await, "another activity");
    assert_eq!(
        store.prune_activities(at(T0 + 1_000)).await.expect("prune"),
        0,
        "nothing noted before the first"
    );
    assert_eq!(
        store.prune_activities(at(T0 + 2_000)).await.expect("prune"),
        1,
        "only the one noted before the cutoff (its first noting counts)"
    );
    assert!(
        !note(a2, T0 + 4_000).await,
        "one noted at the cutoff is kept"
    );
    assert!(note(a1, T0 + 4_000).await, "a pruned activity is new again");
    assert_eq!(
        store.prune_activities(at(T0 + 3_500)).await.expect("prune"),
        2,
        "noting again does not move an activity's time"
    );
    assert!(!note(a1, T0 + 5_000).await, "kept");
}

/// The ActivityPub id of a follow is per (follower, target) pair, directional, and replaced by
/// setting it again.
pub async fn follow_uri_is_set_and_replaced_per_pair(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let (bob, _) = add_actor(store, &ids, "bob", "remote.example").await;
    let carol = add_local(store, &ids, "carol").await;
    assert_eq!(
        store
            .follow_uri(alice.id, bob.id)
            .await
            .expect("follow_uri"),
        None
    );
    let first = "https://local.example/follows/1";
    let second = "https://local.example/follows/2";
    let theirs = "https://remote.example/follows/9";
    store
        .set_follow_uri(alice.id, bob.id, first)
        .await
        .expect("set_follow_uri");
    store
        .set_follow_uri(bob.id, carol.id, theirs)
        .await
        .expect("set_follow_uri");
    assert_eq!(
        store
            .follow_uri(alice.id, bob.id)
            .await
            .expect("follow_uri"),
        Some(first.to_string())
    );
    assert_eq!(
        store
            .follow_uri(bob.id, alice.id)
            .await
            .expect("follow_uri"),
        None,
        "directional"
    );
    store
        .set_follow_uri(alice.id, bob.id, second)
        .await
        .expect("set_follow_uri");
    assert_eq!(
        store
            .follow_uri(alice.id, bob.id)
            .await
            .expect("follow_uri"),
        Some(second.to_string()),
        "setting again replaces it"
    );
    assert_eq!(
        store
            .follow_uri(bob.id, carol.id)
            .await
            .expect("follow_uri"),
        Some(theirs.to_string()),
        "other pairs keep theirs"
    );
}

/// A host fails since its first failure after its last success, whatever the case of its name:
/// later failures keep that time; a success clears it and says it had been failing, once.
pub async fn host_failure_keeps_the_first_time_until_a_success(store: &dyn Store) {
    let since = |host: &'static str| async move {
        store
            .host_failing_since(host)
            .await
            .unwrap_or_else(|e| panic!("host_failing_since({host:?}) failed: {e:?}"))
    };
    assert_eq!(since("remote.example").await, None, "never failed");
    assert_eq!(
        store
            .note_host_failure("Remote.Example", at(T0 + 1_000))
            .await
            .expect("note_host_failure"),
        at(T0 + 1_000),
        "the first failure starts the period"
    );
    assert_eq!(
        store
            .note_host_failure("remote.example", at(T0 + 2_000))
            .await
            .expect("note_host_failure"),
        at(T0 + 1_000),
        "a later failure keeps the first time (host names compared case-insensitively)"
    );
    store
        .note_host_failure("other.example", at(T0 + 3_000))
        .await
        .expect("note_host_failure");
    assert_eq!(since("REMOTE.example").await, Some(at(T0 + 1_000)));
    assert!(
        store
            .note_host_success("remote.EXAMPLE")
            .await
            .expect("note_host_success"),
        "a success of a failing host says it had been failing"
    );
    assert!(
        !store
            .note_host_success("remote.example")
            .await
            .expect("note_host_success"),
        "a second success: it was not failing"
    );
    assert!(
        !store
            .note_host_success("never.example")
            .await
            .expect("note_host_success"),
        "a host that never failed"
    );
    assert_eq!(
        since("remote.example").await,
        None,
        "cleared by the success"
    );
    assert_eq!(
        since("other.example").await,
        Some(at(T0 + 3_000)),
        "other hosts keep theirs"
    );
    assert_eq!(
        store
            .note_host_failure("remote.example", at(T0 + 4_000))
            .await
            .expect("note_host_failure"),
        at(T0 + 4_000),
        "a failure after a success starts a new period"
    );
}

/// Deleting an account removes its remote actor (freeing its ActivityPub id and key id), its
/// key pair, and the ActivityPub ids of follows from and to it; other accounts keep theirs.
pub async fn delete_account_removes_its_actor_key_and_follow_uris(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let carol = add_local(store, &ids, "carol").await;
    let (bob, bobs) = add_actor(store, &ids, "bob", "remote.example").await;
    let (dave, daves) = add_actor(store, &ids, "dave", "remote.example").await;
    let alices = key(alice.id, "alice", T0);
    let carols = key(carol.id, "carol", T0);
    for k in [&alices, &carols] {
        store.insert_actor_key(k).await.expect("insert_actor_key");
    }
    for (follower, target, uri) in [
        (alice.id, bob.id, "https://local.example/follows/1"),
        (bob.id, alice.id, "https://remote.example/follows/1"),
        (carol.id, dave.id, "https://local.example/follows/2"),
        (dave.id, carol.id, "https://remote.example/follows/2"),
    ] {
        store
            .set_follow_uri(follower, target, uri)
            .await
            .expect("set_follow_uri");
    }

    store.delete_account(bob.id).await.expect("delete bob");
    assert_eq!(actor_of(store, bob.id).await, None, "its actor is gone");
    assert_eq!(
        store
            .remote_actor_by_uri(&bobs.uri)
            .await
            .expect("remote_actor_by_uri"),
        None
    );
    assert_eq!(
        store
            .remote_actor_by_key_id(&bobs.key_id)
            .await
            .expect("remote_actor_by_key_id"),
        None
    );
    assert_eq!(
        store
            .follow_uri(alice.id, bob.id)
            .await
            .expect("follow_uri"),
        None,
        "the id of a follow to it is gone"
    );
    assert_eq!(
        store
            .follow_uri(bob.id, alice.id)
            .await
            .expect("follow_uri"),
        None,
        "the id of a follow from it is gone"
    );
    store.delete_account(alice.id).await.expect("delete alice");
    assert_eq!(
        store.actor_key(alice.id).await.expect("actor_key"),
        None,
        "its key pair is gone"
    );

    assert_eq!(
        store.actor_key(carol.id).await.expect("actor_key"),
        Some(carols)
    );
    assert_eq!(actor_of(store, dave.id).await, Some(daves));
    assert_eq!(
        store
            .follow_uri(carol.id, dave.id)
            .await
            .expect("follow_uri"),
        Some("https://local.example/follows/2".to_string())
    );
    assert_eq!(
        store
            .follow_uri(dave.id, carol.id)
            .await
            .expect("follow_uri"),
        Some("https://remote.example/follows/2".to_string())
    );

    // Its ActivityPub id is free: the actor comes back as a new account.
    let again = AccountRecord {
        id: ids.next_at(T0 + 9_000),
        ..bob.clone()
    };
    assert_eq!(save(store, &again, &bobs).await, again);
    assert_eq!(
        actor_of(store, again.id).await.map(|a| a.uri),
        Some(bobs.uri)
    );
}
