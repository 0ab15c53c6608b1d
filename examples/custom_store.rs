//! A store of your own, proved by fedblog's store conformance suite.
//!
//! `ToyStore` keeps its job queue in a backend of its own: a toy table of rows kept in
//! `(run_at, id)` order, standing in for the queue service or database you would really use.
//! Everything else it forwards to [`MemoryStore`] with [`fedblog_core::delegate_store!`]. That is
//! how a port to a new backend can go: one trait at a time, running the suite after each step,
//! until nothing is forwarded any more.
//!
//! Prove it (one `#[test]` per check, 300 and more):
//!
//! ```text
//! cargo test -p fedblog-examples --example custom_store
//! ```
//!
//! or run the same checks from `main`, which prints how many pass:
//!
//! ```text
//! cargo run -p fedblog-examples --example custom_store
//! ```
//!
//! Break a rule to see the suite catch it: for instance, let `claim_jobs` skip the `limit`.

use std::sync::{Arc, Mutex, MutexGuard};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use fedblog_core::store::{JobRecord, JobState, JobStore};
use fedblog_core::{Id, MemoryStore, Store, StoreError, StoreResult};

/// The toy backend: rows in `(run_at, id)` order, so that the due jobs are at the front.
#[derive(Default)]
struct JobTable {
    rows: Mutex<Vec<JobRecord>>,
}

impl JobTable {
    /// The rows, or a backend error if a writer panicked while holding them.
    fn rows(&self) -> StoreResult<MutexGuard<'_, Vec<JobRecord>>> {
        self.rows
            .lock()
            .map_err(|_| StoreError::Backend("job table poisoned".into()))
    }

    /// Puts `job` where its `(run_at, id)` belongs.
    fn place(rows: &mut Vec<JobRecord>, job: JobRecord) {
        let at = rows.partition_point(|r| (r.run_at, r.id) < (job.run_at, job.id));
        rows.insert(at, job);
    }

    /// Takes the row with this id out, if there is one.
    fn take(rows: &mut Vec<JobRecord>, id: Id) -> Option<JobRecord> {
        let at = rows.iter().position(|r| r.id == id)?;
        Some(rows.remove(at))
    }
}

/// Whether `worker` holds `job` now.
fn held_by(job: &JobRecord, worker: &str) -> bool {
    job.state == JobState::Running && job.locked_by.as_deref() == Some(worker)
}

/// The store: its own job table, and everything else in memory.
#[derive(Default)]
pub struct ToyStore {
    jobs: JobTable,
    rest: MemoryStore,
}

fedblog_core::delegate_store!(ToyStore => rest:
    AccountStore, OAuthStore, StatusStore, FollowStore, BlockStore, FeedStore, StatsStore,
    ScheduledStatusStore, AccountNoteStore, DomainBlockStore, TagStore, DirectoryStore,
    InteractionStore, StatusEditStore, PollStore, MediaStore, NotificationStore, MarkerStore,
    ListStore, FilterStore, ConversationStore, LinkStore, NotificationPolicyStore, FederationStore);

#[async_trait]
impl JobStore for ToyStore {
    async fn enqueue_job(&self, job: &JobRecord) -> StoreResult<()> {
        let mut rows = self.jobs.rows()?;
        if rows.iter().any(|r| r.id == job.id) {
            return Err(StoreError::AlreadyExists("job".into()));
        }
        JobTable::place(&mut rows, job.clone());
        Ok(())
    }

    async fn claim_jobs(
        &self,
        worker: &str,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> StoreResult<Vec<JobRecord>> {
        // One lock for the whole claim: two workers never take the same row.
        let mut rows = self.jobs.rows()?;
        let claimable = |r: &JobRecord| match r.state {
            JobState::Queued => r.run_at <= now,
            JobState::Running => r.locked_until.is_some_and(|until| until < now),
            JobState::Done | JobState::Dead => false,
        };
        let mut claimed = Vec::new();
        for row in rows.iter_mut().filter(|r| claimable(r)).take(limit) {
            row.state = JobState::Running;
            row.attempts += 1;
            row.locked_by = Some(worker.to_string());
            row.locked_until = Some(lease_until);
            claimed.push(row.clone());
        }
        Ok(claimed)
    }

    async fn complete_job(&self, id: Id, worker: &str, at: DateTime<Utc>) -> StoreResult<bool> {
        let mut rows = self.jobs.rows()?;
        let Some(row) = rows.iter_mut().find(|r| r.id == id && held_by(r, worker)) else {
            return Ok(false);
        };
        row.state = JobState::Done;
        row.locked_by = None;
        row.locked_until = None;
        row.finished_at = Some(at);
        Ok(true)
    }

    async fn fail_job(
        &self,
        id: Id,
        worker: &str,
        error: &str,
        retry_at: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> StoreResult<bool> {
        let mut rows = self.jobs.rows()?;
        if !rows.iter().any(|r| r.id == id && held_by(r, worker)) {
            return Ok(false);
        }
        let mut job = JobTable::take(&mut rows, id).expect("the row just found");
        job.last_error = Some(error.to_string());
        job.locked_by = None;
        job.locked_until = None;
        match retry_at {
            Some(at) => {
                job.state = JobState::Queued;
                job.run_at = at;
            }
            None => {
                job.state = JobState::Dead;
                job.finished_at = Some(now);
            }
        }
        JobTable::place(&mut rows, job);
        Ok(true)
    }

    async fn release_jobs(&self, ids: &[Id], worker: &str) -> StoreResult<u64> {
        let mut rows = self.jobs.rows()?;
        let mut released = 0;
        for row in rows
            .iter_mut()
            .filter(|r| ids.contains(&r.id) && held_by(r, worker))
        {
            // Back in the queue at its own `run_at` (so its place in the table is unchanged),
            // the claim's attempt given back.
            row.state = JobState::Queued;
            row.attempts = (row.attempts - 1).max(0);
            row.locked_by = None;
            row.locked_until = None;
            released += 1;
        }
        Ok(released)
    }

    async fn job_by_id(&self, id: Id) -> StoreResult<Option<JobRecord>> {
        Ok(self.jobs.rows()?.iter().find(|r| r.id == id).cloned())
    }

    async fn reschedule_job(&self, id: Id, run_at: DateTime<Utc>) -> StoreResult<bool> {
        let mut rows = self.jobs.rows()?;
        if !rows
            .iter()
            .any(|r| r.id == id && r.state == JobState::Queued)
        {
            return Ok(false);
        }
        let mut job = JobTable::take(&mut rows, id).expect("the row just found");
        job.run_at = run_at;
        JobTable::place(&mut rows, job);
        Ok(true)
    }

    async fn cancel_job(&self, id: Id) -> StoreResult<bool> {
        let mut rows = self.jobs.rows()?;
        let before = rows.len();
        rows.retain(|r| !(r.id == id && r.state == JobState::Queued));
        Ok(rows.len() < before)
    }

    async fn purge_done_jobs(&self, before: DateTime<Utc>) -> StoreResult<u64> {
        let mut rows = self.jobs.rows()?;
        let count = rows.len();
        rows.retain(|r| {
            !(r.state == JobState::Done && r.finished_at.is_some_and(|at| at < before))
        });
        Ok((count - rows.len()) as u64)
    }

    async fn count_jobs(&self, state: JobState) -> StoreResult<i64> {
        Ok(self
            .jobs
            .rows()?
            .iter()
            .filter(|r| r.state == state)
            .count() as i64)
    }
}

/// A fresh, empty store, as each check needs.
fn fresh() -> Arc<dyn Store> {
    Arc::new(ToyStore::default())
}

// The proof: one #[test] per check of the suite (run by `cargo test`). ToyStore answers
// `has_relations` through MemoryStore, so it claims every capability; a store relying on the
// trait's default would add `, lacks = [PreciseHasRelations]` after the factory.
fedblog_testkit::store_suite!(|| async { fresh() });

/// Runs the same checks without the test harness and prints the outcome.
fn main() {
    use fedblog_testkit::store_suite::{CHECKS, Capabilities};

    // A failing check panics; keep its message, drop the backtrace noise of the default hook.
    std::panic::set_hook(Box::new(|info| eprintln!("  {info}")));
    let mut failed = Vec::new();
    for check in CHECKS {
        let passed =
            std::panic::catch_unwind(|| check.run_on(&*fresh(), Capabilities::ALL)).is_ok();
        if !passed {
            failed.push(format!("{}::{}", check.area, check.name));
        }
    }
    println!(
        "ToyStore: {} of {} store checks pass",
        CHECKS.len() - failed.len(),
        CHECKS.len()
    );
    if !failed.is_empty() {
        println!("failed: {}", failed.join(", "));
        std::process::exit(1);
    }
}
