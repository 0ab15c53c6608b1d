//! This server's custom emojis: `GET /api/v1/custom_emojis` to anyone, and the specification's
//! rule that administrators enable and disable them (a disabled one is not listed). Emojis are
//! made through fedblog's own admin endpoint (`POST /api/v1/admin/custom_emojis`, multipart),
//! since Mastodon has no admin API for them: on a server without it (404) the checks that need
//! one are not run.

use fedblog_core::api::admin_custom_emojis::{
    create_custom_emoji::CreateAdminCustomEmoji, disable_custom_emoji::DisableAdminCustomEmoji,
    enable_custom_emoji::EnableAdminCustomEmoji,
};
use fedblog_core::api::custom_emojis::list_custom_emojis::ListCustomEmojis;
use fedblog_core::api::{Endpoint, fill_path};
use serde_json::Value;

use super::media::png;
use crate::check;
use crate::client::{Body, Part};
use crate::conformance::{Check, CheckResult, Cx, Failure, SetUp, path, str_of};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "custom_emojis/list-well-formed",
            "GET /api/v1/custom_emojis answers 200 without a token with an array of CustomEmoji (shortcode, url, static_url, visible_in_picker; category a string when given), shortcodes unique",
            list_public
        ),
        check!(
            "custom_emojis/created-listed",
            "an emoji an administrator adds (fedblog's POST /api/v1/admin/custom_emojis) is listed by GET /api/v1/custom_emojis with its shortcode, an image URL, visible_in_picker and category",
            created_listed
        ),
        check!(
            "custom_emojis/disabled-hidden",
            "an emoji an administrator disables is no longer listed by GET /api/v1/custom_emojis, and is listed again once enabled (specification: administrators can enable or disable them)",
            disabled_hidden
        ),
        check!(
            "custom_emojis/status-emojis",
            ":shortcode: of an enabled emoji in a status's text fills its emojis (that shortcode, once, with the emoji's url and static_url); an unknown :shortcode: adds nothing",
            status_emojis
        ),
    ]
}

/// The listed emojis.
async fn listed(cx: &Cx) -> Result<Vec<Value>, Failure> {
    let r = cx.client.get(&path::<ListCustomEmojis>(&[]), None).await?;
    r.expect(200)?;
    let v = r.json()?;
    v.as_array()
        .cloned()
        .ok_or_else(|| Failure::Fail(format!("not an array: {}", r.text)))
}

/// The listed emoji of `shortcode`, if any.
async fn listed_one(cx: &Cx, shortcode: &str) -> Result<Option<Value>, Failure> {
    Ok(listed(cx)
        .await?
        .into_iter()
        .find(|e| e["shortcode"] == shortcode))
}

/// A new emoji added through fedblog's admin endpoint: its id and shortcode. Not run without
/// an administrator, or on a server without that endpoint (404).
async fn new_emoji(cx: &Cx, prefix: &str) -> Result<(String, String), Failure> {
    let admin = cx.admin()?.to_string();
    let shortcode: String = cx
        .unique(prefix)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let parts = vec![
        Part::text("shortcode", &shortcode),
        Part::text("category", "Conformance"),
        Part::text("visible_in_picker", "true"),
        Part::file("image", "emoji.png", "image/png", &png(2, 2, [200, 40, 90])),
    ];
    let r = cx
        .send(
            "POST",
            CreateAdminCustomEmoji::PATH,
            Some(&admin),
            Body::Multipart(parts),
        )
        .await
        .setup("adding an emoji")?;
    if r.status == 404 {
        return Err(Failure::NotRun(format!(
            "needs an admin endpoint adding custom emojis (fedblog's POST {}): 404 here",
            CreateAdminCustomEmoji::PATH
        )));
    }
    r.expect(200).setup("adding an emoji")?;
    let id = str_of(r.json().setup("adding an emoji")?, "id").setup("adding an emoji")?;
    Ok((id, shortcode))
}

/// Enables or disables the emoji `id` through fedblog's admin endpoint.
async fn switch<E: Endpoint>(cx: &Cx, id: &str) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let r = cx
        .client
        .post(&fill_path(E::PATH, &[("id", id)]), Some(&admin), Body::None)
        .await?;
    r.expect(200)?;
    Ok(())
}

async fn list_public(cx: &Cx) -> CheckResult {
    let emojis = listed(cx).await?;
    let mut seen: Vec<&str> = vec![];
    for e in &emojis {
        let shortcode = e["shortcode"].as_str().unwrap_or_default();
        ensure!(
            !shortcode.is_empty()
                && e["url"].as_str().is_some_and(|u| u.starts_with("http"))
                && e["static_url"]
                    .as_str()
                    .is_some_and(|u| u.starts_with("http"))
                && e["visible_in_picker"].is_boolean()
                && (e.get("category").is_none()
                    || e["category"].is_string()
                    || e["category"].is_null()),
            "a listed emoji is not a CustomEmoji: {e}"
        );
        ensure!(
            !seen.contains(&shortcode),
            "the shortcode {shortcode} is listed twice"
        );
        seen.push(shortcode);
    }
    Ok(())
}

async fn created_listed(cx: &Cx) -> CheckResult {
    let (_, shortcode) = new_emoji(cx, "emolist").await?;
    let Some(e) = listed_one(cx, &shortcode).await? else {
        return Err(Failure::Fail(format!(
            "the new emoji {shortcode} is not listed"
        )));
    };
    ensure!(
        e["url"].as_str().is_some_and(|u| u.starts_with("http"))
            && e["static_url"]
                .as_str()
                .is_some_and(|u| u.starts_with("http"))
            && e["visible_in_picker"] == true
            && e["category"] == "Conformance",
        "the new emoji as listed: {e}"
    );
    Ok(())
}

async fn disabled_hidden(cx: &Cx) -> CheckResult {
    let (id, shortcode) = new_emoji(cx, "emooff").await?;
    ensure!(
        listed_one(cx, &shortcode).await?.is_some(),
        "the new emoji {shortcode} is not listed"
    );
    switch::<DisableAdminCustomEmoji>(cx, &id).await?;
    ensure!(
        listed_one(cx, &shortcode).await?.is_none(),
        "the disabled emoji {shortcode} is still listed"
    );
    switch::<EnableAdminCustomEmoji>(cx, &id).await?;
    ensure!(
        listed_one(cx, &shortcode).await?.is_some(),
        "the emoji {shortcode} enabled again is not listed"
    );
    Ok(())
}

async fn status_emojis(cx: &Cx) -> CheckResult {
    let (_, shortcode) = new_emoji(cx, "emouse").await?;
    let listed = listed_one(cx, &shortcode)
        .await?
        .ok_or_else(|| Failure::Fail(format!("the new emoji {shortcode} is not listed")))?;
    let user = cx.user("emoposter").await?;
    let text = format!("hello :{shortcode}: and :{shortcode}: and :nosuchemoji_{shortcode}:");
    let status = cx.post_status(&user, &[("status", &text)]).await?;
    let emojis = status["emojis"].as_array().cloned().unwrap_or_default();
    ensure!(
        emojis.len() == 1
            && emojis[0]["shortcode"] == shortcode.as_str()
            && emojis[0]["url"] == listed["url"]
            && emojis[0]["static_url"] == listed["static_url"],
        "the status's emojis must name :{shortcode}: once, as listed ({listed}): {}",
        status["emojis"]
    );
    Ok(())
}
