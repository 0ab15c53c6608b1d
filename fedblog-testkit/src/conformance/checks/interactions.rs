//! Interactions with statuses: favourites, reblogs, bookmarks, pins and conversation mutes, the
//! lists of who favourited or reblogged a status, the caller's favourites and bookmarks, with
//! their bad-input paths (unknown or invisible status 404, no token 401, missing scope 403, 422s).

use serde_json::Value;

use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::{
    block_account::BlockAccount, follow_account::FollowAccount,
    get_account_statuses::GetAccountStatuses,
};
use fedblog_core::api::bookmarks::list_bookmarks::ListBookmarks;
use fedblog_core::api::favourites::list_favourites::ListFavourites;
use fedblog_core::api::statuses::{
    bookmark_status::BookmarkStatus, delete_status::DeleteStatus,
    favourite_status::FavouriteStatus, favourited_by::FavouritedBy, get_status::GetStatus,
    mute_conversation::MuteConversation, pin_status::PinStatus, reblog_status::ReblogStatus,
    reblogged_by::RebloggedBy, unbookmark_status::UnbookmarkStatus,
    unfavourite_status::UnfavouriteStatus, unmute_conversation::UnmuteConversation,
    unpin_status::UnpinStatus, unreblog_status::UnreblogStatus,
};
use fedblog_core::api::timelines::{home_timeline::HomeTimeline, public_timeline::PublicTimeline};

use crate::check;
use crate::client::{Response, form};
use crate::conformance::checks::social::{act, token_with_scopes};
use crate::conformance::{
    Check, CheckResult, Cx, Failure, SetUp, User, expect_error, ids_of, path,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        // Favourites
        check!(
            "statuses/favourite/sets-flag-and-count",
            "favouriting answers the status with favourited=true and favourites_count 1; favouriting again changes nothing",
            favourite_sets_flag
        ),
        check!(
            "statuses/favourite/invisible-404",
            "favouriting an unknown status, or a followers-only status of an account one does not follow, is a 404 (never 401/403)",
            favourite_invisible
        ),
        check!(
            "statuses/favourite/no-token-401",
            "favouriting without a token is a 401",
            favourite_no_token
        ),
        check!(
            "statuses/favourite/scope-403",
            "favouriting with a token lacking write:favourites is a 403",
            favourite_scope
        ),
        check!(
            "statuses/unfavourite/clears",
            "unfavouriting answers favourited=false and lowers favourites_count; unfavouriting again is not an error",
            unfavourite_clears
        ),
        check!(
            "statuses/unfavourite-after-block-allowed",
            "unfavouriting succeeds after the author blocked the caller (SEED rule 3), and the favourite is gone",
            unfavourite_after_block
        ),
        check!(
            "statuses/unfavourite/invisible-404",
            "unfavouriting a status one never favourited and may not see is a 404",
            unfavourite_invisible
        ),
        check!(
            "statuses/favourited-by/lists-accounts",
            "favourited_by lists who favourited a status, newest first, to anonymous callers too, with Link pagination on hidden ids",
            favourited_by_lists
        ),
        check!(
            "statuses/favourited-by/invisible-404",
            "favourited_by of a followers-only status is a 404 for anonymous callers and non-followers",
            favourited_by_invisible
        ),
        check!(
            "favourites/list/pagination-min-id",
            "GET /api/v1/favourites lists favourited statuses newest favourite first, with next (max_id) and prev (min_id) Link pages",
            favourites_pagination
        ),
        check!(
            "favourites/list/deleted-status-skipped",
            "a favourite whose status was deleted never yields a server error: the list leaves it out",
            favourites_deleted
        ),
        check!(
            "favourites/list/lost-access-hidden",
            "the favourites list leaves out statuses the caller may no longer see (the author blocked it)",
            favourites_lost_access
        ),
        check!(
            "favourites/list/no-token-401",
            "GET /api/v1/favourites without a token is a 401, and with a token lacking read:favourites a 403",
            favourites_auth
        ),
        // Bookmarks
        check!(
            "statuses/bookmark/sets-flag",
            "bookmarking answers bookmarked=true (again: unchanged), and unbookmarking bookmarked=false",
            bookmark_sets_flag
        ),
        check!(
            "statuses/bookmark/invisible-404",
            "bookmarking an unknown status or a direct status that does not mention the caller is a 404",
            bookmark_invisible
        ),
        check!(
            "statuses/bookmark/auth",
            "bookmarking without a token is a 401, and with a token lacking write:bookmarks a 403",
            bookmark_auth
        ),
        check!(
            "statuses/unbookmark-after-block-allowed",
            "unbookmarking succeeds after the author blocked the caller (SEED rule 3), and the bookmark is gone",
            unbookmark_after_block
        ),
        check!(
            "bookmarks/list/pagination-min-id",
            "GET /api/v1/bookmarks lists bookmarked statuses newest bookmark first, with next (max_id) and prev (min_id) Link pages",
            bookmarks_pagination
        ),
        check!(
            "bookmarks/list/deleted-status-skipped",
            "a bookmark whose status was deleted never yields a server error: the list leaves it out",
            bookmarks_deleted
        ),
        check!(
            "bookmarks/list/auth",
            "GET /api/v1/bookmarks without a token is a 401, and with a token lacking read:bookmarks a 403",
            bookmarks_auth
        ),
        // Reblogs
        check!(
            "statuses/reblog/wraps-original",
            "a reblog is a new status with reblog = the original, reblogged=true, and raises the original's reblogs_count",
            reblog_wraps
        ),
        check!(
            "statuses/reblog/twice-returns-existing",
            "reblogging a status twice answers the same reblog and counts it once",
            reblog_twice
        ),
        check!(
            "statuses/reblog/visibility",
            "a reblog takes the visibility asked (public, unlisted, private); direct or an unknown visibility is a 422",
            reblog_visibility
        ),
        check!(
            "statuses/reblog/private-and-direct-refused-422",
            "others' followers-only statuses and direct statuses cannot be reblogged (422); one's own followers-only status can, and its reblog stays private",
            reblog_private
        ),
        check!(
            "statuses/reblog/bad-input",
            "reblogging an unknown or invisible status is a 404, without a token a 401, with a token lacking write:statuses a 403",
            reblog_bad_input
        ),
        check!(
            "statuses/reblog/home-of-followers",
            "a reblog reaches the home timeline of the reblogger's followers, except those following with reblogs=false",
            reblog_home
        ),
        check!(
            "statuses/reblog/profile-not-public-timeline",
            "a reblog is listed with the reblogger's statuses (not with exclude_reblogs=true) and never on the public timeline",
            reblog_profile
        ),
        check!(
            "statuses/reblog/visible-iff-original",
            "a reblog of a status is a 404 for whoever may not see the original, and goes when the original is deleted",
            reblog_visible_iff_original
        ),
        check!(
            "statuses/unreblog/removes",
            "unreblogging answers the original with reblogged=false, lowers reblogs_count, and the reblog is gone; again is not an error",
            unreblog_removes
        ),
        check!(
            "statuses/unreblog-after-block-allowed",
            "unreblogging succeeds after the author blocked the caller (SEED rule 3), and the reblog is gone",
            unreblog_after_block
        ),
        check!(
            "statuses/reblogged-by/lists-accounts",
            "reblogged_by lists who reblogged a status, to anonymous callers too; unknown status 404",
            reblogged_by_lists
        ),
        // Pins
        check!(
            "statuses/pin/own-and-private",
            "one's public and followers-only statuses can be pinned (pinned=true) and are listed by pinned=true newest pin first; unpin lists them no more",
            pin_own
        ),
        check!(
            "statuses/pin/refused-422",
            "pinning someone else's status, a direct status or a reblog is a 422",
            pin_refused
        ),
        check!(
            "statuses/pin/limit-5",
            "a sixth pin is a 422; a deleted pinned status does not count towards the limit",
            pin_limit
        ),
        check!(
            "statuses/pin/bad-input",
            "pinning an unknown status is a 404, without a token a 401, with a token lacking write:accounts a 403",
            pin_bad_input
        ),
        check!(
            "statuses/pin/private-pins-hidden",
            "a pinned followers-only status is not listed by pinned=true to anonymous callers",
            pin_private_hidden
        ),
        // Conversation mutes
        check!(
            "statuses/mute/sets-muted",
            "muting a conversation answers muted=true, also for other statuses of the thread; unmuting answers muted=false",
            mute_sets_muted
        ),
        check!(
            "statuses/mute/bad-input",
            "muting the conversation of an invisible status is a 404, without a token a 401, with a token lacking write:mutes a 403",
            mute_bad_input
        ),
    ]
}

/// An id no server has issued (a snowflake far in the future).
const UNKNOWN_ID: &str = "999999999999999990";

/// POSTs to a status action (`:id` = `id`) with an optional token.
async fn on<E: Endpoint>(
    cx: &Cx,
    token: Option<&str>,
    id: &str,
    pairs: &[(&str, &str)],
) -> Result<Response, Failure> {
    Ok(cx
        .client
        .post(&path::<E>(&[("id", id)]), token, form(pairs))
        .await?)
}

/// POSTs to a status action as `who` and answers the JSON of a 200.
async fn ok<E: Endpoint>(
    cx: &Cx,
    who: &User,
    id: &str,
    pairs: &[(&str, &str)],
) -> Result<Value, Failure> {
    let r = on::<E>(cx, Some(&who.token), id, pairs).await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// `GET` a status as `token` and answers the response.
async fn get(cx: &Cx, id: &str, token: Option<&str>) -> Result<Response, Failure> {
    Ok(cx
        .client
        .get(&path::<GetStatus>(&[("id", id)]), token)
        .await?)
}

/// `GET` a status that must be visible and answers its JSON.
async fn status(cx: &Cx, id: &str, token: Option<&str>) -> Result<Value, Failure> {
    let r = get(cx, id, token).await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// Posts a status and answers its id.
async fn post_id(cx: &Cx, who: &User, pairs: &[(&str, &str)]) -> Result<String, Failure> {
    let s = cx.post_status(who, pairs).await?;
    s["id"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| Failure::Fail(format!("posted status without an id: {s}")))
}

/// A `GET` of a list as `who`, answering the response.
async fn list(cx: &Cx, url: &str, token: Option<&str>) -> Result<Response, Failure> {
    Ok(cx.client.get(url, token).await?)
}

async fn favourite_sets_flag(cx: &Cx) -> CheckResult {
    let (author, fan) = (cx.new_user("author").await?, cx.new_user("fan").await?);
    let id = post_id(cx, &author, &[("status", "like me")]).await?;
    let s = ok::<FavouriteStatus>(cx, &fan, &id, &[]).await?;
    ensure!(
        s["id"] == id.as_str() && s["favourited"] == true && s["favourites_count"] == 1,
        "favourite answered {s}"
    );
    let again = ok::<FavouriteStatus>(cx, &fan, &id, &[]).await?;
    ensure!(
        again["favourited"] == true && again["favourites_count"] == 1,
        "favouriting again answered {again}"
    );
    let seen = status(cx, &id, Some(&author.token)).await?;
    ensure!(
        seen["favourites_count"] == 1 && seen["favourited"] == false,
        "the author sees {seen}"
    );
    Ok(())
}

async fn favourite_invisible(cx: &Cx) -> CheckResult {
    let (author, other) = (cx.new_user("author").await?, cx.new_user("other").await?);
    let id = post_id(
        cx,
        &author,
        &[("status", "followers only"), ("visibility", "private")],
    )
    .await?;
    let r = on::<FavouriteStatus>(cx, Some(&other.token), &id, &[]).await?;
    expect_error(&r, 404, "favouriting a followers-only status of a stranger")?;
    let r = on::<FavouriteStatus>(cx, Some(&other.token), UNKNOWN_ID, &[]).await?;
    expect_error(&r, 404, "favouriting an unknown status")?;
    let seen = status(cx, &id, Some(&author.token)).await?;
    ensure!(
        seen["favourites_count"] == 0,
        "a refused favourite counted: {seen}"
    );
    Ok(())
}

async fn favourite_no_token(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    let id = post_id(cx, &author, &[("status", "hello")]).await?;
    let r = on::<FavouriteStatus>(cx, None, &id, &[]).await?;
    expect_error(&r, 401, "favouriting without a token")
}

async fn favourite_scope(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    let id = post_id(cx, &author, &[("status", "hello")]).await?;
    let token = token_with_scopes(cx, "read write:statuses").await?;
    let r = on::<FavouriteStatus>(cx, Some(&token), &id, &[]).await?;
    expect_error(&r, 403, "favouriting with a token without write:favourites")
}

async fn unfavourite_clears(cx: &Cx) -> CheckResult {
    let (author, fan) = (cx.new_user("author").await?, cx.new_user("fan").await?);
    let id = post_id(cx, &author, &[("status", "like me")]).await?;
    ok::<FavouriteStatus>(cx, &fan, &id, &[]).await?;
    let s = ok::<UnfavouriteStatus>(cx, &fan, &id, &[]).await?;
    ensure!(
        s["id"] == id.as_str() && s["favourited"] == false && s["favourites_count"] == 0,
        "unfavourite answered {s}"
    );
    let again = ok::<UnfavouriteStatus>(cx, &fan, &id, &[]).await?;
    ensure!(
        again["favourited"] == false && again["favourites_count"] == 0,
        "unfavouriting again answered {again}"
    );
    Ok(())
}

async fn unfavourite_after_block(cx: &Cx) -> CheckResult {
    let (author, fan) = (cx.new_user("author").await?, cx.new_user("fan").await?);
    let id = post_id(cx, &author, &[("status", "like me")]).await?;
    ok::<FavouriteStatus>(cx, &fan, &id, &[]).await?;
    act::<BlockAccount>(cx, &author, &fan, &[])
        .await
        .setup("blocking the caller")?;
    expect_error(
        &get(cx, &id, Some(&fan.token)).await?,
        404,
        "the blocked fan reading the status",
    )
    .setup("the block hiding the status from the caller (what makes this rule matter)")?;
    let s = ok::<UnfavouriteStatus>(cx, &fan, &id, &[]).await?;
    ensure!(s["favourited"] == false, "unfavourite answered {s}");
    let seen = status(cx, &id, Some(&author.token)).await?;
    ensure!(
        seen["favourites_count"] == 0,
        "the favourite survived: {seen}"
    );
    Ok(())
}

async fn unfavourite_invisible(cx: &Cx) -> CheckResult {
    let (author, other) = (cx.new_user("author").await?, cx.new_user("other").await?);
    let id = post_id(
        cx,
        &author,
        &[("status", "followers only"), ("visibility", "private")],
    )
    .await?;
    let r = on::<UnfavouriteStatus>(cx, Some(&other.token), &id, &[]).await?;
    expect_error(
        &r,
        404,
        "unfavouriting an invisible status never favourited",
    )?;
    let r = on::<UnfavouriteStatus>(cx, Some(&other.token), UNKNOWN_ID, &[]).await?;
    expect_error(&r, 404, "unfavouriting an unknown status")
}

async fn favourited_by_lists(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    let (c, d) = (cx.new_user("fan_c").await?, cx.new_user("fan_d").await?);
    let id = post_id(cx, &author, &[("status", "popular")]).await?;
    ok::<FavouriteStatus>(cx, &c, &id, &[]).await?;
    ok::<FavouriteStatus>(cx, &d, &id, &[]).await?;
    let url = path::<FavouritedBy>(&[("id", &id)]);
    let r = list(cx, &url, None).await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?) == vec![d.id.clone(), c.id.clone()],
        "favourited_by answered {} (expected [{}, {}])",
        r.text,
        d.id,
        c.id
    );
    let first = list(cx, &format!("{url}?limit=1"), Some(&author.token)).await?;
    first.expect(200)?;
    ensure!(
        ids_of(first.json()?) == vec![d.id.clone()],
        "limit=1 answered {}",
        first.text
    );
    let next = first
        .link("next")
        .ok_or_else(|| Failure::Fail(format!("no next link: {:?}", first.header("link"))))?;
    let second = list(cx, &next, Some(&author.token)).await?;
    second.expect(200)?;
    ensure!(
        ids_of(second.json()?) == vec![c.id.clone()],
        "the next page answered {}",
        second.text
    );
    let r = list(
        cx,
        &path::<FavouritedBy>(&[("id", UNKNOWN_ID)]),
        Some(&author.token),
    )
    .await?;
    expect_error(&r, 404, "favourited_by of an unknown status")
}

async fn favourited_by_invisible(cx: &Cx) -> CheckResult {
    let (author, other) = (cx.new_user("author").await?, cx.new_user("other").await?);
    let id = post_id(
        cx,
        &author,
        &[("status", "followers only"), ("visibility", "private")],
    )
    .await?;
    let url = path::<FavouritedBy>(&[("id", &id)]);
    expect_error(
        &list(cx, &url, None).await?,
        404,
        "favourited_by of a followers-only status, anonymously",
    )?;
    expect_error(
        &list(cx, &url, Some(&other.token)).await?,
        404,
        "favourited_by of a followers-only status, as a non-follower",
    )?;
    list(cx, &url, Some(&author.token)).await?.expect(200)?;
    Ok(())
}

/// Checks a list of the caller's statuses (favourites, bookmarks) after `mark` was applied to
/// three statuses in order: newest mark first, next and prev pages, min_id.
async fn marked_list_pagination<Mark: Endpoint, List: Endpoint>(
    cx: &Cx,
    what: &str,
) -> CheckResult {
    let (author, me) = (cx.new_user("author").await?, cx.new_user("me").await?);
    let mut ids = Vec::new();
    for n in 0..3 {
        ids.push(post_id(cx, &author, &[("status", format!("post {n}").as_str())]).await?);
    }
    // Marked in the order 2, 0, 1: the list follows the marks, not the statuses' ids.
    for i in [2, 0, 1] {
        ok::<Mark>(cx, &me, &ids[i], &[]).await?;
    }
    let url = path::<List>(&[]);
    let all = list(cx, &url, Some(&me.token)).await?;
    all.expect(200)?;
    let expected = vec![ids[1].clone(), ids[0].clone(), ids[2].clone()];
    ensure!(
        ids_of(all.json()?) == expected,
        "{what} answered {:?} (expected newest mark first {expected:?})",
        ids_of(all.json()?)
    );
    let first = list(cx, &format!("{url}?limit=1"), Some(&me.token)).await?;
    first.expect(200)?;
    ensure!(
        ids_of(first.json()?) == vec![ids[1].clone()],
        "{what}?limit=1 answered {}",
        first.text
    );
    let next = first.link("next").ok_or_else(|| {
        Failure::Fail(format!("{what}: no next link: {:?}", first.header("link")))
    })?;
    let second = list(cx, &next, Some(&me.token)).await?;
    second.expect(200)?;
    ensure!(
        ids_of(second.json()?) == vec![ids[0].clone()],
        "{what}: the next page answered {}",
        second.text
    );
    let prev = second.link("prev").ok_or_else(|| {
        Failure::Fail(format!("{what}: no prev link: {:?}", second.header("link")))
    })?;
    ensure!(
        prev.contains("min_id="),
        "{what}: the prev link {prev} does not paginate by min_id"
    );
    let back = list(cx, &prev, Some(&me.token)).await?;
    back.expect(200)?;
    ensure!(
        ids_of(back.json()?) == vec![ids[1].clone()],
        "{what}: the prev page (min_id) answered {}",
        back.text
    );
    Ok(())
}

/// Checks that a list of the caller's statuses (favourites, bookmarks) leaves out a deleted
/// status without an error.
async fn marked_list_deleted<Mark: Endpoint, List: Endpoint>(cx: &Cx, what: &str) -> CheckResult {
    let (author, me) = (cx.new_user("author").await?, cx.new_user("me").await?);
    let keep = post_id(cx, &author, &[("status", "stays")]).await?;
    let gone = post_id(cx, &author, &[("status", "goes")]).await?;
    ok::<Mark>(cx, &me, &keep, &[]).await?;
    ok::<Mark>(cx, &me, &gone, &[]).await?;
    cx.client
        .delete(&path::<DeleteStatus>(&[("id", &gone)]), Some(&author.token))
        .await?
        .expect(200)?;
    let r = list(cx, &path::<List>(&[]), Some(&me.token)).await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?) == vec![keep.clone()],
        "{what} after the deletion answered {} (expected only {keep})",
        r.text
    );
    Ok(())
}

async fn favourites_pagination(cx: &Cx) -> CheckResult {
    marked_list_pagination::<FavouriteStatus, ListFavourites>(cx, "favourites").await
}

async fn favourites_deleted(cx: &Cx) -> CheckResult {
    marked_list_deleted::<FavouriteStatus, ListFavourites>(cx, "favourites").await
}

async fn favourites_lost_access(cx: &Cx) -> CheckResult {
    let (author, me) = (cx.new_user("author").await?, cx.new_user("me").await?);
    let id = post_id(cx, &author, &[("status", "soon hidden")]).await?;
    ok::<FavouriteStatus>(cx, &me, &id, &[]).await?;
    act::<BlockAccount>(cx, &author, &me, &[]).await?;
    let r = list(cx, &path::<ListFavourites>(&[]), Some(&me.token)).await?;
    r.expect(200)?;
    ensure!(
        !ids_of(r.json()?).contains(&id),
        "the favourites list shows a status whose author blocked the caller: {}",
        r.text
    );
    Ok(())
}

async fn favourites_auth(cx: &Cx) -> CheckResult {
    let url = path::<ListFavourites>(&[]);
    expect_error(
        &list(cx, &url, None).await?,
        401,
        "favourites without a token",
    )?;
    let token = token_with_scopes(cx, "write read:bookmarks").await?;
    expect_error(
        &list(cx, &url, Some(&token)).await?,
        403,
        "favourites with a token without read:favourites",
    )
}

async fn bookmark_sets_flag(cx: &Cx) -> CheckResult {
    let (author, me) = (cx.new_user("author").await?, cx.new_user("reader").await?);
    let id = post_id(cx, &author, &[("status", "keep this")]).await?;
    let s = ok::<BookmarkStatus>(cx, &me, &id, &[]).await?;
    ensure!(
        s["id"] == id.as_str() && s["bookmarked"] == true,
        "bookmark answered {s}"
    );
    let again = ok::<BookmarkStatus>(cx, &me, &id, &[]).await?;
    ensure!(
        again["bookmarked"] == true,
        "bookmarking again answered {again}"
    );
    let seen = status(cx, &id, Some(&me.token)).await?;
    ensure!(seen["bookmarked"] == true, "reading it answers {seen}");
    let other = status(cx, &id, Some(&author.token)).await?;
    ensure!(
        other["bookmarked"] == false,
        "the author sees the reader's bookmark: {other}"
    );
    let s = ok::<UnbookmarkStatus>(cx, &me, &id, &[]).await?;
    ensure!(s["bookmarked"] == false, "unbookmark answered {s}");
    let again = ok::<UnbookmarkStatus>(cx, &me, &id, &[]).await?;
    ensure!(
        again["bookmarked"] == false,
        "unbookmarking again answered {again}"
    );
    Ok(())
}

async fn bookmark_invisible(cx: &Cx) -> CheckResult {
    let (author, other) = (cx.new_user("author").await?, cx.new_user("other").await?);
    let id = post_id(
        cx,
        &author,
        &[("status", "for nobody"), ("visibility", "direct")],
    )
    .await?;
    expect_error(
        &on::<BookmarkStatus>(cx, Some(&other.token), &id, &[]).await?,
        404,
        "bookmarking a direct status not mentioning the caller",
    )?;
    expect_error(
        &on::<BookmarkStatus>(cx, Some(&other.token), UNKNOWN_ID, &[]).await?,
        404,
        "bookmarking an unknown status",
    )?;
    expect_error(
        &on::<UnbookmarkStatus>(cx, Some(&other.token), &id, &[]).await?,
        404,
        "unbookmarking an invisible status never bookmarked",
    )
}

async fn bookmark_auth(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    let id = post_id(cx, &author, &[("status", "hello")]).await?;
    expect_error(
        &on::<BookmarkStatus>(cx, None, &id, &[]).await?,
        401,
        "bookmarking without a token",
    )?;
    let token = token_with_scopes(cx, "read write:favourites").await?;
    expect_error(
        &on::<BookmarkStatus>(cx, Some(&token), &id, &[]).await?,
        403,
        "bookmarking with a token without write:bookmarks",
    )?;
    expect_error(
        &on::<UnbookmarkStatus>(cx, Some(&token), &id, &[]).await?,
        403,
        "unbookmarking with a token without write:bookmarks",
    )
}

async fn unbookmark_after_block(cx: &Cx) -> CheckResult {
    let (author, me) = (cx.new_user("author").await?, cx.new_user("reader").await?);
    act::<FollowAccount>(cx, &me, &author, &[]).await?;
    let id = post_id(
        cx,
        &author,
        &[("status", "followers only"), ("visibility", "private")],
    )
    .await?;
    ok::<BookmarkStatus>(cx, &me, &id, &[]).await?;
    act::<BlockAccount>(cx, &author, &me, &[]).await?;
    let s = ok::<UnbookmarkStatus>(cx, &me, &id, &[]).await?;
    ensure!(s["bookmarked"] == false, "unbookmark answered {s}");
    let r = list(cx, &path::<ListBookmarks>(&[]), Some(&me.token)).await?;
    r.expect(200)?;
    ensure!(
        !ids_of(r.json()?).contains(&id),
        "the bookmark survived: {}",
        r.text
    );
    Ok(())
}

async fn bookmarks_pagination(cx: &Cx) -> CheckResult {
    marked_list_pagination::<BookmarkStatus, ListBookmarks>(cx, "bookmarks").await
}

async fn bookmarks_deleted(cx: &Cx) -> CheckResult {
    marked_list_deleted::<BookmarkStatus, ListBookmarks>(cx, "bookmarks").await
}

async fn bookmarks_auth(cx: &Cx) -> CheckResult {
    let url = path::<ListBookmarks>(&[]);
    expect_error(
        &list(cx, &url, None).await?,
        401,
        "bookmarks without a token",
    )?;
    let token = token_with_scopes(cx, "write read:favourites").await?;
    expect_error(
        &list(cx, &url, Some(&token)).await?,
        403,
        "bookmarks with a token without read:bookmarks",
    )
}

async fn reblog_wraps(cx: &Cx) -> CheckResult {
    let (author, booster) = (cx.new_user("author").await?, cx.new_user("booster").await?);
    let id = post_id(cx, &author, &[("status", "boost me")]).await?;
    let r = ok::<ReblogStatus>(cx, &booster, &id, &[]).await?;
    ensure!(
        r["id"] != id.as_str()
            && r["account"]["id"] == booster.id.as_str()
            && r["reblog"]["id"] == id.as_str()
            && r["reblog"]["account"]["id"] == author.id.as_str(),
        "reblog answered {r}"
    );
    ensure!(
        r["reblogged"] == true && r["reblog"]["reblogged"] == true,
        "the reblog does not say reblogged: {r}"
    );
    ensure!(
        r["reblog"]["reblogs_count"] == 1,
        "the original's reblogs_count in the answer: {}",
        r["reblog"]["reblogs_count"]
    );
    let original = status(cx, &id, None).await?;
    ensure!(
        original["reblogs_count"] == 1,
        "the original has reblogs_count {}",
        original["reblogs_count"]
    );
    let reblog_id = r["id"].as_str().unwrap_or_default();
    let seen = status(cx, reblog_id, None).await?;
    ensure!(
        seen["reblog"]["id"] == id.as_str(),
        "reading the reblog answers {seen}"
    );
    Ok(())
}

async fn reblog_twice(cx: &Cx) -> CheckResult {
    let (author, booster) = (cx.new_user("author").await?, cx.new_user("booster").await?);
    let id = post_id(cx, &author, &[("status", "boost me twice")]).await?;
    let first = ok::<ReblogStatus>(cx, &booster, &id, &[]).await?;
    let second = ok::<ReblogStatus>(cx, &booster, &id, &[]).await?;
    ensure!(
        first["id"] == second["id"],
        "reblogging twice made two reblogs: {} and {}",
        first["id"],
        second["id"]
    );
    let original = status(cx, &id, None).await?;
    ensure!(
        original["reblogs_count"] == 1,
        "reblogs_count after two reblogs of one account: {}",
        original["reblogs_count"]
    );
    Ok(())
}

async fn reblog_visibility(cx: &Cx) -> CheckResult {
    let (author, booster) = (cx.new_user("author").await?, cx.new_user("booster").await?);
    let id = post_id(cx, &author, &[("status", "boost me quietly")]).await?;
    for bad in ["direct", "everyone"] {
        let r = on::<ReblogStatus>(cx, Some(&booster.token), &id, &[("visibility", bad)]).await?;
        expect_error(&r, 422, &format!("reblogging with visibility={bad}"))?;
    }
    let r = ok::<ReblogStatus>(cx, &booster, &id, &[("visibility", "unlisted")]).await?;
    ensure!(
        r["visibility"] == "unlisted" && r["reblog"]["visibility"] == "public",
        "a reblog with visibility=unlisted answered {r}"
    );
    Ok(())
}

async fn reblog_private(cx: &Cx) -> CheckResult {
    let (author, follower) = (cx.new_user("author").await?, cx.new_user("follower").await?);
    act::<FollowAccount>(cx, &follower, &author, &[]).await?;
    let private = post_id(
        cx,
        &author,
        &[("status", "followers only"), ("visibility", "private")],
    )
    .await?;
    expect_error(
        &on::<ReblogStatus>(cx, Some(&follower.token), &private, &[]).await?,
        422,
        "a follower reblogging a followers-only status",
    )?;
    let text = format!("@{} secret", follower.username);
    let direct = post_id(
        cx,
        &author,
        &[("status", text.as_str()), ("visibility", "direct")],
    )
    .await?;
    expect_error(
        &on::<ReblogStatus>(cx, Some(&follower.token), &direct, &[]).await?,
        422,
        "the mentioned account reblogging a direct status",
    )?;
    expect_error(
        &on::<ReblogStatus>(cx, Some(&author.token), &direct, &[]).await?,
        422,
        "the author reblogging its direct status",
    )?;
    let own = ok::<ReblogStatus>(cx, &author, &private, &[("visibility", "public")]).await?;
    ensure!(
        own["visibility"] == "private" && own["reblog"]["id"] == private.as_str(),
        "the author's reblog of its followers-only status answered {own}"
    );
    Ok(())
}

async fn reblog_bad_input(cx: &Cx) -> CheckResult {
    let (author, other) = (cx.new_user("author").await?, cx.new_user("other").await?);
    let public = post_id(cx, &author, &[("status", "hello")]).await?;
    let private = post_id(
        cx,
        &author,
        &[("status", "followers only"), ("visibility", "private")],
    )
    .await?;
    expect_error(
        &on::<ReblogStatus>(cx, Some(&other.token), UNKNOWN_ID, &[]).await?,
        404,
        "reblogging an unknown status",
    )?;
    expect_error(
        &on::<ReblogStatus>(cx, Some(&other.token), &private, &[]).await?,
        404,
        "reblogging a followers-only status of a stranger",
    )?;
    expect_error(
        &on::<ReblogStatus>(cx, None, &public, &[]).await?,
        401,
        "reblogging without a token",
    )?;
    let token = token_with_scopes(cx, "read write:favourites").await?;
    expect_error(
        &on::<ReblogStatus>(cx, Some(&token), &public, &[]).await?,
        403,
        "reblogging with a token without write:statuses",
    )?;
    expect_error(
        &on::<UnreblogStatus>(cx, Some(&token), &public, &[]).await?,
        403,
        "unreblogging with a token without write:statuses",
    )?;
    expect_error(
        &on::<UnreblogStatus>(cx, Some(&other.token), &private, &[]).await?,
        404,
        "unreblogging an invisible status never reblogged",
    )
}

/// The ids on the first page (40) of a user's home timeline.
async fn home_ids(cx: &Cx, user: &User) -> Result<Vec<String>, Failure> {
    let r = list(
        cx,
        &format!("{}?limit=40", path::<HomeTimeline>(&[])),
        Some(&user.token),
    )
    .await?;
    r.expect(200)?;
    Ok(ids_of(r.json()?))
}

async fn reblog_home(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    let booster = cx.new_user("booster").await?;
    let (fan, quiet) = (cx.new_user("fan").await?, cx.new_user("quiet").await?);
    act::<FollowAccount>(cx, &fan, &booster, &[]).await?;
    act::<FollowAccount>(cx, &quiet, &booster, &[("reblogs", "false")]).await?;
    let id = post_id(cx, &author, &[("status", "spread the word")]).await?;
    let r = ok::<ReblogStatus>(cx, &booster, &id, &[]).await?;
    let reblog_id = r["id"].as_str().unwrap_or_default().to_string();
    ensure!(
        home_ids(cx, &fan).await?.contains(&reblog_id),
        "the reblog {reblog_id} is not in a follower's home timeline"
    );
    ensure!(
        home_ids(cx, &booster).await?.contains(&reblog_id),
        "the reblog {reblog_id} is not in the reblogger's home timeline"
    );
    ensure!(
        !home_ids(cx, &quiet).await?.contains(&reblog_id),
        "the reblog {reblog_id} reached a follower that follows with reblogs=false"
    );
    let r = list(
        cx,
        &format!("{}?limit=40", path::<HomeTimeline>(&[])),
        Some(&fan.token),
    )
    .await?;
    let entry = r
        .json()?
        .as_array()
        .and_then(|a| a.iter().find(|s| s["id"] == reblog_id.as_str()).cloned())
        .unwrap_or_default();
    ensure!(
        entry["reblog"]["id"] == id.as_str(),
        "the home entry of the reblog does not nest the original: {entry}"
    );
    Ok(())
}

async fn reblog_profile(cx: &Cx) -> CheckResult {
    let (author, booster) = (cx.new_user("author").await?, cx.new_user("booster").await?);
    let id = post_id(cx, &author, &[("status", "see my profile")]).await?;
    let r = ok::<ReblogStatus>(cx, &booster, &id, &[]).await?;
    let reblog_id = r["id"].as_str().unwrap_or_default().to_string();
    let url = path::<GetAccountStatuses>(&[("id", &booster.id)]);
    let all = list(cx, &url, None).await?;
    all.expect(200)?;
    ensure!(
        ids_of(all.json()?).contains(&reblog_id),
        "the reblogger's statuses do not list the reblog: {}",
        all.text
    );
    let without = list(cx, &format!("{url}?exclude_reblogs=true"), None).await?;
    without.expect(200)?;
    ensure!(
        !ids_of(without.json()?).contains(&reblog_id),
        "exclude_reblogs=true still lists the reblog: {}",
        without.text
    );
    let public = list(
        cx,
        &format!("{}?limit=40", path::<PublicTimeline>(&[])),
        None,
    )
    .await?;
    public.expect(200)?;
    ensure!(
        !ids_of(public.json()?).contains(&reblog_id),
        "the reblog is on the public timeline"
    );
    Ok(())
}

async fn reblog_visible_iff_original(cx: &Cx) -> CheckResult {
    let (author, booster) = (cx.new_user("author").await?, cx.new_user("booster").await?);
    let reader = cx.new_user("reader").await?;
    let id = post_id(cx, &author, &[("status", "boosted then hidden")]).await?;
    let r = ok::<ReblogStatus>(cx, &booster, &id, &[]).await?;
    let reblog_id = r["id"].as_str().unwrap_or_default().to_string();
    status(cx, &reblog_id, Some(&reader.token)).await?;
    act::<BlockAccount>(cx, &author, &reader, &[]).await?;
    expect_error(
        &get(cx, &reblog_id, Some(&reader.token)).await?,
        404,
        "reading a reblog of a status whose author blocks the reader",
    )?;
    status(cx, &reblog_id, None).await?;
    cx.client
        .delete(&path::<DeleteStatus>(&[("id", &id)]), Some(&author.token))
        .await?
        .expect(200)?;
    expect_error(
        &get(cx, &reblog_id, None).await?,
        404,
        "reading a reblog of a deleted status",
    )
}

async fn unreblog_removes(cx: &Cx) -> CheckResult {
    let (author, booster) = (cx.new_user("author").await?, cx.new_user("booster").await?);
    let id = post_id(cx, &author, &[("status", "boost and take back")]).await?;
    let r = ok::<ReblogStatus>(cx, &booster, &id, &[]).await?;
    let reblog_id = r["id"].as_str().unwrap_or_default().to_string();
    let s = ok::<UnreblogStatus>(cx, &booster, &id, &[]).await?;
    ensure!(
        s["id"] == id.as_str() && s["reblogged"] == false && s["reblogs_count"] == 0,
        "unreblog answered {s}"
    );
    expect_error(
        &get(cx, &reblog_id, None).await?,
        404,
        "reading a reblog taken back",
    )?;
    let again = ok::<UnreblogStatus>(cx, &booster, &id, &[]).await?;
    ensure!(
        again["reblogged"] == false,
        "unreblogging again answered {again}"
    );
    Ok(())
}

async fn unreblog_after_block(cx: &Cx) -> CheckResult {
    let (author, booster) = (cx.new_user("author").await?, cx.new_user("booster").await?);
    let id = post_id(cx, &author, &[("status", "boost me")]).await?;
    let r = ok::<ReblogStatus>(cx, &booster, &id, &[]).await?;
    let reblog_id = r["id"].as_str().unwrap_or_default().to_string();
    act::<BlockAccount>(cx, &author, &booster, &[]).await?;
    let s = ok::<UnreblogStatus>(cx, &booster, &id, &[]).await?;
    ensure!(s["reblogged"] == false, "unreblog answered {s}");
    let statuses = list(
        cx,
        &path::<GetAccountStatuses>(&[("id", &booster.id)]),
        Some(&booster.token),
    )
    .await?;
    statuses.expect(200)?;
    ensure!(
        !ids_of(statuses.json()?).contains(&reblog_id),
        "the reblog survived: {}",
        statuses.text
    );
    let original = status(cx, &id, Some(&author.token)).await?;
    ensure!(
        original["reblogs_count"] == 0,
        "reblogs_count after the unreblog: {}",
        original["reblogs_count"]
    );
    Ok(())
}

async fn reblogged_by_lists(cx: &Cx) -> CheckResult {
    let author = cx.new_user("author").await?;
    let (c, d) = (cx.new_user("boost_c").await?, cx.new_user("boost_d").await?);
    let id = post_id(cx, &author, &[("status", "popular")]).await?;
    ok::<ReblogStatus>(cx, &c, &id, &[]).await?;
    ok::<ReblogStatus>(cx, &d, &id, &[]).await?;
    let url = path::<RebloggedBy>(&[("id", &id)]);
    let r = list(cx, &url, None).await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?) == vec![d.id.clone(), c.id.clone()],
        "reblogged_by answered {} (expected [{}, {}])",
        r.text,
        d.id,
        c.id
    );
    let first = list(cx, &format!("{url}?limit=1"), None).await?;
    first.expect(200)?;
    let next = first
        .link("next")
        .ok_or_else(|| Failure::Fail(format!("no next link: {:?}", first.header("link"))))?;
    let second = list(cx, &next, None).await?;
    second.expect(200)?;
    ensure!(
        ids_of(second.json()?) == vec![c.id.clone()],
        "the next page answered {}",
        second.text
    );
    expect_error(
        &list(cx, &path::<RebloggedBy>(&[("id", UNKNOWN_ID)]), None).await?,
        404,
        "reblogged_by of an unknown status",
    )
}

/// The ids `pinned=true` lists for an account, as `token`.
async fn pinned_ids(cx: &Cx, who: &User, token: Option<&str>) -> Result<Vec<String>, Failure> {
    let r = list(
        cx,
        &format!(
            "{}?pinned=true",
            path::<GetAccountStatuses>(&[("id", &who.id)])
        ),
        token,
    )
    .await?;
    r.expect(200)?;
    Ok(ids_of(r.json()?))
}

async fn pin_own(cx: &Cx) -> CheckResult {
    let (me, follower) = (cx.new_user("pinner").await?, cx.new_user("follower").await?);
    act::<FollowAccount>(cx, &follower, &me, &[]).await?;
    let public = post_id(cx, &me, &[("status", "pin me")]).await?;
    let private = post_id(
        cx,
        &me,
        &[("status", "pin me too"), ("visibility", "private")],
    )
    .await?;
    let s = ok::<PinStatus>(cx, &me, &private, &[]).await?;
    ensure!(
        s["pinned"] == true,
        "pinning a followers-only status answered {s}"
    );
    let s = ok::<PinStatus>(cx, &me, &public, &[]).await?;
    ensure!(s["pinned"] == true, "pin answered {s}");
    let again = ok::<PinStatus>(cx, &me, &public, &[]).await?;
    ensure!(again["pinned"] == true, "pinning again answered {again}");
    let pinned = pinned_ids(cx, &me, Some(&follower.token)).await?;
    ensure!(
        pinned == vec![public.clone(), private.clone()],
        "pinned=true answered {pinned:?} (expected newest pin first [{public}, {private}])"
    );
    let s = ok::<UnpinStatus>(cx, &me, &public, &[]).await?;
    ensure!(s["pinned"] == false, "unpin answered {s}");
    ok::<UnpinStatus>(cx, &me, &public, &[]).await?;
    let pinned = pinned_ids(cx, &me, Some(&me.token)).await?;
    ensure!(
        pinned == vec![private.clone()],
        "after the unpin pinned=true answered {pinned:?}"
    );
    Ok(())
}

async fn pin_refused(cx: &Cx) -> CheckResult {
    let (me, other) = (cx.new_user("pinner").await?, cx.new_user("other").await?);
    let theirs = post_id(cx, &other, &[("status", "not yours")]).await?;
    expect_error(
        &on::<PinStatus>(cx, Some(&me.token), &theirs, &[]).await?,
        422,
        "pinning someone else's status",
    )?;
    let direct = post_id(
        cx,
        &me,
        &[("status", "for nobody"), ("visibility", "direct")],
    )
    .await?;
    expect_error(
        &on::<PinStatus>(cx, Some(&me.token), &direct, &[]).await?,
        422,
        "pinning a direct status",
    )?;
    let r = ok::<ReblogStatus>(cx, &me, &theirs, &[]).await?;
    let reblog_id = r["id"].as_str().unwrap_or_default();
    expect_error(
        &on::<PinStatus>(cx, Some(&me.token), reblog_id, &[]).await?,
        422,
        "pinning a reblog",
    )?;
    ensure!(
        pinned_ids(cx, &me, Some(&me.token)).await?.is_empty(),
        "a refused pin was stored"
    );
    Ok(())
}

async fn pin_limit(cx: &Cx) -> CheckResult {
    let me = cx.new_user("pinner").await?;
    let mut ids = Vec::new();
    for n in 0..6 {
        ids.push(post_id(cx, &me, &[("status", format!("pin {n}").as_str())]).await?);
    }
    for id in &ids[..5] {
        ok::<PinStatus>(cx, &me, id, &[]).await?;
    }
    expect_error(
        &on::<PinStatus>(cx, Some(&me.token), &ids[5], &[]).await?,
        422,
        "a sixth pin",
    )?;
    cx.client
        .delete(&path::<DeleteStatus>(&[("id", &ids[0])]), Some(&me.token))
        .await?
        .expect(200)?;
    let s = ok::<PinStatus>(cx, &me, &ids[5], &[]).await?;
    ensure!(
        s["pinned"] == true,
        "pinning after a pinned status was deleted answered {s}"
    );
    ensure!(
        pinned_ids(cx, &me, Some(&me.token)).await?.len() == 5,
        "five pins are not listed"
    );
    Ok(())
}

async fn pin_bad_input(cx: &Cx) -> CheckResult {
    let me = cx.new_user("pinner").await?;
    let id = post_id(cx, &me, &[("status", "pin me")]).await?;
    expect_error(
        &on::<PinStatus>(cx, Some(&me.token), UNKNOWN_ID, &[]).await?,
        404,
        "pinning an unknown status",
    )?;
    expect_error(
        &on::<PinStatus>(cx, None, &id, &[]).await?,
        401,
        "pinning without a token",
    )?;
    let token = token_with_scopes(cx, "read write:statuses").await?;
    expect_error(
        &on::<PinStatus>(cx, Some(&token), &id, &[]).await?,
        403,
        "pinning with a token without write:accounts",
    )?;
    expect_error(
        &on::<UnpinStatus>(cx, Some(&token), &id, &[]).await?,
        403,
        "unpinning with a token without write:accounts",
    )?;
    expect_error(
        &on::<UnpinStatus>(cx, Some(&me.token), UNKNOWN_ID, &[]).await?,
        404,
        "unpinning an unknown status",
    )
}

async fn pin_private_hidden(cx: &Cx) -> CheckResult {
    let me = cx.new_user("pinner").await?;
    let public = post_id(cx, &me, &[("status", "for all")]).await?;
    let private = post_id(
        cx,
        &me,
        &[("status", "for followers"), ("visibility", "private")],
    )
    .await?;
    ok::<PinStatus>(cx, &me, &public, &[]).await?;
    ok::<PinStatus>(cx, &me, &private, &[]).await?;
    let seen = pinned_ids(cx, &me, None).await?;
    ensure!(
        seen == vec![public.clone()],
        "anonymous pinned=true answered {seen:?} (expected only {public})"
    );
    Ok(())
}

async fn mute_sets_muted(cx: &Cx) -> CheckResult {
    let (me, other) = (cx.new_user("muter").await?, cx.new_user("talker").await?);
    let root = post_id(cx, &me, &[("status", "a thread")]).await?;
    let reply = post_id(
        cx,
        &other,
        &[("status", "a reply"), ("in_reply_to_id", root.as_str())],
    )
    .await?;
    let unrelated = post_id(cx, &other, &[("status", "elsewhere")]).await?;
    let s = ok::<MuteConversation>(cx, &me, &root, &[]).await?;
    ensure!(s["muted"] == true, "mute answered {s}");
    ok::<MuteConversation>(cx, &me, &root, &[]).await?;
    let r = status(cx, &reply, Some(&me.token)).await?;
    ensure!(
        r["muted"] == true,
        "a reply in the muted thread answers {}",
        r["muted"]
    );
    let u = status(cx, &unrelated, Some(&me.token)).await?;
    ensure!(u["muted"] == false, "an unrelated status is muted: {u}");
    let o = status(cx, &root, Some(&other.token)).await?;
    ensure!(o["muted"] == false, "another account sees the mute: {o}");
    let s = ok::<UnmuteConversation>(cx, &me, &reply, &[]).await?;
    ensure!(s["muted"] == false, "unmute answered {s}");
    let r = status(cx, &root, Some(&me.token)).await?;
    ensure!(r["muted"] == false, "after the unmute the root answers {r}");
    Ok(())
}

async fn mute_bad_input(cx: &Cx) -> CheckResult {
    let (author, other) = (cx.new_user("author").await?, cx.new_user("other").await?);
    let public = post_id(cx, &author, &[("status", "hello")]).await?;
    let private = post_id(
        cx,
        &author,
        &[("status", "followers only"), ("visibility", "private")],
    )
    .await?;
    for (what, id) in [
        ("an invisible", private.as_str()),
        ("an unknown", UNKNOWN_ID),
    ] {
        expect_error(
            &on::<MuteConversation>(cx, Some(&other.token), id, &[]).await?,
            404,
            &format!("muting the conversation of {what} status"),
        )?;
        expect_error(
            &on::<UnmuteConversation>(cx, Some(&other.token), id, &[]).await?,
            404,
            &format!("unmuting the conversation of {what} status"),
        )?;
    }
    expect_error(
        &on::<MuteConversation>(cx, None, &public, &[]).await?,
        401,
        "muting a conversation without a token",
    )?;
    let token = token_with_scopes(cx, "read write:statuses").await?;
    expect_error(
        &on::<MuteConversation>(cx, Some(&token), &public, &[]).await?,
        403,
        "muting a conversation with a token without write:mutes",
    )
}
