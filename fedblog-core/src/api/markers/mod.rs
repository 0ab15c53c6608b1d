//! Read positions in the home timeline and the notifications. <https://docs.joinmastodon.org/methods/markers/>
pub mod get_markers;
pub mod save_markers;
