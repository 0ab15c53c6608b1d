//! Trends as staff review them (`/api/v1/admin/trends`): the hashtags, statuses, links and
//! publishers listed reviewed or not, approving and rejecting each, and the role they need.
//! <https://docs.joinmastodon.org/methods/admin/trends/>
//!
//! A server ranks trends its own way and at its own pace (Mastodon refreshes them every few
//! minutes, from scores), so a check that looks for what it just made pages through the whole
//! list and, when the item is not there, ends not-run rather than failed; it holds only what
//! every server must do with an item it lists.

use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::update_credentials::UpdateCredentials;
use fedblog_core::api::admin_trends::{
    approve_trend_link::ApproveTrendLink, approve_trend_publisher::ApproveTrendPublisher,
    approve_trend_status::ApproveTrendStatus, approve_trend_tag::ApproveTrendTag,
    list_trend_links::ListTrendLinks, list_trend_publishers::ListTrendPublishers,
    list_trend_statuses::ListTrendStatuses, list_trend_tags::ListTrendTags,
    reject_trend_link::RejectTrendLink, reject_trend_publisher::RejectTrendPublisher,
    reject_trend_status::RejectTrendStatus, reject_trend_tag::RejectTrendTag,
};
use fedblog_core::api::statuses::favourite_status::FavouriteStatus;
use fedblog_core::api::tags::get_tag::GetTag;
use serde_json::Value;

use crate::check;
use crate::client::Body;
use crate::conformance::{Check, CheckResult, Cx, Failure, SetUp, expect_error, path, str_of};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "admin/trends/tags",
            "a hashtag six accounts used is listed by GET /api/v1/admin/trends/tags as an Admin::Tag (trendable, usable, requires_review); POST .../tags/:id/approve answers it trendable and reviewed, .../reject not trendable; an unknown id is a 404",
            tags
        ),
        check!(
            "admin/trends/statuses",
            "a public status of a discoverable account, favourited by six accounts, is listed by GET /api/v1/admin/trends/statuses as a Status with requires_review; POST .../statuses/:id/approve and .../reject answer that status, reviewed; an unknown id is a 404",
            statuses
        ),
        check!(
            "admin/trends/links",
            "GET /api/v1/admin/trends/links answers an array of objects; approving or rejecting an unknown link is a 404",
            links
        ),
        check!(
            "admin/trends/publishers",
            "GET /api/v1/admin/trends/links/publishers answers an array of objects; approving or rejecting an unknown publisher is a 404",
            publishers
        ),
        check!(
            "admin/trends/refused-to-users",
            "a normal user's token is refused (403 with an {\"error\"} body) on the lists and on approving a hashtag",
            refused_to_users
        ),
    ]
}

/// An id no record has.
const UNKNOWN_ID: &str = "999999999";

/// Pages of a list read looking for an item, at most.
const MAX_PAGES: u64 = 10;

/// Pages through the list at `list` (offset pagination, pages of `limit`) as `token` until an
/// item with `id` turns up; answers it, or not-run when the server does not list it (it ranks
/// trends its own way).
async fn find_listed(
    cx: &Cx,
    list: &str,
    limit: u64,
    token: &str,
    id: &str,
) -> Result<Value, Failure> {
    for page in 0..MAX_PAGES {
        let r = cx
            .client
            .get(
                &format!("{list}?limit={limit}&offset={}", page * limit),
                Some(token),
            )
            .await?;
        r.expect(200)?;
        let items = r
            .json()?
            .as_array()
            .cloned()
            .ok_or_else(|| Failure::Fail(format!("GET {list}: not an array: {}", r.text)))?;
        if let Some(found) = items.iter().find(|i| i["id"] == id) {
            return Ok(found.clone());
        }
        if (items.len() as u64) < limit {
            break;
        }
    }
    Err(Failure::NotRun(format!(
        "GET {list} does not list {id} (yet): the server ranks trends its own way"
    )))
}

/// `POST` to `url` as `token` with no body.
async fn post(cx: &Cx, url: &str, token: &str) -> Result<crate::client::Response, Failure> {
    cx.send("POST", url, Some(token), Body::None).await
}

/// Approving and rejecting `UNKNOWN_ID` with the endpoints `E` and `F` are 404s.
async fn unknown_is_404<E: Endpoint, F: Endpoint>(cx: &Cx, admin: &str) -> CheckResult {
    for url in [
        path::<E>(&[("id", UNKNOWN_ID)]),
        path::<F>(&[("id", UNKNOWN_ID)]),
    ] {
        let r = post(cx, &url, admin).await?;
        expect_error(&r, 404, &format!("POST {url} of an unknown id"))?;
    }
    Ok(())
}

async fn tags(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    // Six accounts: Mastodon's scores start at five.
    let mut users = vec![];
    for _ in 0..6 {
        users.push(cx.new_user("trendtag").await?);
    }
    let name = cx.unique("trending").replace('_', "");
    for user in &users {
        cx.post_status(user, &[("status", &format!("all about #{name}"))])
            .await?;
    }
    let tag = cx
        .client
        .get(&path::<GetTag>(&[("id", &name)]), None)
        .await
        .setup("reading the hashtag (GET /api/v1/tags/:name)")?;
    tag.expect(200).setup("reading the hashtag")?;
    let id = str_of(tag.json()?, "id").setup("reading the hashtag")?;
    let listed = find_listed(cx, ListTrendTags::PATH, 20, &admin, &id).await?;
    ensure!(
        listed["name"]
            .as_str()
            .is_some_and(|n| n.eq_ignore_ascii_case(&name))
            && listed["url"]
                .as_str()
                .is_some_and(|u| u.starts_with("http"))
            && listed["history"].as_array().is_some_and(|h| !h.is_empty())
            && listed["trendable"].is_boolean()
            && listed["usable"].is_boolean()
            && listed["requires_review"] == true,
        "the listed hashtag, never reviewed: {listed}"
    );
    let approved = post(cx, &path::<ApproveTrendTag>(&[("id", &id)]), &admin).await?;
    approved.expect(200)?;
    let t = approved.json()?;
    ensure!(
        t["id"] == id.as_str() && t["trendable"] == true && t["requires_review"] == false,
        "approve answered {}",
        approved.text
    );
    let rejected = post(cx, &path::<RejectTrendTag>(&[("id", &id)]), &admin).await?;
    rejected.expect(200)?;
    let t = rejected.json()?;
    ensure!(
        t["id"] == id.as_str() && t["trendable"] == false && t["requires_review"] == false,
        "reject answered {}",
        rejected.text
    );
    unknown_is_404::<ApproveTrendTag, RejectTrendTag>(cx, &admin).await
}

async fn statuses(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let author = cx.new_user("trendauthor").await?;
    // Only discoverable accounts' statuses trend, once six accounts favourite them.
    cx.send(
        "PATCH",
        &path::<UpdateCredentials>(&[]),
        Some(&author.token),
        crate::client::form(&[("discoverable", "true")]),
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
    for _ in 0..6 {
        let fan = cx.new_user("trendfan").await?;
        let favourited = cx
            .send(
                "POST",
                &path::<FavouriteStatus>(&[("id", &id)]),
                Some(&fan.token),
                Body::None,
            )
            .await
            .setup("favouriting the status")?;
        favourited.expect(200).setup("favouriting the status")?;
    }
    let listed = find_listed(cx, ListTrendStatuses::PATH, 40, &admin, &id).await?;
    ensure!(
        listed["requires_review"].is_boolean()
            && listed["account"]["id"] == author.id.as_str()
            && listed["content"].is_string(),
        "the listed status: {listed}"
    );
    for (url, verb) in [
        (path::<ApproveTrendStatus>(&[("id", &id)]), "approve"),
        (path::<RejectTrendStatus>(&[("id", &id)]), "reject"),
    ] {
        let r = post(cx, &url, &admin).await?;
        r.expect(200)?;
        let s = r.json()?;
        ensure!(
            s["id"] == id.as_str() && s["requires_review"] == false,
            "{verb} answered {}",
            r.text
        );
    }
    unknown_is_404::<ApproveTrendStatus, RejectTrendStatus>(cx, &admin).await
}

/// The list at `list` answers 200 with an array of objects.
async fn array_of_objects(cx: &Cx, list: &str, admin: &str) -> CheckResult {
    let r = cx.client.get(list, Some(admin)).await?;
    r.expect(200)?;
    ensure!(
        r.json()?
            .as_array()
            .is_some_and(|items| items.iter().all(Value::is_object)),
        "GET {list}: not an array of objects: {}",
        r.text
    );
    Ok(())
}

async fn links(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    array_of_objects(cx, ListTrendLinks::PATH, &admin).await?;
    unknown_is_404::<ApproveTrendLink, RejectTrendLink>(cx, &admin).await
}

async fn publishers(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    array_of_objects(cx, ListTrendPublishers::PATH, &admin).await?;
    unknown_is_404::<ApproveTrendPublisher, RejectTrendPublisher>(cx, &admin).await
}

async fn refused_to_users(cx: &Cx) -> CheckResult {
    cx.admin()?;
    let user = cx.new_user("plaintrends").await?;
    for list in [
        ListTrendTags::PATH,
        ListTrendStatuses::PATH,
        ListTrendLinks::PATH,
        ListTrendPublishers::PATH,
    ] {
        let r = cx.client.get(list, Some(&user.token)).await?;
        expect_error(&r, 403, &format!("GET {list} with a normal user's token"))?;
    }
    let url = path::<ApproveTrendTag>(&[("id", UNKNOWN_ID)]);
    let r = post(cx, &url, &user.token).await?;
    expect_error(&r, 403, &format!("POST {url} with a normal user's token"))
}
