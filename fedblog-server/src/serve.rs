//! Start-up: open the store (creating the data folder), apply migrations, build the app with its
//! file store on disk, listen.

use std::net::SocketAddr;
use std::sync::Arc;

use fedblog_core::{App, IdGenerator};
use tokio::sync::oneshot;

use fedblog_core::rate_limit::{MemoryRateLimiter, RateLimiter};

use crate::blocking::BlockingPool;
use crate::files::DiskFileStore;
use crate::http::{self, HttpOptions, Server};
use crate::media::ImageProcessor;
use crate::redis_limits::RedisRateLimiter;
use crate::settings::Settings;
use crate::store::pg_events::PgEventBus;
use crate::store::{self, ConnectSettings, SeaStore};
use crate::translation::{DEFAULT_TIMEOUT, LibreTranslate};
use crate::workers::Workers;

/// Opens the database of the settings, creating the data folder for SQLite.
pub async fn open_store(settings: &Settings) -> Result<SeaStore, String> {
    if settings.database_url.starts_with("sqlite:") {
        std::fs::create_dir_all(&settings.data_dir).map_err(|e| {
            format!(
                "cannot create the data folder {}: {e}",
                settings.data_dir.display()
            )
        })?;
    }
    let opts = ConnectSettings {
        max_connections: settings.db_max_connections,
        ..Default::default()
    };
    store::connect(&settings.database_url, &opts)
        .await
        .map_err(|e| format!("cannot open the database: {e}"))
}

/// Opens the store, migrating it when the settings say so, and builds the app with uploaded
/// files kept in the media folder.
pub async fn build_app(settings: &Settings) -> Result<Arc<App>, String> {
    let store = open_store(settings).await?;
    if settings.migrate_on_start {
        store
            .migrate()
            .await
            .map_err(|e| format!("migrations failed: {e}"))?;
    }
    // Rate-limit counters: Redis when named; the database when processes share it
    // (PostgreSQL); this process's memory on the embedded SQLite default.
    let limiter: Arc<dyn RateLimiter> = match &settings.redis_url {
        Some(url) => Arc::new(RedisRateLimiter::connect(url).await?),
        None if store.backend_name() == "postgres" => Arc::new(store.rate_limiter()),
        None => Arc::new(MemoryRateLimiter::default()),
    };
    // A node of its own for this process's ids (the CLI's included), so processes sharing the
    // database never make the same id.
    let node = store
        .claim_id_node()
        .await
        .map_err(|e| format!("cannot take an id node: {e}"))?;
    let backend = store.backend_name();
    let (store, change_log) = store.into_cached();
    let files = Arc::new(DiskFileStore::new(settings.media_dir.clone()));
    let mut app = App::new(store, settings.instance.clone())
        .with_files(files)
        .with_media_processor(Arc::new(ImageProcessor))
        .with_rate_limiter(limiter)
        .with_blocking(Arc::new(BlockingPool::per_core()));
    app.ids = IdGenerator::with_node(node);
    if let Some(log) = change_log {
        app = app.with_change_log(log);
    }
    // Streaming events reach every process sharing a PostgreSQL database through it; on the
    // embedded default the process's own bus is all there is.
    if backend == "postgres" {
        let bus = PgEventBus::connect(&settings.database_url).await?;
        app = app.with_events(Arc::new(bus));
    }
    // Federation: fetches and deliveries through the outbound client and its address rule.
    let mut outbound = crate::outbound::OutboundOptions::new(&settings.instance.base_url());
    outbound.allow_private = settings.allow_private_addresses;
    let limits = &settings.instance.limits;
    if limits.download_remote_media {
        // Remote media come through the same client (bounded as every answer is): its bound
        // must let a file within FEDBLOG_REMOTE_MEDIA_MAX_BYTES through.
        outbound.max_body = outbound.max_body.max(limits.remote_media_max_bytes);
        tracing::info!(
            max_bytes = limits.remote_media_max_bytes,
            "FEDBLOG_REMOTE_MEDIA_DOWNLOAD is on: remote media are copied into the media folder"
        );
    }
    if outbound.allow_private {
        tracing::warn!(
            "FEDBLOG_ALLOW_PRIVATE_ADDRESSES is on: other servers' URLs may reach private addresses"
        );
    }
    // Web Push messages go out through the same client and rules, federating or not.
    let client = Arc::new(crate::outbound::OutboundClient::new(outbound)?);
    app = app.with_push_transport(client.clone());
    let vapid = fedblog_core::services::web_push::kept_vapid_key(
        &*app.store,
        settings.vapid_private_key.as_deref(),
    )
    .await?;
    app = app.with_vapid_key(vapid);
    if settings.federation {
        app = app.with_transport(client);
    } else {
        tracing::info!("FEDBLOG_FEDERATION is off: this server reaches no other server");
    }
    if settings.instance.authorized_fetch {
        tracing::info!(
            "FEDBLOG_AUTHORIZED_FETCH is on: ActivityPub documents are served only to signed requests"
        );
        if !settings.federation {
            tracing::warn!(
                "FEDBLOG_AUTHORIZED_FETCH is on but federation is off: only signers whose keys are already known can be verified"
            );
        }
    }
    match &settings.smtp {
        Some(smtp) => {
            app.mailer = Arc::new(crate::mail::SmtpMailer::new(smtp)?);
            tracing::info!(server = %smtp.server, port = smtp.port, tls = ?smtp.tls, "e-mail is sent through SMTP");
        }
        None => tracing::info!(
            "FEDBLOG_SMTP_SERVER is not set: e-mails are written to the log, not sent"
        ),
    }
    if let Some(t) = &settings.translation {
        let translator = LibreTranslate::new(&t.url, t.api_key.clone(), DEFAULT_TIMEOUT)?;
        app = app.with_translator(Arc::new(translator));
        tracing::info!(url = %t.url, "statuses are translated by a LibreTranslate-compatible service");
    }
    Ok(Arc::new(app))
}

/// A server running in the background.
pub struct Running {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// The app it serves.
    pub app: Arc<App>,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
    /// The stream runner, when this server started it.
    runner: Option<tokio::task::JoinHandle<()>>,
}

impl Running {
    /// `http://addr`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops accepting, closes the streaming connections, finishes open requests, and waits.
    pub async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        self.app.streams.shut_down();
        let _ = self.task.await;
        if let Some(runner) = self.runner.take() {
            runner.abort();
        }
    }
}

/// Starts serving `app` on `listen` (port 0 picks a free port).
pub async fn spawn(
    app: Arc<App>,
    listen: SocketAddr,
    options: HttpOptions,
) -> Result<Running, String> {
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    spawn_with(app, listener, options).await
}

/// Starts serving `app` on a bound listener (tests bind first to learn the port for the domain),
/// with the default HTTP options.
pub async fn spawn_on(app: Arc<App>, listener: tokio::net::TcpListener) -> Result<Running, String> {
    spawn_with(app, listener, HttpOptions::default()).await
}

/// Starts serving `app` on a bound listener with these HTTP options.
pub async fn spawn_with(
    app: Arc<App>,
    listener: tokio::net::TcpListener,
    options: HttpOptions,
) -> Result<Running, String> {
    let server = Server::new(app.clone(), options)?;
    spawn_server(server, listener).await
}

/// Starts serving a built [`Server`] (one with a route table of its own, say) on a bound
/// listener.
pub async fn spawn_server(
    server: Arc<Server>,
    listener: tokio::net::TcpListener,
) -> Result<Running, String> {
    let app = server.app().clone();
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let (tx, rx) = oneshot::channel::<()>();
    // One stream runner per app: it renders the bus's events for this process's streams.
    let runner = app.streams.claim_runner().then(|| {
        let app = app.clone();
        let events = app.events.subscribe();
        tokio::spawn(async move { app.run_streams(events).await })
    });
    let task = tokio::spawn(http::run(server, listener, async move {
        let _ = rx.await;
    }));
    Ok(Running {
        addr,
        app,
        stop: Some(tx),
        task,
        runner,
    })
}

/// `fedblog-server serve`: runs until Ctrl-C or SIGTERM.
pub async fn serve(settings: Settings) -> Result<(), String> {
    let app = build_app(&settings).await?;
    let workers = Workers::start(app.clone(), settings.workers.clone());
    let running = spawn(app, settings.listen, settings.http.clone()).await?;
    tracing::info!(listen = %running.addr, domain = %settings.instance.domain, workers = settings.workers.count, "fedblog is serving; stop with Ctrl-C");
    shutdown_signal().await;
    tracing::info!("stopping");
    // Workers stop claiming at once and hand back what they have not started, while open
    // requests finish.
    workers.request_stop();
    running.stop().await;
    workers.stop().await;
    Ok(())
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = async { match term.as_mut() { Some(t) => { t.recv().await; } None => std::future::pending::<()>().await } } => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
