//! Polls. <https://docs.joinmastodon.org/methods/polls/>
pub mod get_poll;
pub mod vote_poll;
