//! `POST /api/v1/admin/custom_emojis/:id/disable`: Disables a custom emoji: it is no longer listed nor shown. fedblog's own endpoint.

use http::Method;
use serde::Deserialize;

use crate::api::admin_custom_emojis::render_admin_custom_emoji;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminCustomEmoji;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};

/// Disables a custom emoji: it is no longer listed nor shown (already so: unchanged). Needs the `admin:write` scope and a role that manages
/// custom emojis. fedblog's own endpoint.
pub struct DisableAdminCustomEmoji;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DisableAdminCustomEmojiRequest {
    /// Emoji id (path).
    pub id: String,
}

impl Endpoint for DisableAdminCustomEmoji {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/custom_emojis/:id/disable";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = DisableAdminCustomEmojiRequest;
    type Response = Json<AdminCustomEmoji>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DisableAdminCustomEmojiRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_CUSTOM_EMOJIS)?;
        let e = app
            .custom_emojis()
            .set_disabled(path_id(&r.id)?, true)
            .await?;
        Ok(Json(render_admin_custom_emoji(&e)))
    }
}
