//! E-mail domains refused at sign-up (`/api/v1/admin/email_domain_blocks`). <https://docs.joinmastodon.org/methods/admin/email_domain_blocks/>
pub mod create_email_domain_block;
pub mod delete_email_domain_block;
pub mod get_email_domain_block;
pub mod list_email_domain_blocks;
