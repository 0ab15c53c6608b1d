//! Blocked accounts. <https://docs.joinmastodon.org/methods/blocks/>
pub mod list_blocks;
