//! Accounts through the admin API (`/api/v1/admin/accounts`, `/api/v2/admin/accounts`): one
//! account and the lists with their filters and pages, the moderation actions and their undoing
//! with what they change for the account (its profile, its tokens, its posts), the refusals
//! (pending-only, suspended-only, equal rank, unknown type or account), and the admin API refused
//! to tokens without its scopes or to accounts without the permission. Each check acts on fresh
//! accounts.

use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::{get_account::GetAccount, verify_credentials::VerifyCredentials};
use fedblog_core::api::admin_accounts::{
    approve_account::ApproveAccount, delete_account::DeleteAdminAccount,
    enable_account::EnableAccount, get_account::GetAdminAccount, list_accounts_v1::ListAccountsV1,
    list_accounts_v2::ListAccountsV2, moderate_account::ModerateAccount,
    reject_account::RejectAccount, unsensitive_account::UnsensitiveAccount,
    unsilence_account::UnsilenceAccount, unsuspend_account::UnsuspendAccount,
};
use fedblog_core::api::timelines::public_timeline::PublicTimeline;
use serde_json::Value;

use super::social::token_with_scopes;
use crate::check;
use crate::client::{Body, Response, form};
use crate::conformance::{
    Check, CheckResult, Cx, Failure, SetUp, User, expect_error, ids_of, path, str_of,
};
use crate::ensure;

/// The checks of this file.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "admin/accounts/get-one",
            "GET /api/v1/admin/accounts/:id answers the Admin::Account of a local account: its id, username, domain null, e-mail, a role object, confirmed and approved, not disabled, silenced, suspended nor sensitized, and its Account; an unknown id is a 404",
            get_one
        ),
        check!(
            "admin/accounts/list-v1",
            "GET /api/v1/admin/accounts lists local active accounts (username filter), newest first, and answers an empty list for an ip filter of an address nobody used",
            list_v1
        ),
        check!(
            "admin/accounts/list-v2",
            "GET /api/v2/admin/accounts filters by origin and username, newest first, and pages through the Link header with limit",
            list_v2
        ),
        check!(
            "admin/accounts/list-v2-unknown-value-400",
            "GET /api/v2/admin/accounts with an unknown origin, status or permissions value is a 400",
            list_v2_unknown_value
        ),
        check!(
            "admin/accounts/suspend-unsuspend",
            "POST :id/action type=suspend answers {}: the account is suspended (admin view, v2 status=suspended), GET /api/v1/accounts/:id is a 410 and its token a 403; POST :id/unsuspend lifts it (token and profile work again), and a second unsuspend is a 403",
            suspend_unsuspend
        ),
        check!(
            "admin/accounts/silence-unsilence",
            "POST :id/action type=silence marks the account silenced and keeps its new public posts off the local public timeline of an account not following it; POST :id/unsilence lifts it",
            silence_unsilence
        ),
        check!(
            "admin/accounts/sensitive-unsensitive",
            "POST :id/action type=sensitive marks the account sensitized and its new posts sensitive; POST :id/unsensitive lifts it",
            sensitive_unsensitive
        ),
        check!(
            "admin/accounts/disable-enable",
            "POST :id/action type=disable marks the login disabled and refuses its token (403); POST :id/enable enables it and the token works again",
            disable_enable
        ),
        check!(
            "admin/accounts/action-type-422",
            "POST :id/action without a type, or with an unknown one, is a 422 and changes nothing",
            action_type_422
        ),
        check!(
            "admin/accounts/unknown-404",
            "GET, POST :id/action, :id/approve, :id/reject, :id/enable, :id/unsilence, :id/unsuspend, :id/unsensitive and DELETE of an unknown account are 404s",
            unknown_404
        ),
        check!(
            "admin/accounts/not-pending-403",
            "POST :id/approve and :id/reject of an account that is not waiting for approval are 403s and leave it",
            not_pending_403
        ),
        check!(
            "admin/accounts/delete-suspended-only",
            "DELETE /api/v1/admin/accounts/:id of an account not suspended is a 403; once suspended it is deleted (200) and is then a 404",
            delete_suspended_only
        ),
        check!(
            "admin/accounts/own-rank-403",
            "an administrator's moderation action on an account of the same role (its own) is a 403 and changes nothing",
            own_rank_403
        ),
        check!(
            "admin/accounts/no-token-401",
            "every admin accounts method without a token is a 401",
            no_token_401
        ),
        check!(
            "admin/accounts/no-scope-403",
            "every admin accounts method with a user token lacking the admin scopes is a 403",
            no_scope_403
        ),
        check!(
            "admin/accounts/not-staff-403",
            "every admin accounts method with the admin scopes but the token of an account without the permission is a 403",
            not_staff_403
        ),
    ]
}

/// Every admin accounts method with its path for `target`, for the refusal checks (no action
/// sent with them changes anything: `type=none` is a warning only).
fn every_method(target: &str) -> Vec<(&'static str, String)> {
    let id = [("id", target)];
    vec![
        ("GET", path::<ListAccountsV1>(&[])),
        ("GET", path::<ListAccountsV2>(&[])),
        ("GET", path::<GetAdminAccount>(&id)),
        ("POST", path::<ModerateAccount>(&id)),
        ("POST", path::<ApproveAccount>(&id)),
        ("POST", path::<RejectAccount>(&id)),
        ("POST", path::<EnableAccount>(&id)),
        ("POST", path::<UnsilenceAccount>(&id)),
        ("POST", path::<UnsuspendAccount>(&id)),
        ("POST", path::<UnsensitiveAccount>(&id)),
        ("DELETE", path::<DeleteAdminAccount>(&id)),
    ]
}

/// Sends `method path` with `token` (a POST carries `type=none`).
async fn call(cx: &Cx, method: &str, path: &str, token: Option<&str>) -> Result<Response, Failure> {
    let body = if method == "POST" {
        form(&[("type", "none")])
    } else {
        Body::None
    };
    cx.send(method, path, token, body).await
}

/// The admin view of `user`.
async fn admin_view(cx: &Cx, admin: &str, user: &User) -> Result<Value, Failure> {
    let r = cx
        .client
        .get(&path::<GetAdminAccount>(&[("id", &user.id)]), Some(admin))
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

/// Takes moderation action `kind` on `user`; a 200 with `{}` is expected.
async fn act_on(cx: &Cx, admin: &str, user: &User, kind: &str) -> CheckResult {
    let r = cx
        .client
        .post(
            &path::<ModerateAccount>(&[("id", &user.id)]),
            Some(admin),
            form(&[("type", kind), ("text", "conformance check")]),
        )
        .await?;
    r.expect(200)
        .map_err(|e| format!("POST :id/action type={kind}: {e}"))?;
    ensure!(
        r.json()?.as_object().is_some_and(|o| o.is_empty()),
        "POST :id/action type={kind} does not answer {{}}: {}",
        r.text
    );
    Ok(())
}

/// POSTs an undoing method (`E`) for `user` and answers the Admin::Account it returns.
async fn undo<E: Endpoint>(cx: &Cx, admin: &str, user: &User) -> Result<Value, Failure> {
    let r = cx
        .client
        .post(
            &path::<E>(&[("id", &user.id)]),
            Some(admin),
            form::<&str, &str>(&[]),
        )
        .await?;
    r.expect(200)
        .map_err(|e| format!("POST {}: {e}", E::PATH))?;
    Ok(r.json()?.clone())
}

/// Fails unless the boolean `field` of an Admin::Account is `want`.
fn flag_is(v: &Value, field: &str, want: bool, when: &str) -> CheckResult {
    ensure!(
        v[field].as_bool() == Some(want),
        "{when}: `{field}` is not {want}: {v}"
    );
    Ok(())
}

/// The status of `user`'s `GET /api/v1/accounts/verify_credentials`.
async fn token_status(cx: &Cx, user: &User) -> Result<u16, Failure> {
    Ok(cx
        .client
        .get(&path::<VerifyCredentials>(&[]), Some(&user.token))
        .await?
        .status)
}

/// The longest common prefix of names.
fn common_prefix(names: &[&str]) -> String {
    let Some(first) = names.first() else {
        return String::new();
    };
    let mut len = first.len();
    for n in &names[1..] {
        len = first
            .bytes()
            .zip(n.bytes())
            .take(len)
            .take_while(|(a, b)| a == b)
            .count();
    }
    first[..len].to_string()
}

async fn get_one(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let user = cx.new_user("adminview").await?;
    let v = admin_view(cx, &admin, &user).await?;
    ensure!(str_of(&v, "id")? == user.id, "another id: {v}");
    ensure!(
        str_of(&v, "username")? == user.username,
        "another username: {v}"
    );
    ensure!(
        v["domain"].is_null(),
        "a local account's domain is not null: {v}"
    );
    ensure!(
        v["email"].as_str().is_some_and(|e| e.contains('@')),
        "no e-mail address: {v}"
    );
    ensure!(
        v["role"].is_object() && !v["role"]["id"].is_null(),
        "the role is not a Role: {v}"
    );
    flag_is(&v, "confirmed", true, "a new account")?;
    flag_is(&v, "approved", true, "a new account")?;
    for field in ["disabled", "silenced", "suspended", "sensitized"] {
        flag_is(&v, field, false, "a new account")?;
    }
    ensure!(
        v["account"]["id"].as_str() == Some(user.id.as_str()),
        "the Account is not the account's: {v}"
    );
    let unknown = cx
        .client
        .get(
            &path::<GetAdminAccount>(&[("id", "999999999999")]),
            Some(&admin),
        )
        .await?;
    expect_error(&unknown, 404, "GET of an unknown account")
}

async fn list_v1(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let user = cx.new_user("adminlist").await?;
    let r = cx
        .client
        .get(
            &format!("{}?username={}", path::<ListAccountsV1>(&[]), user.username),
            Some(&admin),
        )
        .await?;
    r.expect(200)?;
    let ids = ids_of(r.json()?);
    ensure!(
        ids == [user.id.clone()],
        "username={} lists {ids:?}, not the one account {}",
        user.username,
        user.id
    );
    let r = cx
        .client
        .get(
            &format!("{}?ip=192.0.2.1", path::<ListAccountsV1>(&[])),
            Some(&admin),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        r.json()?.as_array().is_some_and(Vec::is_empty),
        "ip=192.0.2.1 (an address for documentation) lists accounts: {}",
        crate::client::truncate(&r.text)
    );
    Ok(())
}

async fn list_v2(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let a = cx.new_user("pagedadm").await?;
    let b = cx.new_user("pagedadm").await?;
    let c = cx.new_user("pagedadm").await?;
    let prefix = common_prefix(&[&a.username, &b.username, &c.username]);
    let first = cx
        .client
        .get(
            &format!(
                "{}?origin=local&username={prefix}&limit=2",
                path::<ListAccountsV2>(&[])
            ),
            Some(&admin),
        )
        .await?;
    first.expect(200)?;
    let page1 = ids_of(first.json()?);
    ensure!(
        page1 == [c.id.clone(), b.id.clone()],
        "the first page of username={prefix}&limit=2 is {page1:?}, not the two newest [{}, {}]",
        c.id,
        b.id
    );
    let next = first
        .link("next")
        .ok_or_else(|| Failure::Fail("no Link rel=next on the first page".into()))?;
    let second = cx.client.get(&next, Some(&admin)).await?;
    second.expect(200)?;
    let page2 = ids_of(second.json()?);
    ensure!(
        page2 == [a.id.clone()],
        "the second page is {page2:?}, not [{}]",
        a.id
    );
    let remote = cx
        .client
        .get(
            &format!(
                "{}?origin=remote&username={prefix}",
                path::<ListAccountsV2>(&[])
            ),
            Some(&admin),
        )
        .await?;
    remote.expect(200)?;
    ensure!(
        remote.json()?.as_array().is_some_and(Vec::is_empty),
        "origin=remote lists local accounts: {}",
        crate::client::truncate(&remote.text)
    );
    Ok(())
}

async fn list_v2_unknown_value(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    for query in ["origin=elsewhere", "status=asleep", "permissions=everyone"] {
        let r = cx
            .client
            .get(
                &format!("{}?{query}", path::<ListAccountsV2>(&[])),
                Some(&admin),
            )
            .await?;
        expect_error(&r, 400, &format!("GET /api/v2/admin/accounts?{query}"))?;
    }
    Ok(())
}

async fn suspend_unsuspend(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let target = cx.new_user("suspadm").await?;
    let viewer = cx.new_user("viewer").await?;
    act_on(cx, &admin, &target, "suspend").await?;
    flag_is(
        &admin_view(cx, &admin, &target).await?,
        "suspended",
        true,
        "after type=suspend",
    )?;
    let listed = cx
        .client
        .get(
            &format!(
                "{}?status=suspended&username={}",
                path::<ListAccountsV2>(&[]),
                target.username
            ),
            Some(&admin),
        )
        .await?;
    listed.expect(200)?;
    ensure!(
        ids_of(listed.json()?) == [target.id.clone()],
        "status=suspended does not list the suspended account: {}",
        crate::client::truncate(&listed.text)
    );
    let profile = path::<GetAccount>(&[("id", &target.id)]);
    let r = cx.client.get(&profile, Some(&viewer.token)).await?;
    expect_error(&r, 410, "GET /api/v1/accounts/:id of a suspended account")?;
    let own = token_status(cx, &target).await?;
    ensure!(
        own == 403,
        "a suspended account's token answers {own}, not 403"
    );
    let v = undo::<UnsuspendAccount>(cx, &admin, &target).await?;
    flag_is(&v, "suspended", false, "after unsuspend")?;
    cx.client
        .get(&profile, Some(&viewer.token))
        .await?
        .expect(200)
        .map_err(|e| format!("the profile after unsuspend: {e}"))?;
    let own = token_status(cx, &target).await?;
    ensure!(own == 200, "the token after unsuspend answers {own}");
    let again = cx
        .client
        .post(
            &path::<UnsuspendAccount>(&[("id", &target.id)]),
            Some(&admin),
            form::<&str, &str>(&[]),
        )
        .await?;
    expect_error(&again, 403, "unsuspending an account not suspended")
}

async fn silence_unsilence(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let target = cx.new_user("silenced").await?;
    let stranger = cx.new_user("stranger").await?;
    act_on(cx, &admin, &target, "silence").await?;
    flag_is(
        &admin_view(cx, &admin, &target).await?,
        "silenced",
        true,
        "after type=silence",
    )?;
    let status = cx
        .post_status(
            &target,
            &[("status", "limited but posting"), ("visibility", "public")],
        )
        .await?;
    let id = str_of(&status, "id")?;
    let r = cx
        .client
        .get(
            &format!("{}?local=true&limit=40", path::<PublicTimeline>(&[])),
            Some(&stranger.token),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        !ids_of(r.json()?).contains(&id),
        "the local public timeline shows a silenced account's post {id} to an account not following it"
    );
    let v = undo::<UnsilenceAccount>(cx, &admin, &target).await?;
    flag_is(&v, "silenced", false, "after unsilence")
}

async fn sensitive_unsensitive(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let target = cx.new_user("sensitized").await?;
    act_on(cx, &admin, &target, "sensitive").await?;
    flag_is(
        &admin_view(cx, &admin, &target).await?,
        "sensitized",
        true,
        "after type=sensitive",
    )?;
    let status = cx
        .create_status(&target, &[("status", "not marked by its author")])
        .await?;
    ensure!(
        status["sensitive"].as_bool() == Some(true),
        "a sensitized account's new post is not sensitive: {status}"
    );
    let v = undo::<UnsensitiveAccount>(cx, &admin, &target).await?;
    flag_is(&v, "sensitized", false, "after unsensitive")
}

async fn disable_enable(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let target = cx.new_user("disabled").await?;
    act_on(cx, &admin, &target, "disable").await?;
    flag_is(
        &admin_view(cx, &admin, &target).await?,
        "disabled",
        true,
        "after type=disable",
    )?;
    let own = token_status(cx, &target).await?;
    ensure!(
        own == 403,
        "a disabled login's token answers {own}, not 403"
    );
    let v = undo::<EnableAccount>(cx, &admin, &target).await?;
    flag_is(&v, "disabled", false, "after enable")?;
    let own = token_status(cx, &target).await?;
    ensure!(own == 200, "the token after enable answers {own}");
    Ok(())
}

async fn action_type_422(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let target = cx.new_user("typeless").await?;
    let action = path::<ModerateAccount>(&[("id", &target.id)]);
    let none = cx
        .client
        .post(&action, Some(&admin), form(&[("text", "no type")]))
        .await?;
    expect_error(&none, 422, "POST :id/action without a type")?;
    let bogus = cx
        .client
        .post(&action, Some(&admin), form(&[("type", "banish")]))
        .await?;
    expect_error(&bogus, 422, "POST :id/action type=banish")?;
    let v = admin_view(cx, &admin, &target).await?;
    for field in ["disabled", "silenced", "suspended", "sensitized"] {
        flag_is(&v, field, false, "after refused actions")?;
    }
    Ok(())
}

async fn unknown_404(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    for (method, path) in every_method("999999999999").into_iter().skip(2) {
        let r = call(cx, method, &path, Some(&admin)).await?;
        expect_error(&r, 404, &format!("{method} {path} of an unknown account"))?;
    }
    Ok(())
}

async fn not_pending_403(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let target = cx.new_user("approved").await?;
    for path in [
        path::<ApproveAccount>(&[("id", &target.id)]),
        path::<RejectAccount>(&[("id", &target.id)]),
    ] {
        let r = cx
            .client
            .post(&path, Some(&admin), form::<&str, &str>(&[]))
            .await?;
        expect_error(&r, 403, &format!("POST {path} of an approved account"))?;
    }
    flag_is(
        &admin_view(cx, &admin, &target).await?,
        "approved",
        true,
        "after a refused reject",
    )
}

async fn delete_suspended_only(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let target = cx.new_user("deleted").await?;
    let delete = path::<DeleteAdminAccount>(&[("id", &target.id)]);
    let r = cx.client.delete(&delete, Some(&admin)).await?;
    expect_error(&r, 403, "DELETE of an account not suspended")?;
    act_on(cx, &admin, &target, "suspend").await?;
    let r = cx.client.delete(&delete, Some(&admin)).await?;
    r.expect(200)
        .map_err(|e| format!("DELETE of a suspended account: {e}"))?;
    let gone = cx
        .client
        .get(
            &path::<GetAdminAccount>(&[("id", &target.id)]),
            Some(&admin),
        )
        .await?;
    expect_error(&gone, 404, "GET of a deleted account")
}

async fn own_rank_403(cx: &Cx) -> CheckResult {
    let admin = cx.admin()?.to_string();
    let me = cx
        .client
        .get(&path::<VerifyCredentials>(&[]), Some(&admin))
        .await?;
    me.expect(200)
        .setup("reading the administrator's account")?;
    let me = User {
        username: str_of(me.json()?, "username")?,
        id: str_of(me.json()?, "id")?,
        token: admin.clone(),
    };
    let r = cx
        .client
        .post(
            &path::<ModerateAccount>(&[("id", &me.id)]),
            Some(&admin),
            form(&[("type", "silence")]),
        )
        .await?;
    let refused = expect_error(&r, 403, "an administrator silencing its own account");
    if r.status == 200 {
        // Undo what should not have happened, so that the other checks keep their administrator.
        undo::<UnsilenceAccount>(cx, &admin, &me).await?;
    }
    refused?;
    flag_is(
        &admin_view(cx, &admin, &me).await?,
        "silenced",
        false,
        "after a refused action",
    )
}

async fn no_token_401(cx: &Cx) -> CheckResult {
    let target = cx.new_user("untouched").await?;
    for (method, path) in every_method(&target.id) {
        let r = call(cx, method, &path, None).await?;
        expect_error(&r, 401, &format!("{method} {path} without a token"))?;
    }
    Ok(())
}

async fn no_scope_403(cx: &Cx) -> CheckResult {
    let user = cx.new_user("scopeless").await?;
    let target = cx.new_user("untouched").await?;
    for (method, path) in every_method(&target.id) {
        let r = call(cx, method, &path, Some(&user.token)).await?;
        expect_error(
            &r,
            403,
            &format!("{method} {path} with a token lacking admin scopes"),
        )?;
    }
    Ok(())
}

async fn not_staff_403(cx: &Cx) -> CheckResult {
    let target = cx.new_user("untouched").await?;
    let token = token_with_scopes(cx, "read:accounts admin:read admin:write").await?;
    // A user's token, not an application's (which the admin API refuses for another reason).
    let me = cx
        .client
        .get(&path::<VerifyCredentials>(&[]), Some(&token))
        .await?;
    if me.status != 200 {
        return Err(Failure::NotRun(
            "no user token with admin scopes could be made (the authorization-code flow needs a password to sign in with)".into(),
        ));
    }
    for (method, path) in every_method(&target.id) {
        let r = call(cx, method, &path, Some(&token)).await?;
        expect_error(
            &r,
            403,
            &format!("{method} {path} with admin scopes but no permission"),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_prefixes() {
        assert_eq!(
            common_prefix(&["pager_ab9", "pager_ab10", "pager_ab11"]),
            "pager_ab"
        );
        assert_eq!(common_prefix(&["same"]), "same");
        assert_eq!(common_prefix(&[]), "");
    }

    #[test]
    fn every_method_is_named_once() {
        let all = every_method("7");
        let mut seen = std::collections::HashSet::new();
        assert!(all.iter().all(|m| seen.insert(m.clone())));
        assert_eq!(all.len(), 11);
        assert!(all.iter().skip(2).all(|(_, p)| p.contains("/7")));
    }
}
