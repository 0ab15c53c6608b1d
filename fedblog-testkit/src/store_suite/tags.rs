//! Checks of [`TagStore`](fedblog_core::store::TagStore): hashtags and their use, followed tags,
//! featured tags, and the per-account tag figures.

use fedblog_core::pagination::Page;
use fedblog_core::store::{
    AccountRecord, FeaturedTagRecord, StatusRecord, TagRecord, TagReview, TagUsage, Visibility,
};
use fedblog_core::{Id, IdGenerator, Store};

use super::{
    Capabilities, Capability, Cursor, T0, add_local, add_remote, add_status, add_tag,
    assert_already_exists, assert_pages, at, status, tag,
};

/// A public status by `author` at `millis` carrying these tags. Not inserted.
fn tagged(ids: &IdGenerator, author: &AccountRecord, millis: i64, tags: &[&str]) -> StatusRecord {
    StatusRecord {
        tags: tags.iter().map(|t| t.to_string()).collect(),
        ..status(ids, author, millis)
    }
}

/// A featured tag of `account` with an id made at `millis`. Not inserted.
fn featured(ids: &IdGenerator, account: Id, t: &TagRecord, millis: i64) -> FeaturedTagRecord {
    FeaturedTagRecord {
        id: ids.next_at(millis),
        account_id: account,
        tag_id: t.id,
        name: t.name.clone(),
        created_at: at(millis),
    }
}

async fn featured_tags(store: &dyn Store, account: Id) -> Vec<FeaturedTagRecord> {
    let mut got = store.featured_tags(account).await.expect("featured_tags");
    got.sort_by_key(|f| f.id);
    got
}

/// `find_or_create_tag` of an unknown name stores the tag and returns it as given (read back by
/// name and id); a later call for the same name (other id, other display name) returns the stored
/// tag unchanged. Lookups of unknown names and ids are `None`.
pub async fn find_or_create_tag_creates_then_returns_existing(store: &dyn Store) {
    let ids = IdGenerator::default();
    let first = tag(&ids, "Rust", T0 + 1_000);
    assert_eq!(
        store.tag_by_name("rust").await.expect("tag_by_name"),
        None,
        "tag_by_name of an unknown tag must be None"
    );
    let got = store
        .find_or_create_tag(&first)
        .await
        .expect("find_or_create_tag");
    assert_eq!(
        got, first,
        "find_or_create_tag of an unknown name must return the tag as given"
    );
    let other = add_tag(store, &ids, "Go", T0 + 2_000).await;
    let again = TagRecord {
        display_name: "RUST".into(),
        ..tag(&ids, "rust", T0 + 3_000)
    };
    assert_eq!(
        store
            .find_or_create_tag(&again)
            .await
            .expect("find_or_create_tag"),
        first,
        "find_or_create_tag of a known name must return the stored tag, not the one given"
    );
    assert_eq!(
        store.tag_by_name("rust").await.expect("tag_by_name"),
        Some(first.clone()),
        "tag_by_name must return the tag as first stored"
    );
    assert_eq!(
        store.tag_by_id(first.id).await.expect("tag_by_id"),
        Some(first.clone()),
        "tag_by_id must return the tag as first stored"
    );
    assert_eq!(
        store.tag_by_id(again.id).await.expect("tag_by_id"),
        None,
        "the id of a tag that was found, not created, must be unknown"
    );
    assert_eq!(
        store.tag_by_name("go").await.expect("tag_by_name"),
        Some(other),
        "tag_by_name must find each tag by its own name"
    );
    assert_eq!(
        store.tag_by_name("rus").await.expect("tag_by_name"),
        None,
        "tag_by_name must match whole names"
    );
}

/// Two concurrent `find_or_create_tag` calls for one name return the same tag.
pub async fn racing_find_or_create_tag_returns_one_tag(store: &dyn Store) {
    let ids = IdGenerator::default();
    let a = tag(&ids, "fediverse", T0 + 1_000);
    let b = tag(&ids, "Fediverse", T0 + 1_000);
    let (ra, rb) = tokio::join!(store.find_or_create_tag(&a), store.find_or_create_tag(&b));
    let (ra, rb) = (
        ra.expect("find_or_create_tag"),
        rb.expect("find_or_create_tag"),
    );
    assert_eq!(
        ra, rb,
        "two racing find_or_create_tag calls for one name must return the same tag"
    );
    assert!(
        ra == a || ra == b,
        "the tag returned must be one of those given, got {ra:?}"
    );
    assert_eq!(
        store.tag_by_name("fediverse").await.expect("tag_by_name"),
        Some(ra),
        "the tag both racing calls returned must be the one stored"
    );
}

/// `tag_usage` counts the statuses carrying the tag created in `[from, to)` and their distinct
/// authors: not statuses outside the window (`to` excluded), with other tags, or deleted.
pub async fn tag_usage_counts_statuses_and_distinct_accounts_in_window(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let carol = add_local(store, &ids, "carol").await;
    let (from, to) = (T0 + 10_000, T0 + 20_000);
    for (author, millis, tags) in [
        (&alice, from - 1, &["rust"][..]),
        (&alice, from, &["rust"][..]),
        (&bob, from + 5_000, &["go", "rust"][..]),
        (&alice, to - 1, &["rust"][..]),
        (&carol, to, &["rust"][..]),
        (&carol, from + 1_000, &["other"][..]),
        (&carol, from + 2_000, &["rustlang"][..]),
    ] {
        add_status(store, tagged(&ids, author, millis, tags)).await;
    }
    let deleted = add_status(store, tagged(&ids, &carol, from + 3_000, &["rust"])).await;
    store
        .delete_status(deleted.id)
        .await
        .expect("delete_status");
    assert_eq!(
        store
            .tag_usage("rust", at(from), at(to))
            .await
            .expect("tag_usage"),
        TagUsage {
            uses: 3,
            accounts: 2
        },
        "tag_usage must count the statuses with the tag in [from, to) and their distinct authors"
    );
    assert_eq!(
        store
            .tag_usage("go", at(from), at(to))
            .await
            .expect("tag_usage"),
        TagUsage {
            uses: 1,
            accounts: 1
        },
        "tag_usage must count a status under each of its tags"
    );
    assert_eq!(
        store
            .tag_usage("unused", at(from), at(to))
            .await
            .expect("tag_usage"),
        TagUsage::default(),
        "tag_usage of an unused tag must be zero"
    );
}

async fn follow_tag(store: &dyn Store, ids: &IdGenerator, millis: i64, account: Id, t: Id) -> Id {
    let id = ids.next_at(millis);
    store
        .follow_tag(id, account, t)
        .await
        .unwrap_or_else(|e| panic!("follow_tag({account}, {t}) failed: {e:?}"));
    id
}

async fn follows_tag(store: &dyn Store, account: Id, t: Id) -> bool {
    store.follows_tag(account, t).await.expect("follows_tag")
}

async fn followed_tags(store: &dyn Store, account: Id) -> Vec<(Id, TagRecord)> {
    store
        .followed_tags_page(account, Page::first(40))
        .await
        .expect("followed_tags_page")
}

/// `follows_tag` is true after `follow_tag` for that account and tag only; repeating it (same or
/// new id) succeeds and keeps the first id, listed once with the tag.
pub async fn follow_tag_is_idempotent_keeping_first_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let rust = add_tag(store, &ids, "Rust", T0 + 1_000).await;
    let go = add_tag(store, &ids, "go", T0 + 1_000).await;
    assert!(
        !follows_tag(store, alice, rust.id).await,
        "follows_tag must be false before follow_tag"
    );
    let first = follow_tag(store, &ids, T0 + 2_000, alice, rust.id).await;
    store
        .follow_tag(first, alice, rust.id)
        .await
        .expect("follow_tag is idempotent: repeating it must succeed");
    store
        .follow_tag(ids.next_at(T0 + 3_000), alice, rust.id)
        .await
        .expect("follow_tag is idempotent: repeating it with a new id must succeed");
    assert!(
        follows_tag(store, alice, rust.id).await,
        "follows_tag must be true after follow_tag"
    );
    assert!(
        !follows_tag(store, bob, rust.id).await,
        "a tag follow is per account: another account does not follow the tag"
    );
    assert!(
        !follows_tag(store, alice, go.id).await,
        "follows_tag must be false for a tag not followed"
    );
    assert_eq!(
        followed_tags(store, alice).await,
        vec![(first, rust)],
        "a repeated follow_tag must keep the first id and list the tag once, as stored"
    );
}

/// `unfollow_tag` returns true and removes that tag follow only; a second unfollow, or one of a
/// tag never followed, returns false.
pub async fn unfollow_tag_true_then_false(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let rust = add_tag(store, &ids, "rust", T0 + 1_000).await;
    let go = add_tag(store, &ids, "go", T0 + 1_000).await;
    follow_tag(store, &ids, T0 + 2_000, alice, rust.id).await;
    let kept = follow_tag(store, &ids, T0 + 3_000, alice, go.id).await;
    follow_tag(store, &ids, T0 + 4_000, bob, rust.id).await;
    assert!(
        store
            .unfollow_tag(alice, rust.id)
            .await
            .expect("unfollow_tag"),
        "unfollow_tag of a followed tag must return true"
    );
    assert!(
        !follows_tag(store, alice, rust.id).await,
        "follows_tag must be false after unfollow_tag"
    );
    assert_eq!(
        followed_tags(store, alice).await,
        vec![(kept, go.clone())],
        "unfollow_tag must remove that tag follow only"
    );
    assert!(
        follows_tag(store, bob, rust.id).await,
        "unfollow_tag must not remove other accounts' follows of the tag"
    );
    assert!(
        !store
            .unfollow_tag(alice, rust.id)
            .await
            .expect("unfollow_tag"),
        "unfollow_tag of a tag already unfollowed must return false"
    );
    assert!(
        !store.unfollow_tag(bob, go.id).await.expect("unfollow_tag"),
        "unfollow_tag of a tag never followed must return false"
    );
}

/// `followed_tags_page` lists `(tag follow id, tag)` newest follow first whatever the tags' ids,
/// one account's only; its cursors are tag follow ids.
pub async fn followed_tags_page_lists_newest_first_with_cursors(store: &dyn Store) {
    let ids = IdGenerator::default();
    let hub = add_local(store, &ids, "hub").await.id;
    let other = add_local(store, &ids, "other").await.id;
    let mut tags = vec![];
    for i in 0..10 {
        tags.push(add_tag(store, &ids, &format!("tag{i}"), T0 + 1_000).await);
    }
    tags.reverse();
    let mut s = vec![];
    for (i, t) in (0i64..).zip(&tags) {
        let millis = T0 + 10_000 + i * 1_000;
        s.push(follow_tag(store, &ids, millis, hub, t.id).await);
        if i % 3 == 0 {
            follow_tag(store, &ids, millis + 500, other, t.id).await;
        }
    }
    let expected: Vec<(Id, TagRecord)> = s.iter().copied().zip(tags).rev().collect();
    assert_eq!(
        followed_tags(store, hub).await,
        expected,
        "followed_tags_page must pair each tag follow id with its tag, newest first"
    );
    let read = |page: Page| async move {
        store
            .followed_tags_page(hub, page)
            .await
            .expect("followed_tags_page")
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    };
    for kind in [
        Cursor::Limit,
        Cursor::MaxId,
        Cursor::SinceId,
        Cursor::MinId,
        Cursor::Combined,
        Cursor::Absent,
    ] {
        assert_pages("followed_tags_page (on tag follow ids)", kind, &s, read).await;
    }
}

/// `tags_page` lists every tag by id with the page cursors; `update_tag` stores a tag's new
/// `display_name` and `review` (read back by id, by name, in pages and among followed tags),
/// keeps its name and creation, and answers `false` for an unknown tag.
pub async fn update_tag_keeps_review_and_tags_page_lists_by_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let mut tags = vec![];
    for i in 0..10 {
        tags.push(add_tag(store, &ids, &format!("Page{i}"), T0 + 1_000 + i * 1_000).await);
    }
    let oldest_first: Vec<Id> = tags.iter().map(|t| t.id).collect();
    let read = |page: Page| async move {
        store
            .tags_page(page)
            .await
            .expect("tags_page")
            .into_iter()
            .map(|t| t.id)
            .collect()
    };
    for kind in [
        Cursor::Limit,
        Cursor::MaxId,
        Cursor::SinceId,
        Cursor::MinId,
        Cursor::Combined,
        Cursor::Absent,
    ] {
        assert_pages("tags_page", kind, &oldest_first, read).await;
    }
    let reviewed = TagRecord {
        name: "ignored".into(),
        display_name: "PAGE3".into(),
        created_at: at(T0 + 99_000),
        review: TagReview {
            trendable: Some(true),
            usable: Some(false),
            listable: None,
            reviewed_at: Some(at(T0 + 50_000)),
        },
        ..tags[3].clone()
    };
    assert!(
        store.update_tag(&reviewed).await.expect("update_tag"),
        "update_tag of a known tag answers true"
    );
    let expected = TagRecord {
        display_name: "PAGE3".into(),
        review: reviewed.review.clone(),
        ..tags[3].clone()
    };
    assert_eq!(
        store.tag_by_id(tags[3].id).await.expect("tag_by_id"),
        Some(expected.clone()),
        "update_tag stores display_name and review, keeping name and created_at"
    );
    assert_eq!(
        store.tag_by_name("page3").await.expect("tag_by_name"),
        Some(expected.clone())
    );
    assert!(
        store
            .tags_page(Page::first(20))
            .await
            .expect("tags_page")
            .contains(&expected),
        "tags_page shows the review"
    );
    let hub = add_local(store, &ids, "hub").await.id;
    follow_tag(store, &ids, T0 + 60_000, hub, tags[3].id).await;
    assert_eq!(
        followed_tags(store, hub)
            .await
            .into_iter()
            .map(|(_, t)| t)
            .collect::<Vec<_>>(),
        [expected],
        "followed_tags_page shows the review"
    );
    let unknown = tag(&ids, "nowhere", T0 + 70_000);
    assert!(
        !store.update_tag(&unknown).await.expect("update_tag"),
        "update_tag of an unknown tag answers false"
    );
    assert_eq!(store.tag_by_name("nowhere").await.expect("read"), None);
}

/// A featured tag comes back exactly as inserted; featuring a tag the account already features
/// is `AlreadyExists("featured_tag")` and changes nothing; another account may feature the tag,
/// and the account other tags.
pub async fn insert_featured_tag_round_trips_and_rejects_duplicates(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let rust = add_tag(store, &ids, "Rust", T0 + 1_000).await;
    let go = add_tag(store, &ids, "go", T0 + 1_000).await;
    assert_eq!(
        featured_tags(store, alice).await,
        vec![],
        "featured_tags must be empty before any is inserted"
    );
    let first = featured(&ids, alice, &rust, T0 + 2_000);
    store
        .insert_featured_tag(&first)
        .await
        .expect("insert_featured_tag");
    assert_eq!(
        featured_tags(store, alice).await,
        vec![first.clone()],
        "featured_tags must return the featured tag exactly as inserted"
    );
    assert_already_exists(
        store
            .insert_featured_tag(&featured(&ids, alice, &rust, T0 + 3_000))
            .await,
        "featured_tag",
        "featuring a tag the account already features",
    );
    assert_eq!(
        featured_tags(store, alice).await,
        vec![first.clone()],
        "a rejected duplicate must not change the featured tags"
    );
    let second = featured(&ids, alice, &go, T0 + 4_000);
    store
        .insert_featured_tag(&second)
        .await
        .expect("insert_featured_tag of another tag");
    let bobs = featured(&ids, bob, &rust, T0 + 5_000);
    store
        .insert_featured_tag(&bobs)
        .await
        .expect("another account may feature the same tag");
    assert_eq!(
        featured_tags(store, alice).await,
        vec![first, second],
        "featured_tags must list the account's featured tags"
    );
    assert_eq!(
        featured_tags(store, bob).await,
        vec![bobs],
        "featured_tags must list only the account's own featured tags"
    );
}

/// `delete_featured_tag` removes the account's own featured tag with that id (true); another
/// account's, an unknown id, or one already deleted is false and changes nothing.
pub async fn delete_featured_tag_removes_only_own(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await.id;
    let bob = add_local(store, &ids, "bob").await.id;
    let rust = add_tag(store, &ids, "rust", T0 + 1_000).await;
    let go = add_tag(store, &ids, "go", T0 + 1_000).await;
    let a1 = featured(&ids, alice, &rust, T0 + 2_000);
    let a2 = featured(&ids, alice, &go, T0 + 3_000);
    let b1 = featured(&ids, bob, &rust, T0 + 4_000);
    for f in [&a1, &a2, &b1] {
        store
            .insert_featured_tag(f)
            .await
            .expect("insert_featured_tag");
    }
    assert!(
        !store
            .delete_featured_tag(bob, a1.id)
            .await
            .expect("delete_featured_tag"),
        "delete_featured_tag of another account's featured tag must return false"
    );
    assert_eq!(
        featured_tags(store, alice).await,
        vec![a1.clone(), a2.clone()],
        "delete_featured_tag must not remove another account's featured tag"
    );
    assert!(
        store
            .delete_featured_tag(alice, a1.id)
            .await
            .expect("delete_featured_tag"),
        "delete_featured_tag of the account's own featured tag must return true"
    );
    assert_eq!(
        featured_tags(store, alice).await,
        vec![a2],
        "delete_featured_tag must remove that featured tag only"
    );
    assert_eq!(
        featured_tags(store, bob).await,
        vec![b1],
        "delete_featured_tag must not remove other accounts' featuring of the tag"
    );
    assert!(
        !store
            .delete_featured_tag(alice, a1.id)
            .await
            .expect("delete_featured_tag"),
        "delete_featured_tag of one already deleted must return false"
    );
    assert!(
        !store
            .delete_featured_tag(alice, ids.next_at(T0))
            .await
            .expect("delete_featured_tag"),
        "delete_featured_tag of an unknown id must return false"
    );
}

/// `account_tag_stats` counts the account's public and unlisted statuses carrying the tag and
/// gives the newest one's time: not private or direct ones, not other accounts', not other tags,
/// not deleted ones; `(0, None)` without any.
pub async fn account_tag_stats_counts_public_and_unlisted_only(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let with = |millis: i64, v: Visibility, tags: &[&str]| StatusRecord {
        visibility: v,
        ..tagged(&ids, &alice, millis, tags)
    };
    use Visibility::*;
    for s in [
        with(T0 + 1_000, Public, &["rust"]),
        with(T0 + 2_000, Unlisted, &["go", "rust"]),
        with(T0 + 3_000, Private, &["rust"]),
        with(T0 + 4_000, Direct, &["rust"]),
        with(T0 + 5_000, Public, &[]),
        with(T0 + 6_000, Public, &["rustlang"]),
        tagged(&ids, &bob, T0 + 7_000, &["rust"]),
    ] {
        add_status(store, s).await;
    }
    let deleted = add_status(store, with(T0 + 8_000, Public, &["rust"])).await;
    store
        .delete_status(deleted.id)
        .await
        .expect("delete_status");
    assert_eq!(
        store
            .account_tag_stats(alice.id, "rust")
            .await
            .expect("account_tag_stats"),
        (2, Some(at(T0 + 2_000))),
        "account_tag_stats must count the account's public and unlisted statuses with the tag \
         and give the newest one's time"
    );
    assert_eq!(
        store
            .account_tag_stats(alice.id, "unused")
            .await
            .expect("account_tag_stats"),
        (0, None),
        "account_tag_stats of a tag the account never used must be (0, None)"
    );
    assert_eq!(
        store
            .account_tag_stats(bob.id, "go")
            .await
            .expect("account_tag_stats"),
        (0, None),
        "account_tag_stats must count only the account's own statuses"
    );
}

/// `most_used_tags` lists the tags of the account's statuses at or after `since`, most used
/// first, then by name, up to `limit`: uses before `since` and other accounts' uses do not count.
pub async fn most_used_tags_orders_by_use_then_name(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let since = T0 + 100_000;
    let mut t = since;
    let mut uses: Vec<(&AccountRecord, i64, &[&str])> = vec![];
    let mut add = |author, before: bool, tags| {
        t += 1_000;
        let millis = if before { t - 100_000 } else { t };
        uses.push((author, millis, tags));
    };
    for _ in 0..5 {
        add(&alice, true, &["old", "d"][..]);
    }
    for _ in 0..10 {
        add(&bob, false, &["z"][..]);
    }
    add(&alice, false, &["b", "c"][..]);
    add(&alice, false, &["a"][..]);
    add(&alice, false, &["b"][..]);
    add(&alice, false, &["d", "b", "a"][..]);
    add(&alice, false, &["c"][..]);
    for (author, millis, tags) in uses {
        add_status(store, tagged(&ids, author, millis, tags)).await;
    }
    // A use exactly at `since` counts.
    add_status(store, tagged(&ids, &alice, since, &["e"])).await;
    let most = |limit: u64| async move {
        store
            .most_used_tags(alice.id, at(since), limit)
            .await
            .expect("most_used_tags")
    };
    assert_eq!(
        most(10).await,
        vec!["b", "a", "c", "d", "e"],
        "most_used_tags must list the tags used at or after since, most used first, then by name"
    );
    assert_eq!(
        most(2).await,
        vec!["b", "a"],
        "most_used_tags must return at most `limit`"
    );
    assert_eq!(
        store
            .most_used_tags(bob.id, at(since + 1_000_000), 10)
            .await
            .expect("most_used_tags"),
        Vec::<String>::new(),
        "most_used_tags without uses since then must be empty"
    );
}

/// `tags_by_prefix` finds the tags whose name starts with the prefix, shortest first (in
/// characters, not bytes), then by name in code point order; `offset` skips, `limit` caps (0
/// gives nothing). Among `cat`, `cats`, `catalog`, `cat_pics`, `caturday`, `ca_t`, `dog`,
/// `dog10`, `dog_1`, `юн`, `юнююю`, `юнabcd` and `юникод`: `cat` finds the first five in that
/// order (`cat_pics` before `caturday`: `_` is below `u`), and pages through them; `_` is no
/// wildcard (`ca_` finds `ca_t` only, not `cat`); `dog` finds `dog`, `dog10`, `dog_1` (`1` is
/// below `_`, whatever a linguistic collation says); `юн` finds `юн`, `юнююю` (5 characters,
/// 10 bytes), `юнabcd` (6 characters, 8 bytes), `юникод`; a whole name finds that tag; `zzz`
/// finds nothing; the empty prefix finds every tag. Without
/// [`Capability::SearchesTagPrefixes`] (the trait's default), the weaker promise: only the tag
/// named exactly the prefix, on the first page.
pub async fn tags_by_prefix_orders_by_length_then_name_without_wildcards(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let ids = IdGenerator::default();
    // Made out of order, so that neither creation order nor id order passes for the answer.
    let names = [
        "caturday",
        "dog_1",
        "юникод",
        "cat_pics",
        "cats",
        "юнabcd",
        "ca_t",
        "dog",
        "юн",
        "catalog",
        "dog10",
        "юнююю",
        "cat",
    ];
    let mut made = std::collections::BTreeMap::new();
    for (n, name) in names.into_iter().enumerate() {
        assert_eq!(
            fedblog_core::content::normalize_tag(name),
            name,
            "the fixture {name:?} must be a normalised tag name"
        );
        made.insert(
            name,
            add_tag(store, &ids, name, T0 + 1_000 * (n as i64 + 1)).await,
        );
    }
    let find = |prefix: &'static str, offset: u64, limit: u64| async move {
        store
            .tags_by_prefix(prefix, offset, limit)
            .await
            .unwrap_or_else(|e| {
                panic!("tags_by_prefix({prefix:?}, {offset}, {limit}) failed: {e:?}")
            })
    };
    let tags =
        |names: &[&str]| -> Vec<TagRecord> { names.iter().map(|n| made[n].clone()).collect() };

    if !capabilities.has(Capability::SearchesTagPrefixes) {
        for (prefix, offset, limit, want) in [
            ("cat", 0, 10, &["cat"][..]),
            ("cat_pics", 0, 1, &["cat_pics"][..]),
            ("юн", 0, 10, &["юн"][..]),
            ("ca", 0, 10, &[][..]),
            ("", 0, 10, &[][..]),
            ("cat", 1, 10, &[][..]),
            ("cat", 0, 0, &[][..]),
        ] {
            assert_eq!(
                find(prefix, offset, limit).await,
                tags(want),
                "a store that searches no tag prefix finds the tag named {prefix:?} only, on the \
                 first page (offset {offset}, limit {limit}) (or claim SearchesTagPrefixes)"
            );
        }
        return;
    }

    let cats = ["cat", "cats", "catalog", "cat_pics", "caturday"];
    assert_eq!(
        find("cat", 0, 100).await,
        tags(&cats),
        "tags_by_prefix(\"cat\") must find the tags starting with cat, shortest first, then \
         by name in code point order (cat_pics before caturday)"
    );
    for (offset, limit) in [(0, 2), (1, 2), (2, 2), (3, 10), (4, 1), (5, 10), (9, 1)] {
        let from = (offset as usize).min(cats.len());
        let to = (offset + limit).min(cats.len() as u64) as usize;
        assert_eq!(
            find("cat", offset, limit).await,
            tags(&cats[from..to]),
            "tags_by_prefix(\"cat\", offset {offset}, limit {limit}) must skip `offset` tags \
             and give at most `limit`"
        );
    }
    assert_eq!(
        find("cat", 0, 0).await,
        vec![],
        "tags_by_prefix with limit 0 must find nothing"
    );
    assert_eq!(
        find("ca_", 0, 100).await,
        tags(&["ca_t"]),
        "tags_by_prefix(\"ca_\") must take `_` literally (no LIKE wildcard): ca_t, not cat"
    );
    assert_eq!(
        find("cat_pics", 0, 100).await,
        tags(&["cat_pics"]),
        "tags_by_prefix of a whole name must find that tag"
    );
    assert_eq!(
        find("dog", 0, 100).await,
        tags(&["dog", "dog10", "dog_1"]),
        "tags_by_prefix must order names of one length in code point order (`1` before `_`), \
         not by a linguistic collation"
    );
    assert_eq!(
        find("юн", 0, 100).await,
        tags(&["юн", "юнююю", "юнabcd", "юникод"]),
        "tags_by_prefix must match a non-ASCII prefix and order by length in characters, not \
         bytes"
    );
    assert_eq!(
        find("zzz", 0, 100).await,
        vec![],
        "tags_by_prefix of a prefix no tag has must find nothing"
    );
    assert_eq!(
        find("", 0, 100).await,
        tags(&[
            "юн",
            "cat",
            "dog",
            "ca_t",
            "cats",
            "dog10",
            "dog_1",
            "юнююю",
            "юнabcd",
            "юникод",
            "catalog",
            "cat_pics",
            "caturday",
        ]),
        "tags_by_prefix(\"\") must find every tag, shortest first, then by name"
    );
}
