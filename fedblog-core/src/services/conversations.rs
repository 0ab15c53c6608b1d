//! Conversations: each account's direct-message threads. A new direct status goes into its
//! author's conversation (read) and into those of the mentioned accounts told of it (unread),
//! each keyed by the thread and the other participants; reading marks one read, deleting removes
//! it for its account only (a later message makes it again); deleted statuses leave them.

use crate::error::{ApiError, ApiResult};
use crate::events::{DomainEvent, EventBus, publish_logged};
use crate::id::{Id, IdGenerator};
use crate::pagination::Page;
use crate::store::conversation_of;
use crate::store::{AccountRecord, ConversationRecord, ConversationStore, StatusRecord};

/// A page of conversations with the cursors (last status ids) of what was read.
pub struct ConversationPage {
    /// Newest last status first.
    pub conversations: Vec<ConversationRecord>,
    /// The newest last status id read.
    pub first: Option<Id>,
    /// The oldest last status id read.
    pub last: Option<Id>,
}

/// The conversations area: `app.conversations()`. It holds the one store trait it uses, the id
/// generator and the event bus it tells of changed conversations.
pub struct Conversations<'a> {
    store: &'a dyn ConversationStore,
    ids: &'a IdGenerator,
    events: &'a dyn EventBus,
}

impl<'a> Conversations<'a> {
    /// The area over `store`, making ids with `ids` and publishing on `events`.
    pub fn new(
        store: &'a dyn ConversationStore,
        ids: &'a IdGenerator,
        events: &'a dyn EventBus,
    ) -> Self {
        Conversations { store, ids, events }
    }

    /// Puts a new direct status into the conversations of its author (read) and of
    /// `recipients` (unread): each sees the others of the author and the mentioned accounts.
    pub(crate) async fn add(&self, status: &StatusRecord, recipients: &[Id]) -> ApiResult<()> {
        let mut everyone: Vec<Id> = status.mentions.clone();
        everyone.push(status.account_id);
        let thread = conversation_of(status);
        let mut accounts: Vec<(Id, bool)> = vec![(status.account_id, false)];
        accounts.extend(
            recipients
                .iter()
                .filter(|r| **r != status.account_id)
                .map(|r| (*r, true)),
        );
        for (account, unread) in accounts {
            let others: Vec<Id> = everyone.iter().copied().filter(|a| *a != account).collect();
            let conversation = self
                .store
                .add_to_conversation(self.ids.next(), account, thread, &others, status.id, unread)
                .await?;
            publish_logged(
                self.events,
                DomainEvent::Conversation {
                    conversation: conversation.id,
                    account,
                    status: status.id,
                },
            )
            .await;
        }
        Ok(())
    }

    /// A page of `me`'s conversations, newest last status first.
    pub async fn page(&self, me: &AccountRecord, page: Page) -> ApiResult<ConversationPage> {
        let conversations = self.store.conversations_page(me.id, page).await?;
        Ok(ConversationPage {
            first: conversations.first().and_then(|c| c.last_status_id()),
            last: conversations.last().and_then(|c| c.last_status_id()),
            conversations,
        })
    }

    /// `me`'s conversation `id`; anyone else's is a 404.
    pub async fn own(&self, me: &AccountRecord, id: Id) -> ApiResult<ConversationRecord> {
        match self.store.conversation_by_id(id).await? {
            Some(c) if c.account_id == me.id => Ok(c),
            _ => Err(ApiError::not_found()),
        }
    }

    /// Marks `me`'s conversation `id` read (or unread again); returns it.
    pub async fn mark(
        &self,
        me: &AccountRecord,
        id: Id,
        unread: bool,
    ) -> ApiResult<ConversationRecord> {
        let mut c = self.own(me, id).await?;
        if !self.store.set_conversation_unread(c.id, unread).await? {
            return Err(ApiError::not_found());
        }
        c.unread = unread;
        Ok(c)
    }

    /// Removes `me`'s conversation `id` (the others' views of the thread stay).
    pub async fn delete(&self, me: &AccountRecord, id: Id) -> ApiResult<()> {
        let c = self.own(me, id).await?;
        if !self.store.delete_conversation(c.id).await? {
            return Err(ApiError::not_found());
        }
        Ok(())
    }
}
