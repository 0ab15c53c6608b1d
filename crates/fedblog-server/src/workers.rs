//! Background workers: tasks that run the durable job queue until the server stops.

use std::sync::Arc;
use std::time::Duration;

use fedblog_core::App;
use tokio::sync::watch;

/// How workers behave.
#[derive(Clone, Debug)]
pub struct WorkerSettings {
    /// Worker tasks in this process (0: this process runs no jobs).
    pub count: usize,
    /// Pause when no job was due.
    pub poll: Duration,
    /// Jobs claimed at once.
    pub batch: usize,
    /// How long a claimed job is held before other workers may take it over.
    pub lease: chrono::Duration,
}

impl Default for WorkerSettings {
    fn default() -> Self {
        WorkerSettings {
            count: 1,
            poll: Duration::from_millis(1000),
            batch: 10,
            lease: chrono::Duration::seconds(fedblog_core::services::jobs::DEFAULT_LEASE_SECONDS),
        }
    }
}

/// Keep finished jobs this long (for inspection), then purge them.
const KEEP_DONE_HOURS: i64 = 24;

/// A name for a worker that no other process shares.
pub fn worker_name(n: usize) -> String {
    let host = std::env::var("HOSTNAME")
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "fedblog".into());
    format!("{host}:{}:{n}:{:04x}", std::process::id(), rand_suffix())
}

fn rand_suffix() -> u16 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    (nanos ^ (nanos >> 16)) as u16
}

/// Running workers; dropping the handle does not stop them, `stop` does.
pub struct Workers {
    stop: watch::Sender<bool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Workers {
    /// Starts `settings.count` worker tasks.
    pub fn start(app: Arc<App>, settings: WorkerSettings) -> Workers {
        let (stop, rx) = watch::channel(false);
        let tasks = (0..settings.count)
            .map(|n| {
                let (app, mut rx, settings) = (app.clone(), rx.clone(), settings.clone());
                tokio::spawn(async move {
                    let name = worker_name(n);
                    tracing::info!(worker = %name, "worker started");
                    let mut last_purge = std::time::Instant::now();
                    loop {
                        if *rx.borrow() {
                            break;
                        }
                        let idle = match app
                            .run_due_jobs(&name, settings.batch, settings.lease)
                            .await
                        {
                            Ok(r) => r.claimed == 0,
                            Err(e) => {
                                tracing::error!(worker = %name, error = %e, "job round failed");
                                true
                            }
                        };
                        if n == 0 && last_purge.elapsed() > Duration::from_secs(3600) {
                            last_purge = std::time::Instant::now();
                            let before = app.now() - chrono::Duration::hours(KEEP_DONE_HOURS);
                            if let Err(e) = app.store.purge_done_jobs(before).await {
                                tracing::warn!(error = %e, "purging finished jobs failed");
                            }
                        }
                        if idle {
                            tokio::select! {
                                _ = tokio::time::sleep(settings.poll) => {}
                                _ = rx.changed() => {}
                            }
                        }
                    }
                    tracing::info!(worker = %name, "worker stopped");
                })
            })
            .collect();
        Workers { stop, tasks }
    }

    /// Stops the workers after their current job and waits for them.
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        for t in self.tasks {
            let _ = t.await;
        }
    }
}
