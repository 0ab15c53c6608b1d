//! Search: accounts, hashtags and statuses in one answer (v2; the v1 search is removed).
//! <https://docs.joinmastodon.org/methods/search/>
pub mod search_v2;
