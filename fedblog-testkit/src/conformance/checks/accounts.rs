//! Accounts: sign-up with an app token, credentials (`verify_credentials`, `update_credentials`)
//! and their limits, and reading accounts by id, by address and several at once.

use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::{
    get_account::GetAccount, get_accounts::GetAccounts, lookup_account::LookupAccount,
    register_account::RegisterAccount, resend_confirmation::ResendConfirmation,
    update_credentials::UpdateCredentials, verify_credentials::VerifyCredentials,
};
use fedblog_core::api::instance::instance_v2::InstanceV2;
use serde_json::Value;

use crate::check;
use crate::client::{Body, Response, form};
use crate::conformance::{Check, CheckResult, Cx, Failure, User, expect_error, path, str_of};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "accounts/register/unconfirmed-token-403",
            "sign-up with an app token returns a Token, and that token is refused (403) until the e-mail address is confirmed",
            register_unconfirmed
        ),
        check!(
            "emails/confirmations/after-sign-up",
            "after sign-up, the unconfirmed account's token may ask for the confirmation e-mail again (POST /api/v1/emails/confirmations answers 200)",
            resend_confirmation
        ),
        check!(
            "accounts/register/no-token-401",
            "sign-up without a token is refused with 401",
            register_no_token
        ),
        check!(
            "accounts/register/duplicate-username-422",
            "sign-up with a username already taken is a 422 with details.username ERR_TAKEN",
            register_duplicate
        ),
        check!(
            "accounts/verify-credentials/source-and-role",
            "verify_credentials returns the caller's CredentialAccount with source and role",
            verify_source_role
        ),
        check!(
            "accounts/verify-credentials/no-token-401",
            "verify_credentials without a token is a 401 with an error body",
            verify_no_token
        ),
        check!(
            "accounts/update-credentials/changes-profile",
            "update_credentials changes display_name, note, locked, fields and source[privacy], and verify_credentials shows the change",
            update_profile
        ),
        check!(
            "accounts/update-credentials/display-name-31-422",
            "a display name of 31 characters is a 422 and changes nothing (limit 30)",
            display_name_too_long
        ),
        check!(
            "accounts/update-credentials/note-limit-500",
            "a bio of 500 characters is accepted and one of 501 is a 422 that changes nothing",
            note_limit
        ),
        check!(
            "accounts/update-credentials/fields-limit-4",
            "4 profile fields are accepted and 5 are a 422 that changes nothing",
            fields_limit
        ),
        check!(
            "accounts/update-credentials/empty-source-not-400",
            "an empty source argument on update_credentials is not a 400",
            empty_source
        ),
        check!(
            "accounts/update-credentials/scope-403",
            "update_credentials with a token lacking the write scope is a 403 (scope is checked first)",
            update_scope
        ),
        check!(
            "accounts/update-credentials/app-token-422",
            "update_credentials with an app-only (client_credentials) token that has the scope is a 422 (needs a user)",
            update_app_token
        ),
        check!(
            "accounts/get/by-id",
            "getting an account by id returns that account",
            get_by_id
        ),
        check!(
            "accounts/get/unknown-404",
            "an unknown account id is a 404 with an error body",
            get_unknown
        ),
        check!(
            "accounts/get/garbage-id-404",
            "a malformed account id is a 404, not a 400 or 500",
            get_garbage
        ),
        check!(
            "accounts/lookup/acct",
            "lookup finds a local account by username and by @username",
            lookup
        ),
        check!(
            "accounts/lookup/unknown-404",
            "lookup of an unknown address is a 404",
            lookup_unknown
        ),
        check!(
            "accounts/get-many/by-ids",
            "getting several accounts by id[] returns every requested account",
            get_many
        ),
    ]
}

/// A password that passes common strength rules.
const PASSWORD: &str = "Conformance-Passw0rd-42";

/// `NotRun` when the server does not take sign-ups through the API.
async fn require_open_registrations(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<InstanceV2>(&[]), None).await?;
    r.expect(200)?;
    if r.json()?["registrations"]["enabled"] == Value::Bool(false) {
        return Err(Failure::NotRun(
            "registrations are closed on this server".into(),
        ));
    }
    Ok(())
}

/// An app token with `read write`, usable for sign-up.
async fn signup_token(cx: &Cx) -> Result<String, Failure> {
    let app = cx.new_app("read write").await?;
    cx.app_token(&app, "read write").await
}

async fn sign_up(cx: &Cx, token: Option<&str>, username: &str) -> Result<Response, Failure> {
    let email = format!("{}@example.com", cx.unique("mail"));
    Ok(cx
        .client
        .post(
            &path::<RegisterAccount>(&[]),
            token,
            form(&[
                ("username", username),
                ("email", email.as_str()),
                ("password", PASSWORD),
                ("agreement", "true"),
                ("locale", "en"),
            ]),
        )
        .await?)
}

async fn credentials(cx: &Cx, user: &User) -> Result<Value, Failure> {
    let r = cx
        .client
        .get(&path::<VerifyCredentials>(&[]), Some(&user.token))
        .await?;
    r.expect(200)?;
    Ok(r.json()?.clone())
}

async fn update(cx: &Cx, user: &User, pairs: &[(&str, &str)]) -> Result<Response, Failure> {
    Ok(cx
        .client
        .patch(
            &path::<UpdateCredentials>(&[]),
            Some(&user.token),
            form(pairs),
        )
        .await?)
}

async fn register_unconfirmed(cx: &Cx) -> CheckResult {
    require_open_registrations(cx).await?;
    let token = signup_token(cx).await?;
    let username = cx.unique("signup");
    let r = sign_up(cx, Some(&token), &username).await?;
    r.expect(200)?;
    let v = r.json()?;
    let user_token = v["access_token"].as_str().unwrap_or_default();
    ensure!(
        !user_token.is_empty(),
        "no access_token in the sign-up answer: {v}"
    );
    ensure!(
        v["token_type"]
            .as_str()
            .is_some_and(|t| t.eq_ignore_ascii_case("bearer")),
        "token_type is not Bearer: {v}"
    );
    let me = cx
        .client
        .get(&path::<VerifyCredentials>(&[]), Some(user_token))
        .await?;
    expect_error(
        &me,
        403,
        "verify_credentials with the token of an unconfirmed account",
    )?;
    Ok(())
}

async fn resend_confirmation(cx: &Cx) -> CheckResult {
    require_open_registrations(cx).await?;
    let token = signup_token(cx).await?;
    let r = sign_up(cx, Some(&token), &cx.unique("signup")).await?;
    r.expect(200)?;
    let user_token = str_of(r.json()?, "access_token")?;
    let r = cx
        .client
        .post(
            &path::<ResendConfirmation>(&[]),
            Some(&user_token),
            Body::None,
        )
        .await?;
    ensure!(
        r.status == 200,
        "POST {} with the new account's token: HTTP {} {}",
        ResendConfirmation::PATH,
        r.status,
        crate::client::truncate(&r.text)
    );
    Ok(())
}

async fn register_no_token(cx: &Cx) -> CheckResult {
    let username = cx.unique("signup");
    let r = sign_up(cx, None, &username).await?;
    expect_error(&r, 401, "sign-up without a token")?;
    Ok(())
}

async fn register_duplicate(cx: &Cx) -> CheckResult {
    require_open_registrations(cx).await?;
    let existing = cx.new_user("taken").await?;
    let token = signup_token(cx).await?;
    let r = sign_up(cx, Some(&token), &existing.username).await?;
    ensure!(
        r.status == 422,
        "sign-up with the taken username {:?} answered {} (expected 422): {}",
        existing.username,
        r.status,
        r.text
    );
    let v = r.json()?;
    ensure!(v["error"].is_string(), "422 body has no error text: {v}");
    let taken = v["details"]["username"]
        .as_array()
        .is_some_and(|errs| errs.iter().any(|e| e["error"] == "ERR_TAKEN"));
    ensure!(taken, "details.username does not contain ERR_TAKEN: {v}");
    Ok(())
}

async fn verify_source_role(cx: &Cx) -> CheckResult {
    let user = cx.new_user("creds").await?;
    let v = credentials(cx, &user).await?;
    ensure!(
        v["id"] == user.id.as_str() && v["username"] == user.username.as_str(),
        "verify_credentials is not the caller's account: {v}"
    );
    ensure!(v["source"].is_object(), "source missing: {v}");
    for k in ["privacy", "note", "fields"] {
        ensure!(
            !v["source"][k].is_null(),
            "source.{k} missing: {}",
            v["source"]
        );
    }
    ensure!(
        v["role"].is_object() && v["role"]["name"].is_string(),
        "role missing: {v}"
    );
    Ok(())
}

async fn verify_no_token(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<VerifyCredentials>(&[]), None).await?;
    expect_error(&r, 401, "verify_credentials without a token")?;
    Ok(())
}

async fn update_profile(cx: &Cx) -> CheckResult {
    let user = cx.new_user("profile").await?;
    let r = update(
        cx,
        &user,
        &[
            ("display_name", "Conformance Name"),
            ("note", "A bio for the conformance suite"),
            ("locked", "true"),
            ("fields_attributes[0][name]", "Site"),
            ("fields_attributes[0][value]", "conformance"),
            ("fields_attributes[1][name]", "Pronouns"),
            ("fields_attributes[1][value]", "they/them"),
            ("source[privacy]", "unlisted"),
        ],
    )
    .await?;
    r.expect(200)?;
    let echoed = r.json()?;
    ensure!(
        echoed["display_name"] == "Conformance Name",
        "the answer does not show the new display_name: {echoed}"
    );
    let v = credentials(cx, &user).await?;
    ensure!(
        v["display_name"] == "Conformance Name",
        "display_name not changed: {}",
        v["display_name"]
    );
    ensure!(
        v["source"]["note"] == "A bio for the conformance suite",
        "source.note not changed: {}",
        v["source"]["note"]
    );
    ensure!(
        v["note"]
            .as_str()
            .is_some_and(|n| n.contains("A bio for the conformance suite")),
        "note (HTML) does not contain the bio: {}",
        v["note"]
    );
    ensure!(v["locked"] == true, "locked not changed: {}", v["locked"]);
    ensure!(
        v["source"]["privacy"] == "unlisted",
        "source.privacy not changed: {}",
        v["source"]["privacy"]
    );
    let fields = v["source"]["fields"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let names: Vec<&str> = fields.iter().filter_map(|f| f["name"].as_str()).collect();
    let values: Vec<&str> = fields.iter().filter_map(|f| f["value"].as_str()).collect();
    ensure!(
        names == ["Site", "Pronouns"] && values == ["conformance", "they/them"],
        "source.fields not changed: {}",
        v["source"]["fields"]
    );
    ensure!(
        v["fields"].as_array().is_some_and(|f| f.len() == 2),
        "fields (rendered) not changed: {}",
        v["fields"]
    );
    Ok(())
}

async fn display_name_too_long(cx: &Cx) -> CheckResult {
    let user = cx.new_user("dname").await?;
    update(cx, &user, &[("display_name", "Before")])
        .await?
        .expect(200)?;
    let long = "n".repeat(31);
    let r = update(cx, &user, &[("display_name", long.as_str())]).await?;
    expect_error(&r, 422, "a 31-character display name")?;
    let v = credentials(cx, &user).await?;
    ensure!(
        v["display_name"] == "Before",
        "the rejected update changed display_name to {}",
        v["display_name"]
    );
    let exact = "m".repeat(30);
    update(cx, &user, &[("display_name", exact.as_str())])
        .await?
        .expect(200)?;
    Ok(())
}

async fn note_limit(cx: &Cx) -> CheckResult {
    let user = cx.new_user("bio").await?;
    let exact = "b".repeat(500);
    let r = update(cx, &user, &[("note", exact.as_str())]).await?;
    ensure!(
        r.status == 200,
        "a 500-character bio answered {} (expected 200): {}",
        r.status,
        r.text
    );
    let long = "c".repeat(501);
    let r = update(cx, &user, &[("note", long.as_str())]).await?;
    ensure!(
        r.status == 422,
        "a 501-character bio answered {} (expected 422): {}",
        r.status,
        r.text
    );
    let v = credentials(cx, &user).await?;
    ensure!(
        v["source"]["note"] == exact.as_str(),
        "the rejected update changed the bio: source.note is {}",
        v["source"]["note"]
    );
    Ok(())
}

async fn fields_limit(cx: &Cx) -> CheckResult {
    let user = cx.new_user("fields").await?;
    let keys: Vec<(String, String)> = (0..5)
        .flat_map(|i| {
            [
                (format!("fields_attributes[{i}][name]"), format!("name{i}")),
                (
                    format!("fields_attributes[{i}][value]"),
                    format!("value{i}"),
                ),
            ]
        })
        .collect();
    let pairs: Vec<(&str, &str)> = keys.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = update(cx, &user, &pairs[..8]).await?;
    ensure!(
        r.status == 200,
        "4 profile fields answered {} (expected 200): {}",
        r.status,
        r.text
    );
    let r = update(cx, &user, &pairs).await?;
    ensure!(
        r.status == 422,
        "5 profile fields answered {} (expected 422): {}",
        r.status,
        r.text
    );
    let v = credentials(cx, &user).await?;
    let n = v["source"]["fields"].as_array().map(Vec::len).unwrap_or(0);
    ensure!(
        n == 4,
        "after the rejected update the account has {n} fields (expected the 4 set before): {}",
        v["source"]["fields"]
    );
    Ok(())
}

async fn empty_source(cx: &Cx) -> CheckResult {
    let user = cx.new_user("source").await?;
    let r = update(
        cx,
        &user,
        &[("source", ""), ("display_name", "Empty Source")],
    )
    .await?;
    ensure!(
        r.status != 400,
        "an empty source argument answered 400: {}",
        r.text
    );
    r.expect(200)?;
    let v = credentials(cx, &user).await?;
    ensure!(
        v["display_name"] == "Empty Source",
        "the other parameters of the request were not applied: display_name is {}",
        v["display_name"]
    );
    Ok(())
}

async fn update_scope(cx: &Cx) -> CheckResult {
    let token = super::oauth::scoped_user_token(cx, "read").await?;
    let r = cx
        .client
        .patch(
            &path::<UpdateCredentials>(&[]),
            Some(&token),
            form(&[("display_name", "Nope")]),
        )
        .await?;
    expect_error(&r, 403, "update_credentials with a read-only token")?;
    Ok(())
}

async fn update_app_token(cx: &Cx) -> CheckResult {
    let app = cx.new_app("read write").await?;
    let token = cx.app_token(&app, "read write").await?;
    let r = cx
        .client
        .patch(
            &path::<UpdateCredentials>(&[]),
            Some(&token),
            form(&[("display_name", "Nope")]),
        )
        .await?;
    expect_error(&r, 422, "update_credentials with an app-only token")?;
    Ok(())
}

async fn get_by_id(cx: &Cx) -> CheckResult {
    let user = cx.new_user("getacct").await?;
    let r = cx
        .client
        .get(&path::<GetAccount>(&[("id", &user.id)]), None)
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["id"] == user.id.as_str(),
        "id is {} (expected {})",
        v["id"],
        user.id
    );
    ensure!(
        v["username"] == user.username.as_str(),
        "username is {} (expected {})",
        v["username"],
        user.username
    );
    ensure!(
        v["acct"] == user.username.as_str(),
        "acct of a local account is {} (expected {})",
        v["acct"],
        user.username
    );
    ensure!(
        v.get("source").is_none(),
        "a public Account must not carry source: {v}"
    );
    Ok(())
}

async fn get_unknown(cx: &Cx) -> CheckResult {
    let r = cx
        .client
        .get(&path::<GetAccount>(&[("id", "999999999999999990")]), None)
        .await?;
    expect_error(&r, 404, "an unknown account id")?;
    Ok(())
}

async fn get_garbage(cx: &Cx) -> CheckResult {
    let r = cx
        .client
        .get(&path::<GetAccount>(&[("id", "not-an-id")]), None)
        .await?;
    expect_error(&r, 404, "a malformed account id")?;
    Ok(())
}

fn lookup_path(acct: &str) -> String {
    let q: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("acct", acct)
        .finish();
    format!("{}?{q}", path::<LookupAccount>(&[]))
}

async fn lookup(cx: &Cx) -> CheckResult {
    let user = cx.new_user("lookup").await?;
    for acct in [user.username.clone(), format!("@{}", user.username)] {
        let r = cx
            .client
            .get(&lookup_path(&acct), Some(&user.token))
            .await?;
        ensure!(
            r.status == 200,
            "lookup of {acct:?} answered {}: {}",
            r.status,
            r.text
        );
        let v = r.json()?;
        ensure!(
            v["id"] == user.id.as_str(),
            "lookup of {acct:?} found {} (expected {})",
            v["id"],
            user.id
        );
    }
    Ok(())
}

async fn lookup_unknown(cx: &Cx) -> CheckResult {
    let user = cx.new_user("lookup").await?;
    let r = cx
        .client
        .get(&lookup_path(&cx.unique("nobody")), Some(&user.token))
        .await?;
    expect_error(&r, 404, "lookup of an unknown username")?;
    Ok(())
}

async fn get_many(cx: &Cx) -> CheckResult {
    let a = cx.new_user("many").await?;
    let b = cx.new_user("many").await?;
    let p = format!("{}?id[]={}&id[]={}", path::<GetAccounts>(&[]), a.id, b.id);
    let r = cx.client.get(&p, Some(&a.token)).await?;
    r.expect(200)?;
    let v = r.json()?;
    let mut ids: Vec<&str> = v
        .as_array()
        .map(|xs| xs.iter().filter_map(|x| x["id"].as_str()).collect())
        .unwrap_or_default();
    ids.sort_unstable();
    let mut want = vec![a.id.as_str(), b.id.as_str()];
    want.sort_unstable();
    ensure!(ids == want, "got accounts {ids:?} (expected {want:?})");
    Ok(())
}
