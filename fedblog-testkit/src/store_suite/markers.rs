//! Checks of [`MarkerStore`](fedblog_core::store::MarkerStore): read positions round-tripping,
//! saved by compare-and-set on their version (1 first, then one more than the stored one),
//! listed per account and timeline, and removed with their account.

use fedblog_core::store::MarkerRecord;
use fedblog_core::{Id, IdGenerator, Store};

use super::{T0, add_local, at};

/// A marker of `account` on `timeline` at `last_read_id`, of `version`, saved at `millis`.
fn marker(
    account: Id,
    timeline: &str,
    last_read_id: Id,
    version: i64,
    millis: i64,
) -> MarkerRecord {
    MarkerRecord {
        account_id: account,
        timeline: timeline.to_string(),
        last_read_id,
        version,
        updated_at: at(millis),
    }
}

/// `save_marker`'s answer.
async fn save(store: &dyn Store, m: &MarkerRecord) -> bool {
    store.save_marker(m).await.unwrap_or_else(|e| {
        panic!(
            "save_marker({} {:?} version {}) failed: {e:?}",
            m.account_id, m.timeline, m.version
        )
    })
}

/// Saves a marker that must be saved.
async fn saved(store: &dyn Store, m: &MarkerRecord) {
    assert!(
        save(store, m).await,
        "save_marker of {:?} version {} must save it (version 1 with none stored, or one more \
         than the stored version)",
        m.timeline,
        m.version
    );
}

/// `account`'s markers among `timelines`, sorted by timeline.
async fn markers_of(store: &dyn Store, account: Id, timelines: &[&str]) -> Vec<MarkerRecord> {
    let timelines: Vec<String> = timelines.iter().map(|t| t.to_string()).collect();
    let mut got = store
        .markers(account, &timelines)
        .await
        .unwrap_or_else(|e| panic!("markers({account}, {timelines:?}) failed: {e:?}"));
    got.sort_by(|a, b| a.timeline.cmp(&b.timeline));
    got
}

/// A marker comes back exactly as saved: account, timeline, `last_read_id`, `version` and
/// `updated_at` to the millisecond, the first one and the one saved over it.
pub async fn marker_round_trips_with_every_field(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let home = marker(alice.id, "home", ids.next_at(T0 + 1_000), 1, T0 + 1_234);
    let notes = marker(
        alice.id,
        "notifications",
        ids.next_at(T0 + 2_000),
        1,
        T0 + 2_345,
    );
    saved(store, &home).await;
    saved(store, &notes).await;
    assert_eq!(
        markers_of(store, alice.id, &["home", "notifications"]).await,
        vec![home.clone(), notes.clone()],
        "markers must return the markers as saved (last_read_id, version, updated_at to the \
         millisecond)"
    );
    let later = marker(alice.id, "home", ids.next_at(T0 + 5_000), 2, T0 + 5_678);
    saved(store, &later).await;
    assert_eq!(
        markers_of(store, alice.id, &["home", "notifications"]).await,
        vec![later, notes],
        "a marker saved over another must replace last_read_id, version and updated_at"
    );
}

/// The first marker of a timeline is saved only as version 1: a later version with none stored
/// is refused (false, nothing stored), and once one is stored a second version 1 is refused and
/// the stored one stays.
pub async fn first_marker_needs_version_one(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let early = marker(alice.id, "home", ids.next_at(T0 + 1_000), 2, T0 + 1_000);
    assert!(
        !save(store, &early).await,
        "save_marker of version 2 with no marker stored must return false"
    );
    assert_eq!(
        markers_of(store, alice.id, &["home"]).await,
        vec![],
        "a refused first marker must not be stored"
    );
    let first = marker(alice.id, "home", ids.next_at(T0 + 2_000), 1, T0 + 2_000);
    saved(store, &first).await;
    let again = marker(alice.id, "home", ids.next_at(T0 + 3_000), 1, T0 + 3_000);
    assert!(
        !save(store, &again).await,
        "save_marker of version 1 over a stored marker must return false (another first write \
         came first)"
    );
    assert_eq!(
        markers_of(store, alice.id, &["home"]).await,
        vec![first],
        "a refused version 1 must leave the stored marker as it was"
    );
}

/// Over a stored marker only the next version (stored + 1) is saved: a version further ahead or
/// a stale one (the stored version again, or older) is refused and the stored marker stays.
/// Each timeline counts its own versions.
pub async fn later_marker_needs_the_stored_version_plus_one(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let m =
        |version: i64, millis: i64| marker(alice.id, "home", ids.next_at(millis), version, millis);
    let v1 = m(1, T0 + 1_000);
    saved(store, &v1).await;
    let alice_id = alice.id;
    let home = || async move { markers_of(store, alice_id, &["home"]).await };
    assert!(
        !save(store, &m(3, T0 + 2_000)).await,
        "save_marker of version 3 over version 1 must return false (it skips a version)"
    );
    assert_eq!(
        home().await,
        vec![v1.clone()],
        "a refused marker must leave the stored one as it was"
    );
    let v2 = m(2, T0 + 3_000);
    saved(store, &v2).await;
    assert_eq!(
        home().await,
        vec![v2.clone()],
        "version 2 over version 1 must be stored"
    );
    for (version, millis) in [(2, T0 + 4_000), (1, T0 + 5_000)] {
        assert!(
            !save(store, &m(version, millis)).await,
            "save_marker of stale version {version} over version 2 must return false"
        );
    }
    assert_eq!(
        home().await,
        vec![v2],
        "a refused stale marker must leave the stored one as it was"
    );
    let notes = marker(
        alice.id,
        "notifications",
        ids.next_at(T0 + 6_000),
        1,
        T0 + 6_000,
    );
    saved(store, &notes).await;
    let v3 = m(3, T0 + 7_000);
    saved(store, &v3).await;
    assert_eq!(
        markers_of(store, alice.id, &["home", "notifications"]).await,
        vec![v3, notes],
        "each timeline must count its own versions"
    );
}

/// `markers` lists only the asking account's markers, of the timelines asked (those it has).
pub async fn markers_lists_only_the_accounts_markers_of_the_timelines_asked(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let a_home = marker(alice.id, "home", ids.next_at(T0 + 1_000), 1, T0 + 1_000);
    let a_notes = marker(
        alice.id,
        "notifications",
        ids.next_at(T0 + 2_000),
        1,
        T0 + 2_000,
    );
    let b_home = marker(bob.id, "home", ids.next_at(T0 + 3_000), 1, T0 + 3_000);
    for m in [&a_home, &a_notes, &b_home] {
        saved(store, m).await;
    }
    let cases: Vec<(&str, Id, &[&str], Vec<MarkerRecord>)> = vec![
        ("alice, home", alice.id, &["home"], vec![a_home.clone()]),
        (
            "alice, notifications",
            alice.id,
            &["notifications"],
            vec![a_notes.clone()],
        ),
        (
            "alice, both",
            alice.id,
            &["home", "notifications"],
            vec![a_home.clone(), a_notes.clone()],
        ),
        ("alice, none asked", alice.id, &[], vec![]),
        (
            "bob, both (he has home only)",
            bob.id,
            &["home", "notifications"],
            vec![b_home.clone()],
        ),
        ("bob, notifications", bob.id, &["notifications"], vec![]),
        (
            "carol, both (none)",
            carol.id,
            &["home", "notifications"],
            vec![],
        ),
    ];
    let mut failures = vec![];
    for (label, account, timelines, expected) in cases {
        let got = markers_of(store, account, timelines).await;
        if got != expected {
            failures.push(format!("  {label}: expected {expected:?}, got {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "markers must return the account's own markers of the timelines asked, and no others:\n{}",
        failures.join("\n")
    );
}

/// `delete_account` removes the account's markers; other accounts keep theirs.
pub async fn delete_account_removes_its_markers(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let a_home = marker(alice.id, "home", ids.next_at(T0 + 1_000), 1, T0 + 1_000);
    let a_notes = marker(
        alice.id,
        "notifications",
        ids.next_at(T0 + 2_000),
        1,
        T0 + 2_000,
    );
    let b_home = marker(bob.id, "home", ids.next_at(T0 + 3_000), 1, T0 + 3_000);
    for m in [&a_home, &a_notes, &b_home] {
        saved(store, m).await;
    }
    store
        .delete_account(alice.id)
        .await
        .expect("delete_account");
    assert_eq!(
        markers_of(store, alice.id, &["home", "notifications"]).await,
        vec![],
        "delete_account must remove the account's markers"
    );
    assert_eq!(
        markers_of(store, bob.id, &["home", "notifications"]).await,
        vec![b_home],
        "delete_account must keep other accounts' markers"
    );
}
