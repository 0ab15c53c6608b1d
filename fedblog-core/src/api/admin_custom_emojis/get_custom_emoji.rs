//! `GET /api/v1/admin/custom_emojis/:id`: One custom emoji, this server's or another's. fedblog's own endpoint.

use http::Method;
use serde::Deserialize;

use crate::api::admin_custom_emojis::render_admin_custom_emoji;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminCustomEmoji;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};

/// One custom emoji, this server's or another's; 404 if there is none. Needs the `admin:read`
/// scope and a role that manages custom emojis. fedblog's own endpoint.
pub struct GetAdminCustomEmoji;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetAdminCustomEmojiRequest {
    /// Emoji id (path).
    pub id: String,
}

impl Endpoint for GetAdminCustomEmoji {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/custom_emojis/:id";
    const AUTH: Auth = Auth::User("admin:read");
    type Request = GetAdminCustomEmojiRequest;
    type Response = Json<AdminCustomEmoji>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetAdminCustomEmojiRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_CUSTOM_EMOJIS)?;
        let e = app.custom_emojis().get(path_id(&r.id)?).await?;
        Ok(Json(render_admin_custom_emoji(&e)))
    }
}
