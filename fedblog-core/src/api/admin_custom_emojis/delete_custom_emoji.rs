//! `DELETE /api/v1/admin/custom_emojis/:id`: Removes a custom emoji (and the images of this server's); answers an empty object. fedblog's own endpoint.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};

/// Removes a custom emoji (and the images of this server's); answers an empty object, 404 if
/// there is none. Needs the `admin:write` scope and a role that manages custom emojis.
/// fedblog's own endpoint.
pub struct DeleteAdminCustomEmoji;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteAdminCustomEmojiRequest {
    /// Emoji id (path).
    pub id: String,
}

impl Endpoint for DeleteAdminCustomEmoji {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/admin/custom_emojis/:id";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = DeleteAdminCustomEmojiRequest;
    type Response = Json<serde_json::Value>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteAdminCustomEmojiRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_CUSTOM_EMOJIS)?;
        app.custom_emojis().delete(path_id(&r.id)?).await?;
        Ok(Json(serde_json::json!({})))
    }
}
