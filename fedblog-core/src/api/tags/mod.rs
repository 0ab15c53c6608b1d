//! Hashtags: a tag's page, following and featuring it. The `:id` of these paths is the tag's name. <https://docs.joinmastodon.org/methods/tags/>
pub mod feature_tag;
pub mod follow_tag;
pub mod get_tag;
pub mod unfeature_tag;
pub mod unfollow_tag;
