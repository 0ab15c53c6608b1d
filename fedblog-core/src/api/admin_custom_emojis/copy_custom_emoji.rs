//! `POST /api/v1/admin/custom_emojis/:id/copy`: Copies another server's custom emoji to this server. fedblog's own endpoint.

use http::Method;
use serde::Deserialize;

use crate::api::admin_custom_emojis::render_admin_custom_emoji;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminCustomEmoji;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};

/// Copies another server's custom emoji to this server under its shortcode and answers the
/// copy; 422 for this server's own emoji or a shortcode taken here. Needs the `admin:write`
/// scope and a role that manages custom emojis. fedblog's own endpoint.
pub struct CopyAdminCustomEmoji;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct CopyAdminCustomEmojiRequest {
    /// Emoji id (path).
    pub id: String,
}

impl Endpoint for CopyAdminCustomEmoji {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/custom_emojis/:id/copy";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = CopyAdminCustomEmojiRequest;
    type Response = Json<AdminCustomEmoji>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CopyAdminCustomEmojiRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_CUSTOM_EMOJIS)?;
        let e = app.custom_emojis().copy(path_id(&r.id)?).await?;
        Ok(Json(render_admin_custom_emoji(&e)))
    }
}
