//! Reports: filing one (`POST /api/v1/reports`) with each parameter and its refusals, the
//! `admin.report` notification staff get, and their handling through the admin API (list and
//! filters, one report, category and rules, assigning, resolving, reopening), refused to
//! accounts without the permission. Each check reports fresh accounts, so that the reports other
//! checks file never meet its filters.

use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::verify_credentials::VerifyCredentials;
use fedblog_core::api::admin_reports::{
    assign_report::AssignReport, get_report::GetReport, list_reports::ListReports,
    reopen_report::ReopenReport, resolve_report::ResolveReport, unassign_report::UnassignReport,
    update_report::UpdateReport,
};
use fedblog_core::api::instance::instance_rules::InstanceRules;
use fedblog_core::api::notifications::list_notifications::ListNotifications;
use fedblog_core::api::reports::create_report::CreateReport;
use fedblog_core::api::statuses::delete_status::DeleteStatus;
use serde_json::Value;

use super::social::token_with_scopes;
use crate::check;
use crate::client::{Response, form};
use crate::conformance::{
    Check, CheckResult, Cx, Failure, SetUp, User, expect_error, ids_of, path, str_of,
};
use crate::ensure;

/// The checks of this file.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "reports/file",
            "POST /api/v1/reports with account_id, status_ids[], comment, category and forward answers the Report: not acted on, the category, comment and statuses given, no rules (null), not forwarded for a local account, the reported account as target_account",
            file_report
        ),
        check!(
            "reports/category-default-other",
            "a report filed without a category has category other",
            category_default
        ),
        check!(
            "reports/unknown-account-404",
            "reporting an account id that names no account is a 404",
            unknown_account
        ),
        check!(
            "reports/others-status-404",
            "a status_ids[] entry that is not a status of the reported account is a 404",
            others_status
        ),
        check!(
            "reports/self-422",
            "reporting one's own account is a 422",
            report_self
        ),
        check!(
            "reports/comment-max-1000",
            "a comment of 1,000 characters is taken, one of 1,001 is a 422",
            comment_limit
        ),
        check!(
            "reports/unknown-category-422",
            "a category other than spam, legal, violation or other is a 422",
            unknown_category
        ),
        check!(
            "reports/rules",
            "rule_ids[] naming no rule of the server, or category violation without rule_ids[], is a 422; the id of one of the server's rules (GET /api/v1/instance/rules) makes a violation report naming it",
            rules
        ),
        check!(
            "reports/no-token-401",
            "POST /api/v1/reports without a token is a 401",
            no_token
        ),
        check!(
            "reports/scope-403",
            "POST /api/v1/reports with a token lacking write:reports is a 403",
            scope_403
        ),
        check!(
            "admin/reports/staff-notified",
            "a new report (the first open one about its account) gives the administrators an admin.report notification from the reporter",
            staff_notified
        ),
        check!(
            "admin/reports/list-filters",
            "GET /api/v1/admin/reports lists open reports newest first, filtered by target_account_id and account_id, each with the reporter and the reported account as Admin::Account, its statuses and rules",
            list_filters
        ),
        check!(
            "admin/reports/pagination",
            "GET /api/v1/admin/reports pages by limit with a Link header whose next page holds the older reports",
            pagination
        ),
        check!(
            "admin/reports/get-one",
            "GET /api/v1/admin/reports/:id answers the report; an unknown id is a 404",
            get_one
        ),
        check!(
            "admin/reports/update",
            "PUT /api/v1/admin/reports/:id changes the category; an unknown category or violation without rules is a 422",
            update
        ),
        check!(
            "admin/reports/assign-unassign",
            "assign_to_self makes the caller the report's assigned_account, unassign makes it null",
            assign_unassign
        ),
        check!(
            "admin/reports/resolve-reopen",
            "resolve marks the report acted on (action_taken_at, action_taken_by_account the caller) and moves it to resolved=true; reopen opens it again",
            resolve_reopen
        ),
        check!(
            "admin/reports/deleted-status-left-out",
            "a reported status deleted since is left out of the report's statuses, which still answers 200",
            deleted_status
        ),
        check!(
            "admin/reports/no-permission-403",
            "a user without the Manage Reports permission is refused every admin reports endpoint with a 403, even with admin:read and admin:write scopes",
            no_permission
        ),
        check!(
            "admin/reports/no-token-401",
            "GET /api/v1/admin/reports without a token is a 401",
            admin_no_token
        ),
    ]
}

/// Files a report as `who` with these form fields.
async fn send_report(cx: &Cx, who: &User, pairs: &[(&str, &str)]) -> Result<Response, Failure> {
    Ok(cx
        .client
        .post(&path::<CreateReport>(&[]), Some(&who.token), form(pairs))
        .await?)
}

/// Files a report as `who` about `target` (plus these fields), expecting a 200; answers it.
async fn report(
    cx: &Cx,
    who: &User,
    target: &User,
    pairs: &[(&str, &str)],
) -> Result<Value, Failure> {
    let mut all = vec![("account_id", target.id.as_str())];
    all.extend_from_slice(pairs);
    let r = send_report(cx, who, &all).await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// A fresh reporter and a fresh reported account.
async fn pair(cx: &Cx) -> Result<(User, User), Failure> {
    Ok((
        cx.new_user("reporter").await?,
        cx.new_user("reported").await?,
    ))
}

/// A status of `user`'s, as set-up; its id.
async fn status_of(cx: &Cx, user: &User, text: &str) -> Result<String, Failure> {
    str_of(&cx.post_status(user, &[("status", text)]).await?, "id")
}

/// An admin endpoint's path for the report `id`.
fn report_path<E: Endpoint>(id: &str) -> String {
    path::<E>(&[("id", id)])
}

/// GETs as the administrator, expecting a 200.
async fn admin_get(cx: &Cx, url: &str) -> Result<Response, Failure> {
    let r = cx.client.get(url, Some(cx.admin()?)).await?;
    r.expect(200)?;
    Ok(r)
}

/// POSTs a report action as the administrator, expecting a 200; answers the report.
async fn admin_act<E: Endpoint>(cx: &Cx, id: &str) -> Result<Value, Failure> {
    let r = cx
        .client
        .post(
            &report_path::<E>(id),
            Some(cx.admin()?),
            form::<&str, &str>(&[]),
        )
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// The ids of the reports about `target` the administrator lists with this extra query.
async fn listed(cx: &Cx, target: &User, query: &str) -> Result<Vec<String>, Failure> {
    let url = format!(
        "{}?target_account_id={}{query}",
        path::<ListReports>(&[]),
        target.id
    );
    Ok(ids_of(admin_get(cx, &url).await?.json()?))
}

/// The administrator's account id (set-up).
async fn admin_id(cx: &Cx) -> Result<String, Failure> {
    let admin = cx.admin()?;
    async {
        let r = cx
            .client
            .get(&path::<VerifyCredentials>(&[]), Some(admin))
            .await?;
        r.expect(200)?;
        str_of(r.json()?, "id")
    }
    .await
    .setup("reading the administrator's account (GET /api/v1/accounts/verify_credentials)")
}

async fn file_report(cx: &Cx) -> CheckResult {
    let (reporter, target) = pair(cx).await?;
    let status = status_of(cx, &target, "reported post").await?;
    let r = report(
        cx,
        &reporter,
        &target,
        &[
            ("status_ids[]", status.as_str()),
            ("comment", "unsolicited advertising"),
            ("category", "spam"),
            ("forward", "true"),
        ],
    )
    .await?;
    ensure!(
        r["id"].is_string() && r["action_taken"] == false && r["action_taken_at"].is_null(),
        "a new report is not acted on: {r}"
    );
    ensure!(
        r["category"] == "spam" && r["comment"] == "unsolicited advertising",
        "category and comment as given: {r}"
    );
    ensure!(
        r["status_ids"] == serde_json::json!([status]),
        "status_ids as given ({status}): {}",
        r["status_ids"]
    );
    ensure!(
        r["rule_ids"].is_null(),
        "a report naming no rule has rule_ids null: {}",
        r["rule_ids"]
    );
    ensure!(
        r["forwarded"] == false,
        "a local account's report is not forwarded: {r}"
    );
    ensure!(
        r["target_account"]["id"] == target.id.as_str(),
        "target_account is the reported account {}: {}",
        target.id,
        r["target_account"]
    );
    Ok(())
}

async fn category_default(cx: &Cx) -> CheckResult {
    let (reporter, target) = pair(cx).await?;
    let r = report(cx, &reporter, &target, &[("comment", "no category")]).await?;
    ensure!(r["category"] == "other", "category {}", r["category"]);
    Ok(())
}

async fn unknown_account(cx: &Cx) -> CheckResult {
    let reporter = cx.new_user("reporter").await?;
    let r = send_report(cx, &reporter, &[("account_id", "999999999999999999")]).await?;
    expect_error(&r, 404, "reporting an unknown account")
}

async fn others_status(cx: &Cx) -> CheckResult {
    let (reporter, target) = pair(cx).await?;
    let other = cx.new_user("other").await?;
    let status = status_of(cx, &other, "someone else's post").await?;
    let r = send_report(
        cx,
        &reporter,
        &[
            ("account_id", target.id.as_str()),
            ("status_ids[]", status.as_str()),
        ],
    )
    .await?;
    expect_error(
        &r,
        404,
        "reporting an account with another account's status",
    )
}

async fn report_self(cx: &Cx) -> CheckResult {
    let me = cx.new_user("reporter").await?;
    let r = send_report(cx, &me, &[("account_id", me.id.as_str())]).await?;
    expect_error(&r, 422, "reporting oneself")
}

async fn comment_limit(cx: &Cx) -> CheckResult {
    let (reporter, target) = pair(cx).await?;
    let longest = "é".repeat(1000);
    let r = report(cx, &reporter, &target, &[("comment", longest.as_str())]).await?;
    ensure!(
        r["comment"] == longest.as_str(),
        "the 1,000-character comment came back changed"
    );
    let over = "x".repeat(1001);
    let r = send_report(
        cx,
        &reporter,
        &[
            ("account_id", target.id.as_str()),
            ("comment", over.as_str()),
        ],
    )
    .await?;
    expect_error(&r, 422, "a comment of 1,001 characters")
}

async fn unknown_category(cx: &Cx) -> CheckResult {
    let (reporter, target) = pair(cx).await?;
    let r = send_report(
        cx,
        &reporter,
        &[("account_id", target.id.as_str()), ("category", "rudeness")],
    )
    .await?;
    expect_error(&r, 422, "category rudeness")
}

async fn rules(cx: &Cx) -> CheckResult {
    let (reporter, target) = pair(cx).await?;
    let r = send_report(
        cx,
        &reporter,
        &[
            ("account_id", target.id.as_str()),
            ("rule_ids[]", "999999999999999999"),
        ],
    )
    .await?;
    expect_error(&r, 422, "rule_ids[] naming no rule")?;
    let r = send_report(
        cx,
        &reporter,
        &[
            ("account_id", target.id.as_str()),
            ("category", "violation"),
        ],
    )
    .await?;
    expect_error(&r, 422, "category violation without rule_ids[]")?;
    let listed = cx.client.get(&path::<InstanceRules>(&[]), None).await?;
    listed.expect(200)?;
    let Some(rule) = listed.json()?.as_array().and_then(|a| a.first()).cloned() else {
        // A server without rules has none to name.
        return Ok(());
    };
    let id = str_of(&rule, "id")?;
    let r = report(
        cx,
        &reporter,
        &target,
        &[("category", "spam"), ("rule_ids[]", id.as_str())],
    )
    .await?;
    ensure!(
        r["category"] == "violation" && r["rule_ids"] == serde_json::json!([id]),
        "a report naming rule {id} is a violation of it: category {}, rule_ids {}",
        r["category"],
        r["rule_ids"]
    );
    Ok(())
}

async fn no_token(cx: &Cx) -> CheckResult {
    let r = cx
        .client
        .post(
            &path::<CreateReport>(&[]),
            None,
            form(&[("account_id", "1")]),
        )
        .await?;
    expect_error(&r, 401, "POST /api/v1/reports without a token")
}

async fn scope_403(cx: &Cx) -> CheckResult {
    let target = cx.new_user("reported").await?;
    let token = token_with_scopes(cx, "read").await?;
    let r = cx
        .client
        .post(
            &path::<CreateReport>(&[]),
            Some(&token),
            form(&[("account_id", target.id.as_str())]),
        )
        .await?;
    expect_error(&r, 403, "POST /api/v1/reports with a read-only token")
}

async fn staff_notified(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let (reporter, target) = pair(cx).await?;
    report(cx, &reporter, &target, &[("comment", "please look")]).await?;
    let url = format!(
        "{}?types[]=admin.report&account_id={}",
        path::<ListNotifications>(&[]),
        reporter.id
    );
    let r = cx.client.get(&url, Some(&admin)).await?;
    r.expect(200)?;
    let told = r.json()?.as_array().cloned().unwrap_or_default();
    ensure!(
        told.len() == 1
            && told[0]["type"] == "admin.report"
            && told[0]["account"]["id"] == reporter.id.as_str(),
        "the administrator has {} admin.report notifications from the reporter: {}",
        told.len(),
        r.text
    );
    Ok(())
}

async fn list_filters(cx: &Cx) -> CheckResult {
    cx.admin()?;
    let (first_reporter, target) = pair(cx).await?;
    let second_reporter = cx.new_user("reporter").await?;
    let status = status_of(cx, &target, "reported twice").await?;
    let older = report(
        cx,
        &first_reporter,
        &target,
        &[("status_ids[]", status.as_str())],
    )
    .await?;
    let newer = report(cx, &second_reporter, &target, &[]).await?;
    let (older, newer) = (str_of(&older, "id")?, str_of(&newer, "id")?);
    let url = format!(
        "{}?target_account_id={}",
        path::<ListReports>(&[]),
        target.id
    );
    let r = admin_get(cx, &url).await?;
    let list = r.json()?.as_array().cloned().unwrap_or_default();
    ensure!(
        ids_of(r.json()?) == [newer.clone(), older.clone()],
        "the reports about the account, newest first, are [{newer}, {older}]: {:?}",
        ids_of(r.json()?)
    );
    let oldest = &list[1];
    ensure!(
        oldest["account"]["id"] == first_reporter.id.as_str()
            && oldest["account"]["account"]["id"] == first_reporter.id.as_str()
            && oldest["target_account"]["id"] == target.id.as_str()
            && oldest["target_account"]["username"] == target.username.as_str(),
        "account and target_account are the reporter and the reported account as Admin::Account: {oldest}"
    );
    ensure!(
        ids_of(&oldest["statuses"]) == [status.clone()] && oldest["rules"].is_array(),
        "the report holds its status {status} and a rules array: {oldest}"
    );
    ensure!(
        oldest["assigned_account"].is_null() && oldest["action_taken_by_account"].is_null(),
        "a new report has no assigned_account nor action_taken_by_account: {oldest}"
    );
    let by_first = listed(cx, &target, &format!("&account_id={}", first_reporter.id)).await?;
    ensure!(
        by_first == [older.clone()],
        "account_id keeps the reports filed by that account: {by_first:?}"
    );
    let resolved = listed(cx, &target, "&resolved=true").await?;
    ensure!(
        resolved.is_empty(),
        "resolved=true lists open reports: {resolved:?}"
    );
    Ok(())
}

async fn pagination(cx: &Cx) -> CheckResult {
    cx.admin()?;
    let (reporter, target) = pair(cx).await?;
    let mut filed = Vec::new();
    for _ in 0..3 {
        filed.push(str_of(&report(cx, &reporter, &target, &[]).await?, "id")?);
    }
    let url = format!(
        "{}?target_account_id={}&limit=2",
        path::<ListReports>(&[]),
        target.id
    );
    let r = admin_get(cx, &url).await?;
    ensure!(
        ids_of(r.json()?) == [filed[2].clone(), filed[1].clone()],
        "the first page of 2 holds the newest reports: {:?}",
        ids_of(r.json()?)
    );
    let next = r.link("next").ok_or("no Link next on a full page")?;
    let r = admin_get(cx, &next).await?;
    ensure!(
        ids_of(r.json()?) == [filed[0].clone()],
        "the next page holds the oldest report: {:?}",
        ids_of(r.json()?)
    );
    Ok(())
}

async fn get_one(cx: &Cx) -> CheckResult {
    cx.admin()?;
    let (reporter, target) = pair(cx).await?;
    let id = str_of(
        &report(cx, &reporter, &target, &[("comment", "one")]).await?,
        "id",
    )?;
    let r = admin_get(cx, &report_path::<GetReport>(&id)).await?;
    let v = r.json()?;
    ensure!(
        v["id"] == id.as_str() && v["comment"] == "one" && v["action_taken"] == false,
        "GET /api/v1/admin/reports/{id} answered {v}"
    );
    let r = cx
        .client
        .get(
            &report_path::<GetReport>("999999999999999999"),
            Some(cx.admin()?),
        )
        .await?;
    expect_error(&r, 404, "an unknown report")
}

async fn update(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let (reporter, target) = pair(cx).await?;
    let id = str_of(&report(cx, &reporter, &target, &[]).await?, "id")?;
    let put = |pairs: Vec<(&'static str, &'static str)>| {
        let admin = admin.clone();
        let url = report_path::<UpdateReport>(&id);
        async move { cx.send("PUT", &url, Some(&admin), form(&pairs)).await }
    };
    let r = put(vec![("category", "spam")]).await?;
    r.expect(200)?;
    ensure!(
        r.json()?["category"] == "spam",
        "the category after PUT category=spam: {}",
        r.text
    );
    expect_error(
        &put(vec![("category", "rudeness")]).await?,
        422,
        "PUT category=rudeness",
    )?;
    expect_error(
        &put(vec![("category", "violation")]).await?,
        422,
        "PUT category=violation without rule_ids[]",
    )?;
    let r = admin_get(cx, &report_path::<GetReport>(&id)).await?;
    ensure!(
        r.json()?["category"] == "spam",
        "a refused change left the category {}",
        r.json()?["category"]
    );
    Ok(())
}

async fn assign_unassign(cx: &Cx) -> CheckResult {
    let me = admin_id(cx).await?;
    let (reporter, target) = pair(cx).await?;
    let id = str_of(&report(cx, &reporter, &target, &[]).await?, "id")?;
    let v = admin_act::<AssignReport>(cx, &id).await?;
    ensure!(
        v["assigned_account"]["id"] == me.as_str(),
        "after assign_to_self the assigned_account is the caller {me}: {}",
        v["assigned_account"]
    );
    let v = admin_act::<UnassignReport>(cx, &id).await?;
    ensure!(
        v["assigned_account"].is_null(),
        "after unassign the assigned_account is {}",
        v["assigned_account"]
    );
    Ok(())
}

async fn resolve_reopen(cx: &Cx) -> CheckResult {
    let me = admin_id(cx).await?;
    let (reporter, target) = pair(cx).await?;
    let id = str_of(&report(cx, &reporter, &target, &[]).await?, "id")?;
    let v = admin_act::<ResolveReport>(cx, &id).await?;
    ensure!(
        v["action_taken"] == true
            && v["action_taken_at"].is_string()
            && v["action_taken_by_account"]["id"] == me.as_str(),
        "a resolved report is acted on by the caller {me}: {v}"
    );
    ensure!(
        listed(cx, &target, "&resolved=true").await? == [id.clone()]
            && listed(cx, &target, "").await?.is_empty(),
        "the resolved report {id} is listed with resolved=true only"
    );
    let v = admin_act::<ReopenReport>(cx, &id).await?;
    ensure!(
        v["action_taken"] == false
            && v["action_taken_at"].is_null()
            && v["action_taken_by_account"].is_null(),
        "a reopened report is open again: {v}"
    );
    ensure!(
        listed(cx, &target, "").await? == [id.clone()],
        "the reopened report {id} is listed among the open ones"
    );
    Ok(())
}

async fn deleted_status(cx: &Cx) -> CheckResult {
    cx.admin()?;
    let (reporter, target) = pair(cx).await?;
    let kept = status_of(cx, &target, "kept").await?;
    let gone = status_of(cx, &target, "deleted later").await?;
    let id = str_of(
        &report(
            cx,
            &reporter,
            &target,
            &[
                ("status_ids[]", gone.as_str()),
                ("status_ids[]", kept.as_str()),
            ],
        )
        .await?,
        "id",
    )?;
    cx.client
        .delete(&path::<DeleteStatus>(&[("id", &gone)]), Some(&target.token))
        .await?
        .expect(200)
        .setup("deleting the reported status")?;
    let r = admin_get(cx, &report_path::<GetReport>(&id)).await?;
    ensure!(
        ids_of(&r.json()?["statuses"]) == [kept.clone()],
        "the report's statuses after {gone} was deleted: {:?}",
        ids_of(&r.json()?["statuses"])
    );
    let listed = listed(cx, &target, "").await?;
    ensure!(
        listed == [id.clone()],
        "the list still holds {id}: {listed:?}"
    );
    Ok(())
}

async fn no_permission(cx: &Cx) -> CheckResult {
    cx.admin()?;
    let (reporter, target) = pair(cx).await?;
    let id = str_of(&report(cx, &reporter, &target, &[]).await?, "id")?;
    let token = token_with_scopes(cx, "read write admin:read admin:write").await?;
    let r = cx
        .client
        .get(&path::<ListReports>(&[]), Some(&token))
        .await?;
    expect_error(&r, 403, "listing reports without the permission")?;
    let r = cx
        .client
        .get(&report_path::<GetReport>(&id), Some(&token))
        .await?;
    expect_error(&r, 403, "reading a report without the permission")?;
    let r = cx
        .send(
            "PUT",
            &report_path::<UpdateReport>(&id),
            Some(&token),
            form(&[("category", "spam")]),
        )
        .await?;
    expect_error(&r, 403, "changing a report without the permission")?;
    for url in [
        report_path::<AssignReport>(&id),
        report_path::<UnassignReport>(&id),
        report_path::<ResolveReport>(&id),
        report_path::<ReopenReport>(&id),
    ] {
        let r = cx
            .client
            .post(&url, Some(&token), form::<&str, &str>(&[]))
            .await?;
        expect_error(&r, 403, &format!("POST {url} without the permission"))?;
    }
    let v = admin_get(cx, &report_path::<GetReport>(&id)).await?;
    ensure!(
        v.json()?["action_taken"] == false && v.json()?["assigned_account"].is_null(),
        "the refused actions changed the report: {}",
        v.text
    );
    Ok(())
}

async fn admin_no_token(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<ListReports>(&[]), None).await?;
    expect_error(&r, 401, "GET /api/v1/admin/reports without a token")
}
