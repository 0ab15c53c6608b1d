//! This server's custom emojis as staff manage them (`/api/v1/admin/custom_emojis`).
//!
//! These endpoints are fedblog's own: Mastodon manages custom emojis in its web admin
//! interface (and the `tootctl emoji` command) and has no admin API for them. They follow the
//! shape of Mastodon's admin API: the `admin:read` / `admin:write` scopes, a role with
//! Mastodon's `manage_custom_emojis` permission, lists newest first paginated through the
//! `Link` header, and `POST .../:id/<action>` for the actions of Mastodon's admin interface
//! (enable, disable, copy a remote emoji to this server). An emoji is shown as an
//! [`AdminCustomEmoji`]. A store that does not manage custom emojis answers 404 to all of them.
pub mod copy_custom_emoji;
pub mod create_custom_emoji;
pub mod delete_custom_emoji;
pub mod disable_custom_emoji;
pub mod enable_custom_emoji;
pub mod get_custom_emoji;
pub mod list_custom_emojis;
pub mod update_custom_emoji;

use crate::entities::AdminCustomEmoji;
use crate::render::timestamp;
use crate::store::CustomEmojiRecord;

/// A custom emoji as staff see it.
pub fn render_admin_custom_emoji(e: &CustomEmojiRecord) -> AdminCustomEmoji {
    AdminCustomEmoji {
        id: e.id,
        shortcode: e.shortcode.clone(),
        domain: e.domain.clone(),
        url: e.image_url.clone(),
        static_url: e.static_url.clone(),
        visible_in_picker: e.visible_in_picker,
        category: e.category.clone(),
        disabled: e.disabled,
        uri: e.uri.clone(),
        updated_at: timestamp(e.updated_at),
    }
}
