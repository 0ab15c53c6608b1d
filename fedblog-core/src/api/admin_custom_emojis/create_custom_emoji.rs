//! `POST /api/v1/admin/custom_emojis`: Adds a custom emoji to this server from an uploaded image (multipart). fedblog's own endpoint.

use http::Method;
use serde::Deserialize;

use crate::api::admin_custom_emojis::render_admin_custom_emoji;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminCustomEmoji;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::services::custom_emojis::{Created, NewEmoji, OnTaken};

/// Adds a custom emoji to this server: `shortcode` (two or more letters, digits or `_`, not
/// taken here), `image` (a PNG, GIF or WebP file of at most 256 KB), optional `category` and
/// `visible_in_picker` (default true); 422 for any of them invalid. Needs the `admin:write`
/// scope and a role that manages custom emojis. fedblog's own endpoint.
pub struct CreateAdminCustomEmoji;

/// Parameters (the image is the upload named `image`).
#[derive(Debug, Deserialize)]
pub struct CreateAdminCustomEmojiRequest {
    /// The name between the colons (required).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub shortcode: Option<String>,
    /// The category pickers group it under.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub category: Option<String>,
    /// Whether pickers offer it (default true).
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub visible_in_picker: Option<bool>,
}

impl Endpoint for CreateAdminCustomEmoji {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/custom_emojis";
    const AUTH: Auth = Auth::User("admin:write");
    const BODY: crate::endpoint::BodyKind = crate::endpoint::BodyKind::Upload;
    type Request = CreateAdminCustomEmojiRequest;
    type Response = Json<AdminCustomEmoji>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CreateAdminCustomEmojiRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_CUSTOM_EMOJIS)?;
        let new = NewEmoji {
            shortcode: r.shortcode.unwrap_or_default(),
            image: caller
                .upload("image")
                .map(|u| u.bytes.clone())
                .unwrap_or_default(),
            category: r.category,
            visible_in_picker: r.visible_in_picker.unwrap_or(true),
        };
        let (Created::Stored(e) | Created::Kept(e)) =
            app.custom_emojis().create(new, OnTaken::Refuse).await?;
        Ok(Json(render_admin_custom_emoji(&e)))
    }
}
