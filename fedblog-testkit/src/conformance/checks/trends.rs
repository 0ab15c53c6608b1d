//! Trends as clients read them (`/api/v1/trends/*`): lists paginated by `offset` with a `Link`
//! header on every page, `limit` capped, the deprecated path of the trending tags, and Tag
//! entities with their history. <https://docs.joinmastodon.org/methods/trends/>
//!
//! A server scores trends its own way and at its own pace (Mastodon refreshes them every few
//! minutes), so the checks that make something trend (many accounts using a hashtag, or
//! favouriting a status, then an administrator approving it) page through the whole list and,
//! when the item is not there, end not-run rather than failed.

use fedblog_core::api::accounts::block_account::BlockAccount;
use fedblog_core::api::accounts::update_credentials::UpdateCredentials;
use fedblog_core::api::admin_trends::approve_trend_status::ApproveTrendStatus;
use fedblog_core::api::admin_trends::approve_trend_tag::ApproveTrendTag;
use fedblog_core::api::statuses::favourite_status::FavouriteStatus;
use fedblog_core::api::tags::get_tag::GetTag;
use fedblog_core::api::trends::list_statuses::ListTrendingStatuses;
use fedblog_core::api::trends::list_tags::ListTrendingTags;
use fedblog_core::api::trends::list_tags_v1::ListTrendingTagsV1;
use serde_json::Value;

use crate::check;
use crate::client::{Body, Response, form};
use crate::conformance::checks::social::act;
use crate::conformance::{Check, CheckResult, Cx, Failure, SetUp, User, path, str_of};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "trends/lists-have-link-header",
            "GET /api/v1/trends/tags, /api/v1/trends/statuses and the deprecated /api/v1/trends answer an array with a Link header naming the next page, also without a token",
            lists_have_link_header
        ),
        check!(
            "trends/limit-capped",
            "a limit above the maximum is capped: the next page of /api/v1/trends/tags starts at offset 20, of /api/v1/trends/statuses at 40",
            limit_capped
        ),
        check!(
            "trends/offset-pages",
            "offset pages the lists: with offset=5&limit=5 the Link header names the next page at offset 10 and the previous at offset 0; without offset there is no previous page",
            offset_pages
        ),
        check!(
            "trends/deprecated-path",
            "GET /api/v1/trends answers the trending tags as GET /api/v1/trends/tags does (the same tags, in the same order)",
            deprecated_path
        ),
        check!(
            "trends/tags/history",
            "a hashtag used by many accounts today and approved by an administrator is listed by GET /api/v1/trends/tags as a Tag with a history of 7 days (day, uses, accounts as strings), today first",
            tag_history
        ),
        check!(
            "trends/statuses/approved-and-unblocked",
            "a public status by a discoverable account favourited by many accounts and approved by an administrator is listed by GET /api/v1/trends/statuses as a Status, but not to a reader who blocks its author",
            statuses_approved_and_unblocked
        ),
    ]
}

/// Pages of a list read looking for an item, at most.
const MAX_PAGES: u64 = 10;

/// Accounts a check makes to use a hashtag or favourite a status: above the threshold
/// Mastodon's scores start from (5).
const CROWD: usize = 6;

/// `GET url` as `token`, answered 200 with an array; the response and the array.
async fn list(cx: &Cx, url: &str, token: Option<&str>) -> Result<(Response, Vec<Value>), Failure> {
    let r = cx.client.get(url, token).await?;
    r.expect(200)?;
    let items = r
        .json()?
        .as_array()
        .cloned()
        .ok_or_else(|| Failure::Fail(format!("GET {url}: not an array: {}", r.text)))?;
    Ok((r, items))
}

/// The URL of the `rel` page in a `Link` header, if any.
fn link_rel(link: &str, rel: &str) -> Option<String> {
    link.split(',').find_map(|part| {
        let (url, params) = part.split_once(';')?;
        params.contains(&format!("rel=\"{rel}\"")).then(|| {
            url.trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .to_string()
        })
    })
}

/// The value of the query parameter `name` of `url`.
fn param(url: &str, name: &str) -> Option<String> {
    let (_, query) = url.split_once('?')?;
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == name).then(|| v.to_string())
    })
}

/// The `offset` of the `rel` page named by the `Link` header of `r` (a failure when absent).
fn rel_offset(r: &Response, rel: &str, what: &str) -> Result<String, Failure> {
    let link = r
        .header("link")
        .ok_or_else(|| Failure::Fail(format!("{what}: no Link header")))?;
    let url = link_rel(link, rel)
        .ok_or_else(|| Failure::Fail(format!("{what}: the Link header names no {rel}: {link}")))?;
    param(&url, "offset")
        .ok_or_else(|| Failure::Fail(format!("{what}: the {rel} link has no offset: {url}")))
}

async fn lists_have_link_header(cx: &Cx) -> CheckResult {
    for url in [
        path::<ListTrendingTags>(&[]),
        path::<ListTrendingStatuses>(&[]),
        path::<ListTrendingTagsV1>(&[]),
    ] {
        let (r, _) = list(cx, &url, None).await?;
        rel_offset(&r, "next", &format!("GET {url}"))?;
    }
    Ok(())
}

async fn limit_capped(cx: &Cx) -> CheckResult {
    for (url, max) in [
        (path::<ListTrendingTags>(&[]), 20),
        (path::<ListTrendingStatuses>(&[]), 40),
    ] {
        let (r, items) = list(cx, &format!("{url}?limit=100"), None).await?;
        ensure!(
            items.len() <= max,
            "GET {url}?limit=100 answered {} items, more than {max}",
            items.len()
        );
        let next = rel_offset(&r, "next", &format!("GET {url}?limit=100"))?;
        ensure!(
            next == max.to_string(),
            "GET {url}?limit=100: the next page starts at offset {next}, not {max}: the limit is not capped"
        );
    }
    Ok(())
}

async fn offset_pages(cx: &Cx) -> CheckResult {
    for url in [
        path::<ListTrendingTags>(&[]),
        path::<ListTrendingStatuses>(&[]),
    ] {
        let what = format!("GET {url}?offset=5&limit=5");
        let (r, items) = list(cx, &format!("{url}?offset=5&limit=5"), None).await?;
        ensure!(items.len() <= 5, "{what} answered {} items", items.len());
        let next = rel_offset(&r, "next", &what)?;
        ensure!(
            next == "10",
            "{what}: the next page starts at {next}, not 10"
        );
        let prev = rel_offset(&r, "prev", &what)?;
        ensure!(
            prev == "0",
            "{what}: the previous page starts at {prev}, not 0"
        );
        let (first, _) = list(cx, &url, None).await?;
        ensure!(
            first
                .header("link")
                .is_some_and(|l| link_rel(l, "prev").is_none()),
            "GET {url}: the first page names a previous page: {:?}",
            first.header("link")
        );
    }
    Ok(())
}

/// The names of a list of tags, in order.
fn tag_names(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|t| t["name"].as_str().unwrap_or_default().to_lowercase())
        .collect()
}

async fn deprecated_path(cx: &Cx) -> CheckResult {
    let url = path::<ListTrendingTagsV1>(&[]);
    let (old, old_items) = list(cx, &url, None).await?;
    let (_, new_items) = list(cx, &path::<ListTrendingTags>(&[]), None).await?;
    ensure!(
        tag_names(&old_items) == tag_names(&new_items),
        "GET {url} answered {:?}, GET /api/v1/trends/tags {:?}",
        tag_names(&old_items),
        tag_names(&new_items)
    );
    ensure!(
        old_items
            .iter()
            .all(|t| t["name"].is_string() && t["url"].is_string() && t["history"].is_array()),
        "GET {url}: not Tag objects: {}",
        old.text
    );
    Ok(())
}

/// Pages through the list at `url` (pages of `limit`) until an item for which `is_it` holds
/// turns up; answers it, or not-run when the server does not list it (yet).
async fn find_listed(
    cx: &Cx,
    url: &str,
    limit: u64,
    token: Option<&str>,
    is_it: impl Fn(&Value) -> bool,
) -> Result<Value, Failure> {
    for page in 0..MAX_PAGES {
        let (_, items) = list(
            cx,
            &format!("{url}?limit={limit}&offset={}", page * limit),
            token,
        )
        .await?;
        if let Some(found) = items.iter().find(|i| is_it(i)) {
            return Ok(found.clone());
        }
        if (items.len() as u64) < limit {
            break;
        }
    }
    Err(Failure::NotRun(format!(
        "GET {url} does not list the item (yet): the server scores trends its own way"
    )))
}

/// `CROWD` new users.
async fn crowd(cx: &Cx, prefix: &str) -> Result<Vec<User>, Failure> {
    let mut users = vec![];
    for _ in 0..CROWD {
        users.push(cx.new_user(prefix).await?);
    }
    Ok(users)
}

async fn tag_history(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let users = crowd(cx, "trendy").await?;
    let name = cx.unique("rising").replace('_', "");
    for user in &users {
        cx.post_status(
            user,
            &[
                ("status", &format!("everyone talks about #{name}")),
                ("visibility", "public"),
            ],
        )
        .await?;
    }
    let tag = cx
        .client
        .get(&path::<GetTag>(&[("id", &name)]), None)
        .await
        .setup("reading the hashtag (GET /api/v1/tags/:name)")?;
    tag.expect(200).setup("reading the hashtag")?;
    let id = str_of(tag.json()?, "id").setup("reading the hashtag")?;
    cx.send(
        "POST",
        &path::<ApproveTrendTag>(&[("id", &id)]),
        Some(&admin),
        Body::None,
    )
    .await
    .setup("approving the hashtag")?
    .expect(200)
    .setup("approving the hashtag")?;
    let listed = find_listed(cx, &path::<ListTrendingTags>(&[]), 20, None, |t| {
        t["name"]
            .as_str()
            .is_some_and(|n| n.eq_ignore_ascii_case(&name))
    })
    .await?;
    let history = listed["history"]
        .as_array()
        .ok_or_else(|| Failure::Fail(format!("the listed tag has no history: {listed}")))?;
    ensure!(
        history.len() == 7,
        "the history has {} days, not 7: {listed}",
        history.len()
    );
    ensure!(
        history.iter().all(|d| {
            ["day", "uses", "accounts"]
                .iter()
                .all(|k| d[*k].as_str().is_some_and(|v| v.parse::<i64>().is_ok()))
        }),
        "the days are not {{day, uses, accounts}} numbers as strings: {listed}"
    );
    let days: Vec<i64> = history
        .iter()
        .filter_map(|d| d["day"].as_str()?.parse().ok())
        .collect();
    ensure!(
        days.windows(2).all(|w| w[0] - w[1] == 86_400),
        "the days are not one day apart, today first: {days:?}"
    );
    ensure!(
        history[0]["accounts"].as_str() == Some(&CROWD.to_string()),
        "today's accounts are not the {CROWD} that used it: {listed}"
    );
    Ok(())
}

async fn statuses_approved_and_unblocked(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let author = cx.new_user("trendsetter").await?;
    cx.send(
        "PATCH",
        &path::<UpdateCredentials>(&[]),
        Some(&author.token),
        form(&[("discoverable", "true")]),
    )
    .await
    .setup("making the author discoverable")?
    .expect(200)
    .setup("making the author discoverable")?;
    let status = cx
        .post_status(
            &author,
            &[("status", "worth a look"), ("visibility", "public")],
        )
        .await?;
    let id = str_of(&status, "id")?;
    for fan in crowd(cx, "trendfan").await? {
        cx.send(
            "POST",
            &path::<FavouriteStatus>(&[("id", &id)]),
            Some(&fan.token),
            Body::None,
        )
        .await
        .setup("favouriting the status")?
        .expect(200)
        .setup("favouriting the status")?;
    }
    cx.send(
        "POST",
        &path::<ApproveTrendStatus>(&[("id", &id)]),
        Some(&admin),
        Body::None,
    )
    .await
    .setup("approving the status")?
    .expect(200)
    .setup("approving the status")?;
    let url = path::<ListTrendingStatuses>(&[]);
    let listed = find_listed(cx, &url, 40, None, |s| s["id"] == id.as_str()).await?;
    ensure!(
        listed["account"]["id"] == author.id.as_str() && listed["content"].is_string(),
        "the listed status: {listed}"
    );
    let reader = cx.new_user("trendreader").await?;
    act::<BlockAccount>(cx, &reader, &author, &[])
        .await
        .setup("blocking the author")?;
    for page in 0..MAX_PAGES {
        let (_, items) = list(
            cx,
            &format!("{url}?limit=40&offset={}", page * 40),
            Some(&reader.token),
        )
        .await?;
        ensure!(
            !items.iter().any(|s| s["id"] == id.as_str()),
            "GET {url} shows a reader a status by an account the reader blocks"
        );
        if items.len() < 40 {
            break;
        }
    }
    Ok(())
}
