//! The small endpoints issue 28 added and the NodeInfo that lets client libraries recognise the
//! server: the web health check, clearing notifications through the grouped API, the
//! `/api/v2_alpha/notifications` paths Mastodon kept for its beta clients, the preview of a
//! domain block, OAuth token introspection (RFC 7662) and token info, and NodeInfo's
//! `metadata.upstream`.

use serde_json::Value;

use fedblog_core::api::domain_blocks::preview_domain_block::PreviewDomainBlock;
use fedblog_core::api::follows::follow_by_uri::FollowByUri;
use fedblog_core::api::health::health_check::HealthCheck;
use fedblog_core::api::instance::nodeinfo_discovery::NodeinfoDiscovery;
use fedblog_core::api::notifications::clear_notification_groups::ClearNotificationGroups;
use fedblog_core::api::notifications::list_notification_groups::ListNotificationGroups;
use fedblog_core::api::notifications::unread_group_count::UnreadGroupCount;
use fedblog_core::api::notifications_alpha::{
    clear_notification_groups_alpha::ClearNotificationGroupsAlpha,
    dismiss_notification_group_alpha::DismissNotificationGroupAlpha,
    get_notification_group_alpha::GetNotificationGroupAlpha,
    list_notification_groups_alpha::ListNotificationGroupsAlpha,
    unread_group_count_alpha::UnreadGroupCountAlpha,
};
use fedblog_core::api::oauth::{
    introspect_token::IntrospectToken, revoke_token::RevokeToken, token_info::TokenInfo,
};
use fedblog_core::api::statuses::favourite_status::FavouriteStatus;

use crate::check;
use crate::client::{Body, Response, form, query};
use crate::conformance::checks::federation::{remote_follows, setup};
use crate::conformance::checks::social::token_with_scopes;
use crate::conformance::{
    Check, CheckResult, Cx, Failure, SetUp, TestApp, User, expect_error, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "health/ok",
            "GET /health answers 200 with the text/plain body OK, to anyone (an invalid token is not read) and outside the API's rate limits",
            health_ok
        ),
        check!(
            "grouped_notifications/v2-clear",
            "POST /api/v2/notifications/clear removes every notification of the caller's (not another account's) and answers {}; it needs write:notifications",
            v2_clear
        ),
        check!(
            "grouped_notifications/v2-alpha-aliases",
            "the /api/v2_alpha/notifications paths answer as /api/v2/notifications does (the list with a Link header naming the v2_alpha path, one group, the unread count, dismissing a group, clearing), with the same scopes",
            v2_alpha_aliases
        ),
        check!(
            "domain_blocks/preview-counts",
            "GET /api/v1/domain_blocks/preview?domain= counts the caller's follows of accounts on the domain and its followers there (following_count, followers_count), case-insensitively, and 0 for another domain",
            preview_counts
        ),
        check!(
            "domain_blocks/preview-validation",
            "the domain block preview answers exactly following_count and followers_count (0 without relations), 422 without a valid domain, 401 without a token and 403 without write:blocks",
            preview_validation
        ),
        check!(
            "oauth/introspect-active-and-inactive",
            "POST /oauth/introspect tells a client of its own live token (active, scope, client_id, token_type Bearer, iat) and answers {\"active\": false} for another client's, an unknown or a revoked token",
            introspect_active_and_inactive
        ),
        check!(
            "oauth/introspect-authentication",
            "POST /oauth/introspect needs the client's credentials (a wrong secret is a 401 invalid_client) or another live bearer token of the same application (its own token or another application's is a 401 invalid_token); with neither it is a 400 invalid_request",
            introspect_authentication
        ),
        check!(
            "oauth/token-info",
            "GET /oauth/token/info describes the request's own token (resource_owner_id, scope as an array, expires_in null, application.uid, created_at); without a live token it is a 401 invalid_token",
            token_info
        ),
        check!(
            "instance/nodeinfo-metadata-mastodon-compatible",
            "NodeInfo keeps its own software.name and says in metadata.upstream that it speaks Mastodon's API (name \"mastodon\", a version), which client libraries detect the API by",
            nodeinfo_upstream
        ),
    ]
}

// ─── health ─────────────────────────────────────────────────────────────────────────────────

async fn health_ok(cx: &Cx) -> CheckResult {
    let url = path::<HealthCheck>(&[]);
    for token in [None, Some("not-a-token")] {
        let r = cx.client.get(&url, token).await?;
        r.expect(200)?;
        let kind = r.header("content-type").unwrap_or_default();
        ensure!(
            kind.starts_with("text/plain"),
            "GET /health is {kind:?}, not text/plain"
        );
        ensure!(r.text == "OK", "GET /health answered {:?}, not OK", r.text);
        ensure!(
            r.header("x-ratelimit-limit").is_none(),
            "GET /health counts against a rate limit (X-RateLimit-Limit: {:?})",
            r.header("x-ratelimit-limit")
        );
    }
    Ok(())
}

// ─── grouped notifications: clear and the v2_alpha paths ───────────────────────────────────

/// `fan` favourites a new status of `owner`'s: one notification of `owner`'s (set-up).
async fn favourited(cx: &Cx, owner: &User, fan: &User) -> Result<(), Failure> {
    let status = cx
        .post_status(
            owner,
            &[("status", "favourite me"), ("visibility", "public")],
        )
        .await?;
    let id = str_of(&status, "id")?;
    let r = cx
        .client
        .post(
            &path::<FavouriteStatus>(&[("id", &id)]),
            Some(&fan.token),
            Body::None,
        )
        .await?;
    r.expect(200).setup("favouriting the status")?;
    Ok(())
}

/// The group keys of a grouped answer.
fn group_keys(v: &Value) -> Vec<String> {
    v["notification_groups"]
        .as_array()
        .map(|gs| {
            gs.iter()
                .filter_map(|g| g["group_key"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// `GET` of a list path as `who`: the 200 answer.
async fn get_ok(cx: &Cx, url: &str, who: &User) -> Result<Response, Failure> {
    let r = cx.client.get(url, Some(&who.token)).await?;
    r.expect(200)?;
    Ok(r)
}

fn empty_object(r: &Response) -> bool {
    r.json()
        .is_ok_and(|v| v.as_object().is_some_and(|o| o.is_empty()))
}

async fn v2_clear(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("clearer").await?;
    let bob = cx.new_user("fan").await?;
    favourited(cx, &alice, &bob).await?;
    favourited(cx, &bob, &alice).await?;
    let list = path::<ListNotificationGroups>(&[]);
    let before = get_ok(cx, &list, &alice).await?;
    ensure!(
        !group_keys(before.json()?).is_empty(),
        "alice has no notification to clear: {}",
        before.text
    );
    let clear = path::<ClearNotificationGroups>(&[]);
    let reader = token_with_scopes(cx, "read:notifications").await?;
    let r = cx.client.post(&clear, Some(&reader), Body::None).await?;
    expect_error(&r, 403, "clearing with a token lacking write:notifications")?;
    let r = cx.client.post(&clear, None, Body::None).await?;
    expect_error(&r, 401, "clearing without a token")?;
    let r = cx
        .client
        .post(&clear, Some(&alice.token), Body::None)
        .await?;
    r.expect(200)?;
    ensure!(empty_object(&r), "clearing answered {}", r.text);
    let after = get_ok(cx, &list, &alice).await?;
    ensure!(
        group_keys(after.json()?).is_empty(),
        "after clearing alice still has {}",
        after.text
    );
    let bobs = get_ok(cx, &list, &bob).await?;
    ensure!(
        !group_keys(bobs.json()?).is_empty(),
        "clearing alice's notifications took bob's too: {}",
        bobs.text
    );
    Ok(())
}

async fn v2_alpha_aliases(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("alpha").await?;
    for _ in 0..3 {
        let fan = cx.new_user("fan").await?;
        favourited(cx, &alice, &fan).await?;
    }
    // The list: the same groups as v2, and a Link header naming the v2_alpha path.
    let v2 = get_ok(cx, &path::<ListNotificationGroups>(&[]), &alice).await?;
    let alpha_list = path::<ListNotificationGroupsAlpha>(&[]);
    let alpha = get_ok(cx, &alpha_list, &alice).await?;
    let keys = group_keys(v2.json()?);
    ensure!(keys.len() == 3, "three groups through v2: {}", v2.text);
    ensure!(
        group_keys(alpha.json()?) == keys,
        "v2_alpha lists {:?}, v2 {keys:?}",
        group_keys(alpha.json()?)
    );
    let paged = get_ok(cx, &format!("{alpha_list}?limit=1"), &alice).await?;
    let next = paged
        .link("next")
        .ok_or_else(|| Failure::Fail("a page of one group of three has no Link next".into()))?;
    ensure!(
        next.contains(&format!("{alpha_list}?")),
        "the Link next of the v2_alpha list is {next}, not a v2_alpha path"
    );
    let second = get_ok(cx, &next, &alice).await?;
    ensure!(
        group_keys(second.json()?) == keys[1..2],
        "the v2_alpha Link next leads to {:?}, not {:?}",
        group_keys(second.json()?),
        &keys[1..2]
    );
    // One group.
    let key = keys[0].clone();
    let one = get_ok(
        cx,
        &path::<GetNotificationGroupAlpha>(&[("group_key", &key)]),
        &alice,
    )
    .await?;
    ensure!(
        group_keys(one.json()?) == vec![key.clone()],
        "GET v2_alpha/notifications/{key} answered {}",
        one.text
    );
    let stranger = cx.new_user("stranger").await?;
    let r = cx
        .client
        .get(
            &path::<GetNotificationGroupAlpha>(&[("group_key", &key)]),
            Some(&stranger.token),
        )
        .await?;
    expect_error(&r, 404, "another account's group through v2_alpha")?;
    // The unread count.
    let count_v2 = get_ok(cx, &path::<UnreadGroupCount>(&[]), &alice).await?;
    let count_alpha = get_ok(cx, &path::<UnreadGroupCountAlpha>(&[]), &alice).await?;
    ensure!(
        count_alpha.json()? == count_v2.json()? && count_v2.json()?["count"] == 3,
        "the v2_alpha unread count is {}, v2's {}",
        count_alpha.text,
        count_v2.text
    );
    // Scopes: reading needs read:notifications, dismissing write:notifications.
    let writer = token_with_scopes(cx, "write:notifications").await?;
    let r = cx.client.get(&alpha_list, Some(&writer)).await?;
    expect_error(
        &r,
        403,
        "the v2_alpha list with a token lacking read:notifications",
    )?;
    let dismiss = path::<DismissNotificationGroupAlpha>(&[("group_key", &key)]);
    let reader = token_with_scopes(cx, "read:notifications").await?;
    let r = cx.client.post(&dismiss, Some(&reader), Body::None).await?;
    expect_error(
        &r,
        403,
        "dismissing through v2_alpha without write:notifications",
    )?;
    // Dismissing a group.
    let r = cx
        .client
        .post(&dismiss, Some(&alice.token), Body::None)
        .await?;
    r.expect(200)?;
    ensure!(empty_object(&r), "dismissing answered {}", r.text);
    let left = get_ok(cx, &path::<ListNotificationGroups>(&[]), &alice).await?;
    ensure!(
        group_keys(left.json()?) == keys[1..],
        "after dismissing {key} through v2_alpha, v2 lists {:?}",
        group_keys(left.json()?)
    );
    // Clearing.
    let r = cx
        .client
        .post(
            &path::<ClearNotificationGroupsAlpha>(&[]),
            Some(&alice.token),
            Body::None,
        )
        .await?;
    r.expect(200)?;
    let left = get_ok(cx, &path::<ListNotificationGroups>(&[]), &alice).await?;
    ensure!(
        group_keys(left.json()?).is_empty(),
        "after clearing through v2_alpha, v2 lists {}",
        left.text
    );
    Ok(())
}

// ─── domain block preview ───────────────────────────────────────────────────────────────────

async fn preview(cx: &Cx, who: &str, domain: Option<&str>) -> Result<Response, Failure> {
    let url = match domain {
        Some(d) => format!(
            "{}?{}",
            path::<PreviewDomainBlock>(&[]),
            query(&[("domain", d)])
        ),
        None => path::<PreviewDomainBlock>(&[]),
    };
    Ok(cx.client.get(&url, Some(who)).await?)
}

/// The two counts of a preview that answered 200, checking it has those keys only.
fn counts(r: &Response) -> Result<(i64, i64), Failure> {
    r.expect(200)?;
    let v = r.json()?;
    let keys: Vec<&str> = v
        .as_object()
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default();
    ensure!(
        keys.len() == 2 && keys.contains(&"following_count") && keys.contains(&"followers_count"),
        "the preview is not {{following_count, followers_count}}: {}",
        r.text
    );
    let number = |k: &str| {
        v[k].as_i64()
            .ok_or_else(|| Failure::Fail(format!("{k} is not a number: {}", r.text)))
    };
    Ok((number("following_count")?, number("followers_count")?))
}

async fn preview_counts(cx: &Cx) -> CheckResult {
    let (peer, user, actor) = setup(cx, "previewer").await?;
    // The user follows two accounts of the peer's (which accepts at once)...
    for _ in 0..2 {
        let remote = peer.actor(&cx.unique("pf"));
        let r = cx
            .client
            .post(
                &path::<FollowByUri>(&[]),
                Some(&user.token),
                form(&[("uri", remote.as_str())]),
            )
            .await?;
        r.expect(200)
            .setup("following a remote account by its actor URL")?;
        let id = str_of(r.json()?, "id").setup("reading the remote account's id")?;
        let mut following = false;
        for _ in 0..80 {
            let rel = cx
                .client
                .get(
                    &format!(
                        "{}?{}",
                        path::<fedblog_core::api::accounts::get_relationships::GetRelationships>(
                            &[]
                        ),
                        query(&[("id[]", id.as_str())])
                    ),
                    Some(&user.token),
                )
                .await?;
            if rel.json().is_ok_and(|v| v[0]["following"] == true) {
                following = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        }
        if !following {
            return Err(Failure::NotRun(format!(
                "set-up failed: the follow of {remote} was not accepted within 20 s"
            )));
        }
    }
    // ... and one follows the user.
    remote_follows(&peer, &cx.unique("pb"), &actor)
        .await
        .setup("a remote account follows the user")?;
    let (following, followers) = counts(&preview(cx, &user.token, Some(peer.host())).await?)?;
    ensure!(
        (following, followers) == (2, 1),
        "the preview of {} counts {following} follows and {followers} followers, not 2 and 1",
        peer.host()
    );
    let upper = peer.host().to_ascii_uppercase();
    let (following, followers) = counts(&preview(cx, &user.token, Some(&upper)).await?)?;
    ensure!(
        (following, followers) == (2, 1),
        "the preview of {upper} counts {following} and {followers}, not 2 and 1"
    );
    let (following, followers) =
        counts(&preview(cx, &user.token, Some("elsewhere.example")).await?)?;
    ensure!(
        (following, followers) == (0, 0),
        "the preview of an unrelated domain counts {following} and {followers}"
    );
    Ok(())
}

async fn preview_validation(cx: &Cx) -> CheckResult {
    let me = cx.new_user("previewer").await?;
    let (following, followers) = counts(&preview(cx, &me.token, Some("quiet.example")).await?)?;
    ensure!(
        (following, followers) == (0, 0),
        "an account without relations previews {following} and {followers}"
    );
    let r = preview(cx, &me.token, None).await?;
    expect_error(&r, 422, "a preview without a domain")?;
    let r = preview(cx, &me.token, Some("https://spam.example/path")).await?;
    expect_error(&r, 422, "a preview of a URL")?;
    let r = cx
        .client
        .get(
            &format!(
                "{}?{}",
                path::<PreviewDomainBlock>(&[]),
                query(&[("domain", "quiet.example")])
            ),
            None,
        )
        .await?;
    expect_error(&r, 401, "a preview without a token")?;
    let reader = token_with_scopes(cx, "read:blocks").await?;
    let r = preview(cx, &reader, Some("quiet.example")).await?;
    expect_error(&r, 403, "a preview with a token lacking write:blocks")
}

// ─── OAuth: introspection and token info ─────────────────────────────────────────────────────

/// `POST /oauth/introspect` of `token` with a form of `pairs` and these headers.
async fn introspect(
    cx: &Cx,
    token: &str,
    pairs: &[(&str, &str)],
    headers: &[(&str, &str)],
) -> Result<Response, Failure> {
    let mut all = vec![("token", token)];
    all.extend_from_slice(pairs);
    Ok(cx
        .client
        .send(
            "POST",
            &path::<IntrospectToken>(&[]),
            None,
            form(&all),
            headers,
        )
        .await?)
}

/// The client credentials of an app as form pairs.
fn credentials(app: &TestApp) -> [(&str, &str); 2] {
    [
        ("client_id", app.client_id.as_str()),
        ("client_secret", app.client_secret.as_str()),
    ]
}

/// Fails unless the answer is exactly `{"active": false}` with status 200.
fn inactive(r: &Response, what: &str) -> CheckResult {
    r.expect(200)?;
    ensure!(
        r.json()? == &serde_json::json!({ "active": false }),
        "{what}: the introspection answered {}",
        r.text
    );
    Ok(())
}

/// Fails unless the answer has status `status` and the OAuth error `code`.
fn oauth_error(r: &Response, status: u16, code: &str, what: &str) -> CheckResult {
    ensure!(
        r.status == status && r.json().is_ok_and(|v| v["error"] == code),
        "{what}: expected {status} with error {code}, got {} {}",
        r.status,
        r.text
    );
    Ok(())
}

fn basic(app: &TestApp) -> String {
    use base64::Engine;
    let pair = format!("{}:{}", app.client_id, app.client_secret);
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(pair)
    )
}

async fn introspect_active_and_inactive(cx: &Cx) -> CheckResult {
    let app = cx.new_app("read write").await?;
    let other = cx.new_app("read").await?;
    let token = cx.app_token(&app, "read write").await?;
    // Its own client, by form parameters and by HTTP Basic.
    for (pairs, headers) in [
        (credentials(&app).to_vec(), vec![]),
        (vec![], vec![basic(&app)]),
    ] {
        let headers: Vec<(&str, &str)> = headers
            .iter()
            .map(|h| ("Authorization", h.as_str()))
            .collect();
        let r = introspect(cx, &token, &pairs, &headers).await?;
        r.expect(200)?;
        let v = r.json()?;
        ensure!(v["active"] == true, "its own client's token: {}", r.text);
        let mut scopes: Vec<&str> = v["scope"].as_str().unwrap_or_default().split(' ').collect();
        scopes.sort_unstable();
        ensure!(
            scopes == ["read", "write"],
            "scope {} is not \"read write\"",
            v["scope"]
        );
        ensure!(
            v["client_id"] == app.client_id.as_str(),
            "client_id {} is not the app's {}",
            v["client_id"],
            app.client_id
        );
        ensure!(
            v["token_type"]
                .as_str()
                .is_some_and(|t| t.eq_ignore_ascii_case("bearer")),
            "token_type {}",
            v["token_type"]
        );
        ensure!(
            v["iat"].as_i64().is_some(),
            "iat {} is not a number",
            v["iat"]
        );
        ensure!(
            v.get("sub").is_none(),
            "an application's own token names a subject: {}",
            r.text
        );
    }
    let r = introspect(cx, &token, &credentials(&other), &[]).await?;
    inactive(&r, "another client's token")?;
    let r = introspect(cx, &cx.unique("no-such-token"), &credentials(&app), &[]).await?;
    inactive(&r, "an unknown token")?;
    let r = cx
        .client
        .post(
            &path::<RevokeToken>(&[]),
            None,
            form(&[
                ("client_id", app.client_id.as_str()),
                ("client_secret", app.client_secret.as_str()),
                ("token", token.as_str()),
            ]),
        )
        .await?;
    r.expect(200)
        .setup("revoking the token (POST /oauth/revoke)")?;
    let r = introspect(cx, &token, &credentials(&app), &[]).await?;
    inactive(&r, "a revoked token")
}

async fn introspect_authentication(cx: &Cx) -> CheckResult {
    let app = cx.new_app("read").await?;
    let other = cx.new_app("read").await?;
    let token = cx.app_token(&app, "read").await?;
    let second = cx.app_token(&app, "read").await?;
    let foreign = cx.app_token(&other, "read").await?;
    // Client authentication with a wrong secret.
    let r = introspect(
        cx,
        &token,
        &[
            ("client_id", app.client_id.as_str()),
            ("client_secret", "wrong"),
        ],
        &[],
    )
    .await?;
    oauth_error(&r, 401, "invalid_client", "a wrong client secret")?;
    // No authentication at all.
    let r = introspect(cx, &token, &[], &[]).await?;
    oauth_error(&r, 400, "invalid_request", "no authentication")?;
    // Bearer authentication: another token of the same application may ask.
    let bearer = |t: &str| format!("Bearer {t}");
    let header = bearer(&second);
    let r = introspect(cx, &token, &[], &[("Authorization", header.as_str())]).await?;
    r.expect(200)?;
    ensure!(
        r.json()?["active"] == true,
        "a second token of the same app introspecting the first: {}",
        r.text
    );
    let header = bearer(&token);
    let r = introspect(cx, &token, &[], &[("Authorization", header.as_str())]).await?;
    oauth_error(&r, 401, "invalid_token", "a token introspecting itself")?;
    let header = bearer(&foreign);
    let r = introspect(cx, &token, &[], &[("Authorization", header.as_str())]).await?;
    oauth_error(
        &r,
        401,
        "invalid_token",
        "another application's token as the bearer",
    )?;
    let header = bearer(&cx.unique("no-such-token"));
    let r = introspect(cx, &token, &[], &[("Authorization", header.as_str())]).await?;
    oauth_error(&r, 401, "invalid_token", "an unknown bearer token")
}

async fn token_info(cx: &Cx) -> CheckResult {
    let url = path::<TokenInfo>(&[]);
    let app = cx.new_app("read write").await?;
    let token = cx.app_token(&app, "read write").await?;
    let r = cx.client.get(&url, Some(&token)).await?;
    r.expect(200)?;
    let v = r.json()?;
    let mut scopes: Vec<&str> = v["scope"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    scopes.sort_unstable();
    ensure!(
        scopes == ["read", "write"],
        "scope {} is not [read, write]",
        v["scope"]
    );
    ensure!(
        v["resource_owner_id"].is_null(),
        "an application's own token has the owner {}",
        v["resource_owner_id"]
    );
    ensure!(
        v["application"]["uid"] == app.client_id.as_str(),
        "application.uid {} is not the client id {}",
        v["application"]["uid"],
        app.client_id
    );
    ensure!(
        v["expires_in"].is_null() && v["created_at"].as_i64().is_some(),
        "expires_in {} / created_at {}",
        v["expires_in"],
        v["created_at"]
    );
    let user = cx.new_user("info").await?;
    let r = cx.client.get(&url, Some(&user.token)).await?;
    r.expect(200)?;
    let owner = &r.json()?["resource_owner_id"];
    ensure!(
        owner == user.id.as_str() || owner.as_u64().is_some_and(|n| n.to_string() == user.id),
        "a user's token has the owner {owner}, not the account {}",
        user.id
    );
    let r = cx.client.get(&url, None).await?;
    oauth_error(&r, 401, "invalid_token", "token info without a token")?;
    let r = cx.client.get(&url, Some("not-a-token")).await?;
    oauth_error(&r, 401, "invalid_token", "token info with an unknown token")
}

// ─── NodeInfo ───────────────────────────────────────────────────────────────────────────────

/// The NodeInfo schemas client libraries read.
const NODEINFO_SCHEMAS: [&str; 2] = [
    "http://nodeinfo.diaspora.software/ns/schema/2.0",
    "http://nodeinfo.diaspora.software/ns/schema/2.1",
];

/// megalodon decides which API a server speaks from NodeInfo alone (`detector`, in JavaScript:
/// h3poteto/megalodon `megalodon/src/detector.ts`, and in Rust: h3poteto/megalodon-rs
/// `src/detector.rs`): a `software.name` it does not know is Mastodon when
/// `metadata.upstream.name` is `mastodon` (compared in lower case in JavaScript, exactly in
/// Rust), else the server is refused as an unknown SNS. Every NodeInfo document the discovery
/// document links must say so, under the server's own name.
async fn nodeinfo_upstream(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<NodeinfoDiscovery>(&[]), None).await?;
    r.expect(200)?;
    let links: Vec<(String, String)> = r.json()?["links"]
        .as_array()
        .map(|ls| {
            ls.iter()
                .filter_map(|l| {
                    Some((
                        l["rel"].as_str()?.to_string(),
                        l["href"].as_str()?.to_string(),
                    ))
                })
                .filter(|(rel, _)| NODEINFO_SCHEMAS.contains(&rel.as_str()))
                .collect()
        })
        .unwrap_or_default();
    ensure!(
        !links.is_empty(),
        "the NodeInfo discovery document links no 2.0 or 2.1 document: {}",
        r.text
    );
    for (rel, href) in links {
        let r = cx.client.get(&href, None).await?;
        r.expect(200)?;
        let v = r.json()?;
        let name = v["software"]["name"].as_str().unwrap_or_default();
        ensure!(
            !name.is_empty() && name != "mastodon",
            "{rel}: software.name {:?} should name this software, not Mastodon",
            v["software"]["name"]
        );
        ensure!(
            v["metadata"]["upstream"]["name"] == "mastodon",
            "{rel}: metadata.upstream.name is {}, not \"mastodon\": {}",
            v["metadata"]["upstream"]["name"],
            r.text
        );
        ensure!(
            v["metadata"]["upstream"]["version"]
                .as_str()
                .is_some_and(|s| !s.is_empty()),
            "{rel}: metadata.upstream.version is {}",
            v["metadata"]["upstream"]["version"]
        );
    }
    Ok(())
}
