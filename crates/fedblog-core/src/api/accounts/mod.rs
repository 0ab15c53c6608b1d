//! Accounts: sign-up, e-mail confirmation, credentials and profile, lookups. <https://docs.joinmastodon.org/methods/accounts/>
pub mod block_account;
pub mod confirm_email;
pub mod follow_account;
pub mod get_account;
pub mod get_accounts;
pub mod get_followers;
pub mod get_following;
pub mod get_relationships;
pub mod lookup_account;
pub mod mute_account;
pub mod register_account;
pub mod resend_confirmation;
pub mod unblock_account;
pub mod unfollow_account;
pub mod unmute_account;
pub mod update_credentials;
pub mod verify_credentials;
