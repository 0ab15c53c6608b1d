//! `POST /api/v1/conversations/:id/unread`: mark one of the caller's conversations unread again; answers it (in Mastodon's route table, undocumented). <https://docs.joinmastodon.org/methods/conversations/>

use http::Method;

use crate::api::conversations::ConversationId;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Conversation;
use crate::error::{ApiError, ApiResult};

/// Mark one of the caller's conversations unread again; answers it (in Mastodon's route table, undocumented).
pub struct MarkConversationUnread;

impl Endpoint for MarkConversationUnread {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/conversations/:id/unread";
    const AUTH: Auth = Auth::User("write:conversations");
    type Request = ConversationId;
    type Response = Json<Conversation>;

    async fn handle(app: &App, caller: &Caller, r: ConversationId) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let c = app.conversations().mark(me, path_id(&r.id)?, true).await?;
        let mut rendered = app.render_conversations(me, &[c]).await?;
        rendered.pop().map(Json).ok_or_else(ApiError::not_found)
    }
}
