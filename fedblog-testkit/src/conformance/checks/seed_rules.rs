//! Rules of the service specification (`SEED.md`) that no other check file covers: suspended
//! accounts, push subscriptions, v2 search, trends, reports, administration, custom emojis
//! and the mechanisms federation dropped (the streaming rule's check, `streaming/health`, is in
//! [`super::streaming`]). Each check is named after its rule; [`crate::conformance::seed`] maps
//! every observable rule to the checks that hold a server to it.

use fedblog_core::api::accounts::{
    follow_account::FollowAccount, get_account::GetAccount,
    get_account_statuses::GetAccountStatuses, get_followers::GetFollowers,
    get_following::GetFollowing, mute_account::MuteAccount, unfollow_account::UnfollowAccount,
    verify_credentials::VerifyCredentials,
};
use fedblog_core::api::admin_accounts::{
    list_accounts_v2::ListAccountsV2, moderate_account::ModerateAccount,
};
use fedblog_core::api::admin_domain_allows::{
    create_domain_allow::CreateAdminDomainAllow, delete_domain_allow::DeleteAdminDomainAllow,
    list_domain_allows::ListAdminDomainAllows,
};
use fedblog_core::api::bookmarks::list_bookmarks::ListBookmarks;
use fedblog_core::api::custom_emojis::list_custom_emojis::ListCustomEmojis;
use fedblog_core::api::favourites::list_favourites::ListFavourites;
use fedblog_core::api::instance::instance_v2::InstanceV2;
use fedblog_core::api::reports::create_report::CreateReport;
use fedblog_core::api::search::search_v2::SearchV2;
use fedblog_core::api::statuses::{
    bookmark_status::BookmarkStatus, create_status::CreateStatus, delete_status::DeleteStatus,
    favourite_status::FavouriteStatus,
};
use fedblog_core::api::trends::list_tags_v1::ListTrendingTagsV1;
use fedblog_core::api::{DROPPED_FEDERATION_ENDPOINTS, Endpoint, fill_path, unserved};
use serde_json::Value;

use super::notifications::status_action;
use super::social::act;
use crate::check;
use crate::client::{Body, Response, form};
use crate::conformance::{Check, CheckResult, Cx, Failure, User, expect_error, ids_of, path};
use crate::ensure;

/// The checks of this file.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "ratelimits/headers",
            "an authenticated API answer carries X-RateLimit-Limit, X-RateLimit-Remaining (at most the limit, and not growing from one request to the next) and X-RateLimit-Reset (an ISO 8601 time)",
            rate_limit_headers
        ),
        check!(
            "ratelimits/posting",
            "posting has a rate limit of its own: each POST /api/v1/statuses answers its X-RateLimit-* headers, X-RateLimit-Remaining one lower per status posted",
            rate_limit_posting
        ),
        check!(
            "ratelimits/following",
            "following has a rate limit of its own: each POST /api/v1/accounts/:id/follow answers its X-RateLimit-* headers, X-RateLimit-Remaining one lower per account followed",
            rate_limit_following
        ),
        check!(
            "ratelimits/posting-429",
            "posting is refused once its own limit is spent: a new account posts until X-RateLimit-Remaining is 0, the next post is a 429 with an {\"error\"} body, Retry-After and X-RateLimit-Remaining 0, and the account still reads (the limit is posting's, not the API's)",
            rate_limit_posting_429
        ),
        check!(
            "ratelimits/following-429",
            "following is refused once its own limit is spent: a new account follows until X-RateLimit-Remaining is 0, the next follow is a 429 with an {\"error\"} body, Retry-After and X-RateLimit-Remaining 0, and the account still reads",
            rate_limit_following_429
        ),
        check!(
            "accounts/get/suspended-410",
            "GET /api/v1/accounts/:id of an account an administrator suspended is a 410 with an {\"error\"} body",
            suspended_410
        ),
        check!(
            "accounts/suspended/lists-empty",
            "the list endpoints of a suspended account (statuses, followers, following) answer empty lists",
            suspended_lists_empty
        ),
        check!(
            "accounts/following/muted-hidden-on-own-list",
            "one's own following list hides the accounts one mutes; others still see them there",
            following_hides_muted
        ),
        check!(
            "push/subscription/missing-404",
            "GET /api/v1/push/subscription without a subscription is a 404; with one it answers it, and after DELETE it is a 404 again",
            push_missing_404
        ),
        check!(
            "push/subscription/alerts-and-policy",
            "a push subscription keeps its alert settings per notification type and its policy",
            push_alerts_and_policy
        ),
        check!(
            "search/v2/public-no-pagination",
            "GET /api/v2/search works without a token, but paginating it (offset) without one is a 401",
            search_public_no_pagination
        ),
        check!(
            "search/v2/hashtags-rich",
            "v2 search answers hashtags as Tag objects (name, url, history), not strings",
            search_hashtags_rich
        ),
        check!(
            "trends/empty-pagination-header",
            "an empty page of trends (statuses, tags, links past the end) still carries a Link pagination header",
            trends_empty_link
        ),
        check!(
            "reports/reported-deleted-bookmark-favourite-no-500",
            "bookmarks and favourites still answer 200, without the status, after it was reported and deleted",
            reported_deleted_no_500
        ),
        check!(
            "admin/accounts/role-ids-array",
            "GET /api/v2/admin/accounts accepts role_ids[] and lists only accounts with those roles",
            admin_role_ids
        ),
        check!(
            "admin/domain-allows/available",
            "an administrator adds, lists and removes a domain allow through /api/v1/admin/domain_allows",
            admin_domain_allows
        ),
        check!(
            "custom_emojis/list-public",
            "GET /api/v1/custom_emojis answers a list without a token",
            custom_emojis
        ),
        check!(
            "federation/salmon-pubsubhubbub-not-supported",
            "the Salmon and PubSubHubbub endpoints are not available",
            salmon_pubsubhubbub
        ),
        check!(
            "instance/v2/server-banner",
            "GET /api/v2/instance carries the server banner: thumbnail.url",
            instance_banner
        ),
    ]
}

/// Fails unless `r` is a 200, saying what was asked and what came back.
fn answered_200(r: &Response, what: &str) -> CheckResult {
    ensure!(
        r.status == 200,
        "{what}: HTTP {} {}",
        r.status,
        crate::client::truncate(&r.text)
    );
    Ok(())
}

/// Suspends `user` through the admin API.
async fn suspend(cx: &Cx, user: &User) -> CheckResult {
    let admin = cx.admin()?;
    let r = cx
        .client
        .post(
            &path::<ModerateAccount>(&[("id", &user.id)]),
            Some(admin),
            form(&[("type", "suspend")]),
        )
        .await?;
    answered_200(
        &r,
        "suspending through POST /api/v1/admin/accounts/:id/action",
    )?;
    Ok(())
}

/// Largest own limit the 429 checks spend (a server with a larger one is not asked to take
/// that many posts or follows from the suite).
const MOST_SPENT: u64 = 1000;

/// Repeats `act` (its answers carrying the limit's headers) until X-RateLimit-Remaining reaches
/// 0, then once more: that answer must be a 429 with Retry-After, while the account can still
/// read.
async fn spend_limit<F, Fut>(cx: &Cx, user: &User, what: &str, act: F) -> CheckResult
where
    F: Fn(u64) -> Fut,
    Fut: std::future::Future<Output = Result<Response, Failure>>,
{
    let first = act(0).await?;
    first.expect(200)?;
    let (limit, mut remaining) = rate_limit(&first, what)?;
    if remaining > MOST_SPENT {
        return Err(Failure::NotRun(format!(
            "{what}: X-RateLimit-Remaining is {remaining} (limit {limit}); the suite spends at most {MOST_SPENT}"
        )));
    }
    let mut n = 1;
    while remaining > 0 {
        let r = act(n).await?;
        n += 1;
        r.expect(200)
            .map_err(|e| format!("{what} with {remaining} left of {limit}: {e}"))?;
        let (_, now) = rate_limit(&r, what)?;
        ensure!(
            now + 1 == remaining,
            "{what}: X-RateLimit-Remaining went from {remaining} to {now}"
        );
        remaining = now;
    }
    let refused = act(n).await?;
    expect_error(&refused, 429, &format!("{what} past its limit of {limit}"))?;
    let retry = refused
        .header("retry-after")
        .and_then(|v| v.trim().parse::<u64>().ok());
    ensure!(
        retry.is_some_and(|s| s > 0),
        "{what}: the 429 has no Retry-After in seconds ({:?})",
        refused.header("retry-after")
    );
    ensure!(
        refused.header("x-ratelimit-remaining").map(str::trim) == Some("0"),
        "{what}: the 429 says X-RateLimit-Remaining {:?}",
        refused.header("x-ratelimit-remaining")
    );
    let read = cx
        .client
        .get(&path::<VerifyCredentials>(&[]), Some(&user.token))
        .await?;
    read.expect(200)
        .map_err(|e| format!("reading after {what} was refused: {e}"))?;
    Ok(())
}

async fn rate_limit_posting_429(cx: &Cx) -> CheckResult {
    let user = cx.new_user("spender").await?;
    spend_limit(cx, &user, "POST /api/v1/statuses", |i| {
        let (cx, token) = (cx, user.token.clone());
        async move {
            let text = format!("limited post {i}");
            Ok(cx
                .client
                .post(
                    &path::<CreateStatus>(&[]),
                    Some(&token),
                    form(&[("status", text.as_str())]),
                )
                .await?)
        }
    })
    .await
}

async fn rate_limit_following_429(cx: &Cx) -> CheckResult {
    let user = cx.new_user("collector").await?;
    let targets = [cx.new_user("idol").await?, cx.new_user("star").await?];
    // Following and unfollowing in turn makes every follow a new one, as a limit of
    // follows (not of requests) counts them; unfollowing has no limit of its own.
    spend_limit(cx, &user, "POST /api/v1/accounts/:id/follow", |i| {
        let (cx, token) = (cx, user.token.clone());
        let target = targets[(i % 2) as usize].id.clone();
        async move {
            let r = cx
                .client
                .post(
                    &path::<FollowAccount>(&[("id", target.as_str())]),
                    Some(&token),
                    form::<&str, &str>(&[]),
                )
                .await?;
            if r.status == 200 {
                cx.client
                    .post(
                        &path::<UnfollowAccount>(&[("id", target.as_str())]),
                        Some(&token),
                        form::<&str, &str>(&[]),
                    )
                    .await?
                    .expect(200)?;
            }
            Ok(r)
        }
    })
    .await
}

async fn suspended_410(cx: &Cx) -> CheckResult {
    cx.admin()?;
    let target = cx.new_user("susp").await?;
    let viewer = cx.new_user("viewer").await?;
    let path = path::<GetAccount>(&[("id", &target.id)]);
    cx.client
        .get(&path, Some(&viewer.token))
        .await?
        .expect(200)?;
    suspend(cx, &target).await?;
    let r = cx.client.get(&path, Some(&viewer.token)).await?;
    expect_error(&r, 410, "GET of a suspended account")
}

async fn suspended_lists_empty(cx: &Cx) -> CheckResult {
    cx.admin()?;
    let target = cx.new_user("susp").await?;
    let fan = cx.new_user("fan").await?;
    act::<FollowAccount>(cx, &fan, &target, &[]).await?;
    act::<FollowAccount>(cx, &target, &fan, &[]).await?;
    cx.post_status(&target, &[("status", "before the suspension")])
        .await?;
    suspend(cx, &target).await?;
    for list in [
        GetAccountStatuses::PATH,
        GetFollowers::PATH,
        GetFollowing::PATH,
    ] {
        let r = cx
            .client
            .get(&fill_path(list, &[("id", &target.id)]), Some(&fan.token))
            .await?;
        r.expect(200)?;
        ensure!(
            r.json()?.as_array().is_some_and(Vec::is_empty),
            "the {list} of a suspended account are not an empty list: {}",
            r.text
        );
    }
    Ok(())
}

async fn following_hides_muted(cx: &Cx) -> CheckResult {
    let me = cx.new_user("me").await?;
    let muted = cx.new_user("muted").await?;
    let kept = cx.new_user("kept").await?;
    let other = cx.new_user("other").await?;
    act::<FollowAccount>(cx, &me, &muted, &[]).await?;
    act::<FollowAccount>(cx, &me, &kept, &[]).await?;
    act::<MuteAccount>(cx, &me, &muted, &[]).await?;
    let list = path::<GetFollowing>(&[("id", &me.id)]);
    let own = cx.client.get(&list, Some(&me.token)).await?;
    own.expect(200)?;
    let own = ids_of(own.json()?);
    ensure!(
        own.contains(&kept.id) && !own.contains(&muted.id),
        "one's own following list must hold the followed account {} and not the muted {}: {own:?}",
        kept.id,
        muted.id
    );
    let seen = cx.client.get(&list, Some(&other.token)).await?;
    seen.expect(200)?;
    let seen = ids_of(seen.json()?);
    ensure!(
        seen.contains(&muted.id),
        "another account must still see {} in the following list: {seen:?}",
        muted.id
    );
    Ok(())
}

/// A P-256 public key and auth secret that parse (the test vector of RFC 8291).
const P256DH: &str =
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
const AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";
const SUBSCRIPTION: &str = unserved::PUSH_SUBSCRIPTION;

async fn subscribe(cx: &Cx, user: &User, extra: &[(&str, &str)]) -> Result<Value, Failure> {
    let endpoint = format!("https://push.example/{}", cx.unique("sub"));
    let mut pairs = vec![
        ("subscription[endpoint]", endpoint.as_str()),
        ("subscription[keys][p256dh]", P256DH),
        ("subscription[keys][auth]", AUTH),
    ];
    pairs.extend_from_slice(extra);
    let r = cx
        .client
        .post(SUBSCRIPTION, Some(&user.token), form(&pairs))
        .await?;
    answered_200(&r, &format!("POST {SUBSCRIPTION}"))?;
    Ok(r.json()?.clone())
}

/// The `X-RateLimit-*` headers of an answer: (limit, remaining). `what` names the request.
fn rate_limit(r: &Response, what: &str) -> Result<(u64, u64), Failure> {
    let number = |name: &str| -> Result<u64, Failure> {
        let v = r
            .header(name)
            .ok_or_else(|| Failure::Fail(format!("{what} answered {} without {name}", r.status)))?;
        v.trim()
            .parse()
            .map_err(|_| Failure::Fail(format!("{what}: {name} is {v:?}, not a number")))
    };
    let limit = number("x-ratelimit-limit")?;
    let remaining = number("x-ratelimit-remaining")?;
    ensure!(
        limit > 0 && remaining <= limit,
        "{what}: X-RateLimit-Remaining {remaining} of X-RateLimit-Limit {limit}"
    );
    let reset = r
        .header("x-ratelimit-reset")
        .ok_or_else(|| Failure::Fail(format!("{what} answered without X-RateLimit-Reset")))?;
    ensure!(
        chrono::DateTime::parse_from_rfc3339(reset.trim()).is_ok(),
        "{what}: X-RateLimit-Reset {reset:?} is no ISO 8601 time"
    );
    Ok((limit, remaining))
}

async fn rate_limit_headers(cx: &Cx) -> CheckResult {
    let user = cx.new_user("limited").await?;
    let url = path::<VerifyCredentials>(&[]);
    let first = cx.client.get(&url, Some(&user.token)).await?;
    first.expect(200)?;
    let (_, before) = rate_limit(&first, "GET verify_credentials")?;
    let second = cx.client.get(&url, Some(&user.token)).await?;
    second.expect(200)?;
    let (_, after) = rate_limit(&second, "a second GET verify_credentials")?;
    ensure!(
        after <= before,
        "X-RateLimit-Remaining grew from {before} to {after} between two requests"
    );
    Ok(())
}

/// The answers to the same limited request made twice: both succeed, and the second has
/// X-RateLimit-Remaining exactly one lower than the first.
fn counts_down(what: &str, first: &Response, second: &Response) -> CheckResult {
    first.expect(200)?;
    second.expect(200)?;
    let (limit, before) = rate_limit(first, what)?;
    let (_, after) = rate_limit(second, what)?;
    ensure!(
        after + 1 == before,
        "{what}: X-RateLimit-Remaining went from {before} to {after} (limit {limit}); one more request should take one off"
    );
    Ok(())
}

async fn rate_limit_posting(cx: &Cx) -> CheckResult {
    let user = cx.new_user("poster").await?;
    let mut answers = Vec::new();
    for i in 0..2 {
        let text = format!("rate-limited post {i}");
        answers.push(
            cx.client
                .post(
                    &path::<CreateStatus>(&[]),
                    Some(&user.token),
                    form(&[("status", text.as_str())]),
                )
                .await?,
        );
    }
    counts_down("POST /api/v1/statuses", &answers[0], &answers[1])
}

async fn rate_limit_following(cx: &Cx) -> CheckResult {
    let user = cx.new_user("follower").await?;
    let mut answers = Vec::new();
    for _ in 0..2 {
        let target = cx.new_user("followed").await?;
        answers.push(
            cx.client
                .post(
                    &path::<FollowAccount>(&[("id", target.id.as_str())]),
                    Some(&user.token),
                    form::<&str, &str>(&[]),
                )
                .await?,
        );
    }
    counts_down("POST /api/v1/accounts/:id/follow", &answers[0], &answers[1])
}

async fn push_missing_404(cx: &Cx) -> CheckResult {
    let user = cx.new_user("push").await?;
    let r = cx.client.get(SUBSCRIPTION, Some(&user.token)).await?;
    expect_error(&r, 404, "GET of a push subscription never made")?;
    subscribe(cx, &user, &[]).await?;
    cx.client
        .get(SUBSCRIPTION, Some(&user.token))
        .await?
        .expect(200)?;
    cx.client
        .delete(SUBSCRIPTION, Some(&user.token))
        .await?
        .expect(200)?;
    let r = cx.client.get(SUBSCRIPTION, Some(&user.token)).await?;
    expect_error(&r, 404, "GET of a deleted push subscription")
}

async fn push_alerts_and_policy(cx: &Cx) -> CheckResult {
    let user = cx.new_user("push").await?;
    let v = subscribe(
        cx,
        &user,
        &[
            ("data[alerts][mention]", "true"),
            ("data[alerts][follow]", "false"),
            ("data[policy]", "followed"),
        ],
    )
    .await?;
    ensure!(
        v["alerts"]["mention"] == Value::Bool(true) && v["alerts"]["follow"] == Value::Bool(false),
        "the alerts given are not kept: {v}"
    );
    ensure!(
        v["policy"] == "followed",
        "the policy given is not kept: {v}"
    );
    Ok(())
}

async fn search_public_no_pagination(cx: &Cx) -> CheckResult {
    let r = cx
        .client
        .get(&format!("{}?q=fedblog", SearchV2::PATH), None)
        .await?;
    answered_200(&r, "v2 search without a token")?;
    let v = r.json()?;
    for k in ["accounts", "statuses", "hashtags"] {
        ensure!(v[k].is_array(), "v2 search has no `{k}` list: {v}");
    }
    let r = cx
        .client
        .get(&format!("{}?q=fedblog&offset=1", SearchV2::PATH), None)
        .await?;
    expect_error(&r, 401, "paginated v2 search without a token")
}

async fn search_hashtags_rich(cx: &Cx) -> CheckResult {
    let user = cx.new_user("tagger").await?;
    let tag = cx.unique("seedtag").replace('_', "");
    cx.post_status(&user, &[("status", &format!("about #{tag}"))])
        .await?;
    let r = cx
        .client
        .get(
            &format!("{}?q=%23{tag}&type=hashtags", SearchV2::PATH),
            Some(&user.token),
        )
        .await?;
    answered_200(&r, "v2 search")?;
    let v = r.json()?;
    let found = v["hashtags"].as_array().cloned().unwrap_or_default();
    ensure!(!found.is_empty(), "the tag #{tag} was not found: {v}");
    ensure!(
        found
            .iter()
            .all(|t| t["name"].is_string() && t["url"].is_string() && t["history"].is_array()),
        "hashtags are not Tag objects: {v}"
    );
    Ok(())
}

async fn trends_empty_link(cx: &Cx) -> CheckResult {
    for kind in ["statuses", "tags", "links"] {
        // The three lists live under the deprecated path of the trending tags.
        let r = cx
            .client
            .get(
                &format!("{}/{kind}?offset=10000", ListTrendingTagsV1::PATH),
                None,
            )
            .await?;
        answered_200(&r, &format!("GET /api/v1/trends/{kind}"))?;
        ensure!(
            r.json()?.as_array().is_some_and(Vec::is_empty),
            "trends/{kind} past the end is not an empty list: {}",
            r.text
        );
        ensure!(
            r.header("link").is_some(),
            "the empty trends/{kind} page has no Link header"
        );
    }
    Ok(())
}

async fn reported_deleted_no_500(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    let reader = cx.new_user("reader").await?;
    let status = cx
        .post_status(&author, &[("status", "to be reported")])
        .await?;
    let id = status["id"].as_str().unwrap_or_default().to_string();
    status_action::<BookmarkStatus>(cx, &reader, &id).await?;
    status_action::<FavouriteStatus>(cx, &reader, &id).await?;
    let r = cx
        .client
        .post(
            CreateReport::PATH,
            Some(&reader.token),
            form(&[
                ("account_id", author.id.as_str()),
                ("status_ids[]", id.as_str()),
                ("comment", "conformance"),
            ]),
        )
        .await?;
    answered_200(&r, "reporting the status through POST /api/v1/reports")?;
    cx.client
        .delete(&path::<DeleteStatus>(&[("id", &id)]), Some(&author.token))
        .await?
        .expect(200)?;
    for list in [ListBookmarks::PATH, ListFavourites::PATH] {
        let r = cx.client.get(list, Some(&reader.token)).await?;
        r.expect(200)?;
        ensure!(
            !ids_of(r.json()?).contains(&id),
            "{list} still holds the deleted status {id}"
        );
    }
    Ok(())
}

async fn admin_role_ids(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    cx.new_user("plain").await?;
    let me = cx
        .client
        .get(&path::<VerifyCredentials>(&[]), Some(&admin))
        .await?;
    me.expect(200)?;
    let role = me.json()?["role"]["id"]
        .as_str()
        .map(str::to_string)
        .or_else(|| {
            me.json().ok()?["role"]["id"]
                .as_i64()
                .map(|i| i.to_string())
        })
        .ok_or_else(|| Failure::Fail(format!("the administrator has no role id: {}", me.text)))?;
    let r = cx
        .client
        .get(
            &format!("{}?role_ids[]={role}", ListAccountsV2::PATH),
            Some(&admin),
        )
        .await?;
    answered_200(&r, "GET /api/v2/admin/accounts?role_ids[]")?;
    let list = r.json()?.as_array().cloned().unwrap_or_default();
    ensure!(
        !list.is_empty(),
        "no account with the administrator's role {role} is listed"
    );
    ensure!(
        list.iter().all(|a| {
            let id = &a["role"]["id"];
            id.as_str() == Some(role.as_str())
                || id.as_i64().map(|i| i.to_string()) == Some(role.clone())
        }),
        "accounts without role {role} are listed: {}",
        r.text
    );
    Ok(())
}

async fn admin_domain_allows(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let domain = format!("{}.example", cx.unique("allowed").replace('_', "-"));
    let r = cx
        .client
        .post(
            CreateAdminDomainAllow::PATH,
            Some(&admin),
            form(&[("domain", domain.as_str())]),
        )
        .await?;
    answered_200(&r, "POST /api/v1/admin/domain_allows")?;
    let id = r.json()?["id"].as_str().unwrap_or_default().to_string();
    let list = cx
        .client
        .get(ListAdminDomainAllows::PATH, Some(&admin))
        .await?;
    list.expect(200)?;
    ensure!(
        ids_of(list.json()?).contains(&id),
        "the new domain allow {id} is not listed: {}",
        list.text
    );
    cx.client
        .delete(
            &path::<DeleteAdminDomainAllow>(&[("id", &id)]),
            Some(&admin),
        )
        .await?
        .expect(200)?;
    Ok(())
}

async fn custom_emojis(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<ListCustomEmojis>(&[]), None).await?;
    ensure!(
        r.status == 200 && r.json()?.is_array(),
        "GET /api/v1/custom_emojis: HTTP {} {}",
        r.status,
        crate::client::truncate(&r.text)
    );
    Ok(())
}

async fn salmon_pubsubhubbub(cx: &Cx) -> CheckResult {
    for (method, p) in DROPPED_FEDERATION_ENDPOINTS {
        let p = fill_path(p, &[("id", "1")]);
        let r = cx.send(method, &p, None, Body::None).await?;
        ensure!(
            r.status == 404 || r.status == 410,
            "{method} {p} answered {} (expected 404 or 410)",
            r.status
        );
    }
    Ok(())
}

async fn instance_banner(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<InstanceV2>(&[]), None).await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["thumbnail"]["url"]
            .as_str()
            .is_some_and(|u| !u.is_empty()),
        "no thumbnail.url (the server banner) in the v2 instance: {}",
        crate::client::truncate(&r.text)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{counts_down, rate_limit};
    use crate::client::Response;

    /// An answer with these `X-RateLimit-*` headers (limit, remaining, reset).
    fn answer(limit: &str, remaining: &str, reset: &str) -> Response {
        let mut headers = reqwest::header::HeaderMap::new();
        for (k, v) in [
            ("x-ratelimit-limit", limit),
            ("x-ratelimit-remaining", remaining),
            ("x-ratelimit-reset", reset),
        ] {
            if !v.is_empty() {
                headers.insert(k, v.parse().expect("header value"));
            }
        }
        Response {
            status: 200,
            headers,
            text: "{}".into(),
            json: Some(serde_json::json!({})),
        }
    }

    const RESET: &str = "2026-11-25T12:00:00.000Z";

    #[test]
    fn rate_limit_headers_are_read_and_judged() {
        assert_eq!(
            rate_limit(&answer("300", "299", RESET), "x").ok(),
            Some((300, 299))
        );
        for (limit, remaining, reset) in [
            ("", "299", RESET),
            ("300", "", RESET),
            ("300", "299", ""),
            ("300", "many", RESET),
            ("300", "301", RESET),
            ("0", "0", RESET),
            ("300", "299", "in an hour"),
        ] {
            assert!(
                rate_limit(&answer(limit, remaining, reset), "x").is_err(),
                "{limit:?} {remaining:?} {reset:?} must fail"
            );
        }
    }

    #[test]
    fn a_limited_request_counts_down_by_one() {
        let run = |[first, second]: [&str; 2]| {
            counts_down(
                "POST x",
                &answer("300", first, RESET),
                &answer("300", second, RESET),
            )
        };
        assert!(run(["300", "299"]).is_ok());
        assert!(run(["300", "300"]).is_err(), "no count taken");
        assert!(run(["300", "298"]).is_err(), "two taken for one request");
    }
}
