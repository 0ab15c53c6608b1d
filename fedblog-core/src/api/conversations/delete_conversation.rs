//! `DELETE /api/v1/conversations/:id`: remove one of the caller's conversations (for the caller only). <https://docs.joinmastodon.org/methods/conversations/#delete>

use http::Method;

use crate::api::conversations::ConversationId;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Remove a conversation from the caller's list; the other participants keep theirs.
pub struct DeleteConversation;

impl Endpoint for DeleteConversation {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/conversations/:id";
    const AUTH: Auth = Auth::User("write:conversations");
    type Request = ConversationId;
    type Response = Json<Empty>;

    async fn handle(app: &App, caller: &Caller, r: ConversationId) -> ApiResult<Self::Response> {
        app.conversations()
            .delete(caller.account()?, path_id(&r.id)?)
            .await?;
        Ok(Json(Empty {}))
    }
}
