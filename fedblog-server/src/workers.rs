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

/// How often the first worker does the housekeeping (see [`housekeeping`]).
const HOUSEKEEPING_EVERY: Duration = Duration::from_secs(3600);

/// Purges the jobs finished more than [`KEEP_DONE_HOURS`] ago, deletes the accounts suspended
/// over 30 days ago ([`fedblog_core::services::moderation::Moderation::delete_expired_suspensions`]),
/// and forgets the ids of activities
/// applied more than [`fedblog_core::services::federation::SEEN_ACTIVITY_MAX_AGE`] ago (why that
/// long is said there). A failure is logged; the next round tries again.
async fn housekeeping(app: &App) {
    let before = app.now() - chrono::Duration::hours(KEEP_DONE_HOURS);
    if let Err(e) = app.store.purge_done_jobs(before).await {
        tracing::warn!(error = %e, "purging finished jobs failed");
    }
    match app.moderation().delete_expired_suspensions().await {
        Ok(0) => {}
        Ok(deleted) => tracing::info!(deleted, "deleted accounts suspended over 30 days ago"),
        Err(e) => tracing::warn!(error = %e.message, "deleting expired suspensions failed"),
    }
    match app.federation().prune_seen_activities().await {
        Ok(0) => {}
        Ok(pruned) => tracing::debug!(pruned, "forgot the ids of old activities"),
        Err(e) => tracing::warn!(error = %e.message, "pruning seen activity ids failed"),
    }
}

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
                        // Asked before each job of the batch: a stopping worker finishes the job it
                        // runs and hands the rest back to the queue at once.
                        let stopping = || *rx.borrow();
                        let idle = match app
                            .run_due_jobs_until(&name, settings.batch, settings.lease, &stopping)
                            .await
                        {
                            Ok(r) => r.claimed == 0,
                            Err(e) => {
                                tracing::error!(worker = %name, error = %e, "job round failed");
                                true
                            }
                        };
                        if n == 0 && last_purge.elapsed() > HOUSEKEEPING_EVERY {
                            last_purge = std::time::Instant::now();
                            housekeeping(&app).await;
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

    /// Asks the workers to stop, without waiting: each finishes the job it runs, hands back the
    /// jobs it claimed and has not started (queued again, attempts not charged, so they need not
    /// wait for their lease to end), and ends. [`Workers::stop`] then waits for them.
    pub fn request_stop(&self) {
        let _ = self.stop.send(true);
    }

    /// Stops the workers after their current job (handing back the rest of their claim, see
    /// [`Workers::request_stop`]) and waits for them.
    pub async fn stop(self) {
        self.request_stop();
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
    use fedblog_core::store::{AccountRecord, JobState, Role};
    use fedblog_core::{InstanceConfig, MemoryStore};

    async fn account(app: &App, name: &str) -> AccountRecord {
        app.accounts()
            .create_local_account(
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

    /// A media processor that holds the job running it at a gate until the test opens it.
    #[derive(Default)]
    struct Gate {
        entered: tokio::sync::Notify,
        open: tokio::sync::Notify,
    }

    #[async_trait::async_trait]
    impl fedblog_core::media::MediaProcessor for Gate {
        async fn preview(
            &self,
            _image: &[u8],
            _max_pixels: u32,
        ) -> Result<fedblog_core::media::Preview, String> {
            self.entered.notify_one();
            self.open.notified().await;
            Err("no preview in this test".into())
        }
    }

    /// A graceful stop hands back what a worker claimed and has not started: it finishes the
    /// job it runs, and the rest of its batch is queued again at once, attempts not charged,
    /// claimable by another worker long before the (300 s) lease would end.
    async fn stop_releases_unstarted_claimed_jobs(store: Arc<dyn fedblog_core::Store>) {
        let mut config = InstanceConfig::new("workers.test");
        config.password_hash_memory_kib = 64;
        let gate = Arc::new(Gate::default());
        let app = Arc::new(App::new(store, config).with_media_processor(gate.clone()));
        let me = account(&app, "uploader").await;
        for n in 0..3u8 {
            let upload = fedblog_core::params::Upload {
                name: "file".into(),
                file_name: Some("p.png".into()),
                content_type: Some("image/png".into()),
                bytes: fedblog_testkit::conformance::checks::media::png(4, 4, [n, 1, 2]),
            };
            app.media()
                .upload_media(&me, Some(&upload), Default::default())
                .await
                .expect("upload");
        }
        // Three `process_media` jobs due now (and three `remove_media` due in a day).
        assert_eq!(
            app.store.count_jobs(JobState::Queued).await.expect("count"),
            6
        );
        let workers = Workers::start(
            app.clone(),
            WorkerSettings {
                poll: Duration::from_secs(60),
                lease: chrono::Duration::seconds(300),
                ..Default::default()
            },
        );
        tokio::time::timeout(Duration::from_secs(10), gate.entered.notified())
            .await
            .expect("the worker starts the first job of its batch");
        assert_eq!(
            app.store
                .count_jobs(JobState::Running)
                .await
                .expect("count"),
            3,
            "the worker claimed the three due jobs in one batch"
        );
        workers.request_stop();
        gate.open.notify_one();
        tokio::time::timeout(Duration::from_secs(10), workers.stop())
            .await
            .expect("the workers stop after their current job");
        let count = |state| {
            let app = app.clone();
            async move { app.store.count_jobs(state).await.expect("count") }
        };
        assert_eq!(count(JobState::Done).await, 1, "the job running finished");
        assert_eq!(
            count(JobState::Running).await,
            0,
            "no job stays held by the stopped worker"
        );
        assert_eq!(count(JobState::Queued).await, 5, "two handed back");
        let now = app.now();
        let again = app
            .store
            .claim_jobs("next", now, now + chrono::Duration::seconds(60), 10)
            .await
            .expect("claim");
        assert_eq!(
            again.len(),
            2,
            "the handed-back jobs are claimable at once: {again:?}"
        );
        for j in &again {
            assert_eq!(j.kind, fedblog_core::services::media::PROCESS_MEDIA);
            assert_eq!(j.attempts, 1, "the stopped worker's claim was not charged");
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn stop_releases_unstarted_claimed_jobs_in_memory() {
        stop_releases_unstarted_claimed_jobs(Arc::new(MemoryStore::new())).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn stop_releases_unstarted_claimed_jobs_on_sqlite() {
        let store = crate::store::connect("sqlite::memory:", &Default::default())
            .await
            .expect("sqlite");
        store.migrate().await.expect("migrate");
        stop_releases_unstarted_claimed_jobs(store.into_shared()).await;
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
            app.relationships()
                .follow(&f, author.id, FollowOptions::default())
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
            .statuses()
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

    /// Housekeeping forgets activity ids older than thirty days and keeps younger ones.
    async fn housekeeping_prunes_old_activity_ids(store: Arc<dyn fedblog_core::Store>) {
        let mut config = InstanceConfig::new("workers.test");
        config.password_hash_memory_kib = 64;
        let app = App::new(store, config);
        let now = app.now();
        for (id, days) in [("old", 31), ("recent", 29)] {
            let at = now - chrono::Duration::days(days);
            assert!(app.store.note_activity(id, at).await.expect("noted"));
        }
        housekeeping(&app).await;
        assert!(
            app.store.note_activity("old", now).await.expect("noted"),
            "the old id was forgotten"
        );
        assert!(
            !app.store.note_activity("recent", now).await.expect("noted"),
            "the recent id is kept"
        );
    }

    #[tokio::test]
    async fn housekeeping_prunes_old_activity_ids_in_memory() {
        housekeeping_prunes_old_activity_ids(Arc::new(MemoryStore::new())).await;
    }

    #[tokio::test]
    async fn housekeeping_prunes_old_activity_ids_on_sqlite() {
        let store = crate::store::connect("sqlite::memory:", &Default::default())
            .await
            .expect("sqlite");
        store.migrate().await.expect("migrate");
        housekeeping_prunes_old_activity_ids(store.into_shared()).await;
    }
}
