//! Services: the rules of each area, taking command structs from endpoints and talking to the store.

pub mod accounts;
pub mod announcements;
#[cfg(test)]
mod announcements_tests;
pub mod badges;
pub mod blocks;
pub mod cards;
#[cfg(test)]
mod cards_tests;
pub mod conversations;
pub mod crypto;
pub mod custom_emojis;
#[cfg(test)]
mod custom_emojis_tests;
pub mod discovery;
pub mod durations;
pub mod edits;
pub mod fanout;
pub mod federation;
#[cfg(test)]
mod federation_fixture_tests;
#[cfg(test)]
mod federation_poll_tests;
#[cfg(test)]
mod federation_quote_tests;
pub mod federation_runner;
#[cfg(test)]
mod federation_tests;
pub mod filters;
#[cfg(test)]
mod followers_sync_tests;
pub mod instance;
pub mod interactions;
pub mod job_runner;
pub mod jobs;
pub mod links;
pub mod lists;
pub mod markers;
pub mod media;
pub mod metrics;
#[cfg(test)]
mod metrics_tests;
pub mod moderation;
#[cfg(test)]
mod moderation_federation_tests;
#[cfg(test)]
mod moderation_notification_tests;
pub mod moves;
pub mod notification_groups;
pub mod notification_policies;
pub mod notifications;
pub mod oauth;
pub mod outbox;
#[cfg(test)]
mod page_reads_tests;
pub mod polls;
pub mod presenting;
#[cfg(test)]
mod published_events_tests;
#[cfg(test)]
mod quote_notification_tests;
pub mod quotes;
#[cfg(test)]
mod quotes_tests;
pub mod rate_limits;
pub mod relationships;
pub mod remote;
#[cfg(test)]
mod remote_media_tests;
pub mod reports;
pub mod scheduled;
pub mod search;
pub mod server_blocks;
pub mod statuses;
pub mod stream_runner;
#[cfg(test)]
mod stream_runner_tests;
pub mod streaming;
#[cfg(test)]
mod suspension_cleanup_tests;
pub mod tags;
pub mod timelines;
pub mod translation;
pub mod trends;
#[cfg(test)]
mod trends_tests;
pub mod visibility;
pub mod web_push;
pub mod webfinger;
