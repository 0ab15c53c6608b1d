//! Checks of [`JobStore`](fedblog_core::store::JobStore): the durable job queue, its claims and
//! leases, and the transitions only the holder of a job may make.

use std::collections::BTreeSet;

use fedblog_core::store::{JobRecord, JobState};
use fedblog_core::{Id, IdGenerator, Store};

use super::{Capabilities, Capability, T0, assert_already_exists, at, job, sorted};

/// The `now` of the claims of these checks.
const NOW: i64 = T0 + 100_000;
/// The lease of the first claims: thirty seconds after [`NOW`].
const LEASE: i64 = NOW + 30_000;
/// A worker.
const A: &str = "worker-a";
/// Another worker.
const B: &str = "worker-b";

async fn enqueue(store: &dyn Store, job: JobRecord) -> JobRecord {
    store
        .enqueue_job(&job)
        .await
        .unwrap_or_else(|e| panic!("enqueue_job({}) failed: {e:?}", job.id));
    job
}

/// The stored job, which must exist.
async fn get(store: &dyn Store, id: Id) -> JobRecord {
    store
        .job_by_id(id)
        .await
        .unwrap_or_else(|e| panic!("job_by_id({id}) failed: {e:?}"))
        .unwrap_or_else(|| panic!("job_by_id({id}): the job must still be stored"))
}

async fn claim(
    store: &dyn Store,
    worker: &str,
    now: i64,
    lease_until: i64,
    limit: usize,
) -> Vec<JobRecord> {
    store
        .claim_jobs(worker, at(now), at(lease_until), limit)
        .await
        .unwrap_or_else(|e| panic!("claim_jobs({worker:?}) failed: {e:?}"))
}

fn ids_of(jobs: &[JobRecord]) -> Vec<Id> {
    jobs.iter().map(|j| j.id).collect()
}

/// `job` as a claim by `worker` until `lease_until` leaves it.
fn claimed(job: &JobRecord, worker: &str, lease_until: i64) -> JobRecord {
    JobRecord {
        state: JobState::Running,
        attempts: job.attempts + 1,
        locked_by: Some(worker.to_string()),
        locked_until: Some(at(lease_until)),
        ..job.clone()
    }
}

/// A job in `state` as enqueued by hand (a finished one has `finished_at`).
fn in_state(ids: &IdGenerator, state: JobState, run_millis: i64) -> JobRecord {
    let mut j = job(ids, "deliver", run_millis);
    j.state = state;
    match state {
        JobState::Queued => {}
        JobState::Running => {
            j.attempts = 1;
            j.locked_by = Some("worker-z".into());
            j.locked_until = Some(at(NOW + 5_000));
        }
        JobState::Done => {
            j.attempts = 1;
            j.finished_at = Some(at(run_millis + 500));
        }
        JobState::Dead => {
            j.attempts = j.max_attempts;
            j.last_error = Some("gave up".into());
            j.finished_at = Some(at(run_millis + 500));
        }
    }
    j
}

/// A job comes back exactly as enqueued, in every state, with every optional field unset and
/// set, timestamps to the millisecond; an unknown id is `None`.
pub async fn job_round_trips_with_all_fields(store: &dyn Store) {
    let ids = IdGenerator::default();
    let plain = job(&ids, "publish_scheduled_status", T0 + 1_234);
    let running = JobRecord {
        kind: "deliver".into(),
        payload: r#"{"inbox":"https://remote.example/inbox","text":"héllo ✓"}"#.into(),
        state: JobState::Running,
        attempts: 2,
        max_attempts: 7,
        locked_by: Some("host-1:4242".into()),
        locked_until: Some(at(T0 + 61_789)),
        last_error: Some("timeout after 30 s".into()),
        ..job(&ids, "deliver", T0 + 2_345)
    };
    let done = JobRecord {
        state: JobState::Done,
        attempts: 1,
        finished_at: Some(at(T0 + 3_456)),
        ..job(&ids, "fan_out", T0 + 3_001)
    };
    let dead = JobRecord {
        state: JobState::Dead,
        attempts: 5,
        max_attempts: 5,
        last_error: Some("HTTP 410 Gone".into()),
        finished_at: Some(at(T0 + 4_567)),
        created_at: at(T0 - 1_111),
        ..job(&ids, "deliver", T0 + 4_001)
    };
    for j in [&plain, &running, &done, &dead] {
        store.enqueue_job(j).await.expect("enqueue_job");
    }
    for j in [&plain, &running, &done, &dead] {
        let got = store.job_by_id(j.id).await.expect("job_by_id");
        assert_eq!(
            got.as_ref(),
            Some(j),
            "job_by_id must return the job exactly as enqueued ({:?})",
            j.state
        );
    }
    let got = store.job_by_id(ids.next_at(T0)).await.expect("job_by_id");
    assert_eq!(got, None, "job_by_id of an unknown id must be None");
}

/// A taken id is `AlreadyExists("job")` and the first job is unchanged.
pub async fn duplicate_job_id_is_already_exists(store: &dyn Store) {
    let ids = IdGenerator::default();
    let first = enqueue(store, job(&ids, "deliver", T0 + 1_000)).await;
    let second = JobRecord {
        kind: "fan_out".into(),
        payload: "{}".into(),
        run_at: at(T0 + 9_000),
        ..first.clone()
    };
    assert_already_exists(
        store.enqueue_job(&second).await,
        "job",
        "enqueue_job with a taken id",
    );
    assert_eq!(
        get(store, first.id).await,
        first,
        "a rejected enqueue_job must not change the existing job"
    );
}

/// A claim takes `Queued` jobs whose `run_at` is now or earlier, and nothing else: not jobs due
/// later, not finished ones, not running ones whose lease holds; those stay as they were.
pub async fn claim_takes_only_due_queued_jobs(store: &dyn Store) {
    let ids = IdGenerator::default();
    let past = enqueue(store, job(&ids, "deliver", NOW - 10_000)).await;
    let now = enqueue(store, job(&ids, "deliver", NOW)).await;
    let later = enqueue(store, job(&ids, "deliver", NOW + 1_000)).await;
    let done = enqueue(store, in_state(&ids, JobState::Done, NOW - 20_000)).await;
    let dead = enqueue(store, in_state(&ids, JobState::Dead, NOW - 20_000)).await;
    let leased = enqueue(store, in_state(&ids, JobState::Running, NOW - 20_000)).await;
    let got = claim(store, A, NOW, LEASE, 10).await;
    assert_eq!(
        sorted(ids_of(&got)),
        sorted(vec![past.id, now.id]),
        "claim_jobs must take exactly the queued jobs with run_at <= now (run_at == now included); \
         not later ones, done or dead ones, or running ones whose lease has not ended"
    );
    for j in [&later, &done, &dead, &leased] {
        assert_eq!(
            &get(store, j.id).await,
            j,
            "a job claim_jobs does not take must stay unchanged ({:?})",
            j.state
        );
    }
}

/// A claim takes the oldest `run_at` first (not the oldest id), expired leases included, at
/// most `limit` jobs, and returns them oldest `run_at` first.
pub async fn claim_takes_oldest_run_at_first_up_to_limit(store: &dyn Store) {
    let ids = IdGenerator::default();
    // Ids increase in creation order; run_at does not follow it.
    let mut jobs = vec![];
    for offset in [3_000, 9_000, 1_000, 7_000, 5_000] {
        jobs.push(job(&ids, "deliver", NOW - offset));
    }
    for j in &mut jobs {
        j.id = ids.next_at(T0);
    }
    // One of them was claimed long ago by a worker that died: its lease ended.
    let mut stale = jobs.remove(3);
    stale.state = JobState::Running;
    stale.attempts = 1;
    stale.locked_by = Some("worker-dead".into());
    stale.locked_until = Some(at(NOW - 1));
    jobs.push(stale);
    for j in &jobs {
        enqueue(store, j.clone()).await;
    }
    let mut by_run_at = jobs.clone();
    by_run_at.sort_by_key(|j| j.run_at);
    let expected: Vec<Id> = ids_of(&by_run_at);
    let first = claim(store, A, NOW, LEASE, 3).await;
    assert_eq!(
        ids_of(&first),
        expected[..3].to_vec(),
        "claim_jobs with limit 3 must take the three jobs with the oldest run_at (an expired lease \
         counts by its run_at), returned oldest run_at first"
    );
    let second = claim(store, B, NOW, LEASE, 3).await;
    assert_eq!(
        ids_of(&second),
        expected[3..].to_vec(),
        "a second claim_jobs with limit 3 must take the two remaining jobs, oldest run_at first"
    );
    let third = claim(store, B, NOW, LEASE, 3).await;
    assert_eq!(
        ids_of(&third),
        vec![],
        "nothing is left to claim once every due job is held"
    );
}

/// A claimed job becomes `Running` with `attempts` + 1, `locked_by` the worker and
/// `locked_until` the lease, both in what the claim returns and in the store; its other fields
/// (including an earlier `last_error`) are kept.
pub async fn claim_sets_running_attempts_and_lease(store: &dyn Store) {
    let ids = IdGenerator::default();
    let fresh = enqueue(store, job(&ids, "deliver", NOW - 2_000)).await;
    let retried = enqueue(
        store,
        JobRecord {
            attempts: 2,
            last_error: Some("connection refused".into()),
            ..job(&ids, "deliver", NOW - 1_000)
        },
    )
    .await;
    let lease = LEASE + 123;
    let got = claim(store, A, NOW, lease, 10).await;
    let expected = vec![claimed(&fresh, A, lease), claimed(&retried, A, lease)];
    assert_eq!(
        got, expected,
        "claim_jobs must return the claimed jobs as Running, attempts + 1, locked_by = worker, \
         locked_until = lease_until, other fields unchanged"
    );
    for e in &expected {
        assert_eq!(
            &get(store, e.id).await,
            e,
            "a claim must be stored: job_by_id must show the job as claim_jobs returned it"
        );
    }
}

/// While its lease holds (up to and including `locked_until`), a claimed job is not claimed
/// again, by another worker or by the same one.
pub async fn claimed_job_is_not_claimed_again_while_leased(store: &dyn Store) {
    let ids = IdGenerator::default();
    let j = enqueue(store, job(&ids, "deliver", NOW - 1_000)).await;
    let got = claim(store, A, NOW, LEASE, 10).await;
    assert_eq!(ids_of(&got), vec![j.id], "the due job is claimed");
    for (worker, now) in [(B, NOW + 1_000), (A, NOW + 10_000), (B, LEASE)] {
        let again = claim(store, worker, now, now + 30_000, 10).await;
        assert_eq!(
            ids_of(&again),
            vec![],
            "a job whose lease holds (locked_until >= now) must not be claimed again \
             ({worker} at lease end - {} ms)",
            LEASE - now
        );
    }
    assert_eq!(
        get(store, j.id).await,
        claimed(&j, A, LEASE),
        "refused claims must not change the held job"
    );
}

/// Once its lease has ended (`locked_until < now`), a running job is claimed by another worker:
/// `attempts` 2, the new holder and lease; the old holder can no longer complete it.
pub async fn expired_lease_is_reclaimed_by_another_worker(store: &dyn Store) {
    let ids = IdGenerator::default();
    let j = enqueue(store, job(&ids, "deliver", NOW - 1_000)).await;
    claim(store, A, NOW, LEASE, 10).await;
    let new_lease = LEASE + 60_000;
    let got = claim(store, B, LEASE + 1, new_lease, 10).await;
    let expected = JobRecord {
        state: JobState::Running,
        attempts: 2,
        locked_by: Some(B.into()),
        locked_until: Some(at(new_lease)),
        ..j.clone()
    };
    assert_eq!(
        got,
        vec![expected.clone()],
        "a running job whose lease ended must be claimed by the next claim: attempts 2, \
         locked_by the new worker, locked_until the new lease"
    );
    assert_eq!(get(store, j.id).await, expected, "the takeover is stored");
    let stale = store
        .complete_job(j.id, A, at(LEASE + 2))
        .await
        .expect("complete_job");
    assert!(
        !stale,
        "the worker whose lease ended and was taken over no longer holds the job: complete_job \
         must be false"
    );
    assert_eq!(
        get(store, j.id).await,
        expected,
        "a refused complete_job must not change the job"
    );
}

/// Two claims racing (two workers, `limit` 5 each, over 10 due jobs) never return one job
/// twice; every job is claimed exactly once, by the worker whose claim returned it.
pub async fn concurrent_claims_never_return_one_job_twice(store: &dyn Store) {
    let ids = IdGenerator::default();
    for round in 0..4i64 {
        let now = NOW + round * 100_000;
        let mut due = BTreeSet::new();
        for i in 0..10 {
            due.insert(
                enqueue(store, job(&ids, "deliver", now - 10_000 + i * 100))
                    .await
                    .id,
            );
        }
        let (a, b) = tokio::join!(
            store.claim_jobs(A, at(now), at(now + 30_000), 5),
            store.claim_jobs(B, at(now), at(now + 30_000), 5)
        );
        let (a, b) = (a.expect("claim_jobs"), b.expect("claim_jobs"));
        let (a_ids, b_ids): (BTreeSet<Id>, BTreeSet<Id>) = (
            ids_of(&a).into_iter().collect(),
            ids_of(&b).into_iter().collect(),
        );
        assert!(
            a.len() <= 5 && b.len() <= 5 && a_ids.len() == a.len() && b_ids.len() == b.len(),
            "each racing claim returns at most `limit` distinct jobs (round {round}): {} and {}",
            a.len(),
            b.len()
        );
        let both: Vec<&Id> = a_ids.intersection(&b_ids).collect();
        assert!(
            both.is_empty(),
            "concurrent claims must never return one job twice (round {round}): {both:?} went to both workers"
        );
        let rest = claim(store, "worker-c", now, now + 30_000, 10).await;
        let mut all: Vec<Id> = ids_of(&a);
        all.extend(ids_of(&b));
        all.extend(ids_of(&rest));
        assert_eq!(
            sorted(all),
            due.iter().copied().collect::<Vec<_>>(),
            "every due job must be claimed exactly once across the racing claims and a final one (round {round})"
        );
        for (worker, jobs) in [(A, &a), (B, &b), ("worker-c", &rest)] {
            for j in jobs.iter() {
                let stored = get(store, j.id).await;
                assert!(
                    stored.attempts == 1 && stored.locked_by.as_deref() == Some(worker),
                    "a job is held by the worker whose claim returned it, claimed once (round {round}): {stored:?}"
                );
                let done = store
                    .complete_job(j.id, worker, at(now + 1_000))
                    .await
                    .expect("complete_job");
                assert!(done, "the holder completes its job (round {round})");
            }
        }
    }
}

/// The holder completes its job: `true`, the job is `Done` at `at` with its lock cleared and
/// everything else kept; completing it again is `false`, and it is never claimed again.
pub async fn complete_by_holder_marks_done(store: &dyn Store) {
    let ids = IdGenerator::default();
    let j = enqueue(store, job(&ids, "deliver", NOW - 1_000)).await;
    claim(store, A, NOW, LEASE, 10).await;
    let done = store
        .complete_job(j.id, A, at(NOW + 5_123))
        .await
        .expect("complete_job");
    assert!(done, "complete_job by the holder must be true");
    let expected = JobRecord {
        state: JobState::Done,
        attempts: 1,
        finished_at: Some(at(NOW + 5_123)),
        ..j.clone()
    };
    assert_eq!(
        get(store, j.id).await,
        expected,
        "a completed job is Done with finished_at = at, locked_by and locked_until cleared"
    );
    let again = store
        .complete_job(j.id, A, at(NOW + 6_000))
        .await
        .expect("complete_job");
    assert!(
        !again,
        "a Done job is held by no one: completing it again must be false"
    );
    assert_eq!(get(store, j.id).await, expected, "and must not change it");
    let later = claim(store, B, LEASE + 100_000, LEASE + 200_000, 10).await;
    assert_eq!(ids_of(&later), vec![], "a Done job is never claimed");
}

/// Only the holder may complete a job: another worker, a job never claimed, an unknown id are
/// all `false` and change nothing.
pub async fn complete_by_another_worker_is_refused(store: &dyn Store) {
    let ids = IdGenerator::default();
    let held = enqueue(store, job(&ids, "deliver", NOW - 1_000)).await;
    let queued = enqueue(store, job(&ids, "deliver", NOW + 60_000)).await;
    claim(store, A, NOW, LEASE, 10).await;
    let held = claimed(&held, A, LEASE);
    let r = store
        .complete_job(held.id, B, at(NOW + 1_000))
        .await
        .expect("complete_job");
    assert!(
        !r,
        "complete_job by a worker that does not hold the job must be false"
    );
    assert_eq!(
        get(store, held.id).await,
        held,
        "a refused complete_job must leave the job running with its holder"
    );
    let r = store
        .complete_job(queued.id, A, at(NOW + 1_000))
        .await
        .expect("complete_job");
    assert!(
        !r,
        "complete_job of a queued job (held by no one) must be false"
    );
    assert_eq!(
        get(store, queued.id).await,
        queued,
        "and must not change it"
    );
    let r = store
        .complete_job(ids.next_at(T0), A, at(NOW + 1_000))
        .await
        .expect("complete_job of an unknown id is Ok(false), not an error");
    assert!(!r, "complete_job of an unknown id must be false");
}

/// A failure with `retry_at`: `true`, the job is `Queued` at `retry_at` with `last_error` set,
/// its lock cleared and its attempts kept; it is not claimable before `retry_at`, and then is
/// (attempt 2).
pub async fn fail_with_retry_requeues_at_retry_at(store: &dyn Store) {
    let ids = IdGenerator::default();
    let j = enqueue(store, job(&ids, "deliver", NOW - 1_000)).await;
    claim(store, A, NOW, LEASE, 10).await;
    let retry_at = NOW + 60_000;
    let r = store
        .fail_job(j.id, A, "HTTP 503", Some(at(retry_at)), at(NOW + 1_000))
        .await
        .expect("fail_job");
    assert!(r, "fail_job by the holder must be true");
    let expected = JobRecord {
        run_at: at(retry_at),
        attempts: 1,
        last_error: Some("HTTP 503".into()),
        ..j.clone()
    };
    assert_eq!(
        get(store, j.id).await,
        expected,
        "a failure with retry_at makes the job Queued at run_at = retry_at, last_error set, \
         locked_by/locked_until cleared, attempts kept, finished_at unset"
    );
    let early = claim(store, B, retry_at - 1, retry_at + 30_000, 10).await;
    assert_eq!(
        ids_of(&early),
        vec![],
        "a job to retry is not claimable before retry_at"
    );
    let due = claim(store, B, retry_at, retry_at + 30_000, 10).await;
    assert_eq!(
        due,
        vec![claimed(&expected, B, retry_at + 30_000)],
        "a job to retry is claimable from retry_at on: attempt 2, last_error kept"
    );
}

/// A failure without `retry_at`: `true`, the job is `Dead` with `finished_at = now`,
/// `last_error` set and its lock cleared; it is never claimed again.
pub async fn fail_without_retry_is_dead(store: &dyn Store) {
    let ids = IdGenerator::default();
    let j = enqueue(store, job(&ids, "deliver", NOW - 1_000)).await;
    claim(store, A, NOW, LEASE, 10).await;
    let r = store
        .fail_job(j.id, A, "invalid payload", None, at(NOW + 2_345))
        .await
        .expect("fail_job");
    assert!(r, "fail_job by the holder must be true");
    let expected = JobRecord {
        state: JobState::Dead,
        attempts: 1,
        last_error: Some("invalid payload".into()),
        finished_at: Some(at(NOW + 2_345)),
        ..j.clone()
    };
    assert_eq!(
        get(store, j.id).await,
        expected,
        "a failure without retry_at makes the job Dead with finished_at = now, last_error set, \
         locked_by/locked_until cleared, run_at kept"
    );
    let later = claim(store, B, LEASE + 100_000, LEASE + 200_000, 10).await;
    assert_eq!(ids_of(&later), vec![], "a Dead job is never claimed");
}

/// Only the holder may fail a job: another worker (with or without retry), a job never
/// claimed, an unknown id are all `false` and change nothing.
pub async fn fail_by_non_holder_is_refused(store: &dyn Store) {
    let ids = IdGenerator::default();
    let held = enqueue(store, job(&ids, "deliver", NOW - 1_000)).await;
    let queued = enqueue(store, job(&ids, "deliver", NOW + 60_000)).await;
    claim(store, A, NOW, LEASE, 10).await;
    let held = claimed(&held, A, LEASE);
    for retry in [Some(at(NOW + 5_000)), None] {
        let r = store
            .fail_job(held.id, B, "not mine", retry, at(NOW + 1_000))
            .await
            .expect("fail_job");
        assert!(
            !r,
            "fail_job by a worker that does not hold the job must be false (retry_at {retry:?})"
        );
        assert_eq!(
            get(store, held.id).await,
            held,
            "a refused fail_job must leave the job running with its holder"
        );
    }
    let r = store
        .fail_job(queued.id, A, "not held", None, at(NOW + 1_000))
        .await
        .expect("fail_job");
    assert!(
        !r,
        "fail_job of a queued job (held by no one) must be false"
    );
    assert_eq!(
        get(store, queued.id).await,
        queued,
        "and must not change it"
    );
    let r = store
        .fail_job(ids.next_at(T0), A, "unknown", None, at(NOW + 1_000))
        .await
        .expect("fail_job of an unknown id is Ok(false), not an error");
    assert!(!r, "fail_job of an unknown id must be false");
}

/// `reschedule_job` moves a `Queued` job (it is then due at the new `run_at` only) and nothing
/// else: running, done and dead jobs and unknown ids are `false` and unchanged.
pub async fn reschedule_moves_only_queued_jobs(store: &dyn Store) {
    let ids = IdGenerator::default();
    let queued = enqueue(store, job(&ids, "deliver", NOW + 10_000)).await;
    let running = enqueue(store, job(&ids, "deliver", NOW - 1_000)).await;
    let done = enqueue(store, in_state(&ids, JobState::Done, NOW - 5_000)).await;
    let dead = enqueue(store, in_state(&ids, JobState::Dead, NOW - 5_000)).await;
    let far = NOW + 1_000_000;
    claim(store, A, NOW, far, 10).await;
    let running = claimed(&running, A, far);
    let moved_to = NOW + 50_000;
    let r = store
        .reschedule_job(queued.id, at(moved_to))
        .await
        .expect("reschedule_job");
    assert!(r, "reschedule_job of a queued job must be true");
    let moved = JobRecord {
        run_at: at(moved_to),
        ..queued.clone()
    };
    assert_eq!(
        get(store, queued.id).await,
        moved,
        "reschedule_job sets run_at and nothing else"
    );
    for j in [&running, &done, &dead] {
        let r = store
            .reschedule_job(j.id, at(NOW + 20_000))
            .await
            .expect("reschedule_job");
        assert!(!r, "reschedule_job of a {:?} job must be false", j.state);
        assert_eq!(
            &get(store, j.id).await,
            j,
            "reschedule_job must not move a {:?} job",
            j.state
        );
    }
    let r = store
        .reschedule_job(ids.next_at(T0), at(NOW))
        .await
        .expect("reschedule_job of an unknown id is Ok(false), not an error");
    assert!(!r, "reschedule_job of an unknown id must be false");
    let before = claim(store, B, NOW + 20_000, far, 10).await;
    assert_eq!(
        ids_of(&before),
        vec![],
        "a rescheduled job is not due at its old run_at"
    );
    let after = claim(store, B, moved_to, far, 10).await;
    assert_eq!(
        ids_of(&after),
        vec![queued.id],
        "a rescheduled job is due at its new run_at"
    );
}

/// `cancel_job` removes a `Queued` job (then `false` again) and nothing else: running, done and
/// dead jobs and unknown ids are `false` and stay.
pub async fn cancel_removes_only_queued_jobs(store: &dyn Store) {
    let ids = IdGenerator::default();
    let queued = enqueue(store, job(&ids, "deliver", NOW + 10_000)).await;
    let other = enqueue(store, job(&ids, "deliver", NOW + 20_000)).await;
    let running = enqueue(store, job(&ids, "deliver", NOW - 1_000)).await;
    let done = enqueue(store, in_state(&ids, JobState::Done, NOW - 5_000)).await;
    let dead = enqueue(store, in_state(&ids, JobState::Dead, NOW - 5_000)).await;
    claim(store, A, NOW, LEASE, 10).await;
    let running = claimed(&running, A, LEASE);
    let r = store.cancel_job(queued.id).await.expect("cancel_job");
    assert!(r, "cancel_job of a queued job must be true");
    let gone = store.job_by_id(queued.id).await.expect("job_by_id");
    assert_eq!(gone, None, "a cancelled job is removed");
    let r = store.cancel_job(queued.id).await.expect("cancel_job");
    assert!(!r, "cancelling a cancelled job again must be false");
    for j in [&running, &done, &dead] {
        let r = store.cancel_job(j.id).await.expect("cancel_job");
        assert!(!r, "cancel_job of a {:?} job must be false", j.state);
        assert_eq!(
            &get(store, j.id).await,
            j,
            "cancel_job must not touch a {:?} job",
            j.state
        );
    }
    assert_eq!(
        get(store, other.id).await,
        other,
        "cancel_job removes that job only"
    );
    let r = store
        .cancel_job(ids.next_at(T0))
        .await
        .expect("cancel_job of an unknown id is Ok(false), not an error");
    assert!(!r, "cancel_job of an unknown id must be false");
}

/// `purge_done_jobs` removes the `Done` jobs that finished strictly before the cutoff and counts
/// them; done jobs finished at or after it, dead, queued and running jobs stay.
pub async fn purge_removes_only_done_jobs_finished_before_cutoff(store: &dyn Store) {
    let ids = IdGenerator::default();
    let cut = NOW;
    let finished = |millis: i64| JobRecord {
        state: JobState::Done,
        attempts: 1,
        finished_at: Some(at(millis)),
        ..job(&ids, "deliver", millis - 1_000)
    };
    let old1 = enqueue(store, finished(cut - 5_000)).await;
    let old2 = enqueue(store, finished(cut - 1)).await;
    let at_cut = enqueue(store, finished(cut)).await;
    let newer = enqueue(store, finished(cut + 1_000)).await;
    let dead = enqueue(
        store,
        JobRecord {
            finished_at: Some(at(cut - 5_000)),
            ..in_state(&ids, JobState::Dead, cut - 6_000)
        },
    )
    .await;
    let queued = enqueue(store, job(&ids, "deliver", cut - 7_000)).await;
    let running = enqueue(store, in_state(&ids, JobState::Running, cut - 7_000)).await;
    // And one that went through a claim and a completion.
    let worked = enqueue(store, job(&ids, "fan_out", NOW - 90_000)).await;
    claim(store, A, NOW - 80_000, NOW - 70_000, 10).await;
    let ok = store
        .complete_job(worked.id, A, at(cut - 2_000))
        .await
        .expect("complete_job");
    assert!(ok, "the holder completes its job");
    let n = store
        .purge_done_jobs(at(cut))
        .await
        .expect("purge_done_jobs");
    assert_eq!(
        n, 3,
        "purge_done_jobs must remove and count the 3 Done jobs with finished_at < before"
    );
    for j in [&old1, &old2, &worked] {
        let got = store.job_by_id(j.id).await.expect("job_by_id");
        assert_eq!(got, None, "a Done job finished before the cutoff is purged");
    }
    for j in [&at_cut, &newer, &dead, &queued, &running] {
        assert_eq!(
            &get(store, j.id).await,
            j,
            "purge_done_jobs keeps {:?} jobs (finished_at {:?}) unless Done and finished before the cutoff",
            j.state,
            j.finished_at
        );
    }
    let n = store
        .purge_done_jobs(at(cut))
        .await
        .expect("purge_done_jobs");
    assert_eq!(n, 0, "a second purge with the same cutoff removes nothing");
}

/// `count_jobs` counts the jobs in one state, following claims and completions.
pub async fn count_jobs_per_state(store: &dyn Store) {
    let ids = IdGenerator::default();
    let counts = move || async move {
        let mut v = vec![];
        for s in [
            JobState::Queued,
            JobState::Running,
            JobState::Done,
            JobState::Dead,
        ] {
            v.push(store.count_jobs(s).await.expect("count_jobs"));
        }
        v
    };
    assert_eq!(
        counts().await,
        vec![0, 0, 0, 0],
        "an empty store has no jobs"
    );
    let first = enqueue(store, job(&ids, "deliver", NOW - 3_000)).await;
    for offset in [10_000, 20_000] {
        enqueue(store, job(&ids, "deliver", NOW + offset)).await;
    }
    for _ in 0..2 {
        enqueue(store, in_state(&ids, JobState::Done, NOW - 5_000)).await;
    }
    enqueue(store, in_state(&ids, JobState::Dead, NOW - 5_000)).await;
    assert_eq!(
        counts().await,
        vec![3, 0, 2, 1],
        "count_jobs per state [queued, running, done, dead]"
    );
    claim(store, A, NOW, LEASE, 10).await;
    assert_eq!(
        counts().await,
        vec![2, 1, 2, 1],
        "count_jobs after one claim [queued, running, done, dead]"
    );
    let ok = store
        .complete_job(first.id, A, at(NOW + 1_000))
        .await
        .expect("complete_job");
    assert!(ok, "the holder completes its job");
    assert_eq!(
        counts().await,
        vec![2, 0, 3, 1],
        "count_jobs after the completion [queued, running, done, dead]"
    );
}

/// `release_jobs` hands back the jobs a stopping worker claimed and did not start: each job of
/// the ids that the worker holds is `Queued` again at its `run_at`, lock cleared, the claim's
/// attempt given back (`last_error` and the rest kept), and claimable at once by another worker,
/// long before the lease would have ended. Jobs it does not hold (another worker's, one taken
/// over after its lease ended, one it finished, an unknown id) are untouched and not counted;
/// another worker cannot release its jobs; releasing twice releases nothing more.
/// Without [`Capability::ReleasesJobs`] (the trait's default), the weaker promise: releasing
/// touches nothing and counts nothing, so the jobs wait for their leases.
pub async fn release_hands_back_only_the_workers_unstarted_jobs(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let ids = IdGenerator::default();
    let finished = enqueue(store, job(&ids, "deliver", NOW - 5_000)).await;
    let fresh = enqueue(store, job(&ids, "deliver", NOW - 4_000)).await;
    let retried = enqueue(
        store,
        JobRecord {
            attempts: 2,
            last_error: Some("connection refused".into()),
            ..job(&ids, "deliver", NOW - 3_000)
        },
    )
    .await;
    // Due long ago: A claimed it once, its lease ended, and C took it over.
    let taken_over = enqueue(store, job(&ids, "deliver", NOW - 70_000)).await;
    let others = enqueue(store, job(&ids, "deliver", NOW - 1_000)).await;
    let early = claim(store, A, NOW - 60_000, NOW - 30_000, 1).await;
    assert_eq!(ids_of(&early), vec![taken_over.id], "A's earlier claim");
    let c_got = claim(store, "worker-c", NOW, LEASE, 1).await;
    assert_eq!(
        ids_of(&c_got),
        vec![taken_over.id],
        "C takes over the job whose lease of A's ended"
    );
    let got = claim(store, A, NOW, LEASE, 3).await;
    assert_eq!(
        ids_of(&got),
        vec![finished.id, fresh.id, retried.id],
        "A claims the three oldest due jobs"
    );
    let b_got = claim(store, B, NOW, LEASE, 10).await;
    assert_eq!(ids_of(&b_got), vec![others.id], "B claims the last one");
    let done = store
        .complete_job(finished.id, A, at(NOW + 1_000))
        .await
        .expect("complete_job");
    assert!(done, "A completes its first job");
    let before = [
        get(store, finished.id).await,
        get(store, fresh.id).await,
        get(store, retried.id).await,
        get(store, taken_over.id).await,
        get(store, others.id).await,
    ];

    let all = [
        finished.id,
        fresh.id,
        retried.id,
        taken_over.id,
        others.id,
        ids.next_at(T0),
    ];
    if !capabilities.has(Capability::ReleasesJobs) {
        for worker in [A, B] {
            let n = store
                .release_jobs(&all, worker)
                .await
                .unwrap_or_else(|e| panic!("release_jobs failed: {e:?}"));
            assert_eq!(
                n, 0,
                "a store that does not release jobs counts none (or claim ReleasesJobs)"
            );
        }
        for j in &before {
            assert_eq!(
                &get(store, j.id).await,
                j,
                "a store that does not release jobs leaves them as they are"
            );
        }
        return;
    }
    let n = store
        .release_jobs(&all, B)
        .await
        .unwrap_or_else(|e| panic!("release_jobs failed: {e:?}"));
    assert_eq!(
        n, 1,
        "release_jobs by B releases only the job B holds, not A's or C's, and counts it"
    );
    // `others` was enqueued with no attempt: released, it is as enqueued again.
    let b_released = others.clone();
    assert_eq!(
        get(store, others.id).await,
        b_released,
        "a released job is Queued at its run_at, locked_by/locked_until cleared, its claim's \
         attempt given back"
    );
    for j in &before[..4] {
        assert_eq!(
            &get(store, j.id).await,
            j,
            "release_jobs by B must not touch a job B does not hold ({:?}, held by {:?})",
            j.state,
            j.locked_by
        );
    }

    let n = store
        .release_jobs(&all, A)
        .await
        .unwrap_or_else(|e| panic!("release_jobs failed: {e:?}"));
    assert_eq!(
        n, 2,
        "release_jobs by A releases the two jobs A holds and has not finished: not the one it \
         completed, the one C took over, or a queued or unknown one"
    );
    let expected = [fresh.clone(), retried.clone()];
    for e in &expected {
        assert_eq!(
            &get(store, e.id).await,
            e,
            "a released job is Queued at its run_at with locked_by/locked_until cleared and \
             attempts as before the claim (not charged), last_error kept"
        );
    }
    assert_eq!(
        get(store, finished.id).await,
        before[0],
        "release_jobs must not touch a job its worker finished"
    );
    assert_eq!(
        get(store, taken_over.id).await,
        before[3],
        "release_jobs must not touch a job another worker took over after the lease ended"
    );
    let again = store
        .release_jobs(&all, A)
        .await
        .unwrap_or_else(|e| panic!("release_jobs failed: {e:?}"));
    assert_eq!(again, 0, "releasing the same jobs again releases nothing");
    let none = store
        .release_jobs(&[], A)
        .await
        .unwrap_or_else(|e| panic!("release_jobs(&[]) failed: {e:?}"));
    assert_eq!(none, 0, "release_jobs of no ids releases nothing");

    // Long before A's lease would have ended, another worker claims them: attempt 1 and 3.
    let lease = NOW + 2_000 + 30_000;
    let reclaimed = claim(store, B, NOW + 2_000, lease, 10).await;
    assert_eq!(
        reclaimed,
        vec![
            claimed(&fresh, B, lease),
            claimed(&retried, B, lease),
            claimed(&b_released, B, lease)
        ],
        "released jobs are claimable at once (oldest run_at first), attempts counting from \
         where they were before the released claim"
    );
}
