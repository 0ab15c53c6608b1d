//! Follows between accounts: following (twice is fine), locked accounts and follow requests,
//! unfollowing, relationships, and the public followers and following lists with pagination.

use fedblog_core::api::accounts::{
    follow_account::FollowAccount, get_followers::GetFollowers, get_following::GetFollowing,
    get_relationships::GetRelationships, unfollow_account::UnfollowAccount,
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
