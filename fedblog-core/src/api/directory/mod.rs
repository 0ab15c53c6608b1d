//! The profile directory. <https://docs.joinmastodon.org/methods/directory/>
pub mod list_directory;
