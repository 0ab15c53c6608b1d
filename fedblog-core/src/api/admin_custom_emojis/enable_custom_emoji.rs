//! `POST /api/v1/admin/custom_emojis/:id/enable`: Enables a custom emoji: it is listed and shown again. fedblog's own endpoint.

use http::Method;
use serde::Deserialize;

use crate::api::admin_custom_emojis::render_admin_custom_emoji;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminCustomEmoji;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};

/// Enables a custom emoji: it is listed and shown again (already so: unchanged). Needs the `admin:write` scope and a role that manages
/// custom emojis. fedblog's own endpoint.
pub struct EnableAdminCustomEmoji;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct EnableAdminCustomEmojiRequest {
    /// Emoji id (path).
    pub id: String,
}

impl Endpoint for EnableAdminCustomEmoji {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/custom_emojis/:id/enable";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = EnableAdminCustomEmojiRequest;
    type Response = Json<AdminCustomEmoji>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: EnableAdminCustomEmojiRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_CUSTOM_EMOJIS)?;
        let e = app
            .custom_emojis()
            .set_disabled(path_id(&r.id)?, false)
            .await?;
        Ok(Json(render_admin_custom_emoji(&e)))
    }
}
