//! The HTTP conformance suite: checks with stable ids (`statuses/create/plain-text`) that any
//! Mastodon-compatible server can be held to, by URL, from `cargo test` or the
//! `fedblog-conformance` command.
//!
//! A check makes its own data through the API. What the API cannot do (a confirmed account with
//! a token) comes from an [`AccountFactory`]; a check whose set-up is missing ends *not run*,
//! with the reason, never silently passes.

pub mod checks;
pub mod report;
pub mod seed;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::Value;

use crate::client::{Body, Client, form};
use fedblog_core::api::{self, Endpoint};

pub use report::{Baseline, CheckReport, Comparison, Outcome, Report};

/// A boxed future.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Why a check did not pass.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The server broke the rule.
    Fail(String),
    /// The check could not be set up (e.g. no account factory was given).
    NotRun(String),
}

impl From<String> for Failure {
    fn from(s: String) -> Self {
        Failure::Fail(s)
    }
}

impl From<&str> for Failure {
    fn from(s: &str) -> Self {
        Failure::Fail(s.to_string())
    }
}

/// What a check returns.
pub type CheckResult = Result<(), Failure>;

/// Fails the check with a formatted message unless the condition holds.
#[macro_export]
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err($crate::conformance::Failure::Fail(format!($($msg)+)));
        }
    };
}

/// One conformance check.
#[derive(Clone)]
pub struct Check {
    /// Stable id, `area/topic/case`.
    pub id: &'static str,
    /// The rule it holds the server to, in one sentence.
    pub rule: &'static str,
    /// Runs it.
    pub run: for<'a> fn(&'a Cx) -> BoxFuture<'a, CheckResult>,
}

impl Check {
    /// The area: the id up to the first `/`.
    pub fn area(&self) -> &'static str {
        self.id.split('/').next().unwrap_or(self.id)
    }
}

/// Declares a [`Check`] from an async function `fn(&Cx) -> CheckResult`.
#[macro_export]
macro_rules! check {
    ($id:literal, $rule:literal, $f:path) => {{
        fn run(
            cx: &$crate::conformance::Cx,
        ) -> $crate::conformance::BoxFuture<'_, $crate::conformance::CheckResult> {
            Box::pin($f(cx))
        }
        $crate::conformance::Check {
            id: $id,
            rule: $rule,
            run,
        }
    }};
}

/// Makes confirmed, approved accounts and returns a user token (scopes `read write follow push`).
pub trait AccountFactory: Send + Sync {
    /// Creates an account named `username` and returns its bearer token.
    fn create<'a>(&'a self, username: &'a str) -> BoxFuture<'a, Result<String, String>>;
}

/// An account factory that runs a shell command; `{username}` in it is replaced, and the last
/// non-empty line of its standard output is the token.
pub struct CommandFactory {
    /// The command template.
    pub template: String,
}

impl AccountFactory for CommandFactory {
    fn create<'a>(&'a self, username: &'a str) -> BoxFuture<'a, Result<String, String>> {
        Box::pin(async move {
            let cmd = self.template.replace("{username}", username);
            let out = tokio::process::Command::new("sh")
                .arg("-c")
                .arg(&cmd)
                .output()
                .await
                .map_err(|e| format!("account factory could not start: {e}"))?;
            if !out.status.success() {
                return Err(format!(
                    "account factory failed ({}): {}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
            let stdout = String::from_utf8_lossy(&out.stdout);
            stdout
                .lines()
                .rev()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .map(str::to_string)
                .ok_or_else(|| "account factory printed no token".to_string())
        })
    }
}

/// An account factory from a closure (for in-process runs).
pub struct FnFactory<F>(pub F);

impl<F> AccountFactory for FnFactory<F>
where
    F: for<'a> Fn(&'a str) -> BoxFuture<'a, Result<String, String>> + Send + Sync,
{
    fn create<'a>(&'a self, username: &'a str) -> BoxFuture<'a, Result<String, String>> {
        (self.0)(username)
    }
}

/// A signed-in test user.
#[derive(Clone, Debug)]
pub struct User {
    /// Username.
    pub username: String,
    /// Account id.
    pub id: String,
    /// Bearer token.
    pub token: String,
}

/// A registered test application.
#[derive(Clone, Debug)]
pub struct TestApp {
    /// Client id.
    pub client_id: String,
    /// Client secret.
    pub client_secret: String,
    /// Its redirect URI.
    pub redirect_uri: String,
}

/// What checks get: the client and the means to set up data.
pub struct Cx {
    /// The validating client.
    pub client: Client,
    /// Makes confirmed accounts.
    pub factory: Option<Arc<dyn AccountFactory>>,
    /// A user token to use when no factory is given.
    pub token: Option<String>,
    /// The password of accounts the factory makes, so sign-in flows can be driven.
    pub factory_password: Option<String>,
    /// A token of an administrator (scopes `admin:read admin:write` at least), for the checks
    /// whose set-up needs moderation (suspending an account, say).
    pub admin_token: Option<String>,
    tag: String,
    counter: AtomicU32,
}

/// The path of an endpoint declared in fedblog-core, with `:name` parameters filled in.
pub fn path<E: Endpoint>(params: &[(&str, &str)]) -> String {
    api::fill_path(E::PATH, params)
}

impl Cx {
    /// A context over a client.
    pub fn new(
        client: Client,
        factory: Option<Arc<dyn AccountFactory>>,
        token: Option<String>,
    ) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos() ^ d.as_secs() as u32)
            .unwrap_or(7);
        let tag: String = radix36(nanos as u64 ^ (std::process::id() as u64) << 7)
            .chars()
            .take(5)
            .collect();
        Cx {
            client,
            factory,
            token,
            factory_password: None,
            admin_token: None,
            tag,
            counter: AtomicU32::new(0),
        }
    }

    /// A name unique to this run, at most 30 characters, e.g. for usernames.
    pub fn unique(&self, prefix: &str) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let suffix = format!("{}{}", self.tag, n);
        let keep = 30usize.saturating_sub(suffix.len() + 1).min(prefix.len());
        format!("{}_{}", &prefix[..keep], suffix)
    }

    /// A new confirmed user (needs an account factory).
    pub async fn new_user(&self, prefix: &str) -> Result<User, Failure> {
        let Some(f) = &self.factory else {
            return Err(Failure::NotRun(
                "needs fresh accounts: pass --account-factory".into(),
            ));
        };
        let username = self.unique(prefix);
        let token = f.create(&username).await.map_err(Failure::NotRun)?;
        self.user_of(&token).await
    }

    /// The administrator's token, or the reason the check cannot run without one.
    pub fn admin(&self) -> Result<&str, Failure> {
        self.admin_token.as_deref().ok_or_else(|| {
            Failure::NotRun(
                "needs an administrator's token (admin:read admin:write): pass --admin-token"
                    .into(),
            )
        })
    }

    /// A user: a new one from the factory, else the one of `--token`.
    pub async fn user(&self, prefix: &str) -> Result<User, Failure> {
        match (&self.factory, &self.token) {
            (None, Some(t)) => self.user_of(t).await,
            _ => self.new_user(prefix).await,
        }
    }

    async fn user_of(&self, token: &str) -> Result<User, Failure> {
        let r = self
            .client
            .get(
                &path::<api::accounts::verify_credentials::VerifyCredentials>(&[]),
                Some(token),
            )
            .await?;
        r.expect(200)?;
        let v = r.json()?;
        Ok(User {
            username: str_of(v, "username")?,
            id: str_of(v, "id")?,
            token: token.to_string(),
        })
    }

    /// Registers an application with these scopes.
    pub async fn new_app(&self, scopes: &str) -> Result<TestApp, Failure> {
        let redirect = "https://client.example/callback";
        let r = self
            .client
            .post(
                &path::<api::apps::create_app::CreateApp>(&[]),
                None,
                form(&[
                    ("client_name", "fedblog conformance"),
                    ("redirect_uris", redirect),
                    ("scopes", scopes),
                ]),
            )
            .await?;
        r.expect(200)?;
        let v = r.json()?;
        Ok(TestApp {
            client_id: str_of(v, "client_id")?,
            client_secret: str_of(v, "client_secret")?,
            redirect_uri: redirect.into(),
        })
    }

    /// An app token (client_credentials) for an app.
    pub async fn app_token(&self, app: &TestApp, scopes: &str) -> Result<String, Failure> {
        let r = self
            .client
            .post(
                &path::<api::oauth::create_token::CreateToken>(&[]),
                None,
                form(&[
                    ("grant_type", "client_credentials"),
                    ("client_id", app.client_id.as_str()),
                    ("client_secret", app.client_secret.as_str()),
                    ("scope", scopes),
                ]),
            )
            .await?;
        r.expect(200)?;
        str_of(r.json()?, "access_token")
    }

    /// Posts a status and returns its JSON.
    pub async fn post_status(&self, user: &User, pairs: &[(&str, &str)]) -> Result<Value, Failure> {
        let r = self
            .client
            .post(
                &path::<api::statuses::create_status::CreateStatus>(&[]),
                Some(&user.token),
                form(pairs),
            )
            .await?;
        r.expect(200)?;
        Ok(r.json()?.clone())
    }

    /// Posts a status as `user` with a JSON body, expecting 200, and answers it.
    pub async fn post_status_json(&self, user: &User, body: Value) -> Result<Value, Failure> {
        let r = self
            .send(
                "POST",
                &path::<api::statuses::create_status::CreateStatus>(&[]),
                Some(&user.token),
                Body::Json(body),
            )
            .await?;
        r.expect(200)?;
        Ok(r.json()?.clone())
    }

    /// The relationship of `who` to `other` (`GET /api/v1/accounts/relationships`).
    pub async fn relationship(&self, who: &User, other: &User) -> Result<Value, Failure> {
        let url = format!(
            "{}?id[]={}",
            path::<api::accounts::get_relationships::GetRelationships>(&[]),
            other.id
        );
        let r = self.client.get(&url, Some(&who.token)).await?;
        r.expect(200)?;
        r.json()?
            .as_array()
            .and_then(|a| a.first())
            .cloned()
            .ok_or_else(|| Failure::Fail(format!("no relationship for {}: {}", other.id, r.text)))
    }

    /// Sends a request with a body.
    pub async fn send(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Body,
    ) -> Result<crate::client::Response, Failure> {
        Ok(self.client.send(method, path, token, body, &[]).await?)
    }
}

/// Fails unless the response has this status and a Mastodon error body (`{"error": "..."}`).
/// `what` says what was asked, for the failure message.
pub fn expect_error(r: &crate::client::Response, status: u16, what: &str) -> CheckResult {
    if r.status != status {
        return Err(Failure::Fail(format!(
            "{what}: expected HTTP {status}, got {} {}",
            r.status,
            crate::client::truncate(&r.text)
        )));
    }
    if r.error_text().is_none_or(str::is_empty) {
        return Err(Failure::Fail(format!(
            "{what}: the {status} body is not {{\"error\": ...}}: {}",
            crate::client::truncate(&r.text)
        )));
    }
    Ok(())
}

/// The `id`s of a JSON array of entities, in order.
pub fn ids_of(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// A string field of a JSON object.
pub fn str_of(v: &Value, key: &str) -> Result<String, Failure> {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| Failure::Fail(format!("missing string field {key:?} in {v}")))
}

fn radix36(mut n: u64) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    while n > 0 {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
    }
    if out.is_empty() {
        out.push(b'0');
    }
    String::from_utf8(out).unwrap_or_default()
}

/// Runs checks one after another (optionally one area), calling `progress` after each.
pub async fn run(
    cx: &Cx,
    checks: &[Check],
    only: Option<&str>,
    mut progress: impl FnMut(&CheckReport),
) -> Report {
    let mut results = Vec::new();
    for c in checks.iter().filter(|c| only.is_none_or(|a| c.area() == a)) {
        let outcome = match (c.run)(cx).await {
            Ok(()) => Outcome::Pass,
            Err(Failure::Fail(d)) => Outcome::Fail(d),
            Err(Failure::NotRun(d)) => Outcome::NotRun(d),
        };
        let r = CheckReport {
            id: c.id.to_string(),
            area: c.area().to_string(),
            rule: c.rule.to_string(),
            outcome,
        };
        progress(&r);
        results.push(r);
    }
    Report { results }
}
