//! Checks of [`StatusEditStore`](fedblog_core::store::StatusEditStore): editing a status in
//! place (exactly its editable fields, mentions and tags replaced) and its revision history.

use fedblog_core::pagination::Page;
use fedblog_core::store::{AccountStatusesFilter, StatusEditRecord, StatusRecord, Visibility};
use fedblog_core::{Id, IdGenerator, Store};

use super::{
    T0, add_local, add_media, add_remote, add_status, assert_not_found, at, get_status, media,
    reblog, reply, status,
};

/// A revision of `s` made at `millis` (its id made at the same time), with the given text and
/// content warning (sensitive when it has one), `s`'s media and no poll.
fn revision(
    ids: &IdGenerator,
    s: &StatusRecord,
    millis: i64,
    text: &str,
    cw: &str,
) -> StatusEditRecord {
    StatusEditRecord {
        id: ids.next_at(millis),
        status_id: s.id,
        account_id: s.account_id,
        text: text.to_string(),
        content: format!("<p>{text}</p>"),
        spoiler_text: cw.to_string(),
        sensitive: !cw.is_empty(),
        media_ids: s.media_ids.clone(),
        poll_options: None,
        created_at: at(millis),
    }
}

/// `s` as edited at `millis`: new text and content, the rest as given.
fn edited(s: &StatusRecord, millis: i64, text: &str) -> StatusRecord {
    StatusRecord {
        text: text.to_string(),
        content: format!("<p>{text}</p>"),
        edited_at: Some(at(millis)),
        ..s.clone()
    }
}

async fn update(store: &dyn Store, s: &StatusRecord, revisions: &[StatusEditRecord]) {
    store
        .update_status(s, revisions)
        .await
        .unwrap_or_else(|e| panic!("update_status({}) failed: {e:?}", s.id));
}

async fn edits(store: &dyn Store, status: Id) -> Vec<StatusEditRecord> {
    store
        .status_edits(status)
        .await
        .unwrap_or_else(|e| panic!("status_edits({status}) failed: {e:?}"))
}

async fn account_statuses(
    store: &dyn Store,
    account: Id,
    filter: AccountStatusesFilter,
) -> Vec<Id> {
    store
        .account_statuses(account, &filter, Page::first(40))
        .await
        .expect("account_statuses")
        .into_iter()
        .map(|s| s.id)
        .collect()
}

/// `update_status` replaces exactly the editable fields (`text`, `content`, `spoiler_text`,
/// `sensitive`, `language`, `media_ids`, `edited_at`) and keeps everything else as stored, the
/// counters and `created_at` included, whatever the given record says about them.
pub async fn update_status_replaces_exactly_the_editable_fields(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_remote(store, &ids, "bob", "remote.example").await;
    let parent = add_status(store, status(&ids, &bob, T0 + 1_000)).await;
    let original = add_status(
        store,
        StatusRecord {
            visibility: Visibility::Unlisted,
            language: Some("en".into()),
            idempotency_key: Some("key-1".into()),
            ..reply(&ids, &alice, &parent, T0 + 2_000)
        },
    )
    .await;
    // One reply, one reblog and one favourite, so every counter is 1.
    add_status(store, reply(&ids, &bob, &original, T0 + 3_000)).await;
    add_status(store, reblog(&ids, &bob, &original, T0 + 4_000)).await;
    store
        .insert_favourite(ids.next_at(T0 + 5_000), bob.id, original.id)
        .await
        .expect("insert_favourite");
    let stored = get_status(store, original.id).await;
    assert_eq!(
        (
            stored.replies_count,
            stored.reblogs_count,
            stored.favourites_count
        ),
        (1, 1, 1),
        "fixture: the status must have one reply, reblog and favourite"
    );

    let m1 = add_media(store, media(&ids, &alice, T0 + 6_000)).await;
    let m2 = add_media(store, media(&ids, &alice, T0 + 6_001)).await;

    let given = StatusRecord {
        // Editable.
        text: "edited text".into(),
        content: "<p>edited text</p>".into(),
        spoiler_text: "a warning".into(),
        sensitive: true,
        language: Some("de".into()),
        media_ids: vec![m2.id, m1.id],
        edited_at: Some(at(T0 + 9_123)),
        // Not editable: the store must keep the stored values.
        uri: Some("https://elsewhere.example/statuses/1".into()),
        visibility: Visibility::Direct,
        in_reply_to_id: None,
        in_reply_to_account_id: None,
        idempotency_key: None,
        local: !original.local,
        created_at: at(T0 + 50_000),
        conversation_id: None,
        replies_count: 7,
        reblogs_count: 8,
        favourites_count: 9,
        ..original.clone()
    };
    let first = revision(&ids, &original, T0 + 2_000, &original.text, "");
    update(store, &given, std::slice::from_ref(&first)).await;
    let expected = StatusRecord {
        text: given.text.clone(),
        content: given.content.clone(),
        spoiler_text: given.spoiler_text.clone(),
        sensitive: given.sensitive,
        language: given.language.clone(),
        media_ids: given.media_ids.clone(),
        edited_at: given.edited_at,
        ..stored
    };
    assert_eq!(
        get_status(store, original.id).await,
        expected,
        "update_status must replace text, content, spoiler_text, sensitive, language, media_ids \
         and edited_at, and keep every other field (counters and created_at included)"
    );
}

/// `update_status` replaces the status's mentions and tags (in the given order): the lists the
/// record carries, and what filters by them (`account_statuses`' `tagged` and `or_mentioning`,
/// `tag_usage`) see.
pub async fn update_status_replaces_mentions_and_tags(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let dave = add_remote(store, &ids, "dave", "remote.example").await;
    let s = add_status(
        store,
        StatusRecord {
            mentions: vec![bob.id, carol.id],
            tags: vec!["old".into(), "rust".into()],
            ..status(&ids, &alice, T0 + 1_000)
        },
    )
    .await;
    let other = add_status(
        store,
        StatusRecord {
            tags: vec!["old".into()],
            ..status(&ids, &alice, T0 + 2_000)
        },
    )
    .await;
    let new = StatusRecord {
        mentions: vec![dave.id, carol.id],
        tags: vec!["zeta".into(), "rust".into()],
        ..edited(&s, T0 + 3_000, "edited")
    };
    update(store, &new, &[revision(&ids, &s, T0 + 1_000, &s.text, "")]).await;

    let got = get_status(store, s.id).await;
    assert_eq!(
        (got.mentions, got.tags),
        (new.mentions.clone(), new.tags.clone()),
        "update_status must replace the mentions and tags with the given ones, in their order"
    );
    let tagged = |t: &str| AccountStatusesFilter {
        visibilities: vec![Visibility::Public],
        tagged: Some(t.into()),
        ..AccountStatusesFilter::default()
    };
    assert_eq!(
        account_statuses(store, alice.id, tagged("old")).await,
        vec![other.id],
        "a tag the edit removed must no longer select the status"
    );
    assert_eq!(
        account_statuses(store, alice.id, tagged("zeta")).await,
        vec![s.id],
        "a tag the edit added must select the status"
    );
    assert_eq!(
        account_statuses(store, alice.id, tagged("rust")).await,
        vec![s.id],
        "a tag the edit kept must still select the status"
    );
    let mentioning = |a: Id| AccountStatusesFilter {
        or_mentioning: Some(a),
        ..AccountStatusesFilter::default()
    };
    assert_eq!(
        account_statuses(store, alice.id, mentioning(bob.id)).await,
        Vec::<Id>::new(),
        "an account the edit no longer mentions must not see the status through or_mentioning"
    );
    assert_eq!(
        account_statuses(store, alice.id, mentioning(dave.id)).await,
        vec![s.id],
        "an account the edit newly mentions must see the status through or_mentioning"
    );
    let usage = store
        .tag_usage("old", at(T0), at(T0 + 10_000))
        .await
        .expect("tag_usage");
    assert_eq!(
        usage.uses, 1,
        "tag_usage must count only the statuses still carrying the tag after an edit"
    );
}

/// Revisions are appended: `status_edits` lists every revision of every `update_status` of the
/// status, oldest first, as given, and only that status's; a status never edited (or unknown)
/// has none.
pub async fn status_edits_lists_revisions_oldest_first_across_updates(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    let s3 = add_status(store, status(&ids, &alice, T0 + 3_000)).await;

    let ma = add_media(store, media(&ids, &alice, T0 + 4_000)).await;
    let mb = add_media(store, media(&ids, &alice, T0 + 4_001)).await;

    // The first edit of s1 keeps the original and the new version, which adds two media (in
    // the reverse of their upload order) and a poll.
    let r0 = revision(&ids, &s1, T0 + 10_000, &s1.text, "");
    let r1 = StatusEditRecord {
        media_ids: vec![mb.id, ma.id],
        poll_options: Some(vec!["yes".into(), "no, ✓".into(), "maybe".into()]),
        ..revision(&ids, &s1, T0 + 10_123, "second", "careful")
    };
    update(
        store,
        &StatusRecord {
            media_ids: vec![mb.id, ma.id],
            ..edited(&s1, T0 + 10_123, "second")
        },
        &[r0.clone(), r1.clone()],
    )
    .await;
    // s2's revisions have ids between those of s1's.
    let q0 = revision(&ids, &s2, T0 + 11_000, &s2.text, "");
    let q1 = revision(&ids, &s2, T0 + 11_456, "bob's edit", "");
    update(
        store,
        &edited(&s2, T0 + 11_456, "bob's edit"),
        &[q0.clone(), q1.clone()],
    )
    .await;
    let r2 = StatusEditRecord {
        poll_options: Some(vec!["only".into()]),
        ..revision(&ids, &s1, T0 + 12_789, "third", "")
    };
    update(
        store,
        &edited(&s1, T0 + 12_789, "third"),
        std::slice::from_ref(&r2),
    )
    .await;

    assert_eq!(
        edits(store, s1.id).await,
        vec![r0, r1, r2],
        "status_edits must list all revisions of the status's updates, oldest first, as given \
         (text, content, spoiler_text, sensitive, media_ids in order, poll_options set or unset, \
         created_at to the millisecond)"
    );
    assert_eq!(
        edits(store, s2.id).await,
        vec![q0, q1],
        "status_edits must list only the given status's revisions"
    );
    assert_eq!(
        get_status(store, s1.id).await.text,
        "third",
        "after several updates the status must show the last one"
    );
    assert_eq!(
        edits(store, s3.id).await,
        vec![],
        "a status never edited must have no revisions"
    );
    assert_eq!(
        edits(store, Id(s3.id.0 + 1)).await,
        vec![],
        "an unknown status must have no revisions (not an error)"
    );
}

/// `update_status` of an unknown status is `NotFound` and stores no revision.
pub async fn update_unknown_status_is_not_found(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let ghost = status(&ids, &alice, T0 + 1_000);
    let r = revision(&ids, &ghost, T0 + 1_000, &ghost.text, "");
    assert_not_found(
        store
            .update_status(&edited(&ghost, T0 + 2_000, "edited"), &[r])
            .await,
        "update_status of an unknown status",
    );
    assert_eq!(
        edits(store, ghost.id).await,
        vec![],
        "a failed update_status must store no revision"
    );
    assert!(
        store
            .status_by_id(ghost.id)
            .await
            .expect("status_by_id")
            .is_none(),
        "update_status of an unknown status must not create it"
    );
}

/// `delete_status` removes the status's revisions, and no other status's.
pub async fn delete_status_removes_its_edits(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &alice, T0 + 2_000)).await;
    for (s, millis) in [(&s1, T0 + 10_000), (&s2, T0 + 11_000)] {
        let r = revision(&ids, s, millis, &s.text, "");
        update(store, &edited(s, millis, "edited"), &[r]).await;
    }
    store.delete_status(s1.id).await.expect("delete_status");
    assert_eq!(
        edits(store, s1.id).await,
        vec![],
        "delete_status must remove the status's revisions"
    );
    assert_eq!(
        edits(store, s2.id).await.len(),
        1,
        "delete_status must keep other statuses' revisions"
    );
}

/// `delete_account` removes the revisions of the account's statuses, and no other account's.
pub async fn delete_account_removes_its_statuses_edits(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s1 = add_status(store, status(&ids, &alice, T0 + 1_000)).await;
    let s2 = add_status(store, status(&ids, &bob, T0 + 2_000)).await;
    for (s, millis) in [(&s1, T0 + 10_000), (&s2, T0 + 11_000)] {
        let r = revision(&ids, s, millis, &s.text, "");
        update(store, &edited(s, millis, "edited"), &[r]).await;
    }
    store
        .delete_account(alice.id)
        .await
        .expect("delete_account");
    assert_eq!(
        edits(store, s1.id).await,
        vec![],
        "delete_account must remove the revisions of the account's statuses"
    );
    assert_eq!(
        edits(store, s2.id).await.len(),
        1,
        "delete_account must keep other accounts' revisions"
    );
}
