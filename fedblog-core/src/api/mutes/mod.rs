//! Muted accounts. <https://docs.joinmastodon.org/methods/mutes/>
pub mod list_mutes;
