//! Domains allowed to federate (`/api/v1/admin/domain_allows`). <https://docs.joinmastodon.org/methods/admin/domain_allows/>
pub mod create_domain_allow;
pub mod delete_domain_allow;
pub mod get_domain_allow;
pub mod list_domain_allows;
