//! Timelines. <https://docs.joinmastodon.org/methods/timelines/>
pub mod home_timeline;
pub mod link_timeline;
pub mod list_timeline;
pub mod public_timeline;
pub mod tag_timeline;
