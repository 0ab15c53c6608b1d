//! Test harness: a real fedblog-server on a free port over a fresh SQLite database, with a
//! schema-validating client and an account factory.
#![allow(dead_code)]

pub mod cli;

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use fedblog_core::api::Endpoint;
use fedblog_core::api::apps::create_app::CreateApp;
use fedblog_core::api::oauth::create_token::CreateToken;
use fedblog_core::services::accounts::NewAccount;
use fedblog_core::store::Role;
use fedblog_core::{App, Store};
use fedblog_server::http::HttpOptions;
use fedblog_server::serve::{Running, spawn_with};
use fedblog_server::store::{ConnectSettings, connect};
use fedblog_server::workers::{WorkerSettings, Workers};
use fedblog_testkit::client::{Client, form};
use fedblog_testkit::conformance::{AccountFactory, BoxFuture, Cx};
use fedblog_testkit::openapi::OpenApi;

/// The rate limits of test servers: posting and following keep Mastodon's limits (their checks
/// exercise them); everything counted per client address or per account besides is raised,
/// since a whole suite runs from one address with a few accounts.
pub const TEST_RATE_LIMITS: &str = "*=100000/1m,statuses=300/3h,follows=400/1d";

/// The password of every account the harness makes (e-mail: `<username>@example.com`).
pub const PASSWORD: &str = "correct horse battery";

/// The OpenAPI schema, loaded once per test binary.
pub fn openapi() -> Arc<OpenApi> {
    static API: OnceLock<Arc<OpenApi>> = OnceLock::new();
    API.get_or_init(|| {
        Arc::new(
            OpenApi::discover(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
                .expect("the Mastodon OpenAPI schema (../shared/reference) must be present"),
        )
    })
    .clone()
}

/// A running server and what tests need around it.
pub struct TestServer {
    pub running: Running,
    /// Its background job workers.
    workers: Workers,
    pub app: Arc<App>,
    pub client: Client,
    dir: PathBuf,
    /// (admin URL, database name) of a PostgreSQL database to drop at the end.
    pg: Option<(String, String)>,
}

fn temp_dir() -> PathBuf {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "fedblog-test-{}-{}-{}",
        std::process::id(),
        n,
        chrono::Utc::now().timestamp_micros()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

impl TestServer {
    /// The PostgreSQL server tests may use (`FEDBLOG_TEST_DATABASE_URL`), or `None` after saying
    /// that the test did not run.
    pub fn postgres_or_say(test: &str) -> Option<String> {
        match std::env::var("FEDBLOG_TEST_DATABASE_URL") {
            Ok(url) if !url.is_empty() => Some(url),
            // In CI a PostgreSQL test that does not run is a failure, never a silent pass.
            _ if std::env::var_os("CI").is_some() => panic!(
                "{test} must run on PostgreSQL in CI: set FEDBLOG_TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)"
            ),
            _ => {
                println!(
                    "{test} did not run on PostgreSQL: set FEDBLOG_TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)"
                );
                None
            }
        }
    }

    /// Starts a server over a new SQLite database.
    pub async fn start() -> TestServer {
        Self::start_with(|_| {}).await
    }

    /// Starts a server, letting the caller adjust the instance configuration.
    pub async fn start_with(adjust: impl FnOnce(&mut fedblog_core::InstanceConfig)) -> TestServer {
        Self::start_full(adjust, None).await
    }

    /// Starts a server with an adjusted configuration and, optionally, a mailer of the test's own.
    pub async fn start_full(
        adjust: impl FnOnce(&mut fedblog_core::InstanceConfig),
        mailer: Option<Arc<dyn fedblog_core::app::Mailer>>,
    ) -> TestServer {
        let dir = temp_dir();
        let url = format!("sqlite://{}?mode=rwc", dir.join("test.sqlite").display());
        Self::start_on(
            &url,
            dir,
            None,
            adjust,
            mailer,
            HttpOptions::default(),
            None,
        )
        .await
    }

    /// Starts a server with an adjusted configuration and HTTP options of the test's own.
    pub async fn start_http(
        adjust: impl FnOnce(&mut fedblog_core::InstanceConfig),
        http: HttpOptions,
    ) -> TestServer {
        let dir = temp_dir();
        let url = format!("sqlite://{}?mode=rwc", dir.join("test.sqlite").display());
        Self::start_on(&url, dir, None, adjust, None, http, None).await
    }

    /// Starts a server over a new PostgreSQL database on the server of `admin_url`; `stop` drops it.
    pub async fn start_postgres(admin_url: &str) -> TestServer {
        let name = format!(
            "fedblog_t_{}_{}",
            std::process::id(),
            chrono::Utc::now().timestamp_micros() % 1_000_000_000
        );
        let url = fedblog_server::store::admin::create_database(admin_url, &name)
            .await
            .expect("create database");
        Self::start_on(
            &url,
            temp_dir(),
            Some((admin_url.to_string(), name)),
            |_| {},
            None,
            HttpOptions::default(),
            None,
        )
        .await
    }

    /// Starts a server that federates through the reference server's outbound client, on
    /// SQLite, or on a new PostgreSQL database of `pg_admin`'s server; `allow_private` is
    /// `FEDBLOG_ALLOW_PRIVATE_ADDRESSES` (on, for servers on loopback to reach each other).
    pub async fn start_federating(pg_admin: Option<&str>, allow_private: bool) -> TestServer {
        let dir = temp_dir();
        let (url, pg) = match pg_admin {
            Some(admin_url) => {
                let name = format!(
                    "fedblog_t_{}_{}",
                    std::process::id(),
                    chrono::Utc::now().timestamp_micros() % 1_000_000_000
                );
                let url = fedblog_server::store::admin::create_database(admin_url, &name)
                    .await
                    .expect("create database");
                (url, Some((admin_url.to_string(), name)))
            }
            None => (
                format!("sqlite://{}?mode=rwc", dir.join("test.sqlite").display()),
                None,
            ),
        };
        Self::start_on(
            &url,
            dir,
            pg,
            |_| {},
            None,
            HttpOptions::default(),
            Some(allow_private),
        )
        .await
    }

    async fn start_on(
        url: &str,
        dir: PathBuf,
        pg: Option<(String, String)>,
        adjust: impl FnOnce(&mut fedblog_core::InstanceConfig),
        mailer: Option<Arc<dyn fedblog_core::app::Mailer>>,
        http: HttpOptions,
        federate: Option<bool>,
    ) -> TestServer {
        let store = connect(url, &ConnectSettings::default())
            .await
            .expect("connect");
        store.migrate().await.expect("migrate");
        // As `serve` does: SQLite behind the record cache, PostgreSQL as it is.
        let store: Arc<dyn Store> = store.into_shared();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let mut config = fedblog_core::InstanceConfig::new(&format!("127.0.0.1:{port}"));
        config.password_hash_memory_kib = 64;
        config.rate_limits =
            fedblog_core::rate_limit::RateLimits::parse(TEST_RATE_LIMITS).expect("test limits");
        adjust(&mut config);
        let mut app = App::new(store, config)
            .with_media_processor(Arc::new(fedblog_server::media::ImageProcessor));
        if let Some(m) = mailer {
            app.mailer = m;
        }
        if let Some(allow_private) = federate {
            let mut options =
                fedblog_server::outbound::OutboundOptions::new(&app.config.base_url());
            options.allow_private = allow_private;
            options.timeout = std::time::Duration::from_secs(5);
            let client = fedblog_server::outbound::OutboundClient::new(options).expect("client");
            app = app.with_transport(Arc::new(client));
        }
        let app = Arc::new(app);
        let running = spawn_with(app.clone(), listener, http)
            .await
            .expect("spawn");
        // Background jobs (media processing) run as in `serve`, polling often to keep tests quick.
        let workers = Workers::start(
            app.clone(),
            WorkerSettings {
                count: 1,
                poll: std::time::Duration::from_millis(50),
                ..Default::default()
            },
        );
        let client = Client::new(&running.base_url(), Some(openapi())).expect("client");
        TestServer {
            running,
            workers,
            app,
            client,
            dir,
            pg,
        }
    }

    /// A confirmed, approved user with a token for `scopes`; returns (account id, token).
    pub async fn user_with_scopes(&self, username: &str, scopes: &str) -> (String, String) {
        make_user(&self.app, username, Role::User, scopes)
            .await
            .expect("create user")
    }

    /// A confirmed, approved user with `read write follow push`.
    pub async fn user(&self, username: &str) -> (String, String) {
        self.user_with_scopes(username, "read write follow push")
            .await
    }

    /// Registers an app with `read write` and returns (client_id, client_secret, app token).
    pub async fn app_token(&self) -> (String, String, String) {
        let r = self
            .client
            .post(
                CreateApp::PATH,
                None,
                form(&[
                    ("client_name", "t"),
                    ("redirect_uris", "urn:ietf:wg:oauth:2.0:oob"),
                    ("scopes", "read write"),
                ]),
            )
            .await
            .unwrap();
        let v = r.json().unwrap();
        let (id, secret) = (
            v["client_id"].as_str().unwrap().to_string(),
            v["client_secret"].as_str().unwrap().to_string(),
        );
        let r = self
            .client
            .post(
                CreateToken::PATH,
                None,
                form(&[
                    ("grant_type", "client_credentials"),
                    ("client_id", &id),
                    ("client_secret", &secret),
                    ("scope", "read write"),
                ]),
            )
            .await
            .unwrap();
        r.expect(200).unwrap();
        let token = r.json().unwrap()["access_token"]
            .as_str()
            .unwrap()
            .to_string();
        (id, secret, token)
    }

    /// A conformance context over this server with an in-process account factory.
    pub fn cx(&self) -> Cx {
        let mut cx = Cx::new(
            self.client.clone(),
            Some(Arc::new(AppFactory(self.app.clone()))),
            None,
        );
        cx.factory_password = Some(PASSWORD.to_string());
        cx
    }

    /// [`TestServer::cx`] with an administrator's token too (`--admin-token`), so that no
    /// check lacks its set-up.
    pub async fn full_cx(&self) -> Cx {
        let mut cx = self.cx();
        let (_, token) = make_user(
            &self.app,
            "conformance_admin",
            Role::Admin,
            "read write follow push admin:read admin:write",
        )
        .await
        .expect("an administrator");
        cx.set_admin_token(Some(token));
        cx
    }

    /// Stops the server and removes its files.
    pub async fn stop(self) {
        self.workers.stop().await;
        self.running.stop().await;
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some((admin_url, name)) = self.pg {
            drop(self.app);
            fedblog_server::store::admin::drop_database(&admin_url, &name)
                .await
                .expect("drop database");
        }
    }
}

async fn make_user(
    app: &App,
    username: &str,
    role: Role,
    scopes: &str,
) -> Result<(String, String), String> {
    let new = NewAccount {
        username: username.to_string(),
        email: format!("{username}@example.com"),
        password: PASSWORD.into(),
        role,
        confirmed: true,
        approved: true,
        locale: "en".into(),
    };
    let (account, _, _) = app
        .accounts()
        .create_local_account(new, true)
        .await
        .map_err(|e| e.to_string())?;
    let cli = app
        .oauth()
        .cli_application()
        .await
        .map_err(|e| e.to_string())?;
    let scopes = fedblog_core::scope::Scopes::parse(scopes)?;
    let issued = app
        .oauth()
        .issue_token(cli.id, Some(account.id), &scopes)
        .await
        .map_err(|e| e.to_string())?;
    Ok((account.id.to_string(), issued.access_token))
}

/// Makes accounts directly through core, as `fedblog-server accounts create` would.
pub struct AppFactory(pub Arc<App>);

impl AccountFactory for AppFactory {
    fn create<'a>(&'a self, username: &'a str) -> BoxFuture<'a, Result<String, String>> {
        Box::pin(async move {
            make_user(&self.0, username, Role::User, "read write follow push")
                .await
                .map(|(_, t)| t)
        })
    }
}
