//! `POST /api/v1/statuses/:id/mute`: Mute the thread of a status the caller may see: no notifications from it, and its statuses answer `muted: true`. <https://docs.joinmastodon.org/methods/statuses/#mute>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::ApiResult;

/// Mute the thread of a status the caller may see: no notifications from it, and its statuses
/// answer `muted: true`. Muting again is not an error; 404 for a status the caller may not see.
/// <https://docs.joinmastodon.org/methods/statuses/#mute>
pub struct MuteConversation;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct MuteConversationRequest {
    /// Status id (path).
    pub id: String,
}

impl Endpoint for MuteConversation {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/statuses/:id/mute";
    const AUTH: Auth = Auth::User("write:mutes");
    type Request = MuteConversationRequest;
    type Response = Json<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: MuteConversationRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let status = app
            .interactions()
            .mute_conversation(me, path_id(&r.id)?)
            .await?;
        Ok(Json(app.render_status(&status, Some(me)).await?))
    }
}
