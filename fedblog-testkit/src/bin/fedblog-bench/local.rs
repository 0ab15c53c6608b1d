//! `local`: the one documented command. A fresh data folder, the seed by the server binary's
//! `accounts create-many`, the server binary started on a free loopback port, `run` against it with its pid, then the server stopped
//! and the folder removed (unless `--keep`).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::api;
use crate::cli::LocalArgs;
use crate::run;
use crate::seed;

/// Longest wait for the server to answer after it starts.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// `fedblog-bench local`.
pub async fn command(args: LocalArgs) -> Result<(), String> {
    let scale = args.scale.resolve()?;
    let load = args.load.resolve(&scale)?;
    let streaming = args.streaming.resolve(&scale)?;
    let server_bin = match args.server_bin {
        Some(p) if p.is_file() => p,
        Some(p) => return Err(format!("no server binary at {}", p.display())),
        None => seed::default_server_bin()?,
    };
    let dir = DataDir::new(args.keep)?;
    println!(
        "data folder {} ({})",
        dir.path.display(),
        if dir.keep {
            "kept afterwards"
        } else {
            "removed afterwards"
        }
    );
    let port = free_port()?;
    let listen = format!("127.0.0.1:{port}");
    let database_url = args
        .database_url
        .clone()
        .unwrap_or_else(|| sqlite_url(&dir.path));
    println!("database {}", database_kind(&database_url));
    let seeded = seed::seed(&server_bin, &database_url, Some(&listen), &scale).await?;
    let tokens_file = dir.path.join("tokens.json");
    seeded.tokens.write(&tokens_file)?;

    println!("starting {} on {listen}", server_bin.display());
    let mut server = Server::start(&server_bin, &dir.path, &database_url, &listen)?;
    let base_url = format!("http://{listen}");
    server.wait_ready(&base_url).await?;
    let outcome = run::run(
        &base_url,
        &seeded.tokens,
        Some(server.pid()),
        &scale,
        &load,
        &streaming,
        Some(seeded.elapsed),
    )
    .await;
    server.stop();
    if dir.keep {
        println!(
            "kept {}; to measure it again: FEDBLOG_DATA_DIR={} FEDBLOG_LISTEN={listen} FEDBLOG_DOMAIN={listen} fedblog-server, then fedblog-bench run --base-url {base_url} --tokens {}",
            dir.path.display(),
            dir.path.display(),
            tokens_file.display()
        );
    }
    drop(dir);
    run::finish(&outcome?, &load)
}

/// What to call a database in the output (never its credentials).
fn database_kind(url: &str) -> &'static str {
    if url.starts_with("postgres") {
        "PostgreSQL"
    } else {
        "SQLite (the embedded default)"
    }
}

/// The server's SQLite database inside a data folder (as `fedblog-server` makes it by default).
fn sqlite_url(data_dir: &Path) -> String {
    format!(
        "sqlite://{}?mode=rwc",
        data_dir.join("fedblog.sqlite").display()
    )
}

/// A loopback port nobody listens on now (the server binds it a moment later).
fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")
        .map_err(|e| format!("cannot find a free port: {e}"))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("cannot find a free port: {e}"))
}

/// The data folder: a fresh temporary one removed on drop, or the `--keep` folder.
struct DataDir {
    path: PathBuf,
    keep: bool,
}

impl DataDir {
    fn new(keep: Option<PathBuf>) -> Result<DataDir, String> {
        match keep {
            Some(path) => {
                std::fs::create_dir_all(&path)
                    .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
                let used = std::fs::read_dir(&path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?
                    .next()
                    .is_some();
                if used {
                    return Err(format!(
                        "{} is not empty; --keep needs a new or empty folder",
                        path.display()
                    ));
                }
                Ok(DataDir { path, keep: true })
            }
            None => {
                let nanos = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos())
                    .unwrap_or(0);
                let path = std::env::temp_dir()
                    .join(format!("fedblog-bench-{}-{nanos:x}", std::process::id()));
                // `create_dir`, not `create_dir_all`: the folder must be new.
                std::fs::create_dir(&path)
                    .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
                Ok(DataDir { path, keep: false })
            }
        }
    }
}

impl Drop for DataDir {
    fn drop(&mut self) {
        if !self.keep
            && let Err(e) = std::fs::remove_dir_all(&self.path)
        {
            eprintln!("fedblog-bench: cannot remove {}: {e}", self.path.display());
        }
    }
}

/// The server child process; killed when dropped, so no error path leaves it running.
struct Server {
    child: Child,
}

impl Server {
    fn start(
        bin: &Path,
        data_dir: &Path,
        database_url: &str,
        listen: &str,
    ) -> Result<Server, String> {
        let child = Command::new(bin)
            .arg("serve")
            .env("FEDBLOG_DATA_DIR", data_dir)
            .env("FEDBLOG_DATABASE_URL", database_url)
            .env("FEDBLOG_LISTEN", listen)
            .env("FEDBLOG_DOMAIN", listen)
            // The load run reaches no other server.
            .env("FEDBLOG_FEDERATION", "false")
            .env("FEDBLOG_LOG", "warn")
            // The benchmark measures the server, not its limits (one account makes thousands of
            // requests a minute).
            .env("FEDBLOG_RATE_LIMITS", "off")
            .stdin(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        Ok(Server { child })
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits until `GET /api/v1/instance` answers 2xx; an error if the server exits first or
    /// does not answer within a minute.
    async fn wait_ready(&mut self, base_url: &str) -> Result<(), String> {
        let client = api::client(1)?;
        let url = format!("{base_url}{}", api::instance_path());
        let start = Instant::now();
        loop {
            if let Some(status) = self
                .child
                .try_wait()
                .map_err(|e| format!("cannot watch the server: {e}"))?
            {
                return Err(format!("the server exited ({status}) before answering"));
            }
            if let Ok(resp) = client.get(&url).send().await
                && resp.status().is_success()
            {
                println!(
                    "server (pid {}) answers after {:.2} s",
                    self.pid(),
                    start.elapsed().as_secs_f64()
                );
                return Ok(());
            }
            if start.elapsed() > START_TIMEOUT {
                return Err(format!(
                    "the server did not answer {url} within {} s",
                    START_TIMEOUT.as_secs()
                ));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Stops the server (SIGKILL: the data folder is thrown away or, with `--keep`, left as
    /// SQLite leaves it after a crash, which it recovers from) and reaps it.
    fn stop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            if let Err(e) = self.child.kill() {
                eprintln!("fedblog-bench: cannot stop the server: {e}");
            }
            let _ = self.child.wait();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}
