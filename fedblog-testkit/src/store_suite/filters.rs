//! Checks of [`FilterStore`](fedblog_core::store::FilterStore): filters with their keywords and
//! statuses, their atomic updates, and their removal with their owner or status.

use fedblog_core::store::{
    FilterAction, FilterContext, FilterKeywordRecord, FilterRecord, FilterStatusRecord,
};
use fedblog_core::{Id, IdGenerator, Store};

use super::{T0, add_local, add_status, assert_already_exists, assert_not_found, at, status};

/// A filter of `account` made at `millis` with these keywords (`(text, whole_word)`). Not
/// inserted.
fn filter(ids: &IdGenerator, account: Id, millis: i64, keywords: &[(&str, bool)]) -> FilterRecord {
    let id = ids.next_at(millis);
    FilterRecord {
        id,
        account_id: account,
        title: format!("filter {id}"),
        context: vec![FilterContext::Home, FilterContext::Public],
        action: FilterAction::Warn,
        expires_at: None,
        created_at: at(millis),
        keywords: keywords
            .iter()
            .map(|(k, w)| keyword(ids, id, millis, k, *w))
            .collect(),
        statuses: vec![],
    }
}

fn keyword(
    ids: &IdGenerator,
    filter: Id,
    millis: i64,
    text: &str,
    whole: bool,
) -> FilterKeywordRecord {
    FilterKeywordRecord {
        id: ids.next_at(millis),
        filter_id: filter,
        keyword: text.to_string(),
        whole_word: whole,
    }
}

async fn add_filter(store: &dyn Store, f: &FilterRecord) {
    store
        .insert_filter(f)
        .await
        .unwrap_or_else(|e| panic!("insert_filter({}) failed: {e:?}", f.id));
}

async fn get_filter(store: &dyn Store, id: Id) -> Option<FilterRecord> {
    store.filter_by_id(id).await.expect("filter_by_id")
}

/// A filter comes back as stored, its keywords in order; a taken filter id or keyword id is
/// `AlreadyExists` naming it, and nothing of that filter is stored.
pub async fn filter_round_trips_with_its_keywords(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let mut f = filter(
        &ids,
        alice,
        T0 + 1_000,
        &[("cats", true), ("@dogs.example", false)],
    );
    f.context = vec![
        FilterContext::Notifications,
        FilterContext::Thread,
        FilterContext::Account,
    ];
    f.action = FilterAction::Hide;
    f.expires_at = Some(at(T0 + 86_400_000));
    add_filter(store, &f).await;
    assert_eq!(
        get_filter(store, f.id).await,
        Some(f.clone()),
        "filter_by_id must answer the filter as inserted, with its keywords in order"
    );
    let mut again = filter(&ids, alice, T0 + 2_000, &[]);
    again.id = f.id;
    assert_already_exists(
        store.insert_filter(&again).await,
        "filter",
        "insert_filter of a taken id",
    );
    let mut clash = filter(&ids, alice, T0 + 3_000, &[("new", true)]);
    clash.keywords.push(FilterKeywordRecord {
        filter_id: clash.id,
        ..f.keywords[0].clone()
    });
    assert_already_exists(
        store.insert_filter(&clash).await,
        "filter_keyword",
        "insert_filter with a taken keyword id",
    );
    assert_eq!(
        get_filter(store, clash.id).await,
        None,
        "insert_filter must store nothing when a keyword id is taken"
    );
    assert_eq!(
        store
            .filter_keyword_by_id(clash.keywords[0].id)
            .await
            .expect("filter_keyword_by_id"),
        None,
        "insert_filter must store none of the keywords when one id is taken"
    );
}

/// `filters_of` lists an account's filters oldest first, expired ones too, and no one else's;
/// lookups of unknown filters, keywords and filter statuses are `None`.
pub async fn filters_of_lists_oldest_first_and_unknown_are_none(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let first = filter(&ids, alice, T0 + 1_000, &[("a", true)]);
    let mut second = filter(&ids, alice, T0 + 2_000, &[]);
    second.expires_at = Some(at(T0));
    let others = filter(&ids, bob, T0 + 3_000, &[("b", false)]);
    for f in [&second, &first, &others] {
        add_filter(store, f).await;
    }
    assert_eq!(
        store.filters_of(alice).await.expect("filters_of"),
        vec![first.clone(), second.clone()],
        "filters_of must list the account's filters oldest first, expired ones too"
    );
    assert_eq!(
        store.filters_of(bob).await.expect("filters_of"),
        vec![others],
        "filters_of is per account"
    );
    let unknown = ids.next_at(T0 + 9_000);
    assert_eq!(get_filter(store, unknown).await, None);
    assert_eq!(
        store.filter_keyword_by_id(unknown).await.expect("keyword"),
        None,
        "an unknown keyword is None"
    );
    assert_eq!(
        store.filter_status_by_id(unknown).await.expect("status"),
        None,
        "an unknown filter status is None"
    );
}

/// `update_filter` replaces the settings and removes, changes and adds keywords in one go; naming
/// a keyword of another filter is `NotFound` and changes nothing; so is an unknown filter.
pub async fn update_filter_changes_settings_and_keywords_all_or_nothing(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let f = filter(
        &ids,
        alice,
        T0 + 1_000,
        &[("one", true), ("two", true), ("three", false)],
    );
    let other = filter(&ids, alice, T0 + 2_000, &[("elsewhere", true)]);
    add_filter(store, &f).await;
    add_filter(store, &other).await;
    let mut settings = FilterRecord {
        title: "renamed".into(),
        context: vec![FilterContext::Thread],
        action: FilterAction::Blur,
        expires_at: Some(at(T0 + 50_000)),
        ..f.clone()
    };
    let foreign = FilterKeywordRecord {
        keyword: "stolen".into(),
        ..other.keywords[0].clone()
    };
    assert_not_found(
        store.update_filter(&settings, &[], &[foreign], &[]).await,
        "update_filter changing another filter's keyword",
    );
    assert_not_found(
        store
            .update_filter(&settings, &[], &[], &[other.keywords[0].id])
            .await,
        "update_filter removing another filter's keyword",
    );
    assert_eq!(
        get_filter(store, f.id).await,
        Some(f.clone()),
        "a refused update_filter must change nothing"
    );
    let changed = FilterKeywordRecord {
        keyword: "TWO".into(),
        whole_word: false,
        ..f.keywords[1].clone()
    };
    let added = keyword(&ids, f.id, T0 + 3_000, "four", true);
    store
        .update_filter(
            &settings,
            std::slice::from_ref(&added),
            std::slice::from_ref(&changed),
            &[f.keywords[0].id],
        )
        .await
        .expect("update_filter");
    settings.keywords = vec![changed, f.keywords[2].clone(), added];
    assert_eq!(
        get_filter(store, f.id).await,
        Some(settings.clone()),
        "update_filter must replace the settings and remove, change and add the keywords"
    );
    assert_eq!(
        get_filter(store, other.id).await,
        Some(other),
        "update_filter must leave other filters alone"
    );
    let unknown = FilterRecord {
        id: ids.next_at(T0 + 9_000),
        ..settings
    };
    assert_not_found(
        store.update_filter(&unknown, &[], &[], &[]).await,
        "update_filter of an unknown filter",
    );
}

/// `delete_filter` removes a filter with its keywords and statuses, and says whether it existed.
pub async fn delete_filter_removes_its_keywords_and_statuses(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice_account = add_local(store, &ids, "alice").await;
    let alice = alice_account.id;
    let s = add_status(store, status(&ids, &alice_account, T0 + 500)).await;
    let f = filter(&ids, alice, T0 + 1_000, &[("gone", true)]);
    let kept = filter(&ids, alice, T0 + 2_000, &[("kept", true)]);
    add_filter(store, &f).await;
    add_filter(store, &kept).await;
    let fs = FilterStatusRecord {
        id: ids.next_at(T0 + 3_000),
        filter_id: f.id,
        status_id: s.id,
    };
    store
        .insert_filter_status(&fs)
        .await
        .expect("insert_filter_status");
    assert!(store.delete_filter(f.id).await.expect("delete_filter"));
    assert_eq!(get_filter(store, f.id).await, None, "the filter is gone");
    assert_eq!(
        store
            .filter_keyword_by_id(f.keywords[0].id)
            .await
            .expect("keyword"),
        None,
        "delete_filter must remove the filter's keywords"
    );
    assert_eq!(
        store.filter_status_by_id(fs.id).await.expect("status"),
        None,
        "delete_filter must remove the filter's statuses"
    );
    assert_eq!(
        get_filter(store, kept.id).await,
        Some(kept),
        "delete_filter must keep other filters"
    );
    assert!(
        !store.delete_filter(f.id).await.expect("delete_filter"),
        "deleting a deleted filter must return false"
    );
}

/// Keywords one at a time: added to an existing filter only (`NotFound` otherwise, a taken id
/// `AlreadyExists`), changed and removed, each saying whether the keyword existed.
pub async fn filter_keywords_one_at_a_time(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let f = filter(&ids, alice, T0 + 1_000, &[("first", true)]);
    add_filter(store, &f).await;
    let k = keyword(&ids, f.id, T0 + 2_000, "second", false);
    store
        .insert_filter_keyword(&k)
        .await
        .expect("insert_filter_keyword");
    assert_eq!(
        store.filter_keyword_by_id(k.id).await.expect("keyword"),
        Some(k.clone())
    );
    assert_eq!(
        get_filter(store, f.id).await.map(|f| f.keywords.len()),
        Some(2),
        "an added keyword belongs to its filter"
    );
    assert_already_exists(
        store.insert_filter_keyword(&k).await,
        "filter_keyword",
        "insert_filter_keyword of a taken id",
    );
    let orphan = keyword(&ids, ids.next_at(T0 + 3_000), T0 + 3_000, "orphan", true);
    assert_not_found(
        store.insert_filter_keyword(&orphan).await,
        "insert_filter_keyword into an unknown filter",
    );
    let changed = FilterKeywordRecord {
        keyword: "2nd".into(),
        whole_word: true,
        ..k.clone()
    };
    assert!(
        store
            .update_filter_keyword(&changed)
            .await
            .expect("update_filter_keyword"),
        "update_filter_keyword of a keyword must return true"
    );
    assert_eq!(
        store.filter_keyword_by_id(k.id).await.expect("keyword"),
        Some(changed),
        "update_filter_keyword must replace the text and whole_word"
    );
    assert!(store.delete_filter_keyword(k.id).await.expect("delete"));
    assert!(
        !store.delete_filter_keyword(k.id).await.expect("delete"),
        "deleting a deleted keyword must return false"
    );
    assert!(
        !store
            .update_filter_keyword(&orphan)
            .await
            .expect("update_filter_keyword"),
        "update_filter_keyword of an unknown keyword must return false"
    );
}

/// A filter holds a status once (`AlreadyExists("filter_status")` the second time, also under a
/// new id), another filter may hold it too; a filter status needs its filter (`NotFound`).
pub async fn filter_statuses_once_per_filter(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice_account = add_local(store, &ids, "alice").await;
    let alice = alice_account.id;
    let s = add_status(store, status(&ids, &alice_account, T0 + 500)).await;
    let f = filter(&ids, alice, T0 + 1_000, &[]);
    let g = filter(&ids, alice, T0 + 1_500, &[]);
    add_filter(store, &f).await;
    add_filter(store, &g).await;
    let fs = FilterStatusRecord {
        id: ids.next_at(T0 + 2_000),
        filter_id: f.id,
        status_id: s.id,
    };
    store
        .insert_filter_status(&fs)
        .await
        .expect("insert_filter_status");
    assert_eq!(
        store.filter_status_by_id(fs.id).await.expect("status"),
        Some(fs.clone())
    );
    assert_eq!(
        get_filter(store, f.id).await.map(|f| f.statuses),
        Some(vec![fs.clone()]),
        "a filter lists its statuses"
    );
    let twice = FilterStatusRecord {
        id: ids.next_at(T0 + 3_000),
        ..fs.clone()
    };
    assert_already_exists(
        store.insert_filter_status(&twice).await,
        "filter_status",
        "insert_filter_status of a status the filter has",
    );
    let in_g = FilterStatusRecord {
        id: ids.next_at(T0 + 4_000),
        filter_id: g.id,
        status_id: s.id,
    };
    store
        .insert_filter_status(&in_g)
        .await
        .expect("another filter may hold the status too");
    let orphan = FilterStatusRecord {
        id: ids.next_at(T0 + 5_000),
        filter_id: ids.next_at(T0 + 5_000),
        status_id: s.id,
    };
    assert_not_found(
        store.insert_filter_status(&orphan).await,
        "insert_filter_status into an unknown filter",
    );
    assert!(store.delete_filter_status(fs.id).await.expect("delete"));
    assert!(
        !store.delete_filter_status(fs.id).await.expect("delete"),
        "deleting a deleted filter status must return false"
    );
}

/// Deleting a status removes the filter statuses naming it; deleting an account removes its
/// filters with their keywords and statuses, and keeps other accounts' filters.
pub async fn filters_go_with_their_status_and_account(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice_account = add_local(store, &ids, "alice").await;
    let bob_account = add_local(store, &ids, "bob").await;
    let (alice, bob) = (alice_account.id, bob_account.id);
    let s1 = add_status(store, status(&ids, &bob_account, T0 + 500)).await;
    let s2 = add_status(store, status(&ids, &bob_account, T0 + 600)).await;
    let f = filter(&ids, alice, T0 + 1_000, &[("word", true)]);
    let g = filter(&ids, bob, T0 + 1_500, &[("other", true)]);
    add_filter(store, &f).await;
    add_filter(store, &g).await;
    let on = |id, filter_id, status_id| FilterStatusRecord {
        id,
        filter_id,
        status_id,
    };
    let fs1 = on(ids.next_at(T0 + 2_000), f.id, s1.id);
    let fs2 = on(ids.next_at(T0 + 2_100), f.id, s2.id);
    for fs in [&fs1, &fs2] {
        store
            .insert_filter_status(fs)
            .await
            .expect("insert_filter_status");
    }
    store.delete_status(s1.id).await.expect("delete_status");
    assert_eq!(
        get_filter(store, f.id).await.map(|f| f.statuses),
        Some(vec![fs2.clone()]),
        "delete_status must remove the filter statuses naming the status, only those"
    );
    store.delete_account(alice).await.expect("delete_account");
    assert_eq!(
        store.filters_of(alice).await.expect("filters_of"),
        vec![],
        "delete_account must remove the account's filters"
    );
    assert_eq!(get_filter(store, f.id).await, None);
    assert_eq!(
        store.filter_status_by_id(fs2.id).await.expect("status"),
        None,
        "delete_account must remove its filters' statuses"
    );
    assert_eq!(
        store
            .filter_keyword_by_id(f.keywords[0].id)
            .await
            .expect("keyword"),
        None,
        "delete_account must remove its filters' keywords"
    );
    assert_eq!(
        store.filters_of(bob).await.expect("filters_of"),
        vec![g],
        "delete_account must keep other accounts' filters"
    );
    assert!(
        matches!(store.delete_filter(f.id).await, Ok(false)),
        "the deleted account's filter is gone"
    );
}
