//! Statuses. <https://docs.joinmastodon.org/methods/statuses/>
pub mod create_status;
pub mod delete_status;
pub mod get_status;
pub mod get_statuses;
