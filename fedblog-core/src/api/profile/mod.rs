//! The signed-in user's profile images. <https://docs.joinmastodon.org/methods/profile/>
pub mod delete_avatar;
pub mod delete_header;
