//! Runs the store conformance suite against `CachedStore` over `MemoryStore`: the cache in front
//! of a store keeps every contract of the store traits (what is written through it is read back
//! through it at once).

fedblog_testkit::store_suite!(|| async {
    std::sync::Arc::new(fedblog_core::store::cached::CachedStore::new(
        std::sync::Arc::new(fedblog_core::MemoryStore::new()),
        fedblog_core::store::cached::CacheLimits::default(),
    )) as std::sync::Arc<dyn fedblog_core::Store>
});

use std::sync::Arc;

use fedblog_core::pagination::Page;
use fedblog_core::store::cached::{CacheLimits, CachedStore};
use fedblog_core::store::{
    AccountRecord, Feed, FollowRecord, MuteRecord, PublicTimelineFilter, StatusRecord,
};
use fedblog_core::{Id, IdGenerator, MemoryStore, Store};
use fedblog_testkit::store_suite::{
    T0, app, local_account, reblog, remote_account, reply, status, token,
};

/// What the cache answers equals what the store under it holds, for every record named. Reading
/// them also fills the cache, so the next write finds them there.
async fn coherent(
    step: &str,
    cached: &dyn Store,
    truth: &dyn Store,
    accounts: &[Id],
    statuses: &[Id],
    tokens: &[&str],
) {
    for id in accounts {
        assert_eq!(
            cached.account_by_id(*id).await.expect("read"),
            truth.account_by_id(*id).await.expect("read"),
            "after {step}: account {id}"
        );
        assert_eq!(
            cached.user_by_account_id(*id).await.expect("read"),
            truth.user_by_account_id(*id).await.expect("read"),
            "after {step}: login of {id}"
        );
    }
    let by_id = |mut v: Vec<AccountRecord>| {
        v.sort_by_key(|a| a.id);
        v
    };
    assert_eq!(
        by_id(cached.accounts_by_ids(accounts).await.expect("read")),
        by_id(truth.accounts_by_ids(accounts).await.expect("read")),
        "after {step}: accounts_by_ids"
    );
    for id in statuses {
        assert_eq!(
            cached.status_by_id(*id).await.expect("read"),
            truth.status_by_id(*id).await.expect("read"),
            "after {step}: status {id}"
        );
    }
    let by_id = |mut v: Vec<StatusRecord>| {
        v.sort_by_key(|s| s.id);
        v
    };
    assert_eq!(
        by_id(cached.statuses_by_ids(statuses).await.expect("read")),
        by_id(truth.statuses_by_ids(statuses).await.expect("read")),
        "after {step}: statuses_by_ids"
    );
    let now = fedblog_testkit::store_suite::at(T0 + 100);
    for id in accounts {
        assert_eq!(
            cached
                .relations_among(*id, accounts, now)
                .await
                .expect("read"),
            truth
                .relations_among(*id, accounts, now)
                .await
                .expect("read"),
            "after {step}: relations of {id}"
        );
    }
    for t in tokens {
        assert_eq!(
            cached.token_by_hash(t).await.expect("read"),
            truth.token_by_hash(t).await.expect("read"),
            "after {step}: token {t}"
        );
    }
    let below = |page: Page| Page {
        max_id: statuses.iter().max().copied(),
        ..page
    };
    for page in [Page::first(40), Page::first(1), below(Page::first(40))] {
        for id in accounts {
            assert_eq!(
                cached.home_feed(*id, page).await.expect("read"),
                truth.home_feed(*id, page).await.expect("read"),
                "after {step}: home feed of {id}, {page:?}"
            );
        }
        let local = PublicTimelineFilter {
            local: true,
            ..PublicTimelineFilter::default()
        };
        for filter in [PublicTimelineFilter::default(), local] {
            let ids = |v: Vec<StatusRecord>| v.into_iter().map(|s| s.id).collect::<Vec<_>>();
            assert_eq!(
                ids(cached.public_timeline(filter, page).await.expect("read")),
                ids(truth.public_timeline(filter, page).await.expect("read")),
                "after {step}: public timeline {filter:?}, {page:?}"
            );
        }
    }
}

/// Every write that changes accounts, logins, tokens, statuses, blocks or mutes, made through the cache after
/// the records were read into it, is seen by the next read through the cache.
#[tokio::test]
async fn each_write_through_the_cache_is_read_back_through_it() {
    let truth = Arc::new(MemoryStore::new());
    let cached = CachedStore::new(
        truth.clone(),
        CacheLimits {
            capacity: 1000,
            ttl: std::time::Duration::from_secs(3600),
        },
    );
    let store: &dyn Store = &cached;
    let ids = IdGenerator::default();
    let (a, a_login) = local_account(&ids, "alice");
    let (b, b_login) = local_account(&ids, "bob");
    let r = remote_account(&ids, "rita", "far.example");
    store.insert_local_account(&a, &a_login).await.expect("a");
    store.insert_local_account(&b, &b_login).await.expect("b");
    store.insert_remote_account(&r).await.expect("r");
    let client = app(&ids, "client");
    store.insert_app(&client).await.expect("app");
    let (ta, tb) = ("hash-a", "hash-b");
    store
        .insert_token(&token(&ids, ta, client.id, Some(a.id), T0))
        .await
        .expect("token a");
    store
        .insert_token(&token(&ids, tb, client.id, Some(b.id), T0))
        .await
        .expect("token b");
    let accounts = [a.id, b.id, r.id];
    let s1 = status(&ids, &a, T0 + 1);
    let s2 = reply(&ids, &b, &s1, T0 + 2);
    let s3 = reblog(&ids, &b, &s1, T0 + 3);
    let statuses = [s1.id, s2.id, s3.id];
    let tokens = [ta, tb];
    let check = |step: &'static str| {
        let truth = truth.clone();
        async move { coherent(step, store, truth.as_ref(), &accounts, &statuses, &tokens).await }
    };
    check("set-up").await;
    assert_eq!(
        store.app_by_id(client.id).await.expect("app"),
        Some(client.clone())
    );

    store.insert_status(&s1).await.expect("s1");
    check("a status (author's count)").await;
    store
        .insert_feed_entries(s1.id, a.id, &[a.id, b.id])
        .await
        .expect("fan-out");
    check("a fan-out").await;
    store.insert_status(&s2).await.expect("s2");
    check("a reply (parent's replies_count)").await;
    store
        .backfill_feed(Feed::Home(a.id), &[(s2.id, b.id)])
        .await
        .expect("back-fill");
    check("a back-fill").await;
    store.insert_status(&s3).await.expect("s3");
    check("a reblog (original's reblogs_count)").await;
    store
        .insert_favourite(ids.next(), b.id, s1.id)
        .await
        .expect("fav");
    check("a favourite").await;
    store.delete_favourite(b.id, s1.id).await.expect("unfav");
    check("an unfavourite").await;
    store
        .insert_follow(ids.next(), a.id, b.id)
        .await
        .expect("follow");
    check("a follow").await;
    store.delete_follow(a.id, b.id).await.expect("unfollow");
    check("an unfollow").await;
    store
        .remove_author_entries(a.id, b.id)
        .await
        .expect("remove entries");
    check("an author's entries removed").await;
    store
        .upsert_follow(&FollowRecord {
            id: ids.next(),
            account_id: b.id,
            target_id: a.id,
            show_reblogs: true,
            notify: false,
            languages: None,
        })
        .await
        .expect("upsert follow");
    check("a follow with options").await;
    store
        .insert_block(ids.next(), a.id, b.id)
        .await
        .expect("block");
    check("a block (follows end)").await;
    store.delete_block(a.id, b.id).await.expect("unblock");
    check("an unblock").await;
    store
        .upsert_mute(&MuteRecord {
            id: ids.next(),
            account_id: b.id,
            target_id: a.id,
            notifications: true,
            expires_at: None,
        })
        .await
        .expect("mute");
    check("a mute").await;
    store.delete_mute(b.id, a.id).await.expect("unmute");
    check("an unmute").await;
    store
        .insert_block(ids.next(), b.id, a.id)
        .await
        .expect("block");
    check("a block the other way").await;
    store
        .insert_follow(ids.next(), r.id, a.id)
        .await
        .expect("remote follow");
    check("a remote follow").await;
    store
        .insert_domain_block(ids.next(), a.id, "far.example")
        .await
        .expect("domain block");
    check("a domain block (followers there leave)").await;
    let mut renamed = store.account_by_id(a.id).await.expect("a").expect("a");
    renamed.display_name = "Alice A.".into();
    store
        .update_account(&renamed)
        .await
        .expect("update account");
    check("a profile change").await;
    let mut suspended = store.account_by_id(a.id).await.expect("a").expect("a");
    suspended.suspended_at = Some(fedblog_testkit::store_suite::at(T0 + 9));
    store.update_account(&suspended).await.expect("suspend");
    check("a suspension").await;
    suspended.suspended_at = None;
    store.update_account(&suspended).await.expect("unsuspend");
    check("an unsuspension").await;
    let mut login = store.user_by_account_id(a.id).await.expect("u").expect("u");
    login.email = "alice@elsewhere.test".into();
    store.update_user(&login).await.expect("update user");
    check("a login change").await;
    store
        .revoke_token(ta, fedblog_testkit::store_suite::at(T0 + 10))
        .await
        .expect("revoke");
    check("a revocation").await;
    let mut edited = store.status_by_id(s1.id).await.expect("s1").expect("s1");
    edited.text = "edited".into();
    edited.content = "<p>edited</p>".into();
    edited.edited_at = Some(fedblog_testkit::store_suite::at(T0 + 11));
    store.update_status(&edited, &[]).await.expect("edit");
    check("an edit").await;
    store.delete_status(s3.id).await.expect("delete reblog");
    check("a reblog's deletion").await;
    store.delete_status(s1.id).await.expect("delete s1");
    check("a status's deletion").await;
    store.delete_account(b.id).await.expect("delete b");
    check("an account's deletion").await;
}

/// Every method of every store trait, those with a default body too, by trait.
fn trait_methods() -> Vec<(String, Vec<String>)> {
    let core = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fedblog-core/src/store");
    let traits = std::fs::read_to_string(core.join("mod.rs")).expect("store/mod.rs");
    let trait_start = regex::Regex::new(r"(?m)^pub trait (\w+): Send \+ Sync \{").expect("regex");
    let method = regex::Regex::new(r"(?m)^    async fn (\w+)\(").expect("regex");
    let starts: Vec<(usize, String)> = trait_start
        .captures_iter(&traits)
        .map(|c| (c.get(0).expect("match").start(), c[1].to_string()))
        .collect();
    let found: Vec<(String, Vec<String>)> = starts
        .iter()
        .enumerate()
        .map(|(i, (start, name))| {
            let end = starts.get(i + 1).map_or(traits.len(), |s| s.0);
            let methods = method
                .captures_iter(&traits[*start..end])
                .map(|c| c[1].to_string())
                .collect();
            (name.clone(), methods)
        })
        .collect();
    let count: usize = found.iter().map(|(_, m)| m.len()).sum();
    assert!(
        found.len() > 20 && count > 100,
        "found only {} traits, {count} methods",
        found.len()
    );
    found
}

/// `delegate_store!` forwards every method of a trait, those with a default body too: a
/// default it left out would answer over the wrapper instead of the wrapped store's own answer
/// (the compiler only catches required methods left out).
#[test]
fn delegate_store_forwards_every_trait_method() {
    let core = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fedblog-core/src/store");
    let delegate = std::fs::read_to_string(core.join("delegate.rs")).expect("store/delegate.rs");
    for (name, methods) in trait_methods() {
        let arm = format!("({name}, $ty:ty, $field:ident $(, $observe:ident)?) => {{");
        let start = delegate
            .find(&arm)
            .unwrap_or_else(|| panic!("delegate_store! has no arm for {name}"));
        let end = delegate[start..].find("\n    };").expect("end of arm") + start;
        let missing: Vec<&String> = methods
            .iter()
            .filter(|m| !delegate[start..end].contains(&format!("fn {m}(")))
            .collect();
        assert!(
            missing.is_empty(),
            "delegate_store! does not forward {name}::{missing:?}"
        );
    }
}

/// `CachedStore` forwards every method of the store traits: every trait is implemented through
/// `delegate_store!` (whose lists are complete, above) over its `Caching`, which writes only the
/// cached methods; a hand-written trait impl could leave a method with a default body out, and
/// that default would then answer over the cache instead of the wrapped store's own answer.
#[test]
fn cached_store_forwards_every_trait_method() {
    let core = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fedblog-core/src/store");
    let cached = std::fs::read_to_string(core.join("cached.rs")).expect("store/cached.rs");
    let delegated = regex::Regex::new(r"delegate_store!\(CachedStore => caching:([^)]*)\)")
        .expect("regex")
        .captures(&cached)
        .map(|c| {
            c[1].split(',')
                .map(|t| t.trim().to_string())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    for (name, _) in trait_methods() {
        assert!(
            delegated.contains(&name),
            "CachedStore must implement {name} through delegate_store!"
        );
    }
    assert!(
        !regex::Regex::new(r"impl \w+ for CachedStore")
            .expect("regex")
            .is_match(&cached),
        "CachedStore implements a store trait by hand"
    );
}
