//! oEmbed: the embed of a local public status for other sites.
//! <https://docs.joinmastodon.org/methods/oembed/>
pub mod get_oembed;
