//! Lists: CRUD with its limits (50 per account, the collection not paginated), members (only
//! followed accounts, all or none, paged by account id), list timelines filled at write time by
//! the replies policy and `exclusive`, and what unfollowing takes away. Also the home feed's
//! fan-out rules: replies to unfollowed accounts stay out, a follow's `languages` apply, following
//! back-fills recent posts, unfollowing removes them.

use fedblog_core::api::accounts::{
    follow_account::FollowAccount, get_account_lists::GetAccountLists,
    unfollow_account::UnfollowAccount,
};
use fedblog_core::api::lists::{
    add_list_accounts::AddListAccounts, create_list::CreateList, get_list::GetList,
    list_accounts::ListAccounts, list_lists::ListLists,
};
use fedblog_core::api::timelines::{home_timeline::HomeTimeline, list_timeline::ListTimeline};
use serde_json::Value;

use crate::check;
use crate::client::{Response, form};
use crate::conformance::checks::social::act;
use crate::conformance::{
    Check, CheckResult, Cx, Failure, User, expect_error, ids_of, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "lists/create-read-update-delete",
            "a list is made with replies_policy list and exclusive false by default, read back, changed (title, replies_policy, exclusive), listed, and deleted (then a 404)",
            crud
        ),
        check!(
            "lists/blank-title-422",
            "a missing or blank title is a 422 on create and on update, and the list keeps its title",
            blank_title
        ),
        check!(
            "lists/unknown-replies-policy-422",
            "a replies_policy other than followed, list or none is a 422",
            bad_policy
        ),
        check!(
            "lists/limit-50-not-paginated",
            "an account may have 50 lists: the 51st is a 422, and GET /api/v1/lists returns all 50 without a Link header",
            limit_50
        ),
        check!(
            "lists/others-lists-404",
            "another account's list is a 404 to read, change, delete, page its members or read its timeline",
            others_404
        ),
        check!(
            "lists/add-unfollowed-404",
            "adding an account one does not follow is a 404 and adds none of the accounts given; a followed account is added; adding it again is a 422",
            add_unfollowed
        ),
        check!(
            "lists/account-lists",
            "GET /api/v1/accounts/:id/lists names the caller's lists that hold the account",
            account_lists
        ),
        check!(
            "lists/accounts-pagination",
            "list members page by limit with a Link header; limit=0 returns every member without one",
            members_paging
        ),
        check!(
            "lists/timeline-members-only",
            "a list timeline shows its members' new posts, not others', pages with a Link header, and loses a member's posts when the member is removed",
            timeline_members
        ),
        check!(
            "lists/unfollow-removes-member",
            "unfollowing an account takes it out of one's lists and its posts out of their timelines",
            unfollow_removes
        ),
        check!(
            "lists/replies-policy",
            "a member's reply to another followed account shows in a followed-policy list, in a list-policy list only when the replied-to account is a member, never in a none-policy list; a reply to the list's owner shows in all",
            replies_policy
        ),
        check!(
            "lists/exclusive",
            "the posts of a member of an exclusive list go to that list, not to the owner's home timeline",
            exclusive
        ),
        check!(
            "lists/no-token-401",
            "lists without a token are a 401",
            no_token
        ),
        check!(
            "timelines/home/replies-to-unfollowed-hidden",
            "a followed account's reply to an account one does not follow stays out of one's home timeline; its replies to oneself and to followed accounts come in",
            home_replies
        ),
        check!(
            "timelines/home/follow-languages",
            "a follow with languages[] brings only posts in those languages (and posts without a language) into the home timeline",
            follow_languages
        ),
        check!(
            "timelines/home/follow-backfills",
            "following an account puts its recent public posts into one's home timeline",
            follow_backfills
        ),
        check!(
            "timelines/home/unfollow-removes",
            "unfollowing an account takes its posts out of one's home timeline",
            unfollow_clears_home
        ),
    ]
}

/// Makes a list with these form fields and returns its JSON.
async fn make_list(cx: &Cx, who: &User, pairs: &[(&str, &str)]) -> Result<Value, Failure> {
    let r = cx
        .client
        .post(&path::<CreateList>(&[]), Some(&who.token), form(pairs))
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// Makes a list titled `title` with this replies policy, returning its id.
async fn list_id(cx: &Cx, who: &User, title: &str, policy: &str) -> Result<String, Failure> {
    str_of(
        &make_list(cx, who, &[("title", title), ("replies_policy", policy)]).await?,
        "id",
    )
}

/// Sends a member change (`POST` or `DELETE` `/api/v1/lists/:id/accounts`).
async fn members_change(
    cx: &Cx,
    method: &str,
    who: &User,
    list: &str,
    accounts: &[&User],
) -> Result<Response, Failure> {
    let pairs: Vec<(&str, &str)> = accounts
        .iter()
        .map(|a| ("account_ids[]", a.id.as_str()))
        .collect();
    cx.send(
        method,
        &path::<AddListAccounts>(&[("id", list)]),
        Some(&who.token),
        form(&pairs),
    )
    .await
}

/// Adds members that must be added.
async fn add(cx: &Cx, who: &User, list: &str, accounts: &[&User]) -> CheckResult {
    members_change(cx, "POST", who, list, accounts)
        .await?
        .expect(200)?;
    Ok(())
}

/// A GET that must answer 200.
async fn get_ok(cx: &Cx, url: &str, who: &User) -> Result<Response, Failure> {
    let r = cx.client.get(url, Some(&who.token)).await?;
    r.expect(200)?;
    Ok(r)
}

/// The ids of the members of a list (all of them).
async fn member_ids(cx: &Cx, who: &User, list: &str) -> Result<Vec<String>, Failure> {
    let url = format!("{}?limit=0", path::<ListAccounts>(&[("id", list)]));
    Ok(ids_of(get_ok(cx, &url, who).await?.json()?))
}

/// The ids on the first page (40) of a list timeline.
async fn list_timeline(cx: &Cx, who: &User, list: &str) -> Result<Vec<String>, Failure> {
    let url = format!("{}?limit=40", path::<ListTimeline>(&[("list_id", list)]));
    Ok(ids_of(get_ok(cx, &url, who).await?.json()?))
}

/// The ids on the first page (40) of the home timeline.
async fn home(cx: &Cx, who: &User) -> Result<Vec<String>, Failure> {
    let url = format!("{}?limit=40", path::<HomeTimeline>(&[]));
    Ok(ids_of(get_ok(cx, &url, who).await?.json()?))
}

/// Posts a public status, returning its id.
async fn post(cx: &Cx, who: &User, text: &str) -> Result<String, Failure> {
    str_of(&cx.post_status(who, &[("status", text)]).await?, "id")
}

/// Posts a public reply to `parent` (mentioning its author), returning its id.
async fn reply(
    cx: &Cx,
    who: &User,
    parent: &str,
    to: &User,
    text: &str,
) -> Result<String, Failure> {
    let text = format!("@{} {text}", to.username);
    str_of(
        &cx.post_status(who, &[("status", &text), ("in_reply_to_id", parent)])
            .await?,
        "id",
    )
}

async fn crud(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("listcrud").await?;
    let made = make_list(cx, &alice, &[("title", "Friends")]).await?;
    let id = str_of(&made, "id")?;
    ensure!(
        made["title"] == "Friends"
            && made["replies_policy"] == "list"
            && made["exclusive"] == false,
        "a new list must have the title given, replies_policy list and exclusive false: {made}"
    );
    let one = path::<GetList>(&[("id", &id)]);
    let got = get_ok(cx, &one, &alice).await?;
    ensure!(
        got.json()? == &made,
        "GET /api/v1/lists/:id: {} (made {made})",
        got.text
    );
    let changed = cx
        .send(
            "PUT",
            &one,
            Some(&alice.token),
            form(&[
                ("title", "Close friends"),
                ("replies_policy", "followed"),
                ("exclusive", "true"),
            ]),
        )
        .await?;
    changed.expect(200)?;
    let v = changed.json()?;
    ensure!(
        v["id"] == made["id"]
            && v["title"] == "Close friends"
            && v["replies_policy"] == "followed"
            && v["exclusive"] == true,
        "PUT must change title, replies_policy and exclusive: {v}"
    );
    let kept = cx
        .send(
            "PUT",
            &one,
            Some(&alice.token),
            form(&[("replies_policy", "none")]),
        )
        .await?;
    kept.expect(200)?;
    ensure!(
        kept.json()?["title"] == "Close friends" && kept.json()?["exclusive"] == true,
        "PUT without a title or exclusive must keep them: {}",
        kept.text
    );
    let all = get_ok(cx, &path::<ListLists>(&[]), &alice).await?;
    ensure!(
        ids_of(all.json()?) == vec![id.clone()],
        "GET /api/v1/lists: {}",
        all.text
    );
    cx.client
        .delete(&one, Some(&alice.token))
        .await?
        .expect(200)?;
    expect_error(
        &cx.client.get(&one, Some(&alice.token)).await?,
        404,
        "GET a deleted list",
    )?;
    expect_error(
        &cx.client.delete(&one, Some(&alice.token)).await?,
        404,
        "DELETE a deleted list",
    )?;
    Ok(())
}

async fn blank_title(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("listblank").await?;
    for body in [
        form(&[("title", "  ")]),
        form(&[("replies_policy", "list")]),
    ] {
        let r = cx
            .client
            .post(&path::<CreateList>(&[]), Some(&alice.token), body)
            .await?;
        expect_error(&r, 422, "POST /api/v1/lists with a blank or no title")?;
    }
    let id = list_id(cx, &alice, "Keep", "list").await?;
    let one = path::<GetList>(&[("id", &id)]);
    let r = cx
        .send("PUT", &one, Some(&alice.token), form(&[("title", "")]))
        .await?;
    expect_error(&r, 422, "PUT a blank title")?;
    let got = get_ok(cx, &one, &alice).await?;
    ensure!(
        got.json()?["title"] == "Keep",
        "a refused PUT changed the list: {}",
        got.text
    );
    let lists = get_ok(cx, &path::<ListLists>(&[]), &alice).await?;
    ensure!(
        ids_of(lists.json()?) == vec![id],
        "a refused POST made a list: {}",
        lists.text
    );
    Ok(())
}

async fn bad_policy(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("listpolicy").await?;
    let r = cx
        .client
        .post(
            &path::<CreateList>(&[]),
            Some(&alice.token),
            form(&[("title", "x"), ("replies_policy", "everyone")]),
        )
        .await?;
    expect_error(&r, 422, "POST /api/v1/lists with replies_policy=everyone")
}

async fn limit_50(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("listlimit").await?;
    for i in 0..50 {
        make_list(cx, &alice, &[("title", &format!("list {i}"))]).await?;
    }
    let r = cx
        .client
        .post(
            &path::<CreateList>(&[]),
            Some(&alice.token),
            form(&[("title", "one too many")]),
        )
        .await?;
    expect_error(&r, 422, "the 51st list")?;
    let all = get_ok(cx, &path::<ListLists>(&[]), &alice).await?;
    let n = ids_of(all.json()?).len();
    ensure!(
        n == 50,
        "GET /api/v1/lists returned {n} lists, expected all 50"
    );
    ensure!(
        all.header("link").is_none(),
        "the lists collection is not paginated, but it has a Link header: {:?}",
        all.header("link")
    );
    Ok(())
}

async fn others_404(cx: &Cx) -> CheckResult {
    let (alice, bob) = (
        cx.new_user("listowner").await?,
        cx.new_user("listother").await?,
    );
    let id = list_id(cx, &alice, "mine", "list").await?;
    let one = path::<GetList>(&[("id", &id)]);
    expect_error(
        &cx.client.get(&one, Some(&bob.token)).await?,
        404,
        "GET another's list",
    )?;
    let put = cx
        .send("PUT", &one, Some(&bob.token), form(&[("title", "taken")]))
        .await?;
    expect_error(&put, 404, "PUT another's list")?;
    let members = path::<ListAccounts>(&[("id", &id)]);
    expect_error(
        &cx.client.get(&members, Some(&bob.token)).await?,
        404,
        "GET another's list members",
    )?;
    let timeline = path::<ListTimeline>(&[("list_id", &id)]);
    expect_error(
        &cx.client.get(&timeline, Some(&bob.token)).await?,
        404,
        "GET another's list timeline",
    )?;
    expect_error(
        &cx.client.delete(&one, Some(&bob.token)).await?,
        404,
        "DELETE another's list",
    )?;
    let got = get_ok(cx, &one, &alice).await?;
    ensure!(
        got.json()?["title"] == "mine",
        "another account changed the list: {}",
        got.text
    );
    Ok(())
}

async fn add_unfollowed(cx: &Cx) -> CheckResult {
    let (alice, bob, carol) = (
        cx.new_user("listadd").await?,
        cx.new_user("listfollowed").await?,
        cx.new_user("liststranger").await?,
    );
    act::<FollowAccount>(cx, &alice, &bob, &[]).await?;
    let id = list_id(cx, &alice, "people", "list").await?;
    let r = members_change(cx, "POST", &alice, &id, &[&bob, &carol]).await?;
    expect_error(&r, 404, "adding an account one does not follow")?;
    let now = member_ids(cx, &alice, &id).await?;
    ensure!(
        now.is_empty(),
        "a refused add must add none of the accounts, members are {now:?}"
    );
    add(cx, &alice, &id, &[&bob]).await?;
    let now = member_ids(cx, &alice, &id).await?;
    ensure!(
        now == vec![bob.id.clone()],
        "members after adding a followed account: {now:?}"
    );
    let again = members_change(cx, "POST", &alice, &id, &[&bob]).await?;
    expect_error(&again, 422, "adding a member again")?;
    Ok(())
}

async fn account_lists(cx: &Cx) -> CheckResult {
    let (alice, bob) = (
        cx.new_user("listsof").await?,
        cx.new_user("listsmember").await?,
    );
    act::<FollowAccount>(cx, &alice, &bob, &[]).await?;
    let with = list_id(cx, &alice, "with", "list").await?;
    list_id(cx, &alice, "without", "list").await?;
    add(cx, &alice, &with, &[&bob]).await?;
    let r = get_ok(cx, &path::<GetAccountLists>(&[("id", &bob.id)]), &alice).await?;
    ensure!(
        ids_of(r.json()?) == vec![with],
        "GET /api/v1/accounts/:id/lists: {}",
        r.text
    );
    let theirs = get_ok(cx, &path::<GetAccountLists>(&[("id", &bob.id)]), &bob).await?;
    ensure!(
        ids_of(theirs.json()?).is_empty(),
        "another account's lists must not show: {}",
        theirs.text
    );
    Ok(())
}

async fn members_paging(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("listpages").await?;
    let mut followed = vec![];
    for i in 0..3 {
        let u = cx.new_user(&format!("listpage{i}")).await?;
        act::<FollowAccount>(cx, &alice, &u, &[]).await?;
        followed.push(u);
    }
    let id = list_id(cx, &alice, "paged", "list").await?;
    add(cx, &alice, &id, &followed.iter().collect::<Vec<_>>()).await?;
    let first = get_ok(
        cx,
        &format!("{}?limit=2", path::<ListAccounts>(&[("id", &id)])),
        &alice,
    )
    .await?;
    let page1 = ids_of(first.json()?);
    ensure!(page1.len() == 2, "limit=2 gave {} members", page1.len());
    let next = first.link("next").ok_or_else(|| {
        Failure::Fail(format!(
            "no Link next on a full page: {:?}",
            first.header("link")
        ))
    })?;
    let page2 = ids_of(get_ok(cx, &next, &alice).await?.json()?);
    let mut seen: Vec<String> = page1.iter().chain(&page2).cloned().collect();
    seen.sort();
    let mut all: Vec<String> = followed.iter().map(|u| u.id.clone()).collect();
    all.sort();
    ensure!(
        seen == all,
        "two pages gave {page1:?} + {page2:?}, expected the members {all:?}"
    );
    let every = get_ok(
        cx,
        &format!("{}?limit=0", path::<ListAccounts>(&[("id", &id)])),
        &alice,
    )
    .await?;
    let mut got = ids_of(every.json()?);
    got.sort();
    ensure!(
        got == all,
        "limit=0 gave {got:?}, expected every member {all:?}"
    );
    ensure!(
        every.header("link").is_none(),
        "limit=0 is not paginated, but has a Link header"
    );
    Ok(())
}

async fn timeline_members(cx: &Cx) -> CheckResult {
    let (alice, bob, carol) = (
        cx.new_user("listreader").await?,
        cx.new_user("listposter").await?,
        cx.new_user("listoutside").await?,
    );
    act::<FollowAccount>(cx, &alice, &bob, &[]).await?;
    act::<FollowAccount>(cx, &alice, &carol, &[]).await?;
    let id = list_id(cx, &alice, "bob only", "list").await?;
    add(cx, &alice, &id, &[&bob]).await?;
    let mut by_bob = vec![];
    for i in 0..3 {
        by_bob.push(post(cx, &bob, &format!("for the list {i}")).await?);
    }
    let by_carol = post(cx, &carol, "not for the list").await?;
    let got = list_timeline(cx, &alice, &id).await?;
    let want: Vec<String> = by_bob.iter().rev().cloned().collect();
    ensure!(
        got.iter()
            .filter(|s| by_bob.contains(s))
            .cloned()
            .collect::<Vec<_>>()
            == want,
        "the list timeline must show the member's posts newest first: {got:?}, expected {want:?}"
    );
    ensure!(
        !got.contains(&by_carol),
        "the list timeline shows a non-member's post"
    );
    let first = get_ok(
        cx,
        &format!("{}?limit=2", path::<ListTimeline>(&[("list_id", &id)])),
        &alice,
    )
    .await?;
    let next = first
        .link("next")
        .ok_or_else(|| Failure::Fail("no Link next on a full list timeline page".into()))?;
    let rest = ids_of(get_ok(cx, &next, &alice).await?.json()?);
    ensure!(
        rest.contains(&by_bob[0]),
        "the next page of the list timeline lacks the oldest post: {rest:?}"
    );
    members_change(cx, "DELETE", &alice, &id, &[&bob])
        .await?
        .expect(200)?;
    let after = list_timeline(cx, &alice, &id).await?;
    ensure!(
        !by_bob.iter().any(|s| after.contains(s)),
        "a removed member's posts stay in the list timeline: {after:?}"
    );
    members_change(cx, "DELETE", &alice, &id, &[&carol])
        .await?
        .expect(200)?;
    Ok(())
}

async fn unfollow_removes(cx: &Cx) -> CheckResult {
    let (alice, bob) = (
        cx.new_user("listunf").await?,
        cx.new_user("listunfd").await?,
    );
    act::<FollowAccount>(cx, &alice, &bob, &[]).await?;
    let id = list_id(cx, &alice, "soon empty", "list").await?;
    add(cx, &alice, &id, &[&bob]).await?;
    let s = post(cx, &bob, "in the list").await?;
    ensure!(
        list_timeline(cx, &alice, &id).await?.contains(&s),
        "the member's post is not in the list"
    );
    act::<UnfollowAccount>(cx, &alice, &bob, &[]).await?;
    let members = member_ids(cx, &alice, &id).await?;
    ensure!(
        members.is_empty(),
        "an unfollowed account stays in the list: {members:?}"
    );
    ensure!(
        !list_timeline(cx, &alice, &id).await?.contains(&s),
        "an unfollowed account's posts stay in the list timeline"
    );
    Ok(())
}

async fn replies_policy(cx: &Cx) -> CheckResult {
    let (alice, bob, carol, dave) = (
        cx.new_user("rpowner").await?,
        cx.new_user("rpmember").await?,
        cx.new_user("rpfollowed").await?,
        cx.new_user("rpstranger").await?,
    );
    for u in [&bob, &carol] {
        act::<FollowAccount>(cx, &alice, u, &[]).await?;
    }
    let followed = list_id(cx, &alice, "followed", "followed").await?;
    let members = list_id(cx, &alice, "list", "list").await?;
    let with_carol = list_id(cx, &alice, "list with carol", "list").await?;
    let none = list_id(cx, &alice, "none", "none").await?;
    for l in [&followed, &members, &none] {
        add(cx, &alice, l, &[&bob]).await?;
    }
    add(cx, &alice, &with_carol, &[&bob, &carol]).await?;
    let by_carol = post(cx, &carol, "a post to answer").await?;
    let by_dave = post(cx, &dave, "a stranger's post").await?;
    let by_alice = post(cx, &alice, "the owner's post").await?;
    let to_carol = reply(cx, &bob, &by_carol, &carol, "reply to a followed account").await?;
    let to_dave = reply(cx, &bob, &by_dave, &dave, "reply to a stranger").await?;
    let to_alice = reply(cx, &bob, &by_alice, &alice, "reply to the owner").await?;
    let plain = post(cx, &bob, "not a reply").await?;
    let expect = [
        (
            &followed,
            "followed",
            vec![&to_carol, &to_alice, &plain],
            vec![&to_dave],
        ),
        (
            &members,
            "list (carol not a member)",
            vec![&to_alice, &plain],
            vec![&to_carol, &to_dave],
        ),
        (
            &with_carol,
            "list (carol a member)",
            vec![&to_carol, &to_alice, &plain],
            vec![&to_dave],
        ),
        (
            &none,
            "none",
            vec![&to_alice, &plain],
            vec![&to_carol, &to_dave],
        ),
    ];
    for (list, name, shown, hidden) in expect {
        let got = list_timeline(cx, &alice, list).await?;
        for s in shown {
            ensure!(got.contains(s), "the {name} list lacks {s}: {got:?}");
        }
        for s in hidden {
            ensure!(
                !got.contains(s),
                "the {name} list shows the reply {s}: {got:?}"
            );
        }
    }
    Ok(())
}

async fn exclusive(cx: &Cx) -> CheckResult {
    let (alice, bob, carol) = (
        cx.new_user("exowner").await?,
        cx.new_user("exmember").await?,
        cx.new_user("exother").await?,
    );
    for u in [&bob, &carol] {
        act::<FollowAccount>(cx, &alice, u, &[]).await?;
    }
    let made = make_list(cx, &alice, &[("title", "apart"), ("exclusive", "true")]).await?;
    ensure!(
        made["exclusive"] == true,
        "exclusive=true was not kept: {made}"
    );
    let id = str_of(&made, "id")?;
    add(cx, &alice, &id, &[&bob]).await?;
    let by_bob = post(cx, &bob, "only in the list").await?;
    let by_carol = post(cx, &carol, "in the home timeline").await?;
    let home = home(cx, &alice).await?;
    ensure!(
        !home.contains(&by_bob),
        "an exclusive list member's post is in the home timeline"
    );
    ensure!(
        home.contains(&by_carol),
        "a followed non-member's post is not in the home timeline"
    );
    ensure!(
        list_timeline(cx, &alice, &id).await?.contains(&by_bob),
        "the exclusive list lacks its member's post"
    );
    Ok(())
}

async fn no_token(cx: &Cx) -> CheckResult {
    expect_error(
        &cx.client.get(&path::<ListLists>(&[]), None).await?,
        401,
        "GET /api/v1/lists without a token",
    )?;
    let r = cx
        .client
        .post(&path::<CreateList>(&[]), None, form(&[("title", "x")]))
        .await?;
    expect_error(&r, 401, "POST /api/v1/lists without a token")?;
    let r = cx
        .client
        .get(&path::<ListTimeline>(&[("list_id", "1")]), None)
        .await?;
    expect_error(&r, 401, "a list timeline without a token")
}

async fn home_replies(cx: &Cx) -> CheckResult {
    let (alice, bob, carol, dave) = (
        cx.new_user("hrreader").await?,
        cx.new_user("hrfollowed").await?,
        cx.new_user("hralso").await?,
        cx.new_user("hrstranger").await?,
    );
    for u in [&bob, &carol] {
        act::<FollowAccount>(cx, &alice, u, &[]).await?;
    }
    let by_carol = post(cx, &carol, "followed").await?;
    let by_dave = post(cx, &dave, "not followed").await?;
    let by_alice = post(cx, &alice, "mine").await?;
    let to_carol = reply(cx, &bob, &by_carol, &carol, "to a followed account").await?;
    let to_dave = reply(cx, &bob, &by_dave, &dave, "to a stranger").await?;
    let to_alice = reply(cx, &bob, &by_alice, &alice, "to the reader").await?;
    let home = home(cx, &alice).await?;
    ensure!(
        home.contains(&to_carol),
        "a reply to a followed account is not in the home timeline"
    );
    ensure!(
        home.contains(&to_alice),
        "a reply to the reader is not in the home timeline"
    );
    ensure!(
        !home.contains(&to_dave),
        "a reply to an unfollowed account is in the home timeline"
    );
    Ok(())
}

async fn follow_backfills(cx: &Cx) -> CheckResult {
    let (alice, bob) = (
        cx.new_user("bfreader").await?,
        cx.new_user("bfauthor").await?,
    );
    let mut earlier = vec![];
    for i in 0..3 {
        earlier.push(post(cx, &bob, &format!("before the follow {i}")).await?);
    }
    act::<FollowAccount>(cx, &alice, &bob, &[]).await?;
    let home = home(cx, &alice).await?;
    for s in &earlier {
        ensure!(
            home.contains(s),
            "a post from before the follow is not in the home timeline: {home:?}"
        );
    }
    Ok(())
}

async fn unfollow_clears_home(cx: &Cx) -> CheckResult {
    let (alice, bob) = (
        cx.new_user("ucreader").await?,
        cx.new_user("ucauthor").await?,
    );
    act::<FollowAccount>(cx, &alice, &bob, &[]).await?;
    let s = post(cx, &bob, "soon gone from the home timeline").await?;
    ensure!(
        home(cx, &alice).await?.contains(&s),
        "a followed account's post is not in the home timeline"
    );
    act::<UnfollowAccount>(cx, &alice, &bob, &[]).await?;
    ensure!(
        !home(cx, &alice).await?.contains(&s),
        "an unfollowed account's post stays in the home timeline"
    );
    Ok(())
}

async fn follow_languages(cx: &Cx) -> CheckResult {
    let (alice, bob) = (
        cx.new_user("lgreader").await?,
        cx.new_user("lgauthor").await?,
    );
    act::<FollowAccount>(cx, &alice, &bob, &[("languages[]", "de")]).await?;
    let german = str_of(
        &cx.post_status(&bob, &[("status", "Guten Tag"), ("language", "de")])
            .await?,
        "id",
    )?;
    let english = str_of(
        &cx.post_status(&bob, &[("status", "Good day"), ("language", "en")])
            .await?,
        "id",
    )?;
    let home = home(cx, &alice).await?;
    ensure!(
        home.contains(&german),
        "a post in a followed language is not in the home timeline"
    );
    ensure!(
        !home.contains(&english),
        "a post in a language the follow leaves out is in the home timeline"
    );
    Ok(())
}
