//! Blocked IP ranges (`/api/v1/admin/ip_blocks`). <https://docs.joinmastodon.org/methods/admin/ip_blocks/>
pub mod create_ip_block;
pub mod delete_ip_block;
pub mod get_ip_block;
pub mod list_ip_blocks;
pub mod update_ip_block;
