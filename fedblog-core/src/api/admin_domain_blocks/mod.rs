//! Server-wide domain blocks (`/api/v1/admin/domain_blocks`). <https://docs.joinmastodon.org/methods/admin/domain_blocks/>
pub mod create_domain_block;
pub mod delete_domain_block;
pub mod get_domain_block;
pub mod list_domain_blocks;
pub mod update_domain_block;
