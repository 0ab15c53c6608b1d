//! Checks of [`OAuthStore`](fedblog_core::store::OAuthStore): client applications,
//! authorization codes and access tokens.

use fedblog_core::{IdGenerator, Store};

use super::{
    Capabilities, Capability, T0, add_app, add_local, app, assert_already_exists, at,
    authorization, token,
};

/// An application comes back exactly as inserted by id and by client id, with its optional
/// website unset and set and its redirect URIs in order.
pub async fn app_round_trips_by_id_and_client_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let plain = app(&ids, "client-plain");
    let mut full = app(&ids, "client-full");
    full.website = Some("https://app.example".into());
    full.redirect_uris = vec![
        "https://app.example/callback".into(),
        "app://b".into(),
        "urn:ietf:wg:oauth:2.0:oob".into(),
    ];
    full.scopes = "read:statuses write follow push".into();
    full.created_at = at(T0 + 1_000);
    for a in [&plain, &full] {
        store.insert_app(a).await.expect("insert_app");
    }
    for a in [&plain, &full] {
        let got = store.app_by_id(a.id).await.expect("app_by_id");
        assert_eq!(
            got.as_ref(),
            Some(a),
            "app_by_id must return the application exactly as inserted"
        );
        let got = store
            .app_by_client_id(&a.client_id)
            .await
            .expect("app_by_client_id");
        assert_eq!(
            got.as_ref(),
            Some(a),
            "app_by_client_id must return the application exactly as inserted"
        );
    }
}

/// `apps_by_ids` answers each known application of the ids once, exactly as inserted, and
/// leaves unknown ids out; no ids is no applications.
pub async fn apps_by_ids_answers_the_known_ones_once(store: &dyn Store) {
    let ids = IdGenerator::default();
    let a = add_app(store, &ids, "client-a").await;
    let b = add_app(store, &ids, "client-b").await;
    add_app(store, &ids, "client-c").await;
    let unknown = ids.next_at(T0);
    let mut got = store
        .apps_by_ids(&[b.id, unknown, a.id, b.id])
        .await
        .expect("apps_by_ids");
    got.sort_by_key(|x| x.id);
    let mut want = vec![a, b];
    want.sort_by_key(|x| x.id);
    assert_eq!(
        got, want,
        "apps_by_ids must answer each known application once, as inserted, and no unknown one"
    );
    let none = store.apps_by_ids(&[]).await.expect("apps_by_ids of none");
    assert!(none.is_empty(), "apps_by_ids of no ids must be empty");
}

/// Lookups of absent applications answer `None`, even when other applications exist.
pub async fn lookups_of_unknown_apps_are_none(store: &dyn Store) {
    let ids = IdGenerator::default();
    add_app(store, &ids, "client-a").await;
    let got = store.app_by_id(ids.next_at(T0)).await.expect("app_by_id");
    assert_eq!(got, None, "app_by_id of an unknown id must be None");
    let got = store
        .app_by_client_id("client-b")
        .await
        .expect("app_by_client_id");
    assert_eq!(
        got, None,
        "app_by_client_id of an unknown client id must be None"
    );
}

/// A taken client id is `AlreadyExists("client_id")` and the first application is unchanged.
pub async fn duplicate_client_id_is_already_exists(store: &dyn Store) {
    let ids = IdGenerator::default();
    let first = add_app(store, &ids, "client-a").await;
    let mut second = app(&ids, "client-a");
    second.name = "Impostor".into();
    assert_already_exists(
        store.insert_app(&second).await,
        "client_id",
        "insert_app with a taken client_id",
    );
    let got = store
        .app_by_client_id("client-a")
        .await
        .expect("app_by_client_id");
    assert_eq!(
        got.as_ref(),
        Some(&first),
        "a rejected insert_app must not change the existing application"
    );
    let got = store.app_by_id(second.id).await.expect("app_by_id");
    assert_eq!(got, None, "a rejected application must not be stored");
}

/// `take_authorization` returns the code exactly as inserted, with and without PKCE.
pub async fn authorization_round_trips_through_take(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let app = add_app(store, &ids, "client-a").await;
    let plain = authorization("hash-plain", app.id, alice.id);
    let mut pkce = authorization("hash-pkce", app.id, alice.id);
    pkce.redirect_uri = "https://app.example/callback".into();
    pkce.scopes = "read write".into();
    pkce.code_challenge = Some("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM".into());
    pkce.code_challenge_method = Some("S256".into());
    pkce.expires_at = at(T0 + 300_000);
    for a in [&plain, &pkce] {
        store
            .insert_authorization(a)
            .await
            .expect("insert_authorization");
    }
    for a in [&pkce, &plain] {
        let got = store
            .take_authorization(&a.code_hash)
            .await
            .expect("take_authorization");
        assert_eq!(
            got.as_ref(),
            Some(a),
            "take_authorization must return the code exactly as inserted"
        );
    }
}

/// A code is used at most once: a second take is `None`; other codes and unknown hashes are
/// unaffected.
pub async fn authorization_is_taken_at_most_once(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let app = add_app(store, &ids, "client-a").await;
    let one = authorization("hash-one", app.id, alice.id);
    let two = authorization("hash-two", app.id, alice.id);
    store
        .insert_authorization(&one)
        .await
        .expect("insert_authorization");
    store
        .insert_authorization(&two)
        .await
        .expect("insert_authorization");
    let got = store
        .take_authorization("hash-unknown")
        .await
        .expect("take_authorization");
    assert_eq!(
        got, None,
        "take_authorization of an unknown hash must be None"
    );
    let got = store
        .take_authorization("hash-one")
        .await
        .expect("take_authorization");
    assert_eq!(
        got.as_ref(),
        Some(&one),
        "the first take_authorization must return the code"
    );
    let got = store
        .take_authorization("hash-one")
        .await
        .expect("take_authorization");
    assert_eq!(
        got, None,
        "a code is single-use: the second take_authorization must be None"
    );
    let got = store
        .take_authorization("hash-two")
        .await
        .expect("take_authorization");
    assert_eq!(
        got.as_ref(),
        Some(&two),
        "taking one code must not remove another"
    );
}

/// Two concurrent takes of one code: exactly one gets it.
pub async fn racing_takes_of_one_authorization_admit_one(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let app = add_app(store, &ids, "client-a").await;
    for round in 0..5 {
        let hash = format!("hash-race-{round}");
        let code = authorization(&hash, app.id, alice.id);
        store
            .insert_authorization(&code)
            .await
            .expect("insert_authorization");
        let (a, b) = tokio::join!(
            store.take_authorization(&hash),
            store.take_authorization(&hash)
        );
        let (a, b) = (
            a.expect("take_authorization"),
            b.expect("take_authorization"),
        );
        let winners: Vec<_> = [a, b].into_iter().flatten().collect();
        assert_eq!(
            winners,
            vec![code],
            "a code is used at most once even when two requests race: exactly one of two concurrent takes must get it (round {round})"
        );
    }
}

/// A token comes back exactly as inserted by its hash: a user token and an app token (no
/// account).
pub async fn token_round_trips_by_hash(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let app = add_app(store, &ids, "client-a").await;
    let user_token = token(&ids, "hash-user", app.id, Some(alice.id), T0 + 1_000);
    let mut app_token = token(&ids, "hash-app", app.id, None, T0 + 2_000);
    app_token.scopes = "read write:statuses".into();
    for t in [&user_token, &app_token] {
        store.insert_token(t).await.expect("insert_token");
    }
    for t in [&user_token, &app_token] {
        let got = store
            .token_by_hash(&t.token_hash)
            .await
            .expect("token_by_hash");
        assert_eq!(
            got.as_ref(),
            Some(t),
            "token_by_hash must return the token exactly as inserted"
        );
    }
    let got = store
        .token_by_hash("hash-unknown")
        .await
        .expect("token_by_hash");
    assert_eq!(got, None, "token_by_hash of an unknown hash must be None");
}

/// `token_with_owner` answers the token as `token_by_hash` does (revoked ones too, unknown ones
/// `None`) and, when it reads the owner with it, exactly the application, account and login the
/// separate reads answer: none of them for an application's own token.
pub async fn token_with_owner_answers_the_token_and_what_it_acts_as(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    add_local(store, &ids, "bob").await;
    let app = add_app(store, &ids, "client-a").await;
    add_app(store, &ids, "client-b").await;
    let user_token = token(&ids, "hash-user", app.id, Some(alice.id), T0 + 1_000);
    let app_token = token(&ids, "hash-app", app.id, None, T0 + 2_000);
    for t in [&user_token, &app_token] {
        store.insert_token(t).await.expect("insert_token");
    }
    store
        .revoke_token("hash-app", at(T0 + 3_000))
        .await
        .expect("revoke_token");
    for hash in ["hash-user", "hash-app"] {
        let found = store
            .token_with_owner(hash)
            .await
            .expect("token_with_owner")
            .unwrap_or_else(|| panic!("token_with_owner must find the token {hash}"));
        assert_eq!(
            Some(&found.token),
            store
                .token_by_hash(hash)
                .await
                .expect("token_by_hash")
                .as_ref(),
            "token_with_owner must answer the token as token_by_hash does, revoked or not"
        );
        let Some(owner) = found.owner else {
            continue;
        };
        assert_eq!(
            owner.app,
            store.app_by_id(app.id).await.expect("app_by_id"),
            "token_with_owner must answer the token's application"
        );
        let (account, user) = match found.token.account_id {
            Some(id) => (
                store.account_by_id(id).await.expect("account_by_id"),
                store
                    .user_by_account_id(id)
                    .await
                    .expect("user_by_account_id"),
            ),
            None => (None, None),
        };
        assert!(
            hash != "hash-user" || (account.is_some() && user.is_some()),
            "alice and her login exist"
        );
        assert_eq!(
            (owner.account, owner.user),
            (account, user),
            "token_with_owner must answer the token's account and login (none for {hash})"
        );
    }
    assert_eq!(
        store
            .token_with_owner("hash-unknown")
            .await
            .expect("token_with_owner"),
        None,
        "token_with_owner of an unknown hash must be None"
    );
}

/// A taken token hash is `AlreadyExists("token")` and the first token is unchanged.
pub async fn duplicate_token_hash_is_already_exists(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let app = add_app(store, &ids, "client-a").await;
    let first = token(&ids, "hash-a", app.id, Some(alice.id), T0 + 1_000);
    store.insert_token(&first).await.expect("insert_token");
    let second = token(&ids, "hash-a", app.id, None, T0 + 2_000);
    assert_already_exists(
        store.insert_token(&second).await,
        "token",
        "insert_token with a taken hash",
    );
    let got = store.token_by_hash("hash-a").await.expect("token_by_hash");
    assert_eq!(
        got.as_ref(),
        Some(&first),
        "a rejected insert_token must not change the existing token"
    );
}

/// `revoke_token` returns true once, sets `revoked_at` (the token is still found), then returns
/// false and keeps the first revocation time; other tokens stay unrevoked.
pub async fn revoke_token_succeeds_once(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let app = add_app(store, &ids, "client-a").await;
    let one = token(&ids, "hash-one", app.id, Some(alice.id), T0 + 1_000);
    let two = token(&ids, "hash-two", app.id, Some(alice.id), T0 + 2_000);
    store.insert_token(&one).await.expect("insert_token");
    store.insert_token(&two).await.expect("insert_token");

    let revoked = store
        .revoke_token("hash-one", at(T0 + 10_000))
        .await
        .expect("revoke_token");
    assert!(
        revoked,
        "revoke_token of an unrevoked token must return true"
    );
    let got = store
        .token_by_hash("hash-one")
        .await
        .expect("token_by_hash");
    let expected = fedblog_core::store::TokenRecord {
        revoked_at: Some(at(T0 + 10_000)),
        ..one.clone()
    };
    assert_eq!(
        got.as_ref(),
        Some(&expected),
        "a revoked token is still found, with revoked_at set to the revocation time"
    );

    let again = store
        .revoke_token("hash-one", at(T0 + 20_000))
        .await
        .expect("revoke_token");
    assert!(
        !again,
        "revoke_token of an already revoked token must return false"
    );
    let got = store
        .token_by_hash("hash-one")
        .await
        .expect("token_by_hash");
    assert_eq!(
        got.as_ref(),
        Some(&expected),
        "revoking again must not move revoked_at"
    );

    let got = store
        .token_by_hash("hash-two")
        .await
        .expect("token_by_hash");
    assert_eq!(
        got.as_ref(),
        Some(&two),
        "revoking one token must not revoke another"
    );
}

/// `revoke_token` of an unknown hash returns false.
pub async fn revoke_unknown_token_is_false(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let app = add_app(store, &ids, "client-a").await;
    let one = token(&ids, "hash-one", app.id, Some(alice.id), T0 + 1_000);
    store.insert_token(&one).await.expect("insert_token");
    let revoked = store
        .revoke_token("hash-unknown", at(T0 + 10_000))
        .await
        .expect("revoke_token");
    assert!(
        !revoked,
        "revoke_token of an unknown hash must return false"
    );
    let got = store
        .token_by_hash("hash-one")
        .await
        .expect("token_by_hash");
    assert_eq!(
        got.as_ref(),
        Some(&one),
        "revoking an unknown hash must not revoke another token"
    );
}

/// An exchanged code is remembered until its end: `take_code_exchange` gives back the token
/// hash it was exchanged for once, only before that end, and only for that code. Without
/// [`Capability::RemembersCodeExchanges`] (the trait's default), the weaker promise: nothing is
/// given back, so a reused code is only refused.
pub async fn code_exchange_is_taken_once_before_its_end(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let until = at(T0 + 60_000);
    for (code, token) in [
        ("code-a", "token-a"),
        ("code-b", "token-b"),
        ("code-old", "token-old"),
    ] {
        let end = if code == "code-old" {
            at(T0 + 1_000)
        } else {
            until
        };
        store
            .record_code_exchange(code, token, at(T0), end)
            .await
            .expect("record_code_exchange");
    }
    let take = |code: &'static str, now: i64| async move {
        store
            .take_code_exchange(code, at(now))
            .await
            .expect("take_code_exchange")
    };
    if !capabilities.has(Capability::RemembersCodeExchanges) {
        assert_eq!(
            take("code-a", T0).await,
            None,
            "a store that remembers no exchange gives none back (or claim RemembersCodeExchanges)"
        );
        return;
    }
    assert_eq!(
        take("code-unknown", T0).await,
        None,
        "an unknown code has no token"
    );
    assert_eq!(
        take("code-old", T0 + 2_000).await,
        None,
        "an exchange is not given back after its end"
    );
    assert_eq!(
        take("code-b", T0 + 2_000).await.as_deref(),
        Some("token-b"),
        "take_code_exchange gives back the token the code was exchanged for"
    );
    assert_eq!(
        take("code-b", T0 + 3_000).await,
        None,
        "an exchange is given back once"
    );
    assert_eq!(
        take("code-a", T0 + 3_000).await.as_deref(),
        Some("token-a"),
        "taking one code's exchange leaves the others"
    );
}

/// A push subscription of `token_id` for `account_id` with `endpoint`. Not stored.
fn push_subscription(
    ids: &IdGenerator,
    token_id: fedblog_core::Id,
    account_id: fedblog_core::Id,
    endpoint: &str,
    millis: i64,
) -> fedblog_core::store::PushSubscriptionRecord {
    fedblog_core::store::PushSubscriptionRecord {
        id: ids.next_at(millis),
        token_id,
        account_id,
        endpoint: endpoint.to_string(),
        key_p256dh: "BOr8s0Vzzq2OxTZxPhY3z1ELMaFHHUz0ZL0S0S9dFz2xgXAlCdcfXP0hsuMzZlFd6T3B6Yyh-CmLcOwhDr7QsVY".into(),
        key_auth: "QrhSZ3EoZNWknAPpGVb_Zw".into(),
        standard: millis % 2 == 0,
        alerts: vec!["mention".into(), "admin.sign_up".into()],
        policy: "followed".into(),
        sealed_token: Some("sealed".into()),
        created_at: at(millis),
        updated_at: at(millis + 1),
    }
}

/// Push subscriptions, one per token: one comes back exactly as stored by its token; storing
/// another for the token replaces it; an account's list leaves out revoked tokens' (revoking
/// a token removes its subscription); a subscription is deleted by id once; and a deleted
/// account's go with it. Without [`Capability::KeepsPushSubscriptions`] the store says it
/// keeps none and finds none.
pub async fn push_subscriptions_are_kept_one_per_live_token(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let app = add_app(store, &ids, "client-a").await;
    let tokens = [
        token(&ids, "push-one", app.id, Some(alice.id), T0 + 1_000),
        token(&ids, "push-two", app.id, Some(alice.id), T0 + 2_000),
        token(&ids, "push-bob", app.id, Some(bob.id), T0 + 3_000),
    ];
    for t in &tokens {
        store.insert_token(t).await.expect("insert_token");
    }
    let first = push_subscription(
        &ids,
        tokens[0].id,
        alice.id,
        "https://push.example/1",
        T0 + 10_000,
    );
    store
        .put_push_subscription(&first)
        .await
        .expect("put_push_subscription");
    let claims = capabilities.has(Capability::KeepsPushSubscriptions);
    assert_eq!(
        store.keeps_push_subscriptions(),
        claims,
        "keeps_push_subscriptions must answer whether the store claims KeepsPushSubscriptions"
    );
    if !claims {
        assert_eq!(
            store
                .push_subscription_of_token(tokens[0].id)
                .await
                .expect("push_subscription_of_token"),
            None,
            "a store that keeps no push subscriptions finds none (or claim KeepsPushSubscriptions)"
        );
        return;
    }
    assert_eq!(
        store
            .push_subscription_of_token(tokens[0].id)
            .await
            .expect("push_subscription_of_token"),
        Some(first.clone()),
        "a push subscription must come back exactly as stored"
    );
    let replacing = push_subscription(
        &ids,
        tokens[0].id,
        alice.id,
        "https://push.example/1b",
        T0 + 11_001,
    );
    let second = push_subscription(
        &ids,
        tokens[1].id,
        alice.id,
        "https://push.example/2",
        T0 + 12_000,
    );
    let bobs = push_subscription(
        &ids,
        tokens[2].id,
        bob.id,
        "https://push.example/b",
        T0 + 13_000,
    );
    for s in [&replacing, &second, &bobs] {
        store
            .put_push_subscription(s)
            .await
            .expect("put_push_subscription");
    }
    assert_eq!(
        store
            .push_subscription_of_token(tokens[0].id)
            .await
            .expect("push_subscription_of_token"),
        Some(replacing.clone()),
        "storing a subscription for a token replaces the one it had"
    );
    let mut of_alice = store
        .push_subscriptions_of_account(alice.id)
        .await
        .expect("push_subscriptions_of_account");
    of_alice.sort_by_key(|s| s.id);
    assert_eq!(
        of_alice,
        vec![replacing.clone(), second.clone()],
        "an account's subscriptions are those of its tokens, one per token"
    );
    store
        .revoke_token("push-two", at(T0 + 20_000))
        .await
        .expect("revoke_token");
    assert_eq!(
        store
            .push_subscriptions_of_account(alice.id)
            .await
            .expect("push_subscriptions_of_account"),
        vec![replacing.clone()],
        "a revoked token's subscription is not listed"
    );
    assert_eq!(
        store
            .push_subscription_of_token(tokens[1].id)
            .await
            .expect("push_subscription_of_token"),
        None,
        "revoking a token removes its push subscription"
    );
    assert!(
        store
            .delete_push_subscription(replacing.id)
            .await
            .expect("delete_push_subscription"),
        "deleting a stored subscription says it was there"
    );
    assert!(
        !store
            .delete_push_subscription(replacing.id)
            .await
            .expect("delete_push_subscription"),
        "deleting it again finds nothing"
    );
    assert_eq!(
        store
            .push_subscriptions_of_account(alice.id)
            .await
            .expect("push_subscriptions_of_account"),
        vec![],
        "a deleted subscription is not listed"
    );
    store.delete_account(bob.id).await.expect("delete_account");
    assert_eq!(
        store
            .push_subscription_of_token(tokens[2].id)
            .await
            .expect("push_subscription_of_token"),
        None,
        "a deleted account's push subscriptions go with it"
    );
}
