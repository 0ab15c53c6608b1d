//! `POST /api/v1/statuses/:id/unmute`: Unmute the thread of a status the caller may see; not muted is not an error. <https://docs.joinmastodon.org/methods/statuses/#unmute>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::ApiResult;

/// Unmute the thread of a status the caller may see; not muted is not an error. 404 for a
/// status the caller may not see. <https://docs.joinmastodon.org/methods/statuses/#unmute>
pub struct UnmuteConversation;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnmuteConversationRequest {
    /// Status id (path).
    pub id: String,
}

impl Endpoint for UnmuteConversation {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/statuses/:id/unmute";
    const AUTH: Auth = Auth::User("write:mutes");
    type Request = UnmuteConversationRequest;
    type Response = Json<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnmuteConversationRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let status = app
            .interactions()
            .unmute_conversation(me, path_id(&r.id)?)
            .await?;
        Ok(Json(app.render_status(&status, Some(me)).await?))
    }
}
