//! Conversations: each account's direct-message threads. A new direct status goes into its
//! author's conversation (read) and into those of the mentioned accounts told of it (unread),
//! each keyed by the thread and the other participants; reading marks one read, deleting removes
//! it for its account only (a later message makes it again); deleted statuses leave them.

use crate::app::App;
use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::pagination::Page;
use crate::render::conversation_of;
use crate::store::{AccountRecord, ConversationRecord, StatusRecord};

/// A page of conversations with the cursors (last status ids) of what was read.
pub struct ConversationPage {
    /// Newest last status first.
    pub conversations: Vec<ConversationRecord>,
    /// The newest last status id read.
    pub first: Option<Id>,
    /// The oldest last status id read.
    pub last: Option<Id>,
}

impl App {
    /// Puts a new direct status into the conversations of its author (read) and of
    /// `recipients` (unread): each sees the others of the author and the mentioned accounts.
    pub(crate) async fn add_to_conversations(
        &self,
        status: &StatusRecord,
        recipients: &[Id],
    ) -> ApiResult<()> {
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
            self.publish(crate::events::DomainEvent::Conversation {
                conversation: conversation.id,
                account,
                status: status.id,
            })
            .await;
        }
        Ok(())
    }

    /// A page of `me`'s conversations, newest last status first.
    pub async fn conversations(
        &self,
        me: &AccountRecord,
        page: Page,
    ) -> ApiResult<ConversationPage> {
        let conversations = self.store.conversations_page(me.id, page).await?;
        Ok(ConversationPage {
            first: conversations.first().and_then(|c| c.last_status_id()),
            last: conversations.last().and_then(|c| c.last_status_id()),
            conversations,
        })
    }

    /// `me`'s conversation `id`; anyone else's is a 404.
    pub async fn own_conversation(
        &self,
        me: &AccountRecord,
        id: Id,
    ) -> ApiResult<ConversationRecord> {
        match self.store.conversation_by_id(id).await? {
            Some(c) if c.account_id == me.id => Ok(c),
            _ => Err(ApiError::not_found()),
        }
    }

    /// Marks `me`'s conversation `id` read (or unread again); returns it.
    pub async fn mark_conversation(
        &self,
        me: &AccountRecord,
        id: Id,
        unread: bool,
    ) -> ApiResult<ConversationRecord> {
        let mut c = self.own_conversation(me, id).await?;
        if !self.store.set_conversation_unread(c.id, unread).await? {
            return Err(ApiError::not_found());
        }
        c.unread = unread;
        Ok(c)
    }

    /// Removes `me`'s conversation `id` (the others' views of the thread stay).
    pub async fn delete_conversation(&self, me: &AccountRecord, id: Id) -> ApiResult<()> {
        let c = self.own_conversation(me, id).await?;
        if !self.store.delete_conversation(c.id).await? {
            return Err(ApiError::not_found());
        }
        Ok(())
    }
}
