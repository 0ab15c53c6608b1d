//! The hashtags the caller features on its profile, and suggestions of tags to feature. <https://docs.joinmastodon.org/methods/featured_tags/>
pub mod create_featured_tag;
pub mod delete_featured_tag;
pub mod featured_tag_suggestions;
pub mod list_featured_tags;
