//! Follows between accounts: following (twice is fine) with options (`reblogs`, `notify`,
//! `languages`), locked accounts and follow requests carrying those options, unfollowing,
//! removing a follower, relationships, and the public followers and following lists with
//! pagination.

use fedblog_core::api::accounts::{
    block_account::BlockAccount, follow_account::FollowAccount, get_followers::GetFollowers,
    get_following::GetFollowing, get_relationships::GetRelationships,
    remove_from_followers::RemoveFromFollowers, unfollow_account::UnfollowAccount,
    update_credentials::UpdateCredentials,
};
use fedblog_core::api::follow_requests::{
    authorize_follow_request::AuthorizeFollowRequest, list_follow_requests::ListFollowRequests,
    reject_follow_request::RejectFollowRequest,
};
use fedblog_core::api::timelines::home_timeline::HomeTimeline;
use serde_json::Value;

use crate::check;
use crate::client::{Body, form};
use crate::conformance::checks::social::{act, token_with_scopes};
use crate::conformance::{
    Check, CheckResult, Cx, Failure, User, expect_error, ids_of, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "accounts/follow/relationship",
            "after a follow the follower's relationship says following and the followed's says followed_by",
            follow_relationship
        ),
        check!(
            "accounts/follow/twice-no-error",
            "following an account already followed succeeds without error",
            follow_twice
        ),
        check!(
            "accounts/follow/self-refused",
            "an account cannot follow itself (4xx, and no follow is made)",
            follow_self
        ),
        check!(
            "accounts/follow/unknown-404",
            "following an unknown account is a 404",
            follow_unknown
        ),
        check!(
            "accounts/follow/no-token-401",
            "following without a token is a 401",
            follow_no_token
        ),
        check!(
            "accounts/follow/scope-403",
            "following with a token lacking write:follows is a 403",
            follow_scope
        ),
        check!(
            "accounts/follow/blocked-403",
            "following an account that blocks the caller is a 403 and makes no follow",
            follow_blocked
        ),
        check!(
            "accounts/follow/options-default",
            "a new follow shows reblogs, does not notify and has no language filter (languages null)",
            follow_options_default
        ),
        check!(
            "accounts/follow/options-set",
            "reblogs, notify and languages[] given on follow show in the relationship as showing_reblogs, notifying and languages",
            follow_options_set
        ),
        check!(
            "accounts/follow/options-update",
            "following again updates only the options given and stays a follow",
            follow_options_update
        ),
        check!(
            "accounts/follow/languages-invalid-422",
            "a languages[] entry that is not an ISO 639-1 code is a 422 and makes no follow",
            follow_languages_invalid
        ),
        check!(
            "follow_requests/authorize-keeps-options",
            "a request to a locked account carries the follow options; authorizing it makes a follow with them",
            authorize_keeps_options
        ),
        check!(
            "accounts/remove-from-followers/relationship",
            "remove_from_followers ends the other account's follow: followed_by false for the caller, following false for it",
            remove_from_followers
        ),
        check!(
            "accounts/remove-from-followers/not-following-no-error",
            "remove_from_followers for an account that does not follow the caller succeeds",
            remove_not_following
        ),
        check!(
            "accounts/remove-from-followers/unknown-404",
            "remove_from_followers for an unknown account is a 404",
            remove_unknown
        ),
        check!(
            "accounts/remove-from-followers/no-token-401",
            "remove_from_followers without a token is a 401",
            remove_no_token
        ),
        check!(
            "accounts/remove-from-followers/scope-403",
            "remove_from_followers with a token lacking write:follows is a 403",
            remove_scope
        ),
        check!(
            "accounts/follow/home-gets-new-posts",
            "a followed account's new public post appears in the follower's home timeline",
            home_gets_posts
        ),
        check!(
            "accounts/unfollow/relationship",
            "after an unfollow the relationship says not following; unfollowing again is no error",
            unfollow
        ),
        check!(
            "accounts/relationships/many",
            "GET relationships answers one relationship per known id, in the order asked",
            relationships_many
        ),
        check!(
            "accounts/followers/public-paginated",
            "followers are listed without a token, newest first, paginated through the Link header without repeats",
            followers_paginated
        ),
        check!(
            "accounts/following/public",
            "the following list is public and names the followed accounts",
            following_public
        ),
        check!(
            "follow_requests/locked-account",
            "following a locked account makes a request: requested, not following, listed in follow_requests",
            locked_request
        ),
        check!(
            "follow_requests/authorize",
            "authorizing a request makes the follow; the answer is the updated relationship",
            authorize
        ),
        check!(
            "follow_requests/reject",
            "rejecting a request removes it; the answer is the updated relationship",
            reject
        ),
        check!(
            "follow_requests/unknown-404",
            "authorizing a request that does not exist is a 404",
            authorize_unknown
        ),
    ]
}

async fn follow(cx: &Cx, who: &User, target: &User) -> Result<Value, Failure> {
    let r = cx
        .client
        .post(
            &path::<FollowAccount>(&[("id", &target.id)]),
            Some(&who.token),
            Body::None,
        )
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

async fn lock(cx: &Cx, user: &User) -> CheckResult {
    cx.client
        .patch(
            &path::<UpdateCredentials>(&[]),
            Some(&user.token),
            form(&[("locked", "true")]),
        )
        .await?
        .expect(200)?;
    Ok(())
}

async fn follow_relationship(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fa").await?, cx.new_user("fb").await?);
    let rel = follow(cx, &a, &b).await?;
    ensure!(
        rel["id"] == b.id.as_str() && rel["following"] == true,
        "follow answered {rel}"
    );
    let back = cx.relationship(&b, &a).await?;
    ensure!(
        back["followed_by"] == true && back["following"] == false,
        "the followed account sees {back}"
    );
    Ok(())
}

async fn follow_twice(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fa").await?, cx.new_user("fb").await?);
    follow(cx, &a, &b).await?;
    let again = follow(cx, &a, &b).await?;
    ensure!(
        again["following"] == true,
        "the second follow answered {again}"
    );
    Ok(())
}

async fn follow_self(cx: &Cx) -> CheckResult {
    let a = cx.new_user("self").await?;
    let r = cx
        .client
        .post(
            &path::<FollowAccount>(&[("id", &a.id)]),
            Some(&a.token),
            Body::None,
        )
        .await?;
    ensure!(
        matches!(r.status, 403 | 404 | 422),
        "following oneself answered {} (expected 403, 404 or 422)",
        r.status
    );
    let rel = cx.relationship(&a, &a).await?;
    ensure!(
        rel["following"] == false,
        "the account follows itself: {rel}"
    );
    Ok(())
}

async fn follow_unknown(cx: &Cx) -> CheckResult {
    let a = cx.new_user("fa").await?;
    let r = cx
        .client
        .post(
            &path::<FollowAccount>(&[("id", "999999999999999999")]),
            Some(&a.token),
            Body::None,
        )
        .await?;
    expect_error(&r, 404, "following an unknown account")
}

async fn follow_no_token(cx: &Cx) -> CheckResult {
    let b = cx.new_user("fb").await?;
    let r = cx
        .client
        .post(&path::<FollowAccount>(&[("id", &b.id)]), None, Body::None)
        .await?;
    expect_error(&r, 401, "following without a token")
}

async fn home_gets_posts(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("reader").await?, cx.new_user("author").await?);
    follow(cx, &a, &b).await?;
    let status = cx
        .post_status(&b, &[("status", "for my followers")])
        .await?;
    let id = str_of(&status, "id")?;
    let r = cx
        .client
        .get(&path::<HomeTimeline>(&[]), Some(&a.token))
        .await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?).contains(&id),
        "the follower's home timeline lacks the new post {id}"
    );
    Ok(())
}

async fn unfollow(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fa").await?, cx.new_user("fb").await?);
    follow(cx, &a, &b).await?;
    let p = path::<UnfollowAccount>(&[("id", &b.id)]);
    let r = cx.client.post(&p, Some(&a.token), Body::None).await?;
    r.expect(200)?;
    ensure!(
        r.json()?["following"] == false,
        "unfollow answered {}",
        r.text
    );
    cx.client
        .post(&p, Some(&a.token), Body::None)
        .await?
        .expect(200)?;
    ensure!(
        cx.relationship(&b, &a).await?["followed_by"] == false,
        "still followed after the unfollow"
    );
    Ok(())
}

async fn relationships_many(cx: &Cx) -> CheckResult {
    let (a, b, c) = (
        cx.new_user("ra").await?,
        cx.new_user("rb").await?,
        cx.new_user("rc").await?,
    );
    follow(cx, &a, &c).await?;
    let r = cx
        .client
        .get(
            &format!(
                "{}?id[]={}&id[]={}",
                path::<GetRelationships>(&[]),
                c.id,
                b.id
            ),
            Some(&a.token),
        )
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        ids_of(v) == vec![c.id.clone(), b.id.clone()],
        "relationships for [c, b] answered ids {:?}",
        ids_of(v)
    );
    ensure!(
        v[0]["following"] == true && v[1]["following"] == false,
        "wrong flags: {v}"
    );
    Ok(())
}

async fn followers_paginated(cx: &Cx) -> CheckResult {
    let target = cx.new_user("popular").await?;
    let mut fans = Vec::new();
    for _ in 0..3 {
        let f = cx.new_user("fan").await?;
        follow(cx, &f, &target).await?;
        fans.push(f.id);
    }
    let first = cx
        .client
        .get(
            &format!("{}?limit=2", path::<GetFollowers>(&[("id", &target.id)])),
            None,
        )
        .await?;
    first.expect(200)?;
    let page1 = ids_of(first.json()?);
    ensure!(
        page1 == vec![fans[2].clone(), fans[1].clone()],
        "first page {page1:?}, expected the two newest followers"
    );
    let next = first
        .link("next")
        .ok_or_else(|| Failure::Fail("no Link rel=next on the first page".into()))?;
    let second = cx.client.get(&next, None).await?;
    second.expect(200)?;
    let page2 = ids_of(second.json()?);
    ensure!(
        page2 == vec![fans[0].clone()],
        "second page {page2:?}, expected the oldest follower"
    );
    Ok(())
}

async fn following_public(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fa").await?, cx.new_user("fb").await?);
    follow(cx, &a, &b).await?;
    let r = cx
        .client
        .get(&path::<GetFollowing>(&[("id", &a.id)]), None)
        .await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?) == vec![b.id.clone()],
        "following lists {:?}",
        ids_of(r.json()?)
    );
    Ok(())
}

async fn locked_request(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("asker").await?, cx.new_user("locked").await?);
    lock(cx, &b).await?;
    let rel = follow(cx, &a, &b).await?;
    ensure!(
        rel["requested"] == true && rel["following"] == false,
        "following a locked account answered {rel}"
    );
    let r = cx
        .client
        .get(&path::<ListFollowRequests>(&[]), Some(&b.token))
        .await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?) == vec![a.id.clone()],
        "follow_requests lists {:?}",
        ids_of(r.json()?)
    );
    Ok(())
}

async fn authorize(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("asker").await?, cx.new_user("locked").await?);
    lock(cx, &b).await?;
    follow(cx, &a, &b).await?;
    let r = cx
        .client
        .post(
            &path::<AuthorizeFollowRequest>(&[("account_id", &a.id)]),
            Some(&b.token),
            Body::None,
        )
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["id"] == a.id.as_str() && v["followed_by"] == true && v["requested_by"] == false,
        "authorize answered {v}"
    );
    ensure!(
        cx.relationship(&a, &b).await?["following"] == true,
        "the requester does not follow after authorization"
    );
    Ok(())
}

async fn reject(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("asker").await?, cx.new_user("locked").await?);
    lock(cx, &b).await?;
    follow(cx, &a, &b).await?;
    let r = cx
        .client
        .post(
            &path::<RejectFollowRequest>(&[("account_id", &a.id)]),
            Some(&b.token),
            Body::None,
        )
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["followed_by"] == false && v["requested_by"] == false,
        "reject answered {v}"
    );
    let rel = cx.relationship(&a, &b).await?;
    ensure!(
        rel["requested"] == false && rel["following"] == false,
        "after the rejection the requester sees {rel}"
    );
    Ok(())
}

async fn authorize_unknown(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("nobody").await?, cx.new_user("locked").await?);
    let r = cx
        .client
        .post(
            &path::<AuthorizeFollowRequest>(&[("account_id", &a.id)]),
            Some(&b.token),
            Body::None,
        )
        .await?;
    expect_error(&r, 404, "authorizing a request that does not exist")
}

async fn follow_scope(cx: &Cx) -> CheckResult {
    let b = cx.new_user("fb").await?;
    let token = token_with_scopes(cx, "read").await?;
    let r = cx
        .client
        .post(
            &path::<FollowAccount>(&[("id", &b.id)]),
            Some(&token),
            Body::None,
        )
        .await?;
    expect_error(&r, 403, "following with a read-only token")
}

async fn follow_blocked(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("blocked").await?, cx.new_user("blocker").await?);
    act::<BlockAccount>(cx, &b, &a, &[]).await?;
    let r = cx
        .client
        .post(
            &path::<FollowAccount>(&[("id", &b.id)]),
            Some(&a.token),
            Body::None,
        )
        .await?;
    expect_error(&r, 403, "following an account that blocks the caller")?;
    let rel = cx.relationship(&a, &b).await?;
    ensure!(
        rel["following"] == false && rel["requested"] == false,
        "the refused follow was made: {rel}"
    );
    Ok(())
}

async fn follow_options_default(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fa").await?, cx.new_user("fb").await?);
    let rel = follow(cx, &a, &b).await?;
    ensure!(
        rel["showing_reblogs"] == true && rel["notifying"] == false && rel["languages"].is_null(),
        "a follow with default options answered {rel}"
    );
    Ok(())
}

async fn follow_options_set(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fa").await?, cx.new_user("fb").await?);
    let rel = act::<FollowAccount>(
        cx,
        &a,
        &b,
        &[
            ("reblogs", "false"),
            ("notify", "true"),
            ("languages[]", "en"),
            ("languages[]", "de"),
        ],
    )
    .await?;
    let want = |rel: &Value| {
        rel["following"] == true
            && rel["showing_reblogs"] == false
            && rel["notifying"] == true
            && rel["languages"] == serde_json::json!(["en", "de"])
    };
    ensure!(want(&rel), "the follow answered {rel}");
    let later = cx.relationship(&a, &b).await?;
    ensure!(want(&later), "relationships show {later}");
    Ok(())
}

async fn follow_options_update(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fa").await?, cx.new_user("fb").await?);
    act::<FollowAccount>(cx, &a, &b, &[("notify", "true"), ("languages[]", "fr")]).await?;
    let rel = act::<FollowAccount>(cx, &a, &b, &[("reblogs", "false")]).await?;
    ensure!(
        rel["following"] == true
            && rel["showing_reblogs"] == false
            && rel["notifying"] == true
            && rel["languages"] == serde_json::json!(["fr"]),
        "following again with reblogs=false answered {rel}"
    );
    let back = cx.relationship(&b, &a).await?;
    ensure!(back["followed_by"] == true, "the follow was lost: {back}");
    Ok(())
}

async fn follow_languages_invalid(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("fa").await?, cx.new_user("fb").await?);
    let r = cx
        .client
        .post(
            &path::<FollowAccount>(&[("id", &b.id)]),
            Some(&a.token),
            form(&[("languages[]", "en"), ("languages[]", "english")]),
        )
        .await?;
    expect_error(&r, 422, "following with languages[]=english")?;
    ensure!(
        cx.relationship(&a, &b).await?["following"] == false,
        "the refused follow was made"
    );
    Ok(())
}

async fn authorize_keeps_options(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("asker").await?, cx.new_user("locked").await?);
    lock(cx, &b).await?;
    let rel = act::<FollowAccount>(
        cx,
        &a,
        &b,
        &[
            ("reblogs", "false"),
            ("notify", "true"),
            ("languages[]", "ja"),
        ],
    )
    .await?;
    ensure!(
        rel["requested"] == true && rel["notifying"] == true && rel["showing_reblogs"] == false,
        "the request answered {rel}"
    );
    cx.client
        .post(
            &path::<AuthorizeFollowRequest>(&[("account_id", &a.id)]),
            Some(&b.token),
            Body::None,
        )
        .await?
        .expect(200)?;
    let rel = cx.relationship(&a, &b).await?;
    ensure!(
        rel["following"] == true
            && rel["requested"] == false
            && rel["showing_reblogs"] == false
            && rel["notifying"] == true
            && rel["languages"] == serde_json::json!(["ja"]),
        "after authorization the requester sees {rel}"
    );
    Ok(())
}

async fn remove_from_followers(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("owner").await?, cx.new_user("fan").await?);
    follow(cx, &b, &a).await?;
    let rel = act::<RemoveFromFollowers>(cx, &a, &b, &[]).await?;
    ensure!(
        rel["id"] == b.id.as_str() && rel["followed_by"] == false,
        "remove_from_followers answered {rel}"
    );
    ensure!(
        cx.relationship(&b, &a).await?["following"] == false,
        "the removed follower still follows"
    );
    let r = cx
        .client
        .get(&path::<GetFollowers>(&[("id", &a.id)]), None)
        .await?;
    r.expect(200)?;
    ensure!(
        !ids_of(r.json()?).contains(&b.id),
        "the removed follower is still listed"
    );
    Ok(())
}

async fn remove_not_following(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("owner").await?, cx.new_user("other").await?);
    let rel = act::<RemoveFromFollowers>(cx, &a, &b, &[]).await?;
    ensure!(rel["followed_by"] == false, "answered {rel}");
    Ok(())
}

async fn remove_unknown(cx: &Cx) -> CheckResult {
    let a = cx.new_user("owner").await?;
    let r = cx
        .client
        .post(
            &path::<RemoveFromFollowers>(&[("id", "999999999999999999")]),
            Some(&a.token),
            Body::None,
        )
        .await?;
    expect_error(&r, 404, "remove_from_followers for an unknown account")
}

async fn remove_no_token(cx: &Cx) -> CheckResult {
    let b = cx.new_user("fan").await?;
    let r = cx
        .client
        .post(
            &path::<RemoveFromFollowers>(&[("id", &b.id)]),
            None,
            Body::None,
        )
        .await?;
    expect_error(&r, 401, "remove_from_followers without a token")
}

async fn remove_scope(cx: &Cx) -> CheckResult {
    let b = cx.new_user("fan").await?;
    let token = token_with_scopes(cx, "read").await?;
    let r = cx
        .client
        .post(
            &path::<RemoveFromFollowers>(&[("id", &b.id)]),
            Some(&token),
            Body::None,
        )
        .await?;
    expect_error(&r, 403, "remove_from_followers with a read-only token")
}
