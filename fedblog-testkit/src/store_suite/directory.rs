//! Checks of [`DirectoryStore`](fedblog_core::store::DirectoryStore): account search, the
//! profile directory and the most followed local accounts.

use fedblog_core::store::{AccountRecord, AccountSearch, DirectoryOrder, UserRecord};
use fedblog_core::{Id, IdGenerator, Store};

use super::{T0, add_status, at, get_account, local_account, remote_account, sorted, status};

/// Inserts an account made at `millis` (its id made then too): local when `domain` is `None`
/// (with a confirmed, approved login), remote otherwise, after `edit` has changed it.
async fn add(
    store: &dyn Store,
    ids: &IdGenerator,
    millis: i64,
    username: &str,
    domain: Option<&str>,
    edit: impl FnOnce(&mut AccountRecord, &mut UserRecord),
) -> AccountRecord {
    let (mut account, mut user) = local_account(ids, username);
    if let Some(domain) = domain {
        account = remote_account(ids, username, domain);
    }
    account.id = ids.next_at(millis);
    account.created_at = at(millis);
    account.updated_at = at(millis);
    user.account_id = account.id;
    user.created_at = at(millis);
    edit(&mut account, &mut user);
    let r = match domain {
        None => store.insert_local_account(&account, &user).await,
        Some(_) => store.insert_remote_account(&account).await,
    };
    r.unwrap_or_else(|e| panic!("inserting account {username:?}@{domain:?} failed: {e:?}"));
    account
}

/// Leaves the fixture as it is.
fn plain(_: &mut AccountRecord, _: &mut UserRecord) {}

/// Listed in the directory.
fn listed(a: &mut AccountRecord, _: &mut UserRecord) {
    a.discoverable = Some(true);
}

/// A search for `text` on any domain, by anyone, first 40.
fn search(text: &str) -> AccountSearch {
    AccountSearch {
        text: text.to_string(),
        domain: None,
        followed_by: None,
        offset: 0,
        limit: 40,
    }
}

async fn found(store: &dyn Store, search: &AccountSearch) -> Vec<Id> {
    store
        .search_accounts(search)
        .await
        .unwrap_or_else(|e| panic!("search_accounts({search:?}) failed: {e:?}"))
        .into_iter()
        .map(|a| a.id)
        .collect()
}

/// Makes `n` new accounts (named `{prefix}{i}`, which no search here looks for) follow `target`.
async fn add_followers(store: &dyn Store, ids: &IdGenerator, prefix: &str, target: Id, n: usize) {
    for i in 0..n {
        let f = add(store, ids, T0, &format!("{prefix}{i}"), None, plain).await;
        store
            .insert_follow(ids.next_at(T0 + 500_000), f.id, target)
            .await
            .expect("insert_follow");
    }
}

/// `search_accounts` matches a prefix of the username or a part of the display name, local and
/// remote accounts alike; a username merely containing the text does not match.
pub async fn search_accounts_matches_username_prefix_or_display_name_part(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add(store, &ids, T0 + 1_000, "alice", None, plain).await;
    add(store, &ids, T0 + 2_000, "malice", None, plain).await;
    let bob = add(store, &ids, T0 + 3_000, "bob", None, |a, _| {
        a.display_name = "The Alice Band".into()
    })
    .await;
    let dave = add(store, &ids, T0 + 4_000, "dave", None, |a, _| {
        a.display_name = "Mr Kalimba".into()
    })
    .await;
    add(store, &ids, T0 + 5_000, "carol", None, |a, _| {
        a.display_name = "Carol".into()
    })
    .await;
    let alison = add(
        store,
        &ids,
        T0 + 6_000,
        "alison",
        Some("remote.example"),
        plain,
    )
    .await;
    add(store, &ids, T0 + 7_000, "al", Some("remote.example"), plain).await;
    assert_eq!(
        sorted(found(store, &search("ali")).await),
        sorted(vec![alice.id, bob.id, dave.id, alison.id]),
        "search_accounts must match a username prefix or any part of the display name, local and remote"
    );
    assert_eq!(
        found(store, &search("zed")).await,
        vec![],
        "search_accounts without a match must be empty"
    );
}

/// `search_accounts` compares case-insensitively: the text comes lower-cased, usernames and
/// display names may have capitals.
pub async fn search_accounts_is_case_insensitive(store: &dyn Store) {
    let ids = IdGenerator::default();
    let upper = add(store, &ids, T0 + 1_000, "ALIce", None, plain).await;
    let gator = add(
        store,
        &ids,
        T0 + 2_000,
        "gator",
        Some("remote.example"),
        |a, _| a.display_name = "Big ALIgator".into(),
    )
    .await;
    add(store, &ids, T0 + 3_000, "bob", None, plain).await;
    assert_eq!(
        sorted(found(store, &search("ali")).await),
        sorted(vec![upper.id, gator.id]),
        "search_accounts must match usernames and display names case-insensitively"
    );
}

/// `%`, `_` and `\` in the search text match themselves only, in usernames and display names.
pub async fn search_accounts_treats_wildcards_literally(store: &dyn Store) {
    let ids = IdGenerator::default();
    let under = add(store, &ids, T0 + 1_000, "a_b", None, plain).await;
    add(store, &ids, T0 + 2_000, "axb", None, plain).await;
    let percent = add(store, &ids, T0 + 3_000, "p1", None, |a, _| {
        a.display_name = "100% cotton".into()
    })
    .await;
    add(store, &ids, T0 + 4_000, "p2", None, |a, _| {
        a.display_name = "1000 cotton".into()
    })
    .await;
    let backslash = add(store, &ids, T0 + 5_000, "s1", None, |a, _| {
        a.display_name = r"back\slash".into()
    })
    .await;
    add(store, &ids, T0 + 6_000, "s2", None, |a, _| {
        a.display_name = "backslash".into()
    })
    .await;
    let cases = [
        ("a_", vec![under.id]),
        ("100%", vec![percent.id]),
        ("0% c", vec![percent.id]),
        (r"k\s", vec![backslash.id]),
        ("%", vec![percent.id]),
        ("_", vec![]),
    ];
    for (text, expected) in cases {
        assert_eq!(
            sorted(found(store, &search(text)).await),
            sorted(expected),
            "search_accounts({text:?}): %, _ and \\ in the text must match only themselves"
        );
    }
}

/// `domain` restricts the search to accounts on that domain; without it local and remote
/// accounts match.
pub async fn search_accounts_domain_filter(store: &dyn Store) {
    let ids = IdGenerator::default();
    let local = add(store, &ids, T0 + 1_000, "alice", None, plain).await;
    let there = add(
        store,
        &ids,
        T0 + 2_000,
        "alice",
        Some("remote.example"),
        plain,
    )
    .await;
    let elsewhere = add(
        store,
        &ids,
        T0 + 3_000,
        "alicia",
        Some("other.example"),
        plain,
    )
    .await;
    let there_too = add(
        store,
        &ids,
        T0 + 4_000,
        "bob",
        Some("remote.example"),
        |a, _| a.display_name = "Alibaba".into(),
    )
    .await;
    let on = |domain: Option<&str>| AccountSearch {
        domain: domain.map(str::to_string),
        ..search("ali")
    };
    assert_eq!(
        sorted(found(store, &on(Some("remote.example"))).await),
        sorted(vec![there.id, there_too.id]),
        "search_accounts with a domain must match only accounts on that domain"
    );
    assert_eq!(
        sorted(found(store, &on(None)).await),
        sorted(vec![local.id, there.id, elsewhere.id, there_too.id]),
        "search_accounts without a domain must match local and remote accounts"
    );
    assert_eq!(
        found(store, &on(Some("nowhere.example"))).await,
        vec![],
        "search_accounts on a domain without matches must be empty"
    );
}

/// `followed_by` restricts the search to accounts that account follows: not its followers, not
/// accounts it only asked to follow.
pub async fn search_accounts_followed_by_filter(store: &dyn Store) {
    let ids = IdGenerator::default();
    let me = add(store, &ids, T0, "me", None, plain).await.id;
    let a1 = add(store, &ids, T0 + 1_000, "alice1", None, plain).await.id;
    let a2 = add(store, &ids, T0 + 2_000, "alice2", None, plain).await.id;
    let a3 = add(
        store,
        &ids,
        T0 + 3_000,
        "alice3",
        Some("remote.example"),
        plain,
    )
    .await
    .id;
    let a4 = add(store, &ids, T0 + 4_000, "alice4", None, plain).await.id;
    for (follower, target) in [(me, a1), (me, a3), (a2, me)] {
        store
            .insert_follow(ids.next_at(T0 + 10_000), follower, target)
            .await
            .expect("insert_follow");
    }
    store
        .insert_follow_request(ids.next_at(T0 + 10_000), me, a4)
        .await
        .expect("insert_follow_request");
    let filter = AccountSearch {
        followed_by: Some(me),
        ..search("alice")
    };
    assert_eq!(
        sorted(found(store, &filter).await),
        sorted(vec![a1, a3]),
        "search_accounts with followed_by must match only accounts that account follows"
    );
    let filter = AccountSearch {
        followed_by: Some(a1),
        ..search("alice")
    };
    assert_eq!(
        found(store, &filter).await,
        vec![],
        "search_accounts followed_by an account that follows nobody must be empty"
    );
}

/// Suspended accounts never match.
pub async fn search_accounts_excludes_suspended(store: &dyn Store) {
    let ids = IdGenerator::default();
    let kept = add(store, &ids, T0 + 1_000, "alice", None, plain).await;
    add(store, &ids, T0 + 2_000, "alicia", None, |a, _| {
        a.suspended_at = Some(at(T0 + 2_500))
    })
    .await;
    add(
        store,
        &ids,
        T0 + 3_000,
        "ali",
        Some("remote.example"),
        |a, _| a.suspended_at = Some(at(T0 + 3_500)),
    )
    .await;
    assert_eq!(
        found(store, &search("ali")).await,
        vec![kept.id],
        "search_accounts must leave out suspended accounts"
    );
}

/// Exact username matches (case-insensitive, any domain) come first, then the others; within
/// each, most followers first, then by id (oldest first).
pub async fn search_accounts_orders_exact_match_first_then_followers_then_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let bobby = add(store, &ids, T0 + 1_000, "bobby", None, plain).await.id;
    let bob = add(store, &ids, T0 + 2_000, "bob", None, plain).await.id;
    let remote_bob = add(
        store,
        &ids,
        T0 + 3_000,
        "Bob",
        Some("remote.example"),
        plain,
    )
    .await
    .id;
    let bobcat = add(store, &ids, T0 + 4_000, "bobcat", None, plain).await.id;
    let named = add(store, &ids, T0 + 5_000, "robert", None, |a, _| {
        a.display_name = "Bob".into()
    })
    .await
    .id;
    add_followers(store, &ids, "f", bobby, 3).await;
    add_followers(store, &ids, "g", bobcat, 3).await;
    add_followers(store, &ids, "h", remote_bob, 1).await;
    add_followers(store, &ids, "k", named, 4).await;
    assert_eq!(
        found(store, &search("bob")).await,
        vec![remote_bob, bob, named, bobby, bobcat],
        "search_accounts must put exact username matches first, then order by followers (most \
         first), then by id"
    );
}

/// `offset` skips that many results of the ordered list and `limit` caps the rest.
pub async fn search_accounts_offset_and_limit(store: &dyn Store) {
    let ids = IdGenerator::default();
    let mut sams = vec![];
    for i in 0..4 {
        let sam = add(
            store,
            &ids,
            T0 + 1_000 * (i + 1),
            &format!("sam{i}"),
            None,
            plain,
        )
        .await
        .id;
        add_followers(store, &ids, &format!("f{i}x"), sam, i as usize).await;
        sams.push(sam);
    }
    let page = |offset: u64, limit: u64| AccountSearch {
        offset,
        limit,
        ..search("sam")
    };
    let cases = [
        (page(0, 40), vec![sams[3], sams[2], sams[1], sams[0]]),
        (page(0, 2), vec![sams[3], sams[2]]),
        (page(1, 2), vec![sams[2], sams[1]]),
        (page(3, 40), vec![sams[0]]),
        (page(4, 40), vec![]),
    ];
    for (search, expected) in cases {
        assert_eq!(
            found(store, &search).await,
            expected,
            "search_accounts offset={} limit={}: must skip `offset` results then return at most `limit`",
            search.offset,
            search.limit
        );
    }
}

async fn directory(
    store: &dyn Store,
    order: DirectoryOrder,
    local_only: bool,
    offset: u64,
    limit: u64,
) -> Vec<Id> {
    store
        .directory(order, local_only, offset, limit)
        .await
        .expect("directory")
        .into_iter()
        .map(|a| a.id)
        .collect()
}

/// The directory lists discoverable accounts only: not undecided or undiscoverable ones, not
/// suspended ones, not local ones whose login is unconfirmed or unapproved; remote ones too.
pub async fn directory_lists_only_discoverable_and_admitted_accounts(store: &dyn Store) {
    let ids = IdGenerator::default();
    let a = add(store, &ids, T0 + 1_000, "a", None, listed).await;
    add(store, &ids, T0 + 2_000, "b", None, plain).await;
    add(store, &ids, T0 + 3_000, "c", None, |a, _| {
        a.discoverable = Some(false)
    })
    .await;
    add(store, &ids, T0 + 4_000, "d", None, |a, _| {
        a.discoverable = Some(true);
        a.suspended_at = Some(at(T0 + 4_500));
    })
    .await;
    add(store, &ids, T0 + 5_000, "e", None, |a, u| {
        a.discoverable = Some(true);
        u.confirmed_at = None;
        u.confirmation_token_hash = Some("pending".into());
    })
    .await;
    add(store, &ids, T0 + 6_000, "f", None, |a, u| {
        a.discoverable = Some(true);
        u.approved = false;
    })
    .await;
    let g = add(store, &ids, T0 + 7_000, "g", Some("remote.example"), listed).await;
    add(store, &ids, T0 + 8_000, "h", Some("remote.example"), plain).await;
    add(
        store,
        &ids,
        T0 + 9_000,
        "i",
        Some("remote.example"),
        |a, _| {
            a.discoverable = Some(true);
            a.suspended_at = Some(at(T0 + 9_500));
        },
    )
    .await;
    for order in [DirectoryOrder::New, DirectoryOrder::Active] {
        assert_eq!(
            sorted(directory(store, order, false, 0, 40).await),
            sorted(vec![a.id, g.id]),
            "directory ({order:?}) must list the discoverable, unsuspended accounts, local ones only \
             when confirmed and approved"
        );
    }
    let got = store
        .directory(DirectoryOrder::New, false, 0, 40)
        .await
        .expect("directory");
    assert_eq!(
        got,
        vec![g, a],
        "directory must return complete account records"
    );
}

/// `local_only` leaves out remote accounts, in both orders.
pub async fn directory_local_only_leaves_out_remote_accounts(store: &dyn Store) {
    let ids = IdGenerator::default();
    let a = add(store, &ids, T0 + 1_000, "a", None, listed).await.id;
    add(store, &ids, T0 + 2_000, "r", Some("remote.example"), listed).await;
    let b = add(store, &ids, T0 + 3_000, "b", None, listed).await.id;
    for order in [DirectoryOrder::New, DirectoryOrder::Active] {
        assert_eq!(
            sorted(directory(store, order, true, 0, 40).await),
            sorted(vec![a, b]),
            "directory ({order:?}) with local_only must list local accounts only"
        );
        assert_eq!(
            directory(store, order, false, 0, 40).await.len(),
            3,
            "directory ({order:?}) without local_only must list remote accounts too"
        );
    }
}

/// The `New` order lists the newest accounts first.
pub async fn directory_order_new_lists_newest_accounts_first(store: &dyn Store) {
    let ids = IdGenerator::default();
    let mut made = vec![];
    for (i, domain) in [
        None,
        Some("remote.example"),
        None,
        None,
        Some("other.example"),
    ]
    .into_iter()
    .enumerate()
    {
        made.push(
            add(
                store,
                &ids,
                T0 + 1_000 * (i as i64 + 1),
                &format!("u{i}"),
                domain,
                listed,
            )
            .await
            .id,
        );
    }
    // Posting does not matter for this order.
    let first = get_account(store, made[0]).await;
    add_status(store, status(&ids, &first, T0 + 50_000)).await;
    made.reverse();
    assert_eq!(
        directory(store, DirectoryOrder::New, false, 0, 40).await,
        made,
        "directory (New) must list the newest accounts first"
    );
}

/// The `Active` order lists the accounts that posted most recently first, those that never
/// posted last.
pub async fn directory_order_active_lists_recent_posters_first(store: &dyn Store) {
    let ids = IdGenerator::default();
    let never = add(store, &ids, T0 + 1_000, "never", None, listed).await;
    let a = add(store, &ids, T0 + 2_000, "a", None, listed).await;
    let b = add(store, &ids, T0 + 3_000, "b", Some("remote.example"), listed).await;
    let c = add(store, &ids, T0 + 4_000, "c", None, listed).await;
    for (author, millis) in [(&a, 5_000), (&b, 7_000), (&c, 6_000), (&a, 8_000)] {
        add_status(store, status(&ids, author, T0 + millis)).await;
    }
    assert_eq!(
        directory(store, DirectoryOrder::Active, false, 0, 40).await,
        vec![a.id, b.id, c.id, never.id],
        "directory (Active) must list the most recent posters first and those that never posted last"
    );
}

/// `offset` skips that many accounts of the ordered directory and `limit` caps the rest.
pub async fn directory_offset_and_limit(store: &dyn Store) {
    let ids = IdGenerator::default();
    let mut made = vec![];
    for i in 0..5 {
        made.push(
            add(
                store,
                &ids,
                T0 + 1_000 * (i + 1),
                &format!("u{i}"),
                None,
                listed,
            )
            .await
            .id,
        );
    }
    made.reverse();
    let cases = [
        (0, 2, made[0..2].to_vec()),
        (1, 2, made[1..3].to_vec()),
        (3, 40, made[3..5].to_vec()),
        (5, 40, vec![]),
    ];
    for (offset, limit, expected) in cases {
        assert_eq!(
            directory(store, DirectoryOrder::New, false, offset, limit).await,
            expected,
            "directory offset={offset} limit={limit}: must skip `offset` accounts then return at most `limit`"
        );
    }
}

/// `most_followed_local` lists local, discoverable, unsuspended accounts by followers (most
/// first), then oldest id first, up to `limit`.
pub async fn most_followed_local_orders_by_followers_then_oldest_id(store: &dyn Store) {
    let ids = IdGenerator::default();
    let a = add(store, &ids, T0 + 1_000, "a", None, listed).await.id;
    let b = add(store, &ids, T0 + 2_000, "b", None, listed).await.id;
    let c = add(store, &ids, T0 + 3_000, "c", None, listed).await.id;
    let d = add(store, &ids, T0 + 4_000, "d", None, listed).await.id;
    let hidden = add(store, &ids, T0 + 5_000, "e", None, plain).await.id;
    let suspended = add(store, &ids, T0 + 6_000, "f", None, |a, _| {
        a.discoverable = Some(true);
        a.suspended_at = Some(at(T0 + 6_500));
    })
    .await
    .id;
    let remote = add(store, &ids, T0 + 7_000, "r", Some("remote.example"), listed)
        .await
        .id;
    for (prefix, target, n) in [
        ("fa", a, 2),
        ("fb", b, 3),
        ("fc", c, 2),
        ("fe", hidden, 5),
        ("ff", suspended, 4),
        ("fr", remote, 6),
    ] {
        add_followers(store, &ids, prefix, target, n).await;
    }
    assert_eq!(
        store
            .most_followed_local(40)
            .await
            .expect("most_followed_local"),
        vec![b, a, c, d],
        "most_followed_local must list local, discoverable, unsuspended accounts, most followers \
         first, then oldest id"
    );
    assert_eq!(
        store
            .most_followed_local(2)
            .await
            .expect("most_followed_local"),
        vec![b, a],
        "most_followed_local must return at most `limit`"
    );
}
