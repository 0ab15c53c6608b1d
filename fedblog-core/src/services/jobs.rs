//! The durable job queue: new jobs, the queue areas put them on, the signal that wakes idle
//! workers, and the back-off of a failed job. The workers themselves are `job_runner.rs`.

use std::future::poll_fn;
use std::sync::{Mutex, PoisonError};
use std::task::{Poll, Waker};

use chrono::{DateTime, Duration, Utc};

use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::store::{JobRecord, JobState, JobStore};

/// Publishes a scheduled status; payload `{"scheduled_status_id": "<id>"}`.
pub const PUBLISH_SCHEDULED_STATUS: &str = "publish_scheduled_status";

/// Attempts before a job is dead.
pub const DEFAULT_MAX_ATTEMPTS: i32 = 8;

/// How long a worker holds a claimed job before others may take it over, by default.
pub const DEFAULT_LEASE_SECONDS: i64 = 60;

/// A queued job of `kind` due `now` whose payload is `payload` written as JSON, tried at most
/// `max_attempts` times.
pub fn json_job(
    id: Id,
    kind: &str,
    payload: &impl serde::Serialize,
    now: DateTime<Utc>,
    max_attempts: i32,
) -> ApiResult<JobRecord> {
    let payload = serde_json::to_string(payload).map_err(|e| {
        tracing::error!("cannot write a {kind} job: {e}");
        ApiError::internal()
    })?;
    let mut job = new_job(id, kind, &payload, now, now);
    job.max_attempts = max_attempts;
    Ok(job)
}

/// A queued job of `kind` with `payload` (JSON), due at `run_at`, made at `now`, with the
/// default number of attempts.
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

/// Where areas queue their background work: the job store, and the signal that wakes this
/// process's idle workers.
#[derive(Clone, Copy)]
pub struct JobQueue<'a> {
    jobs: &'a dyn JobStore,
    signal: &'a JobSignal,
    now: DateTime<Utc>,
}

impl<'a> JobQueue<'a> {
    /// The queue of `jobs`, waking workers through `signal`, at `now`.
    pub fn new(jobs: &'a dyn JobStore, signal: &'a JobSignal, now: DateTime<Utc>) -> Self {
        JobQueue { jobs, signal, now }
    }

    /// Stores a job; one due now also wakes this process's idle workers (see [`JobSignal`]).
    pub async fn enqueue(&self, job: &JobRecord) -> ApiResult<()> {
        self.jobs.enqueue_job(job).await?;
        if job.run_at <= self.now {
            self.signal.notify();
        }
        Ok(())
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

    #[test]
    fn backoff_doubles_up_to_an_hour() {
        assert_eq!(backoff(1), Duration::seconds(10));
        assert_eq!(backoff(2), Duration::seconds(20));
        assert_eq!(backoff(4), Duration::seconds(80));
        assert_eq!(backoff(20), Duration::seconds(3600));
    }
}
