//! The `schema` area: one check per endpoint the suite exercises, `schema/<METHOD> <path
//! template>` as the OpenAPI schema of the Mastodon API names the operation. It passes when
//! every answer that endpoint gave during the run matches the schema declared for its status,
//! and otherwise lists each missing or mistyped field once, with how many answers had it and
//! the first request that showed it.
//!
//! These checks judge what the other checks received, so they run last, and after `--only
//! <area>` only that area's endpoints have answers to judge. Set-up steps never fail a check
//! over a field they do not read; a server missing a required field fails here, once.

use crate::conformance::{Check, CheckResult, Cx, Failure};

/// The ids of this area's checks: `schema/` and an operation the suite exercises, as the OpenAPI
/// document labels it, in path order.
/// The reference server's conformance test fails when a run receives an answer from an
/// operation not listed here, so the list grows with the suite. Endpoints whose answers are not
/// JSON (`GET /api/v1/streaming/health`'s `OK`, the streams) have nothing for the schema to judge.
pub const OPERATIONS: &[&str] = &[
    "schema/GET /.well-known/oauth-authorization-server",
    "schema/GET /api/oembed",
    "schema/GET /api/v1/accounts",
    "schema/POST /api/v1/accounts",
    "schema/GET /api/v1/accounts/familiar_followers",
    "schema/GET /api/v1/accounts/lookup",
    "schema/GET /api/v1/accounts/relationships",
    "schema/GET /api/v1/accounts/search",
    "schema/PATCH /api/v1/accounts/update_credentials",
    "schema/GET /api/v1/accounts/verify_credentials",
    "schema/GET /api/v1/accounts/{id}",
    "schema/POST /api/v1/accounts/{id}/block",
    "schema/POST /api/v1/accounts/{id}/endorse",
    "schema/GET /api/v1/accounts/{id}/endorsements",
    "schema/GET /api/v1/accounts/{id}/featured_tags",
    "schema/POST /api/v1/accounts/{id}/follow",
    "schema/GET /api/v1/accounts/{id}/followers",
    "schema/GET /api/v1/accounts/{id}/following",
    "schema/GET /api/v1/accounts/{id}/identity_proofs",
    "schema/GET /api/v1/accounts/{id}/lists",
    "schema/POST /api/v1/accounts/{id}/mute",
    "schema/POST /api/v1/accounts/{id}/note",
    "schema/POST /api/v1/accounts/{id}/pin",
    "schema/POST /api/v1/accounts/{id}/remove_from_followers",
    "schema/GET /api/v1/accounts/{id}/statuses",
    "schema/POST /api/v1/accounts/{id}/unblock",
    "schema/POST /api/v1/accounts/{id}/unendorse",
    "schema/POST /api/v1/accounts/{id}/unfollow",
    "schema/POST /api/v1/accounts/{id}/unpin",
    "schema/GET /api/v1/announcements",
    "schema/POST /api/v1/announcements/{id}/dismiss",
    "schema/PUT /api/v1/announcements/{id}/reactions/{name}",
    "schema/DELETE /api/v1/announcements/{id}/reactions/{name}",
    "schema/POST /api/v1/apps",
    "schema/GET /api/v1/apps/verify_credentials",
    "schema/GET /api/v1/blocks",
    "schema/GET /api/v1/bookmarks",
    "schema/GET /api/v1/conversations",
    "schema/DELETE /api/v1/conversations/{id}",
    "schema/POST /api/v1/conversations/{id}/read",
    "schema/GET /api/v1/custom_emojis",
    "schema/GET /api/v1/directory",
    "schema/DELETE /api/v1/domain_blocks",
    "schema/GET /api/v1/domain_blocks",
    "schema/POST /api/v1/domain_blocks",
    "schema/GET /api/v1/endorsements",
    "schema/GET /api/v1/favourites",
    "schema/GET /api/v1/featured_tags",
    "schema/POST /api/v1/featured_tags",
    "schema/GET /api/v1/featured_tags/suggestions",
    "schema/DELETE /api/v1/featured_tags/{id}",
    "schema/GET /api/v1/filters",
    "schema/POST /api/v1/filters",
    "schema/GET /api/v1/filters/{id}",
    "schema/PUT /api/v1/filters/{id}",
    "schema/GET /api/v1/follow_requests",
    "schema/POST /api/v1/follow_requests/{account_id}/authorize",
    "schema/POST /api/v1/follow_requests/{account_id}/reject",
    "schema/GET /api/v1/followed_tags",
    "schema/GET /api/v1/instance",
    "schema/GET /api/v1/instance/activity",
    "schema/GET /api/v1/instance/domain_blocks",
    "schema/GET /api/v1/instance/extended_description",
    "schema/GET /api/v1/instance/peers",
    "schema/GET /api/v1/instance/privacy_policy",
    "schema/GET /api/v1/instance/rules",
    "schema/GET /api/v1/instance/terms_of_service",
    "schema/GET /api/v1/instance/terms_of_service/{date}",
    "schema/GET /api/v1/lists",
    "schema/POST /api/v1/lists",
    "schema/DELETE /api/v1/lists/{id}",
    "schema/GET /api/v1/lists/{id}",
    "schema/PUT /api/v1/lists/{id}",
    "schema/GET /api/v1/lists/{id}/accounts",
    "schema/POST /api/v1/lists/{id}/accounts",
    "schema/GET /api/v1/markers",
    "schema/POST /api/v1/markers",
    "schema/POST /api/v1/media",
    "schema/DELETE /api/v1/media/{id}",
    "schema/GET /api/v1/media/{id}",
    "schema/PUT /api/v1/media/{id}",
    "schema/GET /api/v1/mutes",
    "schema/GET /api/v1/notifications",
    "schema/GET /api/v1/notifications/requests",
    "schema/GET /api/v1/notifications/requests/merged",
    "schema/GET /api/v1/notifications/requests/{id}",
    "schema/POST /api/v1/notifications/requests/{id}/accept",
    "schema/POST /api/v1/notifications/requests/{id}/dismiss",
    "schema/GET /api/v1/notifications/unread_count",
    "schema/GET /api/v1/notifications/{id}",
    "schema/POST /api/v1/notifications/{id}/dismiss",
    "schema/GET /api/v1/polls/{id}",
    "schema/POST /api/v1/polls/{id}/votes",
    "schema/GET /api/v1/preferences",
    "schema/DELETE /api/v1/profile/avatar",
    "schema/DELETE /api/v1/profile/header",
    "schema/GET /api/v1/push/subscription",
    "schema/POST /api/v1/push/subscription",
    "schema/PUT /api/v1/push/subscription",
    "schema/POST /api/v1/reports",
    "schema/GET /api/v1/scheduled_statuses",
    "schema/DELETE /api/v1/scheduled_statuses/{id}",
    "schema/GET /api/v1/scheduled_statuses/{id}",
    "schema/PUT /api/v1/scheduled_statuses/{id}",
    "schema/GET /api/v1/statuses",
    "schema/POST /api/v1/statuses",
    "schema/DELETE /api/v1/statuses/{id}",
    "schema/GET /api/v1/statuses/{id}",
    "schema/PUT /api/v1/statuses/{id}",
    "schema/POST /api/v1/statuses/{id}/bookmark",
    "schema/GET /api/v1/statuses/{id}/context",
    "schema/POST /api/v1/statuses/{id}/favourite",
    "schema/GET /api/v1/statuses/{id}/favourited_by",
    "schema/GET /api/v1/statuses/{id}/history",
    "schema/POST /api/v1/statuses/{id}/mute",
    "schema/POST /api/v1/statuses/{id}/pin",
    "schema/GET /api/v1/statuses/{id}/quotes",
    "schema/POST /api/v1/statuses/{id}/quotes/{quoting_status_id}/revoke",
    "schema/PUT /api/v1/statuses/{id}/interaction_policy",
    "schema/POST /api/v1/statuses/{id}/reblog",
    "schema/GET /api/v1/statuses/{id}/reblogged_by",
    "schema/GET /api/v1/statuses/{id}/source",
    "schema/POST /api/v1/statuses/{id}/translate",
    "schema/POST /api/v1/statuses/{id}/unbookmark",
    "schema/POST /api/v1/statuses/{id}/unfavourite",
    "schema/POST /api/v1/statuses/{id}/unmute",
    "schema/POST /api/v1/statuses/{id}/unpin",
    "schema/POST /api/v1/statuses/{id}/unreblog",
    "schema/GET /api/v1/suggestions",
    "schema/DELETE /api/v1/suggestions/{account_id}",
    "schema/POST /api/v1/tags/{id}/feature",
    "schema/POST /api/v1/tags/{id}/unfeature",
    "schema/GET /api/v1/tags/{name}",
    "schema/POST /api/v1/tags/{name}/follow",
    "schema/POST /api/v1/tags/{name}/unfollow",
    "schema/GET /api/v1/timelines/direct",
    "schema/GET /api/v1/timelines/home",
    "schema/GET /api/v1/timelines/link",
    "schema/GET /api/v1/timelines/list/{list_id}",
    "schema/GET /api/v1/timelines/public",
    "schema/GET /api/v1/timelines/tag/{hashtag}",
    "schema/GET /api/v1/trends/links",
    "schema/GET /api/v1/trends/statuses",
    "schema/GET /api/v1/trends/tags",
    "schema/GET /api/v2/filters",
    "schema/POST /api/v2/filters",
    "schema/DELETE /api/v2/filters/keywords/{id}",
    "schema/GET /api/v2/filters/keywords/{id}",
    "schema/PUT /api/v2/filters/keywords/{id}",
    "schema/DELETE /api/v2/filters/statuses/{id}",
    "schema/GET /api/v2/filters/statuses/{id}",
    "schema/GET /api/v2/filters/{filter_id}/keywords",
    "schema/POST /api/v2/filters/{filter_id}/keywords",
    "schema/GET /api/v2/filters/{filter_id}/statuses",
    "schema/POST /api/v2/filters/{filter_id}/statuses",
    "schema/DELETE /api/v2/filters/{id}",
    "schema/GET /api/v2/filters/{id}",
    "schema/PUT /api/v2/filters/{id}",
    "schema/GET /api/v2/instance",
    "schema/POST /api/v2/media",
    "schema/GET /api/v2/notifications",
    "schema/GET /api/v2/notifications/policy",
    "schema/PATCH /api/v2/notifications/policy",
    "schema/GET /api/v2/notifications/unread_count",
    "schema/GET /api/v2/notifications/{group_key}",
    "schema/GET /api/v2/notifications/{group_key}/accounts",
    "schema/POST /api/v2/notifications/{group_key}/dismiss",
    "schema/GET /api/v2/search",
    "schema/GET /api/v2/suggestions",
    "schema/POST /oauth/revoke",
    "schema/POST /oauth/token",
];

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    OPERATIONS
        .iter()
        .map(|id| Check {
            id,
            rule: "every answer of this endpoint matches the OpenAPI schema of the Mastodon API for its status (required fields present, types as declared)",
            run: |cx| Box::pin(matches_schema(cx)),
        })
        .collect()
}

/// The operation a schema check is about: its id without `schema/`.
pub fn operation_of(id: &str) -> Option<&str> {
    id.strip_prefix("schema/")
}

/// The operations that gave an answer the schema judges during the run but have no schema
/// check.
pub fn unlisted(cx: &Cx) -> Vec<String> {
    cx.recorder()
        .operations()
        .into_iter()
        .filter(|op| {
            cx.recorder()
                .operation(op)
                .is_some_and(|r| r.valid + r.invalid > 0)
        })
        .filter(|op| {
            !OPERATIONS
                .iter()
                .any(|id| operation_of(id) == Some(op.as_str()))
        })
        .collect()
}

async fn matches_schema(cx: &Cx) -> CheckResult {
    let operation = operation_of(cx.current_check()).unwrap_or_default();
    let Some(seen) = cx.recorder().operation(operation) else {
        return Err(Failure::NotRun(
            "no answer from this endpoint to judge: the checks that call it did not run, or stopped before calling it".into(),
        ));
    };
    if seen.invalid == 0 {
        if seen.valid == 0 {
            let statuses: Vec<String> =
                seen.unchecked_statuses.iter().map(u16::to_string).collect();
            return Err(Failure::NotRun(format!(
                "the schema declares no JSON body for the statuses this endpoint answered ({})",
                statuses.join(", ")
            )));
        }
        return Ok(());
    }
    // The report shows the request that first broke the schema.
    if let Some(first) = seen.problems.first() {
        cx.recorder().record(first.first.clone(), None);
    }
    let problems: Vec<String> = seen
        .problems
        .iter()
        .map(|p| {
            format!(
                "{} ({} of the answers; first: {})",
                p.problem,
                p.count,
                p.first.line()
            )
        })
        .collect();
    Err(Failure::Fail(format!(
        "{} of {} answers do not match the schema: {}",
        seen.invalid,
        seen.invalid + seen.valid,
        problems.join("; ")
    )))
}
