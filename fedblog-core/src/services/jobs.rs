//! The durable job queue's workers: claim due jobs, run them by kind, finish or retry with
//! exponential back-off. Several processes may run workers on one database.

use std::future::poll_fn;
use std::sync::{Mutex, PoisonError};
use std::task::{Poll, Waker};

use chrono::{DateTime, Duration, Utc};
use serde_json::Value;

use crate::app::App;
use crate::error::ApiResult;
use crate::id::Id;
use crate::store::{JobRecord, JobState};

/// Publishes a scheduled status; payload `{"scheduled_status_id": "<id>"}`.
pub const PUBLISH_SCHEDULED_STATUS: &str = "publish_scheduled_status";

/// Attempts before a job is dead.
pub const DEFAULT_MAX_ATTEMPTS: i32 = 8;

/// How long a worker holds a claimed job before others may take it over, by default.
pub const DEFAULT_LEASE_SECONDS: i64 = 60;

/// A new queued job.
pub fn new_job(
    id: Id,
    kind: &str,
    payload: &str,
    run_at: DateTime<Utc>,
    now: DateTime<Utc>,
) -> JobRecord {
    JobRecord {
        id,
        kind: kind.to_string(),
        payload: payload.to_string(),
        run_at,
        state: JobState::Queued,
        attempts: 0,
        max_attempts: DEFAULT_MAX_ATTEMPTS,
        locked_by: None,
        locked_until: None,
        last_error: None,
        created_at: now,
        finished_at: None,
    }
}

/// The wait before retry number `attempts` (1-based): 10 s, 20 s, 40 s, ... at most an hour.
pub fn backoff(attempts: i32) -> Duration {
    let exp = attempts.clamp(1, 16) - 1;
    Duration::seconds((10i64 << exp).min(3600))
}

/// Wakes this process's idle workers when a job due now is enqueued, so that work such as a large
/// fan-out starts at once rather than at the next poll. The job table stays the source of truth:
/// workers of other processes find the job when they next poll. Written with `std` only, so it
/// works under any async runtime.
#[derive(Default)]
pub struct JobSignal {
    state: Mutex<SignalState>,
}

#[derive(Default)]
struct SignalState {
    /// Raised by every [`JobSignal::notify`].
    generation: u64,
    /// Workers waiting for the generation to move.
    wakers: Vec<Waker>,
}

impl JobSignal {
    /// The current generation: read it before looking for jobs, then wait with
    /// [`JobSignal::changed_since`], and no notification in between is missed.
    pub fn generation(&self) -> u64 {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .generation
    }

    /// Wakes every waiting worker.
    pub fn notify(&self) {
        let wakers = {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            state.generation += 1;
            std::mem::take(&mut state.wakers)
        };
        for w in wakers {
            w.wake();
        }
    }

    /// Completes once the generation differs from `seen`.
    pub async fn changed_since(&self, seen: u64) {
        poll_fn(|cx| {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            if state.generation != seen {
                return Poll::Ready(());
            }
            if !state.wakers.iter().any(|w| w.will_wake(cx.waker())) {
                state.wakers.push(cx.waker().clone());
            }
            Poll::Pending
        })
        .await
    }
}

/// What one round of work did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct RoundReport {
    /// Jobs claimed.
    pub claimed: usize,
    /// Jobs finished.
    pub done: usize,
    /// Jobs that failed (retried or dead).
    pub failed: usize,
    /// Jobs handed back unstarted (queued again, attempt not charged) because the worker was
    /// stopping or the store failed mid-round.
    pub released: usize,
}

impl App {
    /// Stores a job; one due now also wakes this process's idle workers (see [`JobSignal`]).
    pub async fn enqueue(&self, job: &JobRecord) -> ApiResult<()> {
        self.store.enqueue_job(job).await?;
        if job.run_at <= self.now() {
            self.job_signal.notify();
        }
        Ok(())
    }

    /// Claims up to `batch` due jobs for `worker`, holding them for `lease`, and runs them one by
    /// one. A job must finish within its lease, or another worker may run it again.
    pub async fn run_due_jobs(
        &self,
        worker: &str,
        batch: usize,
        lease: Duration,
    ) -> ApiResult<RoundReport> {
        self.run_due_jobs_until(worker, batch, lease, &|| false)
            .await
    }

    /// [`App::run_due_jobs`] for a worker that may be asked to stop: `stopping` is asked before
    /// the claim and before each job. Once it answers `true`, the job running finishes, and the
    /// claimed jobs not started yet are handed back at once
    /// ([`JobStore::release_jobs`](crate::store::JobStore::release_jobs): queued again, their
    /// attempt not charged), so another worker, or this process after a restart, takes them
    /// without waiting for the lease to end. A store error while recording a job's outcome hands
    /// back the jobs not started too, then is returned.
    pub async fn run_due_jobs_until(
        &self,
        worker: &str,
        batch: usize,
        lease: Duration,
        stopping: &(dyn Fn() -> bool + Sync),
    ) -> ApiResult<RoundReport> {
        if stopping() {
            return Ok(RoundReport::default());
        }
        let now = self.now();
        let jobs = self
            .store
            .claim_jobs(worker, now, now + lease, batch)
            .await?;
        let mut report = RoundReport {
            claimed: jobs.len(),
            ..Default::default()
        };
        for (n, job) in jobs.iter().enumerate() {
            if stopping() {
                report.released = self.hand_back(worker, &jobs[n..]).await;
                break;
            }
            let outcome = self.run_job(job).await;
            let recorded = match &outcome {
                Ok(()) => self.store.complete_job(job.id, worker, self.now()).await,
                Err(error) => {
                    let retry = (job.attempts < job.max_attempts)
                        .then(|| self.now() + backoff(job.attempts));
                    tracing::warn!(job = %job.id, kind = %job.kind, attempts = job.attempts, %error, retry = retry.is_some(), "job failed");
                    self.store
                        .fail_job(job.id, worker, error, retry, self.now())
                        .await
                }
            };
            match recorded {
                Ok(_) if outcome.is_ok() => report.done += 1,
                Ok(_) => report.failed += 1,
                Err(e) => {
                    // This job stays held until its lease ends (the store may not know its
                    // outcome); the ones not started need not wait for that.
                    self.hand_back(worker, &jobs[n + 1..]).await;
                    return Err(e.into());
                }
            }
        }
        Ok(report)
    }

    /// Hands back claimed jobs this worker will not run; returns how many the store released.
    /// A failure is logged, not returned: the jobs then wait for their lease to end.
    async fn hand_back(&self, worker: &str, jobs: &[JobRecord]) -> usize {
        if jobs.is_empty() {
            return 0;
        }
        let ids: Vec<Id> = jobs.iter().map(|j| j.id).collect();
        match self.store.release_jobs(&ids, worker).await {
            Ok(n) => {
                tracing::info!(worker, released = n, "handed back claimed jobs not started");
                n as usize
            }
            Err(error) => {
                tracing::warn!(worker, %error, jobs = ids.len(), "handing back claimed jobs failed; they wait for their lease to end");
                0
            }
        }
    }

    async fn run_job(&self, job: &JobRecord) -> Result<(), String> {
        let payload: Value =
            serde_json::from_str(&job.payload).map_err(|e| format!("invalid payload: {e}"))?;
        match job.kind.as_str() {
            PUBLISH_SCHEDULED_STATUS => {
                let id = payload["scheduled_status_id"]
                    .as_str()
                    .and_then(|s| s.parse::<Id>().ok())
                    .ok_or("payload has no scheduled_status_id")?;
                self.publish_scheduled_status(id)
                    .await
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
            crate::services::media::PROCESS_MEDIA => {
                self.media()
                    .process_media(crate::services::media::payload_media_id(&payload)?)
                    .await
            }
            crate::services::media::REMOVE_MEDIA => {
                let id = crate::services::media::payload_media_id(&payload)?;
                self.media()
                    .remove_unattached_media(&[id])
                    .await
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
            crate::services::notifications::CLOSE_POLL => {
                self.notifications().close_poll(&payload).await
            }
            crate::services::fanout::FAN_OUT => self.run_fan_out(&payload).await,
            other => Err(format!("unknown job kind {other:?}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn signal_wakes_a_waiter_and_is_not_missed_between_read_and_wait() {
        let signal = std::sync::Arc::new(JobSignal::default());
        let seen = signal.generation();
        // A notification after the read and before the wait completes the wait at once.
        signal.notify();
        signal.changed_since(seen).await;
        // A waiter parked first is woken by a later notification from another thread.
        let seen = signal.generation();
        let other = signal.clone();
        let notifier = tokio::task::spawn_blocking(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            other.notify();
        });
        tokio::time::timeout(
            std::time::Duration::from_secs(5),
            signal.changed_since(seen),
        )
        .await
        .expect("the waiter is woken");
        notifier.await.expect("notifier");
        assert_eq!(signal.generation(), seen + 1);
    }

    /// Asked to stop between the jobs of a batch, a round finishes the job it runs and hands
    /// back the rest: queued again, attempts not charged, lock cleared, claimable at once.
    #[tokio::test]
    async fn a_stopping_round_hands_back_the_jobs_it_did_not_start() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicUsize, Ordering};

        use crate::store::JobStore;

        let store = Arc::new(crate::MemoryStore::new());
        let app = App::new(store.clone(), crate::InstanceConfig::new("jobs.test"));
        let now = app.now();
        let mut ids = vec![];
        for n in 0..3 {
            // Media that do not exist: the job ends at once, successfully.
            let payload = format!("{{\"media_id\":\"{}\"}}", 1000 + n);
            let job = new_job(
                app.ids.next(),
                crate::services::media::PROCESS_MEDIA,
                &payload,
                now - Duration::seconds(3 - n),
                now,
            );
            app.enqueue(&job).await.expect("enqueue");
            ids.push(job.id);
        }
        // Asked before the claim, before the first job, then told to stop before the second.
        let asked = AtomicUsize::new(0);
        let stopping = || asked.fetch_add(1, Ordering::SeqCst) >= 2;
        let report = app
            .run_due_jobs_until("w", 10, Duration::seconds(300), &stopping)
            .await
            .expect("round");
        assert_eq!(
            report,
            RoundReport {
                claimed: 3,
                done: 1,
                failed: 0,
                released: 2
            }
        );
        let first = store.job_by_id(ids[0]).await.expect("job").expect("stored");
        assert_eq!(first.state, JobState::Done, "the started job finishes");
        for id in &ids[1..] {
            let j = store.job_by_id(*id).await.expect("job").expect("stored");
            assert_eq!(
                (j.state, j.attempts, j.locked_by, j.locked_until),
                (JobState::Queued, 0, None, None),
                "a job not started is handed back, its attempt not charged"
            );
        }
        // Another worker takes them at once, not after the 300 s lease.
        let round = app
            .run_due_jobs("other", 10, Duration::seconds(300))
            .await
            .expect("round");
        assert_eq!((round.claimed, round.done), (2, 2));
        // Stopping before the claim claims nothing.
        let none = app
            .run_due_jobs_until("w", 10, Duration::seconds(300), &|| true)
            .await
            .expect("round");
        assert_eq!(none, RoundReport::default());
    }

    #[test]
    fn backoff_doubles_up_to_an_hour() {
        assert_eq!(backoff(1), Duration::seconds(10));
        assert_eq!(backoff(2), Duration::seconds(20));
        assert_eq!(backoff(4), Duration::seconds(80));
        assert_eq!(backoff(20), Duration::seconds(3600));
    }
}
