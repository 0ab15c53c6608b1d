//! User domain blocks: domains whose accounts the caller does not want to hear from. <https://docs.joinmastodon.org/methods/domain_blocks/>
pub mod block_domain;
pub mod list_domain_blocks;
pub mod preview_domain_block;
pub mod unblock_domain;
