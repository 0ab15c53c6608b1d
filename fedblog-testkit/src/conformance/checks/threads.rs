//! Threads: replies counted on their parent, and the context of a status (ancestors oldest
//! first, descendants depth-first) filtered by visibility, blocks and mutes, with its bad-input
//! paths.

use serde_json::Value;

use fedblog_core::api::accounts::{
    block_account::BlockAccount, follow_account::FollowAccount, mute_account::MuteAccount,
};
use fedblog_core::api::statuses::{
    delete_status::DeleteStatus, get_context::GetContext, get_status::GetStatus,
    reblog_status::ReblogStatus,
};

use crate::check;
use crate::client::{Response, form};
use crate::conformance::checks::social::{act, token_with_scopes};
use crate::conformance::{Check, CheckResult, Cx, Failure, User, expect_error, ids_of, path};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "statuses/context/ancestors-and-descendants",
            "context lists ancestors oldest first and descendants depth-first in thread order (a reply's replies before the next reply)",
            context_order
        ),
        check!(
            "statuses/context/anonymous-public",
            "the context of a public status can be read without a token",
            context_anonymous
        ),
        check!(
            "statuses/context/filters-visibility",
            "context leaves out the replies the caller may not see (followers-only replies for non-followers and anonymous callers)",
            context_visibility
        ),
        check!(
            "statuses/context/filters-blocks-and-mutes",
            "context leaves out the posts of accounts the caller mutes or blocks, or that block the caller",
            context_blocks_mutes
        ),
        check!(
            "statuses/context/bad-input",
            "the context of an unknown status, or of a followers-only status for a non-follower, is a 404; with a token lacking read:statuses a 403",
            context_bad_input
        ),
        check!(
            "statuses/context/deleted-parent",
            "when a status in the middle of a thread is deleted, the context of its reply answers without it (no server error) and the replies stay",
            context_deleted_parent
        ),
        check!(
            "statuses/context/of-reblog",
            "the context of a reblog is the context of its original",
            context_of_reblog
        ),
        check!(
            "statuses/replies-count",
            "replies_count counts the direct replies of a status, and drops when one is deleted",
            replies_count
        ),
    ]
}

/// An id no server has issued (a snowflake far in the future).
const UNKNOWN_ID: &str = "999999999999999990";

/// Posts a status (a reply to `parent` when given) and answers its id.
async fn post(cx: &Cx, who: &User, text: &str, parent: Option<&str>) -> Result<String, Failure> {
    post_with(cx, who, text, parent, "public").await
}

/// Posts a status with a visibility and answers its id.
async fn post_with(
    cx: &Cx,
    who: &User,
    text: &str,
    parent: Option<&str>,
    visibility: &str,
) -> Result<String, Failure> {
    let mut pairs = vec![("status", text), ("visibility", visibility)];
    if let Some(p) = parent {
        pairs.push(("in_reply_to_id", p));
    }
    let s = cx.post_status(who, &pairs).await?;
    s["id"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| Failure::Fail(format!("posted status without an id: {s}")))
}

async fn context(cx: &Cx, id: &str, token: Option<&str>) -> Result<Response, Failure> {
    Ok(cx
        .client
        .get(&path::<GetContext>(&[("id", id)]), token)
        .await?)
}

/// The ancestors' and descendants' ids of a status's context, which must answer 200.
async fn thread(
    cx: &Cx,
    id: &str,
    token: Option<&str>,
) -> Result<(Vec<String>, Vec<String>), Failure> {
    let r = context(cx, id, token).await?;
    r.expect(200)?;
    let v: &Value = r.json()?;
    Ok((ids_of(&v["ancestors"]), ids_of(&v["descendants"])))
}

async fn context_order(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("op").await?, cx.new_user("replier").await?);
    let root = post(cx, &a, "root", None).await?;
    let r1 = post(cx, &b, "first reply", Some(&root)).await?;
    let r3 = post(cx, &a, "second reply to the root", Some(&root)).await?;
    let r2 = post(cx, &a, "reply to the first reply", Some(&r1)).await?;
    let r4 = post(cx, &b, "deeper", Some(&r2)).await?;

    let (up, down) = thread(cx, &root, Some(&a.token)).await?;
    ensure!(up.is_empty(), "the root has ancestors {up:?}");
    let want = vec![r1.clone(), r2.clone(), r4.clone(), r3.clone()];
    ensure!(
        down == want,
        "the root's descendants are {down:?} (expected depth-first {want:?})"
    );
    let (up, down) = thread(cx, &r2, Some(&b.token)).await?;
    ensure!(
        up == vec![root.clone(), r1.clone()],
        "the ancestors of a second-level reply are {up:?} (expected [{root}, {r1}])"
    );
    ensure!(
        down == vec![r4.clone()],
        "the descendants of a second-level reply are {down:?} (expected [{r4}])"
    );
    Ok(())
}

async fn context_anonymous(cx: &Cx) -> CheckResult {
    let a = cx.new_user("op").await?;
    let root = post(cx, &a, "root", None).await?;
    let reply = post(cx, &a, "self reply", Some(&root)).await?;
    let (up, down) = thread(cx, &reply, None).await?;
    ensure!(
        up == vec![root.clone()] && down.is_empty(),
        "an anonymous context answered {up:?} / {down:?}"
    );
    Ok(())
}

async fn context_visibility(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("op").await?, cx.new_user("replier").await?);
    let (follower, stranger) = (
        cx.new_user("follower").await?,
        cx.new_user("stranger").await?,
    );
    act::<FollowAccount>(cx, &follower, &b, &[]).await?;
    let root = post(cx, &a, "root", None).await?;
    let public = post(cx, &b, "public reply", Some(&root)).await?;
    let private = post_with(cx, &b, "followers-only reply", Some(&root), "private").await?;
    let (_, seen) = thread(cx, &root, Some(&follower.token)).await?;
    ensure!(
        seen == vec![public.clone(), private.clone()],
        "a follower of the replier sees {seen:?} (expected [{public}, {private}])"
    );
    for (who, token) in [
        ("a stranger", Some(stranger.token.as_str())),
        ("anonymous", None),
    ] {
        let (_, seen) = thread(cx, &root, token).await?;
        ensure!(
            seen == vec![public.clone()],
            "{who} sees {seen:?} (expected only the public reply {public})"
        );
    }
    let (up, _) = thread(cx, &private, Some(&follower.token)).await?;
    ensure!(
        up == vec![root.clone()],
        "the ancestors of the followers-only reply are {up:?}"
    );
    Ok(())
}

async fn context_blocks_mutes(cx: &Cx) -> CheckResult {
    let op = cx.new_user("op").await?;
    let (muted, blocked) = (cx.new_user("muted").await?, cx.new_user("blocked").await?);
    let (blocker, me) = (cx.new_user("blocker").await?, cx.new_user("reader").await?);
    let root = post(cx, &op, "root", None).await?;
    let from_muted = post(cx, &muted, "from a muted account", Some(&root)).await?;
    let from_blocked = post(cx, &blocked, "from a blocked account", Some(&root)).await?;
    let from_blocker = post(cx, &blocker, "from an account blocking me", Some(&root)).await?;
    let fine = post(cx, &op, "from the author", Some(&root)).await?;
    let (_, before) = thread(cx, &root, Some(&me.token)).await?;
    let all = vec![
        from_muted.clone(),
        from_blocked.clone(),
        from_blocker.clone(),
        fine.clone(),
    ];
    ensure!(before == all, "before any block the reader sees {before:?}");
    act::<MuteAccount>(cx, &me, &muted, &[]).await?;
    act::<BlockAccount>(cx, &me, &blocked, &[]).await?;
    act::<BlockAccount>(cx, &blocker, &me, &[]).await?;
    let (_, after) = thread(cx, &root, Some(&me.token)).await?;
    ensure!(
        after == vec![fine.clone()],
        "after muting and blocking the reader sees {after:?} (expected only {fine})"
    );
    let (_, others) = thread(cx, &root, Some(&op.token)).await?;
    ensure!(
        others == all,
        "the author now sees {others:?} (expected {all:?})"
    );
    Ok(())
}

async fn context_bad_input(cx: &Cx) -> CheckResult {
    let (a, other) = (cx.new_user("op").await?, cx.new_user("other").await?);
    let private = post_with(cx, &a, "followers only", None, "private").await?;
    expect_error(
        &context(cx, UNKNOWN_ID, Some(&other.token)).await?,
        404,
        "the context of an unknown status",
    )?;
    expect_error(
        &context(cx, "not-an-id", None).await?,
        404,
        "the context of a malformed id",
    )?;
    expect_error(
        &context(cx, &private, Some(&other.token)).await?,
        404,
        "the context of a followers-only status, as a non-follower",
    )?;
    expect_error(
        &context(cx, &private, None).await?,
        404,
        "the context of a followers-only status, anonymously",
    )?;
    let public = post(cx, &a, "hello", None).await?;
    let token = token_with_scopes(cx, "write").await?;
    expect_error(
        &context(cx, &public, Some(&token)).await?,
        403,
        "the context with a token without read:statuses",
    )
}

async fn context_deleted_parent(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("op").await?, cx.new_user("replier").await?);
    let root = post(cx, &a, "root", None).await?;
    let middle = post(cx, &b, "middle", Some(&root)).await?;
    let leaf = post(cx, &a, "leaf", Some(&middle)).await?;
    cx.client
        .delete(&path::<DeleteStatus>(&[("id", &middle)]), Some(&b.token))
        .await?
        .expect(200)?;
    let (up, _) = thread(cx, &leaf, Some(&a.token)).await?;
    ensure!(
        !up.contains(&middle),
        "the deleted status is still an ancestor: {up:?}"
    );
    let leaf_status = cx
        .client
        .get(&path::<GetStatus>(&[("id", &leaf)]), Some(&a.token))
        .await?;
    leaf_status.expect(200)?;
    let (_, down) = thread(cx, &root, Some(&a.token)).await?;
    ensure!(
        !down.contains(&middle),
        "the deleted status is still a descendant: {down:?}"
    );
    Ok(())
}

async fn context_of_reblog(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("op").await?, cx.new_user("booster").await?);
    let root = post(cx, &a, "root", None).await?;
    let reply = post(cx, &a, "reply", Some(&root)).await?;
    let r = cx
        .client
        .post(
            &path::<ReblogStatus>(&[("id", &root)]),
            Some(&b.token),
            form::<&str, &str>(&[]),
        )
        .await?;
    r.expect(200)?;
    let reblog_id = r.json()?["id"].as_str().unwrap_or_default().to_string();
    let (up, down) = thread(cx, &reblog_id, Some(&b.token)).await?;
    ensure!(
        up.is_empty() && down == vec![reply.clone()],
        "the context of a reblog answered {up:?} / {down:?} (expected the original's: [] / [{reply}])"
    );
    Ok(())
}

async fn replies_count(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("op").await?, cx.new_user("replier").await?);
    let root = post(cx, &a, "root", None).await?;
    let first = post(cx, &b, "one", Some(&root)).await?;
    post(cx, &a, "two", Some(&root)).await?;
    post(cx, &a, "not direct", Some(&first)).await?;
    let count = |v: &Value| v["replies_count"].as_i64();
    let r = cx
        .client
        .get(&path::<GetStatus>(&[("id", &root)]), None)
        .await?;
    r.expect(200)?;
    ensure!(
        count(r.json()?) == Some(2),
        "replies_count is {:?} (expected 2 direct replies)",
        count(r.json()?)
    );
    cx.client
        .delete(&path::<DeleteStatus>(&[("id", &first)]), Some(&b.token))
        .await?
        .expect(200)?;
    let r = cx
        .client
        .get(&path::<GetStatus>(&[("id", &root)]), None)
        .await?;
    r.expect(200)?;
    ensure!(
        count(r.json()?) == Some(1),
        "after deleting a reply replies_count is {:?} (expected 1)",
        count(r.json()?)
    );
    Ok(())
}
