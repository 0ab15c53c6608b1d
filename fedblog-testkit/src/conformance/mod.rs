//! The HTTP conformance suite: checks with stable ids (`statuses/create/plain-text`) that any
//! Mastodon-compatible server can be held to, by URL, from `cargo test` or the
//! `fedblog-conformance` command.
//!
//! A check makes its own data through the API. What the API cannot do (a confirmed account with
//! a token) comes from an [`AccountFactory`]; a check whose set-up is missing ends *not run*,
//! with the reason, never silently passes.
//!
//! Set-up is a means, not a verdict: a step that only prepares a check (an account, an app, a
//! post, a follow) reads only the fields it needs, and when it cannot proceed the check ends
//! *not run* with `set-up failed: ...` ([`SetUp::setup`]), so each failure is the behaviour the
//! check is about. Whether answers match the schema is judged once per endpoint, in the
//! `schema` area ([`checks::schema`]), from every answer the run received. A failure or a
//! not-run carries the last request of its check ([`CheckReport::request`]), with a `curl`
//! command that repeats it.

pub mod checks;
pub mod report;
pub mod seed;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::Value;

use crate::client::{Body, Client, form};
use crate::recorder::Recorder;
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

/// The prefix of every not-run whose set-up step failed.
pub const SET_UP_FAILED: &str = "set-up failed";

/// Marks a step as set-up: its failure makes the check *not run* (`set-up failed: <what>:
/// <why>`) instead of failing it, since the check is not about that step.
pub trait SetUp<T> {
    /// Marks this result as the outcome of set-up step `what` (e.g. `posting a status`).
    fn setup(self, what: &str) -> Result<T, Failure>;
}

impl<T, E: Into<Failure>> SetUp<T> for Result<T, E> {
    fn setup(self, what: &str) -> Result<T, Failure> {
        self.map_err(|e| match e.into() {
            Failure::Fail(why) if why.starts_with(SET_UP_FAILED) => Failure::NotRun(why),
            Failure::Fail(why) => Failure::NotRun(format!("{SET_UP_FAILED}: {what}: {why}")),
            n @ Failure::NotRun(_) => n,
        })
    }
}

/// An optional feature a server may declare it does not offer (`--lacks`); the checks of a
/// feature declared absent end *not run: declared absent*, never silently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Feature {
    /// The administration API (`/api/v1/admin/...`), and moderation as set-up (suspending).
    Admin,
    /// ActivityPub federation (remote accounts and domains).
    Federation,
    /// Web push subscriptions (`/api/v1/push/subscription`).
    Push,
    /// The end-to-end encryption helpers of Mastodon 3.x (`/api/v1/crypto/...`), which later
    /// Mastodon versions dropped.
    Crypto,
    /// The streaming API.
    Streaming,
    /// A translation backend (`POST /api/v1/statuses/:id/translate`).
    Translation,
}

impl Feature {
    /// Every feature, in order.
    pub const ALL: [Feature; 6] = [
        Feature::Admin,
        Feature::Federation,
        Feature::Push,
        Feature::Crypto,
        Feature::Streaming,
        Feature::Translation,
    ];

    /// Its name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Feature::Admin => "admin",
            Feature::Federation => "federation",
            Feature::Push => "push",
            Feature::Crypto => "crypto",
            Feature::Streaming => "streaming",
            Feature::Translation => "translation",
        }
    }

    /// The feature of a name, if it is one.
    pub fn parse(name: &str) -> Option<Feature> {
        Feature::ALL.into_iter().find(|f| f.name() == name.trim())
    }

    /// The feature a check is about, if it is about an optional one (its area names it).
    pub fn of_check(id: &str) -> Option<Feature> {
        let area = id.split('/').next().unwrap_or(id);
        Feature::ALL.into_iter().find(|f| f.name() == area)
    }

    /// The not-run reason of a check of this feature when it is declared absent.
    pub fn absent(self) -> Failure {
        Failure::NotRun(format!("declared absent: {}", self.name()))
    }
}

impl std::fmt::Display for Feature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

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
    /// The optional features the server declares it does not offer.
    pub lacks: std::collections::BTreeSet<Feature>,
    /// Where the `federation` checks' ActivityPub peer listens (`127.0.0.1:0` by default: a
    /// free loopback port). The server must be able to reach it (a fedblog server needs
    /// `FEDBLOG_ALLOW_PRIVATE_ADDRESSES=true` for a loopback peer).
    pub peer_listen: String,
    peer: tokio::sync::OnceCell<Result<Arc<crate::peer::Peer>, String>>,
    recorder: Arc<Recorder>,
    current: std::sync::Mutex<&'static str>,
    tag: String,
    counter: AtomicU32,
}

/// The path of an endpoint declared in fedblog-core, with `:name` parameters filled in.
pub fn path<E: Endpoint>(params: &[(&str, &str)]) -> String {
    api::fill_path(E::PATH, params)
}

impl Cx {
    /// A context over a client. The client records into the context's [`Recorder`] from then
    /// on (its own recorder, if it has one).
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
        let recorder = client.recorder().cloned().unwrap_or_default();
        if let Some(t) = &token {
            recorder.name_token(t, "the --token user");
        }
        Cx {
            client: client.recording(recorder.clone()),
            factory,
            token,
            factory_password: None,
            admin_token: None,
            lacks: Default::default(),
            peer_listen: "127.0.0.1:0".into(),
            peer: tokio::sync::OnceCell::new(),
            recorder,
            current: std::sync::Mutex::new(""),
            tag,
            counter: AtomicU32::new(0),
        }
    }

    /// Sets the administrator's token (see [`Cx::admin_token`]), named so in reports.
    pub fn set_admin_token(&mut self, token: Option<String>) {
        if let Some(t) = &token {
            self.recorder
                .name_token(t, "the administrator (--admin-token)");
        }
        self.admin_token = token;
    }

    /// What the run saw so far.
    pub fn recorder(&self) -> &Arc<Recorder> {
        &self.recorder
    }

    /// The id of the check running now.
    pub fn current_check(&self) -> &'static str {
        self.current.lock().map(|g| *g).unwrap_or("")
    }

    /// Whether the server declared this feature absent.
    pub fn lacks(&self, feature: Feature) -> bool {
        self.lacks.contains(&feature)
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
        let token = f
            .create(&username)
            .await
            .map_err(|why| Failure::NotRun(format!("{SET_UP_FAILED}: {why}")))?;
        self.recorder.name_token(&token, &format!("@{username}"));
        self.user_of(&token).await
    }

    /// The administrator's token, or the reason the check cannot run without one.
    pub fn admin(&self) -> Result<&str, Failure> {
        if self.lacks(Feature::Admin) {
            return Err(Feature::Admin.absent());
        }
        self.admin_token.as_deref().ok_or_else(|| {
            Failure::NotRun(
                "needs an administrator's token (admin:read admin:write): pass --admin-token"
                    .into(),
            )
        })
    }

    /// The ActivityPub peer the `federation` checks play, started on first use.
    pub async fn peer(&self) -> Result<Arc<crate::peer::Peer>, Failure> {
        if self.lacks(Feature::Federation) {
            return Err(Feature::Federation.absent());
        }
        self.peer
            .get_or_init(|| crate::peer::Peer::start(&self.peer_listen))
            .await
            .clone()
            .map_err(|why| {
                Failure::NotRun(format!(
                    "{SET_UP_FAILED}: starting the ActivityPub peer: {why}"
                ))
            })
    }

    /// A user: a new one from the factory, else the one of `--token`.
    pub async fn user(&self, prefix: &str) -> Result<User, Failure> {
        match (&self.factory, &self.token) {
            (None, Some(t)) => self.user_of(t).await,
            _ => self.new_user(prefix).await,
        }
    }

    /// The account of a token (its `id` and `username` only), as set-up.
    async fn user_of(&self, token: &str) -> Result<User, Failure> {
        let user = async {
            let r = self
                .client
                .get(
                    &path::<api::accounts::verify_credentials::VerifyCredentials>(&[]),
                    Some(token),
                )
                .await?;
            r.expect(200)?;
            let v = r.json()?;
            Ok::<_, Failure>(User {
                username: str_of(v, "username")?,
                id: str_of(v, "id")?,
                token: token.to_string(),
            })
        }
        .await
        .setup("reading the new account's id (GET /api/v1/accounts/verify_credentials)")?;
        self.recorder
            .name_token(token, &format!("@{}", user.username));
        Ok(user)
    }

    /// Registers an application with these scopes (set-up).
    pub async fn new_app(&self, scopes: &str) -> Result<TestApp, Failure> {
        self.register_app(scopes)
            .await
            .setup("registering an app (POST /api/v1/apps)")
    }

    async fn register_app(&self, scopes: &str) -> Result<TestApp, Failure> {
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

    /// An app token (client_credentials) for an app (set-up).
    pub async fn app_token(&self, app: &TestApp, scopes: &str) -> Result<String, Failure> {
        let token = self
            .client_credentials(app, scopes)
            .await
            .setup("getting an app token (POST /oauth/token, client_credentials)")?;
        self.recorder
            .name_token(&token, &format!("an app token ({scopes})"));
        Ok(token)
    }

    async fn client_credentials(&self, app: &TestApp, scopes: &str) -> Result<String, Failure> {
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

    /// Posts a status and returns its JSON, as set-up: a check about posting itself sends the
    /// request and judges the answer on its own.
    pub async fn post_status(&self, user: &User, pairs: &[(&str, &str)]) -> Result<Value, Failure> {
        self.create_status(user, pairs)
            .await
            .setup("posting a status (POST /api/v1/statuses)")
    }

    /// Posts a status and returns its JSON, failing the check when that does not answer 200.
    pub async fn create_status(
        &self,
        user: &User,
        pairs: &[(&str, &str)],
    ) -> Result<Value, Failure> {
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

    /// Posts a status as `user` with a JSON body, expecting 200, and answers it (set-up).
    pub async fn post_status_json(&self, user: &User, body: Value) -> Result<Value, Failure> {
        self.create_status_json(user, body)
            .await
            .setup("posting a status with a JSON body (POST /api/v1/statuses)")
    }

    /// Posts a status with a JSON body, failing the check unless it answers 200.
    pub async fn create_status_json(&self, user: &User, body: Value) -> Result<Value, Failure> {
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

/// Runs checks one after another (optionally one area), calling `progress` after each. A
/// check of a feature the context lacks ends not run without being started.
pub async fn run(
    cx: &Cx,
    checks: &[Check],
    only: Option<&str>,
    mut progress: impl FnMut(&CheckReport),
) -> Report {
    let mut results = Vec::new();
    for c in checks.iter().filter(|c| only.is_none_or(|a| c.area() == a)) {
        cx.recorder.begin_check();
        if let Ok(mut current) = cx.current.lock() {
            *current = c.id;
        }
        let result = match Feature::of_check(c.id).filter(|f| cx.lacks(*f)) {
            Some(f) => Err(f.absent()),
            None => (c.run)(cx).await,
        };
        let outcome = match result {
            Ok(()) => Outcome::Pass,
            Err(Failure::Fail(d)) => Outcome::Fail(d),
            Err(Failure::NotRun(d)) => Outcome::NotRun(d),
        };
        let request = match outcome {
            Outcome::Pass => None,
            _ => cx.recorder.last(),
        };
        let r = CheckReport {
            id: c.id.to_string(),
            area: c.area().to_string(),
            rule: c.rule.to_string(),
            outcome,
            request,
        };
        progress(&r);
        results.push(r);
    }
    Report { results }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_up_step_that_fails_makes_the_check_not_run() {
        let failed: Result<(), Failure> = Err(Failure::Fail("expected HTTP 200, got 404".into()));
        assert_eq!(
            failed.setup("posting a status"),
            Err(Failure::NotRun(
                "set-up failed: posting a status: expected HTTP 200, got 404".into()
            ))
        );
        let from_string: Result<(), String> = Err("no id".into());
        assert_eq!(
            from_string.setup("reading the id"),
            Err(Failure::NotRun(
                "set-up failed: reading the id: no id".into()
            ))
        );
        // Nested set-up keeps the innermost step's name, and a not-run stays as it was.
        let inner: Result<(), Failure> = Err(Failure::Fail("set-up failed: blocking: 500".into()));
        assert_eq!(
            inner.setup("outer"),
            Err(Failure::NotRun("set-up failed: blocking: 500".into()))
        );
        let not_run: Result<(), Failure> = Err(Failure::NotRun("declared absent: push".into()));
        assert_eq!(
            not_run.setup("x"),
            Err(Failure::NotRun("declared absent: push".into()))
        );
        assert_eq!(Ok::<u8, Failure>(7).setup("x"), Ok(7));
    }

    #[test]
    fn features_are_named_and_found_by_area() {
        for f in Feature::ALL {
            assert_eq!(Feature::parse(f.name()), Some(f));
        }
        assert_eq!(Feature::parse("telepathy"), None);
        assert_eq!(
            Feature::of_check("push/subscription/missing-404"),
            Some(Feature::Push)
        );
        assert_eq!(
            Feature::of_check("admin/domain-allows/available"),
            Some(Feature::Admin)
        );
        assert_eq!(Feature::of_check("statuses/create/plain-text"), None);
        assert_eq!(
            Feature::Streaming.absent(),
            Failure::NotRun("declared absent: streaming".into())
        );
    }

    async fn passes(_: &Cx) -> CheckResult {
        Ok(())
    }

    async fn needs_admin(cx: &Cx) -> CheckResult {
        cx.admin()?;
        Ok(())
    }

    #[tokio::test(flavor = "current_thread")]
    async fn checks_of_a_feature_declared_absent_end_not_run_without_running() {
        // No server listens here: a check that sent a request would fail, not pass.
        let client = Client::new("http://127.0.0.1:9", None).expect("client");
        let mut cx = Cx::new(client, None, None);
        cx.admin_token = Some("t".into());
        cx.lacks = [Feature::Push, Feature::Admin].into_iter().collect();
        let checks = vec![
            crate::check!("push/subscription/x", "a push check", passes),
            crate::check!("accounts/suspended/x", "needs moderation", needs_admin),
            crate::check!("statuses/x/y", "an ordinary check", passes),
        ];
        let report = run(&cx, &checks, None, |_| {}).await;
        let outcomes: Vec<(&str, &Outcome)> = report
            .results
            .iter()
            .map(|r| (r.id.as_str(), &r.outcome))
            .collect();
        assert_eq!(
            outcomes,
            vec![
                (
                    "push/subscription/x",
                    &Outcome::NotRun("declared absent: push".into())
                ),
                (
                    "accounts/suspended/x",
                    &Outcome::NotRun("declared absent: admin".into())
                ),
                ("statuses/x/y", &Outcome::Pass),
            ]
        );
    }
}
