//! `PATCH /api/v1/admin/custom_emojis/:id`: Changes a custom emoji's category and whether pickers offer it. fedblog's own endpoint.

use http::Method;
use serde::Deserialize;

use crate::api::admin_custom_emojis::render_admin_custom_emoji;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminCustomEmoji;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::services::custom_emojis::EmojiChange;

/// Changes a custom emoji's `category` (blank: none) and `visible_in_picker`; absent ones are
/// kept. Needs the `admin:write` scope and a role that manages custom emojis. fedblog's own
/// endpoint.
pub struct UpdateAdminCustomEmoji;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UpdateAdminCustomEmojiRequest {
    /// Emoji id (path).
    pub id: String,
    /// The new category (blank: none).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub category: Option<String>,
    /// Whether pickers offer it.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub visible_in_picker: Option<bool>,
}

impl Endpoint for UpdateAdminCustomEmoji {
    const METHOD: Method = Method::PATCH;
    const PATH: &'static str = "/api/v1/admin/custom_emojis/:id";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = UpdateAdminCustomEmojiRequest;
    type Response = Json<AdminCustomEmoji>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UpdateAdminCustomEmojiRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_CUSTOM_EMOJIS)?;
        let change = EmojiChange {
            category: r.category,
            visible_in_picker: r.visible_in_picker,
        };
        let e = app.custom_emojis().update(path_id(&r.id)?, change).await?;
        Ok(Json(render_admin_custom_emoji(&e)))
    }
}
