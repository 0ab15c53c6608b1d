//! Server settings: `FEDBLOG_*` environment variables, each also a command-line flag, over an
//! optional TOML file, over defaults.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use clap::Args;
use fedblog_core::config::{InstanceConfig, RegistrationMode};
use serde::Deserialize;

/// Settings shared by every subcommand. Flags win over environment variables, which win over the
/// TOML file named by `--config`/`FEDBLOG_CONFIG`, which wins over the defaults.
#[derive(Args, Debug, Clone, Default)]
pub struct SettingsArgs {
    /// TOML file with any of the settings below (keys without the `FEDBLOG_` prefix, lower case).
    #[arg(long, env = "FEDBLOG_CONFIG", global = true)]
    pub config: Option<PathBuf>,
    /// Address to listen on [default: 127.0.0.1:3000].
    #[arg(long, env = "FEDBLOG_LISTEN", global = true)]
    pub listen: Option<String>,
    /// Public host (and port) clients and other servers use [default: localhost:3000].
    #[arg(long, env = "FEDBLOG_DOMAIN", global = true)]
    pub domain: Option<String>,
    /// Folder for the SQLite database and uploads, created on first start [default: ./data].
    #[arg(long, env = "FEDBLOG_DATA_DIR", global = true)]
    pub data_dir: Option<PathBuf>,
    /// Folder for uploaded files (avatars, headers), created on the first upload; processes that
    /// share a database must share it [default: DATA_DIR/media].
    #[arg(long, env = "FEDBLOG_MEDIA_DIR", global = true)]
    pub media_dir: Option<PathBuf>,
    /// Database URL: `sqlite://PATH` (default: DATA_DIR/fedblog.sqlite) or `postgres://...`.
    #[arg(long, env = "FEDBLOG_DATABASE_URL", global = true)]
    pub database_url: Option<String>,
    /// Database connections per process [default: 10].
    #[arg(long, env = "FEDBLOG_DB_MAX_CONNECTIONS", global = true)]
    pub db_max_connections: Option<u32>,
    /// Apply pending migrations when `serve` starts [default: true].
    #[arg(long, env = "FEDBLOG_MIGRATE_ON_START", global = true)]
    pub migrate_on_start: Option<bool>,
    /// Who may sign up: `open`, `approval` or `closed` [default: open].
    #[arg(long, env = "FEDBLOG_REGISTRATIONS", global = true)]
    pub registrations: Option<String>,
    /// Instance name [default: fedblog].
    #[arg(long, env = "FEDBLOG_TITLE", global = true)]
    pub title: Option<String>,
    /// Contact e-mail address shown in the instance information.
    #[arg(long, env = "FEDBLOG_CONTACT_EMAIL", global = true)]
    pub contact_email: Option<String>,
    /// Background worker tasks in this process; 0 runs no jobs here [default: 1].
    #[arg(long, env = "FEDBLOG_WORKERS", global = true)]
    pub workers: Option<usize>,
    /// How often an idle worker looks for due jobs, in milliseconds [default: 1000].
    #[arg(long, env = "FEDBLOG_WORKER_POLL_MS", global = true)]
    pub worker_poll_ms: Option<u64>,
    /// How long a worker holds a claimed job before another may take it over, in seconds [default: 60].
    #[arg(long, env = "FEDBLOG_JOB_LEASE_SECS", global = true)]
    pub job_lease_secs: Option<i64>,
    /// Longest time one database statement may run, in seconds (PostgreSQL) [default: none].
    #[arg(long, env = "FEDBLOG_DB_STATEMENT_TIMEOUT", global = true)]
    pub db_statement_timeout: Option<u64>,
    /// Base URL of a LibreTranslate-compatible service for translating statuses; none disables
    /// translation [default: none].
    #[arg(long, env = "FEDBLOG_TRANSLATION_URL", global = true)]
    pub translation_url: Option<String>,
    /// API key sent to the translation service, if it needs one.
    #[arg(
        long,
        env = "FEDBLOG_TRANSLATION_API_KEY",
        global = true,
        hide_env_values = true
    )]
    pub translation_api_key: Option<String>,
    /// Rate limits: `on` (Mastodon's values), `off` (benchmarks), or overrides such as
    /// `statuses=300/3h,sign_ups=5/30m` (families: api, api_account, unauthenticated, statuses,
    /// follows, media, deletes, sign_ups, sign_in, sign_in_account, confirmations,
    /// confirmations_account) [default: on].
    #[arg(long, env = "FEDBLOG_RATE_LIMITS", global = true)]
    pub rate_limits: Option<String>,
    /// Redis URL for the rate-limit counters of a deployment of several processes
    /// [default: the database on PostgreSQL, memory on SQLite].
    #[arg(long, env = "FEDBLOG_REDIS_URL", global = true, hide_env_values = true)]
    pub redis_url: Option<String>,
    /// The Web Push (VAPID) private key, base64url, as Mastodon's VAPID_PRIVATE_KEY holds it
    /// [default: one made on first start and kept in the database].
    #[arg(
        long,
        env = "FEDBLOG_VAPID_PRIVATE_KEY",
        global = true,
        hide_env_values = true
    )]
    pub vapid_private_key: Option<String>,
    /// Proxies (addresses or networks, comma-separated, or `none`) whose X-Forwarded-For names
    /// the client [default: 127.0.0.0/8,::1].
    #[arg(long, env = "FEDBLOG_TRUSTED_PROXIES", global = true)]
    pub trusted_proxies: Option<String>,
    /// Longest wait, in seconds, for a request's headers and for each piece of its body
    /// [default: 10].
    #[arg(long, env = "FEDBLOG_READ_TIMEOUT_SECS", global = true)]
    pub read_timeout_secs: Option<u64>,
    /// Whether the public and hashtag streams need an access token too [default: false].
    #[arg(long, env = "FEDBLOG_STREAMING_PUBLIC_NEEDS_TOKEN", global = true)]
    pub streaming_public_needs_token: Option<bool>,
    /// Streaming connections one access token may hold at once [default: 32].
    #[arg(long, env = "FEDBLOG_STREAMING_CONNECTIONS_PER_TOKEN", global = true)]
    pub streaming_connections_per_token: Option<usize>,
    /// Whether fetches and deliveries to other servers may reach loopback, private and other
    /// non-public addresses (tests, private networks) [default: false].
    #[arg(long, env = "FEDBLOG_ALLOW_PRIVATE_ADDRESSES", global = true)]
    pub allow_private_addresses: Option<bool>,
    /// Whether this server federates (ActivityPub inboxes, deliveries, remote lookups); off, it
    /// reaches no other server [default: true].
    #[arg(long, env = "FEDBLOG_FEDERATION", global = true)]
    pub federation: Option<bool>,
    /// Authorized fetch ("secure mode", Mastodon's AUTHORIZED_FETCH): ActivityPub documents
    /// (statuses, collections) only to requests with a valid HTTP signature from someone the
    /// account does not block; unsigned, an actor is only its key. The instance actor,
    /// WebFinger, NodeInfo and HTML pages stay public [default: false].
    #[arg(long, env = "FEDBLOG_AUTHORIZED_FETCH", global = true)]
    pub authorized_fetch: Option<bool>,
    /// Whether remote media (other servers' attachments, their accounts' avatars and headers)
    /// are downloaded into the media folder by a background job and served from here; off,
    /// only their URLs are kept and clients load them from their servers [default: false].
    #[arg(long, env = "FEDBLOG_REMOTE_MEDIA_DOWNLOAD", global = true)]
    pub remote_media_download: Option<bool>,
    /// The largest remote media file downloaded, in bytes; a larger one is shown from its
    /// server [default: 41943040 (40 MiB)].
    #[arg(long, env = "FEDBLOG_REMOTE_MEDIA_MAX_BYTES", global = true)]
    pub remote_media_max_bytes: Option<usize>,
    /// Which trends (hashtags, statuses) clients are shown: `reviewed` (only those staff
    /// approved), `open` (all but those staff rejected) or `off` (none) [default: reviewed].
    #[arg(long, env = "FEDBLOG_TRENDS", global = true)]
    pub trends: Option<String>,
    /// SMTP server that sends the e-mails (confirmations, password resets, notifications); none
    /// writes them to the log instead [default: none].
    #[arg(long, env = "FEDBLOG_SMTP_SERVER", global = true)]
    pub smtp_server: Option<String>,
    /// Its port [default: 587 with starttls, 465 with tls, 25 with none].
    #[arg(long, env = "FEDBLOG_SMTP_PORT", global = true)]
    pub smtp_port: Option<u16>,
    /// How the connection is protected: `starttls` (required, no fallback), `tls` (from the
    /// first byte) or `none` (a relay on this machine or network only) [default: starttls].
    #[arg(long, env = "FEDBLOG_SMTP_TLS", global = true)]
    pub smtp_tls: Option<String>,
    /// User name for the SMTP server, if it asks for one.
    #[arg(long, env = "FEDBLOG_SMTP_USER", global = true)]
    pub smtp_user: Option<String>,
    /// Password for the SMTP server.
    #[arg(
        long,
        env = "FEDBLOG_SMTP_PASSWORD",
        global = true,
        hide_env_values = true
    )]
    pub smtp_password: Option<String>,
    /// The sender of the e-mails, `address` or `Name <address>`
    /// [default: notifications@ the domain's host].
    #[arg(long, env = "FEDBLOG_SMTP_FROM", global = true)]
    pub smtp_from: Option<String>,
}

#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
struct FileSettings {
    listen: Option<String>,
    domain: Option<String>,
    data_dir: Option<PathBuf>,
    media_dir: Option<PathBuf>,
    database_url: Option<String>,
    db_max_connections: Option<u32>,
    migrate_on_start: Option<bool>,
    registrations: Option<String>,
    title: Option<String>,
    contact_email: Option<String>,
    workers: Option<usize>,
    worker_poll_ms: Option<u64>,
    job_lease_secs: Option<i64>,
    db_statement_timeout: Option<u64>,
    translation_url: Option<String>,
    translation_api_key: Option<String>,
    rate_limits: Option<String>,
    redis_url: Option<String>,
    vapid_private_key: Option<String>,
    trusted_proxies: Option<String>,
    read_timeout_secs: Option<u64>,
    streaming_public_needs_token: Option<bool>,
    streaming_connections_per_token: Option<usize>,
    allow_private_addresses: Option<bool>,
    federation: Option<bool>,
    authorized_fetch: Option<bool>,
    remote_media_download: Option<bool>,
    remote_media_max_bytes: Option<usize>,
    trends: Option<String>,
    smtp_server: Option<String>,
    smtp_port: Option<u16>,
    smtp_tls: Option<String>,
    smtp_user: Option<String>,
    smtp_password: Option<String>,
    smtp_from: Option<String>,
}

/// Where statuses are translated (`FEDBLOG_TRANSLATION_URL`, `FEDBLOG_TRANSLATION_API_KEY`).
#[derive(Clone)]
pub struct TranslationSettings {
    /// Base URL of the LibreTranslate-compatible service (`http://` or `https://`).
    pub url: String,
    /// Its API key, if any.
    pub api_key: Option<String>,
}

impl std::fmt::Debug for TranslationSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranslationSettings")
            .field("url", &self.url)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

/// Resolved settings.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Listen address.
    pub listen: SocketAddr,
    /// Data folder.
    pub data_dir: PathBuf,
    /// Folder of uploaded files.
    pub media_dir: PathBuf,
    /// Database URL.
    pub database_url: String,
    /// Pool size.
    pub db_max_connections: u32,
    /// Migrate when serving starts.
    pub migrate_on_start: bool,
    /// Statement timeout in seconds.
    pub db_statement_timeout: Option<u64>,
    /// Background workers.
    pub workers: crate::workers::WorkerSettings,
    /// What core needs to know.
    pub instance: InstanceConfig,
    /// The translation service; `None` disables translation.
    pub translation: Option<TranslationSettings>,
    /// Redis for rate-limit counters, if set.
    pub redis_url: Option<String>,
    /// The Web Push private key given by the administrator, if any.
    pub vapid_private_key: Option<String>,
    /// What the HTTP layer allows.
    pub http: crate::http::HttpOptions,
    /// Whether requests to other servers may reach non-public addresses.
    pub allow_private_addresses: bool,
    /// Whether this server federates.
    pub federation: bool,
    /// The SMTP server e-mails go through; `None` writes them to the log.
    pub smtp: Option<crate::mail::SmtpSettings>,
}

impl SettingsArgs {
    /// Resolves flags, environment, file and defaults into settings.
    pub fn resolve(&self) -> Result<Settings, String> {
        let file = match &self.config {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                toml::from_str::<FileSettings>(&text)
                    .map_err(|e| format!("invalid settings file {}: {e}", path.display()))?
            }
            None => FileSettings::default(),
        };
        let listen_text = self
            .listen
            .clone()
            .or(file.listen)
            .unwrap_or_else(|| "127.0.0.1:3000".into());
        let listen: SocketAddr = listen_text
            .parse()
            .map_err(|_| format!("FEDBLOG_LISTEN is not an address: {listen_text:?}"))?;
        let domain = self
            .domain
            .clone()
            .or(file.domain)
            .unwrap_or_else(|| "localhost:3000".into());
        let data_dir = self
            .data_dir
            .clone()
            .or(file.data_dir)
            .unwrap_or_else(|| PathBuf::from("./data"));
        let media_dir = self
            .media_dir
            .clone()
            .or(file.media_dir)
            .unwrap_or_else(|| data_dir.join("media"));
        let database_url = self
            .database_url
            .clone()
            .or(file.database_url)
            .unwrap_or_else(|| sqlite_url(&data_dir));
        let registrations_text = self
            .registrations
            .clone()
            .or(file.registrations)
            .unwrap_or_else(|| "open".into());
        let registrations = RegistrationMode::parse(&registrations_text).ok_or_else(|| {
            format!(
                "FEDBLOG_REGISTRATIONS must be open, approval or closed, not {registrations_text:?}"
            )
        })?;
        let translation = match self
            .translation_url
            .clone()
            .or(file.translation_url)
            .map(|u| u.trim().to_string())
            .filter(|u| !u.is_empty())
        {
            None => None,
            Some(url) if url.starts_with("http://") || url.starts_with("https://") => {
                Some(TranslationSettings {
                    url,
                    api_key: self
                        .translation_api_key
                        .clone()
                        .or(file.translation_api_key)
                        .filter(|k| !k.is_empty()),
                })
            }
            Some(url) => {
                return Err(format!(
                    "FEDBLOG_TRANSLATION_URL must start with http:// or https://, not {url:?}"
                ));
            }
        };
        let mut instance = InstanceConfig::new(&domain);
        instance.registrations = registrations;
        if let Some(text) = self.rate_limits.clone().or(file.rate_limits) {
            instance.rate_limits = fedblog_core::rate_limit::RateLimits::parse(&text)
                .map_err(|e| format!("FEDBLOG_RATE_LIMITS: {e}"))?;
        }
        if let Some(needs) = self
            .streaming_public_needs_token
            .or(file.streaming_public_needs_token)
        {
            instance.streaming.public_needs_token = needs;
        }
        if let Some(n) = self
            .streaming_connections_per_token
            .or(file.streaming_connections_per_token)
        {
            instance.streaming.connections_per_token = n.max(1);
        }
        let mut http = crate::http::HttpOptions::default();
        if let Some(text) = self.trusted_proxies.clone().or(file.trusted_proxies) {
            http.trusted_proxies = crate::http::client_addr::TrustedProxies::parse(&text)
                .map_err(|e| format!("FEDBLOG_TRUSTED_PROXIES: {e}"))?;
        }
        if let Some(secs) = self.read_timeout_secs.or(file.read_timeout_secs) {
            http.read_timeout = std::time::Duration::from_secs(secs.max(1));
        }
        let redis_url = self
            .redis_url
            .clone()
            .or(file.redis_url)
            .filter(|u| !u.trim().is_empty());
        instance.authorized_fetch = self
            .authorized_fetch
            .or(file.authorized_fetch)
            .unwrap_or(false);
        instance.allow_private_addresses = self
            .allow_private_addresses
            .or(file.allow_private_addresses)
            .unwrap_or(false);
        if let Some(on) = self.remote_media_download.or(file.remote_media_download) {
            instance.limits.download_remote_media = on;
        }
        if let Some(n) = self.remote_media_max_bytes.or(file.remote_media_max_bytes) {
            instance.limits.remote_media_max_bytes = n.max(1);
        }
        if let Some(text) = self.trends.clone().or(file.trends) {
            instance.trends =
                fedblog_core::config::TrendsMode::parse(text.trim()).ok_or_else(|| {
                    format!("FEDBLOG_TRENDS must be reviewed, open or off, not {text:?}")
                })?;
        }
        if let Some(t) = self.title.clone().or(file.title) {
            instance.title = t;
        }
        if let Some(e) = self.contact_email.clone().or(file.contact_email) {
            instance.contact_email = e;
        }
        let smtp = match self
            .smtp_server
            .clone()
            .or(file.smtp_server)
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
        {
            None => None,
            Some(server) => {
                let tls_text = self
                    .smtp_tls
                    .clone()
                    .or(file.smtp_tls)
                    .unwrap_or_else(|| "starttls".into());
                let tls = crate::mail::SmtpTls::parse(&tls_text).ok_or_else(|| {
                    format!("FEDBLOG_SMTP_TLS must be none, starttls or tls, not {tls_text:?}")
                })?;
                Some(crate::mail::SmtpSettings {
                    server,
                    port: self
                        .smtp_port
                        .or(file.smtp_port)
                        .unwrap_or_else(|| tls.default_port()),
                    tls,
                    user: self
                        .smtp_user
                        .clone()
                        .or(file.smtp_user)
                        .filter(|u| !u.is_empty()),
                    password: self
                        .smtp_password
                        .clone()
                        .or(file.smtp_password)
                        .filter(|p| !p.is_empty()),
                    from: self
                        .smtp_from
                        .clone()
                        .or(file.smtp_from)
                        .filter(|f| !f.trim().is_empty())
                        .unwrap_or_else(|| crate::mail::default_from(&domain)),
                })
            }
        };
        Ok(Settings {
            listen,
            data_dir,
            media_dir,
            database_url,
            db_max_connections: self
                .db_max_connections
                .or(file.db_max_connections)
                .unwrap_or(10)
                .max(1),
            migrate_on_start: self
                .migrate_on_start
                .or(file.migrate_on_start)
                .unwrap_or(true),
            db_statement_timeout: self.db_statement_timeout.or(file.db_statement_timeout),
            workers: crate::workers::WorkerSettings {
                count: self.workers.or(file.workers).unwrap_or(1),
                poll: std::time::Duration::from_millis(
                    self.worker_poll_ms
                        .or(file.worker_poll_ms)
                        .unwrap_or(1000)
                        .max(10),
                ),
                lease: chrono::Duration::seconds(
                    self.job_lease_secs
                        .or(file.job_lease_secs)
                        .unwrap_or(fedblog_core::services::jobs::DEFAULT_LEASE_SECONDS)
                        .max(1),
                ),
                ..Default::default()
            },
            instance,
            translation,
            redis_url,
            vapid_private_key: self
                .vapid_private_key
                .clone()
                .or(file.vapid_private_key)
                .filter(|k| !k.trim().is_empty()),
            http,
            allow_private_addresses: self
                .allow_private_addresses
                .or(file.allow_private_addresses)
                .unwrap_or(false),
            federation: self.federation.or(file.federation).unwrap_or(true),
            smtp,
        })
    }
}

/// The default SQLite URL inside a data folder.
pub fn sqlite_url(data_dir: &Path) -> String {
    format!(
        "sqlite://{}?mode=rwc",
        data_dir.join("fedblog.sqlite").display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_embedded_setup() {
        let s = SettingsArgs::default().resolve().unwrap();
        assert_eq!(s.listen.to_string(), "127.0.0.1:3000");
        assert_eq!(s.instance.domain, "localhost:3000");
        assert_eq!(s.instance.base_url(), "http://localhost:3000");
        assert!(s.database_url.starts_with("sqlite://./data/fedblog.sqlite"));
        assert_eq!(s.media_dir, PathBuf::from("./data/media"));
        assert!(s.translation.is_none());
    }

    #[test]
    fn smtp_is_off_without_a_server_and_defaults_to_starttls() {
        assert!(SettingsArgs::default().resolve().unwrap().smtp.is_none());
        let s = SettingsArgs {
            smtp_server: Some("mail.example".into()),
            smtp_password: Some("sekrit".into()),
            ..Default::default()
        }
        .resolve()
        .unwrap();
        assert!(!format!("{s:?}").contains("sekrit"));
        let smtp = s.smtp.expect("smtp configured");
        assert_eq!(smtp.tls, crate::mail::SmtpTls::StartTls);
        assert_eq!(smtp.port, 587);
        assert_eq!(smtp.from, "notifications@localhost");
        let plain = SettingsArgs {
            smtp_server: Some("127.0.0.1".into()),
            smtp_tls: Some("none".into()),
            smtp_port: Some(2525),
            ..Default::default()
        }
        .resolve()
        .unwrap()
        .smtp
        .expect("smtp");
        assert_eq!((plain.tls, plain.port), (crate::mail::SmtpTls::None, 2525));
        let bad = SettingsArgs {
            smtp_server: Some("127.0.0.1".into()),
            smtp_tls: Some("ssl".into()),
            ..Default::default()
        };
        assert!(bad.resolve().unwrap_err().contains("FEDBLOG_SMTP_TLS"));
    }

    #[test]
    fn translation_needs_an_http_url_and_hides_its_key() {
        let s = SettingsArgs {
            translation_url: Some("http://127.0.0.1:5000/".into()),
            translation_api_key: Some("sekrit".into()),
            ..Default::default()
        }
        .resolve()
        .unwrap();
        let t = s.translation.expect("translation configured");
        assert_eq!(t.url, "http://127.0.0.1:5000/");
        assert_eq!(t.api_key.as_deref(), Some("sekrit"));
        assert!(!format!("{t:?}").contains("sekrit"));
        let empty = SettingsArgs {
            translation_url: Some(" ".into()),
            ..Default::default()
        };
        assert!(empty.resolve().unwrap().translation.is_none());
        let bad = SettingsArgs {
            translation_url: Some("libretranslate:5000".into()),
            ..Default::default()
        };
        assert!(
            bad.resolve()
                .unwrap_err()
                .contains("FEDBLOG_TRANSLATION_URL")
        );
    }

    #[test]
    fn file_is_below_flags() {
        let dir = std::env::temp_dir().join(format!("fedblog-settings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("fedblog.toml");
        std::fs::write(
            &path,
            "domain = \"social.example\"\ntitle = \"From file\"\n",
        )
        .unwrap();
        let args = SettingsArgs {
            config: Some(path.clone()),
            title: Some("From flag".into()),
            ..Default::default()
        };
        let s = args.resolve().unwrap();
        assert_eq!(s.instance.domain, "social.example");
        assert_eq!(s.instance.scheme, "https");
        assert_eq!(s.instance.title, "From flag");
        std::fs::write(&path, "bogus = 1\n").unwrap();
        assert!(args.resolve().unwrap_err().contains("bogus"));
        assert!(
            SettingsArgs {
                registrations: Some("sometimes".into()),
                ..Default::default()
            }
            .resolve()
            .is_err()
        );
    }

    #[test]
    fn authorized_fetch_is_off_unless_a_flag_the_environment_or_the_file_says_so() {
        assert!(
            !SettingsArgs::default()
                .resolve()
                .unwrap()
                .instance
                .authorized_fetch
        );
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            settings: SettingsArgs,
        }
        use clap::{CommandFactory, Parser};
        let env = Cli::command()
            .get_arguments()
            .find(|a| a.get_id() == "authorized_fetch")
            .and_then(|a| a.get_env().map(|e| e.to_string_lossy().to_string()));
        assert_eq!(env.as_deref(), Some("FEDBLOG_AUTHORIZED_FETCH"));
        let cli = Cli::try_parse_from(["fedblog-server", "--authorized-fetch", "true"]).unwrap();
        assert!(cli.settings.resolve().unwrap().instance.authorized_fetch);

        let dir = std::env::temp_dir().join(format!(
            "fedblog-settings-authorized-fetch-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("fedblog.toml");
        std::fs::write(&path, "authorized_fetch = true\n").unwrap();
        let args = SettingsArgs {
            config: Some(path.clone()),
            ..Default::default()
        };
        assert!(args.resolve().unwrap().instance.authorized_fetch);
        let flag_wins = SettingsArgs {
            authorized_fetch: Some(false),
            ..args
        };
        assert!(!flag_wins.resolve().unwrap().instance.authorized_fetch);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn remote_media_are_not_downloaded_unless_asked_and_the_limit_can_be_set() {
        let limits = SettingsArgs::default().resolve().unwrap().instance.limits;
        assert!(!limits.download_remote_media);
        assert_eq!(limits.remote_media_max_bytes, 40 * 1024 * 1024);

        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            settings: SettingsArgs,
        }
        use clap::{CommandFactory, Parser};
        let env_of = |id: &str| {
            Cli::command()
                .get_arguments()
                .find(|a| a.get_id() == id)
                .and_then(|a| a.get_env().map(|e| e.to_string_lossy().to_string()))
        };
        assert_eq!(
            env_of("remote_media_download").as_deref(),
            Some("FEDBLOG_REMOTE_MEDIA_DOWNLOAD")
        );
        assert_eq!(
            env_of("remote_media_max_bytes").as_deref(),
            Some("FEDBLOG_REMOTE_MEDIA_MAX_BYTES")
        );
        let cli = Cli::try_parse_from([
            "fedblog-server",
            "--remote-media-download",
            "true",
            "--remote-media-max-bytes",
            "1048576",
        ])
        .unwrap();
        let limits = cli.settings.resolve().unwrap().instance.limits;
        assert!(limits.download_remote_media);
        assert_eq!(limits.remote_media_max_bytes, 1024 * 1024);

        let dir = std::env::temp_dir().join(format!(
            "fedblog-settings-remote-media-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("fedblog.toml");
        std::fs::write(
            &path,
            "remote_media_download = true\nremote_media_max_bytes = 2048\n",
        )
        .unwrap();
        let args = SettingsArgs {
            config: Some(path.clone()),
            ..Default::default()
        };
        let limits = args.resolve().unwrap().instance.limits;
        assert!(limits.download_remote_media);
        assert_eq!(limits.remote_media_max_bytes, 2048);
        let flag_wins = SettingsArgs {
            remote_media_download: Some(false),
            remote_media_max_bytes: Some(0),
            ..args
        };
        let limits = flag_wins.resolve().unwrap().instance.limits;
        assert!(!limits.download_remote_media);
        assert_eq!(limits.remote_media_max_bytes, 1, "at least one byte");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
