//! Statuses: posting (content, limits, mentions and tags, idempotency, replies), reading one or
//! several with visibility applied, and deleting.

use fedblog_core::api::accounts::{
    update_credentials::UpdateCredentials, verify_credentials::VerifyCredentials,
};
use fedblog_core::api::statuses::{
    create_status::CreateStatus, delete_status::DeleteStatus, get_status::GetStatus,
    get_statuses::GetStatuses,
};
use fedblog_core::api::timelines::home_timeline::HomeTimeline;

use crate::check;
use crate::client::{Body, Response, form};
use crate::conformance::{
    Check, CheckResult, Cx, Failure, User, expect_error, ids_of, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "statuses/create/plain-text",
            "a posted status contains its text, is public by default, belongs to the poster and has a valid created_at",
            plain_text
        ),
        check!(
            "statuses/create/html-escaped",
            "HTML in the text of a status is escaped, never rendered as markup",
            html_escaped
        ),
        check!(
            "statuses/create/mentions-and-tags",
            "mentions and hashtags are recognised: mentions[] names the account, tags[] the normalised tag, and both are links in content",
            mentions_and_tags
        ),
        check!(
            "statuses/create/tag-normalisation",
            "tag names are normalised as Mastodon does: NFKC (full-width to basic Latin), lower case, accents folded to ASCII",
            tag_normalisation
        ),
        check!(
            "statuses/create/too-long-422",
            "a status of 501 characters is a 422 and nothing is stored (statuses_count and home timeline unchanged)",
            too_long
        ),
        check!(
            "statuses/create/spoiler-counts",
            "the content warning (spoiler_text) counts towards the 500-character limit",
            spoiler_counts
        ),
        check!(
            "statuses/create/default-visibility-from-source",
            "a status without visibility takes the poster's source[privacy] default",
            default_visibility
        ),
        check!(
            "statuses/create/500-chars-ok",
            "a status of exactly 500 characters is accepted",
            exactly_500
        ),
        check!(
            "statuses/create/url-counts-23",
            "a URL counts as 23 characters whatever its length",
            url_counts_23
        ),
        check!(
            "statuses/create/empty-422",
            "an empty status (no text, no media, no poll) is a 422",
            empty_status
        ),
        check!(
            "statuses/create/invalid-visibility-422",
            "an unknown visibility is a 422",
            invalid_visibility
        ),
        check!(
            "statuses/create/idempotency-key",
            "two posts with the same Idempotency-Key return the same status and store only one",
            idempotency
        ),
        check!(
            "statuses/create/reply-to-missing-404",
            "a reply to an unknown status is a 404 and posts nothing",
            reply_to_missing
        ),
        check!(
            "statuses/create/reply-sets-parent",
            "a reply carries in_reply_to_id and in_reply_to_account_id of its parent",
            reply_sets_parent
        ),
        check!(
            "statuses/get/public-anonymous",
            "a public status can be read without a token",
            get_public_anonymous
        ),
        check!(
            "statuses/get/unknown-404",
            "an unknown status id is a 404 with an error body",
            get_unknown
        ),
        check!(
            "statuses/get/private-404",
            "a private status is a 404 (never 401/403) for anonymous readers and non-followers, and visible to its author",
            get_private
        ),
        check!(
            "statuses/get/direct-mentioned-only",
            "a direct status is visible to its author and the mentioned account, a 404 for others",
            get_direct
        ),
        check!(
            "statuses/get-many/visible-only",
            "getting several statuses by id[] returns only the ones the caller may see",
            get_many
        ),
        check!(
            "statuses/delete/returns-source",
            "deleting one's status returns it with text = the source text, and it is a 404 afterwards",
            delete_own
        ),
        check!(
            "statuses/delete/others-denied",
            "deleting someone else's status is a 403 or 404, and the status survives",
            delete_others
        ),
        check!(
            "statuses/delete/no-token-401",
            "deleting without a token is a 401",
            delete_no_token
        ),
    ]
}

/// An id no server has issued (a snowflake far in the future).
const UNKNOWN_ID: &str = "999999999999999990";

async fn post(cx: &Cx, user: &User, pairs: &[(&str, &str)]) -> Result<Response, Failure> {
    Ok(cx
        .client
        .post(&path::<CreateStatus>(&[]), Some(&user.token), form(pairs))
        .await?)
}

async fn get_status(cx: &Cx, id: &str, token: Option<&str>) -> Result<Response, Failure> {
    Ok(cx
        .client
        .get(&path::<GetStatus>(&[("id", id)]), token)
        .await?)
}

async fn statuses_count(cx: &Cx, user: &User) -> Result<i64, Failure> {
    let r = cx
        .client
        .get(&path::<VerifyCredentials>(&[]), Some(&user.token))
        .await?;
    r.expect(200)?;
    r.json()?["statuses_count"]
        .as_i64()
        .ok_or_else(|| Failure::Fail(format!("statuses_count missing: {}", r.text)))
}

/// The ids of the first page (40) of the user's home timeline.
async fn home_ids(cx: &Cx, user: &User) -> Result<Vec<String>, Failure> {
    let r = cx
        .client
        .get(
            &format!("{}?limit=40", path::<HomeTimeline>(&[])),
            Some(&user.token),
        )
        .await?;
    r.expect(200)?;
    Ok(ids_of(r.json()?))
}

async fn plain_text(cx: &Cx) -> CheckResult {
    let user = cx.new_user("plain").await?;
    let text = format!("Hello from the conformance suite {}", cx.unique("t"));
    let s = cx
        .create_status(&user, &[("status", text.as_str())])
        .await?;
    ensure!(
        s["content"].as_str().is_some_and(|c| c.contains(&text)),
        "content does not contain the text: {}",
        s["content"]
    );
    ensure!(
        s["visibility"] == "public",
        "default visibility is {} (expected public)",
        s["visibility"]
    );
    ensure!(
        s["account"]["id"] == user.id.as_str(),
        "account.id is {} (expected the poster {})",
        s["account"]["id"],
        user.id
    );
    let created = s["created_at"].as_str().unwrap_or_default();
    ensure!(
        chrono::DateTime::parse_from_rfc3339(created).is_ok(),
        "created_at {created:?} is not an ISO 8601 datetime"
    );
    ensure!(
        s["in_reply_to_id"].is_null() && s["reblog"].is_null(),
        "a plain status has a parent or a reblog: {s}"
    );
    Ok(())
}

async fn html_escaped(cx: &Cx) -> CheckResult {
    let user = cx.new_user("html").await?;
    let s = cx
        .post_status(
            &user,
            &[("status", "<script>alert(1)</script> <b>bold</b>")],
        )
        .await?;
    let content = s["content"].as_str().unwrap_or_default();
    let lower = content.to_ascii_lowercase();
    ensure!(
        !lower.contains("<script") && !lower.contains("<b>"),
        "markup from the text was kept: {content}"
    );
    ensure!(
        lower.contains("&lt;script&gt;"),
        "the text is not in content, escaped: {content}"
    );
    Ok(())
}

async fn mentions_and_tags(cx: &Cx) -> CheckResult {
    let poster = cx.new_user("mentioner").await?;
    let other = cx.new_user("mentioned").await?;
    let text = format!("hi @{} #Fedblog_Test", other.username);
    let s = cx
        .post_status(&poster, &[("status", text.as_str())])
        .await?;
    let mentions = s["mentions"].as_array().cloned().unwrap_or_default();
    ensure!(
        mentions.len() == 1,
        "expected 1 mention, got {}",
        s["mentions"]
    );
    let m = &mentions[0];
    ensure!(
        m["id"] == other.id.as_str(),
        "mentions[0].id is {} (expected {})",
        m["id"],
        other.id
    );
    ensure!(
        m["username"] == other.username.as_str() && m["acct"] == other.username.as_str(),
        "mentions[0] names {} / {} (expected {})",
        m["username"],
        m["acct"],
        other.username
    );
    let tags = s["tags"].as_array().cloned().unwrap_or_default();
    ensure!(
        tags.len() == 1 && tags[0]["name"] == "fedblog_test",
        "tags are {} (expected one named \"fedblog_test\")",
        s["tags"]
    );
    let content = s["content"].as_str().unwrap_or_default();
    let murl = m["url"].as_str().unwrap_or_default();
    ensure!(
        !murl.is_empty() && content.contains(&format!("href=\"{murl}\"")),
        "content does not link the mention to {murl:?}: {content}"
    );
    let turl = tags[0]["url"].as_str().unwrap_or_default();
    ensure!(
        !turl.is_empty()
            && content
                .to_lowercase()
                .contains(&format!("href=\"{}\"", turl.to_lowercase())),
        "content does not link the hashtag to {turl:?}: {content}"
    );
    Ok(())
}

async fn tag_normalisation(cx: &Cx) -> CheckResult {
    let user = cx.new_user("tagnorm").await?;
    // Mastodon's HashtagNormalizer spec: "Ｓｙｎｔｈｗａｖｅ" -> "synthwave", "BLÅHAJ" -> "blahaj".
    let s = cx
        .post_status(&user, &[("status", "#Ｓｙｎｔｈｗａｖｅ #BLÅHAJ #Café")])
        .await?;
    let mut names: Vec<&str> = s["tags"]
        .as_array()
        .map(|ts| ts.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default();
    names.sort_unstable();
    ensure!(
        names == ["blahaj", "cafe", "synthwave"],
        "tags are named {names:?} (expected [\"blahaj\", \"cafe\", \"synthwave\"])"
    );
    Ok(())
}

async fn too_long(cx: &Cx) -> CheckResult {
    let user = cx.new_user("toolong").await?;
    cx.post_status(&user, &[("status", "a first status")])
        .await?;
    let before_count = statuses_count(cx, &user).await?;
    let before_home = home_ids(cx, &user).await?;
    let text = "x".repeat(501);
    let r = post(cx, &user, &[("status", text.as_str())]).await?;
    expect_error(&r, 422, "a 501-character status")?;
    let after_count = statuses_count(cx, &user).await?;
    ensure!(
        after_count == before_count,
        "statuses_count went from {before_count} to {after_count} after a rejected status"
    );
    let after_home = home_ids(cx, &user).await?;
    ensure!(
        after_home == before_home,
        "the home timeline changed after a rejected status: {before_home:?} -> {after_home:?}"
    );
    Ok(())
}

async fn spoiler_counts(cx: &Cx) -> CheckResult {
    let user = cx.new_user("spoiler").await?;
    let text = "s".repeat(400);
    let r = post(
        cx,
        &user,
        &[
            ("status", text.as_str()),
            ("spoiler_text", "w".repeat(100).as_str()),
        ],
    )
    .await?;
    ensure!(
        r.status == 200,
        "400 characters of text + 100 of content warning answered {} (expected 200): {}",
        r.status,
        r.text
    );
    ensure!(
        r.json()?["spoiler_text"] == "w".repeat(100).as_str(),
        "spoiler_text not kept: {}",
        r.json()?["spoiler_text"]
    );
    let r = post(
        cx,
        &user,
        &[
            ("status", text.as_str()),
            ("spoiler_text", "w".repeat(101).as_str()),
        ],
    )
    .await?;
    ensure!(
        r.status == 422,
        "400 characters of text + 101 of content warning answered {} (expected 422): {}",
        r.status,
        r.text
    );
    Ok(())
}

async fn default_visibility(cx: &Cx) -> CheckResult {
    let user = cx.new_user("defvis").await?;
    let r = cx
        .client
        .patch(
            &path::<UpdateCredentials>(&[]),
            Some(&user.token),
            form(&[("source[privacy]", "private")]),
        )
        .await?;
    r.expect(200)?;
    let s = cx
        .post_status(&user, &[("status", "which visibility?")])
        .await?;
    ensure!(
        s["visibility"] == "private",
        "with source[privacy]=private a status without visibility is {} (expected private)",
        s["visibility"]
    );
    let s = cx
        .post_status(
            &user,
            &[("status", "explicitly public"), ("visibility", "public")],
        )
        .await?;
    ensure!(
        s["visibility"] == "public",
        "an explicit visibility=public gave {}",
        s["visibility"]
    );
    Ok(())
}

async fn exactly_500(cx: &Cx) -> CheckResult {
    let user = cx.new_user("fivehundred").await?;
    let text = "y".repeat(500);
    let r = post(cx, &user, &[("status", text.as_str())]).await?;
    ensure!(
        r.status == 200,
        "a 500-character status answered {} (expected 200): {}",
        r.status,
        r.text
    );
    Ok(())
}

async fn url_counts_23(cx: &Cx) -> CheckResult {
    let user = cx.new_user("url").await?;
    // 476 characters, a space and a 100-character URL: 577 characters, 500 as counted.
    let url = format!("https://example.com/{}", "p".repeat(80));
    let text = format!("{} {url}", "z".repeat(476));
    let r = post(cx, &user, &[("status", text.as_str())]).await?;
    ensure!(
        r.status == 200,
        "a status of 476 characters + a 100-character URL (500 counted) answered {} (expected 200): {}",
        r.status,
        r.text
    );
    // One character more must tip it over, so the URL is not simply ignored.
    let text = format!("{} {url}", "z".repeat(477));
    let r = post(cx, &user, &[("status", text.as_str())]).await?;
    ensure!(
        r.status == 422,
        "a status of 477 characters + a URL (501 counted) answered {} (expected 422): {}",
        r.status,
        r.text
    );
    Ok(())
}

async fn empty_status(cx: &Cx) -> CheckResult {
    let user = cx.new_user("empty").await?;
    for pairs in [&[("status", "")][..], &[("status", "   ")][..], &[][..]] {
        let r = post(cx, &user, pairs).await?;
        ensure!(
            r.status == 422,
            "posting {pairs:?} answered {} (expected 422): {}",
            r.status,
            r.text
        );
        ensure!(
            r.error_text().is_some(),
            "422 body is not {{\"error\": ...}}: {}",
            r.text
        );
    }
    Ok(())
}

async fn invalid_visibility(cx: &Cx) -> CheckResult {
    let user = cx.new_user("badvis").await?;
    let r = post(
        cx,
        &user,
        &[("status", "visibility test"), ("visibility", "everyone")],
    )
    .await?;
    expect_error(&r, 422, "visibility=everyone")?;
    Ok(())
}

async fn idempotency(cx: &Cx) -> CheckResult {
    let user = cx.new_user("idem").await?;
    let key = cx.unique("idempotency");
    let mut ids = Vec::new();
    for _ in 0..2 {
        let r = cx
            .client
            .send(
                "POST",
                &path::<CreateStatus>(&[]),
                Some(&user.token),
                form(&[("status", "posted once")]),
                &[("Idempotency-Key", key.as_str())],
            )
            .await?;
        r.expect(200)?;
        ids.push(str_of(r.json()?, "id")?);
    }
    ensure!(
        ids[0] == ids[1],
        "the same Idempotency-Key gave two statuses: {ids:?}"
    );
    let count = statuses_count(cx, &user).await?;
    ensure!(
        count == 1,
        "statuses_count is {count} after two posts with one Idempotency-Key (expected 1)"
    );
    let home = home_ids(cx, &user).await?;
    ensure!(
        home == [ids[0].clone()],
        "the home timeline holds {home:?} (expected only {})",
        ids[0]
    );
    Ok(())
}

async fn reply_to_missing(cx: &Cx) -> CheckResult {
    let user = cx.new_user("orphan").await?;
    let r = post(
        cx,
        &user,
        &[
            ("status", "a reply to nothing"),
            ("in_reply_to_id", UNKNOWN_ID),
        ],
    )
    .await?;
    ensure!(
        r.status == 404,
        "a reply to an unknown status answered {} (expected 404): {}",
        r.status,
        r.text
    );
    let count = statuses_count(cx, &user).await?;
    ensure!(
        count == 0,
        "statuses_count is {count} after a rejected reply (expected 0)"
    );
    Ok(())
}

async fn reply_sets_parent(cx: &Cx) -> CheckResult {
    let author = cx.new_user("parent").await?;
    let replier = cx.new_user("replier").await?;
    let parent = cx.post_status(&author, &[("status", "the parent")]).await?;
    let parent_id = str_of(&parent, "id")?;
    let text = format!("@{} a reply", author.username);
    let reply = cx
        .post_status(
            &replier,
            &[
                ("status", text.as_str()),
                ("in_reply_to_id", parent_id.as_str()),
            ],
        )
        .await?;
    ensure!(
        reply["in_reply_to_id"] == parent_id.as_str(),
        "in_reply_to_id is {} (expected {parent_id})",
        reply["in_reply_to_id"]
    );
    ensure!(
        reply["in_reply_to_account_id"] == author.id.as_str(),
        "in_reply_to_account_id is {} (expected {})",
        reply["in_reply_to_account_id"],
        author.id
    );
    let reread = get_status(cx, &str_of(&reply, "id")?, None).await?;
    reread.expect(200)?;
    ensure!(
        reread.json()?["in_reply_to_id"] == parent_id.as_str(),
        "read back, in_reply_to_id is {}",
        reread.json()?["in_reply_to_id"]
    );
    Ok(())
}

async fn get_public_anonymous(cx: &Cx) -> CheckResult {
    let user = cx.new_user("anonread").await?;
    let s = cx
        .post_status(&user, &[("status", "read me without a token")])
        .await?;
    let id = str_of(&s, "id")?;
    let r = get_status(cx, &id, None).await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["id"] == id.as_str() && v["content"] == s["content"],
        "anonymous read returned another status: {v}"
    );
    Ok(())
}

async fn get_unknown(cx: &Cx) -> CheckResult {
    let user = cx.new_user("unknown").await?;
    for token in [None, Some(user.token.as_str())] {
        let r = get_status(cx, UNKNOWN_ID, token).await?;
        ensure!(
            r.status == 404,
            "an unknown status id answered {} (expected 404): {}",
            r.status,
            r.text
        );
        ensure!(
            r.error_text().is_some(),
            "404 body is not {{\"error\": ...}}: {}",
            r.text
        );
    }
    let r = get_status(cx, "not-an-id", None).await?;
    ensure!(
        r.status == 404,
        "a malformed status id answered {} (expected 404): {}",
        r.status,
        r.text
    );
    Ok(())
}

async fn get_private(cx: &Cx) -> CheckResult {
    let author = cx.new_user("private").await?;
    let stranger = cx.new_user("stranger").await?;
    let s = cx
        .post_status(
            &author,
            &[("status", "followers only"), ("visibility", "private")],
        )
        .await?;
    ensure!(
        s["visibility"] == "private",
        "visibility is {} (expected private)",
        s["visibility"]
    );
    let id = str_of(&s, "id")?;
    for (who, token) in [
        ("an anonymous reader", None),
        ("a non-follower", Some(stranger.token.as_str())),
    ] {
        let r = get_status(cx, &id, token).await?;
        ensure!(
            r.status == 404,
            "a private status answered {} to {who} (expected 404): {}",
            r.status,
            r.text
        );
        ensure!(
            r.error_text().is_some(),
            "404 body is not {{\"error\": ...}}: {}",
            r.text
        );
    }
    let r = get_status(cx, &id, Some(&author.token)).await?;
    ensure!(
        r.status == 200,
        "the author cannot read their private status: {} {}",
        r.status,
        r.text
    );
    Ok(())
}

async fn get_direct(cx: &Cx) -> CheckResult {
    let author = cx.new_user("dmauthor").await?;
    let recipient = cx.new_user("dmrecipient").await?;
    let other = cx.new_user("dmother").await?;
    let text = format!("@{} just for you", recipient.username);
    let s = cx
        .post_status(
            &author,
            &[("status", text.as_str()), ("visibility", "direct")],
        )
        .await?;
    ensure!(
        s["visibility"] == "direct",
        "visibility is {} (expected direct)",
        s["visibility"]
    );
    let id = str_of(&s, "id")?;
    for (who, token) in [
        ("the author", &author.token),
        ("the mentioned account", &recipient.token),
    ] {
        let r = get_status(cx, &id, Some(token)).await?;
        ensure!(
            r.status == 200,
            "a direct status answered {} to {who} (expected 200): {}",
            r.status,
            r.text
        );
    }
    for (who, token) in [
        ("an anonymous reader", None),
        ("an account not mentioned", Some(other.token.as_str())),
    ] {
        let r = get_status(cx, &id, token).await?;
        ensure!(
            r.status == 404,
            "a direct status answered {} to {who} (expected 404): {}",
            r.status,
            r.text
        );
    }
    Ok(())
}

async fn get_many(cx: &Cx) -> CheckResult {
    let author = cx.new_user("manyauthor").await?;
    let viewer = cx.new_user("manyviewer").await?;
    let public = str_of(
        &cx.post_status(&author, &[("status", "public one")]).await?,
        "id",
    )?;
    let private = str_of(
        &cx.post_status(
            &author,
            &[("status", "private one"), ("visibility", "private")],
        )
        .await?,
        "id",
    )?;
    let direct = str_of(
        &cx.post_status(
            &author,
            &[("status", "direct one"), ("visibility", "direct")],
        )
        .await?,
        "id",
    )?;
    let p = format!(
        "{}?id[]={public}&id[]={private}&id[]={direct}&id[]={UNKNOWN_ID}",
        path::<GetStatuses>(&[])
    );
    let r = cx.client.get(&p, Some(&viewer.token)).await?;
    r.expect(200)?;
    let got = ids_of(r.json()?);
    ensure!(
        got == [public.clone()],
        "a stranger got {got:?} (expected only the public status {public})"
    );
    let r = cx.client.get(&p, None).await?;
    r.expect(200)?;
    let got = ids_of(r.json()?);
    ensure!(
        got == [public.clone()],
        "an anonymous reader got {got:?} (expected only the public status {public})"
    );
    let r = cx.client.get(&p, Some(&author.token)).await?;
    r.expect(200)?;
    let mut got = ids_of(r.json()?);
    got.sort();
    let mut want = vec![public, private, direct];
    want.sort();
    ensure!(
        got == want,
        "the author got {got:?} (expected all three {want:?})"
    );
    Ok(())
}

async fn delete_own(cx: &Cx) -> CheckResult {
    let user = cx.new_user("deleter").await?;
    let text = "delete & redraft <me> #Later";
    let id = str_of(&cx.post_status(&user, &[("status", text)]).await?, "id")?;
    let r = cx
        .client
        .delete(&path::<DeleteStatus>(&[("id", &id)]), Some(&user.token))
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["id"] == id.as_str(),
        "the deleted status answer has id {} (expected {id})",
        v["id"]
    );
    ensure!(
        v["text"] == text,
        "text of the deleted status is {} (expected the source {text:?})",
        v["text"]
    );
    for token in [None, Some(user.token.as_str())] {
        let r = get_status(cx, &id, token).await?;
        ensure!(
            r.status == 404,
            "a deleted status answered {} (expected 404): {}",
            r.status,
            r.text
        );
    }
    let home = home_ids(cx, &user).await?;
    ensure!(
        !home.contains(&id),
        "the deleted status is still in the home timeline"
    );
    Ok(())
}

async fn delete_others(cx: &Cx) -> CheckResult {
    let author = cx.new_user("victim").await?;
    let attacker = cx.new_user("attacker").await?;
    let id = str_of(
        &cx.post_status(&author, &[("status", "not yours to delete")])
            .await?,
        "id",
    )?;
    let r = cx
        .client
        .delete(&path::<DeleteStatus>(&[("id", &id)]), Some(&attacker.token))
        .await?;
    ensure!(
        r.status == 403 || r.status == 404,
        "deleting someone else's status answered {} (expected 403 or 404): {}",
        r.status,
        r.text
    );
    ensure!(
        r.error_text().is_some(),
        "{} body is not {{\"error\": ...}}: {}",
        r.status,
        r.text
    );
    get_status(cx, &id, None).await?.expect(200)?;
    Ok(())
}

async fn delete_no_token(cx: &Cx) -> CheckResult {
    let user = cx.new_user("keeper").await?;
    let id = str_of(
        &cx.post_status(&user, &[("status", "deleted by nobody")])
            .await?,
        "id",
    )?;
    let r = cx
        .send(
            "DELETE",
            &path::<DeleteStatus>(&[("id", &id)]),
            None,
            Body::None,
        )
        .await?;
    expect_error(&r, 401, "deleting without a token")?;
    get_status(cx, &id, None).await?.expect(200)?;
    Ok(())
}
