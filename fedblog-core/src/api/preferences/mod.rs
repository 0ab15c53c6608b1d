//! The user's preferences as clients read them. <https://docs.joinmastodon.org/methods/preferences/>
pub mod get_preferences;
