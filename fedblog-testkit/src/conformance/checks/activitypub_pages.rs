//! ActivityPub and HTML rows checked over HTTP: a thread's conversation context (Mastodon 4.5,
//! named by the `context` of its notes) and a status's embed page, which other sites frame.

use fedblog_core::api::activitypub::status_embed::StatusEmbed;
use serde_json::Value;

use crate::check;
use crate::conformance::{Check, CheckResult, Cx, Failure, path, str_of};
use crate::ensure;

/// The media type other servers ask ActivityPub documents with.
const ACTIVITY_JSON: &str = "application/activity+json";

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "activitypub/context-lists-public-thread",
            "a status's note names its thread's `context`; GET of it (and of its items, ?page=true) is a Collection whose first page lists the thread's public and unlisted statuses by their ActivityPub ids, oldest first, never a followers-only one",
            context_lists_public_thread
        ),
        check!(
            "activitypub/embed-page-framable",
            "GET /@:username/:id/embed of a public status is an HTML page that names the status and may be framed (no X-Frame-Options, no frame-ancestors); a followers-only status's embed is a 404",
            embed_page_framable
        ),
    ]
}

/// A GET of an absolute ActivityPub URL, as another server asks it: its JSON.
async fn activity(cx: &Cx, url: &str) -> Result<Value, Failure> {
    let r = cx
        .client
        .send(
            "GET",
            url,
            None,
            crate::client::Body::None,
            &[("Accept", ACTIVITY_JSON)],
        )
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// The items of a collection's page (the page itself, or a collection's embedded `first`).
fn items(doc: &Value) -> Vec<Value> {
    let page = if doc["type"] == "Collection" {
        &doc["first"]
    } else {
        doc
    };
    page["items"].as_array().cloned().unwrap_or_default()
}

async fn context_lists_public_thread(cx: &Cx) -> CheckResult {
    let user = cx.user("context").await?;
    let first = cx
        .post_status(&user, &[("status", "a thread"), ("visibility", "public")])
        .await?;
    let first_id = str_of(&first, "id")?;
    let open = cx
        .post_status(
            &user,
            &[
                ("status", "an unlisted reply"),
                ("visibility", "unlisted"),
                ("in_reply_to_id", &first_id),
            ],
        )
        .await?;
    let hidden = cx
        .post_status(
            &user,
            &[
                ("status", "a followers-only reply"),
                ("visibility", "private"),
                ("in_reply_to_id", &first_id),
            ],
        )
        .await?;
    let (first_uri, open_uri) = (str_of(&first, "uri")?, str_of(&open, "uri")?);
    let hidden_uri = str_of(&hidden, "uri")?;

    let note = activity(cx, &first_uri).await?;
    let Some(context) = note["context"].as_str().map(str::to_string) else {
        return Err(Failure::Fail(format!("the note names no context: {note}")));
    };
    let reply_note = activity(cx, &open_uri).await?;
    ensure!(
        reply_note["context"] == context.as_str(),
        "a reply names its thread's context {context}, got {}",
        reply_note["context"]
    );
    let doc = activity(cx, &context).await?;
    ensure!(
        doc["type"] == "Collection" && doc["id"] == context.as_str(),
        "the context must be a Collection with its own id: {doc}"
    );
    let expected: Vec<Value> = vec![first_uri.clone().into(), open_uri.clone().into()];
    ensure!(
        items(&doc) == expected,
        "the context's first page must list {expected:?} (not {hidden_uri}), got {:?}",
        items(&doc)
    );
    let page = activity(cx, &format!("{context}/items?page=true")).await?;
    ensure!(
        page["type"] == "CollectionPage" && items(&page) == expected,
        "the first page of its items must list {expected:?}: {page}"
    );
    Ok(())
}

/// The embed page of `username`'s status `id` (`fill_path` fills only whole-segment
/// parameters, and this path's first segment is `@:username`).
fn embed_path(username: &str, id: &str) -> String {
    path::<StatusEmbed>(&[("id", id)]).replacen("@:username", &format!("@{username}"), 1)
}

async fn embed_page_framable(cx: &Cx) -> CheckResult {
    let user = cx.user("embed").await?;
    let status = cx
        .post_status(&user, &[("status", "frame me"), ("visibility", "public")])
        .await?;
    let id = str_of(&status, "id")?;
    let embed = embed_path(&user.username, &id);
    let r = cx
        .client
        .send(
            "GET",
            &embed,
            None,
            crate::client::Body::None,
            &[("Accept", "text/html")],
        )
        .await?;
    r.expect(200)?;
    ensure!(
        r.header("content-type")
            .is_some_and(|t| t.starts_with("text/html")),
        "the embed page must be HTML, got {:?}",
        r.header("content-type")
    );
    ensure!(
        r.header("x-frame-options").is_none(),
        "the embed page must be framable, got X-Frame-Options {:?}",
        r.header("x-frame-options")
    );
    ensure!(
        !r.header("content-security-policy")
            .is_some_and(|p| p.contains("frame-ancestors")),
        "the embed page's policy must not restrict framing: {:?}",
        r.header("content-security-policy")
    );
    ensure!(
        r.text.contains("frame me"),
        "the embed page must show the status's text: {}",
        r.text
    );
    let private = cx
        .post_status(
            &user,
            &[("status", "not for embeds"), ("visibility", "private")],
        )
        .await?;
    let hidden = embed_path(&user.username, &str_of(&private, "id")?);
    let r = cx
        .client
        .send(
            "GET",
            &hidden,
            None,
            crate::client::Body::None,
            &[("Accept", "text/html")],
        )
        .await?;
    ensure!(
        r.status == 404,
        "a followers-only status's embed must be a 404, got {}",
        r.status
    );
    Ok(())
}
