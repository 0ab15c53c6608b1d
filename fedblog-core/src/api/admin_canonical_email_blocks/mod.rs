//! Canonical e-mail addresses refused at sign-up (`/api/v1/admin/canonical_email_blocks`). <https://docs.joinmastodon.org/methods/admin/canonical_email_blocks/>
pub mod create_canonical_email_block;
pub mod delete_canonical_email_block;
pub mod get_canonical_email_block;
pub mod list_canonical_email_blocks;
pub mod test_canonical_email;
