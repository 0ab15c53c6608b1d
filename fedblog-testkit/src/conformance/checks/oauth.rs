//! OAuth 2: the token endpoint (client credentials, authorization codes with PKCE), the
//! authorization page, revocation, the server metadata document, and how tokens and their scopes
//! gate the API (401 without a valid token, 403 outside its scopes, 422 for an app-only token on a
//! user endpoint).
//!
//! The authorization-code flow needs a person to sign in, so these checks drive the server's page
//! as a plain HTML form: the `<form method="post">` with an approve (or deny) button, its hidden
//! inputs, a username (or e-mail) input and a password input. A page they cannot understand (or a
//! redirect to a sign-in page that needs a browser session) makes the check *not run*, never fail.
//! Who signs in: see [`sign_in_password`].

use std::collections::BTreeSet;
use std::hash::{BuildHasher, Hasher};

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use sha2::{Digest, Sha256};

use fedblog_core::api::accounts::{
    lookup_account::LookupAccount, register_account::RegisterAccount,
    verify_credentials::VerifyCredentials,
};
use fedblog_core::api::apps::{
    create_app::CreateApp, verify_app_credentials::VerifyAppCredentials,
};
use fedblog_core::api::oauth::{
    authorize_page::AuthorizePage, create_token::CreateToken, revoke_token::RevokeToken,
    server_metadata::ServerMetadata,
};
use fedblog_core::api::statuses::create_status::CreateStatus;
use fedblog_core::api::timelines::home_timeline::HomeTimeline;
use serde_json::Value;

use crate::check;
use crate::client::{Response, form, truncate};
use crate::conformance::{
    Check, CheckResult, Cx, Failure, SetUp, TestApp, User, expect_error, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "oauth/metadata/endpoints",
            "the authorization server metadata names the authorize, token, revocation and app registration endpoints, code + S256, both grant types and the base scopes",
            metadata_endpoints
        ),
        check!(
            "oauth/token/client-credentials",
            "client_credentials with the app's id and secret issues a Bearer token of the asked scopes that belongs to the app",
            token_client_credentials
        ),
        check!(
            "oauth/token/client-credentials-default-read",
            "a client_credentials token asked without a scope has exactly `read`",
            token_default_read
        ),
        check!(
            "oauth/token/scope-beyond-app-400",
            "a token asked for a scope the app was not registered with is a 400 invalid_scope",
            token_scope_beyond_app
        ),
        check!(
            "oauth/token/wrong-secret-401",
            "a token request with a wrong client_secret is a 401 invalid_client with an error_description",
            token_wrong_secret
        ),
        check!(
            "oauth/token/unknown-client-401",
            "a token request from an unknown client_id is a 401 invalid_client with an error_description",
            token_unknown_client
        ),
        check!(
            "oauth/token/unsupported-grant-type-400",
            "a token request with an unknown grant_type is a 400 unsupported_grant_type",
            token_unsupported_grant
        ),
        check!(
            "oauth/token/client-secret-basic",
            "the token endpoint accepts client credentials by HTTP Basic authentication",
            token_client_secret_basic
        ),
        check!(
            "oauth/authorize/code-flow",
            "approving the authorization form redirects with a code and the state; the code buys a token of the asked scopes for that user and app",
            authorize_code_flow
        ),
        check!(
            "oauth/authorize/code-flow-pkce",
            "a code asked with an S256 code_challenge is exchanged with its code_verifier",
            authorize_code_flow_pkce
        ),
        check!(
            "oauth/token/pkce-wrong-verifier",
            "a PKCE code is refused (400) with another code_verifier or without one",
            token_pkce_wrong_verifier
        ),
        check!(
            "oauth/token/code-single-use",
            "an authorization code buys one token; a second exchange is a 400 invalid_grant",
            token_code_single_use
        ),
        check!(
            "oauth/token/code-reuse-revokes-token",
            "exchanging an authorization code a second time revokes the token its first exchange gave (RFC 6749, 4.1.2): that token then gets 401",
            token_code_reuse_revokes
        ),
        check!(
            "oauth/token/code-wrong-redirect-uri",
            "a code exchanged with another of the app's redirect URIs than it was issued for is a 400 invalid_grant",
            token_code_wrong_redirect
        ),
        check!(
            "oauth/token/code-other-client",
            "a code exchanged by another client than it was issued to is a 400 invalid_grant",
            token_code_other_client
        ),
        check!(
            "oauth/authorize/deny-redirects-access-denied",
            "denying the authorization redirects to the client with error=access_denied and the state, and no code",
            authorize_deny
        ),
        check!(
            "oauth/authorize/wrong-password-no-code",
            "signing in with a wrong password gives no code and no redirect to the client",
            authorize_wrong_password
        ),
        check!(
            "oauth/authorize/unknown-client-no-redirect",
            "an authorization request from an unknown client is an error page: no redirect to the given URI, no sign-in form",
            authorize_unknown_client
        ),
        check!(
            "oauth/authorize/unregistered-redirect-no-redirect",
            "an authorization request with a redirect URI the app did not register is an error page: no redirect there, no sign-in form",
            authorize_unregistered_redirect
        ),
        check!(
            "oauth/authorize/invalid-scope-redirects-error",
            "an authorization request for scopes beyond the app's redirects to the client with error=invalid_scope and the state (RFC 6749 4.1.2.1)",
            authorize_invalid_scope
        ),
        check!(
            "oauth/authorize/follow-covered-by-read-write",
            "an app registered with `read write` may be authorized for `read write follow`",
            authorize_follow_covered
        ),
        check!(
            "oauth/scopes/follow-covered-by-read-write",
            "an app registered with `read write` obtains a `read write follow` client_credentials token",
            scopes_follow_covered
        ),
        check!(
            "oauth/scopes/wrong-scope-403",
            "a user token of scope `read` can read but posting with it is a 403 that posts nothing",
            scopes_wrong_scope
        ),
        check!(
            "oauth/scopes/granular-write-statuses",
            "a `write:statuses` token posts statuses but reading the home timeline with it is a 403",
            scopes_granular_write_statuses
        ),
        check!(
            "oauth/scopes/missing-token-401",
            "user endpoints without a token answer 401 with an {\"error\"} body",
            scopes_missing_token
        ),
        check!(
            "oauth/scopes/invalid-token-401",
            "user endpoints with an unknown token answer 401 with an {\"error\"} body",
            scopes_invalid_token
        ),
        check!(
            "oauth/scopes/app-token-wrong-scope-403",
            "an app token of scope `read` cannot register an account: 403, and no account appears",
            scopes_app_token_wrong_scope
        ),
        check!(
            "oauth/scopes/app-token-on-user-endpoint-422",
            "an app-only (client_credentials) token on a user endpoint is a 422 \"This method requires an authenticated user\"",
            scopes_app_token_on_user_endpoint
        ),
        check!(
            "oauth/revoke/token-stops-working",
            "revoking an app token answers 200 {} and the token is a 401 afterwards, while the app's other tokens work",
            revoke_app_token
        ),
        check!(
            "oauth/revoke/user-token-stops-working",
            "revoking a user token answers 200 {} and the token is a 401 afterwards, while the user's other tokens work",
            revoke_user_token
        ),
        check!(
            "oauth/revoke/other-client-403",
            "a client revoking another client's token is a 403 and the token keeps working",
            revoke_other_client
        ),
        check!(
            "oauth/revoke/wrong-secret-keeps-token",
            "a revocation with a wrong client_secret is refused (401/403) and the token keeps working",
            revoke_wrong_secret
        ),
        check!(
            "oauth/revoke/unknown-token-200",
            "revoking an unknown token is not an error (200 {}, RFC 7009)",
            revoke_unknown_token
        ),
    ]
}

const REDIRECT: &str = "https://client.example/callback";
const OTHER_REDIRECT: &str = "https://client.example/other";
const ATTACKER: &str = "https://attacker.example/callback";

// ─── who signs in ────────────────────────────────────────────────────────────────────────────

/// The password of the accounts the account factory makes, when the run says what it is
/// (`--factory-password`; such accounts then have the e-mail `<username>@example.com`). Without it, and without `FEDBLOG_CONFORMANCE_USERNAME` and
/// `FEDBLOG_CONFORMANCE_PASSWORD` naming a fixed account, the authorization-code checks do not run.
pub fn sign_in_password(cx: &Cx) -> Option<String> {
    cx.factory_password.clone()
}

fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

const NO_PASSWORD: &str = "the authorization-code flow needs an account to sign in with: set FEDBLOG_CONFORMANCE_USERNAME and FEDBLOG_CONFORMANCE_PASSWORD, \
or --factory-password with the password of the accounts the factory makes (e-mail <username>@example.com)";

/// What the sign-in form is filled with.
struct Login {
    username: String,
    email: Option<String>,
    password: String,
}

/// A user to sign in as, with a token of all user scopes for them.
async fn signed_in_user(cx: &Cx, prefix: &str) -> Result<(User, Login), Failure> {
    if let (Some(username), Some(password)) = (
        env_var("FEDBLOG_CONFORMANCE_USERNAME"),
        env_var("FEDBLOG_CONFORMANCE_PASSWORD"),
    ) {
        let email = username.contains('@').then(|| username.clone());
        let login = Login {
            username,
            email,
            password,
        };
        let (app, _) = register_app(cx, "read write follow push", &[REDIRECT]).await?;
        let token = user_token(cx, &app, &login, "read write follow push").await?;
        let r = cx
            .client
            .get(&path::<VerifyCredentials>(&[]), Some(&token))
            .await?;
        r.expect(200)?;
        let v = r.json()?;
        let user = User {
            username: str_of(v, "username")?,
            id: str_of(v, "id")?,
            token,
        };
        return Ok((user, login));
    }
    let password = sign_in_password(cx).ok_or_else(|| Failure::NotRun(NO_PASSWORD.into()))?;
    let user = cx.new_user(prefix).await?;
    let login = Login {
        username: user.username.clone(),
        email: Some(format!("{}@example.com", user.username)),
        password,
    };
    Ok((user, login))
}

/// A user token with exactly `scopes`, for checks whose set-up needs a token lacking some scope:
/// a new account approves an app registered with those scopes through the authorization-code
/// flow. Where this run cannot drive that flow (no password to sign in with, a sign-in the
/// driver does not understand), an app token (client credentials) of those scopes stands in.
pub(crate) async fn scoped_user_token(cx: &Cx, scopes: &str) -> Result<String, Failure> {
    let attempt = async {
        let (user, login) = signed_in_user(cx, "scoped").await?;
        let (app, _) = register_app(cx, scopes, &[REDIRECT]).await?;
        let token = user_token(cx, &app, &login, scopes).await?;
        Ok::<_, Failure>((user, token))
    }
    .await;
    match attempt {
        Ok((user, token)) => {
            cx.recorder()
                .name_token(&token, &format!("@{} ({scopes})", user.username));
            Ok(token)
        }
        Err(Failure::NotRun(_)) => {
            let app = cx.new_app(scopes).await?;
            cx.app_token(&app, scopes).await
        }
        Err(f) => Err(f).setup(&format!(
            "getting a user token with scopes {scopes:?} through the authorization-code flow"
        )),
    }
}

// ─── apps and token requests ─────────────────────────────────────────────────────────────────

/// Registers an app with a unique name; the first redirect URI is the one flows use.
async fn register_app(
    cx: &Cx,
    scopes: &str,
    redirects: &[&str],
) -> Result<(TestApp, String), Failure> {
    let name = cx.unique("conformance oauth");
    let uris = redirects.join("\n");
    let r = cx
        .client
        .post(
            &path::<CreateApp>(&[]),
            None,
            form(&[
                ("client_name", name.as_str()),
                ("redirect_uris", uris.as_str()),
                ("scopes", scopes),
            ]),
        )
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    let redirect_uri = redirects.first().map(|s| s.to_string()).unwrap_or_default();
    Ok((
        TestApp {
            client_id: str_of(v, "client_id")?,
            client_secret: str_of(v, "client_secret")?,
            redirect_uri,
        },
        name,
    ))
}

async fn token_request(cx: &Cx, pairs: &[(&str, &str)]) -> Result<Response, Failure> {
    Ok(cx
        .client
        .post(&path::<CreateToken>(&[]), None, form(pairs))
        .await?)
}

async fn client_credentials(
    cx: &Cx,
    app: &TestApp,
    scope: Option<&str>,
) -> Result<Response, Failure> {
    let mut pairs = vec![
        ("grant_type", "client_credentials"),
        ("client_id", app.client_id.as_str()),
        ("client_secret", app.client_secret.as_str()),
    ];
    if let Some(s) = scope {
        pairs.push(("scope", s));
    }
    token_request(cx, &pairs).await
}

async fn exchange(
    cx: &Cx,
    app: &TestApp,
    code: &str,
    redirect_uri: &str,
    verifier: Option<&str>,
) -> Result<Response, Failure> {
    let mut pairs = vec![
        ("grant_type", "authorization_code"),
        ("code", code),
        ("client_id", app.client_id.as_str()),
        ("client_secret", app.client_secret.as_str()),
        ("redirect_uri", redirect_uri),
    ];
    if let Some(v) = verifier {
        pairs.push(("code_verifier", v));
    }
    token_request(cx, &pairs).await
}

async fn revoke(
    cx: &Cx,
    client_id: &str,
    client_secret: &str,
    token: &str,
) -> Result<Response, Failure> {
    let body = form(&[
        ("client_id", client_id),
        ("client_secret", client_secret),
        ("token", token),
    ]);
    Ok(cx
        .client
        .post(&path::<RevokeToken>(&[]), None, body)
        .await?)
}

fn scope_set(s: &str) -> BTreeSet<&str> {
    s.split([' ', '+']).filter(|x| !x.is_empty()).collect()
}

/// Asserts a 200 Token answer granting exactly `scopes`; returns the access token.
fn granted(r: &Response, scopes: &str, what: &str) -> Result<String, Failure> {
    ensure!(
        r.status == 200,
        "{what}: expected HTTP 200 with a token, got {} {}",
        r.status,
        truncate(&r.text)
    );
    let v = r.json()?;
    let token = str_of(v, "access_token")?;
    ensure!(!token.is_empty(), "{what}: empty access_token");
    ensure!(
        v["token_type"]
            .as_str()
            .is_some_and(|t| t.eq_ignore_ascii_case("bearer")),
        "{what}: token_type is {} (expected Bearer)",
        v["token_type"]
    );
    let got = v["scope"].as_str().unwrap_or_default();
    ensure!(
        scope_set(got) == scope_set(scopes),
        "{what}: the token has scope {got:?} (expected {scopes:?})"
    );
    ensure!(
        v["created_at"].is_i64(),
        "{what}: created_at is not an integer: {}",
        v["created_at"]
    );
    Ok(token)
}

/// Asserts an OAuth error answer: the status, `error` = `code`, an `error_description`, no token.
fn oauth_error(r: &Response, status: u16, code: &str, what: &str) -> CheckResult {
    ensure!(
        r.status == status,
        "{what}: expected HTTP {status} {code}, got {} {}",
        r.status,
        truncate(&r.text)
    );
    ensure!(
        r.error_text() == Some(code),
        "{what}: error is {:?} (expected {code:?}): {}",
        r.error_text(),
        truncate(&r.text)
    );
    let v = r.json()?;
    ensure!(
        v["error_description"]
            .as_str()
            .is_some_and(|d| !d.is_empty()),
        "{what}: no error_description: {}",
        truncate(&r.text)
    );
    ensure!(
        v.get("access_token").is_none(),
        "{what}: the error carries an access_token"
    );
    Ok(())
}

/// The status a token gets from the app credential check (200 while it works, 401 once not).
async fn app_check(cx: &Cx, token: &str) -> Result<Response, Failure> {
    Ok(cx
        .client
        .get(&path::<VerifyAppCredentials>(&[]), Some(token))
        .await?)
}

// ─── the authorization page ──────────────────────────────────────────────────────────────────

#[derive(Clone, Copy)]
enum Decision {
    Approve,
    Deny,
}

impl Decision {
    fn words(self) -> &'static [&'static str] {
        match self {
            Decision::Approve => &["approve", "authorize", "authorise", "allow"],
            Decision::Deny => &["deny", "reject"],
        }
    }
}

fn authorize_url(
    client_id: &str,
    redirect_uri: &str,
    scope: &str,
    state: &str,
    challenge: Option<&str>,
) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    q.append_pair("response_type", "code")
        .append_pair("client_id", client_id)
        .append_pair("redirect_uri", redirect_uri)
        .append_pair("scope", scope)
        .append_pair("state", state);
    if let Some(c) = challenge {
        q.append_pair("code_challenge", c)
            .append_pair("code_challenge_method", "S256");
    }
    format!("{}?{}", path::<AuthorizePage>(&[]), q.finish())
}

/// Resolves a form's `action` against the page it came from (a path and query on the server).
fn resolve(page: &str, action: &str) -> String {
    let action = action.trim();
    if action.is_empty() {
        return page.to_string();
    }
    if action.starts_with("http://") || action.starts_with("https://") || action.starts_with('/') {
        return action.to_string();
    }
    let page_path = page.split('?').next().unwrap_or(page);
    let dir = &page_path[..page_path.rfind('/').map(|i| i + 1).unwrap_or(0)];
    format!("{dir}{action}")
}

/// How the authorization page let the user in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SignIn {
    /// A form with the login and password.
    Password,
    /// A list of accounts to choose from, without a password (as test servers offer).
    Chooser,
}

/// The session a browser would keep while signing in: cookies by name, sent back to this
/// server whatever `Domain`, `Path` or `Secure` they were set with (a server configured for
/// another host name, or for https behind a proxy, still recognises its session on loopback).
#[derive(Default)]
struct Session {
    cookies: std::collections::BTreeMap<String, String>,
}

impl Session {
    fn keep(&mut self, r: &Response) {
        for v in r.headers.get_all("set-cookie") {
            let Ok(v) = v.to_str() else { continue };
            let pair = v.split(';').next().unwrap_or_default();
            if let Some((name, value)) = pair.split_once('=') {
                self.cookies
                    .insert(name.trim().to_string(), value.trim().to_string());
            }
        }
    }

    fn header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    async fn send(
        &mut self,
        cx: &Cx,
        method: &str,
        url: &str,
        body: crate::client::Body,
    ) -> Result<Response, Failure> {
        let cookie = self.header();
        let headers: Vec<(&str, &str)> = if cookie.is_empty() {
            vec![]
        } else {
            vec![("Cookie", cookie.as_str())]
        };
        let r = cx.client.send(method, url, None, body, &headers).await?;
        self.keep(&r);
        Ok(r)
    }
}

/// Where a redirect on the server leads, as a path on the server under test: a relative
/// `Location` is resolved against the page, and an absolute one to another host (the host the
/// server is configured for) keeps its path and query.
fn on_server(page: &str, location: &str) -> String {
    if location.starts_with("http://") || location.starts_with("https://") {
        let after = origin_of(location)
            .map(|o| &location[o.len()..])
            .unwrap_or("/");
        return if after.is_empty() {
            "/".into()
        } else {
            after.into()
        };
    }
    resolve(page, location)
}

/// How many pages a sign-in may pass through before the consent page.
const MAX_SIGN_IN_STEPS: usize = 8;

/// Opens the authorization page at `url`, fills its form as `login` and submits it with the
/// `decision` button; answers the server's reply to the submission. Like a browser it keeps
/// the session's cookies and follows redirects on the server, so a server that first sends the
/// user to a sign-in page of its own (a username or e-mail and a password) and back to the
/// consent page is driven through both. A page without a sign-in form that offers the user's
/// account to choose (a button `username` = the login's username) approves by choosing it, and
/// says so.
async fn submit_authorization(
    cx: &Cx,
    url: &str,
    login: &Login,
    decision: Decision,
) -> Result<(Response, SignIn), Failure> {
    let mut session = Session::default();
    let mut at = url.to_string();
    let mut page = session
        .send(cx, "GET", &at, crate::client::Body::None)
        .await?;
    let mut signed_in = false;
    for _ in 0..MAX_SIGN_IN_STEPS {
        if (300..400).contains(&page.status) {
            let Some(to) = page.header("location").map(str::to_string) else {
                return Err(Failure::Fail(format!(
                    "the authorization page answered {} without a Location",
                    page.status
                )));
            };
            let back = url
                .split_once('?')
                .map(|(_, q)| form_urlencoded::parse(q.as_bytes()).into_owned().collect())
                .and_then(|q: Vec<(String, String)>| param(&q, "redirect_uri").map(str::to_string));
            if back.is_some_and(|b| to.starts_with(&b)) {
                // Back to the client (approved before, or refused): that is the answer.
                return Ok((page, SignIn::Password));
            }
            at = on_server(&at, &to);
            page = session
                .send(cx, "GET", &at, crate::client::Body::None)
                .await?;
            continue;
        }
        ensure!(
            page.status == 200,
            "the authorization page for a valid request answered {} {}",
            page.status,
            truncate(&page.text)
        );
        let forms = html::forms(&page.text);
        if let Some((f, button)) = html::choose(&forms, decision.words()) {
            let pairs = match html::fill(f, button, login) {
                Some(pairs) => pairs,
                None if signed_in || !f.fields.iter().any(|x| x.kind == "password") => {
                    html::fill_choice(f, button)
                }
                None => {
                    return Err(Failure::NotRun(
                        "the authorization form has no username (or e-mail) and password inputs to sign in with"
                            .into(),
                    ));
                }
            };
            let r = session
                .send(cx, "POST", &resolve(&at, &f.action), form(&pairs))
                .await?;
            return Ok((r, SignIn::Password));
        }
        if let Some((f, button)) = html::sign_in_form(&forms) {
            ensure!(
                !signed_in,
                "signing in as {} led back to the sign-in page (wrong password, or the session was not kept): {}",
                login.username,
                truncate(&page.text)
            );
            let pairs = html::fill(f, button, login).ok_or_else(|| {
                Failure::NotRun(
                    "the sign-in page has no username (or e-mail) input beside its password".into(),
                )
            })?;
            signed_in = true;
            let action = resolve(&at, &f.action);
            page = session.send(cx, "POST", &action, form(&pairs)).await?;
            at = action;
            continue;
        }
        return match (decision, html::choose_account(&forms, &login.username)) {
            (Decision::Approve, Some((f, button))) => {
                let r = session
                    .send(
                        cx,
                        "POST",
                        &resolve(&at, &f.action),
                        form(&html::fill_choice(f, button)),
                    )
                    .await?;
                Ok((r, SignIn::Chooser))
            }
            (Decision::Deny, Some(_)) => Err(Failure::NotRun(
                "the authorization page offers accounts to choose from and no button to deny"
                    .into(),
            )),
            (_, None) => Err(Failure::NotRun(format!(
                "no <form method=\"post\"> with a button named one of {:?}, nor a sign-in form, nor one choosing the account {:?}, on the authorization page: {}",
                decision.words(),
                login.username,
                truncate(&page.text)
            ))),
        };
    }
    Err(Failure::NotRun(format!(
        "after {MAX_SIGN_IN_STEPS} pages the sign-in had not reached a consent page; the last was {at}"
    )))
}

/// The query parameters of a 302/303 redirect to `redirect_uri`.
fn redirected_to(
    r: &Response,
    redirect_uri: &str,
    what: &str,
) -> Result<Vec<(String, String)>, Failure> {
    ensure!(
        matches!(r.status, 302 | 303),
        "{what}: expected a 302/303 redirect to {redirect_uri}, got {} {}",
        r.status,
        truncate(&r.text)
    );
    let loc = r
        .header("location")
        .ok_or_else(|| Failure::Fail(format!("{what}: a {} without Location", r.status)))?;
    let rest = loc.strip_prefix(redirect_uri).ok_or_else(|| {
        Failure::Fail(format!(
            "{what}: redirected to {loc}, not to {redirect_uri}"
        ))
    })?;
    let query = rest.split('#').next().unwrap_or_default();
    let query = query
        .strip_prefix('?')
        .ok_or_else(|| Failure::Fail(format!("{what}: redirected to {loc}, without parameters")))?;
    Ok(form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect())
}

fn param<'a>(q: &'a [(String, String)], key: &str) -> Option<&'a str> {
    q.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

/// Approves an authorization request for `scope` as `login` and returns the code (checking the
/// state comes back).
async fn obtain_code(
    cx: &Cx,
    app: &TestApp,
    login: &Login,
    scope: &str,
    challenge: Option<&str>,
) -> Result<String, Failure> {
    let state = cx.unique("state");
    let url = authorize_url(&app.client_id, &app.redirect_uri, scope, &state, challenge);
    let (r, _) = submit_authorization(cx, &url, login, Decision::Approve).await?;
    let q = redirected_to(&r, &app.redirect_uri, "approving the authorization")?;
    ensure!(
        param(&q, "error").is_none(),
        "approving the authorization redirected with error {:?}: {q:?}",
        param(&q, "error")
    );
    ensure!(
        param(&q, "state") == Some(state.as_str()),
        "the redirect carries state {:?} (sent {state:?})",
        param(&q, "state")
    );
    param(&q, "code")
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .ok_or_else(|| {
            Failure::Fail(format!(
                "the redirect after approval carries no code: {q:?}"
            ))
        })
}

/// A user token for `scope` through the authorization-code flow.
async fn user_token(cx: &Cx, app: &TestApp, login: &Login, scope: &str) -> Result<String, Failure> {
    let code = obtain_code(cx, app, login, scope, None).await?;
    let r = exchange(cx, app, &code, &app.redirect_uri, None).await?;
    granted(&r, scope, "exchanging the code")
}

/// Asserts that an authorization request was refused on the server's own page: no redirect to
/// `uri`, a 4xx status and no sign-in form.
fn refused_on_page(r: &Response, uri: &str, what: &str) -> CheckResult {
    if let Some(loc) = r.header("location") {
        ensure!(!loc.starts_with(uri), "{what}: redirected to {loc}");
        if (300..400).contains(&r.status) {
            return Err(Failure::NotRun(format!(
                "{what}: the server redirects to {loc} (a sign-in page?) before judging the request; its verdict is not visible without a browser session"
            )));
        }
    }
    ensure!(
        (400..500).contains(&r.status),
        "{what}: expected a 4xx error page, got {} {}",
        r.status,
        truncate(&r.text)
    );
    let offers_sign_in = html::forms(&r.text)
        .iter()
        .any(|f| f.fields.iter().any(|x| x.kind == "password"));
    ensure!(
        !offers_sign_in,
        "{what}: the error page offers a sign-in form: {}",
        truncate(&r.text)
    );
    Ok(())
}

// ─── PKCE (RFC 7636 S256) ────────────────────────────────────────────────────────────────────

/// The S256 code challenge of a verifier: BASE64URL(SHA-256(verifier)) without padding.
fn s256(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// A fresh, unguessable code verifier (43 URL-safe characters).
fn pkce_verifier(cx: &Cx) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let seed = format!(
        "{}:{}:{:?}",
        cx.unique("pkce"),
        nanos,
        std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish()
    );
    URL_SAFE_NO_PAD.encode(Sha256::digest(seed.as_bytes()))
}

// ─── a tolerant reader of HTML forms ─────────────────────────────────────────────────────────

mod html {
    //! Just enough HTML to find forms, their inputs and buttons.

    use regex::Regex;

    use super::Login;

    /// A form.
    pub struct Form {
        /// `get` or `post` (lowercase).
        pub method: String,
        /// The action, as written.
        pub action: String,
        /// Named inputs.
        pub fields: Vec<Field>,
        /// Submit buttons.
        pub buttons: Vec<Button>,
    }

    /// A named input.
    pub struct Field {
        /// Its name.
        pub name: String,
        /// Its type (lowercase; `text` when absent).
        pub kind: String,
        /// Its value.
        pub value: String,
        /// Whether a checkbox or radio button is checked.
        pub checked: bool,
    }

    /// A submit button.
    pub struct Button {
        /// Its name, if any.
        pub name: Option<String>,
        /// Its value.
        pub value: String,
        /// Its visible text.
        pub label: String,
    }

    fn re(pattern: &str) -> Option<Regex> {
        Regex::new(pattern).ok()
    }

    fn unescape(s: &str) -> String {
        let mut out = String::new();
        let mut rest = s;
        while let Some(i) = rest.find('&') {
            out.push_str(&rest[..i]);
            rest = &rest[i..];
            let Some(end) = rest.find(';').filter(|e| *e <= 10) else {
                out.push('&');
                rest = &rest[1..];
                continue;
            };
            let entity = &rest[1..end];
            let ch = match entity {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some('\u{a0}'),
                _ => entity
                    .strip_prefix("#x")
                    .or_else(|| entity.strip_prefix("#X"))
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .or_else(|| entity.strip_prefix('#').and_then(|d| d.parse().ok()))
                    .and_then(char::from_u32),
            };
            match ch {
                Some(c) => {
                    out.push(c);
                    rest = &rest[end + 1..];
                }
                None => {
                    out.push('&');
                    rest = &rest[1..];
                }
            }
        }
        out.push_str(rest);
        out
    }

    fn attrs(tag: &str) -> Vec<(String, String)> {
        let Some(r) = re(r#"(?s)([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?"#)
        else {
            return vec![];
        };
        r.captures_iter(tag)
            .map(|c| {
                let value = c
                    .get(2)
                    .or_else(|| c.get(3))
                    .or_else(|| c.get(4))
                    .map(|m| unescape(m.as_str()))
                    .unwrap_or_default();
                (c[1].to_ascii_lowercase(), value)
            })
            .collect()
    }

    fn attr<'a>(attrs: &'a [(String, String)], name: &str) -> Option<&'a str> {
        attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn text_of(inner: &str) -> String {
        let stripped = re(r"(?s)<[^>]*>")
            .map(|r| r.replace_all(inner, " ").into_owned())
            .unwrap_or_default();
        unescape(
            stripped
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .as_str(),
        )
    }

    /// Every form of a page.
    pub fn forms(page: &str) -> Vec<Form> {
        let (Some(comments), Some(form_re), Some(input_re), Some(button_re)) = (
            re(r"(?s)<!--.*?-->"),
            re(r"(?is)<form\b([^>]*)>(.*?)</form\s*>"),
            re(r"(?is)<input\b([^>]*)>"),
            re(r"(?is)<button\b([^>]*)>(.*?)</button\s*>"),
        ) else {
            return vec![];
        };
        let page = comments.replace_all(page, "");
        form_re
            .captures_iter(&page)
            .map(|c| {
                let fa = attrs(&c[1]);
                let inner = &c[2];
                let mut fields = Vec::new();
                let mut buttons = Vec::new();
                for i in input_re.captures_iter(inner) {
                    let a = attrs(&i[1]);
                    let kind = attr(&a, "type").unwrap_or("text").to_ascii_lowercase();
                    let value = attr(&a, "value").unwrap_or_default().to_string();
                    let name = attr(&a, "name").map(str::to_string);
                    if kind == "submit" || kind == "image" {
                        buttons.push(Button {
                            name,
                            label: value.clone(),
                            value,
                        });
                    } else if let Some(name) = name {
                        fields.push(Field {
                            name,
                            kind,
                            value,
                            checked: attr(&a, "checked").is_some(),
                        });
                    }
                }
                for b in button_re.captures_iter(inner) {
                    let a = attrs(&b[1]);
                    let kind = attr(&a, "type").unwrap_or("submit").to_ascii_lowercase();
                    if kind == "submit" {
                        buttons.push(Button {
                            name: attr(&a, "name").map(str::to_string),
                            value: attr(&a, "value").unwrap_or_default().to_string(),
                            label: text_of(&b[2]),
                        });
                    }
                }
                Form {
                    method: attr(&fa, "method").unwrap_or("get").to_ascii_lowercase(),
                    action: attr(&fa, "action").unwrap_or_default().to_string(),
                    fields,
                    buttons,
                }
            })
            .collect()
    }

    /// The first POST form with a button whose value or text is one of `words`, and that button.
    pub fn choose<'a>(forms: &'a [Form], words: &[&str]) -> Option<(&'a Form, &'a Button)> {
        let named = |s: &str| words.contains(&s.trim().to_lowercase().as_str());
        forms.iter().filter(|f| f.method == "post").find_map(|f| {
            f.buttons
                .iter()
                .find(|b| named(&b.value) || named(&b.label))
                .map(|b| (f, b))
        })
    }

    /// The first POST form with a button choosing the account `username` (a button named
    /// `username`, `acct` or `account` whose value is it, in any case), and that button.
    pub fn choose_account<'a>(forms: &'a [Form], username: &str) -> Option<(&'a Form, &'a Button)> {
        forms.iter().filter(|f| f.method == "post").find_map(|f| {
            f.buttons
                .iter()
                .find(|b| {
                    b.name.as_deref().is_some_and(|n| {
                        matches!(
                            n.to_ascii_lowercase().as_str(),
                            "username" | "acct" | "account"
                        )
                    }) && b.value.eq_ignore_ascii_case(username)
                })
                .map(|b| (f, b))
        })
    }

    /// A POST form with a password input (a sign-in page), and its submit button (or none, for
    /// a form submitted by pressing enter).
    pub fn sign_in_form(forms: &[Form]) -> Option<(&Form, &Button)> {
        static ENTER: Button = Button {
            name: None,
            value: String::new(),
            label: String::new(),
        };
        forms
            .iter()
            .filter(|f| f.method == "post")
            .find(|f| f.fields.iter().any(|x| x.kind == "password"))
            .map(|f| (f, f.buttons.first().unwrap_or(&ENTER)))
    }

    /// The pairs to submit for a chosen account: every input as given, and the button.
    pub fn fill_choice(form: &Form, button: &Button) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = form
            .fields
            .iter()
            .filter(|f| !matches!(f.kind.as_str(), "button" | "reset" | "file" | "password"))
            .filter(|f| !matches!(f.kind.as_str(), "checkbox" | "radio") || f.checked)
            .map(|f| (f.name.clone(), f.value.clone()))
            .collect();
        if let Some(n) = &button.name {
            out.push((n.clone(), button.value.clone()));
        }
        out
    }

    /// The pairs to submit: every input as given (hidden ones included), the login and password
    /// filled in, and the button. `None` when the form asks for no login and password.
    pub fn fill(form: &Form, button: &Button, login: &Login) -> Option<Vec<(String, String)>> {
        let mut out = Vec::new();
        let (mut has_login, mut has_password) = (false, false);
        for f in &form.fields {
            let name = f.name.to_ascii_lowercase();
            let value = match f.kind.as_str() {
                "password" => {
                    has_password = true;
                    login.password.clone()
                }
                "checkbox" | "radio" if !f.checked => continue,
                "checkbox" | "radio" if f.value.is_empty() => "on".to_string(),
                "button" | "reset" | "file" => continue,
                "hidden" => f.value.clone(),
                kind if kind == "email" || name == "email" || name == "user[email]" => {
                    has_login = true;
                    login
                        .email
                        .clone()
                        .unwrap_or_else(|| login.username.clone())
                }
                _ if matches!(
                    name.as_str(),
                    "username" | "login" | "user[login]" | "user[username]" | "acct"
                ) =>
                {
                    has_login = true;
                    login.username.clone()
                }
                _ => f.value.clone(),
            };
            out.push((f.name.clone(), value));
        }
        if !(has_login && has_password) {
            return None;
        }
        if let Some(n) = &button.name {
            out.push((n.clone(), button.value.clone()));
        }
        Some(out)
    }
}

// ─── metadata ────────────────────────────────────────────────────────────────────────────────

fn origin_of(url: &str) -> Option<&str> {
    let (scheme, rest) = url.split_once("://")?;
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let end = rest.find('/').unwrap_or(rest.len());
    Some(&url[..scheme.len() + 3 + end])
}

fn path_of(url: &str) -> &str {
    let after = origin_of(url).map(|o| &url[o.len()..]).unwrap_or(url);
    let p = after.split(['?', '#']).next().unwrap_or_default();
    if p.is_empty() { "/" } else { p }
}

fn has_all(v: &Value, key: &str, items: &[&str]) -> CheckResult {
    let list: Vec<&str> = v[key]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for i in items {
        ensure!(list.contains(i), "{key} lacks {i:?}: {}", v[key]);
    }
    Ok(())
}

async fn metadata_endpoints(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<ServerMetadata>(&[]), None).await?;
    r.expect(200)?;
    let v = r.json()?.clone();
    let issuer = v["issuer"].as_str().unwrap_or_default();
    let origin = origin_of(issuer).ok_or_else(|| {
        Failure::Fail(format!(
            "issuer is not an absolute http(s) URL: {}",
            v["issuer"]
        ))
    })?;
    for (key, want) in [
        ("authorization_endpoint", path::<AuthorizePage>(&[])),
        ("token_endpoint", path::<CreateToken>(&[])),
        ("revocation_endpoint", path::<RevokeToken>(&[])),
        ("app_registration_endpoint", path::<CreateApp>(&[])),
    ] {
        let url = v[key]
            .as_str()
            .ok_or_else(|| Failure::Fail(format!("{key} is missing: {v}")))?;
        ensure!(
            origin_of(url) == Some(origin),
            "{key} {url} is not on the issuer's origin {origin}"
        );
        ensure!(
            path_of(url) == want,
            "{key} is {url}; expected the path {want}"
        );
    }
    has_all(&v, "scopes_supported", &["read", "write", "follow", "push"])?;
    has_all(&v, "response_types_supported", &["code"])?;
    has_all(
        &v,
        "grant_types_supported",
        &["authorization_code", "client_credentials"],
    )?;
    has_all(&v, "code_challenge_methods_supported", &["S256"])?;
    // The advertised token endpoint issues tokens.
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let token_path = path_of(v["token_endpoint"].as_str().unwrap_or_default());
    let body = form(&[
        ("grant_type", "client_credentials"),
        ("client_id", app.client_id.as_str()),
        ("client_secret", app.client_secret.as_str()),
        ("scope", "read"),
    ]);
    let t = cx.client.post(token_path, None, body).await?;
    granted(
        &t,
        "read",
        "client_credentials at the advertised token_endpoint",
    )?;
    Ok(())
}

// ─── the token endpoint ──────────────────────────────────────────────────────────────────────

async fn token_client_credentials(cx: &Cx) -> CheckResult {
    let (app, name) = register_app(cx, "read write", &[REDIRECT]).await?;
    let r = client_credentials(cx, &app, Some("read write")).await?;
    let token = granted(&r, "read write", "client_credentials for `read write`")?;
    let check = app_check(cx, &token).await?;
    check.expect(200)?;
    ensure!(
        check.json()?["name"] == name.as_str(),
        "the token belongs to app {} (expected {name:?})",
        check.json()?["name"]
    );
    let r = client_credentials(cx, &app, Some("read")).await?;
    granted(
        &r,
        "read",
        "client_credentials for `read` of a `read write` app",
    )?;
    Ok(())
}

async fn token_default_read(cx: &Cx) -> CheckResult {
    let (app, _) = register_app(cx, "read write", &[REDIRECT]).await?;
    let r = client_credentials(cx, &app, None).await?;
    granted(&r, "read", "client_credentials without a scope")?;
    Ok(())
}

async fn token_scope_beyond_app(cx: &Cx) -> CheckResult {
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let r = client_credentials(cx, &app, Some("read write")).await?;
    oauth_error(&r, 400, "invalid_scope", "`read write` for a `read` app")
}

async fn token_wrong_secret(cx: &Cx) -> CheckResult {
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let wrong = TestApp {
        client_secret: format!("{}x", app.client_secret),
        ..app.clone()
    };
    let r = client_credentials(cx, &wrong, Some("read")).await?;
    oauth_error(&r, 401, "invalid_client", "a wrong client_secret")?;
    let r = client_credentials(cx, &app, Some("read")).await?;
    granted(&r, "read", "the right client_secret afterwards")?;
    Ok(())
}

async fn token_unknown_client(cx: &Cx) -> CheckResult {
    let fake = TestApp {
        client_id: cx.unique("no-such-client"),
        client_secret: cx.unique("no-such-secret"),
        redirect_uri: REDIRECT.into(),
    };
    let r = client_credentials(cx, &fake, Some("read")).await?;
    oauth_error(&r, 401, "invalid_client", "an unknown client_id")
}

async fn token_unsupported_grant(cx: &Cx) -> CheckResult {
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let r = token_request(
        cx,
        &[
            ("grant_type", "urn:example:no-such-grant"),
            ("client_id", app.client_id.as_str()),
            ("client_secret", app.client_secret.as_str()),
        ],
    )
    .await?;
    oauth_error(
        &r,
        400,
        "unsupported_grant_type",
        "grant_type urn:example:no-such-grant",
    )
}

async fn token_client_secret_basic(cx: &Cx) -> CheckResult {
    let (app, name) = register_app(cx, "read", &[REDIRECT]).await?;
    let enc = |s: &str| form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
    let basic = format!(
        "Basic {}",
        STANDARD.encode(format!(
            "{}:{}",
            enc(&app.client_id),
            enc(&app.client_secret)
        ))
    );
    let body = form(&[("grant_type", "client_credentials"), ("scope", "read")]);
    let r = cx
        .client
        .send(
            "POST",
            &path::<CreateToken>(&[]),
            None,
            body,
            &[("Authorization", basic.as_str())],
        )
        .await?;
    let token = granted(&r, "read", "client_credentials by HTTP Basic")?;
    let check = app_check(cx, &token).await?;
    check.expect(200)?;
    ensure!(
        check.json()?["name"] == name.as_str(),
        "the token belongs to app {} (expected {name:?})",
        check.json()?["name"]
    );
    Ok(())
}

// ─── the authorization-code flow ─────────────────────────────────────────────────────────────

async fn authorize_code_flow(cx: &Cx) -> CheckResult {
    let (user, login) = signed_in_user(cx, "oauth_code").await?;
    let (app, name) = register_app(cx, "read write", &[REDIRECT]).await?;
    let code = obtain_code(cx, &app, &login, "read write", None).await?;
    let r = exchange(cx, &app, &code, &app.redirect_uri, None).await?;
    let token = granted(&r, "read write", "exchanging the code")?;
    let me = cx
        .client
        .get(&path::<VerifyCredentials>(&[]), Some(&token))
        .await?;
    me.expect(200)?;
    ensure!(
        me.json()?["id"] == user.id.as_str(),
        "the token is for account {} (signed in as {})",
        me.json()?["id"],
        user.id
    );
    let check = app_check(cx, &token).await?;
    check.expect(200)?;
    ensure!(
        check.json()?["name"] == name.as_str(),
        "the token belongs to app {} (expected {name:?})",
        check.json()?["name"]
    );
    Ok(())
}

async fn authorize_code_flow_pkce(cx: &Cx) -> CheckResult {
    let (user, login) = signed_in_user(cx, "oauth_pkce").await?;
    let (app, _) = register_app(cx, "read write", &[REDIRECT]).await?;
    let verifier = pkce_verifier(cx);
    let code = obtain_code(cx, &app, &login, "read", Some(&s256(&verifier))).await?;
    let r = exchange(cx, &app, &code, &app.redirect_uri, Some(&verifier)).await?;
    let token = granted(&r, "read", "exchanging the PKCE code with its verifier")?;
    let me = cx
        .client
        .get(&path::<VerifyCredentials>(&[]), Some(&token))
        .await?;
    me.expect(200)?;
    ensure!(
        me.json()?["id"] == user.id.as_str(),
        "the token is for account {} (signed in as {})",
        me.json()?["id"],
        user.id
    );
    Ok(())
}

async fn token_pkce_wrong_verifier(cx: &Cx) -> CheckResult {
    let (_, login) = signed_in_user(cx, "oauth_pkce_bad").await?;
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let verifier = pkce_verifier(cx);
    let challenge = s256(&verifier);
    let code = obtain_code(cx, &app, &login, "read", Some(&challenge)).await?;
    let other = pkce_verifier(cx);
    let r = exchange(cx, &app, &code, &app.redirect_uri, Some(&other)).await?;
    oauth_error(
        &r,
        400,
        "invalid_grant",
        "a PKCE code with another code_verifier",
    )?;
    let code = obtain_code(cx, &app, &login, "read", Some(&challenge)).await?;
    let r = exchange(cx, &app, &code, &app.redirect_uri, None).await?;
    ensure!(
        r.status == 400 && matches!(r.error_text(), Some("invalid_grant" | "invalid_request")),
        "a PKCE code without a code_verifier: expected 400 invalid_grant or invalid_request, got {} {}",
        r.status,
        truncate(&r.text)
    );
    ensure!(
        r.json()?.get("access_token").is_none(),
        "a PKCE code without a code_verifier bought a token"
    );
    Ok(())
}

async fn token_code_single_use(cx: &Cx) -> CheckResult {
    let (_, login) = signed_in_user(cx, "oauth_once").await?;
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let code = obtain_code(cx, &app, &login, "read", None).await?;
    let r = exchange(cx, &app, &code, &app.redirect_uri, None).await?;
    granted(&r, "read", "the first exchange")?;
    let r = exchange(cx, &app, &code, &app.redirect_uri, None).await?;
    oauth_error(
        &r,
        400,
        "invalid_grant",
        "the second exchange of the same code",
    )
}

async fn token_code_reuse_revokes(cx: &Cx) -> CheckResult {
    let (_, login) = signed_in_user(cx, "oauth_reuse").await?;
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let code = obtain_code(cx, &app, &login, "read", None).await?;
    let r = exchange(cx, &app, &code, &app.redirect_uri, None).await?;
    let token = granted(&r, "read", "the first exchange")?;
    let me = path::<VerifyCredentials>(&[]);
    cx.client
        .get(&me, Some(&token))
        .await?
        .expect(200)
        .map_err(|e| format!("the first exchange's token before the reuse: {e}"))?;
    let r = exchange(cx, &app, &code, &app.redirect_uri, None).await?;
    oauth_error(&r, 400, "invalid_grant", "the second exchange of the code")?;
    let r = cx.client.get(&me, Some(&token)).await?;
    ensure!(
        r.status == 401,
        "the first exchange's token still works after the code was exchanged again: HTTP {}",
        r.status
    );
    Ok(())
}

async fn token_code_wrong_redirect(cx: &Cx) -> CheckResult {
    let (_, login) = signed_in_user(cx, "oauth_redirect").await?;
    let (app, _) = register_app(cx, "read", &[REDIRECT, OTHER_REDIRECT]).await?;
    let code = obtain_code(cx, &app, &login, "read", None).await?;
    let r = exchange(cx, &app, &code, OTHER_REDIRECT, None).await?;
    oauth_error(
        &r,
        400,
        "invalid_grant",
        "a code exchanged with another registered redirect URI",
    )
}

async fn token_code_other_client(cx: &Cx) -> CheckResult {
    let (_, login) = signed_in_user(cx, "oauth_other").await?;
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let (other, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let code = obtain_code(cx, &app, &login, "read", None).await?;
    let r = exchange(cx, &other, &code, REDIRECT, None).await?;
    oauth_error(
        &r,
        400,
        "invalid_grant",
        "a code exchanged by another client",
    )
}

async fn authorize_deny(cx: &Cx) -> CheckResult {
    let (_, login) = signed_in_user(cx, "oauth_deny").await?;
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let state = cx.unique("state");
    let url = authorize_url(&app.client_id, &app.redirect_uri, "read", &state, None);
    let (r, _) = submit_authorization(cx, &url, &login, Decision::Deny).await?;
    let q = redirected_to(&r, &app.redirect_uri, "denying the authorization")?;
    ensure!(
        param(&q, "error") == Some("access_denied"),
        "the redirect after denial carries error {:?} (expected access_denied): {q:?}",
        param(&q, "error")
    );
    ensure!(
        param(&q, "state") == Some(state.as_str()),
        "the redirect after denial carries state {:?} (sent {state:?})",
        param(&q, "state")
    );
    ensure!(
        param(&q, "code").is_none(),
        "the redirect after denial carries a code"
    );
    Ok(())
}

async fn authorize_wrong_password(cx: &Cx) -> CheckResult {
    let (_, login) = signed_in_user(cx, "oauth_badpw").await?;
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let wrong = Login {
        password: format!("{}-wrong", login.password),
        username: login.username.clone(),
        email: login.email.clone(),
    };
    let url = authorize_url(&app.client_id, &app.redirect_uri, "read", "s1", None);
    let (r, how) = submit_authorization(cx, &url, &wrong, Decision::Approve).await?;
    if how == SignIn::Chooser {
        return Err(Failure::NotRun(
            "the authorization page signs in by choosing an account, without a password: a wrong password cannot be tried"
                .into(),
        ));
    }
    if let Some(loc) = r.header("location") {
        ensure!(
            !loc.starts_with(&app.redirect_uri),
            "a wrong password redirected to the client: {loc}"
        );
        ensure!(
            !loc.contains("code="),
            "a wrong password redirected with a code: {loc}"
        );
    }
    // The same form, rightly filled, does sign in: the refusal was for the password.
    obtain_code(cx, &app, &login, "read", None).await?;
    Ok(())
}

async fn authorize_unknown_client(cx: &Cx) -> CheckResult {
    let url = authorize_url(&cx.unique("no-such-client"), ATTACKER, "read", "s1", None);
    let r = cx.client.get(&url, None).await?;
    refused_on_page(&r, ATTACKER, "an unknown client_id")
}

async fn authorize_unregistered_redirect(cx: &Cx) -> CheckResult {
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let url = authorize_url(&app.client_id, ATTACKER, "read", "s1", None);
    let r = cx.client.get(&url, None).await?;
    refused_on_page(&r, ATTACKER, "an unregistered redirect_uri")
}

async fn authorize_invalid_scope(cx: &Cx) -> CheckResult {
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let state = cx.unique("state");
    let url = authorize_url(
        &app.client_id,
        &app.redirect_uri,
        "read write",
        &state,
        None,
    );
    let r = cx.client.get(&url, None).await?;
    if let Some(loc) = r.header("location")
        && (300..400).contains(&r.status)
        && !loc.starts_with(&app.redirect_uri)
    {
        return Err(Failure::NotRun(format!(
            "the server redirects to {loc} (a sign-in page?) before judging the request; its verdict is not visible without a browser session"
        )));
    }
    let q = redirected_to(
        &r,
        &app.redirect_uri,
        "authorizing `read write` for a `read` app",
    )?;
    ensure!(
        param(&q, "error") == Some("invalid_scope"),
        "the redirect carries error {:?} (expected invalid_scope): {q:?}",
        param(&q, "error")
    );
    ensure!(
        param(&q, "state") == Some(state.as_str()),
        "the redirect carries state {:?} (sent {state:?})",
        param(&q, "state")
    );
    ensure!(param(&q, "code").is_none(), "the redirect carries a code");
    Ok(())
}

async fn authorize_follow_covered(cx: &Cx) -> CheckResult {
    let (user, login) = signed_in_user(cx, "oauth_follow").await?;
    let (app, _) = register_app(cx, "read write", &[REDIRECT]).await?;
    let token = user_token(cx, &app, &login, "read write follow").await?;
    let me = cx
        .client
        .get(&path::<VerifyCredentials>(&[]), Some(&token))
        .await?;
    me.expect(200)?;
    ensure!(
        me.json()?["id"] == user.id.as_str(),
        "the token is for account {} (signed in as {})",
        me.json()?["id"],
        user.id
    );
    Ok(())
}

// ─── scopes ──────────────────────────────────────────────────────────────────────────────────

async fn scopes_follow_covered(cx: &Cx) -> CheckResult {
    let (app, _) = register_app(cx, "read write", &[REDIRECT]).await?;
    let r = client_credentials(cx, &app, Some("read write follow")).await?;
    let token = granted(
        &r,
        "read write follow",
        "client_credentials for `read write follow` of a `read write` app",
    )?;
    app_check(cx, &token).await?.expect(200)?;
    Ok(())
}

fn mentions(r: &Response, marker: &str) -> Result<bool, Failure> {
    let list = r.json()?.as_array().ok_or_else(|| {
        Failure::Fail(format!(
            "the home timeline is not a list: {}",
            truncate(&r.text)
        ))
    })?;
    Ok(list
        .iter()
        .any(|s| s["content"].as_str().is_some_and(|c| c.contains(marker))))
}

async fn scopes_wrong_scope(cx: &Cx) -> CheckResult {
    let (user, login) = signed_in_user(cx, "oauth_readonly").await?;
    let (app, _) = register_app(cx, "read write", &[REDIRECT]).await?;
    let read = user_token(cx, &app, &login, "read").await?;
    let home = path::<HomeTimeline>(&[]);
    cx.client.get(&home, Some(&read)).await?.expect(200)?;
    let refused = cx.unique("refused");
    let r = cx
        .client
        .post(
            &path::<CreateStatus>(&[]),
            Some(&read),
            form(&[("status", format!("refused {refused}"))]),
        )
        .await?;
    expect_error(&r, 403, "posting with a `read` token")?;
    let marker = cx.unique("marker");
    cx.post_status(&user, &[("status", format!("marker {marker}").as_str())])
        .await?;
    let r = cx.client.get(&home, Some(&user.token)).await?;
    r.expect(200)?;
    ensure!(
        mentions(&r, &marker)?,
        "the home timeline lacks a status just posted; cannot judge the refused one"
    );
    ensure!(
        !mentions(&r, &refused)?,
        "the status refused with 403 was posted all the same"
    );
    Ok(())
}

async fn scopes_granular_write_statuses(cx: &Cx) -> CheckResult {
    let (user, login) = signed_in_user(cx, "oauth_granular").await?;
    let (app, _) = register_app(cx, "write:statuses", &[REDIRECT]).await?;
    let token = user_token(cx, &app, &login, "write:statuses").await?;
    let marker = cx.unique("granular");
    let r = cx
        .client
        .post(
            &path::<CreateStatus>(&[]),
            Some(&token),
            form(&[("status", format!("granular {marker}"))]),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        r.json()?["content"]
            .as_str()
            .is_some_and(|c| c.contains(&marker)),
        "the posted status lacks its text: {}",
        truncate(&r.text)
    );
    let home = path::<HomeTimeline>(&[]);
    let r = cx.client.get(&home, Some(&token)).await?;
    expect_error(
        &r,
        403,
        "reading the home timeline with a `write:statuses` token",
    )?;
    let r = cx.client.get(&home, Some(&user.token)).await?;
    r.expect(200)?;
    ensure!(
        mentions(&r, &marker)?,
        "the status posted with the `write:statuses` token is not in the author's home timeline"
    );
    Ok(())
}

async fn user_endpoints_with(
    cx: &Cx,
    token: Option<&str>,
) -> Result<Vec<(String, Response)>, Failure> {
    let mut out = Vec::new();
    for (label, p) in [
        ("GET verify_credentials", path::<VerifyCredentials>(&[])),
        ("GET home timeline", path::<HomeTimeline>(&[])),
    ] {
        out.push((label.to_string(), cx.client.get(&p, token).await?));
    }
    let status = cx.unique("unauthenticated");
    let r = cx
        .client
        .post(
            &path::<CreateStatus>(&[]),
            token,
            form(&[("status", status.as_str())]),
        )
        .await?;
    out.push(("POST status".to_string(), r));
    Ok(out)
}

async fn scopes_missing_token(cx: &Cx) -> CheckResult {
    for (label, r) in user_endpoints_with(cx, None).await? {
        expect_error(&r, 401, &format!("{label} without a token"))?;
    }
    Ok(())
}

async fn scopes_invalid_token(cx: &Cx) -> CheckResult {
    let bogus = cx.unique("no-such-token");
    for (label, r) in user_endpoints_with(cx, Some(&bogus)).await? {
        expect_error(&r, 401, &format!("{label} with an unknown token"))?;
    }
    Ok(())
}

async fn scopes_app_token_wrong_scope(cx: &Cx) -> CheckResult {
    let known = cx.user("oauth_known").await?;
    let lookup = |name: &str| format!("{}?acct={name}", path::<LookupAccount>(&[]));
    cx.client
        .get(&lookup(&known.username), None)
        .await?
        .expect(200)?;
    let (app, _) = register_app(cx, "read write", &[REDIRECT]).await?;
    let token = granted(
        &client_credentials(cx, &app, Some("read")).await?,
        "read",
        "client_credentials for `read`",
    )?;
    let username = cx.unique("scoped");
    let email = format!("{username}@example.com");
    let body = form(&[
        ("username", username.as_str()),
        ("email", email.as_str()),
        ("password", "a long enough password 1"),
        ("agreement", "true"),
        ("locale", "en"),
    ]);
    let r = cx
        .client
        .post(&path::<RegisterAccount>(&[]), Some(&token), body)
        .await?;
    expect_error(&r, 403, "registering an account with a `read` app token")?;
    ensure!(
        r.json()?.get("access_token").is_none(),
        "the refused registration handed out a token"
    );
    let r = cx.client.get(&lookup(&username), None).await?;
    ensure!(
        r.status == 404,
        "the account refused with 403 exists all the same: lookup answered {} {}",
        r.status,
        truncate(&r.text)
    );
    Ok(())
}

async fn scopes_app_token_on_user_endpoint(cx: &Cx) -> CheckResult {
    let (app, _) = register_app(cx, "read write", &[REDIRECT]).await?;
    let token = granted(
        &client_credentials(cx, &app, Some("read write")).await?,
        "read write",
        "client_credentials for `read write`",
    )?;
    for (label, r) in user_endpoints_with(cx, Some(&token)).await? {
        expect_error(&r, 422, &format!("{label} with an app token"))?;
        let e = r.error_text().unwrap_or_default();
        ensure!(
            e.contains("requires an authenticated user"),
            "{label} with an app token: error {e:?} (expected \"This method requires an authenticated user\")"
        );
    }
    Ok(())
}

// ─── revocation ──────────────────────────────────────────────────────────────────────────────

fn revoked_ok(r: &Response, what: &str) -> CheckResult {
    ensure!(
        r.status == 200,
        "{what}: expected 200 {{}}, got {} {}",
        r.status,
        truncate(&r.text)
    );
    ensure!(
        r.json()?.as_object().is_some_and(|o| o.is_empty()),
        "{what}: expected the body {{}}, got {}",
        truncate(&r.text)
    );
    Ok(())
}

async fn revoke_app_token(cx: &Cx) -> CheckResult {
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let token = granted(
        &client_credentials(cx, &app, Some("read")).await?,
        "read",
        "a first token",
    )?;
    let other = granted(
        &client_credentials(cx, &app, Some("read")).await?,
        "read",
        "a second token",
    )?;
    app_check(cx, &token).await?.expect(200)?;
    revoked_ok(
        &revoke(cx, &app.client_id, &app.client_secret, &token).await?,
        "revoking an app token",
    )?;
    expect_error(&app_check(cx, &token).await?, 401, "the revoked token")?;
    app_check(cx, &other)
        .await?
        .expect(200)
        .map_err(|e| Failure::Fail(format!("the app's other token stopped working too: {e}")))?;
    Ok(())
}

async fn revoke_user_token(cx: &Cx) -> CheckResult {
    let (user, login) = signed_in_user(cx, "oauth_revoke").await?;
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let token = user_token(cx, &app, &login, "read").await?;
    let me = path::<VerifyCredentials>(&[]);
    cx.client.get(&me, Some(&token)).await?.expect(200)?;
    revoked_ok(
        &revoke(cx, &app.client_id, &app.client_secret, &token).await?,
        "revoking a user token",
    )?;
    expect_error(
        &cx.client.get(&me, Some(&token)).await?,
        401,
        "the revoked user token",
    )?;
    cx.client
        .get(&me, Some(&user.token))
        .await?
        .expect(200)
        .map_err(|e| Failure::Fail(format!("the user's other token stopped working too: {e}")))?;
    Ok(())
}

async fn revoke_other_client(cx: &Cx) -> CheckResult {
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let (other, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let token = granted(
        &client_credentials(cx, &app, Some("read")).await?,
        "read",
        "a token",
    )?;
    let r = revoke(cx, &other.client_id, &other.client_secret, &token).await?;
    let still = app_check(cx, &token).await?;
    ensure!(
        still.status == 200,
        "another client revoked the token: it answers {} afterwards",
        still.status
    );
    expect_error(&r, 403, "revoking another client's token")
}

async fn revoke_wrong_secret(cx: &Cx) -> CheckResult {
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let token = granted(
        &client_credentials(cx, &app, Some("read")).await?,
        "read",
        "a token",
    )?;
    let r = revoke(
        cx,
        &app.client_id,
        &format!("{}x", app.client_secret),
        &token,
    )
    .await?;
    ensure!(
        matches!(r.status, 401 | 403),
        "a revocation with a wrong client_secret answered {} (expected 401 or 403): {}",
        r.status,
        truncate(&r.text)
    );
    ensure!(
        r.error_text().is_some(),
        "the refusal is not {{\"error\": ...}}: {}",
        truncate(&r.text)
    );
    let still = app_check(cx, &token).await?;
    ensure!(
        still.status == 200,
        "a revocation with a wrong client_secret revoked the token: it answers {} afterwards",
        still.status
    );
    Ok(())
}

async fn revoke_unknown_token(cx: &Cx) -> CheckResult {
    let (app, _) = register_app(cx, "read", &[REDIRECT]).await?;
    let token = granted(
        &client_credentials(cx, &app, Some("read")).await?,
        "read",
        "a token",
    )?;
    let r = revoke(
        cx,
        &app.client_id,
        &app.client_secret,
        &cx.unique("no-such-token"),
    )
    .await?;
    revoked_ok(&r, "revoking an unknown token")?;
    app_check(cx, &token).await?.expect(200)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server whose authorization page sends the user to a sign-in page of its own on
    /// another host name (its configured domain), with a session cookie scoped to that host,
    /// an e-mail field and a CSRF token, and back to a consent page: the shape of Mastodon's
    /// own pages. It answers over loopback, one connection at a time.
    async fn sign_in_server() -> (String, tokio::task::JoinHandle<()>) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let authorize = path::<AuthorizePage>(&[]);
        let task = tokio::spawn(async move {
            let mut query = String::new();
            loop {
                let Ok((mut sock, _)) = listener.accept().await else {
                    return;
                };
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                let head_end = loop {
                    let n = sock.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        break None;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                        break Some(i + 4);
                    }
                };
                let Some(head_end) = head_end else { continue };
                let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
                let header = |name: &str| {
                    head.lines()
                        .find_map(|l| {
                            let (k, v) = l.split_once(':')?;
                            k.trim()
                                .eq_ignore_ascii_case(name)
                                .then(|| v.trim().to_string())
                        })
                        .unwrap_or_default()
                };
                let len: usize = header("content-length").parse().unwrap_or(0);
                while buf.len() < head_end + len {
                    let n = sock.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        break;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                }
                let body = String::from_utf8_lossy(&buf[head_end..]).to_string();
                let cookie = header("cookie");
                let first = head.lines().next().unwrap_or_default().to_string();
                let mut parts = first.split(' ');
                let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
                let (path, q) = target.split_once('?').unwrap_or((target, ""));
                let session = cookie.contains("_session=abc");
                let signed_in = cookie.contains("signed_in=yes");
                let (status, headers, page): (&str, Vec<String>, String) = match (method, path) {
                    ("GET", p) if p == authorize && !signed_in => {
                        query = q.to_string();
                        (
                            "302 Found",
                            vec![
                                "Location: https://configured.example/auth/sign_in".into(),
                                "Set-Cookie: _session=abc; Domain=configured.example; Path=/; Secure; HttpOnly".into(),
                            ],
                            String::new(),
                        )
                    }
                    ("GET", "/auth/sign_in") if session => (
                        "200 OK",
                        vec![],
                        r#"<form method="post" action="/auth/sign_in"><input type="hidden" name="authenticity_token" value="T1">
                        <input type="email" name="user[email]"><input type="password" name="user[password]">
                        <button type="submit">Log in</button></form>"#
                            .into(),
                    ),
                    ("POST", "/auth/sign_in")
                        if session
                            && body.contains("authenticity_token=T1")
                            && body.contains("user%5Bemail%5D=ann%40example.com")
                            && body.contains("user%5Bpassword%5D=pw") =>
                    {
                        (
                            "302 Found",
                            vec![
                                format!("Location: {authorize}?{query}"),
                                "Set-Cookie: signed_in=yes; Secure".into(),
                            ],
                            String::new(),
                        )
                    }
                    ("GET", p) if p == authorize => (
                        "200 OK",
                        vec![],
                        format!(r#"<form method="post" action="{authorize}"><input type="hidden" name="authenticity_token" value="T2">
                        <button type="submit">Authorize</button></form><form method="post" action="{authorize}"><input type="hidden" name="_method" value="delete"><button type="submit">Deny</button></form>"#),
                    ),
                    ("POST", p) if p == authorize && signed_in && body.contains("authenticity_token=T2") => {
                        let state = form_urlencoded::parse(query.as_bytes())
                            .find(|(k, _)| k == "state")
                            .map(|(_, v)| v.into_owned())
                            .unwrap_or_default();
                        (
                            "302 Found",
                            vec![format!("Location: {REDIRECT}?code=C0DE&state={state}")],
                            String::new(),
                        )
                    }
                    _ => ("422 Unprocessable Entity", vec![], format!("refused {first}")),
                };
                let mut out = format!(
                    "HTTP/1.1 {status}\r\nContent-Type: text/html\r\nConnection: close\r\nContent-Length: {}\r\n",
                    page.len()
                );
                for h in headers {
                    out.push_str(&h);
                    out.push_str("\r\n");
                }
                out.push_str("\r\n");
                out.push_str(&page);
                let _ = sock.write_all(out.as_bytes()).await;
                let _ = sock.shutdown().await;
            }
        });
        (base, task)
    }

    #[tokio::test(flavor = "current_thread")]
    async fn the_driver_signs_in_on_a_separate_page_and_keeps_the_session() {
        let (base, server) = sign_in_server().await;
        let cx = Cx::new(
            crate::client::Client::new(&base, None).expect("client"),
            None,
            None,
        );
        let app = TestApp {
            client_id: "cid".into(),
            client_secret: "secret".into(),
            redirect_uri: REDIRECT.into(),
        };
        let login = Login {
            username: "ann".into(),
            email: Some("ann@example.com".into()),
            password: "pw".into(),
        };
        let code = obtain_code(&cx, &app, &login, "read", None).await;
        server.abort();
        assert_eq!(code, Ok("C0DE".to_string()));
    }

    #[test]
    fn s256_matches_rfc7636() {
        assert_eq!(
            s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn forms_are_read_and_filled() {
        let page = r#"<html><!-- <form method="post"><button value="approve"></button></form> -->
            <form method="POST" action="/x/authorize"><input type="hidden" name="client_id" value="a&amp;b">
            <label>Name <input name="username" required value=""></label><input type="password" name="password">
            <button type="submit" name="decision" value="approve">Authorize</button><button name="decision" value="deny">Deny</button></form>"#;
        let forms = html::forms(page);
        assert_eq!(forms.len(), 1);
        let (f, b) = html::choose(&forms, Decision::Approve.words()).expect("approve button");
        assert_eq!(b.value, "approve");
        let login = Login {
            username: "ann".into(),
            email: None,
            password: "pw".into(),
        };
        let pairs = html::fill(f, b, &login).expect("fillable");
        let want: Vec<(String, String)> = [
            ("client_id", "a&b"),
            ("username", "ann"),
            ("password", "pw"),
            ("decision", "approve"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(pairs, want);
        assert_eq!(resolve("/a/b?c=d", &f.action), "/x/authorize");
        assert_eq!(resolve("/a/b?c=d", "e"), "/a/e");
        let (_, deny) = html::choose(&forms, Decision::Deny.words()).expect("deny button");
        assert_eq!(deny.label, "Deny");
        assert!(html::choose_account(&forms, "ann").is_none());
    }

    #[test]
    fn an_account_chooser_is_read_and_filled() {
        let page = r#"<form method="post" action="/x/choose">
            <input type="hidden" name="client_id" value="c"><input type="hidden" name="scope" value="read">
            <ul><li><button type="submit" name="username" value="bob">Bob (@bob)</button></li>
            <li><button type="submit" name="username" value="Ann">Ann (@Ann)</button></li></ul></form>"#;
        let forms = html::forms(page);
        assert!(html::choose(&forms, Decision::Approve.words()).is_none());
        let (f, b) = html::choose_account(&forms, "ann").expect("ann's button");
        assert_eq!(b.value, "Ann");
        let want: Vec<(String, String)> =
            [("client_id", "c"), ("scope", "read"), ("username", "Ann")]
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
        assert_eq!(html::fill_choice(f, b), want);
        assert!(html::choose_account(&forms, "carol").is_none());
    }
}
