//! The admin dashboard's figures (`POST /api/v1/admin/measures`, `dimensions`, `retention`):
//! a user's request shows in today's active users, a new account in new users, every
//! documented key answers in its shape, and the refusals (a normal user's token, a bad date).

use chrono::{Duration, Utc};
use serde_json::Value;

use fedblog_core::api::Endpoint;
use fedblog_core::api::admin_metrics::{
    dimensions::GetDimensions, measures::GetMeasures, retention::GetRetention,
};
use fedblog_core::api::tags::get_tag::GetTag;

use crate::check;
use crate::client::form;
use crate::conformance::{Check, CheckResult, Cx, Failure, expect_error, path, str_of};
use crate::ensure;

/// Every measure Mastodon has, in its order.
const MEASURES: [&str; 14] = [
    "active_users",
    "new_users",
    "interactions",
    "opened_reports",
    "resolved_reports",
    "tag_accounts",
    "tag_uses",
    "tag_servers",
    "instance_accounts",
    "instance_media_attachments",
    "instance_reports",
    "instance_statuses",
    "instance_follows",
    "instance_followers",
];

/// Every dimension Mastodon has, in its order.
const DIMENSIONS: [&str; 9] = [
    "languages",
    "sources",
    "servers",
    "space_usage",
    "software_versions",
    "tag_servers",
    "tag_languages",
    "instance_accounts",
    "instance_languages",
];

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "admin/measures/active-users-today",
            "a user who signs in and makes a request counts in today's active_users (POST /api/v1/admin/measures)",
            active_users_today
        ),
        check!(
            "admin/measures/new-users",
            "a new account counts in today's new_users",
            new_users
        ),
        check!(
            "admin/measures/every-key",
            "every measure key answers an Admin::Measure in the order asked (key, total as a string, previous_total for the ranged ones, unit and human_value for sizes, one {date, value} per day); unknown keys are left out",
            every_measure
        ),
        check!(
            "admin/dimensions/every-key",
            "every dimension key answers an Admin::Dimension (key, data of {key, human_key, value}; unit and human_value for space_usage) within the limit (POST /api/v1/admin/dimensions)",
            every_dimension
        ),
        check!(
            "admin/retention/cohorts",
            "POST /api/v1/admin/retention answers one Admin::Cohort per day (or month) of the range, each followed from its period to the last with {date, rate, value}",
            retention
        ),
        check!(
            "admin/measures/refused-to-users",
            "a normal user's token is refused (403 with an {\"error\"} body) on the measures, dimensions and retention",
            refused_to_users
        ),
        check!(
            "admin/measures/bad-date",
            "a start_at that is no date is a 422 with an {\"error\"} body",
            bad_date
        ),
    ]
}

/// `(start_at, end_at)` from yesterday to tomorrow (UTC), so that today is in the range
/// whatever the clock does meanwhile.
fn around_today() -> (String, String) {
    let today = Utc::now().date_naive();
    (
        (today - Duration::days(1)).to_string(),
        (today + Duration::days(1)).to_string(),
    )
}

/// The form of a request for `keys` from `start` to `end`, with `extra` pairs.
fn request(keys: &[&str], start: &str, end: &str, extra: &[(&str, &str)]) -> crate::client::Body {
    let mut pairs: Vec<(&str, &str)> = keys.iter().map(|k| ("keys[]", *k)).collect();
    pairs.push(("start_at", start));
    pairs.push(("end_at", end));
    pairs.extend_from_slice(extra);
    form(&pairs)
}

/// The total of one measure over yesterday to tomorrow, as the administrator reads it.
async fn total_around_today(cx: &Cx, admin: &str, key: &str) -> Result<i64, Failure> {
    let (start, end) = around_today();
    let r = cx
        .send(
            "POST",
            GetMeasures::PATH,
            Some(admin),
            request(&[key], &start, &end, &[]),
        )
        .await?;
    r.expect(200)?;
    let m = &r.json()?[0];
    ensure!(m["key"] == key, "the measure {key}: {}", r.text);
    m["total"]
        .as_str()
        .and_then(|t| t.parse::<i64>().ok())
        .ok_or_else(|| Failure::Fail(format!("{key}'s total is no number string: {}", r.text)))
}

async fn active_users_today(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let before = total_around_today(cx, &admin, "active_users").await?;
    // A new user's context reads its own account: an authenticated request.
    let user = cx.new_user("activeuser").await?;
    let home = cx
        .client
        .get(
            &path::<fedblog_core::api::timelines::home_timeline::HomeTimeline>(&[]),
            Some(&user.token),
        )
        .await?;
    home.expect(200)?;
    let after = total_around_today(cx, &admin, "active_users").await?;
    ensure!(
        after > before,
        "active_users from yesterday to tomorrow was {before} before a new user's requests and {after} after"
    );
    Ok(())
}

async fn new_users(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let before = total_around_today(cx, &admin, "new_users").await?;
    cx.new_user("newuser").await?;
    let after = total_around_today(cx, &admin, "new_users").await?;
    ensure!(
        after > before,
        "new_users from yesterday to tomorrow was {before} before an account was made and {after} after"
    );
    Ok(())
}

/// A tag used in a post; returns its id.
async fn used_tag(cx: &Cx) -> Result<String, Failure> {
    let user = cx.new_user("metrictag").await?;
    let name = cx.unique("metrics").replace('_', "");
    cx.post_status(&user, &[("status", &format!("counting #{name}"))])
        .await?;
    let tag = cx
        .client
        .get(&path::<GetTag>(&[("id", &name)]), None)
        .await?;
    tag.expect(200)?;
    str_of(tag.json()?, "id")
}

/// Whether a value is a string holding an integer.
/// POSTs `body` to `path` as `admin`; the 200 response and the array it holds.
async fn post_for_array(
    cx: &Cx,
    path: &str,
    admin: &str,
    body: crate::client::Body,
) -> Result<(crate::client::Response, Vec<Value>), Failure> {
    let r = cx.send("POST", path, Some(admin), body).await?;
    r.expect(200)?;
    let items = r
        .json()?
        .as_array()
        .cloned()
        .ok_or_else(|| Failure::Fail(format!("not an array: {}", r.text)))?;
    Ok((r, items))
}

fn number_string(v: &Value) -> bool {
    v.as_str().is_some_and(|s| s.parse::<i64>().is_ok())
}

async fn every_measure(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let tag = used_tag(cx).await?;
    let (start, end) = around_today();
    let mut keys: Vec<&str> = vec!["no_such_measure"];
    keys.extend(MEASURES);
    let mut extra = vec![];
    let tag_keys: Vec<String> = ["tag_accounts", "tag_uses", "tag_servers"]
        .iter()
        .map(|k| format!("{k}[id]"))
        .collect();
    for k in &tag_keys {
        extra.push((k.as_str(), tag.as_str()));
    }
    let server_keys: Vec<String> = MEASURES
        .iter()
        .filter(|k| k.starts_with("instance_"))
        .map(|k| format!("{k}[domain]"))
        .collect();
    for k in &server_keys {
        extra.push((k.as_str(), "example.com"));
    }
    let (_, got) = post_for_array(
        cx,
        GetMeasures::PATH,
        &admin,
        request(&keys, &start, &end, &extra),
    )
    .await?;
    let names: Vec<&str> = got.iter().filter_map(|m| m["key"].as_str()).collect();
    ensure!(
        names == MEASURES,
        "the measures in the order asked, the unknown key left out: {names:?}"
    );
    for m in &got {
        let key = m["key"].as_str().unwrap_or_default();
        let ranged = !key.starts_with("instance_");
        let days = m["data"].as_array().map(Vec::len);
        ensure!(
            number_string(&m["total"])
                && days == Some(3)
                && m["data"].as_array().is_some_and(|d| d.iter().all(|p| {
                    p["date"]
                        .as_str()
                        .is_some_and(|t| t.ends_with("T00:00:00Z"))
                        && number_string(&p["value"])
                }))
                && (number_string(&m["previous_total"]) == ranged)
                && m.get("unit").is_some(),
            "the measure {key} (three days, a previous total only when ranged): {m}"
        );
    }
    let media = &got[9];
    ensure!(
        media["unit"] == "bytes" && media["human_value"].is_string(),
        "instance_media_attachments is in bytes, with a human value: {media}"
    );
    let missing = cx
        .send(
            "POST",
            GetMeasures::PATH,
            Some(&admin),
            request(&["tag_uses"], &start, &end, &[]),
        )
        .await?;
    expect_error(&missing, 400, "tag_uses without tag_uses[id]")
}

async fn every_dimension(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let tag = used_tag(cx).await?;
    let (start, end) = around_today();
    let extra = [
        ("tag_servers[id]", tag.as_str()),
        ("tag_languages[id]", tag.as_str()),
        ("instance_accounts[domain]", "example.com"),
        ("instance_languages[domain]", "example.com"),
        ("limit", "2"),
    ];
    let (_, got) = post_for_array(
        cx,
        GetDimensions::PATH,
        &admin,
        request(&DIMENSIONS, &start, &end, &extra),
    )
    .await?;
    let names: Vec<&str> = got.iter().filter_map(|d| d["key"].as_str()).collect();
    ensure!(
        names == DIMENSIONS,
        "the dimensions in the order asked: {names:?}"
    );
    for d in &got {
        let rows = d["data"].as_array();
        ensure!(
            rows.is_some_and(|rows| rows.iter().all(|row| row["key"].is_string()
                && row["human_key"].is_string()
                && row["value"].is_string())),
            "the dimension {}: {d}",
            d["key"]
        );
        if d["key"] != "space_usage" && d["key"] != "software_versions" {
            ensure!(
                rows.is_some_and(|rows| rows.len() <= 2),
                "more rows than the limit of 2: {d}"
            );
        }
    }
    let space = &got[3]["data"];
    ensure!(
        space.as_array().is_some_and(|rows| !rows.is_empty()
            && rows.iter().all(|row| row["unit"] == "bytes"
                && row["human_value"].is_string()
                && number_string(&row["value"]))),
        "space_usage: sizes in bytes with human values: {space}"
    );
    let tags = &got[5]["data"];
    ensure!(
        tags.as_array().is_some_and(|rows| !rows.is_empty()),
        "tag_servers names the server of the post with the tag: {tags}"
    );
    Ok(())
}

async fn retention(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let (start, end) = around_today();
    let (r, cohorts) = post_for_array(
        cx,
        GetRetention::PATH,
        &admin,
        form(&[
            ("start_at", start.as_str()),
            ("end_at", &end),
            ("frequency", "day"),
        ]),
    )
    .await?;
    ensure!(cohorts.len() == 3, "three days, three cohorts: {}", r.text);
    for (i, c) in cohorts.iter().enumerate() {
        ensure!(
            c["frequency"] == "day"
                && c["period"]
                    .as_str()
                    .is_some_and(|p| p.ends_with("T00:00:00Z"))
                && c["data"].as_array().is_some_and(|d| d.len() == 3 - i
                    && d.iter().all(|p| p["date"].is_string()
                        && p["rate"].is_number()
                        && number_string(&p["value"]))),
            "cohort {i} followed to the range's last day: {c}"
        );
    }
    let monthly = cx
        .send(
            "POST",
            GetRetention::PATH,
            Some(&admin),
            form(&[
                ("start_at", start.as_str()),
                ("end_at", &end),
                ("frequency", "month"),
            ]),
        )
        .await?;
    monthly.expect(200)?;
    ensure!(
        monthly
            .json()?
            .as_array()
            .is_some_and(|c| !c.is_empty() && c.iter().all(|c| c["frequency"] == "month")),
        "monthly cohorts: {}",
        monthly.text
    );
    Ok(())
}

async fn refused_to_users(cx: &Cx) -> CheckResult {
    cx.admin()?;
    let user = cx.new_user("plainmetrics").await?;
    let (start, end) = around_today();
    for (path, what) in [
        (GetMeasures::PATH, "measures"),
        (GetDimensions::PATH, "dimensions"),
        (GetRetention::PATH, "retention"),
    ] {
        let r = cx
            .send(
                "POST",
                path,
                Some(&user.token),
                request(&["active_users", "languages"], &start, &end, &[]),
            )
            .await?;
        expect_error(&r, 403, &format!("the {what} with a normal user's token"))?;
    }
    Ok(())
}

async fn bad_date(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let (_, end) = around_today();
    let r = cx
        .send(
            "POST",
            GetMeasures::PATH,
            Some(&admin),
            request(&["active_users"], "not-a-date", &end, &[]),
        )
        .await?;
    expect_error(&r, 422, "measures with start_at=not-a-date")
}
