//! Follow suggestions: accounts to follow, with their sources, and dismissing them. <https://docs.joinmastodon.org/methods/suggestions/>
pub mod dismiss_suggestion;
pub mod list_suggestions;
pub mod list_suggestions_v2;
