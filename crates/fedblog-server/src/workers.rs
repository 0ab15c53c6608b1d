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
                        // Read before looking for jobs: a job enqueued from now on wakes us.
                        let seen = app.job_signal.generation();
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
                                _ = app.job_signal.changed_since(seen) => {}
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

#[cfg(test)]
mod tests {
    use super::*;
    use fedblog_core::pagination::Page;
    use fedblog_core::services::accounts::NewAccount;
    use fedblog_core::services::relationships::FollowOptions;
    use fedblog_core::services::statuses::NewStatus;
    use fedblog_core::store::{AccountRecord, Role};
    use fedblog_core::{InstanceConfig, MemoryStore};

    async fn account(app: &App, name: &str) -> AccountRecord {
        app.create_local_account(
            NewAccount {
                username: name.into(),
                email: format!("{name}@example.test"),
                password: "correct horse battery".into(),
                role: Role::User,
                confirmed: true,
                approved: true,
                locale: "en".into(),
            },
            false,
        )
        .await
        .expect("account")
        .0
    }

    /// A job enqueued for now wakes an idle worker at once: a fan-out to more followers than the
    /// request serves reaches them well before the worker's next poll (a minute away).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_due_job_wakes_an_idle_worker() {
        let mut config = InstanceConfig::new("workers.test");
        config.password_hash_memory_kib = 64;
        config.fanout_inline_max = 1;
        let app = Arc::new(App::new(Arc::new(MemoryStore::new()), config));
        let author = account(&app, "author").await;
        let mut followers = vec![];
        for n in 0..2 {
            let f = account(&app, &format!("f{n}")).await;
            app.follow(&f, author.id, FollowOptions::default())
                .await
                .expect("follow");
            followers.push(f);
        }
        let workers = Workers::start(
            app.clone(),
            WorkerSettings {
                poll: Duration::from_secs(60),
                ..Default::default()
            },
        );
        // Let the worker find the queue empty and go idle.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let started = std::time::Instant::now();
        let status = app
            .publish_status(
                &author,
                None,
                None,
                NewStatus {
                    text: "to everyone".into(),
                    ..Default::default()
                },
            )
            .await
            .expect("post");
        let mut delivered = false;
        while started.elapsed() < Duration::from_secs(5) {
            let mut all = true;
            for f in &followers {
                let feed = app
                    .store
                    .home_feed(f.id, Page::first(5))
                    .await
                    .expect("feed");
                all &= feed.contains(&status.id);
            }
            if all {
                delivered = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        workers.stop().await;
        assert!(
            delivered,
            "the fan-out job did not run within 5 s of being enqueued (poll is 60 s)"
        );
    }
}
