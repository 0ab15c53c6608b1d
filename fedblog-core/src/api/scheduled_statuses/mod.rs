//! Scheduled statuses. <https://docs.joinmastodon.org/methods/scheduled_statuses/>
pub mod delete_scheduled_status;
pub mod get_scheduled_status;
pub mod list_scheduled_statuses;
pub mod update_scheduled_status;
