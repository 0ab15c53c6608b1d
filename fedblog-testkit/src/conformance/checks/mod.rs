//! Every conformance check, by area. Add a check to its area's `checks()` list.

pub mod account_statuses;
pub mod accounts;
pub mod activitypub_pages;
pub mod admin;
pub mod admin_blocks;
pub mod admin_metrics;
pub mod admin_tags;
pub mod admin_trends;
pub mod announcements;
pub mod apps;
pub mod blocks;
pub mod cards;
pub mod conversations;
pub mod crypto;
pub mod custom_emojis;
pub mod discovery;
pub mod domain_blocks;
pub mod edits;
pub mod errors;
pub mod extras;
pub mod federation;
pub mod federation_polls;
pub mod filters;
pub mod follows;
pub mod instance;
pub mod interactions;
pub mod lists;
pub mod media;
pub mod notification_requests;
pub mod notifications;
pub mod oauth;
pub mod polls;
pub mod preferences;
pub mod profile;
pub mod push;
pub mod quotes;
pub mod remaining;
pub mod reports;
pub mod scheduled_statuses;
pub mod schema;
pub mod search;
mod seed_rules;
pub mod social;
pub mod statuses;
pub mod streaming;
pub mod tags;
pub mod threads;
pub mod timelines;
pub mod translation;
pub mod trends;
pub mod visibility;

use super::Check;

/// All checks, in run order.
pub fn all() -> Vec<Check> {
    let mut v = Vec::new();
    v.extend(instance::checks());
    v.extend(errors::checks());
    v.extend(apps::checks());
    v.extend(oauth::checks());
    v.extend(accounts::checks());
    v.extend(profile::checks());
    v.extend(preferences::checks());
    v.extend(push::checks());
    v.extend(announcements::checks());
    v.extend(crypto::checks());
    v.extend(extras::checks());
    v.extend(follows::checks());
    v.extend(blocks::checks());
    v.extend(social::checks());
    v.extend(domain_blocks::checks());
    v.extend(statuses::checks());
    v.extend(account_statuses::checks());
    v.extend(interactions::checks());
    v.extend(quotes::checks());
    v.extend(edits::checks());
    v.extend(polls::checks());
    v.extend(threads::checks());
    v.extend(discovery::checks());
    v.extend(scheduled_statuses::checks());
    v.extend(media::checks());
    v.extend(timelines::checks());
    v.extend(lists::checks());
    v.extend(notifications::checks());
    v.extend(notification_requests::checks());
    v.extend(filters::checks());
    v.extend(conversations::checks());
    v.extend(tags::checks());
    v.extend(trends::checks());
    v.extend(cards::checks());
    v.extend(search::checks());
    v.extend(visibility::checks());
    v.extend(streaming::checks());
    v.extend(federation::checks());
    v.extend(federation_polls::checks());
    v.extend(activitypub_pages::checks());
    v.extend(translation::checks());
    v.extend(reports::checks());
    v.extend(admin::checks());
    v.extend(admin_blocks::checks());
    v.extend(admin_tags::checks());
    v.extend(admin_metrics::checks());
    v.extend(admin_trends::checks());
    v.extend(custom_emojis::checks());
    v.extend(remaining::checks());
    v.extend(seed_rules::checks());
    // Last: it judges the answers every check before it received.
    v.extend(schema::checks());
    v
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_are_unique_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for c in super::all() {
            assert!(seen.insert(c.id), "duplicate check id {}", c.id);
            if let Some(op) = super::schema::operation_of(c.id) {
                let (method, path) = op.split_once(' ').expect("METHOD path");
                assert!(
                    ["GET", "POST", "PUT", "PATCH", "DELETE"].contains(&method)
                        && path.starts_with('/')
                        && !path.contains(' '),
                    "bad schema check id {}",
                    c.id
                );
                continue;
            }
            assert!(
                c.id.split('/').count() >= 2
                    && c.id.chars().all(|ch| ch.is_ascii_lowercase()
                        || ch.is_ascii_digit()
                        || "/-_".contains(ch)),
                "bad id {}",
                c.id
            );
            assert!(!c.rule.is_empty());
        }
    }
}
