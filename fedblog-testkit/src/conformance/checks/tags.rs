//! Hashtags: tag pages (`GET /api/v1/tags/:id`) with their week of use and normalised names,
//! following tags and the list of followed tags, featured tags (create, list by recent use,
//! delete, suggestions, an account's featured tags, feature and unfeature by name), and the
//! bad-input path of each (invalid names, unknown ids, missing tokens, wrong scopes, limits).

use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::get_featured_tags::GetFeaturedTags;
use fedblog_core::api::featured_tags::{
    create_featured_tag::CreateFeaturedTag, delete_featured_tag::DeleteFeaturedTag,
    featured_tag_suggestions::FeaturedTagSuggestions, list_featured_tags::ListFeaturedTags,
};
use fedblog_core::api::followed_tags::list_followed_tags::ListFollowedTags;
use fedblog_core::api::tags::{
    feature_tag::FeatureTag, follow_tag::FollowTag, get_tag::GetTag, unfeature_tag::UnfeatureTag,
    unfollow_tag::UnfollowTag,
};
use serde_json::Value;

use crate::check;
use crate::client::{Body, Response, form};
use crate::conformance::{Check, CheckResult, Cx, Failure, User, expect_error, path, str_of};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        // GET /api/v1/tags/:id
        check!(
            "tags/get/entity",
            "GET /api/v1/tags/:id answers a Tag without a token: a real id, the name as asked, the tag page URL, and 7 days of history, newest first, one day apart, counts as strings",
            get_entity
        ),
        check!(
            "tags/get/normalised-names",
            "names that differ only in case, accents or width (Café, cafe, ＣＡＦＥ) are one tag with one id",
            get_normalised
        ),
        check!(
            "tags/get-invalid-name-404",
            "GET /api/v1/tags/:id with a name that is not a valid hashtag (only digits, punctuation, a leading middle dot) is a 404 with an error body",
            get_invalid_name
        ),
        check!(
            "tags/get/history-counts-posts",
            "a status carrying the tag counts in today's history entry (uses and accounts)",
            get_history_counts
        ),
        check!(
            "tags/get/status-spelling-is-name",
            "a tag first written in a status keeps the author's spelling as its name",
            get_status_spelling
        ),
        check!(
            "tags/get/flags-when-signed-in",
            "with a user token the Tag says whether the caller follows and features it; without one it does not",
            get_flags
        ),
        check!(
            "tags/get/invalid-token-401",
            "GET /api/v1/tags/:id with an invalid token is a 401",
            get_invalid_token
        ),
        // Following tags
        check!(
            "tags/follow/following",
            "following a tag answers the Tag with following: true and lists it in the followed tags; unfollowing answers following: false and removes it",
            follow_unfollow
        ),
        check!(
            "tags/follow/idempotent",
            "following a tag twice, or unfollowing a tag one does not follow, is not an error",
            follow_idempotent
        ),
        check!(
            "tags/follow-invalid-name-404",
            "following or unfollowing an invalid tag name is a 404",
            follow_invalid_name
        ),
        check!(
            "tags/follow-no-token-401",
            "following or unfollowing a tag without a token is a 401",
            follow_no_token
        ),
        check!(
            "tags/follow-wrong-scope-403",
            "following a tag with a token lacking write:follows is a 403",
            follow_wrong_scope
        ),
        check!(
            "followed_tags/list/pagination",
            "GET /api/v1/followed_tags lists the most recently followed first and pages to the end through the Link header",
            followed_pagination
        ),
        check!(
            "followed_tags/list-no-token-401",
            "GET /api/v1/followed_tags without a token is a 401",
            followed_no_token
        ),
        check!(
            "followed_tags/list-wrong-scope-403",
            "GET /api/v1/followed_tags with a token lacking read:follows is a 403",
            followed_wrong_scope
        ),
        // Featured tags
        check!(
            "featured_tags/create/entity",
            "POST /api/v1/featured_tags answers a FeaturedTag (name, profile tag URL, statuses_count, last_status_at) and lists it in GET /api/v1/featured_tags",
            create_entity
        ),
        check!(
            "featured_tags/create/counts-statuses",
            "a featured tag counts the owner's public and unlisted statuses with it, not the private ones, and gives the day of the newest",
            create_counts
        ),
        check!(
            "featured_tags/create-invalid-name-422",
            "featuring a name that is not a valid hashtag, or no name, is a 422",
            create_invalid
        ),
        check!(
            "featured_tags/create-duplicate-422",
            "featuring a tag already featured (in any case) is a 422",
            create_duplicate
        ),
        check!(
            "featured_tags/create-limit-422",
            "an account features at most 10 tags: the 11th, by either method, is a 422",
            create_limit
        ),
        check!(
            "featured_tags/list/ordered-by-recent-use",
            "featured tags are ordered by recent use: the tag of the newest status first, never-used tags last",
            list_ordered
        ),
        check!(
            "featured_tags/delete/removes",
            "DELETE /api/v1/featured_tags/:id answers {} and the tag is no longer featured; deleting it again is a 404",
            delete_removes
        ),
        check!(
            "featured_tags/delete-other-account-404",
            "deleting another account's featured tag is a 404 and leaves it featured",
            delete_other
        ),
        check!(
            "featured_tags/delete-unknown-404",
            "deleting an unknown or malformed featured tag id is a 404",
            delete_unknown
        ),
        check!(
            "featured_tags/suggestions/most-used",
            "suggestions are the caller's most used tags, most used first, without those already featured",
            suggestions
        ),
        check!(
            "featured_tags/no-token-401",
            "the featured tag methods without a token are 401s",
            featured_no_token
        ),
        check!(
            "featured_tags/wrong-scope-403",
            "listing featured tags needs read:accounts and featuring needs write:accounts (403 otherwise)",
            featured_wrong_scope
        ),
        check!(
            "accounts/featured_tags/public",
            "GET /api/v1/accounts/:id/featured_tags shows an account's featured tags to anyone, without a token",
            account_featured_public
        ),
        check!(
            "accounts/featured_tags-unknown-404",
            "GET /api/v1/accounts/:id/featured_tags for an unknown account is a 404",
            account_featured_unknown
        ),
        check!(
            "tags/feature/featuring",
            "POST /api/v1/tags/:id/feature answers the Tag with featuring: true and features it; unfeature answers featuring: false and removes it; both are idempotent",
            feature_unfeature
        ),
        check!(
            "tags/feature-invalid-name-404",
            "featuring or unfeaturing an invalid tag name is a 404",
            feature_invalid_name
        ),
        check!(
            "tags/feature-no-token-401",
            "featuring a tag by name without a token is a 401",
            feature_no_token
        ),
        check!(
            "tags/feature-wrong-scope-403",
            "featuring a tag by name with a token lacking write:accounts is a 403",
            feature_wrong_scope
        ),
    ]
}

// ─── helpers ─────────────────────────────────────────────────────────────────────────────────

/// The path of a tag endpoint for a tag name.
fn tag_path<E: Endpoint>(name: &str) -> String {
    path::<E>(&[("id", name)])
}

/// A tag name unique to this run (lower case letters, digits and `_`).
fn unique_tag(cx: &Cx, prefix: &str) -> String {
    cx.unique(prefix)
}

async fn get_tag(cx: &Cx, token: Option<&str>, name: &str) -> Result<Value, Failure> {
    let r = cx.client.get(&tag_path::<GetTag>(name), token).await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// POSTs to a tag action as `user` and returns the answered Tag.
async fn tag_action<E: Endpoint>(cx: &Cx, user: &User, name: &str) -> Result<Value, Failure> {
    let r = cx
        .client
        .post(&tag_path::<E>(name), Some(&user.token), Body::None)
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

async fn create_featured(cx: &Cx, user: &User, name: &str) -> Result<Response, Failure> {
    Ok(cx
        .client
        .post(
            &path::<CreateFeaturedTag>(&[]),
            Some(&user.token),
            form(&[("name", name)]),
        )
        .await?)
}

async fn feature(cx: &Cx, user: &User, name: &str) -> Result<Value, Failure> {
    let r = create_featured(cx, user, name).await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// The lower-cased `name`s of a JSON array of tags or featured tags, in order.
fn names_of(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x["name"].as_str().map(str::to_lowercase))
                .collect()
        })
        .unwrap_or_default()
}

async fn own_featured(cx: &Cx, user: &User) -> Result<Value, Failure> {
    let r = cx
        .client
        .get(&path::<ListFeaturedTags>(&[]), Some(&user.token))
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

async fn followed(cx: &Cx, user: &User) -> Result<Vec<String>, Failure> {
    let r = cx
        .client
        .get(&path::<ListFollowedTags>(&[]), Some(&user.token))
        .await?;
    r.expect(200)?;
    Ok(names_of(r.json()?))
}

async fn post(cx: &Cx, user: &User, text: &str, visibility: &str) -> CheckResult {
    cx.post_status(user, &[("status", text), ("visibility", visibility)])
        .await?;
    Ok(())
}

/// A user token with only these scopes.
async fn scoped_token(cx: &Cx, scopes: &str) -> Result<String, Failure> {
    super::oauth::scoped_user_token(cx, scopes).await
}

// ─── GET /api/v1/tags/:id ────────────────────────────────────────────────────────────────────

async fn get_entity(cx: &Cx) -> CheckResult {
    let name = unique_tag(cx, "tagent");
    let v = get_tag(cx, None, &name).await?;
    let id = str_of(&v, "id")?;
    ensure!(!id.is_empty(), "the Tag has an empty id: {v}");
    ensure!(
        v["name"].as_str().map(str::to_lowercase) == Some(name.clone()),
        "the Tag's name is {} (asked for {name})",
        v["name"]
    );
    let url = str_of(&v, "url")?;
    ensure!(
        url.to_lowercase().ends_with(&format!("/tags/{name}")),
        "the Tag's url {url} is not the tag page of {name}"
    );
    ensure!(
        v.get("following").is_none() && v.get("featuring").is_none(),
        "an anonymous caller was told following/featuring: {v}"
    );
    let history = v["history"]
        .as_array()
        .ok_or_else(|| Failure::Fail(format!("no history array: {v}")))?;
    ensure!(
        history.len() == 7,
        "history has {} days, expected 7",
        history.len()
    );
    let mut days = Vec::new();
    for h in history {
        let day: i64 = h["day"]
            .as_str()
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| Failure::Fail(format!("history day is not a timestamp string: {h}")))?;
        for key in ["uses", "accounts"] {
            ensure!(
                h[key].as_str().is_some_and(|s| s.parse::<u64>().is_ok()),
                "history {key} is not a count as a string: {h}"
            );
        }
        ensure!(day % 86_400 == 0, "history day {day} is not a midnight");
        days.push(day);
    }
    ensure!(
        days.windows(2).all(|w| w[0] - w[1] == 86_400),
        "history days are not consecutive days, newest first: {days:?}"
    );
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or_default();
    ensure!(
        (now - days[0]).abs() <= 2 * 86_400,
        "the newest history day {} is not today",
        days[0]
    );
    let again = get_tag(cx, None, &name).await?;
    ensure!(
        again["id"] == v["id"],
        "asking twice gave two ids: {} and {}",
        v["id"],
        again["id"]
    );
    Ok(())
}

async fn get_normalised(cx: &Cx) -> CheckResult {
    let base = unique_tag(cx, "cafe");
    let accented = base.replacen("cafe", "Café", 1);
    let wide: String = base
        .to_uppercase()
        .chars()
        .map(|c| match c {
            'A'..='Z' | '0'..='9' => char::from_u32(c as u32 + 0xFEE0).unwrap_or(c),
            _ => c,
        })
        .collect();
    let plain = get_tag(cx, None, &base).await?;
    for other in [accented, base.to_uppercase(), wide] {
        let v = get_tag(cx, None, &other).await?;
        ensure!(
            v["id"] == plain["id"],
            "{other} is tag {} but {base} is tag {}",
            v["id"],
            plain["id"]
        );
    }
    Ok(())
}

async fn get_invalid_name(cx: &Cx) -> CheckResult {
    for bad in ["12345", "a-b", "%C2%B7abc", "a.b", "%F0%9F%98%80"] {
        let r = cx.client.get(&tag_path::<GetTag>(bad), None).await?;
        expect_error(&r, 404, &format!("GET /api/v1/tags/{bad}"))?;
    }
    Ok(())
}

async fn get_history_counts(cx: &Cx) -> CheckResult {
    let user = cx.new_user("taghist").await?;
    let name = unique_tag(cx, "hist");
    post(cx, &user, &format!("one #{name}"), "public").await?;
    post(cx, &user, &format!("two #{name} and #{name}"), "public").await?;
    let v = get_tag(cx, None, &name).await?;
    let today = &v["history"][0];
    ensure!(
        today["uses"] == "2" && today["accounts"] == "1",
        "after two statuses by one account today's history is {today}"
    );
    Ok(())
}

async fn get_status_spelling(cx: &Cx) -> CheckResult {
    let user = cx.new_user("tagspell").await?;
    let name = unique_tag(cx, "spell");
    let spelled = format!("Spell{}", &name["spell".len()..]);
    post(cx, &user, &format!("written as #{spelled}"), "public").await?;
    let v = get_tag(cx, None, &name).await?;
    ensure!(
        v["name"] == spelled.as_str(),
        "the tag written #{spelled} is named {}",
        v["name"]
    );
    Ok(())
}

async fn get_flags(cx: &Cx) -> CheckResult {
    let user = cx.new_user("tagflags").await?;
    let name = unique_tag(cx, "flags");
    let v = get_tag(cx, Some(&user.token), &name).await?;
    ensure!(
        v["following"] == false && v["featuring"] == false,
        "a signed-in caller's fresh tag says {v}"
    );
    tag_action::<FollowTag>(cx, &user, &name).await?;
    tag_action::<FeatureTag>(cx, &user, &name).await?;
    let v = get_tag(cx, Some(&user.token), &name).await?;
    ensure!(
        v["following"] == true && v["featuring"] == true,
        "after following and featuring the Tag says {v}"
    );
    let anon = get_tag(cx, None, &name).await?;
    ensure!(
        anon.get("following").is_none(),
        "an anonymous caller was told following: {anon}"
    );
    Ok(())
}

async fn get_invalid_token(cx: &Cx) -> CheckResult {
    let name = unique_tag(cx, "badtoken");
    let r = cx
        .client
        .get(&tag_path::<GetTag>(&name), Some("not-a-real-token"))
        .await?;
    expect_error(&r, 401, "GET /api/v1/tags/:id with an invalid token")
}

// ─── Following tags ──────────────────────────────────────────────────────────────────────────

async fn follow_unfollow(cx: &Cx) -> CheckResult {
    let user = cx.new_user("tagfollow").await?;
    let name = unique_tag(cx, "follow");
    let v = tag_action::<FollowTag>(cx, &user, &name).await?;
    ensure!(v["following"] == true, "follow answered {v}");
    ensure!(
        followed(cx, &user).await?.contains(&name),
        "the followed tag is not in GET /api/v1/followed_tags"
    );
    let v = tag_action::<UnfollowTag>(cx, &user, &name).await?;
    ensure!(v["following"] == false, "unfollow answered {v}");
    ensure!(
        !followed(cx, &user).await?.contains(&name),
        "the unfollowed tag is still in GET /api/v1/followed_tags"
    );
    Ok(())
}

async fn follow_idempotent(cx: &Cx) -> CheckResult {
    let user = cx.new_user("tagtwice").await?;
    let name = unique_tag(cx, "twice");
    let v = tag_action::<UnfollowTag>(cx, &user, &name).await?;
    ensure!(v["following"] == false, "unfollowing first answered {v}");
    let first = tag_action::<FollowTag>(cx, &user, &name).await?;
    let second = tag_action::<FollowTag>(cx, &user, &name).await?;
    ensure!(
        second["following"] == true && second["id"] == first["id"],
        "following twice answered {first} then {second}"
    );
    let list = followed(cx, &user).await?;
    ensure!(
        list.iter().filter(|n| **n == name).count() == 1,
        "following twice lists the tag {list:?}"
    );
    Ok(())
}

async fn follow_invalid_name(cx: &Cx) -> CheckResult {
    let user = cx.new_user("tagbadf").await?;
    for p in [
        tag_path::<FollowTag>("12345"),
        tag_path::<UnfollowTag>("a-b"),
    ] {
        let r = cx.client.post(&p, Some(&user.token), Body::None).await?;
        expect_error(&r, 404, &format!("POST {p}"))?;
    }
    Ok(())
}

async fn follow_no_token(cx: &Cx) -> CheckResult {
    let name = unique_tag(cx, "notoken");
    for p in [tag_path::<FollowTag>(&name), tag_path::<UnfollowTag>(&name)] {
        let r = cx.client.post(&p, None, Body::None).await?;
        expect_error(&r, 401, &format!("POST {p} without a token"))?;
    }
    Ok(())
}

async fn follow_wrong_scope(cx: &Cx) -> CheckResult {
    let token = scoped_token(cx, "read").await?;
    let name = unique_tag(cx, "scope");
    let r = cx
        .client
        .post(&tag_path::<FollowTag>(&name), Some(&token), Body::None)
        .await?;
    expect_error(&r, 403, "following a tag with a read-only token")
}

async fn followed_pagination(cx: &Cx) -> CheckResult {
    let user = cx.new_user("tagpages").await?;
    let names: Vec<String> = (0..3).map(|i| unique_tag(cx, &format!("pg{i}"))).collect();
    for n in &names {
        tag_action::<FollowTag>(cx, &user, n).await?;
    }
    let first = cx
        .client
        .get(
            &format!("{}?limit=2", path::<ListFollowedTags>(&[])),
            Some(&user.token),
        )
        .await?;
    first.expect(200)?;
    let page1 = names_of(first.json()?);
    ensure!(
        page1 == vec![names[2].clone(), names[1].clone()],
        "first page {page1:?}, expected the two most recently followed {:?}",
        &names[1..]
    );
    let next = first.link("next").ok_or_else(|| {
        Failure::Fail(format!(
            "no rel=\"next\" in the Link header {:?}",
            first.header("link")
        ))
    })?;
    let second = cx.client.get(&next, Some(&user.token)).await?;
    second.expect(200)?;
    let page2 = names_of(second.json()?);
    ensure!(
        page2 == vec![names[0].clone()],
        "second page {page2:?}, expected the first followed {}",
        names[0]
    );
    if let Some(next) = second.link("next") {
        let third = cx.client.get(&next, Some(&user.token)).await?;
        third.expect(200)?;
        ensure!(
            names_of(third.json()?).is_empty(),
            "the page after the last one is not empty: {}",
            third.text
        );
    }
    Ok(())
}

async fn followed_no_token(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<ListFollowedTags>(&[]), None).await?;
    expect_error(&r, 401, "GET /api/v1/followed_tags without a token")
}

async fn followed_wrong_scope(cx: &Cx) -> CheckResult {
    let token = scoped_token(cx, "write").await?;
    let r = cx
        .client
        .get(&path::<ListFollowedTags>(&[]), Some(&token))
        .await?;
    expect_error(&r, 403, "GET /api/v1/followed_tags with a write-only token")
}

// ─── Featured tags ───────────────────────────────────────────────────────────────────────────

async fn create_entity(cx: &Cx) -> CheckResult {
    let user = cx.new_user("feat").await?;
    let name = unique_tag(cx, "feat");
    let v = feature(cx, &user, &name).await?;
    str_of(&v, "id")?;
    ensure!(
        v["name"].as_str().map(str::to_lowercase) == Some(name.clone()),
        "the featured tag is named {} (asked for {name})",
        v["name"]
    );
    let url = str_of(&v, "url")?;
    ensure!(
        url.ends_with(&format!("/@{}/tagged/{name}", user.username)),
        "the featured tag's url {url} is not the profile's tag page"
    );
    ensure!(
        v["statuses_count"] == "0" || v["statuses_count"] == 0,
        "a never-used featured tag has statuses_count {}",
        v["statuses_count"]
    );
    ensure!(
        v["last_status_at"].is_null(),
        "a never-used featured tag has last_status_at {}",
        v["last_status_at"]
    );
    let list = own_featured(cx, &user).await?;
    ensure!(
        list.as_array()
            .is_some_and(|a| a.iter().any(|x| x["id"] == v["id"])),
        "the new featured tag is not in GET /api/v1/featured_tags: {list}"
    );
    Ok(())
}

async fn create_counts(cx: &Cx) -> CheckResult {
    let user = cx.new_user("featcount").await?;
    let name = unique_tag(cx, "count");
    post(cx, &user, &format!("a #{name}"), "public").await?;
    post(cx, &user, &format!("b #{name}"), "unlisted").await?;
    post(cx, &user, &format!("c #{name}"), "private").await?;
    let v = feature(cx, &user, &name).await?;
    ensure!(
        v["statuses_count"] == "2" || v["statuses_count"] == 2,
        "two public/unlisted statuses and one private give statuses_count {}",
        v["statuses_count"]
    );
    let day = str_of(&v, "last_status_at")?;
    let today = chrono::Utc::now().date_naive();
    let parsed = chrono::NaiveDate::parse_from_str(&day[..day.len().min(10)], "%Y-%m-%d")
        .map_err(|_| Failure::Fail(format!("last_status_at {day} is not a date")))?;
    ensure!(
        (today - parsed).num_days().abs() <= 1,
        "last_status_at {day} is not today ({today})"
    );
    Ok(())
}

async fn create_invalid(cx: &Cx) -> CheckResult {
    let user = cx.new_user("featbad").await?;
    for bad in ["12345", "a b", "a-b", "·abc"] {
        let r = create_featured(cx, &user, bad).await?;
        expect_error(&r, 422, &format!("featuring {bad:?}"))?;
    }
    let r = cx
        .client
        .post(
            &path::<CreateFeaturedTag>(&[]),
            Some(&user.token),
            Body::None,
        )
        .await?;
    expect_error(&r, 422, "featuring without a name")?;
    let list = own_featured(cx, &user).await?;
    ensure!(
        names_of(&list).is_empty(),
        "refused names were featured: {list}"
    );
    Ok(())
}

async fn create_duplicate(cx: &Cx) -> CheckResult {
    let user = cx.new_user("featdup").await?;
    let name = unique_tag(cx, "dup");
    feature(cx, &user, &name).await?;
    let r = create_featured(cx, &user, &name.to_uppercase()).await?;
    expect_error(&r, 422, "featuring the same tag again in upper case")?;
    let list = own_featured(cx, &user).await?;
    ensure!(
        names_of(&list) == vec![name.clone()],
        "after a refused duplicate the featured tags are {list}"
    );
    Ok(())
}

async fn create_limit(cx: &Cx) -> CheckResult {
    let user = cx.new_user("featlimit").await?;
    for i in 0..10 {
        feature(cx, &user, &unique_tag(cx, &format!("lim{i}"))).await?;
    }
    let r = create_featured(cx, &user, &unique_tag(cx, "lim10")).await?;
    expect_error(&r, 422, "featuring an 11th tag")?;
    let name = unique_tag(cx, "lim11");
    let r = cx
        .client
        .post(
            &tag_path::<FeatureTag>(&name),
            Some(&user.token),
            Body::None,
        )
        .await?;
    expect_error(&r, 422, "featuring an 11th tag by name")?;
    let list = own_featured(cx, &user).await?;
    ensure!(
        names_of(&list).len() == 10,
        "after refusals {} tags are featured",
        names_of(&list).len()
    );
    Ok(())
}

async fn list_ordered(cx: &Cx) -> CheckResult {
    let user = cx.new_user("featorder").await?;
    let (never, older, newer) = (
        unique_tag(cx, "never"),
        unique_tag(cx, "older"),
        unique_tag(cx, "newer"),
    );
    // Featured in an order unlike the expected one.
    for n in [&newer, &never, &older] {
        feature(cx, &user, n).await?;
    }
    post(cx, &user, &format!("first #{older}"), "public").await?;
    post(cx, &user, &format!("then #{newer}"), "public").await?;
    let list = names_of(&own_featured(cx, &user).await?);
    ensure!(
        list == vec![newer.clone(), older.clone(), never.clone()],
        "featured tags are listed {list:?}, expected {:?}",
        [&newer, &older, &never]
    );
    Ok(())
}

async fn delete_removes(cx: &Cx) -> CheckResult {
    let user = cx.new_user("featdel").await?;
    let name = unique_tag(cx, "del");
    let v = feature(cx, &user, &name).await?;
    let id = str_of(&v, "id")?;
    let p = path::<DeleteFeaturedTag>(&[("id", &id)]);
    let r = cx.client.delete(&p, Some(&user.token)).await?;
    r.expect(200)?;
    ensure!(
        r.json()?.as_object().is_some_and(|o| o.is_empty()),
        "deleting answered {} (expected {{}})",
        r.text
    );
    ensure!(
        names_of(&own_featured(cx, &user).await?).is_empty(),
        "the deleted featured tag is still listed"
    );
    let r = cx.client.delete(&p, Some(&user.token)).await?;
    expect_error(&r, 404, "deleting a featured tag twice")
}

async fn delete_other(cx: &Cx) -> CheckResult {
    let (owner, other) = (cx.new_user("featown").await?, cx.new_user("featoth").await?);
    let v = feature(cx, &owner, &unique_tag(cx, "mine")).await?;
    let id = str_of(&v, "id")?;
    let r = cx
        .client
        .delete(
            &path::<DeleteFeaturedTag>(&[("id", &id)]),
            Some(&other.token),
        )
        .await?;
    expect_error(&r, 404, "deleting another account's featured tag")?;
    ensure!(
        names_of(&own_featured(cx, &owner).await?).len() == 1,
        "the owner's featured tag is gone after another account deleted it"
    );
    Ok(())
}

async fn delete_unknown(cx: &Cx) -> CheckResult {
    let user = cx.new_user("featunk").await?;
    for id in ["1", "not-an-id"] {
        let r = cx
            .client
            .delete(&path::<DeleteFeaturedTag>(&[("id", id)]), Some(&user.token))
            .await?;
        expect_error(&r, 404, &format!("deleting featured tag {id}"))?;
    }
    Ok(())
}

async fn suggestions(cx: &Cx) -> CheckResult {
    let user = cx.new_user("featsug").await?;
    let (most, less, featured) = (
        unique_tag(cx, "most"),
        unique_tag(cx, "less"),
        unique_tag(cx, "featd"),
    );
    for _ in 0..3 {
        post(cx, &user, &format!("#{most} #{featured}"), "public").await?;
    }
    post(cx, &user, &format!("#{less}"), "public").await?;
    feature(cx, &user, &featured).await?;
    let r = cx
        .client
        .get(&path::<FeaturedTagSuggestions>(&[]), Some(&user.token))
        .await?;
    r.expect(200)?;
    let names = names_of(r.json()?);
    ensure!(
        names == vec![most.clone(), less.clone()],
        "suggestions are {names:?}, expected {:?} (the featured {featured} left out)",
        [&most, &less]
    );
    Ok(())
}

async fn featured_no_token(cx: &Cx) -> CheckResult {
    for (method, p) in [
        ("GET", path::<ListFeaturedTags>(&[])),
        ("POST", path::<CreateFeaturedTag>(&[])),
        ("DELETE", path::<DeleteFeaturedTag>(&[("id", "1")])),
        ("GET", path::<FeaturedTagSuggestions>(&[])),
    ] {
        let r = cx
            .send(method, &p, None, form(&[("name", "notoken")]))
            .await?;
        expect_error(&r, 401, &format!("{method} {p} without a token"))?;
    }
    Ok(())
}

async fn featured_wrong_scope(cx: &Cx) -> CheckResult {
    let write = scoped_token(cx, "write").await?;
    let r = cx
        .client
        .get(&path::<ListFeaturedTags>(&[]), Some(&write))
        .await?;
    expect_error(&r, 403, "listing featured tags with a write-only token")?;
    let read = scoped_token(cx, "read").await?;
    let r = cx
        .client
        .post(
            &path::<CreateFeaturedTag>(&[]),
            Some(&read),
            form(&[("name", "readonly")]),
        )
        .await?;
    expect_error(&r, 403, "featuring a tag with a read-only token")
}

async fn account_featured_public(cx: &Cx) -> CheckResult {
    let user = cx.new_user("featpub").await?;
    let name = unique_tag(cx, "pub");
    feature(cx, &user, &name).await?;
    let r = cx
        .client
        .get(&path::<GetFeaturedTags>(&[("id", &user.id)]), None)
        .await?;
    r.expect(200)?;
    ensure!(
        names_of(r.json()?) == vec![name.clone()],
        "the account's featured tags are {}",
        r.text
    );
    Ok(())
}

async fn account_featured_unknown(cx: &Cx) -> CheckResult {
    for id in ["1", "not-an-id"] {
        let r = cx
            .client
            .get(&path::<GetFeaturedTags>(&[("id", id)]), None)
            .await?;
        expect_error(&r, 404, &format!("featured tags of account {id}"))?;
    }
    Ok(())
}

async fn feature_unfeature(cx: &Cx) -> CheckResult {
    let user = cx.new_user("tagfeat").await?;
    let name = unique_tag(cx, "byname");
    let v = tag_action::<UnfeatureTag>(cx, &user, &name).await?;
    ensure!(v["featuring"] == false, "unfeaturing first answered {v}");
    for _ in 0..2 {
        let v = tag_action::<FeatureTag>(cx, &user, &name).await?;
        ensure!(v["featuring"] == true, "feature answered {v}");
    }
    ensure!(
        names_of(&own_featured(cx, &user).await?) == vec![name.clone()],
        "featuring by name twice does not feature the tag once"
    );
    let v = tag_action::<UnfeatureTag>(cx, &user, &name).await?;
    ensure!(v["featuring"] == false, "unfeature answered {v}");
    ensure!(
        names_of(&own_featured(cx, &user).await?).is_empty(),
        "the unfeatured tag is still featured"
    );
    Ok(())
}

async fn feature_invalid_name(cx: &Cx) -> CheckResult {
    let user = cx.new_user("tagbadft").await?;
    for p in [
        tag_path::<FeatureTag>("12345"),
        tag_path::<UnfeatureTag>("a-b"),
    ] {
        let r = cx.client.post(&p, Some(&user.token), Body::None).await?;
        expect_error(&r, 404, &format!("POST {p}"))?;
    }
    Ok(())
}

async fn feature_no_token(cx: &Cx) -> CheckResult {
    let name = unique_tag(cx, "ftnotok");
    for p in [
        tag_path::<FeatureTag>(&name),
        tag_path::<UnfeatureTag>(&name),
    ] {
        let r = cx.client.post(&p, None, Body::None).await?;
        expect_error(&r, 401, &format!("POST {p} without a token"))?;
    }
    Ok(())
}

async fn feature_wrong_scope(cx: &Cx) -> CheckResult {
    let token = scoped_token(cx, "read").await?;
    let name = unique_tag(cx, "ftscope");
    let r = cx
        .client
        .post(&tag_path::<FeatureTag>(&name), Some(&token), Body::None)
        .await?;
    expect_error(&r, 403, "featuring a tag with a read-only token")
}
