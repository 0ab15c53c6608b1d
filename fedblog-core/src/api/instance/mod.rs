//! Instance information and NodeInfo. <https://docs.joinmastodon.org/methods/instance/>
pub mod instance_activity;
pub mod instance_peers;
pub mod instance_rules;
pub mod instance_v1;
pub mod instance_v2;
pub mod nodeinfo;
pub mod nodeinfo_21;
pub mod nodeinfo_discovery;
pub mod translation_languages;
