//! The smaller remaining rows: the identity proofs Mastodon dropped (an empty list), the
//! well-known change-password redirect, oEmbed of a public status, and a status's activity,
//! likes and shares as ActivityPub documents.

use fedblog_core::api::accounts::get_identity_proofs::GetIdentityProofs;
use fedblog_core::api::activitypub::status_activity::StatusActivity;
use fedblog_core::api::activitypub::status_likes::StatusLikes;
use fedblog_core::api::activitypub::status_shares::StatusShares;
use fedblog_core::api::oembed::get_oembed::GetOEmbed;
use fedblog_core::api::statuses::favourite_status::FavouriteStatus;
use fedblog_core::api::statuses::reblog_status::ReblogStatus;
use fedblog_core::api::well_known::change_password::ChangePassword;
use serde_json::Value;

use crate::check;
use crate::client::form;
use crate::conformance::{Check, CheckResult, Cx, Failure, expect_error, path, str_of};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "extras/identity-proofs-empty",
            "GET /api/v1/accounts/:id/identity_proofs answers [] for a known account (Mastodon dropped identity proofs) and a 404 with an {\"error\"} body for an unknown one",
            identity_proofs
        ),
        check!(
            "extras/change-password-redirects",
            "GET /.well-known/change-password is a 302 whose Location is a page of the server",
            change_password
        ),
        check!(
            "extras/oembed-public-status",
            "GET /api/oembed?url=<a public status's URL> answers type rich, version 1.0, the author's name and URL, the provider, cache_age, an html embed linking the status, width (400 by default, maxwidth when given) and height",
            oembed
        ),
        check!(
            "extras/oembed-hidden-404",
            "GET /api/oembed is a 404 with an {\"error\"} body for a private status's URL and for a URL that names no status of the server",
            oembed_hidden
        ),
        check!(
            "extras/status-activity",
            "GET /users/:username/statuses/:id/activity of a public status answers its Create, whose object is the note with the status's uri; of a reblog, an Announce of the original's uri; of a private status, a 404",
            status_activity
        ),
        check!(
            "extras/likes-and-shares-count",
            "GET /users/:username/statuses/:id/likes and /shares of a public status answer a Collection whose totalItems counts its favourites and reblogs",
            likes_and_shares
        ),
    ]
}

/// A status's JSON member as text, or a failure naming it.
fn text(v: &Value, key: &str) -> Result<String, Failure> {
    str_of(v, key)
}

async fn identity_proofs(cx: &Cx) -> CheckResult {
    let user = cx.user("proofs").await?;
    let r = cx
        .client
        .get(
            &path::<GetIdentityProofs>(&[("id", &user.id)]),
            Some(&user.token),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        r.json()?.as_array().is_some_and(|a| a.is_empty()),
        "identity proofs of a known account must be [], got {}",
        r.text
    );
    let r = cx
        .client
        .get(
            &path::<GetIdentityProofs>(&[("id", "999999999999999999")]),
            Some(&user.token),
        )
        .await?;
    expect_error(&r, 404, "identity proofs of an unknown account")?;
    Ok(())
}

async fn change_password(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<ChangePassword>(&[]), None).await?;
    ensure!(r.status == 302, "expected a 302, got {}", r.status);
    let location = r.header("location").unwrap_or_default().to_string();
    ensure!(
        location.starts_with(cx.client.base_url()) || location.starts_with('/'),
        "the redirect must stay on the server, Location is {location:?}"
    );
    Ok(())
}

async fn oembed(cx: &Cx) -> CheckResult {
    let user = cx.user("oembed").await?;
    let status = cx
        .post_status(&user, &[("status", "embed me"), ("visibility", "public")])
        .await?;
    let url = text(&status, "url")?;
    let query = |extra: &str| {
        format!(
            "{}?url={}{extra}",
            path::<GetOEmbed>(&[]),
            form_urlencoded::byte_serialize(url.as_bytes()).collect::<String>()
        )
    };
    let r = cx.client.get(&query(""), None).await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["type"] == "rich" && v["version"] == "1.0",
        "type must be rich and version 1.0: {v}"
    );
    for key in [
        "author_name",
        "author_url",
        "provider_name",
        "provider_url",
        "html",
    ] {
        ensure!(v[key].is_string(), "{key} must be a string: {v}");
    }
    ensure!(
        v["cache_age"].is_number(),
        "cache_age must be a number: {v}"
    );
    ensure!(
        v["html"].as_str().is_some_and(|h| h.contains(&url)),
        "the embed must link the status {url}: {}",
        v["html"]
    );
    ensure!(
        v["width"] == 400,
        "width is 400 by default, got {}",
        v["width"]
    );
    ensure!(
        v.as_object().is_some_and(|o| o.contains_key("height")),
        "height must be present: {v}"
    );
    let r = cx.client.get(&query("&maxwidth=300"), None).await?;
    r.expect(200)?;
    ensure!(
        r.json()?["width"] == 300,
        "width must be maxwidth when given, got {}",
        r.json()?["width"]
    );
    Ok(())
}

async fn oembed_hidden(cx: &Cx) -> CheckResult {
    let user = cx.user("oembedp").await?;
    let status = cx
        .post_status(
            &user,
            &[("status", "not for embeds"), ("visibility", "private")],
        )
        .await?;
    let url = text(&status, "url")?;
    for (u, what) in [
        (url.as_str(), "a private status"),
        (
            "https://elsewhere.invalid/@nobody/1",
            "a URL of another site",
        ),
    ] {
        let r = cx
            .client
            .get(
                &format!(
                    "{}?url={}",
                    path::<GetOEmbed>(&[]),
                    form_urlencoded::byte_serialize(u.as_bytes()).collect::<String>()
                ),
                None,
            )
            .await?;
        expect_error(&r, 404, &format!("oEmbed of {what}"))?;
    }
    Ok(())
}

async fn status_activity(cx: &Cx) -> CheckResult {
    let user = cx.user("activity").await?;
    let status = cx
        .post_status(
            &user,
            &[("status", "an activity"), ("visibility", "public")],
        )
        .await?;
    let id = text(&status, "id")?;
    let uri = text(&status, "uri")?;
    let r = cx
        .client
        .get(
            &path::<StatusActivity>(&[("username", &user.username), ("id", &id)]),
            None,
        )
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(v["type"] == "Create", "expected a Create, got {v}");
    ensure!(
        v["object"]["id"] == uri.as_str() && v["object"]["type"] == "Note",
        "the Create's object must be the note {uri}: {}",
        v["object"]
    );
    ensure!(v["actor"].is_string(), "the Create names its actor: {v}");

    let booster = cx.user("booster").await?;
    let r = cx
        .client
        .post(
            &path::<ReblogStatus>(&[("id", &id)]),
            Some(&booster.token),
            form::<&str, &str>(&[]),
        )
        .await?;
    r.expect(200)?;
    let reblog_id = text(r.json()?, "id")?;
    let r = cx
        .client
        .get(
            &path::<StatusActivity>(&[("username", &booster.username), ("id", &reblog_id)]),
            None,
        )
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["type"] == "Announce" && v["object"] == uri.as_str(),
        "a reblog's activity must be an Announce of {uri}, got {v}"
    );

    let private = cx
        .post_status(
            &user,
            &[("status", "followers only"), ("visibility", "private")],
        )
        .await?;
    let r = cx
        .client
        .get(
            &path::<StatusActivity>(&[
                ("username", &user.username),
                ("id", &text(&private, "id")?),
            ]),
            None,
        )
        .await?;
    ensure!(
        r.status == 404,
        "a private status's activity must be a 404, got {}",
        r.status
    );
    Ok(())
}

async fn likes_and_shares(cx: &Cx) -> CheckResult {
    let user = cx.user("counted").await?;
    let fan = cx.user("fan").await?;
    let status = cx
        .post_status(&user, &[("status", "count me"), ("visibility", "public")])
        .await?;
    let id = text(&status, "id")?;
    for endpoint in [
        path::<FavouriteStatus>(&[("id", &id)]),
        path::<ReblogStatus>(&[("id", &id)]),
    ] {
        cx.client
            .post(&endpoint, Some(&fan.token), form::<&str, &str>(&[]))
            .await?
            .expect(200)?;
    }
    for (doc, what) in [
        (
            path::<StatusLikes>(&[("username", &user.username), ("id", &id)]),
            "likes",
        ),
        (
            path::<StatusShares>(&[("username", &user.username), ("id", &id)]),
            "shares",
        ),
    ] {
        let r = cx.client.get(&doc, None).await?;
        r.expect(200)?;
        let v = r.json()?;
        ensure!(
            v["type"] == "Collection" && v["totalItems"] == 1,
            "the {what} collection must be a Collection with totalItems 1, got {v}"
        );
    }
    Ok(())
}
