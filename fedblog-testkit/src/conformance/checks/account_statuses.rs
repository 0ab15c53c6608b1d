//! An account's statuses (`GET /api/v1/accounts/:id/statuses`): who sees which visibility, the
//! filters (`exclude_replies`, `only_media`, `tagged`, `pinned`), pagination, blocks; and the
//! lists that contain an account (`GET /api/v1/accounts/:id/lists`).

use fedblog_core::api::accounts::{
    block_account::BlockAccount, follow_account::FollowAccount, get_account_lists::GetAccountLists,
    get_account_statuses::GetAccountStatuses,
};
use serde_json::Value;

use crate::check;
use crate::conformance::checks::social::{act, token_with_scopes};
use crate::conformance::{
    Check, CheckResult, Cx, Failure, User, expect_error, ids_of, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "accounts/statuses/anonymous-sees-public-unlisted",
            "without a token an account's statuses are its public and unlisted ones, newest first",
            anonymous_view
        ),
        check!(
            "accounts/statuses/follower-sees-private",
            "a follower also sees the account's followers-only statuses, not its direct ones",
            follower_view
        ),
        check!(
            "accounts/statuses/author-sees-all",
            "the author sees all of its statuses, direct ones included",
            author_view
        ),
        check!(
            "accounts/statuses/mentioned-sees-direct",
            "an account mentioned in a followers-only or direct status sees it without following",
            mentioned_view
        ),
        check!(
            "accounts/statuses/exclude-replies",
            "exclude_replies leaves out replies to other accounts but keeps replies to oneself",
            exclude_replies
        ),
        check!(
            "accounts/statuses/tagged",
            "tagged keeps statuses carrying the hashtag, matched after normalisation (case and accents)",
            tagged
        ),
        check!(
            "accounts/statuses/only-media",
            "only_media keeps only statuses with media attachments",
            only_media
        ),
        check!(
            "accounts/statuses/pinned",
            "pinned=true lists only pinned statuses (a status never pinned is not listed)",
            pinned
        ),
        check!(
            "accounts/statuses/paginated",
            "an account's statuses paginate through the Link header without repeats",
            paginated
        ),
        check!(
            "accounts/statuses/blocked-empty",
            "between two accounts where one blocks the other, each sees an empty list of the other's statuses",
            blocked_empty
        ),
        check!(
            "accounts/statuses/unknown-404",
            "the statuses of an unknown account are a 404",
            statuses_unknown
        ),
        check!(
            "accounts/statuses/scope-403",
            "the statuses of an account with a token lacking read:statuses are a 403",
            statuses_scope
        ),
        check!(
            "accounts/lists/none",
            "GET /accounts/:id/lists answers an array of the caller's lists with the account (none here)",
            lists_none
        ),
        check!(
            "accounts/lists/unknown-404",
            "GET /accounts/:id/lists for an unknown account is a 404",
            lists_unknown
        ),
        check!(
            "accounts/lists/no-token-401",
            "GET /accounts/:id/lists without a token is a 401",
            lists_no_token
        ),
        check!(
            "accounts/lists/scope-403",
            "GET /accounts/:id/lists with a token lacking read:lists is a 403",
            lists_scope
        ),
    ]
}

async fn statuses_of(
    cx: &Cx,
    owner: &User,
    viewer: Option<&User>,
    query: &str,
) -> Result<Vec<String>, Failure> {
    let mut url = path::<GetAccountStatuses>(&[("id", &owner.id)]);
    if !query.is_empty() {
        url = format!("{url}?{query}");
    }
    let r = cx
        .client
        .get(&url, viewer.map(|v| v.token.as_str()))
        .await?;
    r.expect(200)?;
    Ok(ids_of(r.json()?))
}

async fn post(cx: &Cx, user: &User, pairs: &[(&str, &str)]) -> Result<String, Failure> {
    str_of(&cx.post_status(user, pairs).await?, "id")
}

/// Posts one status of each visibility; answers their ids as (public, unlisted, private, direct).
async fn four_posts(cx: &Cx, author: &User) -> Result<[String; 4], Failure> {
    let mut ids = Vec::new();
    for v in ["public", "unlisted", "private", "direct"] {
        ids.push(
            post(
                cx,
                author,
                &[("status", &format!("a {v} post")), ("visibility", v)],
            )
            .await?,
        );
    }
    Ok([
        ids[0].clone(),
        ids[1].clone(),
        ids[2].clone(),
        ids[3].clone(),
    ])
}

async fn anonymous_view(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    let [public, unlisted, _, _] = four_posts(cx, &author).await?;
    let got = statuses_of(cx, &author, None, "").await?;
    ensure!(
        got == vec![unlisted, public],
        "anonymous readers see {got:?}"
    );
    Ok(())
}

async fn follower_view(cx: &Cx) -> CheckResult {
    let (author, fan) = (cx.new_user("author").await?, cx.new_user("fan").await?);
    act::<FollowAccount>(cx, &fan, &author, &[]).await?;
    let [public, unlisted, private, _] = four_posts(cx, &author).await?;
    let got = statuses_of(cx, &author, Some(&fan), "").await?;
    ensure!(
        got == vec![private, unlisted, public],
        "a follower sees {got:?}"
    );
    Ok(())
}

async fn author_view(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    let [public, unlisted, private, direct] = four_posts(cx, &author).await?;
    let got = statuses_of(cx, &author, Some(&author), "").await?;
    ensure!(
        got == vec![direct, private, unlisted, public],
        "the author sees {got:?}"
    );
    Ok(())
}

async fn mentioned_view(cx: &Cx) -> CheckResult {
    let (author, friend, other) = (
        cx.new_user("author").await?,
        cx.new_user("friend").await?,
        cx.new_user("other").await?,
    );
    let private = post(
        cx,
        &author,
        &[
            ("status", &format!("@{} for you", friend.username)),
            ("visibility", "private"),
        ],
    )
    .await?;
    let direct = post(
        cx,
        &author,
        &[
            ("status", &format!("@{} only you", friend.username)),
            ("visibility", "direct"),
        ],
    )
    .await?;
    let got = statuses_of(cx, &author, Some(&friend), "").await?;
    ensure!(
        got == vec![direct, private],
        "the mentioned account sees {got:?}"
    );
    let others = statuses_of(cx, &author, Some(&other), "").await?;
    ensure!(
        others.is_empty(),
        "an account not mentioned sees {others:?}"
    );
    Ok(())
}

async fn exclude_replies(cx: &Cx) -> CheckResult {
    let (author, other) = (cx.new_user("author").await?, cx.new_user("other").await?);
    let theirs = post(cx, &other, &[("status", "a thread")]).await?;
    let own = post(cx, &author, &[("status", "my thread")]).await?;
    let reply_other = post(
        cx,
        &author,
        &[
            ("status", &format!("@{} indeed", other.username)),
            ("in_reply_to_id", &theirs),
        ],
    )
    .await?;
    let reply_self = post(
        cx,
        &author,
        &[("status", "continued"), ("in_reply_to_id", &own)],
    )
    .await?;
    let all = statuses_of(cx, &author, None, "").await?;
    ensure!(
        all == vec![reply_self.clone(), reply_other, own.clone()],
        "all statuses: {all:?}"
    );
    let got = statuses_of(cx, &author, None, "exclude_replies=true").await?;
    ensure!(
        got == vec![reply_self, own],
        "with exclude_replies: {got:?}"
    );
    Ok(())
}

async fn tagged(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    let with = post(cx, &author, &[("status", "coffee #Café time")]).await?;
    post(cx, &author, &[("status", "no tag here, café")]).await?;
    post(cx, &author, &[("status", "another #tea")]).await?;
    for q in ["tagged=cafe", "tagged=CAF%C3%89", "tagged=%23Caf%C3%A9"] {
        let got = statuses_of(cx, &author, None, q).await?;
        ensure!(got == vec![with.clone()], "with {q}: {got:?}");
    }
    let none = statuses_of(cx, &author, None, "tagged=nosuchtag").await?;
    ensure!(none.is_empty(), "with an unused tag: {none:?}");
    Ok(())
}

async fn only_media(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    post(cx, &author, &[("status", "words only")]).await?;
    ensure!(
        statuses_of(cx, &author, None, "").await?.len() == 1,
        "the post is not listed at all; the check cannot tell"
    );
    let got = statuses_of(cx, &author, None, "only_media=true").await?;
    ensure!(
        got.is_empty(),
        "only_media lists a status without media: {got:?}"
    );
    Ok(())
}

async fn pinned(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    post(cx, &author, &[("status", "not pinned")]).await?;
    let got = statuses_of(cx, &author, None, "pinned=true").await?;
    ensure!(
        got.is_empty(),
        "pinned=true lists a status never pinned: {got:?}"
    );
    Ok(())
}

async fn paginated(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    let mut ids = Vec::new();
    for i in 0..3 {
        ids.push(post(cx, &author, &[("status", &format!("post {i}"))]).await?);
    }
    let url = format!(
        "{}?limit=2",
        path::<GetAccountStatuses>(&[("id", &author.id)])
    );
    let first = cx.client.get(&url, None).await?;
    first.expect(200)?;
    let page1 = ids_of(first.json()?);
    ensure!(
        page1 == vec![ids[2].clone(), ids[1].clone()],
        "first page {page1:?}"
    );
    let next = first
        .link("next")
        .ok_or_else(|| Failure::Fail("no Link rel=next on the first page".into()))?;
    let second = cx.client.get(&next, None).await?;
    second.expect(200)?;
    let page2 = ids_of(second.json()?);
    ensure!(page2 == vec![ids[0].clone()], "second page {page2:?}");
    Ok(())
}

async fn blocked_empty(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("blocker").await?, cx.new_user("blocked").await?);
    post(cx, &a, &[("status", "by the blocker")]).await?;
    post(cx, &b, &[("status", "by the blocked")]).await?;
    act::<BlockAccount>(cx, &a, &b, &[]).await?;
    let seen_by_blocked = statuses_of(cx, &a, Some(&b), "").await?;
    ensure!(
        seen_by_blocked.is_empty(),
        "the blocked account sees the blocker's statuses: {seen_by_blocked:?}"
    );
    let seen_by_blocker = statuses_of(cx, &b, Some(&a), "").await?;
    ensure!(
        seen_by_blocker.is_empty(),
        "the blocker sees the blocked account's statuses: {seen_by_blocker:?}"
    );
    ensure!(
        statuses_of(cx, &a, None, "").await?.len() == 1,
        "anonymous readers no longer see the blocker's post"
    );
    Ok(())
}

async fn statuses_unknown(cx: &Cx) -> CheckResult {
    let r = cx
        .client
        .get(
            &path::<GetAccountStatuses>(&[("id", "999999999999999999")]),
            None,
        )
        .await?;
    expect_error(&r, 404, "the statuses of an unknown account")
}

async fn statuses_scope(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    let token = token_with_scopes(cx, "write").await?;
    let r = cx
        .client
        .get(
            &path::<GetAccountStatuses>(&[("id", &author.id)]),
            Some(&token),
        )
        .await?;
    expect_error(&r, 403, "account statuses with a write-only token")
}

async fn lists(cx: &Cx, id: &str, token: Option<&str>) -> Result<crate::client::Response, Failure> {
    Ok(cx
        .client
        .get(&path::<GetAccountLists>(&[("id", id)]), token)
        .await?)
}

async fn lists_none(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("me").await?, cx.new_user("other").await?);
    let r = lists(cx, &b.id, Some(&a.token)).await?;
    r.expect(200)?;
    ensure!(
        r.json()? == &Value::Array(vec![]),
        "lists containing an account in no list: {}",
        r.text
    );
    Ok(())
}

async fn lists_unknown(cx: &Cx) -> CheckResult {
    let a = cx.new_user("me").await?;
    let r = lists(cx, "999999999999999999", Some(&a.token)).await?;
    expect_error(&r, 404, "lists of an unknown account")
}

async fn lists_no_token(cx: &Cx) -> CheckResult {
    let b = cx.new_user("other").await?;
    let r = lists(cx, &b.id, None).await?;
    expect_error(&r, 401, "lists without a token")
}

async fn lists_scope(cx: &Cx) -> CheckResult {
    let b = cx.new_user("other").await?;
    let token = token_with_scopes(cx, "write").await?;
    let r = lists(cx, &b.id, Some(&token)).await?;
    expect_error(&r, 403, "lists with a write-only token")
}
