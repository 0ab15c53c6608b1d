//! Filters: v2 filters with their keywords and statuses (CRUD, validation, ownership), the v1
//! view of them, and how they apply: `filtered` results on the statuses a signed-in account reads
//! (keywords as whole words or not, content warnings and poll options, statuses by id and through
//! reblogs, expiry), and `hide` filters leaving statuses out of timelines, threads and
//! notifications of their contexts.

use fedblog_core::api::accounts::follow_account::FollowAccount;
use fedblog_core::api::filters::{
    add_filter_keyword::AddFilterKeyword, add_filter_status::AddFilterStatus,
    create_filter::CreateFilter, get_filter::GetFilter, get_filter_keyword::GetFilterKeyword,
    get_filter_status::GetFilterStatus, list_filter_keywords::ListFilterKeywords,
    list_filter_statuses::ListFilterStatuses, list_filters::ListFilters,
};
use fedblog_core::api::filters_v1::{
    create_filter_v1::CreateFilterV1, get_filter_v1::GetFilterV1, list_filters_v1::ListFiltersV1,
};
use fedblog_core::api::notifications::list_notifications::ListNotifications;
use fedblog_core::api::statuses::{get_context::GetContext, get_status::GetStatus};
use fedblog_core::api::timelines::{home_timeline::HomeTimeline, public_timeline::PublicTimeline};
use serde_json::{Value, json};

use crate::check;
use crate::client::{Body, Response, form};
use crate::conformance::checks::social::act;
use crate::conformance::{
    Check, CheckResult, Cx, Failure, SetUp, User, expect_error, ids_of, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "filters/create-read-update-delete",
            "a v2 filter is made with its keywords (whole_word true unless said), read back, listed, changed (title, context, action, keywords added, changed and removed) and deleted (then a 404)",
            crud
        ),
        check!(
            "filters/create/json-body",
            "a filter is made from a JSON body with keywords_attributes as an array of objects, as Mastodon.py sends it",
            json_body
        ),
        check!(
            "filters/validation-422",
            "a blank title, no context, an unknown context, an unknown filter_action or a blank keyword is a 422 with an error body, and nothing is made",
            validation
        ),
        check!(
            "filters/others-404",
            "another account's filter, keyword or filter status is a 404 to read, change or delete, and the owner's stays",
            others_404
        ),
        check!(
            "filters/update/foreign-keyword-404",
            "updating a filter with keywords_attributes naming a keyword of another filter is a 404 and changes nothing",
            foreign_keyword
        ),
        check!(
            "filters/keywords",
            "keywords are listed, added (a blank one is a 422), read, changed and removed one at a time",
            keywords
        ),
        check!(
            "filters/statuses",
            "statuses are added to a filter, listed, read and removed; the same status twice is a 422; a status the caller may not see is a 404",
            statuses
        ),
        check!(
            "filters/filtered/keywords",
            "a status a signed-in reader reads carries filtered results naming the filter and the text that matched (case-insensitively); a whole-word keyword does not match inside a word; no match gives filtered []",
            filtered_keywords
        ),
        check!(
            "filters/filtered/content-warning-and-poll",
            "keywords are matched against a status's content warning and its poll options too",
            filtered_cw_poll
        ),
        check!(
            "filters/filtered/statuses-and-reblogs",
            "a filter's status matches it by id (status_matches), also when reached through a reblog, which carries the same results",
            filtered_statuses
        ),
        check!(
            "filters/filtered/expired-not-applied",
            "an expired filter is still listed but no status matches it any more",
            expired
        ),
        check!(
            "filters/filtered/anonymous-none",
            "statuses read without a token carry no filtered attribute",
            anonymous
        ),
        check!(
            "filters/hide/home",
            "a status matching a hide filter of the home context is left out of the home timeline; a warn filter keeps it with its filtered results",
            hide_home
        ),
        check!(
            "filters/hide/public-only-in-its-context",
            "a hide filter of the public context leaves a status out of the public timeline but not out of the home timeline",
            hide_public
        ),
        check!(
            "filters/hide/notifications",
            "a mention matching a hide filter of the notifications context is left out of the notifications",
            hide_notifications
        ),
        check!(
            "filters/hide/thread",
            "a reply matching a hide filter of the thread context is left out of the context of its parent; the single status still answers, with filtered results",
            hide_thread
        ),
        check!(
            "filters/hide/own-statuses-stay",
            "one's own statuses are never left out by one's hide filters",
            own_stay
        ),
        check!(
            "filters/v1/create-read-update-delete",
            "a v1 filter (phrase, context, irreversible, whole_word) is made as a v2 filter with one keyword, listed, read, changed and deleted (its keyword)",
            v1_crud
        ),
        check!(
            "filters/v1/several-keywords-422",
            "changing through v1 the settings of a filter with several keywords is a 422",
            v1_several
        ),
        check!(
            "filters/no-token-401",
            "filters without a token are a 401",
            no_token
        ),
    ]
}

/// Makes a filter from form pairs and returns its JSON.
async fn make(cx: &Cx, who: &User, pairs: &[(&str, &str)]) -> Result<Value, Failure> {
    let r = cx
        .client
        .post(&path::<CreateFilter>(&[]), Some(&who.token), form(pairs))
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// Makes a filter with one keyword in `contexts` with `action`, returning its JSON.
async fn keyword_filter(
    cx: &Cx,
    who: &User,
    keyword: &str,
    whole_word: bool,
    contexts: &[&str],
    action: &str,
) -> Result<Value, Failure> {
    let whole = whole_word.to_string();
    let mut pairs = vec![
        ("title", "checks"),
        ("filter_action", action),
        ("keywords_attributes[][keyword]", keyword),
        ("keywords_attributes[][whole_word]", whole.as_str()),
    ];
    pairs.extend(contexts.iter().map(|c| ("context[]", *c)));
    make(cx, who, &pairs).await
}

async fn get(cx: &Cx, url: &str, who: Option<&User>) -> Result<Response, Failure> {
    Ok(cx.client.get(url, who.map(|u| u.token.as_str())).await?)
}

async fn get_ok(cx: &Cx, url: &str, who: &User) -> Result<Value, Failure> {
    let r = get(cx, url, Some(who)).await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// Posts a status as `who` with these form pairs; returns its id.
async fn post_id(cx: &Cx, who: &User, pairs: &[(&str, &str)]) -> Result<String, Failure> {
    str_of(&cx.post_status(who, pairs).await?, "id")
}

/// Deletes `url` as `who` (a 200), after which reading it is a 404.
async fn deleted_then_404(cx: &Cx, url: &str, who: &User, what: &str) -> CheckResult {
    cx.client.delete(url, Some(&who.token)).await?.expect(200)?;
    expect_error(&get(cx, url, Some(who)).await?, 404, what)
}

/// The home timeline (40 entries).
async fn home(cx: &Cx, who: &User) -> Result<Value, Failure> {
    get_ok(cx, &format!("{}?limit=40", path::<HomeTimeline>(&[])), who).await
}

/// The entry of `status` in a list of statuses.
fn entry<'a>(list: &'a Value, status: &str) -> Option<&'a Value> {
    list.as_array()?.iter().find(|s| s["id"] == status)
}

/// `reader` follows `author`, who posts `text` (with extra pairs); returns the status id.
async fn followed_post(
    cx: &Cx,
    reader: &User,
    author: &User,
    pairs: &[(&str, &str)],
) -> Result<String, Failure> {
    act::<FollowAccount>(cx, reader, author, &[]).await?;
    post_id(cx, author, pairs).await
}

async fn crud(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("filtcrud").await?;
    let made = make(
        cx,
        &alice,
        &[
            ("title", "Spoilers"),
            ("context[]", "home"),
            ("context[]", "public"),
            ("keywords_attributes[][keyword]", "finale"),
            ("keywords_attributes[][keyword]", "twist"),
            ("keywords_attributes[][whole_word]", "false"),
        ],
    )
    .await?;
    let id = str_of(&made, "id")?;
    let kws = made["keywords"].as_array().cloned().unwrap_or_default();
    ensure!(
        made["title"] == "Spoilers"
            && made["context"] == json!(["home", "public"])
            && made["filter_action"] == "warn"
            && made["expires_at"].is_null()
            && made["statuses"] == json!([])
            && kws.len() == 2
            && kws[0]["keyword"] == "finale"
            && kws[0]["whole_word"] == true
            && kws[1]["keyword"] == "twist"
            && kws[1]["whole_word"] == false,
        "a new filter must have its title, contexts, warn, no expiry and its keywords (whole_word true unless said): {made}"
    );
    let one = path::<GetFilter>(&[("id", &id)]);
    ensure!(
        get_ok(cx, &one, &alice).await? == made,
        "GET /api/v2/filters/:id must answer the filter as made"
    );
    ensure!(
        ids_of(&get_ok(cx, &path::<ListFilters>(&[]), &alice).await?) == vec![id.clone()],
        "GET /api/v2/filters must list the filter"
    );
    let (k1, k2) = (str_of(&kws[0], "id")?, str_of(&kws[1], "id")?);
    let r = cx
        .send(
            "PUT",
            &one,
            Some(&alice.token),
            form(&[
                ("title", "Big spoilers"),
                ("context[]", "thread"),
                ("filter_action", "hide"),
                ("expires_in", "3600"),
                ("keywords_attributes[][id]", k1.as_str()),
                ("keywords_attributes[][_destroy]", "true"),
                ("keywords_attributes[][id]", k2.as_str()),
                ("keywords_attributes[][keyword]", "plot twist"),
                ("keywords_attributes[][keyword]", "ending"),
            ]),
        )
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    let kws: Vec<(String, String)> = v["keywords"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|k| {
                    (
                        k["id"].as_str().unwrap_or("").to_string(),
                        k["keyword"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    ensure!(
        v["title"] == "Big spoilers"
            && v["context"] == json!(["thread"])
            && v["filter_action"] == "hide"
            && v["expires_at"].is_string()
            && kws.len() == 2
            && kws[0] == (k2.clone(), "plot twist".to_string())
            && kws[1].1 == "ending",
        "PUT must change the settings, remove the destroyed keyword, change the named one and add the new one: {v}"
    );
    let r = cx.client.delete(&one, Some(&alice.token)).await?;
    r.expect(200)?;
    ensure!(r.json()? == &json!({}), "DELETE answers {{}}: {}", r.text);
    expect_error(&get(cx, &one, Some(&alice)).await?, 404, "a deleted filter")
}

async fn json_body(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("filtjson").await?;
    let r = cx
        .client
        .post(
            &path::<CreateFilter>(&[]),
            Some(&alice.token),
            Body::Json(json!({
                "title": "json",
                "context": ["home", "notifications"],
                "filter_action": "warn",
                "keywords_attributes": [
                    {"keyword": "alpha", "whole_word": false},
                    {"keyword": "beta", "whole_word": true}
                ]
            })),
        )
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["context"] == json!(["home", "notifications"])
            && v["keywords"][0]["keyword"] == "alpha"
            && v["keywords"][0]["whole_word"] == false
            && v["keywords"][1]["keyword"] == "beta",
        "a JSON body must make the filter with its keywords: {v}"
    );
    Ok(())
}

async fn validation(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("filtbad").await?;
    let cases: [(&str, Vec<(&str, &str)>); 5] = [
        ("a blank title", vec![("title", " "), ("context[]", "home")]),
        ("no context", vec![("title", "t")]),
        (
            "an unknown context",
            vec![("title", "t"), ("context[]", "everywhere")],
        ),
        (
            "an unknown filter_action",
            vec![
                ("title", "t"),
                ("context[]", "home"),
                ("filter_action", "explode"),
            ],
        ),
        (
            "a blank keyword",
            vec![
                ("title", "t"),
                ("context[]", "home"),
                ("keywords_attributes[][keyword]", " "),
                ("keywords_attributes[][whole_word]", "true"),
            ],
        ),
    ];
    for (what, pairs) in cases {
        let r = cx
            .client
            .post(&path::<CreateFilter>(&[]), Some(&alice.token), form(&pairs))
            .await?;
        expect_error(&r, 422, &format!("a filter with {what}"))?;
    }
    let all = get_ok(cx, &path::<ListFilters>(&[]), &alice).await?;
    ensure!(all == json!([]), "refused filters must not be made: {all}");
    Ok(())
}

async fn others_404(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("filtown").await?;
    let bob = cx.new_user("filtother").await?;
    let status = post_id(cx, &alice, &[("status", "mine")]).await?;
    let made = "making a filter with a keyword (POST /api/v2/filters with keywords_attributes[])";
    let f = keyword_filter(cx, &alice, "secret", true, &["home"], "warn")
        .await
        .setup(made)?;
    let id = str_of(&f, "id").setup(made)?;
    let kw = str_of(&f["keywords"][0], "id").setup(made)?;
    let fs = cx
        .client
        .post(
            &path::<AddFilterStatus>(&[("filter_id", &id)]),
            Some(&alice.token),
            form(&[("status_id", status.as_str())]),
        )
        .await?;
    let added = "adding a status to the filter (POST /api/v2/filters/:id/statuses)";
    fs.expect(200).setup(added)?;
    let fs = str_of(fs.json().setup(added)?, "id").setup(added)?;
    let one = path::<GetFilter>(&[("id", &id)]);
    let kw_path = path::<GetFilterKeyword>(&[("id", &kw)]);
    let fs_path = path::<GetFilterStatus>(&[("id", &fs)]);
    let t = Some(bob.token.as_str());
    for (what, r) in [
        ("GET the filter", cx.client.get(&one, t).await?),
        (
            "PUT the filter",
            cx.send("PUT", &one, t, form(&[("title", "mine now")]))
                .await?,
        ),
        (
            "GET its keywords",
            cx.client
                .get(&path::<ListFilterKeywords>(&[("filter_id", &id)]), t)
                .await?,
        ),
        (
            "POST a keyword",
            cx.client
                .post(
                    &path::<AddFilterKeyword>(&[("filter_id", &id)]),
                    t,
                    form(&[("keyword", "x")]),
                )
                .await?,
        ),
        (
            "GET its statuses",
            cx.client
                .get(&path::<ListFilterStatuses>(&[("filter_id", &id)]), t)
                .await?,
        ),
        ("GET the keyword", cx.client.get(&kw_path, t).await?),
        (
            "PUT the keyword",
            cx.send("PUT", &kw_path, t, form(&[("keyword", "y")]))
                .await?,
        ),
        ("DELETE the keyword", cx.client.delete(&kw_path, t).await?),
        ("GET the filter status", cx.client.get(&fs_path, t).await?),
        (
            "DELETE the filter status",
            cx.client.delete(&fs_path, t).await?,
        ),
        ("DELETE the filter", cx.client.delete(&one, t).await?),
    ] {
        expect_error(&r, 404, &format!("another account's {what}"))?;
    }
    let still = get_ok(cx, &one, &alice).await?;
    ensure!(
        still["title"] == f["title"]
            && still["keywords"] == f["keywords"]
            && still["statuses"][0]["id"] == fs.as_str(),
        "the owner's filter must be untouched: {still}"
    );
    Ok(())
}

async fn foreign_keyword(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("filtforeign").await?;
    let made = "making filters with a keyword (POST /api/v2/filters with keywords_attributes[])";
    let a = keyword_filter(cx, &alice, "one", true, &["home"], "warn")
        .await
        .setup(made)?;
    let b = keyword_filter(cx, &alice, "two", true, &["home"], "warn")
        .await
        .setup(made)?;
    let b_kw = str_of(&b["keywords"][0], "id").setup(made)?;
    let one = path::<GetFilter>(&[("id", &str_of(&a, "id")?)]);
    let r = cx
        .send(
            "PUT",
            &one,
            Some(&alice.token),
            form(&[
                ("title", "renamed"),
                ("keywords_attributes[][id]", b_kw.as_str()),
                ("keywords_attributes[][keyword]", "stolen"),
            ]),
        )
        .await?;
    expect_error(&r, 404, "a keyword of another filter")?;
    ensure!(
        get_ok(cx, &one, &alice).await? == a,
        "a refused update must change nothing"
    );
    let b_now = get_ok(
        cx,
        &path::<GetFilter>(&[("id", &str_of(&b, "id")?)]),
        &alice,
    )
    .await?;
    ensure!(b_now == b, "the other filter must be untouched: {b_now}");
    Ok(())
}

async fn keywords(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("filtkw").await?;
    let f = make(cx, &alice, &[("title", "kw"), ("context[]", "home")]).await?;
    let id = str_of(&f, "id")?;
    let list = path::<ListFilterKeywords>(&[("filter_id", &id)]);
    ensure!(
        get_ok(cx, &list, &alice).await? == json!([]),
        "a new filter without keywords lists none"
    );
    let add = path::<AddFilterKeyword>(&[("filter_id", &id)]);
    let r = cx
        .client
        .post(&add, Some(&alice.token), form(&[("keyword", "")]))
        .await?;
    expect_error(&r, 422, "a blank keyword")?;
    let r = cx
        .client
        .post(
            &add,
            Some(&alice.token),
            form(&[("keyword", "tea"), ("whole_word", "false")]),
        )
        .await?;
    r.expect(200)?;
    let k = r.json()?.clone();
    ensure!(
        k["keyword"] == "tea" && k["whole_word"] == false,
        "POST keywords answers the keyword: {k}"
    );
    let kid = str_of(&k, "id")?;
    let one = path::<GetFilterKeyword>(&[("id", &kid)]);
    ensure!(get_ok(cx, &one, &alice).await? == k, "GET the keyword");
    let r = cx
        .send(
            "PUT",
            &one,
            Some(&alice.token),
            form(&[("keyword", "coffee"), ("whole_word", "true")]),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        r.json()?["keyword"] == "coffee" && r.json()?["whole_word"] == true,
        "PUT changes the keyword: {}",
        r.text
    );
    let r = cx
        .send("PUT", &one, Some(&alice.token), form(&[("keyword", " ")]))
        .await?;
    expect_error(&r, 422, "changing a keyword to blank")?;
    ensure!(
        ids_of(&get_ok(cx, &list, &alice).await?) == vec![kid.clone()],
        "the keyword is listed"
    );
    deleted_then_404(cx, &one, &alice, "a removed keyword").await
}

async fn statuses(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("filtst").await?;
    let bob = cx.new_user("filtstb").await?;
    let public = post_id(cx, &bob, &[("status", "hello")]).await?;
    let private = post_id(
        cx,
        &bob,
        &[("status", "followers only"), ("visibility", "private")],
    )
    .await?;
    let f = make(cx, &alice, &[("title", "st"), ("context[]", "home")]).await?;
    let id = str_of(&f, "id")?;
    let add = path::<AddFilterStatus>(&[("filter_id", &id)]);
    let post = |status: &str| {
        let pairs = [("status_id", status.to_string())];
        cx.client.post(&add, Some(&alice.token), form(&pairs))
    };
    let r = post(&public).await?;
    r.expect(200)?;
    let fs = r.json()?.clone();
    ensure!(
        fs["status_id"] == public.as_str(),
        "POST statuses answers the filter status: {fs}"
    );
    expect_error(&post(&public).await?, 422, "the same status twice")?;
    expect_error(
        &post(&private).await?,
        404,
        "a status the caller may not see",
    )?;
    let list = get_ok(
        cx,
        &path::<ListFilterStatuses>(&[("filter_id", &id)]),
        &alice,
    )
    .await?;
    ensure!(
        list == json!([fs.clone()]),
        "the filter lists its status: {list}"
    );
    let one = path::<GetFilterStatus>(&[("id", &str_of(&fs, "id")?)]);
    ensure!(
        get_ok(cx, &one, &alice).await? == fs,
        "GET the filter status"
    );
    deleted_then_404(cx, &one, &alice, "a removed filter status").await
}

/// The `filtered` results of `status` in `reader`'s home timeline.
async fn home_results(cx: &Cx, reader: &User, status: &str) -> Result<Value, Failure> {
    let h = home(cx, reader).await?;
    let e = entry(&h, status).ok_or_else(|| format!("{status} is not in the home timeline"))?;
    Ok(e["filtered"].clone())
}

async fn filtered_keywords(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("filtread").await?;
    let author = cx.new_user("filtauth").await?;
    let f = keyword_filter(cx, &reader, "cat", true, &["home"], "warn").await?;
    let hit = followed_post(cx, &reader, &author, &[("status", "I love my CAT dearly")]).await?;
    let inside = post_id(cx, &author, &[("status", "concatenate strings")]).await?;
    let results = home_results(cx, &reader, &hit).await?;
    ensure!(
        results.as_array().map(Vec::len) == Some(1)
            && results[0]["filter"]["id"] == f["id"]
            && results[0]["filter"]["title"] == "checks"
            && results[0]["keyword_matches"] == json!(["CAT"]),
        "a matching status carries the filter and the text matched: {results}"
    );
    ensure!(
        home_results(cx, &reader, &inside).await? == json!([]),
        "a whole-word keyword must not match inside a word (filtered must be [])"
    );
    let g = keyword_filter(cx, &reader, "cat", false, &["home"], "warn").await?;
    let results = home_results(cx, &reader, &inside).await?;
    ensure!(
        results.as_array().map(Vec::len) == Some(1) && results[0]["filter"]["id"] == g["id"],
        "a keyword that is not whole-word matches inside a word: {results}"
    );
    Ok(())
}

async fn filtered_cw_poll(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("filtcw").await?;
    let author = cx.new_user("filtcwa").await?;
    keyword_filter(cx, &reader, "ending", true, &["home"], "warn").await?;
    let cw = followed_post(
        cx,
        &reader,
        &author,
        &[("status", "nothing to see"), ("spoiler_text", "the ending")],
    )
    .await?;
    let poll = post_id(
        cx,
        &author,
        &[
            ("status", "which one?"),
            ("poll[options][]", "happy ending"),
            ("poll[options][]", "sad"),
            ("poll[expires_in]", "3600"),
        ],
    )
    .await?;
    for (what, id) in [("content warning", cw), ("poll option", poll)] {
        let r = home_results(cx, &reader, &id).await?;
        ensure!(
            r.as_array().map(Vec::len) == Some(1),
            "a keyword in a status's {what} must match: {r}"
        );
    }
    Ok(())
}

async fn filtered_statuses(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("filtsid").await?;
    let author = cx.new_user("filtsida").await?;
    let booster = cx.new_user("filtsidb").await?;
    let id = followed_post(cx, &reader, &author, &[("status", "a plain post")]).await?;
    act::<FollowAccount>(cx, &reader, &booster, &[]).await?;
    let f = make(cx, &reader, &[("title", "by id"), ("context[]", "home")]).await?;
    cx.client
        .post(
            &path::<AddFilterStatus>(&[("filter_id", &str_of(&f, "id")?)]),
            Some(&reader.token),
            form(&[("status_id", id.as_str())]),
        )
        .await?
        .expect(200)?;
    let r = home_results(cx, &reader, &id).await?;
    ensure!(
        r.as_array().map(Vec::len) == Some(1)
            && r[0]["status_matches"] == json!([id.clone()])
            && r[0]["keyword_matches"].is_null(),
        "a filter's status matches by id: {r}"
    );
    let reblog = cx
        .client
        .post(
            &path::<fedblog_core::api::statuses::reblog_status::ReblogStatus>(&[("id", &id)]),
            Some(&booster.token),
            Body::None,
        )
        .await?;
    reblog.expect(200)?;
    let reblog_id = str_of(reblog.json()?, "id")?;
    let h = home(cx, &reader).await?;
    let e = entry(&h, &reblog_id).ok_or("the reblog is not in the home timeline")?;
    ensure!(
        e["filtered"].as_array().map(Vec::len) == Some(1)
            && e["filtered"] == e["reblog"]["filtered"]
            && e["filtered"][0]["status_matches"] == json!([id.clone()]),
        "a reblog of a filtered status carries the same results as its original: {e}"
    );
    Ok(())
}

async fn expired(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("filtexp").await?;
    let author = cx.new_user("filtexpa").await?;
    let f = make(
        cx,
        &reader,
        &[
            ("title", "short"),
            ("context[]", "home"),
            ("expires_in", "1"),
            ("keywords_attributes[][keyword]", "fleeting"),
        ],
    )
    .await?;
    tokio::time::sleep(std::time::Duration::from_millis(1_300)).await;
    let id = followed_post(cx, &reader, &author, &[("status", "a fleeting thought")]).await?;
    ensure!(
        home_results(cx, &reader, &id).await? == json!([]),
        "an expired filter must not match"
    );
    let all = get_ok(cx, &path::<ListFilters>(&[]), &reader).await?;
    ensure!(
        ids_of(&all) == vec![str_of(&f, "id")?],
        "an expired filter is still listed: {all}"
    );
    Ok(())
}

async fn anonymous(cx: &Cx) -> CheckResult {
    let author = cx.new_user("filtanon").await?;
    let id = post_id(cx, &author, &[("status", "for everyone")]).await?;
    let r = get(cx, &path::<GetStatus>(&[("id", &id)]), None).await?;
    r.expect(200)?;
    ensure!(
        r.json()?.get("filtered").is_none(),
        "a status read without a token must have no filtered attribute: {}",
        r.text
    );
    let r = get(cx, &path::<GetStatus>(&[("id", &id)]), Some(&author)).await?;
    ensure!(
        r.json()?["filtered"] == json!([]),
        "a status read with a token and no filters has filtered []: {}",
        r.text
    );
    Ok(())
}

async fn hide_home(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("filthide").await?;
    let author = cx.new_user("filthidea").await?;
    keyword_filter(cx, &reader, "brussels sprouts", false, &["home"], "hide").await?;
    keyword_filter(cx, &reader, "carrots", false, &["home"], "warn").await?;
    let hidden = followed_post(
        cx,
        &reader,
        &author,
        &[("status", "Brussels sprouts again")],
    )
    .await?;
    let warned = post_id(cx, &author, &[("status", "carrots today")]).await?;
    let h = home(cx, &reader).await?;
    ensure!(
        entry(&h, &hidden).is_none(),
        "a status matching a hide filter of the home context must not be in the home timeline"
    );
    let w = entry(&h, &warned).ok_or("a status matching a warn filter must stay")?;
    ensure!(
        w["filtered"][0]["filter"]["filter_action"] == "warn",
        "the warned status carries its results: {w}"
    );
    Ok(())
}

async fn hide_public(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("filtpub").await?;
    let author = cx.new_user("filtpuba").await?;
    let word = cx.unique("zork");
    keyword_filter(cx, &reader, &word, true, &["public"], "hide").await?;
    let id = followed_post(
        cx,
        &reader,
        &author,
        &[("status", &format!("all about {word}"))],
    )
    .await?;
    let public = get_ok(
        cx,
        &format!("{}?local=true&limit=40", path::<PublicTimeline>(&[])),
        &reader,
    )
    .await?;
    ensure!(
        entry(&public, &id).is_none(),
        "a hide filter of the public context must leave the status out of the public timeline"
    );
    ensure!(
        entry(&home(cx, &reader).await?, &id).is_some(),
        "a hide filter of the public context must not touch the home timeline"
    );
    Ok(())
}

async fn hide_notifications(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("filtnote").await?;
    let author = cx.new_user("filtnotea").await?;
    keyword_filter(cx, &reader, "giveaway", true, &["notifications"], "hide").await?;
    let hidden = post_id(
        cx,
        &author,
        &[("status", &format!("@{} free giveaway!", reader.username))],
    )
    .await?;
    let kept = post_id(
        cx,
        &author,
        &[("status", &format!("@{} hello", reader.username))],
    )
    .await?;
    let n = get_ok(cx, &path::<ListNotifications>(&[]), &reader).await?;
    let statuses: Vec<String> = n
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x["status"]["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    ensure!(
        statuses.contains(&kept) && !statuses.contains(&hidden),
        "a mention matching a hide filter of the notifications context must be left out, others kept: {statuses:?}"
    );
    Ok(())
}

async fn hide_thread(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("filtthr").await?;
    let author = cx.new_user("filtthra").await?;
    keyword_filter(cx, &reader, "troll", true, &["thread"], "hide").await?;
    let root = post_id(cx, &reader, &[("status", "a question")]).await?;
    let mention = format!("@{} ", reader.username);
    let bad = post_id(
        cx,
        &author,
        &[
            ("status", &format!("{mention}troll answer")),
            ("in_reply_to_id", &root),
        ],
    )
    .await?;
    let good = post_id(
        cx,
        &author,
        &[
            ("status", &format!("{mention}a fine answer")),
            ("in_reply_to_id", &root),
        ],
    )
    .await?;
    let ctx = get_ok(cx, &path::<GetContext>(&[("id", &root)]), &reader).await?;
    let d = ids_of(&ctx["descendants"]);
    ensure!(
        d.contains(&good) && !d.contains(&bad),
        "a reply matching a hide filter of the thread context must be left out of the context: {d:?}"
    );
    let one = get_ok(cx, &path::<GetStatus>(&[("id", &bad)]), &reader).await?;
    ensure!(
        one["filtered"][0]["filter"]["filter_action"] == "hide",
        "the single status still answers, with its results: {one}"
    );
    Ok(())
}

async fn own_stay(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("filtown2").await?;
    keyword_filter(cx, &alice, "myself", true, &["home"], "hide").await?;
    let id = post_id(cx, &alice, &[("status", "about myself")]).await?;
    ensure!(
        entry(&home(cx, &alice).await?, &id).is_some(),
        "one's own status must stay in one's home timeline despite one's hide filter"
    );
    Ok(())
}

async fn v1_crud(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("filtv1").await?;
    let r = cx
        .client
        .post(
            &path::<CreateFilterV1>(&[]),
            Some(&alice.token),
            form(&[
                ("phrase", "election"),
                ("context[]", "home"),
                ("context[]", "notifications"),
                ("irreversible", "true"),
                ("whole_word", "false"),
            ]),
        )
        .await?;
    r.expect(200)?;
    let v1 = r.json()?.clone();
    ensure!(
        v1["phrase"] == "election"
            && v1["context"] == json!(["home", "notifications"])
            && v1["irreversible"] == true
            && v1["whole_word"] == false
            && v1["expires_at"].is_null(),
        "POST /api/v1/filters answers the v1 filter: {v1}"
    );
    let id = str_of(&v1, "id")?;
    let v2 = get_ok(cx, &path::<ListFilters>(&[]), &alice).await?;
    ensure!(
        v2[0]["title"] == "election"
            && v2[0]["filter_action"] == "hide"
            && v2[0]["keywords"][0]["id"] == id.as_str(),
        "a v1 filter is a v2 filter titled by its phrase, hiding, with the phrase as its keyword: {v2}"
    );
    ensure!(
        get_ok(cx, &path::<ListFiltersV1>(&[]), &alice).await? == json!([v1.clone()]),
        "GET /api/v1/filters lists it"
    );
    let one = path::<GetFilterV1>(&[("id", &id)]);
    let r = cx
        .send(
            "PUT",
            &one,
            Some(&alice.token),
            form(&[
                ("phrase", "elections"),
                ("context[]", "public"),
                ("irreversible", "false"),
            ]),
        )
        .await?;
    r.expect(200)?;
    let changed = r.json()?.clone();
    ensure!(
        changed["phrase"] == "elections"
            && changed["context"] == json!(["public"])
            && changed["irreversible"] == false,
        "PUT /api/v1/filters/:id changes it: {changed}"
    );
    ensure!(get_ok(cx, &one, &alice).await? == changed, "GET answers it");
    deleted_then_404(cx, &one, &alice, "a deleted v1 filter").await
}

async fn v1_several(cx: &Cx) -> CheckResult {
    let alice = cx.new_user("filtv1m").await?;
    let f = make(
        cx,
        &alice,
        &[
            ("title", "two"),
            ("context[]", "home"),
            ("keywords_attributes[][keyword]", "a"),
            ("keywords_attributes[][keyword]", "b"),
        ],
    )
    .await
    .setup("making a filter with two keywords (POST /api/v2/filters)")?;
    let kw = str_of(&f["keywords"][0], "id")
        .setup("making a filter with two keywords (POST /api/v2/filters)")?;
    let r = cx
        .send(
            "PUT",
            &path::<GetFilterV1>(&[("id", &kw)]),
            Some(&alice.token),
            form(&[("context[]", "public")]),
        )
        .await?;
    expect_error(&r, 422, "v1 settings of a filter with two keywords")?;
    ensure!(
        get_ok(
            cx,
            &path::<GetFilter>(&[("id", &str_of(&f, "id")?)]),
            &alice
        )
        .await?
            == f,
        "the refused change must change nothing"
    );
    Ok(())
}

async fn no_token(cx: &Cx) -> CheckResult {
    for url in [path::<ListFilters>(&[]), path::<ListFiltersV1>(&[])] {
        expect_error(
            &get(cx, &url, None).await?,
            401,
            &format!("GET {url} without a token"),
        )?;
    }
    Ok(())
}
