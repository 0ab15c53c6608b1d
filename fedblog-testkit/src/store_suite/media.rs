//! Checks of [`MediaStore`](fedblog_core::store::MediaStore) and of how the status and account
//! stores treat media: attachments round-tripping, updates of what processing and clients
//! change, removal of unattached uploads, attaching on insert and edit (all or nothing),
//! detaching on status deletion, and removal with the account; and custom emojis, kept per
//! shortcode and domain.

use fedblog_core::store::{
    AccountRecord, CustomEmojiRecord, MediaKind, MediaRecord, ScheduledStatusRecord,
    StatusEditRecord, StatusRecord,
};
use fedblog_core::{Id, IdGenerator, Store};

use super::{
    Capabilities, Capability, T0, add_local, add_media, add_status, assert_already_exists,
    assert_not_found, at, get_account, get_status, media, reply, scheduled_status, status,
};

/// A media attachment of `owner` uploaded at `millis` of `kind` with every optional field set
/// (not attached, not reserved). Not inserted.
fn full_media(
    ids: &IdGenerator,
    owner: &AccountRecord,
    millis: i64,
    kind: MediaKind,
) -> MediaRecord {
    let m = media(ids, owner, millis);
    MediaRecord {
        kind,
        file_key: format!("media/{}/original.bin", m.id),
        // Past 32 bits.
        file_size: 5_000_000_123,
        preview_key: Some(format!("media/{}/small.png", m.id)),
        thumbnail_key: Some(format!("media/{}/thumbnail.png", m.id)),
        description: Some("A cat 🐈 on a \"mat\",\nsecond line".into()),
        focus: Some((-0.5, 0.75)),
        meta: r#"{"original":{"width":1920,"height":1080,"duration":12.5},"small":{"width":400,"height":225}}"#
            .into(),
        blurhash: Some("LEHV6nWB2yk8pyo0adR*.7kCMdnj".into()),
        processed: true,
        remote_url: Some(format!("https://remote.example/files/{}.bin", m.id)),
        ..m
    }
}

/// Inserts `scheduled_status(ids, account, millis)` and returns it.
async fn add_scheduled(
    store: &dyn Store,
    ids: &IdGenerator,
    account: Id,
    millis: i64,
) -> ScheduledStatusRecord {
    let s = scheduled_status(ids, account, millis);
    store
        .insert_scheduled_status(&s)
        .await
        .unwrap_or_else(|e| panic!("insert_scheduled_status({}) failed: {e:?}", s.id));
    s
}

/// The stored attachment, if any.
async fn find_media(store: &dyn Store, id: Id) -> Option<MediaRecord> {
    store
        .media_by_id(id)
        .await
        .unwrap_or_else(|e| panic!("media_by_id({id}) failed: {e:?}"))
}

/// The stored attachment, which must exist.
async fn get_media(store: &dyn Store, id: Id) -> MediaRecord {
    find_media(store, id)
        .await
        .unwrap_or_else(|| panic!("media_by_id({id}): this attachment must be found"))
}

/// `media_by_ids`, sorted by id.
async fn media_by_ids(store: &dyn Store, ids: &[Id]) -> Vec<MediaRecord> {
    let mut got = store
        .media_by_ids(ids)
        .await
        .unwrap_or_else(|e| panic!("media_by_ids({ids:?}) failed: {e:?}"));
    got.sort_by_key(|m| m.id);
    got
}

/// `account_media`, sorted by id.
async fn account_media(store: &dyn Store, account: Id) -> Vec<MediaRecord> {
    let mut got = store
        .account_media(account)
        .await
        .unwrap_or_else(|e| panic!("account_media({account}) failed: {e:?}"));
    got.sort_by_key(|m| m.id);
    got
}

async fn update_media(store: &dyn Store, m: &MediaRecord) {
    store
        .update_media(m)
        .await
        .unwrap_or_else(|e| panic!("update_media({}) failed: {e:?}", m.id));
}

async fn delete_unattached(store: &dyn Store, id: Id) -> Option<MediaRecord> {
    store
        .delete_unattached_media(id)
        .await
        .unwrap_or_else(|e| panic!("delete_unattached_media({id}) failed: {e:?}"))
}

/// `m` attached to `status`.
fn attached(m: &MediaRecord, status: &StatusRecord) -> MediaRecord {
    MediaRecord {
        status_id: Some(status.id),
        ..m.clone()
    }
}

/// `s` edited at `millis` with this text and these media.
fn edited(s: &StatusRecord, millis: i64, text: &str, media_ids: Vec<Id>) -> StatusRecord {
    StatusRecord {
        text: text.to_string(),
        content: format!("<p>{text}</p>"),
        media_ids,
        edited_at: Some(at(millis)),
        ..s.clone()
    }
}

/// The revision recording `s` (as edited) at `millis` (its id made at the same time).
fn revision(ids: &IdGenerator, s: &StatusRecord, millis: i64) -> StatusEditRecord {
    StatusEditRecord {
        id: ids.next_at(millis),
        status_id: s.id,
        account_id: s.account_id,
        text: s.text.clone(),
        content: s.content.clone(),
        spoiler_text: s.spoiler_text.clone(),
        sensitive: s.sensitive,
        media_ids: s.media_ids.clone(),
        poll_options: None,
        created_at: at(millis),
    }
}

/// Edits `s` as `new` with one revision made at `millis`, which must succeed.
async fn edit(store: &dyn Store, ids: &IdGenerator, new: &StatusRecord, millis: i64) {
    store
        .update_status(new, &[revision(ids, new, millis)])
        .await
        .unwrap_or_else(|e| panic!("update_status({}) failed: {e:?}", new.id));
}

/// An attachment comes back exactly as inserted from `media_by_id` and `media_by_ids`: every
/// kind, every optional field set (the focal point's coordinates in order, `meta` as the same
/// text, a file size past 32 bits, `created_at` to the millisecond) or unset. `media_by_ids`
/// skips unknown ids and repeats; unknown ids and empty lists find nothing.
pub async fn media_round_trips_by_id_and_by_ids(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let sched = add_scheduled(store, &ids, alice.id, T0 + 500).await;
    let full = add_media(
        store,
        MediaRecord {
            scheduled_status_id: Some(sched.id),
            created_at: at(T0 + 1_234),
            ..full_media(&ids, &alice, T0 + 1_234, MediaKind::Video)
        },
    )
    .await;
    let plain = add_media(store, media(&ids, &alice, T0 + 2_000)).await;
    assert_eq!(
        get_media(store, full.id).await,
        full,
        "media_by_id must return the attachment exactly as inserted (kind, keys, size, \
         description, focus (x, y), meta, blurhash, processed, remote_url, scheduled_status_id, \
         created_at to the millisecond)"
    );
    assert_eq!(
        get_media(store, plain.id).await,
        plain,
        "media_by_id must return an attachment with its optional fields unset as inserted"
    );
    let mut kinds = vec![];
    for (i, kind) in [
        MediaKind::Image,
        MediaKind::Gifv,
        MediaKind::Video,
        MediaKind::Audio,
        MediaKind::Unknown,
    ]
    .into_iter()
    .enumerate()
    {
        let m = MediaRecord {
            kind,
            ..media(&ids, &alice, T0 + 3_000 + i as i64)
        };
        kinds.push(add_media(store, m).await);
    }
    for m in &kinds {
        assert_eq!(
            get_media(store, m.id).await.kind,
            m.kind,
            "media_by_id must return the kind as inserted"
        );
    }
    let unknown = ids.next_at(T0 + 9_000);
    assert_eq!(
        media_by_ids(store, &[full.id, unknown, plain.id, full.id]).await,
        vec![full.clone(), plain.clone()],
        "media_by_ids must return each known attachment once, complete, skipping unknown ids"
    );
    assert_eq!(
        media_by_ids(store, &[]).await,
        vec![],
        "media_by_ids of no ids must be empty"
    );
    assert_eq!(
        find_media(store, unknown).await,
        None,
        "media_by_id of an unknown id must be None"
    );
}

/// Inserting an attachment with a taken id is `AlreadyExists("media")` and keeps the stored one.
pub async fn duplicate_media_id_is_already_exists(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let first = add_media(store, media(&ids, &alice, T0 + 1_000)).await;
    let again = MediaRecord {
        id: first.id,
        ..full_media(&ids, &bob, T0 + 2_000, MediaKind::Audio)
    };
    assert_already_exists(
        store.insert_media(&again).await,
        "media",
        "insert_media with a taken id",
    );
    assert_eq!(
        get_media(store, first.id).await,
        first,
        "a refused insert_media must leave the stored attachment as it was"
    );
    assert_eq!(
        account_media(store, bob.id).await,
        vec![],
        "a refused insert_media must store nothing"
    );
}

/// `update_media` replaces exactly `scheduled_status_id`, `thumbnail_key`, `description` and
/// `focus` (set, changed or cleared) and keeps the rest (owner, `status_id`, kind, file, size,
/// what processing made, remote URL, `created_at`) whatever the given record says; other
/// attachments are untouched.
pub async fn update_media_replaces_exactly_the_listed_fields(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let sched = add_scheduled(store, &ids, alice.id, T0 + 500).await;
    let m = add_media(store, media(&ids, &alice, T0 + 1_000)).await;
    let other = add_media(store, media(&ids, &alice, T0 + 1_001)).await;
    let s = add_status(
        store,
        StatusRecord {
            media_ids: vec![m.id],
            ..status(&ids, &alice, T0 + 2_000)
        },
    )
    .await;
    let stored = get_media(store, m.id).await;
    assert_eq!(
        stored.status_id,
        Some(s.id),
        "fixture: the attachment is attached to a status"
    );

    let given = MediaRecord {
        // Replaced.
        scheduled_status_id: Some(sched.id),
        preview_key: Some("media/processed/small.png".into()),
        thumbnail_key: Some("media/client/thumb.jpg".into()),
        description: Some("alt text ✓".into()),
        focus: Some((0.25, -0.5)),
        meta: r#"{"original":{"width":640,"height":480},"small":{"width":400,"height":300}}"#
            .into(),
        blurhash: Some("L6PZfSi_.AyE_3t7t7R**0o#DgR4".into()),
        processed: true,
        // Kept.
        account_id: bob.id,
        status_id: None,
        kind: MediaKind::Video,
        file_key: "media/elsewhere.mp4".into(),
        file_size: 1,
        remote_url: Some("https://elsewhere.example/a.mp4".into()),
        created_at: at(T0 + 99_000),
        id: m.id,
    };
    update_media(store, &given).await;
    let expected = MediaRecord {
        scheduled_status_id: given.scheduled_status_id,
        thumbnail_key: given.thumbnail_key.clone(),
        description: given.description.clone(),
        focus: given.focus,
        ..stored
    };
    assert_eq!(
        get_media(store, m.id).await,
        expected,
        "update_media must replace scheduled_status_id, thumbnail_key, description and focus, \
         and keep owner, status_id, kind, file, size, preview_key, meta, blurhash, processed, \
         remote_url and created_at"
    );

    let cleared = MediaRecord {
        scheduled_status_id: None,
        thumbnail_key: None,
        description: None,
        focus: None,
        ..expected
    };
    update_media(store, &cleared).await;
    assert_eq!(
        get_media(store, m.id).await,
        cleared,
        "update_media must clear the listed fields given as None"
    );
    assert_eq!(
        get_media(store, other.id).await,
        other,
        "update_media must leave other attachments alone"
    );
}

/// `finish_media_processing` replaces exactly `preview_key`, `meta` and `blurhash` and sets
/// `processed`; what a client set meanwhile (description, focus, thumbnail, reservation) and
/// everything else stays; an unknown attachment is `NotFound`.
pub async fn finish_media_processing_keeps_client_fields(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let sched = add_scheduled(store, &ids, alice.id, T0 + 500).await;
    let m = add_media(
        store,
        MediaRecord {
            processed: false,
            ..media(&ids, &alice, T0 + 1_000)
        },
    )
    .await;
    let other = add_media(store, media(&ids, &alice, T0 + 1_001)).await;
    // A client describes the upload while it is being processed.
    let described = MediaRecord {
        scheduled_status_id: Some(sched.id),
        thumbnail_key: Some("media/client/thumb.jpg".into()),
        description: Some("set during processing".into()),
        focus: Some((0.5, 0.5)),
        ..get_media(store, m.id).await
    };
    update_media(store, &described).await;
    // The job read the record before that and finishes with its stale copy.
    let processed = MediaRecord {
        preview_key: Some("media/processed/small.jpg".into()),
        meta: r#"{"original":{"width":640,"height":480},"small":{"width":400,"height":300}}"#
            .into(),
        blurhash: Some("L6PZfSi_.AyE_3t7t7R**0o#DgR4".into()),
        processed: false,
        ..m.clone()
    };
    store
        .finish_media_processing(&processed)
        .await
        .unwrap_or_else(|e| panic!("finish_media_processing({}) failed: {e:?}", m.id));
    assert_eq!(
        get_media(store, m.id).await,
        MediaRecord {
            preview_key: processed.preview_key.clone(),
            meta: processed.meta.clone(),
            blurhash: processed.blurhash.clone(),
            processed: true,
            ..described
        },
        "finish_media_processing must replace preview_key, meta and blurhash, set processed, \
         and keep the client's description, focus, thumbnail and reservation"
    );
    assert_eq!(
        get_media(store, other.id).await,
        other,
        "finish_media_processing must leave other attachments alone"
    );
    let ghost = media(&ids, &alice, T0 + 9_000);
    assert_not_found(
        store.finish_media_processing(&ghost).await,
        "finish_media_processing of an unknown attachment",
    );
    assert_eq!(
        find_media(store, ghost.id).await,
        None,
        "finish_media_processing of an unknown attachment must not create it"
    );
}

/// `update_media` of an unknown attachment is `NotFound` and creates nothing.
pub async fn update_unknown_media_is_not_found(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let ghost = full_media(&ids, &alice, T0 + 1_000, MediaKind::Image);
    assert_not_found(
        store.update_media(&ghost).await,
        "update_media of an unknown attachment",
    );
    assert_eq!(
        find_media(store, ghost.id).await,
        None,
        "update_media of an unknown attachment must not create it"
    );
}

/// `delete_unattached_media` removes an attachment that is neither attached nor reserved and
/// returns it as it was; a second call, or one for an unknown id, returns `None`. Other
/// attachments stay.
pub async fn delete_unattached_media_removes_free_media_once(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let free = add_media(
        store,
        full_media(&ids, &alice, T0 + 1_000, MediaKind::Image),
    )
    .await;
    let keep = add_media(store, media(&ids, &alice, T0 + 2_000)).await;
    assert_eq!(
        delete_unattached(store, free.id).await,
        Some(free.clone()),
        "delete_unattached_media of a free attachment must return it as it was"
    );
    assert_eq!(
        find_media(store, free.id).await,
        None,
        "delete_unattached_media must remove the free attachment"
    );
    assert_eq!(
        delete_unattached(store, free.id).await,
        None,
        "delete_unattached_media of an attachment already removed must be None"
    );
    assert_eq!(
        delete_unattached(store, ids.next_at(T0 + 9_000)).await,
        None,
        "delete_unattached_media of an unknown id must be None"
    );
    assert_eq!(
        account_media(store, alice.id).await,
        vec![keep],
        "delete_unattached_media must leave other attachments alone"
    );
}

/// `delete_unattached_media` refuses (returns `None` and keeps) an attachment attached to a
/// status and one reserved by a scheduled status.
pub async fn delete_unattached_media_refuses_attached_and_reserved_media(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let sched = add_scheduled(store, &ids, alice.id, T0 + 500).await;
    let on_status = add_media(store, media(&ids, &alice, T0 + 1_000)).await;
    let reserved = add_media(
        store,
        MediaRecord {
            scheduled_status_id: Some(sched.id),
            ..media(&ids, &alice, T0 + 1_001)
        },
    )
    .await;
    let s = add_status(
        store,
        StatusRecord {
            media_ids: vec![on_status.id],
            ..status(&ids, &alice, T0 + 2_000)
        },
    )
    .await;
    assert_eq!(
        delete_unattached(store, on_status.id).await,
        None,
        "delete_unattached_media of an attachment attached to a status must be None"
    );
    assert_eq!(
        get_media(store, on_status.id).await,
        attached(&on_status, &s),
        "delete_unattached_media must keep an attachment attached to a status"
    );
    assert_eq!(
        delete_unattached(store, reserved.id).await,
        None,
        "delete_unattached_media of an attachment reserved by a scheduled status must be None"
    );
    assert_eq!(
        get_media(store, reserved.id).await,
        reserved,
        "delete_unattached_media must keep an attachment reserved by a scheduled status"
    );
}

/// `account_media` lists every attachment the account uploaded (free, attached and reserved
/// alike, complete), and no other account's.
pub async fn account_media_lists_all_and_only_the_accounts_media(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let sched = add_scheduled(store, &ids, alice.id, T0 + 500).await;
    let free = add_media(store, full_media(&ids, &alice, T0 + 1_000, MediaKind::Gifv)).await;
    let on_status = add_media(store, media(&ids, &alice, T0 + 1_001)).await;
    let reserved = add_media(
        store,
        MediaRecord {
            scheduled_status_id: Some(sched.id),
            ..media(&ids, &alice, T0 + 1_002)
        },
    )
    .await;
    let bobs = add_media(store, media(&ids, &bob, T0 + 1_003)).await;
    let s = add_status(
        store,
        StatusRecord {
            media_ids: vec![on_status.id],
            ..status(&ids, &alice, T0 + 2_000)
        },
    )
    .await;
    assert_eq!(
        account_media(store, alice.id).await,
        vec![free, attached(&on_status, &s), reserved],
        "account_media must list every attachment of the account, free, attached or reserved"
    );
    assert_eq!(
        account_media(store, bob.id).await,
        vec![bobs],
        "account_media must list only the account's attachments"
    );
    assert_eq!(
        account_media(store, carol.id).await,
        vec![],
        "account_media of an account without uploads must be empty"
    );
}

/// `insert_status` attaches the media it lists (their `status_id`, nothing else changed), keeps
/// `media_ids` in the given order, and leaves other media alone; media reserved by a scheduled
/// status are attached too (that is how a scheduled status is published).
pub async fn insert_status_attaches_its_media(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let sched = add_scheduled(store, &ids, alice.id, T0 + 500).await;
    let m1 = add_media(store, media(&ids, &alice, T0 + 1_000)).await;
    let m2 = add_media(
        store,
        full_media(&ids, &alice, T0 + 1_001, MediaKind::Audio),
    )
    .await;
    let m3 = add_media(store, media(&ids, &alice, T0 + 1_002)).await;
    let reserved = add_media(
        store,
        MediaRecord {
            scheduled_status_id: Some(sched.id),
            ..media(&ids, &alice, T0 + 1_003)
        },
    )
    .await;
    let s = add_status(
        store,
        StatusRecord {
            media_ids: vec![m2.id, m1.id],
            ..status(&ids, &alice, T0 + 2_000)
        },
    )
    .await;
    assert_eq!(
        get_status(store, s.id).await.media_ids,
        vec![m2.id, m1.id],
        "the status must keep its media_ids in the given order"
    );
    assert_eq!(
        (get_media(store, m1.id).await, get_media(store, m2.id).await),
        (attached(&m1, &s), attached(&m2, &s)),
        "insert_status must attach each listed attachment to the status and change nothing else"
    );
    add_status(store, status(&ids, &alice, T0 + 3_000)).await;
    assert_eq!(
        get_media(store, m3.id).await,
        m3,
        "insert_status must leave media it does not list unattached"
    );
    let published = add_status(
        store,
        StatusRecord {
            media_ids: vec![reserved.id],
            ..status(&ids, &alice, T0 + 4_000)
        },
    )
    .await;
    assert_eq!(
        get_media(store, reserved.id).await.status_id,
        Some(published.id),
        "insert_status must attach media reserved by a scheduled status"
    );
}

/// What `insert_status` refusing a status for one `bad` attachment among its media must leave:
/// `AlreadyExists("media")`, no status, the author's and parent's counters as they were, the
/// good attachment unattached; the status without the bad attachment is accepted afterwards.
async fn assert_insert_refused(
    store: &dyn Store,
    ids: &IdGenerator,
    author: &AccountRecord,
    parent: &StatusRecord,
    bad: Id,
    what: &str,
) {
    let good = add_media(store, media(ids, author, T0 + 50_000)).await;
    let before = get_account(store, author.id).await;
    let parent_before = get_status(store, parent.id).await.replies_count;
    let s = StatusRecord {
        media_ids: vec![good.id, bad],
        ..reply(ids, author, parent, T0 + 60_000)
    };
    assert_already_exists(
        store.insert_status(&s).await,
        "media",
        &format!("insert_status with {what}"),
    );
    assert_eq!(
        store.status_by_id(s.id).await.expect("status_by_id"),
        None,
        "insert_status refused for {what} must not store the status"
    );
    let after = get_account(store, author.id).await;
    assert_eq!(
        (
            after.statuses_count,
            after.last_status_at,
            get_status(store, parent.id).await.replies_count
        ),
        (before.statuses_count, before.last_status_at, parent_before),
        "insert_status refused for {what} must leave the author's statuses_count and \
         last_status_at and the parent's replies_count as they were"
    );
    assert_eq!(
        get_media(store, good.id).await,
        good,
        "insert_status refused for {what} must attach none of the media (all or nothing)"
    );
    let retry = StatusRecord {
        media_ids: vec![good.id],
        ..s
    };
    store.insert_status(&retry).await.unwrap_or_else(|e| {
        panic!("after insert_status was refused for {what}, the status without it failed: {e:?}")
    });
    assert_eq!(
        get_media(store, good.id).await.status_id,
        Some(retry.id),
        "after a refused insert_status the good attachment must still be attachable"
    );
}

/// `insert_status` listing someone else's attachment is `AlreadyExists("media")` and stores
/// nothing (no status, counters as they were, no attachment attached, the other's included).
pub async fn insert_status_with_someone_elses_media_stores_nothing(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let parent = add_status(store, status(&ids, &bob, T0 + 1_000)).await;
    add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let bobs = add_media(store, media(&ids, &bob, T0 + 3_000)).await;
    assert_insert_refused(
        store,
        &ids,
        &alice,
        &parent,
        bobs.id,
        "someone else's attachment",
    )
    .await;
    assert_eq!(
        get_media(store, bobs.id).await,
        bobs,
        "insert_status must not attach someone else's attachment"
    );
}

/// `insert_status` listing an attachment already attached to another status is
/// `AlreadyExists("media")` and stores nothing; the attachment stays with its status.
pub async fn insert_status_with_attached_media_stores_nothing(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let parent = add_status(store, status(&ids, &bob, T0 + 1_000)).await;
    let taken = add_media(store, media(&ids, &alice, T0 + 1_500)).await;
    let holder = add_status(
        store,
        StatusRecord {
            media_ids: vec![taken.id],
            ..status(&ids, &alice, T0 + 2_000)
        },
    )
    .await;
    assert_insert_refused(
        store,
        &ids,
        &alice,
        &parent,
        taken.id,
        "an attachment attached to another status",
    )
    .await;
    assert_eq!(
        get_media(store, taken.id).await,
        attached(&taken, &holder),
        "insert_status must leave an attachment of another status with that status"
    );
}

/// `insert_status` listing an unknown attachment is `AlreadyExists("media")` and stores nothing.
pub async fn insert_status_with_unknown_media_stores_nothing(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let parent = add_status(store, status(&ids, &bob, T0 + 1_000)).await;
    add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    let unknown = ids.next_at(T0 + 3_000);
    assert_insert_refused(
        store,
        &ids,
        &alice,
        &parent,
        unknown,
        "an unknown attachment",
    )
    .await;
    assert_eq!(
        find_media(store, unknown).await,
        None,
        "insert_status must not create an unknown attachment"
    );
}

/// `delete_status` detaches the status's media (those it lists and those an edit dropped):
/// `status_id` and `scheduled_status_id` cleared, everything else kept, so that they can be
/// posted again. Other statuses' media stay attached.
pub async fn delete_status_detaches_its_media_and_keeps_them(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let sched = add_scheduled(store, &ids, alice.id, T0 + 500).await;
    let m1 = add_media(
        store,
        full_media(&ids, &alice, T0 + 1_000, MediaKind::Image),
    )
    .await;
    // Posted from a scheduled status, which had reserved it.
    let m2 = add_media(
        store,
        MediaRecord {
            scheduled_status_id: Some(sched.id),
            ..media(&ids, &alice, T0 + 1_001)
        },
    )
    .await;
    let dropped = add_media(store, media(&ids, &alice, T0 + 1_002)).await;
    let others = add_media(store, media(&ids, &alice, T0 + 1_003)).await;
    let s = add_status(
        store,
        StatusRecord {
            media_ids: vec![m1.id, m2.id, dropped.id],
            ..status(&ids, &alice, T0 + 2_000)
        },
    )
    .await;
    let t = add_status(
        store,
        StatusRecord {
            media_ids: vec![others.id],
            ..status(&ids, &alice, T0 + 3_000)
        },
    )
    .await;
    edit(
        store,
        &ids,
        &edited(&s, T0 + 4_000, "without one", vec![m1.id, m2.id]),
        T0 + 4_000,
    )
    .await;

    store.delete_status(s.id).await.expect("delete_status");
    assert_eq!(
        get_media(store, m1.id).await,
        m1,
        "delete_status must detach the status's media and keep everything else about them"
    );
    assert_eq!(
        get_media(store, m2.id).await,
        MediaRecord {
            scheduled_status_id: None,
            ..m2.clone()
        },
        "delete_status must clear the scheduled_status_id of the status's media too"
    );
    assert_eq!(
        get_media(store, dropped.id).await,
        dropped,
        "delete_status must detach media an edit dropped from the status as well"
    );
    assert_eq!(
        get_media(store, others.id).await,
        attached(&others, &t),
        "delete_status must leave other statuses' media attached"
    );
    let again = add_status(
        store,
        StatusRecord {
            media_ids: vec![m1.id, m2.id, dropped.id],
            ..status(&ids, &alice, T0 + 5_000)
        },
    )
    .await;
    assert_eq!(
        get_media(store, m1.id).await.status_id,
        Some(again.id),
        "media detached by delete_status must be attachable to a new status"
    );
}

/// `update_status` replaces `media_ids` (in the given order) and attaches the newly listed
/// media; media dropped from the list stay attached, and media already attached to this status
/// may be listed again.
pub async fn update_status_attaches_new_media_and_keeps_dropped_ones(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let m1 = add_media(store, media(&ids, &alice, T0 + 1_000)).await;
    let m2 = add_media(store, media(&ids, &alice, T0 + 1_001)).await;
    let m3 = add_media(store, media(&ids, &alice, T0 + 1_002)).await;
    let m4 = add_media(store, media(&ids, &alice, T0 + 1_003)).await;
    let s = add_status(
        store,
        StatusRecord {
            media_ids: vec![m1.id],
            ..status(&ids, &alice, T0 + 2_000)
        },
    )
    .await;

    edit(
        store,
        &ids,
        &edited(&s, T0 + 3_000, "first edit", vec![m3.id, m2.id]),
        T0 + 3_000,
    )
    .await;
    assert_eq!(
        get_status(store, s.id).await.media_ids,
        vec![m3.id, m2.id],
        "update_status must replace media_ids with the given list, in its order"
    );
    assert_eq!(
        (get_media(store, m2.id).await, get_media(store, m3.id).await),
        (attached(&m2, &s), attached(&m3, &s)),
        "update_status must attach the newly listed media to the status"
    );
    assert_eq!(
        get_media(store, m1.id).await,
        attached(&m1, &s),
        "media dropped by update_status must stay attached to the status"
    );
    assert_eq!(
        get_media(store, m4.id).await,
        m4,
        "update_status must leave media it does not list unattached"
    );

    edit(
        store,
        &ids,
        &edited(&s, T0 + 4_000, "second edit", vec![m1.id, m3.id, m4.id]),
        T0 + 4_000,
    )
    .await;
    assert_eq!(
        get_status(store, s.id).await.media_ids,
        vec![m1.id, m3.id, m4.id],
        "update_status must accept media already attached to this status"
    );
    assert_eq!(
        (get_media(store, m4.id).await, get_media(store, m2.id).await),
        (attached(&m4, &s), attached(&m2, &s)),
        "update_status must attach the new attachment and keep the dropped one attached"
    );
}

/// `update_status` listing someone else's attachment, one attached to another status, or an
/// unknown one is `AlreadyExists("media")` and changes nothing: the status, its history and
/// every attachment stay as they were.
pub async fn update_status_with_unattachable_media_changes_nothing(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let m1 = add_media(store, media(&ids, &alice, T0 + 1_000)).await;
    let m2 = add_media(store, media(&ids, &alice, T0 + 1_001)).await;
    let on_t = add_media(store, media(&ids, &alice, T0 + 1_002)).await;
    let bobs = add_media(store, media(&ids, &bob, T0 + 1_003)).await;
    let s = add_status(
        store,
        StatusRecord {
            media_ids: vec![m1.id],
            ..status(&ids, &alice, T0 + 2_000)
        },
    )
    .await;
    let t = add_status(
        store,
        StatusRecord {
            media_ids: vec![on_t.id],
            ..status(&ids, &alice, T0 + 3_000)
        },
    )
    .await;
    let stored = get_status(store, s.id).await;
    let unknown = ids.next_at(T0 + 4_000);
    for (bad, what) in [
        (bobs.id, "someone else's attachment"),
        (on_t.id, "an attachment of another status"),
        (unknown, "an unknown attachment"),
    ] {
        let new = edited(&s, T0 + 5_000, "edited", vec![m1.id, m2.id, bad]);
        assert_already_exists(
            store
                .update_status(&new, &[revision(&ids, &new, T0 + 5_000)])
                .await,
            "media",
            &format!("update_status with {what}"),
        );
        assert_eq!(
            get_status(store, s.id).await,
            stored,
            "update_status refused for {what} must leave the status as it was"
        );
        assert_eq!(
            store.status_edits(s.id).await.expect("status_edits"),
            vec![],
            "update_status refused for {what} must store no revision"
        );
        assert_eq!(
            get_media(store, m2.id).await,
            m2,
            "update_status refused for {what} must attach none of the media (all or nothing)"
        );
    }
    assert_eq!(
        (
            get_media(store, bobs.id).await,
            get_media(store, on_t.id).await
        ),
        (bobs, attached(&on_t, &t)),
        "a refused update_status must leave someone else's and another status's media as they were"
    );
    assert_eq!(
        find_media(store, unknown).await,
        None,
        "a refused update_status must not create an unknown attachment"
    );
}

/// `delete_account` removes every attachment of the account (free, attached and reserved) and
/// no other account's.
pub async fn delete_account_removes_its_media(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let sched = add_scheduled(store, &ids, alice.id, T0 + 500).await;
    let free = add_media(store, media(&ids, &alice, T0 + 1_000)).await;
    let on_status = add_media(store, media(&ids, &alice, T0 + 1_001)).await;
    let reserved = add_media(
        store,
        MediaRecord {
            scheduled_status_id: Some(sched.id),
            ..media(&ids, &alice, T0 + 1_002)
        },
    )
    .await;
    let bobs = add_media(store, media(&ids, &bob, T0 + 1_003)).await;
    let bobs_free = add_media(store, media(&ids, &bob, T0 + 1_004)).await;
    add_status(
        store,
        StatusRecord {
            media_ids: vec![on_status.id],
            ..status(&ids, &alice, T0 + 2_000)
        },
    )
    .await;
    let bs = add_status(
        store,
        StatusRecord {
            media_ids: vec![bobs.id],
            ..status(&ids, &bob, T0 + 3_000)
        },
    )
    .await;

    store
        .delete_account(alice.id)
        .await
        .expect("delete_account");
    let alices = [free.id, on_status.id, reserved.id];
    for id in alices {
        assert_eq!(
            find_media(store, id).await,
            None,
            "delete_account must remove the account's attachments (free, attached and reserved)"
        );
    }
    assert_eq!(
        (
            media_by_ids(store, &alices).await,
            account_media(store, alice.id).await
        ),
        (vec![], vec![]),
        "after delete_account nothing must find the account's attachments"
    );
    assert_eq!(
        account_media(store, bob.id).await,
        vec![attached(&bobs, &bs), bobs_free],
        "delete_account must keep other accounts' attachments as they were"
    );
}

/// A custom emoji `shortcode` of `domain` (`None`: this server's) changed at `millis`, with
/// every optional field set. Not saved.
fn emoji(
    ids: &IdGenerator,
    shortcode: &str,
    domain: Option<&str>,
    millis: i64,
) -> CustomEmojiRecord {
    let id = ids.next_at(millis);
    let host = domain.unwrap_or("local.example");
    CustomEmojiRecord {
        id,
        shortcode: shortcode.into(),
        domain: domain.map(Into::into),
        uri: Some(format!("https://{host}/emojis/{id}")),
        image_url: format!("https://files.{host}/custom_emojis/images/{id}/{shortcode}.png"),
        static_url: format!("https://files.{host}/custom_emojis/static/{id}/{shortcode}.png"),
        visible_in_picker: true,
        category: Some("Blobs".into()),
        disabled: false,
        updated_at: at(millis),
    }
}

/// `save_custom_emojis`, which must succeed.
async fn save_emojis(store: &dyn Store, emojis: &[CustomEmojiRecord]) {
    store
        .save_custom_emojis(emojis)
        .await
        .unwrap_or_else(|e| panic!("save_custom_emojis failed: {e:?}"));
}

/// `custom_emojis_by_keys`, sorted by id.
async fn emojis_by_keys(
    store: &dyn Store,
    keys: &[(&str, Option<&str>)],
) -> Vec<CustomEmojiRecord> {
    let keys: Vec<(String, Option<String>)> = keys
        .iter()
        .map(|(shortcode, domain)| (shortcode.to_string(), domain.map(Into::into)))
        .collect();
    let mut got = store
        .custom_emojis_by_keys(&keys)
        .await
        .unwrap_or_else(|e| panic!("custom_emojis_by_keys({keys:?}) failed: {e:?}"));
    got.sort_by_key(|e| e.id);
    got
}

/// `custom_emojis_by_keys` finds each saved emoji by its `(shortcode, domain)`, with every
/// field as saved: a shortcode on two servers and this server's own (`None`) are three emojis,
/// each found by its own key alone; unknown keys are skipped and no key finds nothing. Saving
/// an emoji of a stored `(shortcode, domain)` again replaces every field but the id, which
/// stays the first one. Without [`Capability::KeepsCustomEmojis`] (the trait's default), the
/// weaker promise: saving succeeds and the lookup finds nothing.
pub async fn custom_emojis_are_kept_per_shortcode_and_domain(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let ids = IdGenerator::default();
    let remote = emoji(&ids, "blobcat", Some("remote.example"), T0 + 1_000);
    let other = CustomEmojiRecord {
        uri: None,
        visible_in_picker: false,
        category: None,
        disabled: true,
        ..emoji(&ids, "blobcat", Some("other.example"), T0 + 1_001)
    };
    let local = emoji(&ids, "blobcat", None, T0 + 1_002);
    let party = CustomEmojiRecord {
        uri: None,
        ..emoji(&ids, "party_parrot", None, T0 + 1_003)
    };
    save_emojis(store, &[remote.clone(), other.clone(), local.clone()]).await;
    save_emojis(store, std::slice::from_ref(&party)).await;
    let keys = [
        ("blobcat", Some("remote.example")),
        ("blobcat", Some("other.example")),
        ("blobcat", None),
        ("party_parrot", None),
    ];
    if !capabilities.has(Capability::KeepsCustomEmojis) {
        assert_eq!(
            emojis_by_keys(store, &keys).await,
            vec![],
            "a store that keeps no custom emoji finds none (or claim KeepsCustomEmojis)"
        );
        return;
    }
    let unknown = [
        ("blobcat", Some("third.example")),
        ("party_parrot", Some("remote.example")),
        ("unknown", None),
    ];
    assert_eq!(
        emojis_by_keys(store, &[&keys[..], &unknown[..]].concat()).await,
        vec![remote.clone(), other.clone(), local.clone(), party.clone()],
        "custom_emojis_by_keys must find every saved emoji as saved and skip unknown keys"
    );
    for (key, e) in keys.iter().zip([&remote, &other, &local, &party]) {
        assert_eq!(
            emojis_by_keys(store, &[*key]).await,
            vec![e.clone()],
            "the key {key:?} must find the emoji of that shortcode on that domain alone \
             (None: this server's)"
        );
    }
    assert_eq!(
        emojis_by_keys(store, &unknown).await,
        vec![],
        "unknown keys must find nothing"
    );
    assert_eq!(
        emojis_by_keys(store, &[]).await,
        vec![],
        "no key must find nothing"
    );

    let remote_v2 = CustomEmojiRecord {
        id: ids.next_at(T0 + 5_000),
        uri: Some("https://remote.example/emojis/blobcat-v2".into()),
        image_url: "https://files.remote.example/custom_emojis/images/v2/blobcat.gif".into(),
        static_url: "https://files.remote.example/custom_emojis/static/v2/blobcat.png".into(),
        visible_in_picker: false,
        category: None,
        disabled: true,
        updated_at: at(T0 + 5_000),
        ..remote.clone()
    };
    let local_v2 = CustomEmojiRecord {
        id: ids.next_at(T0 + 5_001),
        uri: None,
        image_url: "https://files.local.example/custom_emojis/images/v2/blobcat.webp".into(),
        category: Some("Cats".into()),
        updated_at: at(T0 + 5_001),
        ..local.clone()
    };
    save_emojis(store, &[remote_v2.clone(), local_v2.clone()]).await;
    assert_eq!(
        emojis_by_keys(store, &keys).await,
        vec![
            CustomEmojiRecord {
                id: remote.id,
                ..remote_v2
            },
            other,
            CustomEmojiRecord {
                id: local.id,
                ..local_v2
            },
            party,
        ],
        "saving an emoji of a stored (shortcode, domain) must replace every field but the id, \
         which stays the first one, and leave the other emojis as they were"
    );
}
