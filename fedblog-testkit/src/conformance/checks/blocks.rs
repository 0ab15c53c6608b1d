//! Blocks and mutes: relationships, follows and endorsements ended by a block, posts kept out of
//! the blocker's and muter's views, a blocker's posts hidden from the blocked, the lists of blocks and mutes, and
//! muted followers hidden on one's own followers list.

use fedblog_core::api::accounts::{
    block_account::BlockAccount, endorse_account::EndorseAccount, follow_account::FollowAccount,
    get_account_endorsements::GetAccountEndorsements, get_followers::GetFollowers,
    get_following::GetFollowing, mute_account::MuteAccount, unblock_account::UnblockAccount,
};
use fedblog_core::api::blocks::list_blocks::ListBlocks;
use fedblog_core::api::mutes::list_mutes::ListMutes;
use fedblog_core::api::statuses::{get_status::GetStatus, reblog_status::ReblogStatus};
use fedblog_core::api::timelines::{home_timeline::HomeTimeline, public_timeline::PublicTimeline};

use crate::check;
use crate::client::Body;
use crate::conformance::checks::social::act;
use crate::conformance::{Check, CheckResult, Cx, expect_error, ids_of, path, str_of};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "accounts/block/relationship",
            "after a block the blocker sees blocking and the blocked sees blocked_by",
            block_relationship
        ),
        check!(
            "accounts/block/ends-follows",
            "a block removes follows in both directions",
            block_ends_follows
        ),
        check!(
            "accounts/block/ends-endorsements",
            "a block by either side ends the endorsement between the two accounts",
            block_ends_endorsements
        ),
        check!(
            "accounts/block/hides-blocker-posts",
            "a blocked account cannot read the blocker's posts (404)",
            block_hides_blocker_posts
        ),
        check!(
            "accounts/block/out-of-timelines",
            "the blocked account's new posts stay out of the blocker's public timeline",
            block_out_of_timelines
        ),
        check!(
            "accounts/block/hides-blocker-lists",
            "a blocked account reads the blocker's followers and following lists as empty; others still see them",
            block_hides_blocker_lists
        ),
        check!(
            "accounts/block/self-refused",
            "an account cannot block itself (4xx)",
            block_self
        ),
        check!(
            "accounts/unblock/relationship",
            "after an unblock the relationship says not blocking",
            unblock
        ),
        check!(
            "blocks/list",
            "GET /api/v1/blocks lists the blocked accounts",
            list_blocks
        ),
        check!(
            "accounts/mute/relationship",
            "a mute with a duration and without notifications shows as muting, not muting_notifications, with muting_expires_at",
            mute_relationship
        ),
        check!(
            "accounts/mute/out-of-home",
            "a muted account's new posts stay out of the muter's home timeline",
            mute_out_of_home
        ),
        check!(
            "accounts/mute/home-page-still-full",
            "posts of a muted account do not take places on the muter's home page: limit=2 still shows two posts of others",
            mute_page_full
        ),
        check!(
            "accounts/mute/reblogs-of-muted-out-of-home",
            "a followed account's reblog of a muted account's post stays out of the muter's home timeline",
            mute_hides_reblogs
        ),
        check!(
            "mutes/list",
            "GET /api/v1/mutes lists the muted accounts, newest first, with mute_expires_at (null for a mute without duration)",
            list_mutes
        ),
        check!(
            "accounts/followers/muted-hidden-on-own-list",
            "one's own followers list hides the followers one mutes; others still see them",
            muted_hidden_on_own_list
        ),
    ]
}

async fn block_relationship(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("blocker").await?, cx.new_user("blocked").await?);
    let rel = act::<BlockAccount>(cx, &a, &b, &[]).await?;
    ensure!(rel["blocking"] == true, "block answered {rel}");
    ensure!(
        cx.relationship(&b, &a).await?["blocked_by"] == true,
        "the blocked account does not see blocked_by"
    );
    Ok(())
}

async fn block_ends_follows(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("blocker").await?, cx.new_user("blocked").await?);
    act::<FollowAccount>(cx, &a, &b, &[]).await?;
    act::<FollowAccount>(cx, &b, &a, &[]).await?;
    let rel = act::<BlockAccount>(cx, &a, &b, &[]).await?;
    ensure!(
        rel["following"] == false && rel["followed_by"] == false,
        "follows survived the block: {rel}"
    );
    Ok(())
}

async fn block_hides_blocker_lists(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("blocker").await?, cx.new_user("blocked").await?);
    let other = cx.new_user("bystander").await?;
    act::<FollowAccount>(cx, &other, &a, &[]).await?;
    act::<FollowAccount>(cx, &a, &other, &[]).await?;
    act::<BlockAccount>(cx, &a, &b, &[]).await?;
    for list in [
        path::<GetFollowers>(&[("id", &a.id)]),
        path::<GetFollowing>(&[("id", &a.id)]),
    ] {
        let seen = cx.client.get(&list, Some(&b.token)).await?;
        seen.expect(200)?;
        ensure!(
            ids_of(seen.json()?).is_empty(),
            "the blocked account sees {list}: {}",
            seen.text
        );
        let public = cx.client.get(&list, Some(&other.token)).await?;
        public.expect(200)?;
        ensure!(
            ids_of(public.json()?) == vec![other.id.clone()],
            "a bystander's view of {list} changed: {}",
            public.text
        );
    }
    Ok(())
}

async fn block_hides_blocker_posts(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("blocker").await?, cx.new_user("blocked").await?);
    let status = cx.post_status(&a, &[("status", "not for you")]).await?;
    let id = str_of(&status, "id")?;
    cx.client
        .get(&path::<GetStatus>(&[("id", &id)]), Some(&b.token))
        .await?
        .expect(200)?;
    act::<BlockAccount>(cx, &a, &b, &[]).await?;
    let r = cx
        .client
        .get(&path::<GetStatus>(&[("id", &id)]), Some(&b.token))
        .await?;
    expect_error(&r, 404, "the blocked account reading the blocker's post")
}

async fn block_out_of_timelines(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("blocker").await?, cx.new_user("blocked").await?);
    act::<BlockAccount>(cx, &a, &b, &[]).await?;
    let status = cx.post_status(&b, &[("status", "can you see me")]).await?;
    let id = str_of(&status, "id")?;
    let anon = cx
        .client
        .get(&format!("{}?local=true", path::<PublicTimeline>(&[])), None)
        .await?;
    ensure!(
        ids_of(anon.json()?).contains(&id),
        "the post is not on the public timeline at all; the check cannot tell"
    );
    let r = cx
        .client
        .get(
            &format!("{}?local=true", path::<PublicTimeline>(&[])),
            Some(&a.token),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        !ids_of(r.json()?).contains(&id),
        "the blocker's public timeline shows the blocked account's post"
    );
    Ok(())
}

async fn block_self(cx: &Cx) -> CheckResult {
    let a = cx.new_user("self").await?;
    let r = cx
        .client
        .post(
            &path::<BlockAccount>(&[("id", &a.id)]),
            Some(&a.token),
            Body::None,
        )
        .await?;
    ensure!(
        matches!(r.status, 403 | 404 | 422),
        "blocking oneself answered {}",
        r.status
    );
    Ok(())
}

async fn unblock(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("blocker").await?, cx.new_user("blocked").await?);
    act::<BlockAccount>(cx, &a, &b, &[]).await?;
    let rel = act::<UnblockAccount>(cx, &a, &b, &[]).await?;
    ensure!(rel["blocking"] == false, "unblock answered {rel}");
    Ok(())
}

async fn list_blocks(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("blocker").await?, cx.new_user("blocked").await?);
    act::<BlockAccount>(cx, &a, &b, &[]).await?;
    let r = cx
        .client
        .get(&path::<ListBlocks>(&[]), Some(&a.token))
        .await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?) == vec![b.id.clone()],
        "blocks lists {:?}",
        ids_of(r.json()?)
    );
    Ok(())
}

async fn mute_relationship(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("muter").await?, cx.new_user("muted").await?);
    let rel = act::<MuteAccount>(
        cx,
        &a,
        &b,
        &[("notifications", "false"), ("duration", "3600")],
    )
    .await?;
    ensure!(
        rel["muting"] == true && rel["muting_notifications"] == false,
        "mute answered {rel}"
    );
    ensure!(
        rel["muting_expires_at"].is_string(),
        "a mute with a duration has no muting_expires_at: {rel}"
    );
    Ok(())
}

async fn mute_out_of_home(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("muter").await?, cx.new_user("muted").await?);
    act::<FollowAccount>(cx, &a, &b, &[]).await?;
    act::<MuteAccount>(cx, &a, &b, &[]).await?;
    let status = cx.post_status(&b, &[("status", "muted words")]).await?;
    let id = str_of(&status, "id")?;
    let r = cx
        .client
        .get(&path::<HomeTimeline>(&[]), Some(&a.token))
        .await?;
    r.expect(200)?;
    ensure!(
        !ids_of(r.json()?).contains(&id),
        "the muter's home timeline shows the muted account's post"
    );
    Ok(())
}

async fn mute_hides_reblogs(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("muter").await?, cx.new_user("muted").await?);
    let booster = cx.new_user("booster").await?;
    act::<FollowAccount>(cx, &a, &booster, &[]).await?;
    act::<MuteAccount>(cx, &a, &b, &[]).await?;
    let status = cx.post_status(&b, &[("status", "boosted words")]).await?;
    let id = str_of(&status, "id")?;
    let r = cx
        .client
        .post(
            &path::<ReblogStatus>(&[("id", &id)]),
            Some(&booster.token),
            Body::None,
        )
        .await?;
    r.expect(200)?;
    let reblog_id = str_of(r.json()?, "id")?;
    let home = cx
        .client
        .get(&path::<HomeTimeline>(&[]), Some(&a.token))
        .await?;
    home.expect(200)?;
    let ids = ids_of(home.json()?);
    ensure!(
        !ids.contains(&reblog_id) && !ids.contains(&id),
        "the muter's home shows a reblog of the muted account's post: {ids:?}"
    );
    Ok(())
}

async fn list_mutes(cx: &Cx) -> CheckResult {
    let a = cx.new_user("muter").await?;
    let (b, c) = (cx.new_user("muted").await?, cx.new_user("muted").await?);
    act::<MuteAccount>(cx, &a, &b, &[]).await?;
    act::<MuteAccount>(cx, &a, &c, &[("duration", "3600")]).await?;
    let r = cx
        .client
        .get(&path::<ListMutes>(&[]), Some(&a.token))
        .await?;
    r.expect(200)?;
    let list = r.json()?;
    ensure!(
        ids_of(list) == vec![c.id.clone(), b.id.clone()],
        "mutes lists {:?}",
        ids_of(list)
    );
    ensure!(
        list[0]["mute_expires_at"].is_string() && list[1]["mute_expires_at"].is_null(),
        "mute_expires_at should be set for the mute with a duration only: {list}"
    );
    Ok(())
}

async fn muted_hidden_on_own_list(cx: &Cx) -> CheckResult {
    let (a, b) = (cx.new_user("owner").await?, cx.new_user("fan").await?);
    act::<FollowAccount>(cx, &b, &a, &[]).await?;
    act::<MuteAccount>(cx, &a, &b, &[]).await?;
    let own = cx
        .client
        .get(&path::<GetFollowers>(&[("id", &a.id)]), Some(&a.token))
        .await?;
    own.expect(200)?;
    ensure!(
        !ids_of(own.json()?).contains(&b.id),
        "one's own followers list shows a muted follower"
    );
    let public = cx
        .client
        .get(&path::<GetFollowers>(&[("id", &a.id)]), None)
        .await?;
    public.expect(200)?;
    ensure!(
        ids_of(public.json()?).contains(&b.id),
        "the public followers list hides the follower"
    );
    Ok(())
}

async fn mute_page_full(cx: &Cx) -> CheckResult {
    let (a, b, c) = (
        cx.new_user("muter").await?,
        cx.new_user("muted").await?,
        cx.new_user("other").await?,
    );
    act::<FollowAccount>(cx, &a, &b, &[]).await?;
    act::<FollowAccount>(cx, &a, &c, &[]).await?;
    act::<MuteAccount>(cx, &a, &b, &[]).await?;
    let mut shown = Vec::new();
    for i in 0..2 {
        shown.push(str_of(
            &cx.post_status(&c, &[("status", format!("shown {i}").as_str())])
                .await?,
            "id",
        )?);
    }
    for i in 0..3 {
        cx.post_status(&b, &[("status", format!("hidden {i}").as_str())])
            .await?;
    }
    shown.reverse();
    let r = cx
        .client
        .get(
            &format!("{}?limit=2", path::<HomeTimeline>(&[])),
            Some(&a.token),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?) == shown,
        "home with limit=2 shows {:?}, expected the other account's two posts {shown:?}",
        ids_of(r.json()?)
    );
    Ok(())
}

async fn block_ends_endorsements(cx: &Cx) -> CheckResult {
    let (a, b, c) = (
        cx.new_user("fan").await?,
        cx.new_user("star").await?,
        cx.new_user("star").await?,
    );
    for star in [&b, &c] {
        act::<FollowAccount>(cx, &a, star, &[]).await?;
        act::<EndorseAccount>(cx, &a, star, &[]).await?;
    }
    // The endorsed account blocks the endorser; the endorser blocks another endorsed account.
    act::<BlockAccount>(cx, &b, &a, &[]).await?;
    let rel = act::<BlockAccount>(cx, &a, &c, &[]).await?;
    ensure!(
        rel["endorsed"] == false,
        "the blocker still endorses the blocked account: {rel}"
    );
    ensure!(
        cx.relationship(&a, &b).await?["endorsed"] == false,
        "the endorsement survived the endorsed account's block"
    );
    let r = cx
        .client
        .get(&path::<GetAccountEndorsements>(&[("id", &a.id)]), None)
        .await?;
    r.expect(200)?;
    ensure!(
        ids_of(r.json()?).is_empty(),
        "endorsements still listed after the blocks: {:?}",
        ids_of(r.json()?)
    );
    Ok(())
}
