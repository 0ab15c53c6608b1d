//! sea-orm entities, one per table; the schema itself is created by `store::migration`.

pub mod accounts;
pub mod apps;
pub mod authorizations;
pub mod blocks;
pub mod follow_requests;
pub mod follows;
pub mod home_feed;
pub mod jobs;
pub mod mutes;
pub mod scheduled_statuses;
pub mod status_mentions;
pub mod status_tags;
pub mod statuses;
pub mod tokens;
pub mod users;
