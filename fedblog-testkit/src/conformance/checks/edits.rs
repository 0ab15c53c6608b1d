//! Edits of statuses: `PUT /api/v1/statuses/:id` (text, content warning, sensitivity, language;
//! `edited_at`), the revision history and the source, with their bad-input paths (others' or
//! unknown statuses 404, no token 401, missing scope 403, 422s).

use serde_json::Value;

use fedblog_core::api::accounts::follow_account::FollowAccount;
use fedblog_core::api::statuses::{
    delete_status::DeleteStatus, edit_status::EditStatus, get_status::GetStatus,
    status_history::GetStatusHistory, status_source::GetStatusSource,
};
use fedblog_core::api::timelines::home_timeline::HomeTimeline;

use crate::check;
use crate::client::{Body, Response, form};
use crate::conformance::checks::social::{act, token_with_scopes};
use crate::conformance::{Check, CheckResult, Cx, Failure, User, expect_error, path, str_of};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "statuses/edit/changes-text",
            "PUT /api/v1/statuses/:id with a new text answers the same status with the new content and edited_at set; reading it and the author's home timeline show the new version",
            changes_text
        ),
        check!(
            "statuses/edit/history-includes-original",
            "after one edit the history holds two revisions, oldest first: the original (dated the status's created_at) and the new version (dated edited_at)",
            history_includes_original
        ),
        check!(
            "statuses/edit/history-one-per-later-edit",
            "each later edit adds one revision: after three edits the history holds four, oldest first, the last one matching the status",
            history_later_edits
        ),
        check!(
            "statuses/edit/history-never-edited",
            "the history of a status never edited is one revision, its current version, and the status has edited_at null",
            history_never_edited
        ),
        check!(
            "statuses/edit/spoiler-sensitive-language",
            "an edit sets spoiler_text, sensitive and language; a content warning makes the status sensitive; the history records each revision's content warning and sensitivity",
            spoiler_sensitive_language
        ),
        check!(
            "statuses/edit/mentions-and-tags-follow-text",
            "after an edit, mentions[] and tags[] are those of the new text",
            mentions_and_tags
        ),
        check!(
            "statuses/edit/no-change-no-revision",
            "an edit that changes nothing answers 200 and stores no revision (edited_at stays null, the history keeps one entry)",
            no_change
        ),
        check!(
            "statuses/edit/visibility-cannot-change",
            "an edit naming another visibility is a 422 and changes nothing; naming the status's own visibility is accepted",
            visibility_cannot_change
        ),
        check!(
            "statuses/edit/others-404",
            "editing another account's status (visible or not) is a 404 and leaves it unchanged",
            others_404
        ),
        check!(
            "statuses/edit/unknown-404",
            "editing an unknown or malformed status id is a 404",
            unknown_404
        ),
        check!(
            "statuses/edit/empty-422",
            "an edit with an empty or blank status text is a 422 and changes nothing",
            empty_422
        ),
        check!(
            "statuses/edit/too-long-422",
            "an edit over 500 characters (text and content warning together) is a 422 and changes nothing; exactly 500 is accepted",
            too_long_422
        ),
        check!(
            "statuses/edit/bad-media-or-poll-422",
            "an edit naming unknown media or with an invalid poll is a 422 that changes nothing; an empty media_ids and a null poll edit the text",
            media_poll_422
        ),
        check!(
            "statuses/edit/auth",
            "editing without a token is a 401 and with a token lacking write:statuses a 403",
            edit_auth
        ),
        check!(
            "statuses/history/visibility",
            "the history of a public status can be read without a token; of a followers-only status it is a 404 for anonymous callers and strangers and readable by followers; of a deleted or unknown status a 404",
            history_visibility
        ),
        check!(
            "statuses/source/author-only",
            "GET /api/v1/statuses/:id/source answers the author {id, text, spoiler_text} with the plain source; another account's status or an unknown id is a 404, no token a 401, a token lacking read:statuses a 403",
            source_author_only
        ),
    ]
}

/// An id no server has issued (a snowflake far in the future).
const UNKNOWN_ID: &str = "999999999999999990";

/// `PUT` an edit of status `id` as `token`.
async fn edit(
    cx: &Cx,
    token: Option<&str>,
    id: &str,
    pairs: &[(&str, &str)],
) -> Result<Response, Failure> {
    cx.send(
        "PUT",
        &path::<EditStatus>(&[("id", id)]),
        token,
        form(pairs),
    )
    .await
}

/// Edits a status as its author and answers the JSON of the 200.
async fn edit_ok(cx: &Cx, who: &User, id: &str, pairs: &[(&str, &str)]) -> Result<Value, Failure> {
    let r = edit(cx, Some(&who.token), id, pairs).await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// The history of status `id` as `token`.
async fn history(cx: &Cx, id: &str, token: Option<&str>) -> Result<Response, Failure> {
    Ok(cx
        .client
        .get(&path::<GetStatusHistory>(&[("id", id)]), token)
        .await?)
}

/// The revisions of a status that must be readable by `token`.
async fn revisions(cx: &Cx, id: &str, token: Option<&str>) -> Result<Vec<Value>, Failure> {
    let r = history(cx, id, token).await?;
    r.expect(200)?;
    r.json()?
        .as_array()
        .cloned()
        .ok_or_else(|| Failure::Fail(format!("the history is not an array: {}", r.text)))
}

/// A status that must be readable by `token`.
async fn status(cx: &Cx, id: &str, token: Option<&str>) -> Result<Value, Failure> {
    let r = cx
        .client
        .get(&path::<GetStatus>(&[("id", id)]), token)
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// Posts a status and answers it with its id.
async fn post(cx: &Cx, who: &User, pairs: &[(&str, &str)]) -> Result<(String, Value), Failure> {
    let s = cx.post_status(who, pairs).await?;
    Ok((str_of(&s, "id")?, s))
}

fn content(v: &Value) -> &str {
    v["content"].as_str().unwrap_or_default()
}

/// Fails unless status `id` still has content containing `text` and no `edited_at`.
async fn unchanged(cx: &Cx, who: &User, id: &str, text: &str, what: &str) -> CheckResult {
    let s = status(cx, id, Some(&who.token)).await?;
    ensure!(
        content(&s).contains(text) && s["edited_at"].is_null(),
        "{what} changed the status: {s}"
    );
    let h = revisions(cx, id, Some(&who.token)).await?;
    ensure!(
        h.len() == 1,
        "{what} stored a revision: the history has {} entries",
        h.len()
    );
    Ok(())
}

async fn changes_text(cx: &Cx) -> CheckResult {
    let author = cx.new_user("editor").await?;
    let (id, original) = post(cx, &author, &[("status", "first version")]).await?;
    let edited = edit_ok(cx, &author, &id, &[("status", "second version")]).await?;
    ensure!(
        edited["id"] == id.as_str() && content(&edited).contains("second version"),
        "the edit answered {edited}"
    );
    ensure!(
        !content(&edited).contains("first version"),
        "the old text is still in content: {}",
        edited["content"]
    );
    let edited_at = edited["edited_at"].as_str().unwrap_or_default();
    ensure!(
        chrono::DateTime::parse_from_rfc3339(edited_at).is_ok(),
        "edited_at {:?} is not an ISO 8601 datetime",
        edited["edited_at"]
    );
    ensure!(
        edited["created_at"] == original["created_at"]
            && edited["visibility"] == original["visibility"],
        "the edit changed created_at or visibility: {original} -> {edited}"
    );
    let seen = status(cx, &id, None).await?;
    ensure!(
        content(&seen).contains("second version") && seen["edited_at"] == edited["edited_at"],
        "reading the status after the edit answered {seen}"
    );
    let r = cx
        .client
        .get(&path::<HomeTimeline>(&[]), Some(&author.token))
        .await?;
    r.expect(200)?;
    let home = r.json()?.as_array().cloned().unwrap_or_default();
    let entry = home.iter().find(|s| s["id"] == id.as_str());
    ensure!(
        entry.is_some_and(|s| content(s).contains("second version")),
        "the home timeline shows {entry:?}"
    );
    Ok(())
}

async fn history_includes_original(cx: &Cx) -> CheckResult {
    let author = cx.new_user("editor").await?;
    let (id, original) = post(cx, &author, &[("status", "the original")]).await?;
    let edited = edit_ok(cx, &author, &id, &[("status", "the correction")]).await?;
    let h = revisions(cx, &id, Some(&author.token)).await?;
    ensure!(h.len() == 2, "expected 2 revisions, got {}: {h:?}", h.len());
    ensure!(
        content(&h[0]).contains("the original") && content(&h[1]).contains("the correction"),
        "revisions are not original then new: {h:?}"
    );
    ensure!(
        h[0]["created_at"] == original["created_at"],
        "the original revision is dated {} (the status was created {})",
        h[0]["created_at"],
        original["created_at"]
    );
    ensure!(
        h[1]["created_at"] == edited["edited_at"],
        "the new revision is dated {} (edited_at {})",
        h[1]["created_at"],
        edited["edited_at"]
    );
    ensure!(
        h.iter().all(|r| r["account"]["id"] == author.id.as_str()),
        "a revision names another account: {h:?}"
    );
    Ok(())
}

async fn history_later_edits(cx: &Cx) -> CheckResult {
    let author = cx.new_user("editor").await?;
    let (id, _) = post(cx, &author, &[("status", "version 0")]).await?;
    for n in 1..=3 {
        let text = format!("version {n}");
        edit_ok(cx, &author, &id, &[("status", text.as_str())]).await?;
    }
    let h = revisions(cx, &id, None).await?;
    ensure!(h.len() == 4, "expected 4 revisions, got {}: {h:?}", h.len());
    for (n, r) in h.iter().enumerate() {
        ensure!(
            content(r).contains(&format!("version {n}")),
            "revision {n} is {r}"
        );
    }
    let dates: Vec<&str> = h
        .iter()
        .map(|r| r["created_at"].as_str().unwrap_or_default())
        .collect();
    ensure!(
        dates.windows(2).all(|w| w[0] <= w[1]),
        "revisions are not oldest first: {dates:?}"
    );
    let s = status(cx, &id, None).await?;
    ensure!(
        s["content"] == h[3]["content"] && s["edited_at"] == h[3]["created_at"],
        "the last revision {} is not the status {s}",
        h[3]
    );
    Ok(())
}

async fn history_never_edited(cx: &Cx) -> CheckResult {
    let author = cx.new_user("editor").await?;
    let (id, s) = post(
        cx,
        &author,
        &[("status", "never edited"), ("spoiler_text", "cw")],
    )
    .await?;
    ensure!(
        s["edited_at"].is_null(),
        "a new status has edited_at {}",
        s["edited_at"]
    );
    let h = revisions(cx, &id, None).await?;
    ensure!(h.len() == 1, "expected 1 revision, got {}: {h:?}", h.len());
    ensure!(
        h[0]["content"] == s["content"]
            && h[0]["spoiler_text"] == "cw"
            && h[0]["created_at"] == s["created_at"],
        "the one revision {} is not the status {s}",
        h[0]
    );
    Ok(())
}

async fn spoiler_sensitive_language(cx: &Cx) -> CheckResult {
    let author = cx.new_user("editor").await?;
    let (id, _) = post(cx, &author, &[("status", "plain"), ("language", "en")]).await?;
    let e = edit_ok(
        cx,
        &author,
        &id,
        &[
            ("status", "plain"),
            ("spoiler_text", "spoilers ahead"),
            ("language", "de"),
        ],
    )
    .await?;
    ensure!(
        e["spoiler_text"] == "spoilers ahead" && e["sensitive"] == true && e["language"] == "de",
        "after adding a content warning and language de: {e}"
    );
    let e = edit_ok(
        cx,
        &author,
        &id,
        &[("status", "plain"), ("sensitive", "true")],
    )
    .await?;
    ensure!(
        e["spoiler_text"] == "" && e["sensitive"] == true && e["language"] == "de",
        "after removing the content warning, sensitive true, no language: {e}"
    );
    let h = revisions(cx, &id, Some(&author.token)).await?;
    ensure!(h.len() == 3, "expected 3 revisions, got {}: {h:?}", h.len());
    let cw: Vec<(&Value, &Value)> = h
        .iter()
        .map(|r| (&r["spoiler_text"], &r["sensitive"]))
        .collect();
    ensure!(
        h[0]["spoiler_text"] == ""
            && h[0]["sensitive"] == false
            && h[1]["spoiler_text"] == "spoilers ahead"
            && h[1]["sensitive"] == true
            && h[2]["spoiler_text"] == ""
            && h[2]["sensitive"] == true,
        "revisions record (spoiler_text, sensitive) as {cw:?}"
    );
    let r = edit(
        cx,
        Some(&author.token),
        &id,
        &[("status", "plain"), ("language", "not a language")],
    )
    .await?;
    expect_error(&r, 422, "an edit with an invalid language")?;
    Ok(())
}

async fn mentions_and_tags(cx: &Cx) -> CheckResult {
    let (author, friend) = (cx.new_user("editor").await?, cx.new_user("friend").await?);
    let (id, s) = post(cx, &author, &[("status", "hello #OldTag")]).await?;
    ensure!(
        s["mentions"].as_array().is_some_and(Vec::is_empty),
        "unexpected mentions {}",
        s["mentions"]
    );
    let text = format!("hello @{} #NewTag", friend.username);
    let e = edit_ok(cx, &author, &id, &[("status", text.as_str())]).await?;
    let mentions = e["mentions"].as_array().cloned().unwrap_or_default();
    ensure!(
        mentions.len() == 1 && mentions[0]["id"] == friend.id.as_str(),
        "mentions after the edit: {}",
        e["mentions"]
    );
    let tags: Vec<&str> = e["tags"]
        .as_array()
        .map(|a| a.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default();
    ensure!(tags == ["newtag"], "tags after the edit: {tags:?}");
    let murl = mentions[0]["url"].as_str().unwrap_or_default();
    ensure!(
        !murl.is_empty() && content(&e).contains(&format!("href=\"{murl}\"")),
        "content does not link the mention to {murl:?}: {}",
        e["content"]
    );
    Ok(())
}

async fn no_change(cx: &Cx) -> CheckResult {
    let author = cx.new_user("editor").await?;
    let (id, _) = post(cx, &author, &[("status", "steady")]).await?;
    let e = edit_ok(cx, &author, &id, &[("status", "steady")]).await?;
    ensure!(
        e["edited_at"].is_null() && content(&e).contains("steady"),
        "an edit changing nothing answered {e}"
    );
    unchanged(cx, &author, &id, "steady", "an edit changing nothing").await
}

async fn visibility_cannot_change(cx: &Cx) -> CheckResult {
    let author = cx.new_user("editor").await?;
    let (id, _) = post(
        cx,
        &author,
        &[("status", "for followers"), ("visibility", "private")],
    )
    .await?;
    let r = edit(
        cx,
        Some(&author.token),
        &id,
        &[("status", "for everyone"), ("visibility", "public")],
    )
    .await?;
    expect_error(&r, 422, "an edit changing the visibility")?;
    unchanged(
        cx,
        &author,
        &id,
        "for followers",
        "a refused visibility change",
    )
    .await?;
    let e = edit_ok(
        cx,
        &author,
        &id,
        &[("status", "still for followers"), ("visibility", "private")],
    )
    .await?;
    ensure!(
        e["visibility"] == "private" && content(&e).contains("still for followers"),
        "an edit naming the same visibility answered {e}"
    );
    let e = edit_ok(cx, &author, &id, &[("status", "no visibility sent")]).await?;
    ensure!(
        e["visibility"] == "private",
        "an edit without visibility made the status {}",
        e["visibility"]
    );
    Ok(())
}

async fn others_404(cx: &Cx) -> CheckResult {
    let (author, other) = (cx.new_user("author").await?, cx.new_user("other").await?);
    let (public, _) = post(cx, &author, &[("status", "mine alone")]).await?;
    let r = edit(cx, Some(&other.token), &public, &[("status", "hijacked")]).await?;
    expect_error(&r, 404, "editing another account's public status")?;
    unchanged(cx, &author, &public, "mine alone", "another account's edit").await?;
    let (private, _) = post(
        cx,
        &author,
        &[("status", "secret"), ("visibility", "private")],
    )
    .await?;
    let r = edit(cx, Some(&other.token), &private, &[("status", "hijacked")]).await?;
    expect_error(&r, 404, "editing another account's followers-only status")?;
    unchanged(cx, &author, &private, "secret", "another account's edit").await
}

async fn unknown_404(cx: &Cx) -> CheckResult {
    let user = cx.new_user("editor").await?;
    let r = edit(cx, Some(&user.token), UNKNOWN_ID, &[("status", "x")]).await?;
    expect_error(&r, 404, "editing an unknown status")?;
    let r = edit(cx, Some(&user.token), "not-an-id", &[("status", "x")]).await?;
    expect_error(&r, 404, "editing a malformed status id")?;
    let (id, _) = post(cx, &user, &[("status", "short-lived")]).await?;
    cx.client
        .delete(&path::<DeleteStatus>(&[("id", &id)]), Some(&user.token))
        .await?
        .expect(200)?;
    let r = edit(cx, Some(&user.token), &id, &[("status", "x")]).await?;
    expect_error(&r, 404, "editing a deleted status")
}

async fn empty_422(cx: &Cx) -> CheckResult {
    let author = cx.new_user("editor").await?;
    let (id, _) = post(cx, &author, &[("status", "not empty")]).await?;
    let r = edit(cx, Some(&author.token), &id, &[("status", "")]).await?;
    expect_error(&r, 422, "an edit with an empty text")?;
    let r = edit(cx, Some(&author.token), &id, &[("status", "   ")]).await?;
    expect_error(&r, 422, "an edit with a blank text")?;
    let r = edit(cx, Some(&author.token), &id, &[]).await?;
    expect_error(&r, 422, "an edit without a text")?;
    unchanged(cx, &author, &id, "not empty", "a refused empty edit").await
}

async fn too_long_422(cx: &Cx) -> CheckResult {
    let author = cx.new_user("editor").await?;
    let (id, _) = post(cx, &author, &[("status", "short")]).await?;
    let long = "x".repeat(501);
    let r = edit(cx, Some(&author.token), &id, &[("status", long.as_str())]).await?;
    expect_error(&r, 422, "a 501-character edit")?;
    let (text, cw) = ("y".repeat(450), "w".repeat(51));
    let r = edit(
        cx,
        Some(&author.token),
        &id,
        &[("status", text.as_str()), ("spoiler_text", cw.as_str())],
    )
    .await?;
    expect_error(&r, 422, "an edit of 450 characters + 51 of content warning")?;
    unchanged(cx, &author, &id, "short", "a refused long edit").await?;
    let exact = "z".repeat(500);
    let e = edit_ok(cx, &author, &id, &[("status", exact.as_str())]).await?;
    ensure!(
        content(&e).contains(&exact),
        "a 500-character edit answered {e}"
    );
    Ok(())
}

async fn media_poll_422(cx: &Cx) -> CheckResult {
    let author = cx.new_user("editor").await?;
    let (id, _) = post(cx, &author, &[("status", "no media")]).await?;
    let r = edit(
        cx,
        Some(&author.token),
        &id,
        &[("status", "with media"), ("media_ids[]", "12345")],
    )
    .await?;
    expect_error(&r, 422, "an edit with unknown media_ids[]")?;
    let r = edit(
        cx,
        Some(&author.token),
        &id,
        &[
            ("status", "with a poll"),
            ("poll[options][]", "only one"),
            ("poll[expires_in]", "3600"),
        ],
    )
    .await?;
    expect_error(&r, 422, "an edit with a one-option poll")?;
    unchanged(cx, &author, &id, "no media", "a refused media or poll edit").await?;
    let r = cx
        .send(
            "PUT",
            &path::<EditStatus>(&[("id", &id)]),
            Some(&author.token),
            Body::Json(serde_json::json!({
                "status": "edited by a web client",
                "media_ids": [],
                "poll": null,
            })),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        content(r.json()?).contains("edited by a web client"),
        "a JSON edit with empty media_ids and a null poll answered {}",
        r.text
    );
    Ok(())
}

async fn edit_auth(cx: &Cx) -> CheckResult {
    let author = cx.new_user("editor").await?;
    let (id, _) = post(cx, &author, &[("status", "guarded")]).await?;
    let r = edit(cx, None, &id, &[("status", "anonymous edit")]).await?;
    expect_error(&r, 401, "editing without a token")?;
    let token = token_with_scopes(cx, "read write:favourites").await?;
    let r = edit(cx, Some(&token), &id, &[("status", "wrong scope")]).await?;
    expect_error(&r, 403, "editing with a token without write:statuses")?;
    unchanged(cx, &author, &id, "guarded", "a refused edit").await
}

async fn history_visibility(cx: &Cx) -> CheckResult {
    let (author, follower, stranger) = (
        cx.new_user("author").await?,
        cx.new_user("follower").await?,
        cx.new_user("stranger").await?,
    );
    act::<FollowAccount>(cx, &follower, &author, &[]).await?;
    let (public, _) = post(cx, &author, &[("status", "public v1")]).await?;
    edit_ok(cx, &author, &public, &[("status", "public v2")]).await?;
    let h = revisions(cx, &public, None).await?;
    ensure!(h.len() == 2, "anonymous history of a public status: {h:?}");
    let (private, _) = post(
        cx,
        &author,
        &[("status", "private v1"), ("visibility", "private")],
    )
    .await?;
    edit_ok(cx, &author, &private, &[("status", "private v2")]).await?;
    let r = history(cx, &private, None).await?;
    expect_error(&r, 404, "anonymous history of a followers-only status")?;
    let r = history(cx, &private, Some(&stranger.token)).await?;
    expect_error(&r, 404, "a stranger's history of a followers-only status")?;
    for who in [&author, &follower] {
        let h = revisions(cx, &private, Some(&who.token)).await?;
        ensure!(
            h.len() == 2 && content(&h[0]).contains("private v1"),
            "{}'s history of a followers-only status: {h:?}",
            who.username
        );
    }
    let r = history(cx, UNKNOWN_ID, None).await?;
    expect_error(&r, 404, "the history of an unknown status")?;
    cx.client
        .delete(
            &path::<DeleteStatus>(&[("id", &public)]),
            Some(&author.token),
        )
        .await?
        .expect(200)?;
    let r = history(cx, &public, Some(&author.token)).await?;
    expect_error(&r, 404, "the history of a deleted status")
}

async fn source_author_only(cx: &Cx) -> CheckResult {
    let (author, other) = (cx.new_user("author").await?, cx.new_user("other").await?);
    let text = "source with <b>markup</b> & a #Tag";
    let (id, _) = post(
        cx,
        &author,
        &[("status", text), ("spoiler_text", "a warning")],
    )
    .await?;
    let url = path::<GetStatusSource>(&[("id", &id)]);
    let r = cx.client.get(&url, Some(&author.token)).await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["id"] == id.as_str() && v["text"] == text && v["spoiler_text"] == "a warning",
        "the source answered {v}"
    );
    edit_ok(cx, &author, &id, &[("status", "edited source")]).await?;
    let r = cx.client.get(&url, Some(&author.token)).await?;
    r.expect(200)?;
    ensure!(
        r.json()?["text"] == "edited source" && r.json()?["spoiler_text"] == "",
        "the source after an edit answered {}",
        r.text
    );
    let r = cx.client.get(&url, Some(&other.token)).await?;
    expect_error(&r, 404, "another account reading the source")?;
    let r = cx
        .client
        .get(
            &path::<GetStatusSource>(&[("id", UNKNOWN_ID)]),
            Some(&author.token),
        )
        .await?;
    expect_error(&r, 404, "the source of an unknown status")?;
    let r = cx.client.get(&url, None).await?;
    expect_error(&r, 401, "reading the source without a token")?;
    let token = token_with_scopes(cx, "write read:accounts").await?;
    let r = cx.client.get(&url, Some(&token)).await?;
    expect_error(
        &r,
        403,
        "reading the source with a token without read:statuses",
    )
}
