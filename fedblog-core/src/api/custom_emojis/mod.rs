//! This server's custom emojis (`/api/v1/custom_emojis`). <https://docs.joinmastodon.org/methods/custom_emojis/>
pub mod list_custom_emojis;
