//! Checks of [`StatsStore`](fedblog_core::store::StatsStore): the figures of the instance
//! endpoints.

use fedblog_core::store::WeekActivity;
use fedblog_core::{IdGenerator, Store};

use super::{
    T0, add_app, add_local, add_remote, add_status, at, get_account, local_account, remote_account,
    status, token,
};

/// Start of the `[FROM, TO)` window of the activity checks.
const FROM: i64 = T0 + 10_000;
/// End (excluded) of the activity window.
const TO: i64 = T0 + 20_000;

async fn activity(store: &dyn Store) -> WeekActivity {
    store
        .activity_between(at(FROM), at(TO))
        .await
        .expect("activity_between")
}

/// `count_local_accounts` counts local accounts that are not suspended: not remote ones, not
/// suspended ones (again once the suspension is lifted).
pub async fn count_local_accounts_excludes_remote_and_suspended(store: &dyn Store) {
    let ids = IdGenerator::default();
    assert_eq!(
        store
            .count_local_accounts()
            .await
            .expect("count_local_accounts"),
        0,
        "an empty store has no local accounts"
    );
    add_local(store, &ids, "alice").await;
    add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    add_remote(store, &ids, "dave", "remote.example").await;
    add_remote(store, &ids, "erin", "other.example").await;
    assert_eq!(
        store
            .count_local_accounts()
            .await
            .expect("count_local_accounts"),
        3,
        "count_local_accounts must count local accounts and no remote ones"
    );
    let mut suspended = get_account(store, carol.id).await;
    suspended.suspended_at = Some(at(T0 + 1_000));
    store
        .update_account(&suspended)
        .await
        .expect("update_account");
    assert_eq!(
        store
            .count_local_accounts()
            .await
            .expect("count_local_accounts"),
        2,
        "count_local_accounts must not count suspended accounts"
    );
    suspended.suspended_at = None;
    store
        .update_account(&suspended)
        .await
        .expect("update_account");
    assert_eq!(
        store
            .count_local_accounts()
            .await
            .expect("count_local_accounts"),
        3,
        "count_local_accounts must count an account again once its suspension is lifted"
    );
}

/// `count_active_local_accounts` counts local accounts with a status at or after `since`, each
/// once, and no remote authors.
pub async fn count_active_local_accounts_counts_authors_since(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    add_local(store, &ids, "carol").await;
    let remote = add_remote(store, &ids, "dave", "remote.example").await;
    add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    add_status(store, status(&ids, &bob, T0 + 5_000)).await;
    add_status(store, status(&ids, &bob, T0 + 6_000)).await;
    add_status(store, status(&ids, &remote, T0 + 8_000)).await;
    let cases = [
        (T0, 2),
        (T0 + 2_000, 2),
        (T0 + 2_001, 1),
        (T0 + 6_000, 1),
        (T0 + 6_001, 0),
        (T0 + 9_000, 0),
    ];
    for (since, expected) in cases {
        assert_eq!(
            store
                .count_active_local_accounts(at(since))
                .await
                .expect("count_active_local_accounts"),
            expected,
            "count_active_local_accounts(T0+{}ms) must count each local account with a status at or after `since` once, \
             and no remote account",
            since - T0
        );
    }
}

/// `count_local_statuses` counts local statuses, not remote ones, and follows deletions.
pub async fn count_local_statuses_excludes_remote(store: &dyn Store) {
    let ids = IdGenerator::default();
    assert_eq!(
        store
            .count_local_statuses()
            .await
            .expect("count_local_statuses"),
        0,
        "an empty store has no local statuses"
    );
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let l1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let mut remote = vec![];
    for i in 0..3 {
        remote.push(add_status(store, status(&ids, &bob, T0 + 3_000 + i * 1_000)).await);
    }
    assert_eq!(
        store
            .count_local_statuses()
            .await
            .expect("count_local_statuses"),
        2,
        "count_local_statuses must count local statuses and no remote ones"
    );
    store.delete_status(l1.id).await.expect("delete_status");
    store
        .delete_status(remote[0].id)
        .await
        .expect("delete_status");
    assert_eq!(
        store
            .count_local_statuses()
            .await
            .expect("count_local_statuses"),
        1,
        "count_local_statuses must not count deleted statuses"
    );
}

/// `known_domains` lists the domains of remote accounts once each, lowercased and sorted.
pub async fn known_domains_sorted_deduplicated_lowercased(store: &dyn Store) {
    let ids = IdGenerator::default();
    assert_eq!(
        store.known_domains().await.expect("known_domains"),
        Vec::<String>::new(),
        "an empty store knows no domains"
    );
    add_local(store, &ids, "alice").await;
    for (username, domain) in [
        ("x", "b.example"),
        ("y", "A.Example"),
        ("z", "a.example"),
        ("w", "c.example"),
        ("v", "b.example"),
    ] {
        add_remote(store, &ids, username, domain).await;
    }
    assert_eq!(
        store.known_domains().await.expect("known_domains"),
        vec![
            "a.example".to_string(),
            "b.example".into(),
            "c.example".into()
        ],
        "known_domains must list the remote accounts' domains once each, lowercased, sorted"
    );
}

/// `activity_between` counts local statuses created in `[from, to)`: not remote ones, not ones
/// at `to`.
pub async fn activity_between_counts_local_statuses(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    for millis in [FROM - 1, FROM, FROM + 5_000, TO - 1, TO] {
        add_status(store, status(&ids, &alice, millis)).await;
    }
    add_status(store, status(&ids, &bob, FROM + 1_000)).await;
    assert_eq!(
        activity(store).await,
        WeekActivity {
            statuses: 3,
            logins: 0,
            registrations: 0
        },
        "activity_between must count the local statuses created in [from, to) (not remote ones, not at `to`)"
    );
}

/// `activity_between` counts logins, i.e. user tokens issued in `[from, to)`: not app tokens
/// without an account, not tokens issued at `to`.
pub async fn activity_between_counts_user_logins(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let app = add_app(store, &ids, "client-a").await;
    for (i, millis) in [FROM - 1, FROM, TO - 1, TO].into_iter().enumerate() {
        store
            .insert_token(&token(
                &ids,
                &format!("hash-{i}"),
                app.id,
                Some(alice.id),
                millis,
            ))
            .await
            .expect("insert_token");
    }
    store
        .insert_token(&token(&ids, "hash-app", app.id, None, FROM + 1_000))
        .await
        .expect("insert_token");
    assert_eq!(
        activity(store).await,
        WeekActivity {
            statuses: 0,
            logins: 2,
            registrations: 0
        },
        "activity_between must count the user tokens (with an account) created in [from, to) as logins"
    );
}

/// `activity_between` counts registrations, i.e. local accounts created in `[from, to)`: not
/// remote accounts, not ones created at `to`.
pub async fn activity_between_counts_registrations(store: &dyn Store) {
    let ids = IdGenerator::default();
    for (i, millis) in [FROM - 1, FROM, FROM + 5_000, TO - 1, TO]
        .into_iter()
        .enumerate()
    {
        let (mut account, mut user) = local_account(&ids, &format!("user{i}"));
        account.created_at = at(millis);
        account.updated_at = at(millis);
        user.created_at = at(millis);
        store
            .insert_local_account(&account, &user)
            .await
            .expect("insert_local_account");
    }
    let mut remote = remote_account(&ids, "bob", "remote.example");
    remote.created_at = at(FROM + 1_000);
    remote.updated_at = at(FROM + 1_000);
    store
        .insert_remote_account(&remote)
        .await
        .expect("insert_remote_account");
    assert_eq!(
        activity(store).await,
        WeekActivity {
            statuses: 0,
            logins: 0,
            registrations: 3
        },
        "activity_between must count the local accounts created in [from, to) as registrations (not remote ones)"
    );
}
