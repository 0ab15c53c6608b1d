//! Scheduled statuses: scheduling (at least five minutes ahead), listing, reading, rescheduling
//! and cancelling; other accounts never see them.

use fedblog_core::api::scheduled_statuses::{
    delete_scheduled_status::DeleteScheduledStatus, get_scheduled_status::GetScheduledStatus,
    list_scheduled_statuses::ListScheduledStatuses, update_scheduled_status::UpdateScheduledStatus,
};
use fedblog_core::api::statuses::create_status::CreateStatus;
use serde_json::Value;

use crate::check;
use crate::client::{Body, form};
use crate::conformance::{Check, CheckResult, Cx, Failure, User, path, str_of};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "scheduled_statuses/create/returns-scheduled-status",
            "posting with scheduled_at at least 5 minutes ahead answers a ScheduledStatus (not a Status) with the text in params",
            create_returns_scheduled
        ),
        check!(
            "scheduled_statuses/create/too-soon-422",
            "scheduled_at less than 5 minutes ahead is a 422 and nothing is scheduled",
            too_soon
        ),
        check!(
            "scheduled_statuses/create/invalid-date-422",
            "a scheduled_at that is not a date is a 422",
            invalid_date
        ),
        check!(
            "scheduled_statuses/list-get-delete",
            "a scheduled status is listed and readable by its author, and gone (404) once cancelled",
            list_get_delete
        ),
        check!(
            "scheduled_statuses/update/reschedule",
            "PUT with a new scheduled_at moves it; a time less than 5 minutes ahead is a 422 and changes nothing",
            reschedule
        ),
        check!(
            "scheduled_statuses/others-404",
            "another account cannot read, move or cancel someone's scheduled status (404)",
            others_404
        ),
    ]
}

fn minutes_ahead(m: i64) -> String {
    (chrono::Utc::now() + chrono::Duration::minutes(m))
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

async fn schedule(cx: &Cx, user: &User, text: &str, at: &str) -> Result<Value, Failure> {
    let r = cx
        .client
        .post(
            &path::<CreateStatus>(&[]),
            Some(&user.token),
            form(&[("status", text), ("scheduled_at", at)]),
        )
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

async fn listed_ids(cx: &Cx, user: &User) -> Result<Vec<String>, Failure> {
    let r = cx
        .client
        .get(&path::<ListScheduledStatuses>(&[]), Some(&user.token))
        .await?;
    r.expect(200)?;
    Ok(r.json()?
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default())
}

async fn create_returns_scheduled(cx: &Cx) -> CheckResult {
    let user = cx.new_user("sched").await?;
    let text = format!("later {}", cx.unique("s"));
    let v = schedule(cx, &user, &text, &minutes_ahead(60)).await?;
    ensure!(
        v["params"]["text"] == text.as_str(),
        "params.text is {} (expected {text:?})",
        v["params"]["text"]
    );
    ensure!(
        v["scheduled_at"].is_string() && v.get("content").is_none(),
        "not a ScheduledStatus: {v}"
    );
    Ok(())
}

async fn too_soon(cx: &Cx) -> CheckResult {
    let user = cx.new_user("sched").await?;
    let r = cx
        .client
        .post(
            &path::<CreateStatus>(&[]),
            Some(&user.token),
            form(&[
                ("status", "too soon"),
                ("scheduled_at", minutes_ahead(2).as_str()),
            ]),
        )
        .await?;
    ensure!(
        r.status == 422,
        "scheduled_at 2 minutes ahead answered {} (expected 422)",
        r.status
    );
    ensure!(
        listed_ids(cx, &user).await?.is_empty(),
        "a refused status was scheduled anyway"
    );
    Ok(())
}

async fn invalid_date(cx: &Cx) -> CheckResult {
    let user = cx.new_user("sched").await?;
    let r = cx
        .client
        .post(
            &path::<CreateStatus>(&[]),
            Some(&user.token),
            form(&[("status", "when?"), ("scheduled_at", "next tuesday")]),
        )
        .await?;
    ensure!(
        r.status == 422,
        "scheduled_at \"next tuesday\" answered {} (expected 422)",
        r.status
    );
    Ok(())
}

async fn list_get_delete(cx: &Cx) -> CheckResult {
    let user = cx.new_user("sched").await?;
    let v = schedule(cx, &user, "list me", &minutes_ahead(30)).await?;
    let id = str_of(&v, "id")?;
    ensure!(
        listed_ids(cx, &user).await? == vec![id.clone()],
        "the list does not show exactly the scheduled status"
    );
    let one = cx
        .client
        .get(
            &path::<GetScheduledStatus>(&[("id", &id)]),
            Some(&user.token),
        )
        .await?;
    one.expect(200)?;
    ensure!(
        one.json()?["params"]["text"] == "list me",
        "GET shows {}",
        one.text
    );
    cx.send(
        "DELETE",
        &path::<DeleteScheduledStatus>(&[("id", &id)]),
        Some(&user.token),
        Body::None,
    )
    .await?
    .expect(200)?;
    let gone = cx
        .client
        .get(
            &path::<GetScheduledStatus>(&[("id", &id)]),
            Some(&user.token),
        )
        .await?;
    ensure!(
        gone.status == 404,
        "a cancelled scheduled status answered {}",
        gone.status
    );
    ensure!(
        listed_ids(cx, &user).await?.is_empty(),
        "a cancelled scheduled status is still listed"
    );
    Ok(())
}

async fn reschedule(cx: &Cx) -> CheckResult {
    let user = cx.new_user("sched").await?;
    let v = schedule(cx, &user, "move me", &minutes_ahead(30)).await?;
    let id = str_of(&v, "id")?;
    let later = minutes_ahead(120);
    let r = cx
        .send(
            "PUT",
            &path::<UpdateScheduledStatus>(&[("id", &id)]),
            Some(&user.token),
            form(&[("scheduled_at", later.as_str())]),
        )
        .await?;
    r.expect(200)?;
    let moved = chrono::DateTime::parse_from_rfc3339(&str_of(r.json()?, "scheduled_at")?)
        .map_err(|e| Failure::Fail(e.to_string()))?;
    let wanted =
        chrono::DateTime::parse_from_rfc3339(&later).map_err(|e| Failure::Fail(e.to_string()))?;
    ensure!(
        (moved - wanted).num_seconds().abs() <= 1,
        "scheduled_at is {moved}, expected {wanted}"
    );
    let r = cx
        .send(
            "PUT",
            &path::<UpdateScheduledStatus>(&[("id", &id)]),
            Some(&user.token),
            form(&[("scheduled_at", minutes_ahead(1).as_str())]),
        )
        .await?;
    ensure!(
        r.status == 422,
        "moving to 1 minute ahead answered {} (expected 422)",
        r.status
    );
    let now = cx
        .client
        .get(
            &path::<GetScheduledStatus>(&[("id", &id)]),
            Some(&user.token),
        )
        .await?;
    let still = chrono::DateTime::parse_from_rfc3339(&str_of(now.json()?, "scheduled_at")?)
        .map_err(|e| Failure::Fail(e.to_string()))?;
    ensure!(
        still == moved,
        "a refused move changed scheduled_at to {still}"
    );
    Ok(())
}

async fn others_404(cx: &Cx) -> CheckResult {
    let owner = cx.new_user("sched").await?;
    let other = cx.new_user("nosy").await?;
    let v = schedule(cx, &owner, "mine", &minutes_ahead(30)).await?;
    let id = str_of(&v, "id")?;
    let p = path::<GetScheduledStatus>(&[("id", &id)]);
    let r = cx.client.get(&p, Some(&other.token)).await?;
    ensure!(r.status == 404, "another account read it: {}", r.status);
    let r = cx
        .send(
            "PUT",
            &p,
            Some(&other.token),
            form(&[("scheduled_at", minutes_ahead(90).as_str())]),
        )
        .await?;
    ensure!(r.status == 404, "another account moved it: {}", r.status);
    let r = cx
        .send("DELETE", &p, Some(&other.token), Body::None)
        .await?;
    ensure!(
        r.status == 404,
        "another account cancelled it: {}",
        r.status
    );
    ensure!(
        listed_ids(cx, &other).await?.is_empty(),
        "another account lists it"
    );
    cx.client.get(&p, Some(&owner.token)).await?.expect(200)?;
    Ok(())
}
