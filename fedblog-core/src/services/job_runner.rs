//! The durable job queue's workers: claim due jobs, run each by its kind, finish or retry with
//! exponential back-off. Several processes may run workers on one database.

use chrono::Duration;
use serde_json::Value;

use crate::app::App;
use crate::error::ApiResult;
use crate::id::Id;
use crate::services::jobs::{PUBLISH_SCHEDULED_STATUS, RoundReport, backoff};
use crate::store::JobRecord;

/// The workers. They stay on `App`, as dispatch does: running a job hands it to the area its
/// kind names, so they reach every area.
impl App {
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
                    let retry = (job.attempts < job.max_attempts).then(|| {
                        self.now()
                            + if job.kind == crate::services::outbox::DELIVER {
                                crate::services::outbox::delivery_backoff(job.attempts)
                            } else {
                                backoff(job.attempts)
                            }
                    });
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
                self.scheduled()
                    .publish_scheduled_status(id)
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
            crate::services::media::DOWNLOAD_REMOTE_MEDIA => {
                let federation = &self.federation();
                let fetch =
                    |url: String, max| async move { federation.fetch_media(&url, max).await };
                self.media().download_remote_media(&payload, fetch).await
            }
            crate::services::notifications::CLOSE_POLL => self.run_close_poll(&payload).await,
            crate::services::cards::FETCH_LINK_CARD => self.cards().run_fetch(&payload).await,
            crate::mail::SEND_MAIL => self.mailing().run_job(&payload).await,
            crate::services::fanout::FAN_OUT => self.fanout().run_fan_out(&payload).await,
            crate::services::outbox::FEDERATE => self.run_federate(&payload).await,
            crate::services::outbox::DELIVER => self.run_delivery(&payload).await,
            crate::services::federation_runner::RESOLVE_THREAD => {
                self.run_resolve_thread(&payload).await
            }
            crate::services::federation_runner::FETCH_REPLIES => {
                self.run_fetch_replies(&payload).await
            }
            crate::services::federation::FETCH_FEATURED => self.run_fetch_featured(&payload).await,
            crate::services::federation_runner::SYNCHRONIZE_FOLLOWERS => {
                self.run_synchronize_followers(&payload).await
            }
            crate::services::outbox::REJECT_FOLLOWS_OF_SUSPENDED => {
                self.run_reject_follows_of_suspended(&payload).await
            }
            crate::services::outbox::REFRESH_UNSUSPENDED => {
                self.run_refresh_unsuspended(&payload).await
            }
            crate::services::web_push::WEB_PUSH => {
                let icon = |a: &crate::store::AccountRecord| self.render_account(a).avatar_static;
                self.web_push().deliver(&payload, &icon).await
            }
            other => Err(format!("unknown job kind {other:?}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::jobs::new_job;
    use crate::store::JobState;

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
            app.job_queue().enqueue(&job).await.expect("enqueue");
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
}
