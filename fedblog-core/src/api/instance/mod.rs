//! Instance information, policy (rules, texts, terms of service, domain blocks, languages), peers and NodeInfo. <https://docs.joinmastodon.org/methods/instance/>
pub mod extended_description;
pub mod instance_activity;
pub mod instance_domain_blocks;
pub mod instance_languages;
pub mod instance_peers;
pub mod instance_rules;
pub mod instance_v1;
pub mod instance_v2;
pub mod nodeinfo;
pub mod nodeinfo_21;
pub mod nodeinfo_discovery;
pub mod privacy_policy;
pub mod search_peers;
pub mod terms_of_service;
pub mod terms_of_service_on;
pub mod translation_languages;
