//! Client applications: registration (`POST /api/v1/apps`) with its defaults and limits, and the
//! application credential check (`GET /api/v1/apps/verify_credentials`).
//!
//! A rejected registration must answer 422 with an `{"error"}` body and hand out no credentials;
//! an accepted one must hand out credentials that really work (a client-credentials token).

use std::collections::BTreeSet;

use fedblog_core::api::apps::{
    create_app::CreateApp, verify_app_credentials::VerifyAppCredentials,
};
use fedblog_core::api::oauth::create_token::CreateToken;
use serde_json::{Value, json};

use crate::check;
use crate::client::{Body, Response, form};
use crate::conformance::{Check, CheckResult, Cx, Failure, path, str_of};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "apps/create/credential-application",
            "registering an app answers a CredentialApplication echoing name, website, scopes and redirect URIs, whose credentials obtain tokens",
            credential_application
        ),
        check!(
            "apps/create/defaults-read-scope",
            "an app registered without scopes gets exactly `read`, so it cannot obtain a `write` token",
            defaults_read_scope
        ),
        check!(
            "apps/create/multiple-redirect-uris",
            "redirect_uris may be newline-separated text or an array; every URI is listed in redirect_uris",
            multiple_redirect_uris
        ),
        check!(
            "apps/create/name-too-long-422",
            "client_name may have 60 characters; 61 is a 422 that hands out no credentials",
            name_too_long
        ),
        check!(
            "apps/create/missing-name-422",
            "an app without client_name (absent or blank) is a 422 that hands out no credentials",
            missing_name
        ),
        check!(
            "apps/create/website-too-long-422",
            "website may have 2000 characters; 2001 is a 422 that hands out no credentials",
            website_too_long
        ),
        check!(
            "apps/create/invalid-website-422",
            "a website that is not an http(s) URL is a 422 that hands out no credentials",
            invalid_website
        ),
        check!(
            "apps/create/redirect-uris-too-long-422",
            "redirect_uris longer than 2000 characters are a 422 that hands out no credentials",
            redirect_uris_too_long
        ),
        check!(
            "apps/create/missing-redirect-422",
            "an app without redirect_uris (absent, empty or only a newline) is a 422 that hands out no credentials",
            missing_redirect
        ),
        check!(
            "apps/create/relative-redirect-422",
            "a redirect URI that is not absolute is a 422 that hands out no credentials",
            relative_redirect
        ),
        check!(
            "apps/create/invalid-scope-422",
            "registering an app with an unknown scope is a 422 that hands out no credentials",
            invalid_scope
        ),
        check!(
            "apps/verify-credentials/app-token",
            "verify_credentials with an app's token answers that app (name, scopes) and never its client_secret",
            verify_app_token
        ),
        check!(
            "apps/verify-credentials/bad-token-401",
            "verify_credentials without a token, or with an unknown one, is a 401 with an {\"error\"} body",
            verify_bad_token
        ),
    ]
}

const REDIRECT: &str = "https://client.example/callback";

async fn register(cx: &Cx, body: Body) -> Result<Response, Failure> {
    Ok(cx.client.post(&path::<CreateApp>(&[]), None, body).await?)
}

/// Asserts a 422 with an `{"error"}` body that hands out no credentials.
fn rejected(r: &Response, what: &str) -> CheckResult {
    ensure!(
        r.status == 422,
        "{what}: expected HTTP 422, got {} {}",
        r.status,
        r.text
    );
    ensure!(
        r.error_text().is_some_and(|e| !e.is_empty()),
        "{what}: the 422 body is not {{\"error\": ...}}: {}",
        r.text
    );
    let v = r.json()?;
    ensure!(
        v.get("client_id").is_none() && v.get("client_secret").is_none(),
        "{what}: the 422 body hands out credentials: {}",
        r.text
    );
    Ok(())
}

/// Asserts a 200 CredentialApplication and returns `(client_id, client_secret)`.
fn accepted(r: &Response, what: &str) -> Result<(String, String), Failure> {
    ensure!(
        r.status == 200,
        "{what}: expected HTTP 200, got {} {}",
        r.status,
        r.text
    );
    let v = r.json()?;
    let id = str_of(v, "client_id")?;
    let secret = str_of(v, "client_secret")?;
    ensure!(
        !id.is_empty() && !secret.is_empty(),
        "{what}: empty client credentials: {v}"
    );
    Ok((id, secret))
}

fn scope_set(v: &Value) -> BTreeSet<String> {
    match v {
        Value::Array(a) => a
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        Value::String(s) => s
            .split([' ', '+'])
            .filter(|x| !x.is_empty())
            .map(str::to_string)
            .collect(),
        _ => BTreeSet::new(),
    }
}

fn set(scopes: &str) -> BTreeSet<String> {
    scope_set(&Value::String(scopes.to_string()))
}

async fn client_credentials(
    cx: &Cx,
    id: &str,
    secret: &str,
    scope: &str,
) -> Result<Response, Failure> {
    let body = form(&[
        ("grant_type", "client_credentials"),
        ("client_id", id),
        ("client_secret", secret),
        ("scope", scope),
    ]);
    Ok(cx
        .client
        .post(&path::<CreateToken>(&[]), None, body)
        .await?)
}

async fn credential_application(cx: &Cx) -> CheckResult {
    let name = cx.unique("conformance app");
    let website = "https://client.example/about";
    let r = register(
        cx,
        form(&[
            ("client_name", name.as_str()),
            ("redirect_uris", REDIRECT),
            ("scopes", "read write push"),
            ("website", website),
        ]),
    )
    .await?;
    let (id, secret) = accepted(&r, "registration")?;
    let v = r.json()?;
    ensure!(
        v["id"].as_str().is_some_and(|s| !s.is_empty()),
        "no application id: {v}"
    );
    ensure!(
        v["name"] == name.as_str(),
        "name is {} (sent {name:?})",
        v["name"]
    );
    ensure!(
        v["website"] == website,
        "website is {} (sent {website:?})",
        v["website"]
    );
    ensure!(
        scope_set(&v["scopes"]) == set("read write push"),
        "scopes are {} (sent \"read write push\")",
        v["scopes"]
    );
    ensure!(
        v["redirect_uris"] == json!([REDIRECT]),
        "redirect_uris is {} (sent {REDIRECT:?})",
        v["redirect_uris"]
    );
    if let Some(exp) = v.get("client_secret_expires_at") {
        ensure!(
            exp.is_i64(),
            "client_secret_expires_at is not an integer: {exp}"
        );
    }
    // The credentials work, for exactly the registered scopes.
    let t = client_credentials(cx, &id, &secret, "read write").await?;
    ensure!(
        t.status == 200,
        "the new credentials obtain no `read write` token: {} {}",
        t.status,
        t.text
    );
    let token = str_of(t.json()?, "access_token")?;
    let check = cx
        .client
        .get(&path::<VerifyAppCredentials>(&[]), Some(&token))
        .await?;
    check.expect(200)?;
    ensure!(
        check.json()?["name"] == name.as_str(),
        "the token's app is {} (expected {name:?})",
        check.json()?["name"]
    );
    Ok(())
}

async fn defaults_read_scope(cx: &Cx) -> CheckResult {
    let name = cx.unique("conformance default");
    let r = register(
        cx,
        form(&[("client_name", name.as_str()), ("redirect_uris", REDIRECT)]),
    )
    .await?;
    let (id, secret) = accepted(&r, "registration without scopes")?;
    let v = r.json()?;
    ensure!(
        scope_set(&v["scopes"]) == set("read"),
        "an app registered without scopes has scopes {} (expected [\"read\"])",
        v["scopes"]
    );
    let read = client_credentials(cx, &id, &secret, "read").await?;
    ensure!(
        read.status == 200,
        "a `read` token is refused for a default app: {} {}",
        read.status,
        read.text
    );
    let write = client_credentials(cx, &id, &secret, "write").await?;
    ensure!(
        write.status == 400,
        "a `write` token for a `read` app answered {} (expected 400 invalid_scope): {}",
        write.status,
        write.text
    );
    ensure!(
        write.error_text() == Some("invalid_scope"),
        "a `write` token for a `read` app: error is {:?} (expected invalid_scope)",
        write.error_text()
    );
    ensure!(
        write.json()?.get("access_token").is_none(),
        "a refused token request still carries an access_token: {}",
        write.text
    );
    Ok(())
}

async fn multiple_redirect_uris(cx: &Cx) -> CheckResult {
    let one = "https://client.example/one";
    let two = "app://redirect.example/two";
    let name = cx.unique("conformance multi");
    let text = format!("{one}\n{two}");
    let r = register(
        cx,
        form(&[
            ("client_name", name.as_str()),
            ("redirect_uris", text.as_str()),
        ]),
    )
    .await?;
    accepted(&r, "newline-separated redirect_uris")?;
    let v = r.json()?;
    ensure!(
        v["redirect_uris"] == json!([one, two]),
        "newline-separated redirect_uris came back as {}",
        v["redirect_uris"]
    );
    let r = register(
        cx,
        Body::Json(json!({"client_name": name, "redirect_uris": [one, two]})),
    )
    .await?;
    accepted(&r, "redirect_uris as a JSON array")?;
    let v = r.json()?;
    ensure!(
        v["redirect_uris"] == json!([one, two]),
        "redirect_uris sent as an array came back as {}",
        v["redirect_uris"]
    );
    Ok(())
}

async fn name_too_long(cx: &Cx) -> CheckResult {
    let ok = "n".repeat(60);
    let r = register(
        cx,
        form(&[("client_name", ok.as_str()), ("redirect_uris", REDIRECT)]),
    )
    .await?;
    accepted(&r, "a 60-character client_name")?;
    ensure!(
        r.json()?["name"] == ok.as_str(),
        "the 60-character name was not kept: {}",
        r.json()?["name"]
    );
    let long = "n".repeat(61);
    let r = register(
        cx,
        form(&[("client_name", long.as_str()), ("redirect_uris", REDIRECT)]),
    )
    .await?;
    rejected(&r, "a 61-character client_name")
}

async fn missing_name(cx: &Cx) -> CheckResult {
    let r = register(cx, form(&[("redirect_uris", REDIRECT)])).await?;
    rejected(&r, "no client_name")?;
    let r = register(
        cx,
        form(&[("client_name", ""), ("redirect_uris", REDIRECT)]),
    )
    .await?;
    rejected(&r, "an empty client_name")
}

async fn website_too_long(cx: &Cx) -> CheckResult {
    let base = "https://client.example/";
    let ok = format!("{base}{}", "w".repeat(2000 - base.len()));
    let name = cx.unique("conformance site");
    let r = register(
        cx,
        form(&[
            ("client_name", name.as_str()),
            ("redirect_uris", REDIRECT),
            ("website", ok.as_str()),
        ]),
    )
    .await?;
    accepted(&r, "a 2000-character website")?;
    ensure!(
        r.json()?["website"] == ok.as_str(),
        "the 2000-character website was not kept"
    );
    let long = format!("{ok}w");
    let r = register(
        cx,
        form(&[
            ("client_name", name.as_str()),
            ("redirect_uris", REDIRECT),
            ("website", long.as_str()),
        ]),
    )
    .await?;
    rejected(&r, "a 2001-character website")
}

async fn invalid_website(cx: &Cx) -> CheckResult {
    let name = cx.unique("conformance badsite");
    let r = register(
        cx,
        form(&[
            ("client_name", name.as_str()),
            ("redirect_uris", REDIRECT),
            ("website", "not a website"),
        ]),
    )
    .await?;
    rejected(&r, "website \"not a website\"")
}

async fn redirect_uris_too_long(cx: &Cx) -> CheckResult {
    let base = "https://client.example/";
    let long = format!("{base}{}", "r".repeat(2001 - base.len()));
    let name = cx.unique("conformance longuri");
    let r = register(
        cx,
        form(&[
            ("client_name", name.as_str()),
            ("redirect_uris", long.as_str()),
        ]),
    )
    .await?;
    rejected(&r, "a 2001-character redirect URI")?;
    let many: Vec<String> = (0..100)
        .map(|i| format!("https://client.example/{i}/callback"))
        .collect();
    let total = many.join("\n").chars().count();
    let r = register(
        cx,
        Body::Json(json!({"client_name": name, "redirect_uris": many})),
    )
    .await?;
    rejected(
        &r,
        &format!("100 redirect URIs of {total} characters in all"),
    )
}

async fn missing_redirect(cx: &Cx) -> CheckResult {
    let name = cx.unique("conformance noredirect");
    let r = register(cx, form(&[("client_name", name.as_str())])).await?;
    rejected(&r, "no redirect_uris")?;
    let r = register(
        cx,
        form(&[("client_name", name.as_str()), ("redirect_uris", "")]),
    )
    .await?;
    rejected(&r, "an empty redirect_uris")?;
    let r = register(
        cx,
        form(&[("client_name", name.as_str()), ("redirect_uris", "\n")]),
    )
    .await?;
    rejected(&r, "redirect_uris of only a newline")
}

async fn relative_redirect(cx: &Cx) -> CheckResult {
    let name = cx.unique("conformance relative");
    let r = register(
        cx,
        form(&[
            ("client_name", name.as_str()),
            ("redirect_uris", "/callback"),
        ]),
    )
    .await?;
    rejected(&r, "redirect URI \"/callback\"")
}

async fn invalid_scope(cx: &Cx) -> CheckResult {
    let name = cx.unique("conformance badscope");
    let r = register(
        cx,
        form(&[
            ("client_name", name.as_str()),
            ("redirect_uris", REDIRECT),
            ("scopes", "read hoge"),
        ]),
    )
    .await?;
    rejected(&r, "scopes \"read hoge\"")
}

async fn verify_app_token(cx: &Cx) -> CheckResult {
    let name = cx.unique("conformance verify");
    let r = register(
        cx,
        form(&[
            ("client_name", name.as_str()),
            ("redirect_uris", REDIRECT),
            ("scopes", "read write"),
        ]),
    )
    .await?;
    let (id, secret) = accepted(&r, "registration")?;
    let app_id = str_of(r.json()?, "id")?;
    let t = client_credentials(cx, &id, &secret, "read").await?;
    t.expect(200)?;
    let token = str_of(t.json()?, "access_token")?;
    let r = cx
        .client
        .get(&path::<VerifyAppCredentials>(&[]), Some(&token))
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["name"] == name.as_str(),
        "verify_credentials names {} (expected {name:?})",
        v["name"]
    );
    if let Some(got) = v.get("id") {
        ensure!(
            got == app_id.as_str(),
            "verify_credentials answers app id {got} (registered {app_id:?})"
        );
    }
    if v.get("scopes").is_some() {
        ensure!(
            scope_set(&v["scopes"]) == set("read write"),
            "verify_credentials lists scopes {} (registered \"read write\")",
            v["scopes"]
        );
    }
    ensure!(
        v.get("client_secret").is_none() && !r.text.contains(&secret),
        "verify_credentials reveals the client secret: {}",
        r.text
    );
    Ok(())
}

async fn verify_bad_token(cx: &Cx) -> CheckResult {
    let p = path::<VerifyAppCredentials>(&[]);
    let r = cx.client.get(&p, None).await?;
    ensure!(
        r.status == 401,
        "without a token: expected 401, got {} {}",
        r.status,
        r.text
    );
    ensure!(
        r.error_text().is_some(),
        "without a token: the 401 body is not {{\"error\": ...}}: {}",
        r.text
    );
    let bogus = cx.unique("no-such-token");
    let r = cx.client.get(&p, Some(&bogus)).await?;
    ensure!(
        r.status == 401,
        "with an unknown token: expected 401, got {} {}",
        r.status,
        r.text
    );
    ensure!(
        r.error_text().is_some(),
        "with an unknown token: the 401 body is not {{\"error\": ...}}: {}",
        r.text
    );
    Ok(())
}
