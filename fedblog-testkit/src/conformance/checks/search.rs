//! Search v2 (`GET /api/v2/search`): accounts by username with and without a token, hashtags by
//! the start of their name as `Tag` objects, a status by its URL, `type` keeping one kind, and
//! the refusals (no `q`; `offset` or `resolve` without a token). The specification's own rules
//! (public search without pagination, rich tags) are in `seed_rules.rs`.

use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::update_credentials::UpdateCredentials;
use fedblog_core::api::search::search_v2::SearchV2;
use serde_json::Value;

use crate::check;
use crate::client::{Response, form, query};
use crate::conformance::{Check, CheckResult, Cx, Failure, User, expect_error};
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
            "search/v2/statuses-by-words",
            "GET /api/v2/search?type=statuses finds one's own statuses by a word of their text, case-insensitively, by a \"quoted phrase\" only with its words in order, and leaves out those with a -excluded word",
            statuses_by_words
        ),
        check!(
            "search/v2/statuses-from-operator",
            "GET /api/v2/search finds the public statuses of an account that set indexable, and with from:username only that account's",
            statuses_from_operator
        ),
        check!(
            "search/v2/statuses-newest-first-paged",
            "GET /api/v2/search answers statuses newest first, limit keeps the newest, max_id and min_id page through the rest",
            statuses_paged
        ),
        check!(
            "search/v2/statuses-not-for-anonymous",
            "GET /api/v2/search without a token finds no status by its words (full-text search needs a signed-in user)",
            statuses_not_anonymous
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

/// A word no other status of the run carries (letters and digits only).
fn unique_word(cx: &Cx, prefix: &str) -> String {
    cx.unique(prefix).replace(['_', '-'], "")
}

/// The ids of the statuses a search answered, in its order.
fn status_ids(v: &Value) -> Vec<String> {
    v["statuses"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|s| s["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// A search for statuses matching `q`, by `token` (with `more` parameters): their ids.
async fn statuses_found(
    cx: &Cx,
    q: &str,
    more: &[(&str, &str)],
    token: Option<&str>,
) -> Result<Vec<String>, Failure> {
    let mut pairs = vec![("q", q), ("type", "statuses")];
    pairs.extend_from_slice(more);
    let r = search(cx, &pairs, token).await?;
    Ok(status_ids(&results(&r, &format!("search for {q:?}"))?))
}

/// `user` lets its public statuses be found by search (`indexable`).
async fn opt_in(cx: &Cx, user: &User) -> Result<(), Failure> {
    cx.send(
        "PATCH",
        UpdateCredentials::PATH,
        Some(&user.token),
        form(&[("indexable", "true")]),
    )
    .await?
    .expect(200)?;
    Ok(())
}

/// Posts `text` as `user`; the new status's id.
async fn posted_id(cx: &Cx, user: &User, text: &str) -> Result<String, Failure> {
    let s = cx.post_status(user, &[("status", text)]).await?;
    Ok(s["id"].as_str().unwrap_or_default().to_string())
}

async fn statuses_by_words(cx: &Cx) -> CheckResult {
    let user = cx.new_user("wordsearch").await?;
    let w = unique_word(cx, "Needle");
    let first = posted_id(cx, &user, &format!("{w} alpha beta")).await?;
    let second = posted_id(cx, &user, &format!("beta alpha {w} gamma")).await?;
    let found = statuses_found(cx, &w.to_uppercase(), &[], Some(&user.token)).await?;
    ensure!(
        found.contains(&first) && found.contains(&second),
        "searching {w} in upper case does not find both statuses carrying it: {found:?}"
    );
    let found = statuses_found(cx, &format!("{w} \"alpha beta\""), &[], Some(&user.token)).await?;
    ensure!(
        found == vec![first.clone()],
        "the phrase \"alpha beta\" must find only the status with those words in that order ({first}): {found:?}"
    );
    let found = statuses_found(cx, &format!("{w} -gamma"), &[], Some(&user.token)).await?;
    ensure!(
        found == vec![first.clone()],
        "-gamma must leave out the status carrying gamma: {found:?}"
    );
    Ok(())
}

async fn statuses_from_operator(cx: &Cx) -> CheckResult {
    let me = cx.new_user("fromsearch").await?;
    let them = cx.new_user("fromauthor").await?;
    let other = cx.new_user("fromother").await?;
    for user in [&them, &other] {
        opt_in(cx, user).await?;
    }
    let w = unique_word(cx, "fromword");
    let theirs = posted_id(cx, &them, &format!("{w} by them")).await?;
    let others = posted_id(cx, &other, &format!("{w} by someone else")).await?;
    let found = statuses_found(cx, &w, &[], Some(&me.token)).await?;
    ensure!(
        found.contains(&theirs) && found.contains(&others),
        "the public statuses of accounts that set indexable are not both found: {found:?}"
    );
    let found = statuses_found(
        cx,
        &format!("{w} from:{}", them.username),
        &[],
        Some(&me.token),
    )
    .await?;
    ensure!(
        found == vec![theirs.clone()],
        "from:{} must find only that account's status {theirs}: {found:?}",
        them.username
    );
    Ok(())
}

async fn statuses_paged(cx: &Cx) -> CheckResult {
    let user = cx.new_user("pagesearch").await?;
    let w = unique_word(cx, "pageword");
    let mut ids = vec![];
    for n in 0..3 {
        ids.push(posted_id(cx, &user, &format!("{w} number {n}")).await?);
    }
    let token = Some(user.token.as_str());
    let newest = statuses_found(cx, &w, &[("limit", "2")], token).await?;
    ensure!(
        newest == vec![ids[2].clone(), ids[1].clone()],
        "limit=2 must answer the two newest, newest first ({}, {}): {newest:?}",
        ids[2],
        ids[1]
    );
    let older = statuses_found(cx, &w, &[("max_id", &ids[1])], token).await?;
    ensure!(
        older == vec![ids[0].clone()],
        "max_id={} must answer the older one only: {older:?}",
        ids[1]
    );
    let newer = statuses_found(cx, &w, &[("min_id", &ids[0])], token).await?;
    ensure!(
        newer == vec![ids[2].clone(), ids[1].clone()],
        "min_id={} must answer the two newer ones: {newer:?}",
        ids[0]
    );
    Ok(())
}

async fn statuses_not_anonymous(cx: &Cx) -> CheckResult {
    let user = cx.new_user("anonsearch").await?;
    opt_in(cx, &user).await?;
    let w = unique_word(cx, "anonword");
    let id = posted_id(cx, &user, &format!("{w} for everyone")).await?;
    let signed_in = statuses_found(cx, &w, &[], Some(&user.token)).await?;
    ensure!(
        signed_in.contains(&id),
        "set-up: its author does not find the status by {w}: {signed_in:?}"
    );
    let anonymous = statuses_found(cx, &w, &[], None).await?;
    ensure!(
        anonymous.is_empty(),
        "without a token, no status is found by its words: {anonymous:?}"
    );
    Ok(())
}
