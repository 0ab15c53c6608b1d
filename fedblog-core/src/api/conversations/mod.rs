//! Conversations (direct messages). <https://docs.joinmastodon.org/methods/conversations/>
pub mod delete_conversation;
pub mod list_conversations;
pub mod mark_conversation_unread;
pub mod read_conversation;

use serde::Deserialize;

/// The conversation a request names (path).
#[derive(Debug, Deserialize)]
pub struct ConversationId {
    /// Conversation id (path).
    pub id: String,
}
