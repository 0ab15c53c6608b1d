//! Search v2 (`GET /api/v2/search`): accounts by username with and without a token, hashtags by
//! the start of their name as `Tag` objects, a status by its URL, `type` keeping one kind, and
//! the refusals (no `q`; `offset` or `resolve` without a token). The specification's own rules
//! (public search without pagination, rich tags) are in `seed_rules.rs`.

use fedblog_core::api::Endpoint;
use fedblog_core::api::search::search_v2::SearchV2;
use serde_json::Value;

use crate::check;
use crate::client::{Response, query};
use crate::conformance::{Check, CheckResult, Cx, Failure, expect_error};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "search/v2/accounts-by-username",
            "GET /api/v2/search finds an account by its username, with a user token and without one; the answer has accounts, statuses and hashtags lists",
            accounts_by_username
        ),
        check!(
            "search/v2/hashtags-by-prefix",
            "GET /api/v2/search?type=hashtags finds a hashtag by the start of its name (a leading # or not) as a Tag with name, url and history",
            hashtags_by_prefix
        ),
        check!(
            "search/v2/status-by-url",
            "GET /api/v2/search with resolve=true and the URL of a public status as q finds that status",
            status_by_url
        ),
        check!(
            "search/v2/type-keeps-one-kind",
            "GET /api/v2/search?type=accounts answers empty statuses and hashtags lists",
            type_keeps_one_kind
        ),
        check!(
            "search/v2/missing-q-400",
            "GET /api/v2/search without q is a 400 with an error body",
            missing_q
        ),
        check!(
            "search/v2/anonymous-resolve-401",
            "GET /api/v2/search?resolve=true without a token is a 401 with an error body",
            anonymous_resolve
        ),
    ]
}

/// `GET /api/v2/search` with `pairs` as its query, by `token`.
async fn search(cx: &Cx, pairs: &[(&str, &str)], token: Option<&str>) -> Result<Response, Failure> {
    Ok(cx
        .client
        .get(&format!("{}?{}", SearchV2::PATH, query(pairs)), token)
        .await?)
}

/// The JSON of a 200 search answer.
fn results(r: &Response, what: &str) -> Result<Value, Failure> {
    ensure!(
        r.status == 200,
        "{what}: HTTP {} {}",
        r.status,
        r.text.chars().take(300).collect::<String>()
    );
    let v = r.json()?.clone();
    for k in ["accounts", "statuses", "hashtags"] {
        ensure!(v[k].is_array(), "{what}: no `{k}` list: {v}");
    }
    Ok(v)
}

fn has_id(list: &Value, id: &str) -> bool {
    list.as_array()
        .is_some_and(|l| l.iter().any(|x| x["id"].as_str() == Some(id)))
}

async fn accounts_by_username(cx: &Cx) -> CheckResult {
    let me = cx.new_user("seeker").await?;
    let them = cx.new_user("findme").await?;
    for (token, who) in [
        (Some(me.token.as_str()), "with a token"),
        (None, "without one"),
    ] {
        let r = search(cx, &[("q", &them.username)], token).await?;
        let v = results(&r, &format!("search for an account {who}"))?;
        ensure!(
            has_id(&v["accounts"], &them.id),
            "{who}: @{} is not among the accounts found: {}",
            them.username,
            v["accounts"]
        );
    }
    Ok(())
}

async fn hashtags_by_prefix(cx: &Cx) -> CheckResult {
    let user = cx.new_user("tagsearch").await?;
    let tag = cx.unique("prefixtag").replace('_', "");
    cx.post_status(&user, &[("status", &format!("about #{tag}"))])
        .await?;
    let start = &tag[..tag.len() - 2];
    for q in [start.to_string(), format!("#{start}")] {
        let r = search(cx, &[("q", &q), ("type", "hashtags")], Some(&user.token)).await?;
        let v = results(&r, "search for a hashtag")?;
        let found = v["hashtags"].as_array().cloned().unwrap_or_default();
        let hit = found.iter().find(|t| {
            t["name"]
                .as_str()
                .is_some_and(|n| n.eq_ignore_ascii_case(&tag))
        });
        let Some(hit) = hit else {
            return Err(Failure::Fail(format!(
                "#{tag} is not found by {q:?}: {}",
                v["hashtags"]
            )));
        };
        ensure!(
            hit["url"].is_string() && hit["history"].is_array(),
            "the hashtag found is not a Tag: {hit}"
        );
    }
    Ok(())
}

async fn status_by_url(cx: &Cx) -> CheckResult {
    let user = cx.new_user("urlsearch").await?;
    let status = cx
        .post_status(&user, &[("status", "find me by my address")])
        .await?;
    let id = status["id"].as_str().unwrap_or_default().to_string();
    let Some(url) = status["url"].as_str().or(status["uri"].as_str()) else {
        return Err(Failure::Fail(format!("the status has no url: {status}")));
    };
    let r = search(cx, &[("q", url), ("resolve", "true")], Some(&user.token)).await?;
    let v = results(&r, "search for a status by its URL")?;
    ensure!(
        has_id(&v["statuses"], &id),
        "the status at {url} is not found: {}",
        v["statuses"]
    );
    Ok(())
}

async fn type_keeps_one_kind(cx: &Cx) -> CheckResult {
    let user = cx.new_user("typesearch").await?;
    let r = search(
        cx,
        &[("q", &user.username), ("type", "accounts")],
        Some(&user.token),
    )
    .await?;
    let v = results(&r, "search with type=accounts")?;
    ensure!(
        has_id(&v["accounts"], &user.id),
        "the account is not found: {v}"
    );
    for k in ["statuses", "hashtags"] {
        ensure!(
            v[k].as_array().is_some_and(Vec::is_empty),
            "type=accounts still answers {k}: {v}"
        );
    }
    Ok(())
}

async fn missing_q(cx: &Cx) -> CheckResult {
    let user = cx.new_user("noq").await?;
    let r = cx.client.get(SearchV2::PATH, Some(&user.token)).await?;
    expect_error(&r, 400, "GET /api/v2/search without q")
}

async fn anonymous_resolve(cx: &Cx) -> CheckResult {
    let r = search(
        cx,
        &[("q", "someone@example.com"), ("resolve", "true")],
        None,
    )
    .await?;
    expect_error(&r, 401, "a search with resolve=true without a token")
}
