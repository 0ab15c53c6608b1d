//! sea-orm entities, one per table; the schema itself is created by `store::migration`.

pub mod account_domain_blocks;
pub mod account_notes;
pub mod accounts;
pub mod apps;
pub mod authorizations;
pub mod blocks;
pub mod bookmarks;
pub mod conversation_mutes;
pub mod endorsements;
pub mod favourites;
pub mod featured_tags;
pub mod follow_requests;
pub mod follows;
pub mod home_feed;
pub mod jobs;
pub mod mutes;
pub mod scheduled_statuses;
pub mod status_mentions;
pub mod status_pins;
pub mod status_tags;
pub mod statuses;
pub mod suggestion_dismissals;
pub mod tag_follows;
pub mod tags;
pub mod tokens;
pub mod users;
