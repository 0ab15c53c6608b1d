//! `POST /api/v1/conversations/:id/read`: mark one of the caller's conversations read; answers it. <https://docs.joinmastodon.org/methods/conversations/#read>

use http::Method;

use crate::api::conversations::ConversationId;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Conversation;
use crate::error::{ApiError, ApiResult};

/// Mark one of the caller's conversations read; answers it.
pub struct ReadConversation;

impl Endpoint for ReadConversation {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/conversations/:id/read";
    const AUTH: Auth = Auth::User("write:conversations");
    type Request = ConversationId;
    type Response = Json<Conversation>;

    async fn handle(app: &App, caller: &Caller, r: ConversationId) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let c = app.conversations().mark(me, path_id(&r.id)?, false).await?;
        let mut rendered = app.render_conversations(me, &[c]).await?;
        rendered.pop().map(Json).ok_or_else(ApiError::not_found)
    }
}
