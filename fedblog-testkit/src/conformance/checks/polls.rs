//! Polls: created with a status (options, `expires_in` bounds, `multiple`, `hide_totals`; bad
//! parameters 422 with nothing stored), `GET /api/v1/polls/:id` through the visibility of its
//! status, and voting (`choices[]`, `voted`, `own_votes`, one vote per account, no vote in one's
//! own poll) with its bad-input paths (401, 403, 404, 422). Voting after expiry cannot be reached
//! over HTTP in a test run (the shortest poll lasts five minutes): core's unit tests cover it.

use serde_json::{Value, json};

use fedblog_core::api::accounts::{
    block_account::BlockAccount, follow_account::FollowAccount,
    verify_credentials::VerifyCredentials,
};
use fedblog_core::api::polls::{get_poll::GetPoll, vote_poll::VotePoll};
use fedblog_core::api::scheduled_statuses::get_scheduled_status::GetScheduledStatus;
use fedblog_core::api::statuses::{
    create_status::CreateStatus, delete_status::DeleteStatus, get_status::GetStatus,
};

use crate::check;
use crate::client::{Body, Response, form};
use crate::conformance::checks::social::{act, token_with_scopes};
use crate::conformance::{
    Check, CheckResult, Cx, Failure, SetUp, User, expect_error, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "polls/create-form",
            "a status posted with poll[options][], poll[expires_in] (form) carries a Poll: the options in order with votes_count 0, expired false, multiple false, voters_count null, expires_at expires_in seconds ahead; the author gets voted true and own_votes []",
            create_form
        ),
        check!(
            "polls/create-json-multiple",
            "a JSON status with poll {options, expires_in, multiple: true, hide_totals: true} carries a multiple-choice Poll with voters_count 0, readable through GET /api/v1/polls/:id",
            create_json_multiple
        ),
        check!(
            "polls/options-count-422",
            "a poll with fewer than 2 or more than 4 options is a 422 and no status is stored; 4 options are accepted",
            options_count_422
        ),
        check!(
            "polls/option-length-422",
            "a poll option over 50 characters, or blank, is a 422 and no status is stored; exactly 50 characters are accepted",
            option_length_422
        ),
        check!(
            "polls/duplicate-options-422",
            "a poll whose options are not all different is a 422 and no status is stored",
            duplicate_options_422
        ),
        check!(
            "polls/expires-in-422",
            "poll[expires_in] below 300 or above 2629746 seconds, missing or not a number is a 422 and no status is stored; 300 and 2629746 are accepted",
            expires_in_422
        ),
        check!(
            "polls/with-media-422",
            "a status with both a poll and media_ids[] is a 422 and nothing is stored",
            with_media_422
        ),
        check!(
            "polls/scheduled-carries-poll",
            "a scheduled status with a poll answers a ScheduledStatus whose params.poll holds the options, expires_in, multiple and hide_totals; a bad scheduled poll is a 422",
            scheduled_carries_poll
        ),
        check!(
            "polls/public-anonymous",
            "the poll of a public or unlisted status can be read without a token (no voted or own_votes); with a token, voted is false and own_votes [] before voting",
            public_anonymous
        ),
        check!(
            "polls/private-anonymous-404",
            "the poll of a followers-only status is a 404 (never 401/403) for anonymous callers and non-followers, and readable by followers and the author",
            private_anonymous_404
        ),
        check!(
            "polls/direct-404",
            "the poll of a direct status is a 404 for followers and others who are not mentioned, and readable by the mentioned account, which can vote",
            direct_404
        ),
        check!(
            "polls/blocked-404",
            "an account blocked by the author gets a 404 for the poll and for a vote in it",
            blocked_404
        ),
        check!(
            "polls/unknown-404",
            "reading or voting in an unknown or malformed poll id is a 404",
            unknown_404
        ),
        check!(
            "polls/get-auth",
            "reading a poll with a token lacking read:statuses is a 403 and with an invalid token a 401",
            get_auth
        ),
        check!(
            "polls/vote-single",
            "POST /api/v1/polls/:id/votes with choices[] answers the poll with voted true, own_votes and the counts raised; the voter's reads of the poll and of the status show the vote, other viewers' do not",
            vote_single
        ),
        check!(
            "polls/vote-multiple",
            "several distinct choices in a multiple-choice poll count once each, and voters_count counts the voter once",
            vote_multiple
        ),
        check!(
            "polls/vote-twice-422",
            "a second vote by the same account is a 422 (\"You have already voted\") and the counts and own_votes stay as they were",
            vote_twice_422
        ),
        check!(
            "polls/several-choices-single-422",
            "several choices in a single-choice poll are a 422 and nothing is counted",
            several_choices_single_422
        ),
        check!(
            "polls/bad-choices-422",
            "choices out of range, negative, not numbers, repeated or missing are a 422 and nothing is counted",
            bad_choices_422
        ),
        check!(
            "polls/own-poll-422",
            "the author cannot vote in its own poll (422)",
            own_poll_422
        ),
        check!(
            "polls/vote-auth",
            "voting without a token is a 401 and with a token lacking write:statuses a 403",
            vote_auth
        ),
        check!(
            "polls/hide-totals",
            "while a hide_totals poll is open, the options' votes_count are null for voters and others but given to the author; the poll's votes_count is given",
            hide_totals
        ),
        check!(
            "polls/deleted-status-404",
            "deleting a status answers it with its poll (for redrafting); afterwards the poll is a 404 and voting in it a 404",
            deleted_status_404
        ),
    ]
}

/// An id no server has issued (a snowflake far in the future).
const UNKNOWN_ID: &str = "999999999999999990";

/// Posts a status with form pairs as `who`.
async fn post(cx: &Cx, who: &User, pairs: &[(&str, &str)]) -> Result<Response, Failure> {
    Ok(cx
        .client
        .post(&path::<CreateStatus>(&[]), Some(&who.token), form(pairs))
        .await?)
}

/// The form pairs of a poll with these options open for an hour, with `extra` pairs.
fn poll_pairs<'a>(
    text: &'a str,
    options: &[&'a str],
    extra: &[(&'a str, &'a str)],
) -> Vec<(&'a str, &'a str)> {
    let mut pairs = vec![("status", text)];
    pairs.extend(options.iter().map(|o| ("poll[options][]", *o)));
    if !extra.iter().any(|(k, _)| *k == "poll[expires_in]") {
        pairs.push(("poll[expires_in]", "3600"));
    }
    pairs.extend_from_slice(extra);
    pairs
}

/// The JSON body of a status posted with these form pairs: `status`, `visibility`,
/// `in_reply_to_id`, `poll[options][]`, `poll[expires_in]`, `poll[multiple]`,
/// `poll[hide_totals]` (a later pair wins over an earlier one of the same name).
pub(crate) fn status_json(pairs: &[(&str, &str)]) -> Result<Value, Failure> {
    let mut body = json!({});
    let mut poll = serde_json::Map::new();
    for (k, v) in pairs {
        match *k {
            "status" | "visibility" | "in_reply_to_id" => body[*k] = json!(v),
            "poll[options][]" => poll
                .entry("options")
                .or_insert_with(|| json!([]))
                .as_array_mut()
                .expect("options are an array")
                .push(json!(v)),
            "poll[multiple]" => {
                poll.insert("multiple".into(), json!(*v == "true"));
            }
            "poll[hide_totals]" => {
                poll.insert("hide_totals".into(), json!(*v == "true"));
            }
            "poll[expires_in]" => {
                let seconds: i64 = v.parse().map_err(|_| {
                    Failure::Fail(format!("set-up: poll[expires_in] {v:?} is no number"))
                })?;
                poll.insert("expires_in".into(), json!(seconds));
            }
            other => {
                return Err(Failure::Fail(format!(
                    "set-up: status_json has no JSON for the pair {other}"
                )));
            }
        }
    }
    if !poll.is_empty() {
        body["poll"] = Value::Object(poll);
    }
    Ok(body)
}

/// Posts a status with a poll open for an hour and answers (status id, poll JSON), failing the
/// check unless the poll is made ([`poll_for`] is the set-up version). It is sent as
/// JSON, so that the checks built on it do not hang on form arrays (`poll[options][]`), which
/// `polls/create-form` checks on its own. `extra` pairs as [`status_json`] takes them (a
/// `status` pair replaces the text).
async fn post_poll(
    cx: &Cx,
    who: &User,
    options: &[&str],
    extra: &[(&str, &str)],
) -> Result<(String, Value), Failure> {
    let body = status_json(&poll_pairs("a question", options, extra))?;
    let s = cx.create_status_json(who, body).await?;
    let poll = s["poll"].clone();
    ensure!(
        poll.is_object(),
        "a status posted with a poll has poll {}",
        s["poll"]
    );
    Ok((str_of(&s, "id")?, poll))
}

/// [`post_poll`] as set-up, for checks about something else than making the poll.
async fn poll_for(
    cx: &Cx,
    who: &User,
    options: &[&str],
    extra: &[(&str, &str)],
) -> Result<(String, Value), Failure> {
    post_poll(cx, who, options, extra)
        .await
        .setup("posting a status with a poll (POST /api/v1/statuses, JSON)")
}

/// GETs a poll.
async fn get_poll(cx: &Cx, id: &str, token: Option<&str>) -> Result<Response, Failure> {
    Ok(cx
        .client
        .get(&path::<GetPoll>(&[("id", id)]), token)
        .await?)
}

/// The poll, which `token` must be able to read.
async fn poll_ok(cx: &Cx, id: &str, token: Option<&str>) -> Result<Value, Failure> {
    let r = get_poll(cx, id, token).await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// Votes with `choices[]` values as `token`.
async fn vote(
    cx: &Cx,
    id: &str,
    token: Option<&str>,
    choices: &[&str],
) -> Result<Response, Failure> {
    let pairs: Vec<(&str, &str)> = choices.iter().map(|c| ("choices[]", *c)).collect();
    Ok(cx
        .client
        .post(&path::<VotePoll>(&[("id", id)]), token, form(&pairs))
        .await?)
}

/// The option counts of a poll (`None` where hidden).
fn counts(poll: &Value) -> Vec<Option<i64>> {
    poll["options"]
        .as_array()
        .map(|a| a.iter().map(|o| o["votes_count"].as_i64()).collect())
        .unwrap_or_default()
}

/// The account's `statuses_count`.
async fn statuses_count(cx: &Cx, who: &User) -> Result<i64, Failure> {
    let r = cx
        .client
        .get(&path::<VerifyCredentials>(&[]), Some(&who.token))
        .await?;
    r.expect(200)?;
    r.json()?["statuses_count"]
        .as_i64()
        .ok_or_else(|| Failure::Fail(format!("no statuses_count in {}", r.text)))
}

/// Posts each refused poll and checks it is a 422 and stores nothing.
async fn refused(cx: &Cx, who: &User, cases: &[(&str, Vec<(&str, &str)>)]) -> CheckResult {
    let before = statuses_count(cx, who).await?;
    for (what, pairs) in cases {
        let r = post(cx, who, pairs).await?;
        expect_error(&r, 422, what)?;
    }
    let after = statuses_count(cx, who).await?;
    ensure!(
        after == before,
        "refused polls stored statuses: statuses_count went from {before} to {after}"
    );
    Ok(())
}

async fn create_form(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let before = chrono::Utc::now();
    let (_, poll) = post_poll(cx, &author, &["tea", "coffee", "water"], &[]).await?;
    let titles: Vec<&str> = poll["options"]
        .as_array()
        .map(|a| a.iter().filter_map(|o| o["title"].as_str()).collect())
        .unwrap_or_default();
    ensure!(titles == ["tea", "coffee", "water"], "poll options: {poll}");
    ensure!(
        counts(&poll) == [Some(0), Some(0), Some(0)] && poll["votes_count"] == 0,
        "a new poll's counts: {poll}"
    );
    ensure!(
        poll["expired"] == false && poll["multiple"] == false && poll["voters_count"].is_null(),
        "a new single-choice poll: {poll}"
    );
    ensure!(
        poll["voted"] == true && poll["own_votes"] == json!([]),
        "the author's view of its poll: voted {} own_votes {}",
        poll["voted"],
        poll["own_votes"]
    );
    let expires = poll["expires_at"]
        .as_str()
        .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
        .ok_or_else(|| Failure::Fail(format!("expires_at is not a date: {poll}")))?;
    let ahead = (expires.with_timezone(&chrono::Utc) - before).num_seconds();
    ensure!(
        (3590..=3700).contains(&ahead),
        "expires_at is {ahead} seconds ahead for poll[expires_in]=3600"
    );
    Ok(())
}

async fn create_json_multiple(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let r = cx
        .send(
            "POST",
            &path::<CreateStatus>(&[]),
            Some(&author.token),
            Body::Json(json!({
                "status": "pick any",
                "poll": {"options": ["a", "b"], "expires_in": 600, "multiple": true, "hide_totals": true},
            })),
        )
        .await?;
    r.expect(200)?;
    let poll = &r.json()?["poll"];
    ensure!(
        poll["multiple"] == true && poll["voters_count"] == 0,
        "a JSON multiple-choice poll: {poll}"
    );
    let id = str_of(poll, "id")?;
    let read = poll_ok(cx, &id, Some(&author.token)).await?;
    ensure!(
        read["id"] == id.as_str() && read["options"] == poll["options"],
        "GET /api/v1/polls/:id answered {read}, the status carried {poll}"
    );
    Ok(())
}

async fn options_count_422(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    refused(
        cx,
        &author,
        &[
            ("a poll of one option", poll_pairs("q", &["only"], &[])),
            (
                "a poll of five options",
                poll_pairs("q", &["a", "b", "c", "d", "e"], &[]),
            ),
            (
                "a poll without options",
                vec![("status", "q"), ("poll[expires_in]", "3600")],
            ),
        ],
    )
    .await?;
    let (_, poll) = post_poll(cx, &author, &["a", "b", "c", "d"], &[]).await?;
    ensure!(counts(&poll).len() == 4, "a poll of four options: {poll}");
    Ok(())
}

async fn option_length_422(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let long = "x".repeat(51);
    refused(
        cx,
        &author,
        &[
            (
                "a 51-character option",
                poll_pairs("q", &["short", long.as_str()], &[]),
            ),
            ("a blank option", poll_pairs("q", &["short", "   "], &[])),
            ("an empty option", poll_pairs("q", &["short", ""], &[])),
        ],
    )
    .await?;
    let exact = "y".repeat(50);
    let (_, poll) = post_poll(cx, &author, &["short", exact.as_str()], &[]).await?;
    ensure!(
        poll["options"][1]["title"] == exact.as_str(),
        "a 50-character option: {poll}"
    );
    Ok(())
}

async fn duplicate_options_422(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    refused(
        cx,
        &author,
        &[
            ("a repeated option", poll_pairs("q", &["same", "same"], &[])),
            (
                "options differing only by surrounding spaces",
                poll_pairs("q", &["one", "same", " same "], &[]),
            ),
        ],
    )
    .await
}

async fn expires_in_422(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let with = |e: &'static str| poll_pairs("q", &["a", "b"], &[("poll[expires_in]", e)]);
    refused(
        cx,
        &author,
        &[
            ("poll[expires_in]=299", with("299")),
            ("poll[expires_in]=2629747", with("2629747")),
            ("poll[expires_in]=soon", with("soon")),
            ("poll[expires_in]=-5", with("-5")),
            (
                "a poll without expires_in",
                vec![
                    ("status", "q"),
                    ("poll[options][]", "a"),
                    ("poll[options][]", "b"),
                ],
            ),
        ],
    )
    .await?;
    for ok in ["300", "2629746"] {
        let r = post(cx, &author, &with(ok)).await?;
        r.expect(200)?;
        ensure!(
            r.json()?["poll"].is_object(),
            "poll[expires_in]={ok} answered {}",
            r.text
        );
    }
    Ok(())
}

async fn with_media_422(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    refused(
        cx,
        &author,
        &[(
            "a poll with media_ids[]",
            poll_pairs("q", &["a", "b"], &[("media_ids[]", "12345")]),
        )],
    )
    .await
}

async fn scheduled_carries_poll(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let at = (chrono::Utc::now() + chrono::Duration::minutes(30))
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let r = post(
        cx,
        &author,
        &poll_pairs(
            "later",
            &["yes", "no"],
            &[("poll[multiple]", "true"), ("scheduled_at", at.as_str())],
        ),
    )
    .await?;
    r.expect(200)?;
    let scheduled = r.json()?.clone();
    let want = json!({"options": ["yes", "no"], "expires_in": 3600, "multiple": true, "hide_totals": false});
    ensure!(
        scheduled["params"]["poll"] == want,
        "a scheduled poll's params.poll: {}",
        scheduled["params"]["poll"]
    );
    let id = str_of(&scheduled, "id")?;
    let r = cx
        .client
        .get(
            &path::<GetScheduledStatus>(&[("id", &id)]),
            Some(&author.token),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        r.json()?["params"]["poll"] == want,
        "the scheduled status read back: {}",
        r.text
    );
    let r = post(
        cx,
        &author,
        &poll_pairs("later", &["only"], &[("scheduled_at", at.as_str())]),
    )
    .await?;
    expect_error(&r, 422, "a scheduled poll of one option")
}

async fn public_anonymous(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let reader = cx.new_user("reader").await?;
    for vis in ["public", "unlisted"] {
        let (_, poll) = poll_for(cx, &author, &["a", "b"], &[("visibility", vis)]).await?;
        let id = str_of(&poll, "id")?;
        let anon = poll_ok(cx, &id, None).await?;
        ensure!(
            anon.get("voted").is_none_or(Value::is_null)
                && anon.get("own_votes").is_none_or(Value::is_null),
            "an anonymous read of a {vis} poll carries voted/own_votes: {anon}"
        );
        let signed = poll_ok(cx, &id, Some(&reader.token)).await?;
        ensure!(
            signed["voted"] == false && signed["own_votes"] == json!([]),
            "a signed-in read of a {vis} poll before voting: {signed}"
        );
    }
    Ok(())
}

async fn private_anonymous_404(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let follower = cx.new_user("follower").await?;
    let stranger = cx.new_user("stranger").await?;
    act::<FollowAccount>(cx, &follower, &author, &[]).await?;
    let (_, poll) = poll_for(cx, &author, &["a", "b"], &[("visibility", "private")]).await?;
    let id = str_of(&poll, "id")?;
    expect_error(
        &get_poll(cx, &id, None).await?,
        404,
        "an anonymous read of a followers-only poll",
    )?;
    expect_error(
        &get_poll(cx, &id, Some(&stranger.token)).await?,
        404,
        "a non-follower's read of a followers-only poll",
    )?;
    expect_error(
        &vote(cx, &id, Some(&stranger.token), &["0"]).await?,
        404,
        "a non-follower's vote in a followers-only poll",
    )?;
    poll_ok(cx, &id, Some(&follower.token)).await?;
    poll_ok(cx, &id, Some(&author.token)).await?;
    let r = vote(cx, &id, Some(&follower.token), &["1"]).await?;
    r.expect(200)?;
    Ok(())
}

async fn direct_404(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let follower = cx.new_user("follower").await?;
    let mentioned = cx.new_user("mentioned").await?;
    act::<FollowAccount>(cx, &follower, &author, &[]).await?;
    let text = format!("@{} which?", mentioned.username);
    let (_, poll) = poll_for(
        cx,
        &author,
        &["a", "b"],
        &[("status", &text), ("visibility", "direct")],
    )
    .await?;
    let id = str_of(&poll, "id")?;
    for (who, token) in [("anonymous", None), ("follower", Some(&follower.token))] {
        expect_error(
            &get_poll(cx, &id, token.map(String::as_str)).await?,
            404,
            &format!("a {who} read of a direct poll"),
        )?;
    }
    poll_ok(cx, &id, Some(&mentioned.token)).await?;
    let r = vote(cx, &id, Some(&mentioned.token), &["0"]).await?;
    r.expect(200)?;
    Ok(())
}

async fn blocked_404(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let blocked = cx.new_user("blocked").await?;
    act::<BlockAccount>(cx, &author, &blocked, &[]).await?;
    let (_, poll) = poll_for(cx, &author, &["a", "b"], &[]).await?;
    let id = str_of(&poll, "id")?;
    expect_error(
        &get_poll(cx, &id, Some(&blocked.token)).await?,
        404,
        "a blocked account's read of the poll",
    )?;
    expect_error(
        &vote(cx, &id, Some(&blocked.token), &["0"]).await?,
        404,
        "a blocked account's vote",
    )?;
    let after = poll_ok(cx, &id, Some(&author.token)).await?;
    ensure!(
        after["votes_count"] == 0,
        "a refused vote was counted: {after}"
    );
    Ok(())
}

async fn unknown_404(cx: &Cx) -> CheckResult {
    let voter = cx.new_user("voter").await?;
    for id in [UNKNOWN_ID, "not-an-id"] {
        expect_error(
            &get_poll(cx, id, Some(&voter.token)).await?,
            404,
            &format!("reading poll {id:?}"),
        )?;
        expect_error(
            &vote(cx, id, Some(&voter.token), &["0"]).await?,
            404,
            &format!("voting in poll {id:?}"),
        )?;
    }
    Ok(())
}

async fn get_auth(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let (_, poll) = poll_for(cx, &author, &["a", "b"], &[]).await?;
    let id = str_of(&poll, "id")?;
    let token = token_with_scopes(cx, "read:accounts").await?;
    expect_error(
        &get_poll(cx, &id, Some(&token)).await?,
        403,
        "reading a poll with a token lacking read:statuses",
    )?;
    expect_error(
        &get_poll(cx, &id, Some("not-a-valid-token")).await?,
        401,
        "reading a poll with an invalid token",
    )
}

async fn vote_single(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let voter = cx.new_user("voter").await?;
    let other = cx.new_user("other").await?;
    let (status_id, poll) = poll_for(cx, &author, &["a", "b", "c"], &[]).await?;
    let id = str_of(&poll, "id")?;
    let r = vote(cx, &id, Some(&voter.token), &["1"]).await?;
    r.expect(200)?;
    let after = r.json()?.clone();
    ensure!(
        after["id"] == id.as_str()
            && after["voted"] == true
            && after["own_votes"] == json!([1])
            && counts(&after) == [Some(0), Some(1), Some(0)]
            && after["votes_count"] == 1,
        "the answer to a vote for option 1: {after}"
    );
    let read = poll_ok(cx, &id, Some(&voter.token)).await?;
    ensure!(
        read["voted"] == true && read["own_votes"] == json!([1]),
        "the voter's read of the poll: {read}"
    );
    let r = cx
        .client
        .get(
            &path::<GetStatus>(&[("id", &status_id)]),
            Some(&voter.token),
        )
        .await?;
    r.expect(200)?;
    let p = &r.json()?["poll"];
    ensure!(
        p["own_votes"] == json!([1]) && p["votes_count"] == 1,
        "the voter's read of the status: poll {p}"
    );
    let seen = poll_ok(cx, &id, Some(&other.token)).await?;
    ensure!(
        seen["voted"] == false && seen["own_votes"] == json!([]) && seen["votes_count"] == 1,
        "another account's read after the vote: {seen}"
    );
    Ok(())
}

async fn vote_multiple(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let (voter, second) = (cx.new_user("voter").await?, cx.new_user("voter").await?);
    let (_, poll) = poll_for(cx, &author, &["a", "b", "c"], &[("poll[multiple]", "true")]).await?;
    let id = str_of(&poll, "id")?;
    let r = vote(cx, &id, Some(&voter.token), &["2", "0"]).await?;
    r.expect(200)?;
    let after = r.json()?.clone();
    ensure!(
        after["own_votes"] == json!([0, 2])
            && counts(&after) == [Some(1), Some(0), Some(1)]
            && after["votes_count"] == 2
            && after["voters_count"] == 1,
        "the answer to a vote for options 2 and 0: {after}"
    );
    let r = vote(cx, &id, Some(&second.token), &["0"]).await?;
    r.expect(200)?;
    let after = r.json()?.clone();
    ensure!(
        counts(&after) == [Some(2), Some(0), Some(1)]
            && after["votes_count"] == 3
            && after["voters_count"] == 2,
        "after a second voter chose option 0: {after}"
    );
    Ok(())
}

async fn vote_twice_422(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let voter = cx.new_user("voter").await?;
    let (_, poll) = poll_for(cx, &author, &["a", "b"], &[]).await?;
    let id = str_of(&poll, "id")?;
    vote(cx, &id, Some(&voter.token), &["0"])
        .await?
        .expect(200)?;
    for choice in ["0", "1"] {
        let r = vote(cx, &id, Some(&voter.token), &[choice]).await?;
        expect_error(&r, 422, &format!("a second vote (for {choice})"))?;
        ensure!(
            r.error_text().is_some_and(|e| e.contains("already voted")),
            "a second vote's error: {}",
            r.text
        );
    }
    let read = poll_ok(cx, &id, Some(&voter.token)).await?;
    ensure!(
        read["own_votes"] == json!([0]) && counts(&read) == [Some(1), Some(0)],
        "after refused second votes: {read}"
    );
    Ok(())
}

async fn several_choices_single_422(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let voter = cx.new_user("voter").await?;
    let (_, poll) = poll_for(cx, &author, &["a", "b"], &[]).await?;
    let id = str_of(&poll, "id")?;
    let r = vote(cx, &id, Some(&voter.token), &["0", "1"]).await?;
    expect_error(&r, 422, "two choices in a single-choice poll")?;
    let read = poll_ok(cx, &id, Some(&voter.token)).await?;
    ensure!(
        read["voted"] == false && read["votes_count"] == 0,
        "after a refused vote: {read}"
    );
    vote(cx, &id, Some(&voter.token), &["1"])
        .await?
        .expect(200)?;
    Ok(())
}

async fn bad_choices_422(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let voter = cx.new_user("voter").await?;
    let (_, poll) = poll_for(cx, &author, &["a", "b"], &[("poll[multiple]", "true")]).await?;
    let id = str_of(&poll, "id")?;
    let cases: [(&str, &[&str]); 5] = [
        ("an index past the last option", &["2"]),
        ("a negative index", &["-1"]),
        ("a choice that is not a number", &["first"]),
        ("a repeated choice", &["1", "1"]),
        ("no choices", &[]),
    ];
    for (what, choices) in cases {
        let r = vote(cx, &id, Some(&voter.token), choices).await?;
        expect_error(&r, 422, what)?;
    }
    let read = poll_ok(cx, &id, Some(&voter.token)).await?;
    ensure!(
        read["voted"] == false && read["votes_count"] == 0,
        "after refused votes: {read}"
    );
    Ok(())
}

async fn own_poll_422(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let (_, poll) = poll_for(cx, &author, &["a", "b"], &[]).await?;
    let id = str_of(&poll, "id")?;
    let r = vote(cx, &id, Some(&author.token), &["0"]).await?;
    expect_error(&r, 422, "a vote in one's own poll")?;
    let read = poll_ok(cx, &id, Some(&author.token)).await?;
    ensure!(
        read["votes_count"] == 0,
        "a refused own vote was counted: {read}"
    );
    Ok(())
}

async fn vote_auth(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let (_, poll) = poll_for(cx, &author, &["a", "b"], &[]).await?;
    let id = str_of(&poll, "id")?;
    expect_error(
        &vote(cx, &id, None, &["0"]).await?,
        401,
        "voting without a token",
    )?;
    let token = token_with_scopes(cx, "read write:favourites").await?;
    expect_error(
        &vote(cx, &id, Some(&token), &["0"]).await?,
        403,
        "voting with a token lacking write:statuses",
    )
}

async fn hide_totals(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let voter = cx.new_user("voter").await?;
    let (_, poll) = poll_for(cx, &author, &["a", "b"], &[("poll[hide_totals]", "true")]).await?;
    let id = str_of(&poll, "id")?;
    let r = vote(cx, &id, Some(&voter.token), &["1"]).await?;
    r.expect(200)?;
    let after = r.json()?.clone();
    ensure!(
        counts(&after) == [None, None] && after["votes_count"] == 1,
        "the voter's answer for a hide_totals poll: {after}"
    );
    let anon = poll_ok(cx, &id, None).await?;
    ensure!(
        counts(&anon) == [None, None],
        "an anonymous read of a hide_totals poll: {anon}"
    );
    let own = poll_ok(cx, &id, Some(&author.token)).await?;
    ensure!(
        counts(&own) == [Some(0), Some(1)],
        "the author's read of its hide_totals poll: {own}"
    );
    Ok(())
}

async fn deleted_status_404(cx: &Cx) -> CheckResult {
    let author = cx.new_user("pollster").await?;
    let voter = cx.new_user("voter").await?;
    let (status_id, poll) = poll_for(cx, &author, &["a", "b"], &[]).await?;
    let id = str_of(&poll, "id")?;
    let deleted = cx
        .client
        .delete(
            &path::<DeleteStatus>(&[("id", &status_id)]),
            Some(&author.token),
        )
        .await?;
    deleted.expect(200)?;
    let redraft = deleted.json()?;
    ensure!(
        redraft["poll"]["id"] == id.as_str() && redraft["poll"]["options"][1]["title"] == "b",
        "the deletion's answer lacks the poll needed to redraft it: {redraft}"
    );
    expect_error(
        &get_poll(cx, &id, Some(&author.token)).await?,
        404,
        "reading the poll of a deleted status",
    )?;
    expect_error(
        &vote(cx, &id, Some(&voter.token), &["0"]).await?,
        404,
        "voting in the poll of a deleted status",
    )
}
