//! Follow requests to a locked account. <https://docs.joinmastodon.org/methods/follow_requests/>
pub mod authorize_follow_request;
pub mod list_follow_requests;
pub mod reject_follow_request;
