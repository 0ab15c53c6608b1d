//! Checks of [`StatusStore`](fedblog_core::store::StatusStore): statuses with their mentions and
//! tags, the author's counters, idempotency keys, the public timeline and an account's statuses.

use chrono::TimeDelta;
use fedblog_core::pagination::Page;
use fedblog_core::store::{
    AccountRecord, AccountStatusesFilter, PublicTimelineFilter, StatusRecord, Visibility,
};
use fedblog_core::{Id, IdGenerator, Store};

use super::{
    Capabilities, Capability, Cursor, T0, add_app, add_local, add_media, add_remote, add_status,
    assert_already_exists, assert_not_found, assert_pages, at, counters, get_account, get_status,
    media, reblog, reply, sorted, status, with_media,
};

/// A status with every optional field set: a reply by alice to bob, mentioning carol then bob,
/// with tags out of alphabetical order and two media of alice's in the reverse of their upload
/// order, posted from an app.
async fn full_status(store: &dyn Store, ids: &IdGenerator) -> StatusRecord {
    let alice = add_local(store, ids, "alice").await;
    let bob = add_local(store, ids, "bob").await;
    let carol = add_local(store, ids, "carol").await;
    let app = add_app(store, ids, "client-a").await;
    let parent = add_status(store, status(ids, &bob, T0 + 1_000)).await;
    let first = add_media(store, media(ids, &alice, T0 + 1_500)).await;
    let second = add_media(store, media(ids, &alice, T0 + 1_600)).await;
    StatusRecord {
        uri: Some("https://local.example/users/alice/statuses/1".into()),
        text: "@carol @bob hello #zeta #alpha #mid".into(),
        content: "<p>@carol @bob hello <a href=\"#\">#zeta</a></p>".into(),
        spoiler_text: "spoiler ⚠".into(),
        visibility: Visibility::Unlisted,
        sensitive: true,
        language: Some("en".into()),
        in_reply_to_id: Some(parent.id),
        in_reply_to_account_id: Some(bob.id),
        application_id: Some(app.id),
        mentions: vec![carol.id, bob.id],
        tags: vec!["zeta".into(), "alpha".into(), "mid".into()],
        media_ids: vec![second.id, first.id],
        idempotency_key: Some("idem-1".into()),
        edited_at: Some(at(T0 + 3_000)),
        conversation_id: Some(parent.id),
        replies_count: 3,
        reblogs_count: 2,
        favourites_count: 1,
        ..status(ids, &alice, T0 + 2_000)
    }
}

/// A status with every optional field set (mentions and tags in a non-sorted order) comes back
/// exactly as inserted from `status_by_id` and `statuses_by_ids`.
pub async fn status_round_trips_with_all_fields_set(store: &dyn Store) {
    let ids = IdGenerator::default();
    let full = add_status(store, full_status(store, &ids).await).await;
    let got = store.status_by_id(full.id).await.expect("status_by_id");
    assert_eq!(
        got.as_ref(),
        Some(&full),
        "status_by_id must return the status exactly as inserted, mentions, tags and media_ids in \
         their order"
    );
    let got = store
        .statuses_by_ids(&[full.id])
        .await
        .expect("statuses_by_ids");
    assert_eq!(
        got,
        vec![full],
        "statuses_by_ids must return complete records, mentions, tags and media_ids in their order"
    );
}

/// A local and a remote status with every optional field unset come back exactly as inserted.
pub async fn status_round_trips_with_optional_fields_unset(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let local = add_status(
        store,
        StatusRecord {
            uri: None,
            ..status(&ids, &alice, T0 + 1_000)
        },
    )
    .await;
    let mut remote = status(&ids, &bob, T0 + 2_000);
    remote.text = String::new();
    let remote = add_status(store, remote).await;
    assert!(
        !remote.local && remote.uri.is_some(),
        "fixture: a remote status"
    );
    for s in [&local, &remote] {
        let got = store.status_by_id(s.id).await.expect("status_by_id");
        assert_eq!(
            got.as_ref(),
            Some(s),
            "status_by_id must return the status exactly as inserted, None fields as None"
        );
    }
}

/// `created_at`, `edited_at` and the author's `last_status_at` keep at least millisecond
/// precision.
pub async fn status_timestamps_keep_milliseconds(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let created = at(T0 + 1_234) + TimeDelta::microseconds(250);
    let edited = at(T0 + 5_678) + TimeDelta::microseconds(250);
    let s = add_status(
        store,
        StatusRecord {
            created_at: created,
            edited_at: Some(edited),
            ..status(&ids, &alice, T0 + 1_234)
        },
    )
    .await;
    let got = store
        .status_by_id(s.id)
        .await
        .expect("status_by_id")
        .expect("an inserted status must be found");
    assert_eq!(
        got.created_at.timestamp_millis(),
        created.timestamp_millis(),
        "created_at must round-trip with at least millisecond precision"
    );
    assert_eq!(
        got.edited_at.map(|t| t.timestamp_millis()),
        Some(edited.timestamp_millis()),
        "edited_at must round-trip with at least millisecond precision"
    );
    let author = get_account(store, alice.id).await;
    assert_eq!(
        author.last_status_at.map(|t| t.timestamp_millis()),
        Some(created.timestamp_millis()),
        "the author's last_status_at must be the status's created_at, with at least millisecond precision"
    );
}

/// A taken status id is `AlreadyExists("status")`; the first status and the author's count are
/// unchanged.
pub async fn duplicate_status_id_is_already_exists(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let first = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let second = StatusRecord {
        id: first.id,
        text: "impostor".into(),
        ..status(&ids, &alice, T0 + 2_000)
    };
    assert_already_exists(
        store.insert_status(&second).await,
        "status",
        "insert_status with a taken id",
    );
    let got = store.status_by_id(first.id).await.expect("status_by_id");
    assert_eq!(
        got.as_ref(),
        Some(&first),
        "a rejected insert_status must not change the existing status"
    );
    assert_eq!(
        get_account(store, alice.id).await.statuses_count,
        1,
        "a rejected insert_status must not count"
    );
}

/// Lookups of absent statuses answer `None` or an empty list, even when other statuses exist.
pub async fn lookups_of_unknown_statuses_are_none(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let unknown = ids.next_at(T0 + 2_000);
    assert_eq!(
        store.status_by_id(unknown).await.expect("status_by_id"),
        None,
        "status_by_id of an unknown id must be None"
    );
    assert_eq!(
        store.statuses_by_ids(&[]).await.expect("statuses_by_ids"),
        vec![],
        "statuses_by_ids of no ids must be empty"
    );
    assert_eq!(
        store
            .statuses_by_ids(&[unknown])
            .await
            .expect("statuses_by_ids"),
        vec![],
        "statuses_by_ids of an unknown id must be empty"
    );
}

/// `statuses_by_ids` returns each known status once: unknown ids are skipped and repeated ids do
/// not repeat the status.
pub async fn statuses_by_ids_skips_unknown_and_duplicates(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let a = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let c = add_status(store, status(&ids, &alice, T0 + 3_000)).await;
    let unknown = ids.next_at(T0 + 4_000);
    let got = store
        .statuses_by_ids(&[c.id, unknown, a.id, c.id])
        .await
        .expect("statuses_by_ids");
    assert_eq!(
        sorted(got.iter().map(|s| s.id).collect()),
        vec![a.id, c.id],
        "statuses_by_ids must return each requested known status exactly once, skipping unknown ids"
    );
    assert_eq!(
        got.iter().find(|s| s.id == a.id),
        Some(&a),
        "statuses_by_ids must return the records exactly as stored"
    );
}

/// `insert_status` increments the author's `statuses_count` (only the author's) and sets its
/// `last_status_at`.
pub async fn insert_status_counts_author_statuses(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let carol = add_local(store, &ids, "carol").await;
    let fresh = get_account(store, alice.id).await;
    assert_eq!(
        (fresh.statuses_count, fresh.last_status_at),
        (0, None),
        "a new account has no statuses"
    );
    add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    add_status(store, status(&ids, &alice, T0 + 3_000)).await;
    for (account, count, last) in [
        (&alice, 2, Some(at(T0 + 3_000))),
        (&bob, 1, Some(at(T0 + 2_000))),
        (&carol, 0, None),
    ] {
        let got = get_account(store, account.id).await;
        assert_eq!(
            (got.statuses_count, got.last_status_at),
            (count, last),
            "insert_status must maintain the author's statuses_count and last_status_at (account {})",
            account.username
        );
    }
}

/// `last_status_at` is the time of the author's newest post: inserting an older status (say a
/// fetched remote one) does not move it back.
pub async fn last_status_at_is_newest_post(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    add_status(store, status(&ids, &alice, T0 + 5_000)).await;
    add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let got = get_account(store, alice.id).await;
    assert_eq!(
        (got.statuses_count, got.last_status_at),
        (2, Some(at(T0 + 5_000))),
        "last_status_at is the time of the newest post: an older status must not move it back"
    );
    add_status(store, status(&ids, &alice, T0 + 9_000)).await;
    let got = get_account(store, alice.id).await;
    assert_eq!(
        got.last_status_at,
        Some(at(T0 + 9_000)),
        "a newer status must move last_status_at forward"
    );
}

/// `delete_status` removes the status and decrements its author's `statuses_count` only.
pub async fn delete_status_removes_it_and_decrements_count(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let s3 = add_status(store, status(&ids, &alice, T0 + 3_000)).await;
    let b1 = add_status(store, status(&ids, &bob, T0 + 4_000)).await;
    store.delete_status(s2.id).await.expect("delete_status");
    assert_eq!(
        store.status_by_id(s2.id).await.expect("status_by_id"),
        None,
        "a deleted status must not be found"
    );
    let left = store
        .statuses_by_ids(&[s1.id, s2.id, s3.id, b1.id])
        .await
        .expect("statuses_by_ids");
    assert_eq!(
        sorted(left.into_iter().map(|s| s.id).collect()),
        vec![s1.id, s3.id, b1.id],
        "delete_status must remove that status only"
    );
    assert_eq!(
        get_account(store, alice.id).await.statuses_count,
        2,
        "delete_status must decrement the author's statuses_count"
    );
    assert_eq!(
        get_account(store, bob.id).await.statuses_count,
        1,
        "delete_status must not change other accounts' counts"
    );
}

/// `delete_status` of an absent (or already deleted) status is `NotFound` and changes no count.
pub async fn delete_unknown_status_is_not_found(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    assert_not_found(
        store.delete_status(ids.next_at(T0 + 3_000)).await,
        "delete_status of an unknown id",
    );
    store.delete_status(s1.id).await.expect("delete_status");
    assert_not_found(
        store.delete_status(s1.id).await,
        "delete_status of an already deleted status",
    );
    assert_eq!(
        get_account(store, alice.id).await.statuses_count,
        1,
        "a failed delete_status must not change statuses_count"
    );
}

/// `delete_status` removes the status from every home feed, and only that status.
pub async fn delete_status_removes_feed_entries(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    for s in [&s1, &s2] {
        store
            .insert_feed_entries(s.id, alice.id, &[alice.id, bob.id, carol.id])
            .await
            .expect("insert_feed_entries");
    }
    store.delete_status(s2.id).await.expect("delete_status");
    for reader in [&alice, &bob, &carol] {
        let feed = store
            .home_feed(reader.id, Page::first(40))
            .await
            .expect("home_feed");
        assert_eq!(
            feed,
            vec![s1.id],
            "delete_status must remove the status from every home feed ({}'s), keeping the others",
            reader.username
        );
    }
}

/// `status_by_idempotency_key` finds the author's status with that key created at or after
/// `since`, and nothing for another author, another key or a later `since`.
pub async fn idempotency_key_lookup_honours_account_key_and_since(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let key = |k: &str| Some(k.to_string());
    let a1 = add_status(
        store,
        StatusRecord {
            idempotency_key: key("key-1"),
            ..status(&ids, &alice, T0 + 1_000)
        },
    )
    .await;
    let a2 = add_status(
        store,
        StatusRecord {
            idempotency_key: key("key-2"),
            ..status(&ids, &alice, T0 + 2_000)
        },
    )
    .await;
    let b1 = add_status(
        store,
        StatusRecord {
            idempotency_key: key("key-1"),
            ..status(&ids, &bob, T0 + 3_000)
        },
    )
    .await;
    add_status(store, status(&ids, &carol, T0 + 4_000)).await;
    let cases = [
        (&alice, "key-1", T0, Some(&a1)),
        (&alice, "key-1", T0 + 1_000, Some(&a1)),
        (&alice, "key-1", T0 + 1_001, None),
        (&alice, "key-2", T0, Some(&a2)),
        (&alice, "key-3", T0, None),
        (&bob, "key-1", T0, Some(&b1)),
        (&bob, "key-2", T0, None),
        (&carol, "key-1", T0, None),
    ];
    for (account, k, since, expected) in cases {
        let got = store
            .status_by_idempotency_key(account.id, k, at(since))
            .await
            .expect("status_by_idempotency_key");
        assert_eq!(
            got.as_ref(),
            expected,
            "status_by_idempotency_key({}, {k:?}, T0+{}ms) must find only that author's status with that key created at or after `since`",
            account.username,
            since - T0
        );
    }
}

/// The public timeline returns complete records: mentions, tags and every field as stored.
pub async fn public_timeline_returns_complete_records(store: &dyn Store) {
    let ids = IdGenerator::default();
    let mut s = full_status(store, &ids).await;
    s.visibility = Visibility::Public;
    s.in_reply_to_id = None;
    s.in_reply_to_account_id = None;
    let s = add_status(store, s).await;
    let got = store
        .public_timeline(PublicTimelineFilter::default(), Page::first(1))
        .await
        .expect("public_timeline");
    assert_eq!(
        got,
        vec![s],
        "public_timeline must return the records exactly as stored, mentions, tags and media_ids \
         included"
    );
}

async fn timeline(store: &dyn Store, filter: PublicTimelineFilter) -> Vec<Id> {
    let page = Page::first(40);
    store
        .public_timeline(filter, page)
        .await
        .expect("public_timeline")
        .into_iter()
        .map(|s| s.id)
        .collect()
}

/// The public timeline shows public statuses only: not unlisted, private or direct ones.
pub async fn public_timeline_shows_only_public_statuses(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let mut public = vec![];
    for (i, visibility) in [
        Visibility::Unlisted,
        Visibility::Public,
        Visibility::Private,
        Visibility::Direct,
        Visibility::Public,
    ]
    .into_iter()
    .enumerate()
    {
        let s = StatusRecord {
            visibility,
            mentions: vec![bob.id],
            ..status(&ids, &alice, T0 + 1_000 * (i as i64 + 1))
        };
        let s = add_status(store, s).await;
        if visibility == Visibility::Public {
            public.insert(0, s.id);
        }
    }
    assert_eq!(
        timeline(store, PublicTimelineFilter::default()).await,
        public,
        "the public timeline must show public statuses only (no unlisted, private or direct), newest first"
    );
}

/// The public timeline hides replies to other accounts but shows self-replies (threads).
pub async fn public_timeline_hides_replies_to_others_keeps_self_replies(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let reply = |author: &AccountRecord, parent: &StatusRecord, millis: i64| StatusRecord {
        in_reply_to_id: Some(parent.id),
        in_reply_to_account_id: Some(parent.account_id),
        ..status(&ids, author, millis)
    };
    let alice_root = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let alice_self = add_status(store, reply(&alice, &alice_root, T0 + 2_000)).await;
    let bob_to_alice = add_status(store, reply(&bob, &alice_root, T0 + 3_000)).await;
    let bob_root = add_status(store, status(&ids, &bob, T0 + 4_000)).await;
    let alice_to_bob = add_status(store, reply(&alice, &bob_root, T0 + 5_000)).await;
    let got = timeline(store, PublicTimelineFilter::default()).await;
    assert!(
        !got.contains(&bob_to_alice.id) && !got.contains(&alice_to_bob.id),
        "the public timeline must hide replies to other accounts"
    );
    assert_eq!(
        got,
        vec![bob_root.id, alice_self.id, alice_root.id],
        "the public timeline must show roots and self-replies, newest first"
    );
}

/// The public timeline hides every status of a suspended author, whenever posted, and shows
/// them again once the suspension is lifted.
pub async fn public_timeline_hides_suspended_authors(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let a1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let b1 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let mut suspended = get_account(store, alice.id).await;
    suspended.suspended_at = Some(at(T0 + 3_000));
    store
        .update_account(&suspended)
        .await
        .expect("update_account");
    let a2 = add_status(store, status(&ids, &alice, T0 + 4_000)).await;
    assert_eq!(
        timeline(store, PublicTimelineFilter::default()).await,
        vec![b1.id],
        "the public timeline must hide all statuses of a suspended author"
    );
    let mut lifted = get_account(store, alice.id).await;
    lifted.suspended_at = None;
    store.update_account(&lifted).await.expect("update_account");
    assert_eq!(
        timeline(store, PublicTimelineFilter::default()).await,
        vec![a2.id, b1.id, a1.id],
        "the public timeline must show an author's statuses again once the suspension is lifted"
    );
}

/// The `local` filter shows local statuses only, `remote` remote ones only, neither shows both.
pub async fn public_timeline_local_and_remote_filters(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let l1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let r1 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let l2 = add_status(store, status(&ids, &alice, T0 + 3_000)).await;
    let r2 = add_status(store, status(&ids, &bob, T0 + 4_000)).await;
    let all = PublicTimelineFilter::default();
    let local = PublicTimelineFilter { local: true, ..all };
    let remote = PublicTimelineFilter {
        remote: true,
        ..all
    };
    assert_eq!(
        timeline(store, all).await,
        vec![r2.id, l2.id, r1.id, l1.id],
        "the unfiltered public timeline must show local and remote statuses, newest first"
    );
    assert_eq!(
        timeline(store, local).await,
        vec![l2.id, l1.id],
        "public timeline with local=true must show local statuses only"
    );
    assert_eq!(
        timeline(store, remote).await,
        vec![r2.id, r1.id],
        "public timeline with remote=true must show remote statuses only"
    );
}

/// The `only_media` filter shows statuses with media only, alone or with `local`/`remote`.
pub async fn public_timeline_only_media_filter(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let m1 = with_media(store, &ids, &alice, status(&ids, &alice, T0 + 1_000), 1).await;
    let m1 = add_status(store, m1).await;
    let n1 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let m2 = with_media(store, &ids, &bob, status(&ids, &bob, T0 + 3_000), 2).await;
    let m2 = add_status(store, m2).await;
    let n2 = add_status(store, status(&ids, &bob, T0 + 4_000)).await;
    let media = PublicTimelineFilter {
        only_media: true,
        ..Default::default()
    };
    assert_eq!(
        timeline(store, PublicTimelineFilter::default()).await,
        vec![n2.id, m2.id, n1.id, m1.id],
        "without only_media the public timeline must show statuses with and without media"
    );
    assert_eq!(
        timeline(store, media).await,
        vec![m2.id, m1.id],
        "only_media=true must show statuses with media only"
    );
    assert_eq!(
        timeline(
            store,
            PublicTimelineFilter {
                local: true,
                ..media
            }
        )
        .await,
        vec![m1.id],
        "only_media with local=true must show local statuses with media only"
    );
    assert_eq!(
        timeline(
            store,
            PublicTimelineFilter {
                remote: true,
                ..media
            }
        )
        .await,
        vec![m2.id],
        "only_media with remote=true must show remote statuses with media only"
    );
}

/// Pages of the public timeline are filled with visible statuses: `limit` counts what is shown,
/// with and without cursors.
pub async fn public_timeline_limit_counts_visible_statuses_only(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let p0 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let hidden = |visibility, millis| StatusRecord {
        visibility,
        ..status(&ids, &alice, millis)
    };
    add_status(store, hidden(Visibility::Unlisted, T0 + 2_000)).await;
    let p2 = add_status(store, status(&ids, &alice, T0 + 3_000)).await;
    add_status(store, hidden(Visibility::Private, T0 + 4_000)).await;
    add_status(store, hidden(Visibility::Direct, T0 + 5_000)).await;
    let p5 = add_status(store, status(&ids, &alice, T0 + 6_000)).await;
    add_status(
        store,
        StatusRecord {
            in_reply_to_id: Some(p5.id),
            in_reply_to_account_id: Some(alice.id),
            ..status(&ids, &bob, T0 + 7_000)
        },
    )
    .await;
    let p7 = add_status(store, status(&ids, &alice, T0 + 8_000)).await;
    add_status(store, hidden(Visibility::Unlisted, T0 + 9_000)).await;
    let cases = [
        ("limit=3", Page::first(3), vec![p7.id, p5.id, p2.id]),
        (
            "max_id=p7 limit=2",
            Page {
                max_id: Some(p7.id),
                ..Page::first(2)
            },
            vec![p5.id, p2.id],
        ),
        (
            "min_id=p0 limit=2",
            Page {
                min_id: Some(p0.id),
                ..Page::first(2)
            },
            vec![p5.id, p2.id],
        ),
        (
            "since_id=p0 limit=2",
            Page {
                since_id: Some(p0.id),
                ..Page::first(2)
            },
            vec![p7.id, p5.id],
        ),
    ];
    for (label, page, expected) in cases {
        let got: Vec<Id> = store
            .public_timeline(PublicTimelineFilter::default(), page)
            .await
            .expect("public_timeline")
            .into_iter()
            .map(|s| s.id)
            .collect();
        assert_eq!(
            got, expected,
            "public timeline {label}: the limit must count visible statuses only (filter before limit)"
        );
    }
}

/// Ten public statuses by one author, one second apart, oldest first.
async fn ten_public(store: &dyn Store) -> Vec<Id> {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let mut out = vec![];
    for i in 0..10 {
        out.push(
            add_status(store, status(&ids, &alice, T0 + 1_000 * (i + 1)))
                .await
                .id,
        );
    }
    out
}

/// Public timeline pages of one cursor kind over ten public statuses; `public_timeline_ids`
/// must name each page's statuses in the same order.
async fn timeline_pages(store: &dyn Store, kind: Cursor) {
    let s = ten_public(store).await;
    let read = |page: Page| async move {
        let got: Vec<Id> = store
            .public_timeline(PublicTimelineFilter::default(), page)
            .await
            .expect("public_timeline")
            .into_iter()
            .map(|s| s.id)
            .collect();
        let ids = store
            .public_timeline_ids(PublicTimelineFilter::default(), page)
            .await
            .expect("public_timeline_ids");
        assert_eq!(
            ids, got,
            "public_timeline_ids must name the statuses of public_timeline's page, in its order ({page:?})"
        );
        got
    };
    assert_pages("public_timeline", kind, &s, read).await;
}

/// Public timeline pages honour `limit`: the newest statuses first.
pub async fn public_timeline_page_limit(store: &dyn Store) {
    timeline_pages(store, Cursor::Limit).await;
}

/// Public timeline pages honour `max_id`: statuses strictly older, newest first.
pub async fn public_timeline_page_max_id(store: &dyn Store) {
    timeline_pages(store, Cursor::MaxId).await;
}

/// Public timeline pages honour `since_id`: the newest statuses strictly newer than it.
pub async fn public_timeline_page_since_id(store: &dyn Store) {
    timeline_pages(store, Cursor::SinceId).await;
}

/// Public timeline pages honour `min_id`: the statuses immediately newer than it, newest first.
pub async fn public_timeline_page_min_id(store: &dyn Store) {
    timeline_pages(store, Cursor::MinId).await;
}

/// Public timeline pages honour `max_id` together with `since_id` or `min_id`.
pub async fn public_timeline_page_combined_cursors(store: &dyn Store) {
    timeline_pages(store, Cursor::Combined).await;
}

/// Public timeline cursors need not be ids of stored statuses: they are compared as ids.
pub async fn public_timeline_page_absent_cursors(store: &dyn Store) {
    timeline_pages(store, Cursor::Absent).await;
}

// ---- account_statuses ----

/// The ids of the first page (40) of `account`'s statuses matching `filter`.
async fn account_statuses(
    store: &dyn Store,
    account: Id,
    filter: &AccountStatusesFilter,
) -> Vec<Id> {
    store
        .account_statuses(account, filter, Page::first(40))
        .await
        .expect("account_statuses")
        .into_iter()
        .map(|s| s.id)
        .collect()
}

/// A filter on these visibilities only.
fn visible(visibilities: &[Visibility]) -> AccountStatusesFilter {
    AccountStatusesFilter {
        visibilities: visibilities.to_vec(),
        ..AccountStatusesFilter::default()
    }
}

/// `account_statuses` lists the account's statuses with the given visibilities, newest first,
/// as complete records: not other visibilities, not other accounts' statuses; no visibility
/// (and no `or_mentioning`) lists nothing.
pub async fn account_statuses_filters_by_visibility(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let with = |millis: i64, v: Visibility| StatusRecord {
        visibility: v,
        ..status(&ids, &alice, millis)
    };
    let p1 = add_status(
        store,
        StatusRecord {
            mentions: vec![bob.id],
            tags: vec!["zeta".into(), "alpha".into()],
            language: Some("en".into()),
            ..with(T0 + 1_000, Visibility::Public)
        },
    )
    .await;
    let u2 = add_status(store, with(T0 + 2_000, Visibility::Unlisted)).await;
    let v3 = add_status(store, with(T0 + 3_000, Visibility::Private)).await;
    let d4 = add_status(store, with(T0 + 4_000, Visibility::Direct)).await;
    let b5 = add_status(store, status(&ids, &bob, T0 + 5_000)).await;
    let p6 = add_status(store, with(T0 + 6_000, Visibility::Public)).await;
    use Visibility::*;
    let got = store
        .account_statuses(alice.id, &visible(&[Public, Unlisted]), Page::first(40))
        .await
        .expect("account_statuses");
    assert_eq!(
        got,
        vec![p6.clone(), u2.clone(), p1.clone()],
        "account_statuses must list the account's public and unlisted statuses, newest first, as \
         complete records"
    );
    assert_eq!(
        account_statuses(store, alice.id, &visible(&[Private])).await,
        vec![v3.id],
        "account_statuses must list only the visibilities asked for"
    );
    assert_eq!(
        account_statuses(
            store,
            alice.id,
            &visible(&[Public, Unlisted, Private, Direct])
        )
        .await,
        vec![p6.id, d4.id, v3.id, u2.id, p1.id],
        "account_statuses with every visibility must list every status of the account"
    );
    assert_eq!(
        account_statuses(store, alice.id, &visible(&[])).await,
        vec![],
        "account_statuses with no visibility and no or_mentioning must list nothing"
    );
    assert_eq!(
        account_statuses(store, bob.id, &visible(&[Public])).await,
        vec![b5.id],
        "account_statuses must list only the statuses of the account asked for"
    );
}

/// `or_mentioning` adds the account's statuses that mention that account, whatever their
/// visibility; not statuses mentioning others, not other authors' statuses mentioning it.
pub async fn account_statuses_or_mentioning_adds_mentions_of_the_account(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let viewer = add_local(store, &ids, "viewer").await;
    let other = add_local(store, &ids, "other").await;
    let by = |millis: i64, v: Visibility, mentions: Vec<Id>| StatusRecord {
        visibility: v,
        mentions,
        ..status(&ids, &alice, millis)
    };
    use Visibility::*;
    let p1 = add_status(store, by(T0 + 1_000, Public, vec![])).await;
    let m2 = add_status(store, by(T0 + 2_000, Private, vec![viewer.id])).await;
    let m3 = add_status(store, by(T0 + 3_000, Direct, vec![other.id, viewer.id])).await;
    add_status(store, by(T0 + 4_000, Direct, vec![other.id])).await;
    add_status(store, by(T0 + 5_000, Private, vec![])).await;
    let u6 = add_status(store, by(T0 + 6_000, Unlisted, vec![viewer.id])).await;
    add_status(
        store,
        StatusRecord {
            visibility: Direct,
            mentions: vec![viewer.id],
            ..status(&ids, &other, T0 + 7_000)
        },
    )
    .await;
    let filter = AccountStatusesFilter {
        or_mentioning: Some(viewer.id),
        ..visible(&[Public])
    };
    assert_eq!(
        account_statuses(store, alice.id, &filter).await,
        vec![u6.id, m3.id, m2.id, p1.id],
        "account_statuses must list the visibilities asked for plus the account's statuses \
         mentioning or_mentioning, newest first"
    );
    let filter = AccountStatusesFilter {
        or_mentioning: Some(viewer.id),
        ..visible(&[])
    };
    assert_eq!(
        account_statuses(store, alice.id, &filter).await,
        vec![u6.id, m3.id, m2.id],
        "with no visibility, account_statuses must list the statuses mentioning or_mentioning"
    );
}

/// `exclude_replies` leaves out replies to other accounts and keeps self-replies.
pub async fn account_statuses_exclude_replies_keeps_self_replies(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let parent = add_status(store, status(&ids, &bob, T0 + 1_000)).await;
    let top = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let to_other = add_status(
        store,
        StatusRecord {
            in_reply_to_id: Some(parent.id),
            in_reply_to_account_id: Some(bob.id),
            ..status(&ids, &alice, T0 + 3_000)
        },
    )
    .await;
    let to_self = add_status(
        store,
        StatusRecord {
            in_reply_to_id: Some(top.id),
            in_reply_to_account_id: Some(alice.id),
            ..status(&ids, &alice, T0 + 4_000)
        },
    )
    .await;
    let all = visible(&[Visibility::Public]);
    assert_eq!(
        account_statuses(store, alice.id, &all).await,
        vec![to_self.id, to_other.id, top.id],
        "without exclude_replies, account_statuses must list replies too"
    );
    let filter = AccountStatusesFilter {
        exclude_replies: true,
        ..all
    };
    assert_eq!(
        account_statuses(store, alice.id, &filter).await,
        vec![to_self.id, top.id],
        "exclude_replies must leave out replies to others and keep self-replies"
    );
}

/// `only_media` keeps only statuses with media.
pub async fn account_statuses_only_media(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let m1 = with_media(store, &ids, &alice, status(&ids, &alice, T0 + 1_000), 1).await;
    let m1 = add_status(store, m1).await;
    add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let m3 = with_media(store, &ids, &bob, status(&ids, &bob, T0 + 3_000), 1).await;
    add_status(store, m3).await;
    let m4 = with_media(store, &ids, &alice, status(&ids, &alice, T0 + 4_000), 3).await;
    let m4 = add_status(store, m4).await;
    add_status(store, status(&ids, &alice, T0 + 5_000)).await;
    let filter = AccountStatusesFilter {
        only_media: true,
        ..visible(&[Visibility::Public])
    };
    assert_eq!(
        account_statuses(store, alice.id, &filter).await,
        vec![m4.id, m1.id],
        "only_media must keep only the account's statuses with media"
    );
}

/// `tagged` keeps only statuses carrying exactly that tag (among others), not a longer tag.
pub async fn account_statuses_tagged(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let tagged = |s: StatusRecord, tags: &[&str]| StatusRecord {
        tags: tags.iter().map(|t| t.to_string()).collect(),
        ..s
    };
    let t1 = add_status(store, tagged(status(&ids, &alice, T0 + 1_000), &["rust"])).await;
    add_status(
        store,
        tagged(status(&ids, &alice, T0 + 2_000), &["rustlang"]),
    )
    .await;
    let t3 = add_status(
        store,
        tagged(status(&ids, &alice, T0 + 3_000), &["other", "rust"]),
    )
    .await;
    add_status(store, status(&ids, &alice, T0 + 4_000)).await;
    add_status(store, tagged(status(&ids, &bob, T0 + 5_000), &["rust"])).await;
    add_status(store, tagged(status(&ids, &alice, T0 + 6_000), &["rus"])).await;
    let filter = AccountStatusesFilter {
        tagged: Some("rust".into()),
        ..visible(&[Visibility::Public])
    };
    assert_eq!(
        account_statuses(store, alice.id, &filter).await,
        vec![t3.id, t1.id],
        "tagged must keep only the account's statuses carrying exactly that tag"
    );
}

/// The statuses `or_mentioning` adds still obey `only_media`, `exclude_replies` and `tagged`.
pub async fn account_statuses_or_mentioning_obeys_the_other_filters(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let viewer = add_local(store, &ids, "viewer").await;
    let bob = add_local(store, &ids, "bob").await;
    let parent = add_status(store, status(&ids, &bob, T0 + 500)).await;
    let mention = |millis: i64| StatusRecord {
        visibility: Visibility::Private,
        mentions: vec![viewer.id],
        ..status(&ids, &alice, millis)
    };
    let plain = add_status(store, mention(T0 + 1_000)).await;
    let media = with_media(store, &ids, &alice, mention(T0 + 2_000), 1).await;
    let media = add_status(store, media).await;
    let reply = add_status(
        store,
        StatusRecord {
            in_reply_to_id: Some(parent.id),
            in_reply_to_account_id: Some(bob.id),
            ..mention(T0 + 3_000)
        },
    )
    .await;
    let tagged = add_status(
        store,
        StatusRecord {
            tags: vec!["rust".into()],
            ..mention(T0 + 4_000)
        },
    )
    .await;
    let base = AccountStatusesFilter {
        or_mentioning: Some(viewer.id),
        ..visible(&[Visibility::Public])
    };
    assert_eq!(
        account_statuses(store, alice.id, &base).await,
        vec![tagged.id, reply.id, media.id, plain.id],
        "or_mentioning must add the statuses mentioning the account"
    );
    let cases = [
        (
            "only_media",
            AccountStatusesFilter {
                only_media: true,
                ..base.clone()
            },
            vec![media.id],
        ),
        (
            "exclude_replies",
            AccountStatusesFilter {
                exclude_replies: true,
                ..base.clone()
            },
            vec![tagged.id, media.id, plain.id],
        ),
        (
            "tagged",
            AccountStatusesFilter {
                tagged: Some("rust".into()),
                ..base.clone()
            },
            vec![tagged.id],
        ),
    ];
    for (label, filter, expected) in cases {
        assert_eq!(
            account_statuses(store, alice.id, &filter).await,
            expected,
            "{label} must apply to the statuses or_mentioning adds too"
        );
    }
}

/// `account_statuses` pages honour `limit`, `max_id`, `since_id` and `min_id` on status ids, and
/// count only the statuses matching the filter (other accounts' and other visibilities' statuses
/// in between do not take up the limit).
pub async fn account_statuses_pages(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let mut s = vec![];
    for i in 0..10 {
        let millis = T0 + 1_000 * (i + 1);
        s.push(add_status(store, status(&ids, &alice, millis)).await.id);
        add_status(
            store,
            StatusRecord {
                visibility: Visibility::Private,
                ..status(&ids, &alice, millis + 300)
            },
        )
        .await;
        add_status(store, status(&ids, &bob, millis + 600)).await;
    }
    let filter = visible(&[Visibility::Public]);
    let filter = &filter;
    let read = |page: Page| async move {
        store
            .account_statuses(alice.id, filter, page)
            .await
            .expect("account_statuses")
            .into_iter()
            .map(|s| s.id)
            .collect::<Vec<_>>()
    };
    for kind in [
        Cursor::Limit,
        Cursor::MaxId,
        Cursor::SinceId,
        Cursor::MinId,
        Cursor::Combined,
        Cursor::Absent,
    ] {
        assert_pages("account_statuses", kind, &s, read).await;
    }
}

async fn feed(store: &dyn Store, account: Id) -> Vec<Id> {
    store
        .home_feed(account, Page::first(40))
        .await
        .expect("home_feed")
}

/// A reply raises its parent's `replies_count` (a self-reply too; a reply to a reply counts on
/// that reply only), and deleting it lowers the count again.
pub async fn replies_count_follows_insert_and_delete_of_replies(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let s = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let other = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let r1 = add_status(store, reply(&ids, &bob, &s, T0 + 3_000)).await;
    let r2 = add_status(store, reply(&ids, &alice, &s, T0 + 4_000)).await;
    let nested = add_status(store, reply(&ids, &alice, &r1, T0 + 5_000)).await;
    assert_eq!(
        counters(store, s.id).await,
        (2, 0, 0),
        "each direct reply (a self-reply too) must raise the parent's replies_count, \
         a reply to a reply must not count on the thread's first status"
    );
    assert_eq!(
        counters(store, r1.id).await,
        (1, 0, 0),
        "a reply to a reply must raise that reply's replies_count"
    );
    assert_eq!(
        counters(store, other.id).await,
        (0, 0, 0),
        "replies must not count on other statuses"
    );
    store.delete_status(r2.id).await.expect("delete_status");
    assert_eq!(
        counters(store, s.id).await,
        (1, 0, 0),
        "deleting a reply must lower the parent's replies_count"
    );
    store.delete_status(nested.id).await.expect("delete_status");
    assert_eq!(
        counters(store, r1.id).await,
        (0, 0, 0),
        "deleting a reply to a reply must lower that reply's replies_count"
    );
    assert_eq!(
        counters(store, s.id).await,
        (1, 0, 0),
        "deleting a reply to a reply must not change the thread's first status"
    );
}

/// `link_reply` makes a status stored as replying to nothing a reply to a status stored after
/// it: parent and parent's author set, the thread it began (its replies too) moved into the
/// parent's, the parent's `replies_count` raised, once. A
/// status that replies already, a reblog (either side) or the status itself is refused with
/// `false` and no change; an unknown status (either side) is `NotFound`. Without
/// [`Capability::LinksReplies`] (the trait's default), the weaker promise: nothing is linked,
/// `false` and no change.
pub async fn link_reply_threads_a_reply_stored_before_its_parent(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let root = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let parent = add_status(store, reply(&ids, &bob, &root, T0 + 2_000)).await;
    let orphan = add_status(store, status(&ids, &alice, T0 + 3_000)).await;
    let below = add_status(store, reply(&ids, &bob, &orphan, T0 + 3_500)).await;
    let elsewhere = add_status(store, status(&ids, &bob, T0 + 3_700)).await;
    if !capabilities.has(Capability::LinksReplies) {
        let linked = store.link_reply(orphan.id, parent.id).await;
        assert!(
            !linked.expect("link_reply"),
            "a store that links no reply answers false (or claim LinksReplies)"
        );
        for s in [&orphan, &below] {
            let now = get_status(store, s.id).await;
            assert_eq!(
                (now.in_reply_to_id, now.conversation_id),
                (s.in_reply_to_id, s.conversation_id),
                "a store that links no reply leaves the statuses as they are"
            );
        }
        assert_eq!(
            counters(store, parent.id).await,
            (0, 0, 0),
            "a store that links no reply counts none"
        );
        return;
    }
    assert!(
        store
            .link_reply(orphan.id, parent.id)
            .await
            .expect("link_reply"),
        "link_reply must link a status that replies to nothing"
    );
    assert_eq!(
        get_status(store, orphan.id).await,
        StatusRecord {
            in_reply_to_id: Some(parent.id),
            in_reply_to_account_id: Some(bob.id),
            conversation_id: Some(root.id),
            replies_count: 1, // `below`
            ..orphan.clone()
        },
        "link_reply must set the parent, its author and its thread, and nothing else"
    );
    assert_eq!(
        get_status(store, below.id).await,
        StatusRecord {
            conversation_id: Some(root.id),
            ..below.clone()
        },
        "the replies in the thread the status began must move to the parent's thread"
    );
    assert_eq!(
        get_status(store, elsewhere.id).await,
        elsewhere,
        "statuses of other threads must stay as they were"
    );
    assert_eq!(
        counters(store, parent.id).await,
        (1, 0, 0),
        "link_reply must raise the parent's replies_count"
    );
    let again = store
        .link_reply(orphan.id, root.id)
        .await
        .expect("link_reply");
    assert!(
        !again,
        "a status that replies already must not be linked again"
    );
    assert_eq!(
        (
            get_status(store, orphan.id).await.in_reply_to_id,
            counters(store, parent.id).await,
            counters(store, root.id).await,
            counters(store, orphan.id).await,
        ),
        (Some(parent.id), (1, 0, 0), (1, 0, 0), (1, 0, 0)),
        "a refused link must change nothing"
    );
    let lone = add_status(store, status(&ids, &bob, T0 + 4_000)).await;
    let boost = add_status(store, reblog(&ids, &bob, &root, T0 + 5_000)).await;
    for (child, to, what) in [
        (lone.id, lone.id, "a status to itself"),
        (lone.id, boost.id, "a status to a reblog"),
        (boost.id, lone.id, "a reblog"),
    ] {
        let linked = store.link_reply(child, to).await.expect("link_reply");
        assert!(!linked, "link_reply must refuse to link {what}");
    }
    assert_eq!(
        get_status(store, lone.id).await,
        lone,
        "a refused link must leave the status as it was"
    );
    let unknown = ids.next_at(T0 + 6_000);
    assert_not_found(
        store.link_reply(unknown, root.id).await,
        "link_reply of an unknown status",
    );
    assert_not_found(
        store.link_reply(lone.id, unknown).await,
        "link_reply to an unknown parent",
    );
}

/// A reblog raises the original's `reblogs_count` and counts as a status of its author;
/// deleting the reblog lowers both again and keeps the original.
pub async fn reblogs_count_follows_insert_and_delete_of_reblogs(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_remote(store, &ids, "carol", "remote.example").await;
    let s = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let other = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let rb = add_status(store, reblog(&ids, &bob, &s, T0 + 3_000)).await;
    add_status(store, reblog(&ids, &carol, &s, T0 + 4_000)).await;
    assert_eq!(
        counters(store, s.id).await,
        (0, 2, 0),
        "each reblog must raise the original's reblogs_count (and no other counter)"
    );
    assert_eq!(
        counters(store, other.id).await,
        (0, 0, 0),
        "reblogs must not count on other statuses"
    );
    assert_eq!(
        get_account(store, bob.id).await.statuses_count,
        1,
        "a reblog must count as a status of its author"
    );
    assert_eq!(
        get_account(store, alice.id).await.statuses_count,
        2,
        "a reblog must not count as a status of the original's author"
    );
    store.delete_status(rb.id).await.expect("delete_status");
    assert_eq!(
        counters(store, s.id).await,
        (0, 1, 0),
        "deleting a reblog must lower the original's reblogs_count"
    );
    assert_eq!(
        get_account(store, bob.id).await.statuses_count,
        0,
        "deleting a reblog must lower its author's statuses_count"
    );
    assert!(
        store
            .status_by_id(s.id)
            .await
            .expect("status_by_id")
            .is_some(),
        "deleting a reblog must keep the original"
    );
}

/// A second reblog of one status by one author is `AlreadyExists("reblog")` and changes
/// nothing; other authors may reblog it, the author may reblog other statuses, and may reblog
/// it again once the first reblog is deleted.
pub async fn duplicate_reblog_is_already_exists(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let s = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let first = add_status(store, reblog(&ids, &bob, &s, T0 + 3_000)).await;
    let again = reblog(&ids, &bob, &s, T0 + 4_000);
    assert_already_exists(
        store.insert_status(&again).await,
        "reblog",
        "insert_status of a second reblog of one status by one author",
    );
    assert_eq!(
        store.status_by_id(again.id).await.expect("status_by_id"),
        None,
        "a rejected reblog must not be stored"
    );
    assert_eq!(
        counters(store, s.id).await,
        (0, 1, 0),
        "a rejected reblog must not count on the original"
    );
    assert_eq!(
        get_account(store, bob.id).await.statuses_count,
        1,
        "a rejected reblog must not count as a status of its author"
    );
    add_status(store, reblog(&ids, &carol, &s, T0 + 5_000)).await;
    add_status(store, reblog(&ids, &bob, &s2, T0 + 6_000)).await;
    assert_eq!(
        counters(store, s.id).await,
        (0, 2, 0),
        "another author's reblog of the status must be accepted"
    );
    store.delete_status(first.id).await.expect("delete_status");
    add_status(store, reblog(&ids, &bob, &s, T0 + 7_000)).await;
    assert_eq!(
        counters(store, s.id).await,
        (0, 2, 0),
        "an author may reblog a status again once the first reblog is deleted"
    );
}

/// Deleting a status removes its favourites (with their places in favourites pages), its
/// bookmarks and its pins, keeping those of other statuses.
pub async fn delete_status_removes_its_favourites_bookmarks_and_pins(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let mut kept = (Id(0), Id(0));
    for (i, s) in (0i64..).zip([&s1, &s2]) {
        let f = ids.next_at(T0 + 10_000 + i * 1_000);
        store
            .insert_favourite(f, bob.id, s.id)
            .await
            .expect("insert_favourite");
        let b = ids.next_at(T0 + 10_100 + i * 1_000);
        store
            .insert_bookmark(b, bob.id, s.id)
            .await
            .expect("insert_bookmark");
        let p = ids.next_at(T0 + 10_200 + i * 1_000);
        store
            .insert_pin(p, alice.id, s.id)
            .await
            .expect("insert_pin");
        kept = (f, b);
    }
    store.delete_status(s1.id).await.expect("delete_status");
    let page = Page::first(40);
    assert_eq!(
        store
            .favourites_page(bob.id, page)
            .await
            .expect("favourites_page"),
        vec![(kept.0, s2.id)],
        "delete_status must remove the status's favourites, keeping other statuses'"
    );
    assert_eq!(
        store
            .favourited_by_page(s1.id, page)
            .await
            .expect("favourited_by_page"),
        vec![],
        "delete_status must remove the status's favourites"
    );
    assert_eq!(
        store
            .favourited_among(bob.id, &[s1.id, s2.id])
            .await
            .expect("favourited_among"),
        vec![s2.id],
        "delete_status must remove the status's favourites"
    );
    assert_eq!(
        store
            .bookmarks_page(bob.id, page)
            .await
            .expect("bookmarks_page"),
        vec![(kept.1, s2.id)],
        "delete_status must remove the status's bookmarks, keeping other statuses'"
    );
    assert_eq!(
        store
            .pinned_status_ids(alice.id)
            .await
            .expect("pinned_status_ids"),
        vec![s2.id],
        "delete_status must remove the status's pin, keeping other pins"
    );
    assert_eq!(
        counters(store, s2.id).await,
        (0, 0, 1),
        "deleting one status must not change another's counters"
    );
}

/// Deleting a status deletes its reblogs with their feed entries (the reblog authors'
/// `statuses_count` lowered), keeping the authors' other reblogs and statuses.
pub async fn delete_status_removes_its_reblogs_with_feed_entries(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let s = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let rb = add_status(store, reblog(&ids, &bob, &s, T0 + 3_000)).await;
    let rc = add_status(store, reblog(&ids, &carol, &s, T0 + 4_000)).await;
    let kept = add_status(store, reblog(&ids, &bob, &s2, T0 + 5_000)).await;
    for (x, author) in [
        (&s, &alice),
        (&s2, &alice),
        (&rb, &bob),
        (&rc, &carol),
        (&kept, &bob),
    ] {
        store
            .insert_feed_entries(x.id, author.id, &[alice.id, bob.id, carol.id])
            .await
            .expect("insert_feed_entries");
    }
    store.delete_status(s.id).await.expect("delete_status");
    for r in [&rb, &rc] {
        assert_eq!(
            store.status_by_id(r.id).await.expect("status_by_id"),
            None,
            "delete_status must delete the status's reblogs"
        );
    }
    assert_eq!(
        store.reblog_by(bob.id, s.id).await.expect("reblog_by"),
        None,
        "delete_status must delete the status's reblogs"
    );
    assert_eq!(
        store
            .reblogged_by_page(s.id, Page::first(40))
            .await
            .expect("reblogged_by_page"),
        vec![],
        "delete_status must delete the status's reblogs"
    );
    assert_eq!(
        (
            get_account(store, bob.id).await.statuses_count,
            get_account(store, carol.id).await.statuses_count,
            get_account(store, alice.id).await.statuses_count,
        ),
        (1, 0, 1),
        "deleting a status must lower its reblog authors' statuses_count (and its author's)"
    );
    for reader in [&alice, &bob, &carol] {
        assert_eq!(
            feed(store, reader.id).await,
            vec![kept.id, s2.id],
            "delete_status must remove its reblogs from every home feed ({}'s), keeping others",
            reader.username
        );
    }
    assert_eq!(
        get_status(store, kept.id).await.reblog_of_id,
        Some(s2.id),
        "reblogs of other statuses must stay"
    );
}

/// Deleting a status keeps the replies to it, as they were.
pub async fn delete_status_keeps_replies_to_it(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let r1 = add_status(store, reply(&ids, &bob, &s, T0 + 2_000)).await;
    let r2 = add_status(store, reply(&ids, &alice, &s, T0 + 3_000)).await;
    store.delete_status(s.id).await.expect("delete_status");
    for r in [r1, r2] {
        assert_eq!(
            store.status_by_id(r.id).await.expect("status_by_id"),
            Some(r),
            "delete_status must keep the replies to the status unchanged"
        );
    }
    assert_eq!(
        get_account(store, bob.id).await.statuses_count,
        1,
        "deleting a status must not change the statuses_count of its repliers"
    );
}

/// The public timeline leaves out reblogs (of public statuses too) and keeps their originals.
pub async fn public_timeline_leaves_out_reblogs(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let a1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let b1 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    add_status(store, reblog(&ids, &bob, &a1, T0 + 3_000)).await;
    add_status(store, reblog(&ids, &alice, &b1, T0 + 4_000)).await;
    let a2 = add_status(store, status(&ids, &alice, T0 + 5_000)).await;
    assert_eq!(
        timeline(store, PublicTimelineFilter::default()).await,
        vec![a2.id, b1.id, a1.id],
        "the public timeline must leave out reblogs"
    );
    let local = PublicTimelineFilter {
        local: true,
        ..PublicTimelineFilter::default()
    };
    assert_eq!(
        timeline(store, local).await,
        vec![a2.id, a1.id],
        "the local timeline must leave out reblogs"
    );
}

/// `account_statuses` lists the account's reblogs (under the reblog's own visibility) unless
/// `exclude_reblogs` is set; `exclude_reblogs` keeps the account's own statuses and replies.
pub async fn account_statuses_exclude_reblogs(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let b1 = add_status(store, status(&ids, &bob, T0 + 1_000)).await;
    let a1 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let rb = add_status(store, reblog(&ids, &alice, &b1, T0 + 3_000)).await;
    let ar = add_status(store, reply(&ids, &alice, &b1, T0 + 4_000)).await;
    let base = visible(&[Visibility::Public]);
    assert_eq!(
        account_statuses(store, alice.id, &base).await,
        vec![ar.id, rb.id, a1.id],
        "account_statuses must list the account's reblogs when exclude_reblogs is unset"
    );
    let filter = AccountStatusesFilter {
        exclude_reblogs: true,
        ..base
    };
    assert_eq!(
        account_statuses(store, alice.id, &filter).await,
        vec![ar.id, a1.id],
        "exclude_reblogs must leave out the account's reblogs, keeping its statuses and replies"
    );
    assert_eq!(
        account_statuses(store, bob.id, &visible(&[Visibility::Public])).await,
        vec![b1.id],
        "a reblog is a status of the reblogger, not of the original's author"
    );
}
