//! Checks of [`FeedStore`](fedblog_core::store::FeedStore): materialised home feeds.

use fedblog_core::pagination::Page;
use fedblog_core::{Id, IdGenerator, Store};

use fedblog_core::store::{Feed, ListRecord, RepliesPolicy};

use super::{Cursor, T0, add_local, add_status, assert_pages, reblog, status};

async fn feed(store: &dyn Store, account: Id) -> Vec<Id> {
    store
        .home_feed(account, Page::first(40))
        .await
        .expect("home_feed")
}

/// The home feed lists its status ids newest first, whatever the order they were inserted in.
pub async fn home_feed_lists_entries_newest_first(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let s3 = add_status(store, status(&ids, &alice, T0 + 3_000)).await;
    for s in [&s2, &s3, &s1] {
        store
            .insert_feed_entries(s.id, s.account_id, &[bob.id])
            .await
            .expect("insert_feed_entries");
    }
    assert_eq!(
        feed(store, bob.id).await,
        vec![s3.id, s2.id, s1.id],
        "home_feed must list status ids newest first (by id), not in insertion order"
    );
}

/// Inserting an entry again, or an account twice in one batch, succeeds and does not repeat it.
pub async fn insert_feed_entries_is_idempotent(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    store
        .insert_feed_entries(s1.id, alice.id, &[bob.id])
        .await
        .expect("insert_feed_entries");
    store
        .insert_feed_entries(s1.id, alice.id, &[bob.id, alice.id])
        .await
        .expect(
            "insert_feed_entries is idempotent: inserting an existing entry again must succeed",
        );
    assert_eq!(
        feed(store, bob.id).await,
        vec![s1.id],
        "a repeated insert_feed_entries must not repeat the entry"
    );
    store
        .insert_feed_entries(s2.id, alice.id, &[bob.id, bob.id])
        .await
        .expect("insert_feed_entries is idempotent: an account twice in one batch must succeed");
    assert_eq!(
        feed(store, bob.id).await,
        vec![s2.id, s1.id],
        "an account twice in one batch must get the entry once"
    );
    assert_eq!(
        feed(store, alice.id).await,
        vec![s1.id],
        "each account of a batch gets the entry"
    );
}

/// One batch fans a status out to many home feeds.
pub async fn insert_feed_entries_fans_out_to_many_accounts(store: &dyn Store) {
    let ids = IdGenerator::default();
    let author = add_local(store, &ids, "author").await;
    let mut readers = vec![];
    for i in 0..150 {
        readers.push(add_local(store, &ids, &format!("reader{i}")).await.id);
    }
    let s1 = add_status(store, status(&ids, &author, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &author, T0 + 2_000)).await;
    store
        .insert_feed_entries(s1.id, author.id, &readers)
        .await
        .expect("insert_feed_entries");
    store
        .insert_feed_entries(s2.id, author.id, &readers[..75])
        .await
        .expect("insert_feed_entries");
    for (i, reader) in readers.iter().enumerate() {
        let expected = if i < 75 {
            vec![s2.id, s1.id]
        } else {
            vec![s1.id]
        };
        assert_eq!(
            feed(store, *reader).await,
            expected,
            "insert_feed_entries must insert the status into the home feed of every account of the batch (reader{i})"
        );
    }
    assert_eq!(
        feed(store, author.id).await,
        vec![],
        "insert_feed_entries must not touch accounts outside the batch"
    );
}

/// A batch of no accounts succeeds and inserts nothing.
pub async fn insert_feed_entries_with_no_accounts_is_a_no_op(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    store
        .insert_feed_entries(s1.id, alice.id, &[])
        .await
        .expect("insert_feed_entries with no accounts must succeed");
    assert_eq!(
        feed(store, alice.id).await,
        vec![],
        "insert_feed_entries with no accounts must insert nothing"
    );
}

/// Each account sees only the entries inserted for it; an account without entries has an
/// empty feed.
pub async fn home_feed_is_per_account(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let s3 = add_status(store, status(&ids, &alice, T0 + 3_000)).await;
    store
        .insert_feed_entries(s1.id, alice.id, &[alice.id])
        .await
        .expect("insert_feed_entries");
    store
        .insert_feed_entries(s2.id, bob.id, &[bob.id])
        .await
        .expect("insert_feed_entries");
    store
        .insert_feed_entries(s3.id, alice.id, &[alice.id, bob.id])
        .await
        .expect("insert_feed_entries");
    assert_eq!(
        feed(store, alice.id).await,
        vec![s3.id, s1.id],
        "home_feed must list the account's own entries only"
    );
    assert_eq!(
        feed(store, bob.id).await,
        vec![s3.id, s2.id],
        "home_feed must list the account's own entries only"
    );
    assert_eq!(
        feed(store, carol.id).await,
        vec![],
        "home_feed of an account without entries must be empty"
    );
}

/// Ten statuses by one author, one second apart, in a reader's feed (inserted newest first);
/// another reader gets every other one, so pages must stay per account.
async fn feed_pages(store: &dyn Store, kind: Cursor) {
    let ids = IdGenerator::default();
    let author = add_local(store, &ids, "author").await;
    let reader = add_local(store, &ids, "reader").await;
    let other = add_local(store, &ids, "other").await;
    let mut s = vec![];
    for i in 0..10 {
        s.push(
            add_status(store, status(&ids, &author, T0 + 1_000 * (i + 1)))
                .await
                .id,
        );
    }
    for (i, id) in s.iter().enumerate().rev() {
        let readers = if i % 2 == 0 {
            vec![reader.id, other.id]
        } else {
            vec![reader.id]
        };
        store
            .insert_feed_entries(*id, author.id, &readers)
            .await
            .expect("insert_feed_entries");
    }
    let extra = add_status(store, status(&ids, &author, T0 + 20_000)).await;
    store
        .insert_feed_entries(extra.id, author.id, &[other.id])
        .await
        .expect("insert_feed_entries");
    let reader = reader.id;
    let read = |page: Page| async move { store.home_feed(reader, page).await.expect("home_feed") };
    assert_pages("home_feed", kind, &s, read).await;
}

/// Home feed pages honour `limit`: the newest entries first.
pub async fn home_feed_page_limit(store: &dyn Store) {
    feed_pages(store, Cursor::Limit).await;
}

/// Home feed pages honour `max_id`: entries strictly older, newest first.
pub async fn home_feed_page_max_id(store: &dyn Store) {
    feed_pages(store, Cursor::MaxId).await;
}

/// Home feed pages honour `since_id`: the newest entries strictly newer than it.
pub async fn home_feed_page_since_id(store: &dyn Store) {
    feed_pages(store, Cursor::SinceId).await;
}

/// Home feed pages honour `min_id`: the entries immediately newer than it, newest first.
pub async fn home_feed_page_min_id(store: &dyn Store) {
    feed_pages(store, Cursor::MinId).await;
}

/// Home feed pages honour `max_id` together with `since_id` or `min_id`.
pub async fn home_feed_page_combined_cursors(store: &dyn Store) {
    feed_pages(store, Cursor::Combined).await;
}

/// Home feed cursors need not be ids of entries: they are compared as ids.
pub async fn home_feed_page_absent_cursors(store: &dyn Store) {
    feed_pages(store, Cursor::Absent).await;
}

/// `backfill_feed` puts several statuses into one home or list feed in one call, idempotently,
/// and into that feed only.
pub async fn backfill_feed_fills_one_feed(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let list = ListRecord {
        id: ids.next_at(T0),
        account_id: alice.id,
        title: "l".into(),
        replies_policy: RepliesPolicy::List,
        exclusive: false,
    };
    store.insert_list(&list).await.expect("insert_list");
    let s1 = add_status(store, status(&ids, &bob, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let entries = [(s2.id, bob.id), (s1.id, bob.id)];
    store
        .backfill_feed(Feed::Home(alice.id), &entries)
        .await
        .expect("backfill_feed");
    store
        .backfill_feed(Feed::Home(alice.id), &entries[..1])
        .await
        .expect("backfill_feed is idempotent: existing entries again must succeed");
    store
        .backfill_feed(Feed::List(list.id), &entries[1..])
        .await
        .expect("backfill_feed");
    store
        .backfill_feed(Feed::Home(carol.id), &[])
        .await
        .expect("backfill_feed with no entries must succeed");
    assert_eq!(
        feed(store, alice.id).await,
        vec![s2.id, s1.id],
        "backfill_feed(Home) must insert every entry into that home feed, once"
    );
    assert_eq!(
        store
            .list_feed(list.id, Page::first(40))
            .await
            .expect("list_feed"),
        vec![s1.id],
        "backfill_feed(List) must insert its entries into that list's feed"
    );
    assert!(
        feed(store, bob.id).await.is_empty() && feed(store, carol.id).await.is_empty(),
        "backfill_feed must fill only the feed it names"
    );
}

/// `remove_author_entries` removes an author's statuses and reblogs from the account's home
/// feed and its lists' feeds, and nothing else.
pub async fn remove_author_entries_clears_the_author_from_the_accounts_feeds(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let own = ListRecord {
        id: ids.next_at(T0),
        account_id: alice.id,
        title: "alice's".into(),
        replies_policy: RepliesPolicy::List,
        exclusive: false,
    };
    let carols = ListRecord {
        id: ids.next_at(T0 + 1),
        account_id: carol.id,
        title: "carol's".into(),
        ..own.clone()
    };
    for l in [&own, &carols] {
        store.insert_list(l).await.expect("insert_list");
    }
    let by_bob = add_status(store, status(&ids, &bob, T0 + 1_000)).await;
    let by_carol = add_status(store, status(&ids, &carol, T0 + 2_000)).await;
    let bobs_reblog = add_status(store, reblog(&ids, &bob, &by_carol, T0 + 3_000)).await;
    for s in [&by_bob, &by_carol, &bobs_reblog] {
        store
            .insert_feed_entries(s.id, s.account_id, &[alice.id, carol.id])
            .await
            .expect("insert_feed_entries");
        store
            .insert_list_entries(s.id, s.account_id, &[own.id, carols.id])
            .await
            .expect("insert_list_entries");
    }
    store
        .remove_author_entries(alice.id, bob.id)
        .await
        .expect("remove_author_entries");
    assert_eq!(
        feed(store, alice.id).await,
        vec![by_carol.id],
        "remove_author_entries must remove the author's statuses and reblogs from the home feed, only those"
    );
    assert_eq!(
        store
            .list_feed(own.id, Page::first(40))
            .await
            .expect("list_feed"),
        vec![by_carol.id],
        "remove_author_entries must remove the author's entries from the account's lists"
    );
    let all = vec![bobs_reblog.id, by_carol.id, by_bob.id];
    assert_eq!(
        feed(store, carol.id).await,
        all,
        "other accounts' home feeds must keep their entries"
    );
    assert_eq!(
        store
            .list_feed(carols.id, Page::first(40))
            .await
            .expect("list_feed"),
        all,
        "other accounts' lists must keep their entries"
    );
}
