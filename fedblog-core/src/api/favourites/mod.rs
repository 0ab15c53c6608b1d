//! The caller's favourites. <https://docs.joinmastodon.org/methods/favourites/>
pub mod list_favourites;
