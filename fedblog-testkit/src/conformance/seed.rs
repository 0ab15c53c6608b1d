//! The rules of the service specification (`SEED.md`) and the checks that hold a server to
//! each: every rule that can be observed over HTTP names at least one check; a rule that cannot
//! says why. A rule whose feature a server lacks is a failing check in that server's baseline,
//! not a missing one.

/// One rule of the specification.
pub struct Rule {
    /// The rule, as the specification states it (shortened).
    pub rule: &'static str,
    /// The ids of the checks that test it (empty when it cannot be observed over HTTP).
    pub checks: &'static [&'static str],
    /// Why no check tests it, when none does.
    pub unobservable: Option<&'static str>,
}

const fn rule(rule: &'static str, checks: &'static [&'static str]) -> Rule {
    Rule {
        rule,
        checks,
        unobservable: None,
    }
}

/// Every rule of the specification, in its order.
pub const RULES: &[Rule] = &[
    rule(
        "GET /api/v1/accounts/:id is 410 for a suspended account",
        &["accounts/get/suspended-410"],
    ),
    rule(
        "list-type endpoints return empty data for a suspended account",
        &["accounts/suspended/lists-empty"],
    ),
    rule(
        "an unconfirmed account is not accessible through the REST API",
        &["accounts/register/unconfirmed-token-403"],
    ),
    rule(
        "GET /api/v1/apps/verify_credentials confirms that the calling application works",
        &["apps/verify-credentials/app-token"],
    ),
    rule(
        "GET /api/v1/push/subscription is 404 when none exists",
        &["push/subscription/missing-404"],
    ),
    rule(
        "push subscriptions have alert settings per notification type and a policy",
        &["push/subscription/alerts-and-policy"],
    ),
    rule(
        "notifications filter on types and on the originating account, paginate by min_id and max_id",
        &["notifications/min-id-pagination", "notifications/filters"],
    ),
    rule(
        "v2 search answers tags as rich tag objects",
        &["search/v2/hashtags-rich"],
    ),
    rule(
        "unauthenticated search exists and does not support pagination",
        &["search/v2/public-no-pagination"],
    ),
    rule(
        "GET /api/v2/instance includes the server banner",
        &["instance/v2/server-banner"],
    ),
    rule(
        "the instance activity gives its numbers as strings, and there is a peer list",
        &[
            "instance/activity/numbers-as-strings",
            "instance/peers/strings",
        ],
    ),
    rule(
        "POST /api/v1/follows succeeds without error if already following",
        &[
            "accounts/follow/twice-no-error",
            "follows/already-following-no-error",
        ],
    ),
    rule(
        "POST /api/v1/emails/confirmations is available after sign-up",
        &["emails/confirmations/after-sign-up"],
    ),
    rule(
        "GET /api/v1/tags/:id is restricted by a route constraint",
        &["tags/get/entity", "tags/get-invalid-name-404"],
    ),
    rule(
        "the admin accounts endpoint takes role_ids as an array",
        &["admin/accounts/role-ids-array"],
    ),
    rule(
        "the admin domain allows endpoint exists",
        &["admin/domain-allows/available"],
    ),
    rule(
        "v2 filters live under /api/v2",
        &["filters/create-read-update-delete"],
    ),
    rule(
        "min_id pagination on bookmarks, favourites and notifications",
        &[
            "bookmarks/list/pagination-min-id",
            "favourites/list/pagination-min-id",
            "notifications/min-id-pagination",
        ],
    ),
    rule(
        "paginated collections carry a pagination header, empty trends included",
        &["trends/empty-pagination-header"],
    ),
    rule(
        "unfavourite, unbookmark and unboost succeed after being blocked by the author",
        &[
            "statuses/unfavourite-after-block-allowed",
            "statuses/unbookmark-after-block-allowed",
            "statuses/unreblog-after-block-allowed",
        ],
    ),
    rule(
        "followers and following lists hide the accounts one mutes, on one's own account",
        &[
            "accounts/followers/muted-hidden-on-own-list",
            "accounts/following/muted-hidden-on-own-list",
        ],
    ),
    rule(
        "the follow scope is covered by read and write",
        &[
            "oauth/scopes/follow-covered-by-read-write",
            "oauth/authorize/follow-covered-by-read-write",
        ],
    ),
    rule(
        "followers and following lists are public",
        &[
            "accounts/followers/public-paginated",
            "accounts/following/public",
        ],
    ),
    rule(
        "polls of non-public posts require authentication",
        &["polls/private-anonymous-404"],
    ),
    rule(
        "only the owner deletes or dismisses a notification",
        &["notifications/dismiss-owner-only"],
    ),
    rule(
        "follow request responses include the updated relationship",
        &["follow_requests/authorize", "follow_requests/reject"],
    ),
    rule(
        "notifications are made for a followed user's posts when one asked to be notified",
        &["notifications/status-notify"],
    ),
    rule("a streaming endpoint exists", &["streaming/health"]),
    rule(
        "the Salmon and PubSubHubbub mechanisms are not supported",
        &["federation/salmon-pubsubhubbub-not-supported"],
    ),
    rule(
        "an empty source argument must not be a 400",
        &["accounts/update-credentials/empty-source-not-400"],
    ),
    rule(
        "removed endpoints (v1 search, card, direct timeline, mutes details) are not available",
        &["errors/removed-endpoints/not-available"],
    ),
    rule(
        "a bookmark or favourite whose status was reported and deleted is no server error",
        &["reports/reported-deleted-bookmark-favourite-no-500"],
    ),
    rule(
        "an account bio holds 500 characters",
        &["accounts/update-credentials/note-limit-500"],
    ),
    rule(
        "at most 50 lists per user, and the lists collection is not paginated",
        &["lists/limit-50-not-paginated"],
    ),
    rule(
        "a deleted post does not count towards the pinned-posts limit; private posts can be pinned",
        &["statuses/pin/limit-5", "statuses/pin/own-and-private"],
    ),
    rule("custom emojis exist", &["custom_emojis/list-public"]),
    rule(
        "rate limits specific to posting and to following exist",
        &[
            "ratelimits/posting",
            "ratelimits/following",
            "ratelimits/headers",
            "ratelimits/posting-429",
            "ratelimits/following-429",
        ],
    ),
    rule(
        "the application name, website and redirect URIs, and the account note, have maximum lengths",
        &[
            "apps/create/name-too-long-422",
            "apps/create/website-too-long-422",
            "apps/create/redirect-uris-too-long-422",
            "accounts/update-credentials/note-limit-500",
        ],
    ),
    Rule {
        rule: "suspensions are reversible through ActivityPub; federated reports exist",
        checks: &[],
        unobservable: Some("server-to-server behaviour, not part of the client API"),
    },
    Rule {
        rule: "announcements can be dismissed",
        checks: &[],
        unobservable: Some(
            "the client API cannot create an announcement, so a check has none to dismiss",
        ),
    },
];

#[cfg(test)]
mod tests {
    use super::RULES;

    #[test]
    fn every_rule_names_existing_checks_or_says_why_not() {
        let ids: std::collections::HashSet<&str> =
            super::super::checks::all().iter().map(|c| c.id).collect();
        for r in RULES {
            assert!(
                !r.checks.is_empty() || r.unobservable.is_some(),
                "rule {:?} has no check and no reason",
                r.rule
            );
            for c in r.checks {
                assert!(ids.contains(c), "rule {:?} names unknown check {c}", r.rule);
            }
        }
    }
}
