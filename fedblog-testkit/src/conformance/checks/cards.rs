//! Preview cards and trending links: every status carries `card`, null or a well-formed
//! PreviewCard, and `GET /api/v1/trends/links` answers a list of Trends::Link with a `Link`
//! header, also when it is empty. <https://docs.joinmastodon.org/entities/PreviewCard/>
//! <https://docs.joinmastodon.org/methods/trends/#links>
//!
//! A card is fetched in the background from a page on another server, which a test server
//! may not reach; the checks hold only what every answer must be, card or no card yet.

use fedblog_core::api::Endpoint;
use fedblog_core::api::statuses::get_status::GetStatus;
use fedblog_core::api::timelines::public_timeline::PublicTimeline;
use fedblog_core::api::trends::list_links::ListTrendingLinks;
use serde_json::Value;

use crate::check;
use crate::conformance::{Check, CheckResult, Cx, Failure, path, str_of};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "cards/status-card-null-or-preview-card",
            "a status with a link, read back, and every status of the public timeline carry `card`, either null or a PreviewCard (url, title, description and type among link/photo/video/rich; width and height integers; image and blurhash null or strings)",
            status_cards
        ),
        check!(
            "cards/trends-links-list-with-link-header",
            "GET /api/v1/trends/links answers an array of Trends::Link (a PreviewCard with a history of day, uses and accounts as strings) with a Link header naming the next page, also without a token and when empty; with offset the previous page too",
            trends_links
        ),
    ]
}

/// What is wrong with `card` as a PreviewCard, if anything.
fn preview_card_fault(card: &Value) -> Option<String> {
    let Some(o) = card.as_object() else {
        return Some(format!("not an object: {card}"));
    };
    for field in [
        "url",
        "title",
        "description",
        "author_name",
        "author_url",
        "provider_name",
        "provider_url",
        "html",
        "embed_url",
    ] {
        if !o.get(field).is_some_and(Value::is_string) {
            return Some(format!("`{field}` is not a string: {card}"));
        }
    }
    if !card["url"]
        .as_str()
        .is_some_and(|u| u.starts_with("http://") || u.starts_with("https://"))
    {
        return Some(format!("`url` is not an http(s) URL: {card}"));
    }
    if !matches!(
        card["type"].as_str(),
        Some("link" | "photo" | "video" | "rich")
    ) {
        return Some(format!("`type` is not link, photo, video or rich: {card}"));
    }
    for field in ["width", "height"] {
        if !o.get(field).is_some_and(|v| v.is_i64() || v.is_u64()) {
            return Some(format!("`{field}` is not an integer: {card}"));
        }
    }
    for field in ["image", "blurhash"] {
        if !o.get(field).is_some_and(|v| v.is_null() || v.is_string()) {
            return Some(format!("`{field}` is neither null nor a string: {card}"));
        }
    }
    if !o.get("authors").is_some_and(Value::is_array) {
        return Some(format!("`authors` is not an array: {card}"));
    }
    None
}

/// `card` of `status` is present and null or a well-formed PreviewCard.
fn check_card(status: &Value, what: &str) -> CheckResult {
    let Some(card) = status.as_object().and_then(|o| o.get("card")) else {
        return Err(Failure::Fail(format!("{what}: no `card` field: {status}")));
    };
    if card.is_null() {
        return Ok(());
    }
    match preview_card_fault(card) {
        Some(fault) => Err(Failure::Fail(format!("{what}: card {fault}"))),
        None => Ok(()),
    }
}

async fn status_cards(cx: &Cx) -> CheckResult {
    let user = cx.new_user("cardposter").await?;
    let posted = cx
        .post_status(
            &user,
            &[
                ("status", "worth reading https://example.com/an-article"),
                ("visibility", "public"),
            ],
        )
        .await?;
    check_card(&posted, "the posted status")?;
    let id = str_of(&posted, "id")?;
    let url = path::<GetStatus>(&[("id", &id)]);
    let read = cx.client.get(&url, Some(&user.token)).await?;
    read.expect(200)?;
    check_card(read.json()?, &format!("GET {url}"))?;
    let timeline = format!("{}?limit=40", PublicTimeline::PATH);
    let page = cx.client.get(&timeline, None).await?;
    page.expect(200)?;
    let statuses = page
        .json()?
        .as_array()
        .cloned()
        .ok_or_else(|| Failure::Fail(format!("GET {timeline}: not an array: {}", page.text)))?;
    ensure!(
        !statuses.is_empty(),
        "GET {timeline} lists nothing, not even the status just posted"
    );
    for s in &statuses {
        check_card(s, &format!("GET {timeline}"))?;
        if let Some(inner) = s.get("reblog").filter(|r| !r.is_null()) {
            check_card(inner, &format!("GET {timeline} (a reblogged status)"))?;
        }
    }
    Ok(())
}

/// What is wrong with `link` as a Trends::Link, if anything.
fn trends_link_fault(link: &Value) -> Option<String> {
    if let Some(fault) = preview_card_fault(link) {
        return Some(fault);
    }
    let Some(history) = link["history"].as_array() else {
        return Some(format!("`history` is not an array: {link}"));
    };
    history.iter().find_map(|day| {
        ["day", "uses", "accounts"]
            .iter()
            .find(|f| day[**f].as_str().is_none_or(|v| v.parse::<u64>().is_err()))
            .map(|f| format!("history `{f}` is not a string of digits: {day}"))
    })
}

async fn trends_links(cx: &Cx) -> CheckResult {
    let user = cx.new_user("trendreader").await?;
    for (token, offset) in [(None, 0u64), (Some(user.token.as_str()), 0), (None, 2)] {
        let url = format!("{}?limit=2&offset={offset}", ListTrendingLinks::PATH);
        let r = cx.client.get(&url, token).await?;
        r.expect(200)?;
        let items = r
            .json()?
            .as_array()
            .cloned()
            .ok_or_else(|| Failure::Fail(format!("GET {url}: not an array: {}", r.text)))?;
        ensure!(items.len() <= 2, "GET {url} answered {} links", items.len());
        for item in &items {
            if let Some(fault) = trends_link_fault(item) {
                return Err(Failure::Fail(format!("GET {url}: a link {fault}")));
            }
        }
        let link = r.header("link").unwrap_or_default().to_string();
        let next = format!("offset={}", offset + 2);
        ensure!(
            link.split(',')
                .any(|rel| rel.contains("rel=\"next\"") && rel.contains(&next)),
            "GET {url} (with {} links): the Link header names no next page at {next}: {link:?}",
            items.len()
        );
        if offset > 0 {
            ensure!(
                link.split(',')
                    .any(|rel| rel.contains("rel=\"prev\"") && rel.contains("offset=0")),
                "GET {url}: the Link header names no previous page at offset=0: {link:?}"
            );
        }
    }
    Ok(())
}
