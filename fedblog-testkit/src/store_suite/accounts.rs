//! Checks of [`AccountStore`](fedblog_core::store::AccountStore): accounts and the logins of
//! local accounts, their images, and the deletion of an account with everything that points at it.

use fedblog_core::pagination::Page;
use fedblog_core::store::{
    FeaturedTagRecord, MuteRecord, ProfileField, PublicTimelineFilter, Role, StatusRecord,
    TagUsage, Visibility,
};
use fedblog_core::{Id, IdGenerator, Store, StoreError};

use super::{
    T0, add_app, add_local, add_remote, add_status, add_tag, assert_already_exists,
    assert_not_found, at, authorization, get_account, local_account, reblog, remote_account, reply,
    scheduled_status, sorted, status, token,
};

/// A local account and its login come back exactly as inserted, with every optional field unset
/// (one account) and set (another), and the case of the username and e-mail address preserved.
pub async fn local_account_round_trips(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (plain, plain_user) = local_account(&ids, "plain");
    let (mut full, mut full_user) = local_account(&ids, "Full_Name");
    full.display_name = "Full Name 🦀".into();
    full.note = "line one\nline two & <three>".into();
    full.locked = true;
    full.bot = true;
    full.discoverable = Some(true);
    full.indexable = true;
    full.hide_collections = Some(false);
    full.fields = vec![
        ProfileField {
            name: "Web".into(),
            value: "https://example.test".into(),
        },
        ProfileField {
            name: "Pronouns".into(),
            value: "they/them".into(),
        },
        ProfileField {
            name: "Alpha".into(),
            value: String::new(),
        },
    ];
    full.default_privacy = Visibility::Private;
    full.default_sensitive = true;
    full.default_language = Some("de".into());
    full.uri = Some("https://local.example/users/Full_Name".into());
    full.url = Some("https://local.example/@Full_Name".into());
    full.created_at = at(T0 - 86_400_000);
    full.updated_at = at(T0 + 5_000);
    full.suspended_at = Some(at(T0 + 6_000));
    full.sensitized_at = Some(at(T0 + 7_000));
    full_user.email = "Full.Name@Example.Test".into();
    full_user.role = Role::Admin;
    full_user.confirmed_at = None;
    full_user.confirmation_token_hash = Some("c0ffee".into());
    full_user.approved = false;
    full_user.disabled = true;
    full_user.locale = "pt-BR".into();
    full_user.created_at = at(T0 - 86_400_000);

    for (account, user) in [(&plain, &plain_user), (&full, &full_user)] {
        store
            .insert_local_account(account, user)
            .await
            .expect("insert_local_account");
    }
    for (account, user) in [(&plain, &plain_user), (&full, &full_user)] {
        let got = store
            .account_by_id(account.id)
            .await
            .expect("account_by_id");
        assert_eq!(
            got.as_ref(),
            Some(account),
            "account_by_id must return the local account exactly as inserted"
        );
        let got = store
            .user_by_account_id(account.id)
            .await
            .expect("user_by_account_id");
        assert_eq!(
            got.as_ref(),
            Some(user),
            "user_by_account_id must return the login exactly as inserted"
        );
    }
}

/// A remote account comes back exactly as inserted (domain case preserved), and has no login.
pub async fn remote_account_round_trips(store: &dyn Store) {
    let ids = IdGenerator::default();
    let mut remote = remote_account(&ids, "Bob", "Remote.Example");
    remote.display_name = "Bob from afar".into();
    remote.bot = true;
    remote.discoverable = Some(false);
    remote.fields = vec![ProfileField {
        name: "Home".into(),
        value: "remote".into(),
    }];
    remote.avatar_remote_url = Some("https://remote.example/a.png".into());
    remote.avatar = remote.avatar_remote_url.clone();
    remote.header_remote_url = Some("https://remote.example/h.png".into());
    remote.also_known_as = vec![
        "https://old.example/users/bob".into(),
        "https://older.example/@bob".into(),
    ];
    store
        .insert_remote_account(&remote)
        .await
        .expect("insert_remote_account");

    let got = store.account_by_id(remote.id).await.expect("account_by_id");
    assert_eq!(
        got.as_ref(),
        Some(&remote),
        "account_by_id must return the remote account exactly as inserted"
    );
    let user = store
        .user_by_account_id(remote.id)
        .await
        .expect("user_by_account_id");
    assert_eq!(
        user, None,
        "a remote account has no login: user_by_account_id must be None"
    );

    // A move and a downloaded avatar are kept by update_account.
    let target = remote_account(&ids, "Bob", "new.example");
    store
        .insert_remote_account(&target)
        .await
        .expect("insert_remote_account");
    remote.moved_to_account_id = Some(target.id);
    remote.avatar = Some("accounts/avatars/1.png".into());
    remote.also_known_as.clear();
    store.update_account(&remote).await.expect("update_account");
    let got = store.account_by_id(remote.id).await.expect("account_by_id");
    assert_eq!(
        got.as_ref(),
        Some(&remote),
        "update_account must keep moved_to_account_id, also_known_as and the avatar's file key"
    );
}

/// Inserting an account with a taken id fails with `AlreadyExists`, local or remote, and leaves
/// the first account unchanged.
pub async fn duplicate_account_id_is_already_exists(store: &dyn Store) {
    let ids = IdGenerator::default();
    let first = add_local(store, &ids, "first").await;
    let (mut second, mut second_user) = local_account(&ids, "second");
    second.id = first.id;
    second_user.account_id = first.id;
    let r = store.insert_local_account(&second, &second_user).await;
    assert!(
        matches!(r, Err(StoreError::AlreadyExists(_))),
        "a local account with a taken id must fail with AlreadyExists, got {r:?}"
    );
    let mut third = remote_account(&ids, "third", "remote.example");
    third.id = first.id;
    let r = store.insert_remote_account(&third).await;
    assert!(
        matches!(r, Err(StoreError::AlreadyExists(_))),
        "a remote account with a taken id must fail with AlreadyExists, got {r:?}"
    );
    assert_eq!(
        get_account(store, first.id).await,
        first,
        "a failed insert must not change the existing account"
    );
    let user = store
        .user_by_email("second@example.test")
        .await
        .expect("user_by_email");
    assert_eq!(
        user, None,
        "a failed insert_local_account must not store the login"
    );
}

/// A local username is unique case-insensitively: `AlreadyExists("username")`, and nothing of the
/// rejected account (nor its login) is stored.
pub async fn local_username_is_unique_case_insensitively(store: &dyn Store) {
    let ids = IdGenerator::default();
    add_local(store, &ids, "alice").await;
    let (dup, mut dup_user) = local_account(&ids, "ALICE");
    dup_user.email = "other@example.test".into();
    assert_already_exists(
        store.insert_local_account(&dup, &dup_user).await,
        "username",
        "insert_local_account with a username differing only in case",
    );
    let got = store.account_by_id(dup.id).await.expect("account_by_id");
    assert_eq!(got, None, "a rejected local account must not be stored");
    let user = store
        .user_by_email("other@example.test")
        .await
        .expect("user_by_email");
    assert_eq!(
        user, None,
        "the login of a rejected local account must not be stored (atomic insert)"
    );
}

/// An e-mail address is unique case-insensitively: `AlreadyExists("email")`, and the account of
/// the rejected login is not stored either (atomic insert).
pub async fn email_is_unique_case_insensitively(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, mut alice_user) = local_account(&ids, "alice");
    alice_user.email = "Alice@Example.Test".into();
    store
        .insert_local_account(&alice, &alice_user)
        .await
        .expect("insert_local_account");
    let (bob, mut bob_user) = local_account(&ids, "bob");
    bob_user.email = "aLICE@example.TEST".into();
    assert_already_exists(
        store.insert_local_account(&bob, &bob_user).await,
        "email",
        "insert_local_account with an e-mail address differing only in case",
    );
    let got = store.account_by_id(bob.id).await.expect("account_by_id");
    assert_eq!(
        got, None,
        "insert_local_account is atomic: no account may be stored when its login is rejected"
    );
    let got = store
        .account_by_username("bob", None)
        .await
        .expect("account_by_username");
    assert_eq!(
        got, None,
        "insert_local_account is atomic: no account may be stored when its login is rejected"
    );
}

/// A remote username is unique per domain, both compared case-insensitively.
pub async fn remote_username_is_unique_per_domain_case_insensitively(store: &dyn Store) {
    let ids = IdGenerator::default();
    add_remote(store, &ids, "alice", "remote.example").await;
    let dup = remote_account(&ids, "ALICE", "Remote.EXAMPLE");
    assert_already_exists(
        store.insert_remote_account(&dup).await,
        "username",
        "insert_remote_account with username@domain differing only in case",
    );
    let got = store.account_by_id(dup.id).await.expect("account_by_id");
    assert_eq!(got, None, "a rejected remote account must not be stored");
}

/// One username may exist locally and on several remote domains at once, and each lookup finds
/// its own account.
pub async fn same_username_allowed_on_other_domains(store: &dyn Store) {
    let ids = IdGenerator::default();
    let a = add_remote(store, &ids, "alice", "a.example").await;
    let local = add_local(store, &ids, "alice").await;
    let b = add_remote(store, &ids, "Alice", "b.example").await;
    for (domain, expected) in [
        (None, &local),
        (Some("a.example"), &a),
        (Some("b.example"), &b),
    ] {
        let got = store
            .account_by_username("alice", domain)
            .await
            .expect("account_by_username");
        assert_eq!(
            got.map(|x| x.id),
            Some(expected.id),
            "usernames are unique per domain only: account_by_username(\"alice\", {domain:?}) must find that domain's account"
        );
    }
}

/// Two concurrent inserts of one local username (differing in case) admit exactly one.
pub async fn racing_inserts_of_one_username_admit_one(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (a, mut a_user) = local_account(&ids, "carol");
    let (b, mut b_user) = local_account(&ids, "Carol");
    a_user.email = "carol.a@example.test".into();
    b_user.email = "carol.b@example.test".into();
    let (ra, rb) = tokio::join!(
        store.insert_local_account(&a, &a_user),
        store.insert_local_account(&b, &b_user)
    );
    let oks = [&ra, &rb].iter().filter(|r| r.is_ok()).count();
    assert_eq!(
        oks, 1,
        "of two racing inserts of one username exactly one must succeed, got {ra:?} and {rb:?}"
    );
    let err = if ra.is_err() { ra } else { rb };
    assert_already_exists(
        err,
        "username",
        "the loser of two racing inserts of one username",
    );
    let found = store
        .accounts_by_ids(&[a.id, b.id])
        .await
        .expect("accounts_by_ids");
    assert_eq!(
        found.len(),
        1,
        "exactly one of two racing accounts with one username may be stored"
    );
}

/// Lookups of absent accounts and logins answer `None` (or an empty list), even when other
/// records exist.
pub async fn lookups_of_unknown_accounts_are_none(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, mut alice_user) = local_account(&ids, "alice");
    alice_user.confirmation_token_hash = Some("token-a".into());
    store
        .insert_local_account(&alice, &alice_user)
        .await
        .expect("insert_local_account");
    add_remote(store, &ids, "bob", "remote.example").await;
    let unknown = ids.next_at(T0);

    assert_eq!(
        store.account_by_id(unknown).await.expect("account_by_id"),
        None,
        "account_by_id of an unknown id must be None"
    );
    assert_eq!(
        store.accounts_by_ids(&[]).await.expect("accounts_by_ids"),
        vec![],
        "accounts_by_ids of no ids must be empty"
    );
    assert_eq!(
        store
            .accounts_by_ids(&[unknown])
            .await
            .expect("accounts_by_ids"),
        vec![],
        "accounts_by_ids of an unknown id must be empty"
    );
    let none = [
        ("nobody", None),
        ("bob", None),
        ("alice", Some("remote.example")),
        ("bob", Some("other.example")),
    ];
    for (username, domain) in none {
        let got = store
            .account_by_username(username, domain)
            .await
            .expect("account_by_username");
        assert_eq!(
            got, None,
            "account_by_username({username:?}, {domain:?}) must be None: no such account on that domain"
        );
    }
    assert_eq!(
        store
            .user_by_account_id(unknown)
            .await
            .expect("user_by_account_id"),
        None,
        "user_by_account_id of an unknown id must be None"
    );
    assert_eq!(
        store
            .user_by_email("nobody@example.test")
            .await
            .expect("user_by_email"),
        None,
        "user_by_email of an unknown address must be None"
    );
    assert_eq!(
        store
            .user_by_confirmation_token("token-b")
            .await
            .expect("user_by_confirmation_token"),
        None,
        "user_by_confirmation_token of an unknown hash must be None"
    );
}

/// `accounts_by_ids` returns each known account once: unknown ids are skipped and repeated ids
/// do not repeat the account.
pub async fn accounts_by_ids_skips_unknown_and_duplicates(store: &dyn Store) {
    let ids = IdGenerator::default();
    let a = add_local(store, &ids, "a").await;
    let b = add_local(store, &ids, "b").await;
    let c = add_remote(store, &ids, "c", "remote.example").await;
    let unknown = ids.next_at(T0);
    let got = store
        .accounts_by_ids(&[c.id, unknown, a.id, c.id])
        .await
        .expect("accounts_by_ids");
    assert_eq!(
        sorted(got.iter().map(|x| x.id).collect()),
        sorted(vec![a.id, c.id]),
        "accounts_by_ids must return each requested known account exactly once, skipping unknown ids"
    );
    let got_c = got.iter().find(|x| x.id == c.id);
    assert_eq!(
        got_c,
        Some(&c),
        "accounts_by_ids must return the records exactly as stored"
    );
    let all = store
        .accounts_by_ids(&[a.id, b.id, c.id])
        .await
        .expect("accounts_by_ids");
    assert_eq!(
        all.len(),
        3,
        "accounts_by_ids must return every requested known account"
    );
}

/// `account_by_username` compares the username and the domain case-insensitively, and `None`
/// means local only.
pub async fn account_by_username_is_case_insensitive_and_matches_domain(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "Alice").await;
    let bob = add_remote(store, &ids, "bob", "Remote.Example").await;
    for name in ["Alice", "alice", "ALICE"] {
        let got = store
            .account_by_username(name, None)
            .await
            .expect("account_by_username");
        assert_eq!(
            got.as_ref(),
            Some(&alice),
            "account_by_username({name:?}, None) must find the local account \"Alice\" (case-insensitive), as stored"
        );
    }
    for (name, domain) in [
        ("bob", "Remote.Example"),
        ("BOB", "remote.example"),
        ("Bob", "REMOTE.EXAMPLE"),
    ] {
        let got = store
            .account_by_username(name, Some(domain))
            .await
            .expect("account_by_username");
        assert_eq!(
            got.as_ref(),
            Some(&bob),
            "account_by_username({name:?}, {domain:?}) must find bob@Remote.Example (case-insensitive), as stored"
        );
    }
    let got = store
        .account_by_username("alice", Some("remote.example"))
        .await
        .expect("account_by_username");
    assert_eq!(
        got, None,
        "account_by_username with a domain must not find a local account"
    );
    let got = store
        .account_by_username("bob", None)
        .await
        .expect("account_by_username");
    assert_eq!(
        got, None,
        "account_by_username with no domain must not find a remote account"
    );
}

/// `update_account` replaces every profile field.
pub async fn update_account_replaces_profile_fields(store: &dyn Store) {
    let ids = IdGenerator::default();
    let before = add_local(store, &ids, "alice").await;
    let other = add_local(store, &ids, "other").await;
    let mut after = before.clone();
    after.display_name = "Alice A.".into();
    after.note = "new bio".into();
    after.locked = true;
    after.bot = true;
    after.discoverable = Some(true);
    after.indexable = true;
    after.hide_collections = Some(true);
    after.fields = vec![
        ProfileField {
            name: "Zed".into(),
            value: "last".into(),
        },
        ProfileField {
            name: "Ay".into(),
            value: "first".into(),
        },
    ];
    after.default_privacy = Visibility::Unlisted;
    after.default_sensitive = true;
    after.default_language = Some("fr".into());
    after.uri = Some("https://local.example/users/alice".into());
    after.url = Some("https://local.example/@alice".into());
    after.updated_at = at(T0 + 60_000);
    after.suspended_at = Some(at(T0 + 61_000));
    after.sensitized_at = Some(at(T0 + 62_000));
    store.update_account(&after).await.expect("update_account");
    assert_eq!(
        get_account(store, before.id).await,
        after,
        "update_account must replace every profile field"
    );

    let mut back = after.clone();
    back.discoverable = None;
    back.hide_collections = None;
    back.fields = vec![];
    back.default_language = None;
    back.uri = None;
    back.url = None;
    back.suspended_at = None;
    back.sensitized_at = None;
    store.update_account(&back).await.expect("update_account");
    assert_eq!(
        get_account(store, before.id).await,
        back,
        "update_account must be able to unset optional profile fields"
    );
    assert_eq!(
        get_account(store, other.id).await,
        other,
        "update_account must not change other accounts"
    );
}

/// `update_account` keeps the id, username, domain, created_at and the store-maintained counters
/// and `last_status_at`, whatever the record passed says.
pub async fn update_account_keeps_store_maintained_fields(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    store
        .insert_follow(ids.next_at(T0 + 2_000), alice.id, bob.id)
        .await
        .expect("insert_follow");
    store
        .insert_follow(ids.next_at(T0 + 2_000), bob.id, alice.id)
        .await
        .expect("insert_follow");
    let before = get_account(store, alice.id).await;

    let mut forged = before.clone();
    forged.username = "mallory".into();
    forged.domain = Some("evil.example".into());
    forged.created_at = at(T0 + 99_000);
    forged.statuses_count = 42;
    forged.followers_count = 43;
    forged.following_count = 44;
    forged.last_status_at = None;
    forged.display_name = "Changed".into();
    store.update_account(&forged).await.expect("update_account");

    let after = get_account(store, alice.id).await;
    assert_eq!(
        after.display_name, "Changed",
        "update_account must replace the profile fields"
    );
    let kept = |a: &fedblog_core::store::AccountRecord| {
        (
            a.username.clone(),
            a.domain.clone(),
            a.created_at,
            a.statuses_count,
            a.followers_count,
            a.following_count,
            a.last_status_at,
        )
    };
    assert_eq!(
        kept(&after),
        kept(&before),
        "update_account must keep username, domain, created_at, statuses/followers/following counts and last_status_at"
    );
    assert_eq!(
        (
            after.statuses_count,
            after.followers_count,
            after.following_count
        ),
        (1, 1, 1),
        "the counters are maintained by the store on insert_status and insert_follow"
    );
    let got = store
        .account_by_username("mallory", None)
        .await
        .expect("account_by_username");
    assert_eq!(got, None, "update_account must not rename an account");
    let got = store
        .account_by_username("alice", None)
        .await
        .expect("account_by_username");
    assert_eq!(
        got.map(|a| a.id),
        Some(alice.id),
        "update_account must not rename an account"
    );
}

/// `update_account` of an absent account is `NotFound` and does not create it.
pub async fn update_account_unknown_is_not_found(store: &dyn Store) {
    let ids = IdGenerator::default();
    add_local(store, &ids, "alice").await;
    let (ghost, _) = local_account(&ids, "ghost");
    assert_not_found(
        store.update_account(&ghost).await,
        "update_account of an absent account",
    );
    let got = store.account_by_id(ghost.id).await.expect("account_by_id");
    assert_eq!(
        got, None,
        "update_account of an absent account must not create it"
    );
}

/// `user_by_account_id` finds the login of each local account, and nothing for remote accounts.
pub async fn user_by_account_id_finds_local_logins_only(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, alice_user) = local_account(&ids, "alice");
    let (bob, bob_user) = local_account(&ids, "bob");
    store
        .insert_local_account(&alice, &alice_user)
        .await
        .expect("insert_local_account");
    store
        .insert_local_account(&bob, &bob_user)
        .await
        .expect("insert_local_account");
    let remote = add_remote(store, &ids, "carol", "remote.example").await;
    for (id, expected) in [
        (alice.id, Some(&alice_user)),
        (bob.id, Some(&bob_user)),
        (remote.id, None),
    ] {
        let got = store
            .user_by_account_id(id)
            .await
            .expect("user_by_account_id");
        assert_eq!(
            got.as_ref(),
            expected,
            "user_by_account_id({id}) must return that account's login (None for remote accounts)"
        );
    }
}

/// `users_by_account_ids` returns the logins of the local accounts among the ids, once each,
/// and nothing for remote or unknown ones.
pub async fn users_by_account_ids_finds_local_logins_once(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, alice_user) = local_account(&ids, "alice");
    let (bob, bob_user) = local_account(&ids, "bob");
    for (account, user) in [(&alice, &alice_user), (&bob, &bob_user)] {
        store
            .insert_local_account(account, user)
            .await
            .expect("insert_local_account");
    }
    let remote = add_remote(store, &ids, "carol", "remote.example").await;
    let mut got = store
        .users_by_account_ids(&[bob.id, remote.id, Id(987_654_321), alice.id, bob.id])
        .await
        .expect("users_by_account_ids");
    got.sort_by_key(|u| u.account_id);
    assert_eq!(
        got,
        vec![alice_user, bob_user],
        "users_by_account_ids must return each local login once, nothing for remote or unknown ids"
    );
    assert!(
        store
            .users_by_account_ids(&[])
            .await
            .expect("users_by_account_ids")
            .is_empty()
    );
}

/// `user_by_email` matches the address case-insensitively and returns the login as stored.
pub async fn user_by_email_is_case_insensitive(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, mut alice_user) = local_account(&ids, "alice");
    alice_user.email = "Alice@Example.Test".into();
    let (bob, bob_user) = local_account(&ids, "bob");
    store
        .insert_local_account(&alice, &alice_user)
        .await
        .expect("insert_local_account");
    store
        .insert_local_account(&bob, &bob_user)
        .await
        .expect("insert_local_account");
    for email in [
        "Alice@Example.Test",
        "alice@example.test",
        "ALICE@EXAMPLE.TEST",
    ] {
        let got = store.user_by_email(email).await.expect("user_by_email");
        assert_eq!(
            got.as_ref(),
            Some(&alice_user),
            "user_by_email({email:?}) must find Alice@Example.Test case-insensitively, returned as stored"
        );
    }
    let got = store
        .user_by_email("bob@example.test")
        .await
        .expect("user_by_email");
    assert_eq!(
        got.as_ref(),
        Some(&bob_user),
        "user_by_email must find each user's own login"
    );
}

/// `user_by_confirmation_token` finds the login whose pending token has the hash, and stops
/// finding it once the token is cleared.
pub async fn user_by_confirmation_token_finds_pending_token(store: &dyn Store) {
    let ids = IdGenerator::default();
    let mut users = vec![];
    for (name, token) in [
        ("alice", Some("hash-a")),
        ("bob", Some("hash-b")),
        ("carol", None),
    ] {
        let (account, mut user) = local_account(&ids, name);
        user.confirmation_token_hash = token.map(str::to_string);
        user.confirmed_at = None;
        store
            .insert_local_account(&account, &user)
            .await
            .expect("insert_local_account");
        users.push(user);
    }
    for (hash, expected) in [("hash-a", &users[0]), ("hash-b", &users[1])] {
        let got = store
            .user_by_confirmation_token(hash)
            .await
            .expect("user_by_confirmation_token");
        assert_eq!(
            got.as_ref(),
            Some(expected),
            "user_by_confirmation_token({hash:?}) must find the login with that pending token"
        );
    }
    let mut confirmed = users[1].clone();
    confirmed.confirmation_token_hash = None;
    confirmed.confirmed_at = Some(at(T0 + 1_000));
    store.update_user(&confirmed).await.expect("update_user");
    let got = store
        .user_by_confirmation_token("hash-b")
        .await
        .expect("user_by_confirmation_token");
    assert_eq!(
        got, None,
        "user_by_confirmation_token must not find a login whose token was cleared"
    );
}

/// `update_user` replaces every field but account_id and created_at; the new e-mail address is
/// found and the old one no longer is.
pub async fn update_user_replaces_all_but_created_at(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, before) = local_account(&ids, "alice");
    let (bob, bob_user) = local_account(&ids, "bob");
    store
        .insert_local_account(&alice, &before)
        .await
        .expect("insert_local_account");
    store
        .insert_local_account(&bob, &bob_user)
        .await
        .expect("insert_local_account");
    let mut after = before.clone();
    after.email = "Alice.New@Example.Test".into();
    after.password_hash = "$argon2id$v=19$m=19456,t=2,p=1$bmV3c2FsdA$bmV3aGFzaG5ld2hhc2g".into();
    after.role = Role::Moderator;
    after.confirmed_at = None;
    after.confirmation_token_hash = Some("fresh-token".into());
    after.approved = false;
    after.disabled = true;
    after.locale = "ja".into();
    let mut forged = after.clone();
    forged.created_at = at(T0 + 123_000);
    store.update_user(&forged).await.expect("update_user");

    let got = store
        .user_by_account_id(alice.id)
        .await
        .expect("user_by_account_id");
    assert_eq!(
        got.as_ref(),
        Some(&after),
        "update_user must replace every field but account_id and created_at"
    );
    let got = store
        .user_by_email("alice.new@example.test")
        .await
        .expect("user_by_email");
    assert_eq!(
        got.map(|u| u.account_id),
        Some(alice.id),
        "user_by_email must find a login by its updated address"
    );
    let got = store
        .user_by_email("alice@example.test")
        .await
        .expect("user_by_email");
    assert_eq!(
        got, None,
        "user_by_email must not find a login by its former address"
    );
    let got = store
        .user_by_account_id(bob.id)
        .await
        .expect("user_by_account_id");
    assert_eq!(
        got.as_ref(),
        Some(&bob_user),
        "update_user must not change other logins"
    );
}

/// `update_user` of an absent login is `NotFound` and does not create it.
pub async fn update_user_unknown_is_not_found(store: &dyn Store) {
    let ids = IdGenerator::default();
    add_local(store, &ids, "alice").await;
    let (ghost, ghost_user) = local_account(&ids, "ghost");
    assert_not_found(
        store.update_user(&ghost_user).await,
        "update_user of an absent login",
    );
    let got = store
        .user_by_account_id(ghost.id)
        .await
        .expect("user_by_account_id");
    assert_eq!(
        got, None,
        "update_user of an absent login must not create it"
    );
}

/// `update_user` taking another login's e-mail address (in any case) fails with
/// `AlreadyExists("email")` and changes nothing.
pub async fn update_user_rejects_another_users_email(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, alice_user) = local_account(&ids, "alice");
    let (bob, bob_user) = local_account(&ids, "bob");
    store
        .insert_local_account(&alice, &alice_user)
        .await
        .expect("insert_local_account");
    store
        .insert_local_account(&bob, &bob_user)
        .await
        .expect("insert_local_account");
    let mut stolen = bob_user.clone();
    stolen.email = "ALICE@example.test".into();
    stolen.locale = "de".into();
    assert_already_exists(
        store.update_user(&stolen).await,
        "email",
        "update_user to another login's e-mail address (differing only in case)",
    );
    let got = store
        .user_by_account_id(bob.id)
        .await
        .expect("user_by_account_id");
    assert_eq!(
        got.as_ref(),
        Some(&bob_user),
        "a rejected update_user must change nothing"
    );
    let got = store
        .user_by_email("alice@example.test")
        .await
        .expect("user_by_email");
    assert_eq!(
        got.as_ref(),
        Some(&alice_user),
        "a rejected update_user must not touch the other login"
    );
}

/// `update_user` may keep a login's own address, or change only its case: that is not taking
/// another login's address.
pub async fn update_user_may_keep_or_recase_own_email(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (alice, alice_user) = local_account(&ids, "alice");
    store
        .insert_local_account(&alice, &alice_user)
        .await
        .expect("insert_local_account");
    let mut same = alice_user.clone();
    same.locale = "fr".into();
    store
        .update_user(&same)
        .await
        .expect("update_user keeping the login's own e-mail address must succeed");
    let mut recased = same.clone();
    recased.email = "ALICE@Example.Test".into();
    store
        .update_user(&recased)
        .await
        .expect("update_user changing only the case of its own e-mail address must succeed");
    let got = store
        .user_by_account_id(alice.id)
        .await
        .expect("user_by_account_id");
    assert_eq!(
        got.as_ref(),
        Some(&recased),
        "update_user must store the re-cased address exactly"
    );
}

/// `avatar` and `header` (file keys) come back as inserted, local and remote, and
/// `update_account` sets, changes and unsets them.
pub async fn avatar_and_header_round_trip_through_insert_and_update(store: &dyn Store) {
    let ids = IdGenerator::default();
    let (mut local, user) = local_account(&ids, "alice");
    local.avatar = Some("accounts/avatars/1/original.png".into());
    local.header = Some("accounts/headers/1/original.jpg".into());
    store
        .insert_local_account(&local, &user)
        .await
        .expect("insert_local_account");
    let mut remote = remote_account(&ids, "bob", "remote.example");
    remote.avatar = Some("cache/avatars/2.webp".into());
    store
        .insert_remote_account(&remote)
        .await
        .expect("insert_remote_account");
    let plain = add_local(store, &ids, "plain").await;
    assert_eq!(
        get_account(store, local.id).await,
        local,
        "a local account must come back with its avatar and header as inserted"
    );
    assert_eq!(
        get_account(store, remote.id).await,
        remote,
        "a remote account must come back with its avatar (and no header) as inserted"
    );
    let got = get_account(store, plain.id).await;
    assert_eq!(
        (got.avatar, got.header),
        (None, None),
        "an account inserted without images must have none"
    );

    let mut changed = local.clone();
    changed.avatar = Some("accounts/avatars/1/second.png".into());
    changed.header = None;
    store
        .update_account(&changed)
        .await
        .expect("update_account");
    assert_eq!(
        get_account(store, local.id).await,
        changed,
        "update_account must replace the avatar and be able to unset the header"
    );
    let mut set = plain.clone();
    set.header = Some("accounts/headers/3/original.gif".into());
    store.update_account(&set).await.expect("update_account");
    assert_eq!(
        get_account(store, plain.id).await,
        set,
        "update_account must be able to set a header on an account without one"
    );
}

/// `delete_account` of an unknown id is `NotFound` and changes nothing; deleting twice is
/// `NotFound` the second time.
pub async fn delete_account_unknown_is_not_found(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    assert_not_found(
        store.delete_account(ids.next_at(T0)).await,
        "delete_account of an unknown id",
    );
    assert_eq!(
        get_account(store, alice.id).await,
        alice,
        "a failed delete_account must not change other accounts"
    );
    store
        .delete_account(bob.id)
        .await
        .expect("delete_account of an existing account");
    assert_not_found(
        store.delete_account(bob.id).await,
        "delete_account of an account already deleted",
    );
}

/// `delete_account` removes the account, its login, its tokens and authorization codes; its
/// username and e-mail address are free again; other accounts keep theirs.
pub async fn delete_account_removes_account_login_tokens_and_codes(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let remote = add_remote(store, &ids, "carol", "remote.example").await;
    let a = add_app(store, &ids, "client-a").await;
    for (hash, account) in [
        ("alice-1", alice.id),
        ("alice-2", alice.id),
        ("bob-1", bob.id),
    ] {
        store
            .insert_token(&token(&ids, hash, a.id, Some(account), T0 + 1_000))
            .await
            .expect("insert_token");
    }
    for (hash, account) in [("code-alice", alice.id), ("code-bob", bob.id)] {
        store
            .insert_authorization(&authorization(hash, a.id, account))
            .await
            .expect("insert_authorization");
    }
    store
        .delete_account(alice.id)
        .await
        .expect("delete_account");
    store
        .delete_account(remote.id)
        .await
        .expect("delete_account of a remote account");

    for gone in [alice.id, remote.id] {
        assert_eq!(
            store.account_by_id(gone).await.expect("account_by_id"),
            None,
            "delete_account must remove the account"
        );
    }
    assert_eq!(
        store
            .account_by_username("alice", None)
            .await
            .expect("account_by_username"),
        None,
        "a deleted account must not be found by username"
    );
    assert_eq!(
        store
            .account_by_username("carol", Some("remote.example"))
            .await
            .expect("account_by_username"),
        None,
        "a deleted remote account must not be found by username"
    );
    assert_eq!(
        store
            .user_by_account_id(alice.id)
            .await
            .expect("user_by_account_id"),
        None,
        "delete_account must remove the login"
    );
    assert_eq!(
        store
            .user_by_email("alice@example.test")
            .await
            .expect("user_by_email"),
        None,
        "delete_account must remove the login (by e-mail)"
    );
    for hash in ["alice-1", "alice-2"] {
        assert_eq!(
            store.token_by_hash(hash).await.expect("token_by_hash"),
            None,
            "delete_account must remove the account's tokens"
        );
    }
    assert_eq!(
        store
            .take_authorization("code-alice")
            .await
            .expect("take_authorization"),
        None,
        "delete_account must remove the account's authorization codes"
    );
    assert!(
        store
            .token_by_hash("bob-1")
            .await
            .expect("token_by_hash")
            .is_some(),
        "delete_account must keep other accounts' tokens"
    );
    assert!(
        store
            .take_authorization("code-bob")
            .await
            .expect("take_authorization")
            .is_some(),
        "delete_account must keep other accounts' authorization codes"
    );
    assert_eq!(
        get_account(store, bob.id).await,
        bob,
        "delete_account must not change other accounts"
    );
    let (again, again_user) = local_account(&ids, "alice");
    store
        .insert_local_account(&again, &again_user)
        .await
        .expect("the username and e-mail of a deleted account must be free again");
}

/// `delete_account` removes the account's statuses (from lookups, timelines, tag counts and the
/// home feeds they were in) and the account's own home feed; other statuses stay.
pub async fn delete_account_removes_statuses_and_feed_entries(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s1 = add_status(
        store,
        StatusRecord {
            tags: vec!["gone".into()],
            mentions: vec![bob.id],
            ..status(&ids, &alice, T0 + 1_000)
        },
    )
    .await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let s3 = add_status(
        store,
        StatusRecord {
            tags: vec!["gone".into()],
            ..status(&ids, &bob, T0 + 3_000)
        },
    )
    .await;
    for s in [&s1, &s2] {
        store
            .insert_feed_entries(s.id, alice.id, &[alice.id, bob.id])
            .await
            .expect("insert_feed_entries");
    }
    store
        .insert_feed_entries(s3.id, bob.id, &[alice.id, bob.id])
        .await
        .expect("insert_feed_entries");
    store
        .delete_account(alice.id)
        .await
        .expect("delete_account");

    for s in [&s1, &s2] {
        assert_eq!(
            store.status_by_id(s.id).await.expect("status_by_id"),
            None,
            "delete_account must remove the account's statuses"
        );
    }
    assert_eq!(
        store
            .statuses_by_ids(&[s1.id, s2.id, s3.id])
            .await
            .expect("statuses_by_ids"),
        vec![s3.clone()],
        "delete_account must remove the account's statuses and keep others"
    );
    assert_eq!(
        store
            .home_feed(bob.id, Page::first(40))
            .await
            .expect("home_feed"),
        vec![s3.id],
        "delete_account must remove the account's statuses from other home feeds"
    );
    assert_eq!(
        store
            .home_feed(alice.id, Page::first(40))
            .await
            .expect("home_feed"),
        vec![],
        "delete_account must remove the account's own home feed"
    );
    let timeline: Vec<Id> = store
        .public_timeline(PublicTimelineFilter::default(), Page::first(40))
        .await
        .expect("public_timeline")
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(
        timeline,
        vec![s3.id],
        "the statuses of a deleted account must leave the public timeline"
    );
    assert_eq!(
        store
            .tag_usage("gone", at(T0), at(T0 + 10_000))
            .await
            .expect("tag_usage"),
        TagUsage {
            uses: 1,
            accounts: 1
        },
        "the statuses of a deleted account must leave the tag counts"
    );
    assert_eq!(
        store
            .count_local_statuses()
            .await
            .expect("count_local_statuses"),
        1,
        "the statuses of a deleted account must leave the local status count"
    );
    assert_eq!(
        get_account(store, bob.id).await.statuses_count,
        1,
        "delete_account must keep other accounts' status counts"
    );
}

/// `(followers_count, following_count)` of a stored account.
async fn follow_counts(store: &dyn Store, id: Id) -> (i64, i64) {
    let a = get_account(store, id).await;
    (a.followers_count, a.following_count)
}

/// `delete_account` removes follows and follow requests in both directions, and the counters of
/// the accounts on the other side no longer count them; other follows stay.
pub async fn delete_account_removes_follows_both_ways_fixing_counters(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let carol = add_local(store, &ids, "carol").await.id;
    let remote = add_remote(store, &ids, "r", "remote.example").await.id;
    let dave = add_local(store, &ids, "dave").await.id;
    let erin = add_local(store, &ids, "erin").await.id;
    for (i, (follower, target)) in [
        (alice, bob),
        (carol, alice),
        (remote, alice),
        (carol, bob),
        (bob, carol),
    ]
    .into_iter()
    .enumerate()
    {
        store
            .insert_follow(ids.next_at(T0 + 1_000 * (i as i64 + 1)), follower, target)
            .await
            .expect("insert_follow");
    }
    for (follower, target) in [(alice, dave), (erin, alice), (erin, dave)] {
        store
            .insert_follow_request(ids.next_at(T0 + 10_000), follower, target)
            .await
            .expect("insert_follow_request");
    }
    store.delete_account(alice).await.expect("delete_account");

    assert_eq!(
        [
            follow_counts(store, bob).await,
            follow_counts(store, carol).await,
            follow_counts(store, remote).await,
        ],
        [(1, 1), (1, 1), (0, 0)],
        "delete_account must decrement the counters of the accounts it followed and that followed it"
    );
    let ids_of = |rows: Vec<(Id, Id)>| rows.into_iter().map(|(_, a)| a).collect::<Vec<_>>();
    assert_eq!(
        ids_of(
            store
                .followers_page(bob, Page::first(40))
                .await
                .expect("followers_page")
        ),
        vec![carol],
        "a deleted account must leave the followers of the accounts it followed"
    );
    assert_eq!(
        ids_of(
            store
                .following_page(carol, Page::first(40))
                .await
                .expect("following_page")
        ),
        vec![bob],
        "a deleted account must leave the following lists of its followers"
    );
    assert_eq!(
        ids_of(
            store
                .following_page(remote, Page::first(40))
                .await
                .expect("following_page")
        ),
        vec![],
        "a deleted account must leave the following lists of its remote followers"
    );
    assert!(
        !store.follows(carol, alice).await.expect("follows")
            && !store.follows(alice, bob).await.expect("follows"),
        "follows must be false for the follows of a deleted account, both ways"
    );
    assert_eq!(
        ids_of(
            store
                .follow_requests_page(dave, Page::first(40))
                .await
                .expect("follow_requests_page")
        ),
        vec![erin],
        "a deleted account's pending follow requests must be dropped"
    );
    assert!(
        !store
            .follow_requested(erin, alice)
            .await
            .expect("follow_requested"),
        "follow requests to a deleted account must be dropped"
    );
    assert_eq!(
        store
            .friends_of_friends(bob, 40)
            .await
            .expect("friends_of_friends"),
        vec![],
        "a deleted account must not be suggested by friends_of_friends"
    );
}

/// `delete_account` removes blocks and mutes in both directions; other accounts' blocks and
/// mutes stay.
pub async fn delete_account_removes_blocks_and_mutes_both_ways(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let carol = add_local(store, &ids, "carol").await.id;
    let dave = add_local(store, &ids, "dave").await.id;
    for (account, target) in [(alice, bob), (carol, alice), (carol, bob)] {
        store
            .insert_block(ids.next_at(T0 + 1_000), account, target)
            .await
            .expect("insert_block");
    }
    for (account, target) in [(alice, carol), (dave, alice), (dave, bob)] {
        store
            .upsert_mute(&MuteRecord {
                id: ids.next_at(T0 + 2_000),
                account_id: account,
                target_id: target,
                notifications: true,
                expires_at: None,
            })
            .await
            .expect("upsert_mute");
    }
    store.delete_account(alice).await.expect("delete_account");
    let now = at(T0 + 10_000);

    assert_eq!(
        store
            .blocked_either_way(bob, &[alice, carol])
            .await
            .expect("blocked_either_way"),
        vec![carol],
        "a deleted account's blocks must be removed"
    );
    let blocked: Vec<Id> = store
        .blocks_page(carol, Page::first(40))
        .await
        .expect("blocks_page")
        .into_iter()
        .map(|(_, a)| a)
        .collect();
    assert_eq!(
        blocked,
        vec![bob],
        "blocks of a deleted account must be removed, others kept"
    );
    assert_eq!(
        store.mute_of(alice, carol, now).await.expect("mute_of"),
        None,
        "a deleted account's mutes must be removed"
    );
    let muted: Vec<Id> = store
        .mutes_page(dave, now, Page::first(40))
        .await
        .expect("mutes_page")
        .into_iter()
        .map(|m| m.target_id)
        .collect();
    assert_eq!(
        muted,
        vec![bob],
        "mutes of a deleted account must be removed, others kept"
    );
}

/// `delete_account` removes private notes, endorsements and suggestion dismissals in both
/// directions (by the account and of the account); other accounts' ones stay.
pub async fn delete_account_removes_notes_endorsements_and_dismissals_both_ways(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let carol = add_local(store, &ids, "carol").await.id;
    for (account, target) in [(alice, bob), (bob, alice), (bob, carol)] {
        store
            .set_account_note(account, target, "a note")
            .await
            .expect("set_account_note");
        store
            .insert_endorsement(ids.next_at(T0 + 1_000), account, target)
            .await
            .expect("insert_endorsement");
        store
            .dismiss_suggestion(account, target)
            .await
            .expect("dismiss_suggestion");
    }
    store.delete_account(alice).await.expect("delete_account");

    for (account, target) in [(alice, bob), (bob, alice)] {
        assert_eq!(
            store
                .account_note(account, target)
                .await
                .expect("account_note"),
            None,
            "delete_account must remove notes by and on the account"
        );
        assert!(
            !store.endorses(account, target).await.expect("endorses"),
            "delete_account must remove endorsements by and of the account"
        );
    }
    assert_eq!(
        store
            .account_note(bob, carol)
            .await
            .expect("account_note")
            .as_deref(),
        Some("a note"),
        "delete_account must keep other accounts' notes"
    );
    let endorsed: Vec<Id> = store
        .endorsements_page(bob, Page::first(40))
        .await
        .expect("endorsements_page")
        .into_iter()
        .map(|(_, a)| a)
        .collect();
    assert_eq!(
        endorsed,
        vec![carol],
        "endorsements of a deleted account must be removed, others kept"
    );
    assert_eq!(
        store
            .dismissed_suggestions(bob)
            .await
            .expect("dismissed_suggestions"),
        vec![carol],
        "dismissals of a deleted account must be removed, others kept"
    );
    assert_eq!(
        store
            .dismissed_suggestions(alice)
            .await
            .expect("dismissed_suggestions"),
        vec![],
        "a deleted account's own dismissals must be removed"
    );
}

/// `delete_account` removes the account's domain blocks, tag follows, featured tags and
/// scheduled statuses; the tags themselves and other accounts' ones stay.
pub async fn delete_account_removes_domain_blocks_tags_and_scheduled_statuses(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let t = add_tag(store, &ids, "rust", T0 + 1_000).await;
    for account in [alice, bob] {
        store
            .insert_domain_block(ids.next_at(T0 + 2_000), account, "bad.example")
            .await
            .expect("insert_domain_block");
        store
            .follow_tag(ids.next_at(T0 + 3_000), account, t.id)
            .await
            .expect("follow_tag");
        store
            .insert_featured_tag(&FeaturedTagRecord {
                id: ids.next_at(T0 + 4_000),
                account_id: account,
                tag_id: t.id,
                name: t.name.clone(),
                created_at: at(T0 + 4_000),
            })
            .await
            .expect("insert_featured_tag");
        store
            .insert_scheduled_status(&scheduled_status(&ids, account, T0 + 5_000))
            .await
            .expect("insert_scheduled_status");
    }
    let alice_scheduled = store
        .scheduled_statuses(alice, Page::first(40))
        .await
        .expect("scheduled_statuses");
    store.delete_account(alice).await.expect("delete_account");

    assert!(
        !store
            .domain_blocked(alice, "bad.example")
            .await
            .expect("domain_blocked"),
        "delete_account must remove the account's domain blocks"
    );
    assert!(
        !store.follows_tag(alice, t.id).await.expect("follows_tag"),
        "delete_account must remove the account's tag follows"
    );
    assert_eq!(
        store.featured_tags(alice).await.expect("featured_tags"),
        vec![],
        "delete_account must remove the account's featured tags"
    );
    assert_eq!(
        store
            .scheduled_statuses(alice, Page::first(40))
            .await
            .expect("scheduled_statuses"),
        vec![],
        "delete_account must remove the account's scheduled statuses"
    );
    for s in alice_scheduled {
        assert_eq!(
            store
                .scheduled_status_by_id(s.id)
                .await
                .expect("scheduled_status_by_id"),
            None,
            "delete_account must remove the account's scheduled statuses"
        );
    }
    assert!(
        store
            .domain_blocked(bob, "bad.example")
            .await
            .expect("domain_blocked")
            && store.follows_tag(bob, t.id).await.expect("follows_tag"),
        "delete_account must keep other accounts' domain blocks and tag follows"
    );
    assert_eq!(
        store.featured_tags(bob).await.expect("featured_tags").len(),
        1,
        "delete_account must keep other accounts' featured tags"
    );
    assert_eq!(
        store
            .scheduled_statuses(bob, Page::first(40))
            .await
            .expect("scheduled_statuses")
            .len(),
        1,
        "delete_account must keep other accounts' scheduled statuses"
    );
    assert_eq!(
        store.tag_by_id(t.id).await.expect("tag_by_id"),
        Some(t),
        "delete_account must keep the tags themselves"
    );
}

/// `delete_account` removes the account's favourites (lowering the counts of the statuses it
/// favourited), bookmarks, pins and muted threads; other accounts' stay.
pub async fn delete_account_removes_favourites_bookmarks_pins_and_thread_mutes(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let a1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let b1 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let b2 = add_status(store, status(&ids, &bob, T0 + 3_000)).await;
    let mut next = T0 + 10_000;
    let mut id = || {
        next += 1_000;
        ids.next_at(next)
    };
    for s in [&b1, &b2] {
        store
            .insert_favourite(id(), alice.id, s.id)
            .await
            .expect("insert_favourite");
    }
    let bobs_fav = id();
    store
        .insert_favourite(bobs_fav, bob.id, b1.id)
        .await
        .expect("insert_favourite");
    store
        .insert_bookmark(id(), alice.id, b1.id)
        .await
        .expect("insert_bookmark");
    let bobs_mark = id();
    store
        .insert_bookmark(bobs_mark, bob.id, b1.id)
        .await
        .expect("insert_bookmark");
    store
        .insert_pin(id(), alice.id, a1.id)
        .await
        .expect("insert_pin");
    store
        .insert_pin(id(), bob.id, b2.id)
        .await
        .expect("insert_pin");
    for account in [alice.id, bob.id] {
        store
            .mute_conversation(account, b1.id)
            .await
            .expect("mute_conversation");
    }
    store
        .delete_account(alice.id)
        .await
        .expect("delete_account");

    let page = Page::first(40);
    let counts = |s: Id| async move {
        let s = store
            .status_by_id(s)
            .await
            .expect("status_by_id")
            .expect("another account's status must stay");
        s.favourites_count
    };
    assert_eq!(
        (counts(b1.id).await, counts(b2.id).await),
        (1, 0),
        "delete_account must lower the favourites_count of the statuses the account favourited"
    );
    assert_eq!(
        store
            .favourited_by_page(b1.id, page)
            .await
            .expect("favourited_by_page"),
        vec![(bobs_fav, bob.id)],
        "delete_account must remove the account's favourites, keeping others'"
    );
    assert_eq!(
        store
            .favourites_page(alice.id, page)
            .await
            .expect("favourites_page"),
        vec![],
        "delete_account must remove the account's favourites"
    );
    assert_eq!(
        store
            .bookmarks_page(alice.id, page)
            .await
            .expect("bookmarks_page"),
        vec![],
        "delete_account must remove the account's bookmarks"
    );
    assert_eq!(
        store
            .bookmarks_page(bob.id, page)
            .await
            .expect("bookmarks_page"),
        vec![(bobs_mark, b1.id)],
        "delete_account must keep other accounts' bookmarks"
    );
    assert_eq!(
        store
            .pinned_status_ids(alice.id)
            .await
            .expect("pinned_status_ids"),
        vec![],
        "delete_account must remove the account's pins"
    );
    assert_eq!(
        store
            .pinned_status_ids(bob.id)
            .await
            .expect("pinned_status_ids"),
        vec![b2.id],
        "delete_account must keep other accounts' pins"
    );
    assert_eq!(
        store
            .muted_conversations_among(alice.id, &[b1.id])
            .await
            .expect("muted_conversations_among"),
        vec![],
        "delete_account must remove the account's muted threads"
    );
    assert_eq!(
        store
            .muted_conversations_among(bob.id, &[b1.id])
            .await
            .expect("muted_conversations_among"),
        vec![b1.id],
        "delete_account must keep other accounts' muted threads"
    );
}

/// `delete_account` removes the account's reblogs and replies, lowering the `reblogs_count`
/// and `replies_count` of others' statuses, and other accounts' reblogs of its statuses (with
/// their feed entries and their authors' `statuses_count`); others' replies to it stay.
pub async fn delete_account_removes_reblogs_both_ways_fixing_counters(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_remote(store, &ids, "carol", "remote.example").await;
    let a1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let b1 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let b2 = add_status(store, status(&ids, &bob, T0 + 3_000)).await;
    add_status(store, reblog(&ids, &alice, &b1, T0 + 4_000)).await;
    add_status(store, reply(&ids, &alice, &b1, T0 + 5_000)).await;
    add_status(store, reblog(&ids, &alice, &b2, T0 + 6_000)).await;
    let carols = add_status(store, reblog(&ids, &carol, &a1, T0 + 7_000)).await;
    let carols_own = add_status(store, status(&ids, &carol, T0 + 8_000)).await;
    let bobs_reply = add_status(store, reply(&ids, &bob, &a1, T0 + 9_000)).await;
    for (s, author) in [(&carols, &carol), (&carols_own, &carol), (&b2, &bob)] {
        store
            .insert_feed_entries(s.id, author.id, &[bob.id])
            .await
            .expect("insert_feed_entries");
    }
    store
        .delete_account(alice.id)
        .await
        .expect("delete_account");

    let counts = |s: Id| async move {
        let s = store
            .status_by_id(s)
            .await
            .expect("status_by_id")
            .expect("another account's status must stay");
        (s.replies_count, s.reblogs_count, s.favourites_count)
    };
    assert_eq!(
        (counts(b1.id).await, counts(b2.id).await),
        ((0, 0, 0), (0, 0, 0)),
        "delete_account must lower the replies_count and reblogs_count of the statuses the \
         account replied to and reblogged"
    );
    assert_eq!(
        store.reblog_by(alice.id, b1.id).await.expect("reblog_by"),
        None,
        "delete_account must remove the account's reblogs"
    );
    assert_eq!(
        store
            .reblogged_by_page(b1.id, Page::first(40))
            .await
            .expect("reblogged_by_page"),
        vec![],
        "delete_account must remove the account's reblogs"
    );
    assert_eq!(
        store.status_by_id(carols.id).await.expect("status_by_id"),
        None,
        "delete_account must remove other accounts' reblogs of its statuses"
    );
    assert_eq!(
        get_account(store, carol.id).await.statuses_count,
        1,
        "removing a reblog of the account's status must lower its author's statuses_count"
    );
    assert_eq!(
        store
            .home_feed(bob.id, Page::first(40))
            .await
            .expect("home_feed"),
        vec![carols_own.id, b2.id],
        "delete_account must remove other accounts' reblogs of its statuses from home feeds"
    );
    assert_eq!(
        store
            .status_by_id(bobs_reply.id)
            .await
            .expect("status_by_id"),
        Some(bobs_reply),
        "delete_account must keep other accounts' replies to its statuses"
    );
    assert_eq!(
        get_account(store, bob.id).await.statuses_count,
        3,
        "delete_account must not change the statuses_count of accounts that replied to it"
    );
}
