//! Checks of [`ConversationStore`](fedblog_core::store::ConversationStore): each account's
//! direct-message threads, keyed by thread and participants, their pages by last status, their
//! read state, and their upkeep when statuses and accounts are deleted.

use fedblog_core::pagination::Page;
use fedblog_core::store::{AccountRecord, ConversationRecord, StatusRecord, Visibility};
use fedblog_core::{Id, IdGenerator, Store};

use super::{Cursor, T0, add_local, add_status, assert_pages, status};

/// A direct status by `author` at `millis` in thread `thread` (its own when `None`), inserted.
async fn dm(
    store: &dyn Store,
    ids: &IdGenerator,
    author: &AccountRecord,
    millis: i64,
    mentions: &[Id],
) -> StatusRecord {
    let mut s = status(ids, author, millis);
    s.visibility = Visibility::Direct;
    s.mentions = mentions.to_vec();
    s.conversation_id = Some(s.id);
    add_status(store, s).await
}

async fn add(
    store: &dyn Store,
    ids: &IdGenerator,
    account: Id,
    thread: Id,
    participants: &[Id],
    status: Id,
    unread: bool,
) -> ConversationRecord {
    store
        .add_to_conversation(ids.next(), account, thread, participants, status, unread)
        .await
        .unwrap_or_else(|e| panic!("add_to_conversation({account}, {status}) failed: {e:?}"))
}

async fn get(store: &dyn Store, id: Id) -> Option<ConversationRecord> {
    store
        .conversation_by_id(id)
        .await
        .expect("conversation_by_id")
}

/// Adding statuses to an account's conversation of one thread with the same participants (in
/// any order, repeats ignored) keeps one conversation, its statuses ascending and `unread` as
/// the last add said; other participants make another; adding a status again changes nothing.
pub async fn add_to_conversation_keys_by_thread_and_participants(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let s1 = dm(store, &ids, &bob, T0 + 1_000, &[alice.id, carol.id]).await;
    let s2 = dm(store, &ids, &carol, T0 + 2_000, &[alice.id, bob.id]).await;
    let thread = s1.id;
    let first = add(
        store,
        &ids,
        alice.id,
        thread,
        &[bob.id, carol.id],
        s1.id,
        true,
    )
    .await;
    assert_eq!(
        (
            first.account_id,
            first.thread_id,
            first.status_ids.clone(),
            first.unread
        ),
        (alice.id, thread, vec![s1.id], true),
        "a first add makes the conversation with the status and unread as given"
    );
    let mut sorted_participants = vec![bob.id, carol.id];
    sorted_participants.sort();
    assert_eq!(
        first.participant_ids, sorted_participants,
        "participants ascending"
    );
    let second = add(
        store,
        &ids,
        alice.id,
        thread,
        &[carol.id, bob.id, carol.id],
        s2.id,
        false,
    )
    .await;
    assert_eq!(
        (second.id, second.status_ids.clone(), second.unread),
        (first.id, vec![s1.id, s2.id], false),
        "the same thread and participants (any order) keep the conversation, statuses ascending, unread as the last add said"
    );
    let again = add(
        store,
        &ids,
        alice.id,
        thread,
        &[bob.id, carol.id],
        s1.id,
        true,
    )
    .await;
    assert_eq!(
        again, second,
        "adding a status the conversation has must change nothing"
    );
    let other = add(store, &ids, alice.id, thread, &[bob.id], s2.id, true).await;
    assert_ne!(
        other.id, first.id,
        "other participants in the same thread make another conversation"
    );
    assert_eq!(get(store, first.id).await, Some(second));
    assert_eq!(
        get(store, ids.next()).await,
        None,
        "an unknown conversation is None"
    );
}

/// An account's conversations page by their last status id, newest first, with every cursor.
pub async fn conversations_page_by_last_status(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let mut last = Vec::new();
    for i in 0..10 {
        let s = dm(store, &ids, &bob, T0 + 1_000 * (i + 1), &[alice.id]).await;
        add(store, &ids, alice.id, s.id, &[bob.id], s.id, true).await;
        last.push(s.id);
    }
    // Bob's own conversations stay out of Alice's pages.
    add(store, &ids, bob.id, last[3], &[alice.id], last[3], false).await;
    for kind in [
        Cursor::Limit,
        Cursor::MaxId,
        Cursor::SinceId,
        Cursor::MinId,
        Cursor::Combined,
        Cursor::Absent,
    ] {
        assert_pages("conversations_page", kind, &last, |page: Page| async move {
            store
                .conversations_page(alice.id, page)
                .await
                .expect("conversations_page")
                .iter()
                .filter_map(ConversationRecord::last_status_id)
                .collect()
        })
        .await;
    }
}

/// `set_conversation_unread` and `delete_conversation` say whether the conversation exists;
/// deleting one leaves the other participants' conversations.
pub async fn unread_and_delete_act_on_one_conversation(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s = dm(store, &ids, &bob, T0 + 1_000, &[alice.id]).await;
    let a = add(store, &ids, alice.id, s.id, &[bob.id], s.id, true).await;
    let b = add(store, &ids, bob.id, s.id, &[alice.id], s.id, false).await;
    assert!(
        store
            .set_conversation_unread(a.id, false)
            .await
            .expect("unread")
    );
    assert_eq!(
        get(store, a.id).await.map(|c| c.unread),
        Some(false),
        "set_conversation_unread must store the flag"
    );
    assert!(
        store
            .set_conversation_unread(a.id, true)
            .await
            .expect("unread")
    );
    assert_eq!(get(store, a.id).await.map(|c| c.unread), Some(true));
    assert!(store.delete_conversation(a.id).await.expect("delete"));
    assert_eq!(
        get(store, a.id).await,
        None,
        "a deleted conversation is gone"
    );
    assert!(
        !store.delete_conversation(a.id).await.expect("delete"),
        "deleting it again must return false"
    );
    assert!(
        !store
            .set_conversation_unread(a.id, false)
            .await
            .expect("unread"),
        "set_conversation_unread of a deleted conversation must return false"
    );
    assert_eq!(
        get(store, b.id).await,
        Some(b),
        "the other participant's conversation must stay"
    );
}

/// Deleting a status takes it out of the conversations holding it: the last status moves back,
/// and a conversation left without a status is removed.
pub async fn delete_status_leaves_conversations(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let s1 = dm(store, &ids, &bob, T0 + 1_000, &[alice.id]).await;
    let s2 = dm(store, &ids, &bob, T0 + 2_000, &[alice.id]).await;
    let lone = dm(store, &ids, &bob, T0 + 3_000, &[alice.id]).await;
    let c = add(store, &ids, alice.id, s1.id, &[bob.id], s1.id, true).await;
    add(store, &ids, alice.id, s1.id, &[bob.id], s2.id, true).await;
    let single = add(store, &ids, alice.id, lone.id, &[bob.id], lone.id, true).await;
    store.delete_status(s2.id).await.expect("delete_status");
    let after = get(store, c.id).await.expect("the conversation stays");
    assert_eq!(
        (after.status_ids.clone(), after.last_status_id()),
        (vec![s1.id], Some(s1.id)),
        "delete_status must take the status out, the last status moving back"
    );
    store.delete_status(lone.id).await.expect("delete_status");
    assert_eq!(
        get(store, single.id).await,
        None,
        "a conversation left without a status must be removed"
    );
    let page = store
        .conversations_page(alice.id, Page::first(40))
        .await
        .expect("conversations_page");
    assert_eq!(
        page.iter().map(|c| c.id).collect::<Vec<_>>(),
        vec![c.id],
        "the page must follow the new last statuses"
    );
}

/// Deleting an account removes its conversations and keeps the others'.
pub async fn delete_account_removes_its_conversations(store: &dyn Store) {
    let ids = IdGenerator::default();
    let alice = add_local(store, &ids, "alice").await;
    let bob = add_local(store, &ids, "bob").await;
    let carol = add_local(store, &ids, "carol").await;
    let s = dm(store, &ids, &carol, T0 + 1_000, &[alice.id, bob.id]).await;
    let a = add(store, &ids, alice.id, s.id, &[bob.id, carol.id], s.id, true).await;
    let b = add(store, &ids, bob.id, s.id, &[alice.id, carol.id], s.id, true).await;
    store
        .delete_account(alice.id)
        .await
        .expect("delete_account");
    assert_eq!(get(store, a.id).await, None, "its conversations go with it");
    assert_eq!(
        store
            .conversations_page(alice.id, Page::first(40))
            .await
            .expect("conversations_page"),
        vec![],
        "a deleted account has no conversations"
    );
    assert_eq!(
        get(store, b.id).await,
        Some(b),
        "others' conversations with it stay"
    );
}
