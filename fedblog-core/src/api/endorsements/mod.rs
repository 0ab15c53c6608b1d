//! Endorsements: the accounts the caller features on its profile. <https://docs.joinmastodon.org/methods/endorsements/>
pub mod list_endorsements;
