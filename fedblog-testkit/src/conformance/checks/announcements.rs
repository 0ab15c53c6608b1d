//! Announcements: `GET /api/v1/announcements` (the Announcement entity), the specification's
//! rule that an announcement can be dismissed (`POST /api/v1/announcements/:id/dismiss` flips
//! the caller's `read`), and reactions (`PUT`/`DELETE /api/v1/announcements/:id/reactions/:name`:
//! counted, with the caller's `me`; an unknown emoji is a 422).
//!
//! Announcements are made by staff. Mastodon has no API for that, so the checks that need one
//! make it through fedblog's own admin endpoint (`POST /api/v1/admin/announcements`, then
//! deleted with `DELETE /api/v1/admin/announcements/:id`); on a server without it (404 or 405)
//! or without an administrator's token they are not run.

use fedblog_core::api::admin_announcements::{
    create_announcement::CreateAdminAnnouncement, delete_announcement::DeleteAdminAnnouncement,
};
use fedblog_core::api::announcements::{
    add_announcement_reaction::AddAnnouncementReaction, dismiss_announcement::DismissAnnouncement,
    list_announcements::ListAnnouncements,
};
use fedblog_core::api::{Endpoint, fill_path};
use serde_json::Value;

use crate::check;
use crate::client::Body;
use crate::conformance::{
    Check, CheckResult, Cx, Failure, SetUp, User, expect_error, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "announcements/list-shape",
            "GET /api/v1/announcements answers a signed-in user 200 with an array of Announcement (id, content, all_day, published_at, updated_at, read, and arrays mentions, statuses, tags, emojis, reactions)",
            list_shape
        ),
        check!(
            "announcements/needs-token",
            "GET /api/v1/announcements and POST /api/v1/announcements/:id/dismiss answer 401 with an error body without a token",
            needs_token
        ),
        check!(
            "announcements/published-listed",
            "an announcement staff publish is listed with its text as HTML content, read false and no reactions; a draft is not listed",
            published_listed
        ),
        check!(
            "announcements/dismiss-read",
            "POST /api/v1/announcements/:id/dismiss answers 200 and flips read to true for the caller only, and again changes nothing (specification: an announcement can be dismissed)",
            dismiss_read
        ),
        check!(
            "announcements/with-dismissed",
            "GET /api/v1/announcements?with_dismissed=false leaves out the announcements the caller dismissed; without it they are listed with read true",
            with_dismissed
        ),
        check!(
            "announcements/reactions",
            "PUT /api/v1/announcements/:id/reactions/:name with a Unicode emoji answers 200; the reaction is listed with its count and me (true for reacting accounts, false for others); DELETE takes it back",
            reactions
        ),
        check!(
            "announcements/reaction-unknown-emoji",
            "PUT /api/v1/announcements/:id/reactions/:name with a name that is neither a Unicode emoji nor a custom emoji of the server answers 422 with an error body, and adds nothing",
            reaction_unknown_emoji
        ),
        check!(
            "announcements/unknown-404",
            "dismissing, reacting to and taking back a reaction to an announcement that does not exist answer 404 with an error body",
            unknown_404
        ),
    ]
}

/// `name` as one percent-encoded path segment.
fn segment(name: &str) -> String {
    let mut out = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The path of the reaction `name` to the announcement `id`.
fn reaction_path(id: &str, name: &str) -> String {
    fill_path(
        AddAnnouncementReaction::PATH,
        &[("id", id), ("name", &segment(name))],
    )
}

/// An announcement made (and published unless `draft`) by staff through fedblog's admin
/// endpoint; its id. Not run without an administrator, or on a server without that endpoint.
async fn new_announcement(cx: &Cx, text: &str, draft: bool) -> Result<String, Failure> {
    let admin = cx.admin()?.to_string();
    let publish = if draft { "false" } else { "true" };
    let r = cx
        .send(
            "POST",
            CreateAdminAnnouncement::PATH,
            Some(&admin),
            Body::Form(vec![
                ("text".into(), text.to_string()),
                ("publish".into(), publish.into()),
            ]),
        )
        .await
        .setup("making an announcement")?;
    if r.status == 404 || r.status == 405 {
        return Err(Failure::NotRun(format!(
            "needs an admin endpoint making announcements (fedblog's POST {}): {} here",
            CreateAdminAnnouncement::PATH,
            r.status
        )));
    }
    r.expect(200).setup("making an announcement")?;
    str_of(r.json().setup("making an announcement")?, "id").setup("making an announcement")
}

/// Deletes the announcement `id` through fedblog's admin endpoint, so that it does not stay
/// on the server (best effort: the check's verdict is already known).
async fn remove(cx: &Cx, id: &str) {
    if let Ok(admin) = cx.admin() {
        let admin = admin.to_string();
        let _ = cx
            .client
            .delete(
                &path::<DeleteAdminAnnouncement>(&[("id", id)]),
                Some(&admin),
            )
            .await;
    }
}

/// Runs `body` on a new announcement, then deletes it whatever the outcome.
async fn with_announcement<F, Fut>(cx: &Cx, text: &str, body: F) -> CheckResult
where
    F: FnOnce(String) -> Fut,
    Fut: std::future::Future<Output = CheckResult>,
{
    let id = new_announcement(cx, text, false).await?;
    let result = body(id.clone()).await;
    remove(cx, &id).await;
    result
}

/// The announcements `who` is shown (with `query` appended to the path).
async fn listed(cx: &Cx, who: &User, query: &str) -> Result<Vec<Value>, Failure> {
    let r = cx
        .client
        .get(
            &format!("{}{query}", path::<ListAnnouncements>(&[])),
            Some(&who.token),
        )
        .await?;
    r.expect(200)?;
    r.json()?
        .as_array()
        .cloned()
        .ok_or_else(|| Failure::Fail(format!("not an array: {}", r.text)))
}

/// The announcement `id` as `who` is shown it; fails if it is not listed.
async fn listed_one(cx: &Cx, who: &User, id: &str) -> Result<Value, Failure> {
    listed(cx, who, "")
        .await?
        .into_iter()
        .find(|a| a["id"] == id)
        .ok_or_else(|| {
            Failure::Fail(format!(
                "the published announcement {id} is not listed for @{}",
                who.username
            ))
        })
}

/// The reaction `name` of an announcement as listed, if any.
fn reaction_of<'a>(announcement: &'a Value, name: &str) -> Option<&'a Value> {
    announcement["reactions"]
        .as_array()?
        .iter()
        .find(|r| r["name"] == name)
}

/// Whether `a` has the Announcement entity's fields and types.
fn is_announcement(a: &Value) -> bool {
    let arrays = ["mentions", "statuses", "tags", "emojis", "reactions"]
        .iter()
        .all(|f| a[f].is_array());
    a["id"].is_string()
        && a["content"].is_string()
        && a["all_day"].is_boolean()
        && a["published_at"].is_string()
        && a["updated_at"].is_string()
        && (a["starts_at"].is_null() || a["starts_at"].is_string())
        && (a["ends_at"].is_null() || a["ends_at"].is_string())
        && a["read"].is_boolean()
        && arrays
}

async fn list_shape(cx: &Cx) -> CheckResult {
    let alice = cx.user("annlist").await?;
    for a in listed(cx, &alice, "").await? {
        ensure!(is_announcement(&a), "not an Announcement: {a}");
        for r in a["reactions"].as_array().into_iter().flatten() {
            ensure!(
                r["name"].is_string() && r["count"].is_u64() && r["me"].is_boolean(),
                "not a Reaction (name, count, me): {r}"
            );
        }
    }
    Ok(())
}

async fn needs_token(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<ListAnnouncements>(&[]), None).await?;
    expect_error(&r, 401, "GET /api/v1/announcements without a token")?;
    let r = cx
        .client
        .post(
            &path::<DismissAnnouncement>(&[("id", "1")]),
            None,
            Body::None,
        )
        .await?;
    expect_error(
        &r,
        401,
        "POST /api/v1/announcements/:id/dismiss without a token",
    )
}

async fn published_listed(cx: &Cx) -> CheckResult {
    let alice = cx.user("annpub").await?;
    let text = format!("Maintenance tonight {}", cx.unique("ann"));
    let draft = new_announcement(cx, &format!("{text} (draft)"), true).await?;
    let (text_ref, draft_ref) = (&text, &draft);
    let result = with_announcement(cx, &text, |id| async move {
        let (text, draft) = (text_ref, draft_ref);
        let all = listed(cx, &alice, "").await?;
        ensure!(
            !all.iter().any(|a| a["id"] == draft.as_str()),
            "a draft announcement is listed: {all:?}"
        );
        let a = listed_one(cx, &alice, &id).await?;
        ensure!(is_announcement(&a), "not an Announcement: {a}");
        let content = a["content"].as_str().unwrap_or_default();
        ensure!(
            content.contains(text.as_str()) && content.starts_with('<'),
            "content is not the text as HTML: {content:?}"
        );
        ensure!(
            a["read"] == false,
            "read of a new announcement: {}",
            a["read"]
        );
        ensure!(
            a["reactions"].as_array().is_some_and(Vec::is_empty),
            "a new announcement has reactions: {}",
            a["reactions"]
        );
        Ok(())
    })
    .await;
    remove(cx, &draft).await;
    result
}

async fn dismiss_read(cx: &Cx) -> CheckResult {
    let alice = cx.user("anndis").await?;
    let bob = cx.new_user("anndis").await?;
    with_announcement(cx, "Please read me", |id| async move {
        let before = listed_one(cx, &alice, &id).await?;
        ensure!(before["read"] == false, "read before dismissing: {before}");
        let dismiss = path::<DismissAnnouncement>(&[("id", &id)]);
        for _ in 0..2 {
            let r = cx
                .client
                .post(&dismiss, Some(&alice.token), Body::None)
                .await?;
            r.expect(200)?;
        }
        let after = listed_one(cx, &alice, &id).await?;
        ensure!(
            after["read"] == true,
            "read after dismissing: {}",
            after["read"]
        );
        let other = listed_one(cx, &bob, &id).await?;
        ensure!(
            other["read"] == false,
            "another user's read after alice dismissed: {}",
            other["read"]
        );
        Ok(())
    })
    .await
}

async fn with_dismissed(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("annwd").await?;
    with_announcement(cx, "Dismiss me", |id| async move {
        let r = cx
            .client
            .post(
                &path::<DismissAnnouncement>(&[("id", &id)]),
                Some(&alice.token),
                Body::None,
            )
            .await?;
        r.expect(200)?;
        let hidden = listed(cx, &alice, "?with_dismissed=false").await?;
        ensure!(
            !hidden.iter().any(|a| a["id"] == id.as_str()),
            "with_dismissed=false lists the dismissed announcement"
        );
        let shown = listed_one(cx, &alice, &id).await?;
        ensure!(shown["read"] == true, "read of the dismissed one: {shown}");
        Ok(())
    })
    .await
}

async fn reactions(cx: &Cx) -> CheckResult {
    let alice = cx.user("annreact").await?;
    let bob = cx.new_user("annreact").await?;
    let carol = cx.new_user("annreact").await?;
    with_announcement(cx, "React to me", |id| async move {
        let name = "👍";
        let put = reaction_path(&id, name);
        for who in [&alice, &bob] {
            let r = cx.send("PUT", &put, Some(&who.token), Body::None).await?;
            r.expect(200)?;
        }
        let a = listed_one(cx, &alice, &id).await?;
        let r = reaction_of(&a, name)
            .ok_or_else(|| Failure::Fail(format!("the reaction is not listed: {a}")))?;
        ensure!(r["count"] == 2, "count of two reactions: {r}");
        ensure!(r["me"] == true, "me for a reacting account: {r}");
        let c = listed_one(cx, &carol, &id).await?;
        let r = reaction_of(&c, name)
            .ok_or_else(|| Failure::Fail(format!("the reaction is not listed: {c}")))?;
        ensure!(
            r["me"] == false,
            "me for an account that did not react: {r}"
        );
        let r = cx.client.delete(&put, Some(&alice.token)).await?;
        r.expect(200)?;
        let a = listed_one(cx, &alice, &id).await?;
        let r = reaction_of(&a, name)
            .ok_or_else(|| Failure::Fail(format!("bob's reaction is gone too: {a}")))?;
        ensure!(
            r["count"] == 1 && r["me"] == false,
            "after alice took hers back: {r}"
        );
        Ok(())
    })
    .await
}

async fn reaction_unknown_emoji(cx: &Cx) -> CheckResult {
    let alice = cx.user("annbad").await?;
    with_announcement(cx, "No such emoji", |id| async move {
        let name = "no_such_emoji_here";
        let r = cx
            .send(
                "PUT",
                &reaction_path(&id, name),
                Some(&alice.token),
                Body::None,
            )
            .await?;
        expect_error(&r, 422, "PUT a reaction with an unknown emoji")?;
        let a = listed_one(cx, &alice, &id).await?;
        ensure!(
            reaction_of(&a, name).is_none(),
            "the unknown emoji was added: {a}"
        );
        Ok(())
    })
    .await
}

async fn unknown_404(cx: &Cx) -> CheckResult {
    let alice = cx.user("ann404").await?;
    let id = "999999999999999";
    let r = cx
        .client
        .post(
            &path::<DismissAnnouncement>(&[("id", id)]),
            Some(&alice.token),
            Body::None,
        )
        .await?;
    expect_error(&r, 404, "dismissing an unknown announcement")?;
    let put = reaction_path(id, "👍");
    let r = cx.send("PUT", &put, Some(&alice.token), Body::None).await?;
    expect_error(&r, 404, "reacting to an unknown announcement")?;
    let r = cx.client.delete(&put, Some(&alice.token)).await?;
    expect_error(&r, 404, "taking back a reaction to an unknown announcement")
}
