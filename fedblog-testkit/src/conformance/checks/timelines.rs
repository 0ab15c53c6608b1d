//! Timelines: the home feed (order, `limit`, cursors and `Link` pagination), the public
//! timeline (what it shows, `local`, anonymous access) and hashtag timelines (what they show,
//! `any[]`/`all[]`/`none[]`, paging).
//!
//! Exact assertions use the home timeline of a fresh account; on the public timeline, which other
//! people's posts share, the checks look at windows bounded by cursors around their own posts.

use fedblog_core::api::timelines::{
    home_timeline::HomeTimeline, public_timeline::PublicTimeline, tag_timeline::TagTimeline,
};

use crate::check;
use crate::client::Response;
use crate::conformance::{
    Check, CheckResult, Cx, Failure, User, expect_error, ids_of, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "timelines/tag/public-tagged-only",
            "a hashtag timeline, read without a token, shows public statuses with the tag (in any case), not unlisted, private or untagged ones",
            tag_public_only
        ),
        check!(
            "timelines/tag/any-all-none",
            "any[] adds statuses with other tags, all[] keeps those carrying every tag given, none[] leaves out those carrying one of its tags",
            tag_any_all_none
        ),
        check!(
            "timelines/tag/link-pagination",
            "a hashtag timeline pages by limit, and the Link header's next leads through every tagged status without repeats",
            tag_pages
        ),
        check!(
            "timelines/home/own-posts-newest-first",
            "the home timeline contains one's own posts, newest first",
            home_own_posts
        ),
        check!(
            "timelines/home/link-pagination",
            "home pages hold 20 by default, the Link header's next (max_id = oldest item) leads through the rest to an empty page without a Link header, with no repeats",
            home_link_pagination
        ),
        check!(
            "timelines/home/limit",
            "limit=5 returns 5 statuses when more exist",
            home_limit
        ),
        check!(
            "timelines/home/limit-max-40",
            "limit=100 is clamped to 40",
            home_limit_max
        ),
        check!(
            "timelines/home/prev-link",
            "the Link header's prev (min_id = newest item) returns the statuses posted after the page",
            home_prev_link
        ),
        check!(
            "timelines/home/min-id-since-id",
            "min_id returns the items immediately newer than the cursor, since_id the newest ones above it, both newest first",
            home_min_since
        ),
        check!(
            "timelines/home/no-token-401",
            "the home timeline without a token is a 401",
            home_no_token
        ),
        check!(
            "timelines/public/visibility",
            "the public timeline shows new public statuses but not unlisted, private or direct ones",
            public_visibility
        ),
        check!(
            "timelines/public/no-replies-to-others",
            "the public timeline leaves out replies to other accounts but keeps self-replies",
            public_no_replies
        ),
        check!(
            "timelines/public/local",
            "local=true shows local public statuses only",
            public_local
        ),
        check!(
            "timelines/public/anonymous",
            "the public timeline can be read without a token",
            public_anonymous
        ),
    ]
}

/// A query parameter of a URL.
fn query_param(url: &str, key: &str) -> Option<String> {
    let query = url.split_once('?')?.1;
    form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.into_owned())
}

/// Posts `n` statuses and returns their ids, oldest first.
async fn post_many(
    cx: &Cx,
    user: &User,
    n: usize,
    visibility: &str,
) -> Result<Vec<String>, Failure> {
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let text = format!("timeline status {i}");
        ids.push(str_of(
            &cx.post_status(
                user,
                &[("status", text.as_str()), ("visibility", visibility)],
            )
            .await?,
            "id",
        )?);
    }
    Ok(ids)
}

async fn home(cx: &Cx, user: &User, query: &str) -> Result<Response, Failure> {
    let p = if query.is_empty() {
        path::<HomeTimeline>(&[])
    } else {
        format!("{}?{query}", path::<HomeTimeline>(&[]))
    };
    let r = cx.client.get(&p, Some(&user.token)).await?;
    r.expect(200)?;
    Ok(r)
}

async fn public(cx: &Cx, token: Option<&str>, query: &str) -> Result<Response, Failure> {
    let r = cx
        .client
        .get(&format!("{}?{query}", path::<PublicTimeline>(&[])), token)
        .await?;
    r.expect(200)?;
    Ok(r)
}

/// The ids of `page` that are in `mine`, in page order.
fn only<'a>(page: &'a [String], mine: &[String]) -> Vec<&'a String> {
    page.iter().filter(|id| mine.contains(id)).collect()
}

fn reversed(ids: &[String]) -> Vec<&String> {
    ids.iter().rev().collect()
}

async fn home_own_posts(cx: &Cx) -> CheckResult {
    let user = cx.new_user("homeown").await?;
    let mine = post_many(cx, &user, 3, "public").await?;
    let unlisted = post_many(cx, &user, 1, "unlisted").await?;
    let private = post_many(cx, &user, 1, "private").await?;
    let all: Vec<String> = mine
        .iter()
        .chain(&unlisted)
        .chain(&private)
        .cloned()
        .collect();
    let page = ids_of(home(cx, &user, "").await?.json()?);
    let got = only(&page, &all);
    ensure!(
        got == reversed(&all),
        "own statuses in the home timeline are {got:?} (expected newest first {:?})",
        reversed(&all)
    );
    Ok(())
}

async fn home_link_pagination(cx: &Cx) -> CheckResult {
    let user = cx.new_user("homepages").await?;
    let mine = post_many(cx, &user, 25, "public").await?;
    let first = home(cx, &user, "").await?;
    let page1 = ids_of(first.json()?);
    ensure!(
        page1.len() == 20,
        "the first page holds {} statuses (expected the default 20)",
        page1.len()
    );
    ensure!(
        page1.iter().collect::<Vec<_>>() == reversed(&mine[5..]),
        "the first page is {page1:?} (expected the 20 newest, newest first)"
    );
    let next = first.link("next").ok_or_else(|| {
        Failure::Fail(format!(
            "no rel=\"next\" in the Link header {:?}",
            first.header("link")
        ))
    })?;
    ensure!(
        query_param(&next, "max_id").as_deref() == page1.last().map(String::as_str),
        "next link {next} does not carry max_id = the oldest item {:?}",
        page1.last()
    );
    let prev = first.link("prev").ok_or_else(|| {
        Failure::Fail(format!(
            "no rel=\"prev\" in the Link header {:?}",
            first.header("link")
        ))
    })?;
    ensure!(
        query_param(&prev, "min_id").as_deref() == page1.first().map(String::as_str),
        "prev link {prev} does not carry min_id = the newest item {:?}",
        page1.first()
    );

    let mut seen: Vec<String> = page1.clone();
    let mut rest: Vec<String> = Vec::new();
    let mut url = next;
    for _ in 0..20 {
        let r = cx.client.get(&url, Some(&user.token)).await?;
        r.expect(200)?;
        let page = ids_of(r.json()?);
        if page.is_empty() {
            ensure!(
                r.header("link").is_none(),
                "an empty page carries a Link header: {:?}",
                r.header("link")
            );
            let got = only(&rest, &mine);
            ensure!(
                got == reversed(&mine[..5]),
                "the pages after the first hold {got:?} of the own statuses (expected the 5 oldest, newest first)"
            );
            return Ok(());
        }
        for id in &page {
            ensure!(!seen.contains(id), "status {id} appears on two pages");
            seen.push(id.clone());
        }
        rest.extend(page);
        url = r.link("next").ok_or_else(|| {
            Failure::Fail(format!(
                "a non-empty page has no rel=\"next\" link: {:?}",
                r.header("link")
            ))
        })?;
    }
    Err(Failure::Fail(
        "following next links did not reach an empty page within 20 pages".into(),
    ))
}

async fn home_limit(cx: &Cx) -> CheckResult {
    let user = cx.new_user("homelimit").await?;
    let mine = post_many(cx, &user, 7, "public").await?;
    let r = home(cx, &user, "limit=5").await?;
    let page = ids_of(r.json()?);
    ensure!(
        page.iter().collect::<Vec<_>>() == reversed(&mine[2..]),
        "limit=5 returned {page:?} (expected the 5 newest, newest first)"
    );
    let next = r
        .link("next")
        .ok_or_else(|| Failure::Fail("no rel=\"next\" link".into()))?;
    ensure!(
        query_param(&next, "limit").as_deref() == Some("5"),
        "the next link {next} does not keep limit=5"
    );
    Ok(())
}

async fn home_limit_max(cx: &Cx) -> CheckResult {
    let user = cx.new_user("homemax").await?;
    let mine = post_many(cx, &user, 41, "public").await?;
    let page = ids_of(home(cx, &user, "limit=100").await?.json()?);
    ensure!(
        page.len() == 40,
        "limit=100 returned {} statuses with 41 available (expected 40)",
        page.len()
    );
    ensure!(
        page.iter().collect::<Vec<_>>() == reversed(&mine[1..]),
        "limit=100 did not return the 40 newest, newest first"
    );
    Ok(())
}

async fn home_prev_link(cx: &Cx) -> CheckResult {
    let user = cx.new_user("homeprev").await?;
    let older = post_many(cx, &user, 3, "public").await?;
    let r = home(cx, &user, "").await?;
    let prev = r.link("prev").ok_or_else(|| {
        Failure::Fail(format!(
            "no rel=\"prev\" in the Link header {:?}",
            r.header("link")
        ))
    })?;
    let newer = post_many(cx, &user, 2, "public").await?;
    let r = cx.client.get(&prev, Some(&user.token)).await?;
    r.expect(200)?;
    let page = ids_of(r.json()?);
    ensure!(
        !page.iter().any(|id| older.contains(id)),
        "the prev page {page:?} repeats statuses of the first page {older:?}"
    );
    let got = only(&page, &newer);
    ensure!(
        got == reversed(&newer),
        "the prev page holds {got:?} (expected the newer statuses {:?}, newest first)",
        reversed(&newer)
    );
    Ok(())
}

async fn home_min_since(cx: &Cx) -> CheckResult {
    let user = cx.new_user("homecursor").await?;
    let s = post_many(cx, &user, 6, "public").await?;
    let page = ids_of(
        home(cx, &user, &format!("min_id={}&limit=2", s[1]))
            .await?
            .json()?,
    );
    ensure!(
        page == [s[3].clone(), s[2].clone()],
        "min_id=s2&limit=2 returned {page:?} (expected [s4, s3] = {:?})",
        [&s[3], &s[2]]
    );
    let page = ids_of(
        home(cx, &user, &format!("since_id={}&limit=2", s[1]))
            .await?
            .json()?,
    );
    ensure!(
        page == [s[5].clone(), s[4].clone()],
        "since_id=s2&limit=2 returned {page:?} (expected [s6, s5] = {:?})",
        [&s[5], &s[4]]
    );
    let page = ids_of(
        home(cx, &user, &format!("max_id={}&limit=2", s[4]))
            .await?
            .json()?,
    );
    ensure!(
        page == [s[3].clone(), s[2].clone()],
        "max_id=s5&limit=2 returned {page:?} (expected [s4, s3] = {:?})",
        [&s[3], &s[2]]
    );
    Ok(())
}

async fn home_no_token(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<HomeTimeline>(&[]), None).await?;
    expect_error(&r, 401, "the home timeline without a token")?;
    Ok(())
}

async fn public_visibility(cx: &Cx) -> CheckResult {
    let user = cx.new_user("pubvis").await?;
    let first = post_many(cx, &user, 1, "public").await?;
    let unlisted = post_many(cx, &user, 1, "unlisted").await?;
    let private = post_many(cx, &user, 1, "private").await?;
    let direct = post_many(cx, &user, 1, "direct").await?;
    let last = post_many(cx, &user, 1, "public").await?;
    // The statuses immediately after the first one: the hidden ones and the last public one.
    let page = ids_of(
        public(
            cx,
            Some(&user.token),
            &format!("min_id={}&limit=40", first[0]),
        )
        .await?
        .json()?,
    );
    ensure!(
        page.contains(&last[0]),
        "a new public status {} is not in the public timeline right after {}: {page:?}",
        last[0],
        first[0]
    );
    for (what, id) in [
        ("unlisted", &unlisted[0]),
        ("private", &private[0]),
        ("direct", &direct[0]),
    ] {
        ensure!(
            !page.contains(id),
            "the {what} status {id} is in the public timeline"
        );
    }
    // And the first one is there, just below the second.
    let page = ids_of(
        public(
            cx,
            Some(&user.token),
            &format!("max_id={}&limit=40", unlisted[0]),
        )
        .await?
        .json()?,
    );
    ensure!(
        page.contains(&first[0]),
        "a new public status {} is not in the public timeline: {page:?}",
        first[0]
    );
    Ok(())
}

async fn public_no_replies(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pubthread").await?;
    let replier = cx.new_user("pubreplier").await?;
    let root = post_many(cx, &author, 1, "public").await?;
    let reply = str_of(
        &cx.post_status(
            &replier,
            &[
                ("status", "a public reply"),
                ("in_reply_to_id", root[0].as_str()),
            ],
        )
        .await?,
        "id",
    )?;
    let self_reply = str_of(
        &cx.post_status(
            &author,
            &[("status", "a thread"), ("in_reply_to_id", root[0].as_str())],
        )
        .await?,
        "id",
    )?;
    let page = ids_of(
        public(
            cx,
            Some(&author.token),
            &format!("min_id={}&limit=40", root[0]),
        )
        .await?
        .json()?,
    );
    ensure!(
        page.contains(&self_reply),
        "a public self-reply {self_reply} is not in the public timeline: {page:?}"
    );
    ensure!(
        !page.contains(&reply),
        "a public reply to another account ({reply}) is in the public timeline"
    );
    Ok(())
}

async fn public_local(cx: &Cx) -> CheckResult {
    let user = cx.new_user("publocal").await?;
    let s = post_many(cx, &user, 2, "public").await?;
    let r = public(
        cx,
        Some(&user.token),
        &format!("local=true&min_id={}&limit=40", s[0]),
    )
    .await?;
    let v = r.json()?;
    ensure!(
        ids_of(v).contains(&s[1]),
        "a local public status {} is not in the local timeline",
        s[1]
    );
    let remote: Vec<&str> = v
        .as_array()
        .map(|xs| {
            xs.iter()
                .filter_map(|x| x["account"]["acct"].as_str())
                .filter(|a| a.contains('@'))
                .collect()
        })
        .unwrap_or_default();
    ensure!(
        remote.is_empty(),
        "local=true returned statuses of remote accounts: {remote:?}"
    );
    if let Some(next) = r.link("next") {
        ensure!(
            query_param(&next, "local").as_deref() == Some("true"),
            "the next link {next} drops local=true"
        );
    }
    Ok(())
}

async fn public_anonymous(cx: &Cx) -> CheckResult {
    let user = cx.new_user("pubanon").await?;
    let s = post_many(cx, &user, 2, "public").await?;
    let page = ids_of(
        public(cx, None, &format!("max_id={}&limit=40", s[1]))
            .await?
            .json()?,
    );
    ensure!(
        page.contains(&s[0]),
        "an anonymous reader does not see the public status {} in the public timeline: {page:?}",
        s[0]
    );
    ensure!(
        !page.contains(&s[1]),
        "max_id={} returned the status {} itself (max_id is exclusive)",
        s[1],
        s[1]
    );
    Ok(())
}

/// The ids of a hashtag timeline read anonymously with `query`.
async fn tag(cx: &Cx, name: &str, query: &str) -> Result<Vec<String>, Failure> {
    let url = format!("{}?{query}", path::<TagTimeline>(&[("hashtag", name)]));
    let r = cx.client.get(&url, None).await?;
    r.expect(200)?;
    Ok(ids_of(r.json()?))
}

/// Posts `text` with `visibility`, returning the status id.
async fn post_text(cx: &Cx, user: &User, text: &str, visibility: &str) -> Result<String, Failure> {
    str_of(
        &cx.post_status(user, &[("status", text), ("visibility", visibility)])
            .await?,
        "id",
    )
}

async fn tag_public_only(cx: &Cx) -> CheckResult {
    let user = cx.new_user("tagtl").await?;
    let name = cx.unique("tl");
    let public = post_text(cx, &user, &format!("shown #{name}"), "public").await?;
    let shouting = post_text(
        cx,
        &user,
        &format!("also shown #{}", name.to_uppercase()),
        "public",
    )
    .await?;
    let mut hidden = vec![];
    for v in ["unlisted", "private"] {
        hidden.push(post_text(cx, &user, &format!("{v} #{name}"), v).await?);
    }
    hidden.push(post_text(cx, &user, "no tag at all", "public").await?);
    let got = tag(cx, &name, "limit=40").await?;
    ensure!(
        got == vec![shouting.clone(), public.clone()],
        "the hashtag timeline shows {got:?}, expected the public tagged statuses {:?} (newest first)",
        [&shouting, &public]
    );
    ensure!(
        !hidden.iter().any(|h| got.contains(h)),
        "the hashtag timeline shows an unlisted, private or untagged status"
    );
    Ok(())
}

async fn tag_any_all_none(cx: &Cx) -> CheckResult {
    let user = cx.new_user("tagmodes").await?;
    let (a, b, c) = (cx.unique("ta"), cx.unique("tb"), cx.unique("tc"));
    let only_a = post_text(cx, &user, &format!("#{a}"), "public").await?;
    let only_b = post_text(cx, &user, &format!("#{b}"), "public").await?;
    let a_c = post_text(cx, &user, &format!("#{a} #{c}"), "public").await?;
    let any = tag(cx, &a, &format!("any[]={b}")).await?;
    ensure!(
        any == vec![a_c.clone(), only_b.clone(), only_a.clone()],
        "any[]: {any:?}"
    );
    let all = tag(cx, &a, &format!("all[]={c}")).await?;
    ensure!(all == vec![a_c.clone()], "all[]: {all:?}");
    let none = tag(cx, &a, &format!("none[]={c}")).await?;
    ensure!(none == vec![only_a], "none[]: {none:?}");
    Ok(())
}

async fn tag_pages(cx: &Cx) -> CheckResult {
    let user = cx.new_user("tagpages").await?;
    let name = cx.unique("tp");
    let mut posted = vec![];
    for i in 0..5 {
        posted.push(post_text(cx, &user, &format!("page {i} #{name}"), "public").await?);
    }
    let first = cx
        .client
        .get(
            &format!("{}?limit=2", path::<TagTimeline>(&[("hashtag", &name)])),
            None,
        )
        .await?;
    first.expect(200)?;
    let mut seen = ids_of(first.json()?);
    let mut next = first.link("next");
    while let Some(url) = next.take() {
        let r = cx.client.get(&url, None).await?;
        r.expect(200)?;
        let page = ids_of(r.json()?);
        if page.is_empty() {
            break;
        }
        seen.extend(page);
        next = r.link("next");
        ensure!(seen.len() <= 10, "the Link chain does not end: {seen:?}");
    }
    let want: Vec<String> = posted.iter().rev().cloned().collect();
    ensure!(
        seen == want,
        "paging the hashtag timeline gave {seen:?}, expected {want:?}"
    );
    Ok(())
}
