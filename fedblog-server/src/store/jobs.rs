//! `JobStore` for `SeaStore`: the durable job queue, shared safely by worker processes on one
//! database. Claims take a lease in one atomic statement (the only engine-specific SQL of the
//! store, in [`SeaStore::claim_rows`]); every other transition is one conditional statement.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use fedblog_core::store::{JobRecord, JobState, JobStore};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ColumnTrait, DbBackend, EntityTrait, PaginatorTrait, QueryFilter, Statement, Value};

use super::entity::jobs;
use super::{SeaStore, backend_err, finish};

fn job_row(j: &JobRecord) -> jobs::ActiveModel {
    jobs::ActiveModel {
        id: Set(j.id.as_i64()),
        kind: Set(j.kind.clone()),
        payload: Set(j.payload.clone()),
        run_at: Set(j.run_at),
        state: Set(j.state.as_str().to_string()),
        attempts: Set(j.attempts),
        max_attempts: Set(j.max_attempts),
        locked_by: Set(j.locked_by.clone()),
        locked_until: Set(j.locked_until),
        last_error: Set(j.last_error.clone()),
        created_at: Set(j.created_at),
        finished_at: Set(j.finished_at),
    }
}

fn job_from_row(m: jobs::Model) -> StoreResult<JobRecord> {
    let state = JobState::parse(&m.state).ok_or_else(|| {
        StoreError::Backend(format!("unknown job state {:?} in jobs.state", m.state))
    })?;
    Ok(JobRecord {
        id: Id::from_i64(m.id),
        kind: m.kind,
        payload: m.payload,
        run_at: m.run_at,
        state,
        attempts: m.attempts,
        max_attempts: m.max_attempts,
        locked_by: m.locked_by,
        locked_until: m.locked_until,
        last_error: m.last_error,
        created_at: m.created_at,
        finished_at: m.finished_at,
    })
}

/// Claims due jobs with `UPDATE ... WHERE id IN (SELECT ... LIMIT n) RETURNING *` on PostgreSQL:
/// the subquery locks the rows it picks and skips rows another claim has locked, so concurrent
/// claims (from any process) take disjoint sets, and a row whose lease another claim renewed
/// meanwhile fails the re-check of the `WHERE` clause that `FOR UPDATE` does.
/// The state literals are `JobState::as_str` names (checked by a unit test below).
const CLAIM_POSTGRES: &str = "\
UPDATE jobs SET state = 'running', attempts = attempts + 1, locked_by = $1, locked_until = $2 \
WHERE id IN (\
SELECT id FROM jobs \
WHERE (state = 'queued' AND run_at <= $3) OR (state = 'running' AND locked_until < $3) \
ORDER BY run_at, id \
LIMIT $4 \
FOR UPDATE SKIP LOCKED) \
RETURNING *";

/// The same claim on SQLite, which has no row locks (`FOR UPDATE` is a syntax error there). It
/// runs inside a `BEGIN IMMEDIATE` transaction: SQLite admits one writer at a time and the
/// transaction takes the write lock before it reads, so no other claim can run between the
/// subquery's read and the update.
const CLAIM_SQLITE: &str = "\
UPDATE jobs SET state = 'running', attempts = attempts + 1, locked_by = ?, locked_until = ? \
WHERE id IN (\
SELECT id FROM jobs \
WHERE (state = 'queued' AND run_at <= ?) OR (state = 'running' AND locked_until < ?) \
ORDER BY run_at, id \
LIMIT ?) \
RETURNING *";

impl SeaStore {
    /// Claims up to `limit` due jobs for `worker` in one atomic statement and returns the claimed
    /// rows (in no particular order).
    ///
    /// **Engine-specific SQL lives here and only here** (see [`CLAIM_POSTGRES`] and
    /// [`CLAIM_SQLITE`]): PostgreSQL runs one `UPDATE` whose subquery is `FOR UPDATE SKIP
    /// LOCKED`; SQLite runs the same `UPDATE` without the lock clause inside a write
    /// transaction. Both are safe with several processes on one database.
    async fn claim_rows(
        &self,
        worker: &str,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: i64,
    ) -> StoreResult<Vec<jobs::Model>> {
        match self.db.get_database_backend() {
            DbBackend::Postgres => {
                let values: [Value; 4] =
                    [worker.into(), lease_until.into(), now.into(), limit.into()];
                let stmt =
                    Statement::from_sql_and_values(DbBackend::Postgres, CLAIM_POSTGRES, values);
                // One statement, atomic on its own: no transaction needed.
                jobs::Entity::find()
                    .from_raw_sql(stmt)
                    .all(&self.db)
                    .await
                    .map_err(backend_err)
            }
            DbBackend::Sqlite => {
                let values: [Value; 5] = [
                    worker.into(),
                    lease_until.into(),
                    now.into(),
                    now.into(),
                    limit.into(),
                ];
                let stmt = Statement::from_sql_and_values(DbBackend::Sqlite, CLAIM_SQLITE, values);
                let tx = self.begin_write().await?;
                let res = jobs::Entity::find()
                    .from_raw_sql(stmt)
                    .all(&tx)
                    .await
                    .map_err(backend_err);
                finish(tx, res).await
            }
            other => Err(StoreError::Backend(format!(
                "claim_jobs: unsupported database backend {other:?}"
            ))),
        }
    }
}

/// `id = ? AND state = 'running' AND locked_by = ?`: the job is held by `worker`.
fn held_by(id: Id, worker: &str) -> sea_orm::Condition {
    sea_orm::Condition::all()
        .add(jobs::Column::Id.eq(id.as_i64()))
        .add(jobs::Column::State.eq(JobState::Running.as_str()))
        .add(jobs::Column::LockedBy.eq(worker))
}

#[async_trait]
impl JobStore for SeaStore {
    async fn enqueue_job(&self, job: &JobRecord) -> StoreResult<()> {
        jobs::Entity::insert(job_row(job))
            .exec_without_returning(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(())
    }

    async fn claim_jobs(
        &self,
        worker: &str,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> StoreResult<Vec<JobRecord>> {
        if limit == 0 {
            return Ok(vec![]);
        }
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self.claim_rows(worker, now, lease_until, limit).await?;
        let mut claimed = rows
            .into_iter()
            .map(job_from_row)
            .collect::<StoreResult<Vec<_>>>()?;
        // `RETURNING` promises no order: oldest `run_at` first, as they were picked.
        claimed.sort_by_key(|j| (j.run_at, j.id));
        Ok(claimed)
    }

    async fn complete_job(&self, id: Id, worker: &str, at: DateTime<Utc>) -> StoreResult<bool> {
        let res = jobs::Entity::update_many()
            .set(jobs::ActiveModel {
                state: Set(JobState::Done.as_str().to_string()),
                locked_by: Set(None),
                locked_until: Set(None),
                finished_at: Set(Some(at)),
                ..Default::default()
            })
            .filter(held_by(id, worker))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn fail_job(
        &self,
        id: Id,
        worker: &str,
        error: &str,
        retry_at: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> StoreResult<bool> {
        let mut row = jobs::ActiveModel {
            last_error: Set(Some(error.to_string())),
            locked_by: Set(None),
            locked_until: Set(None),
            ..Default::default()
        };
        match retry_at {
            Some(t) => {
                row.state = Set(JobState::Queued.as_str().to_string());
                row.run_at = Set(t);
            }
            None => {
                row.state = Set(JobState::Dead.as_str().to_string());
                row.finished_at = Set(Some(now));
            }
        }
        let res = jobs::Entity::update_many()
            .set(row)
            .filter(held_by(id, worker))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn release_jobs(&self, ids: &[Id], worker: &str) -> StoreResult<u64> {
        if ids.is_empty() {
            return Ok(0);
        }
        // One conditional statement: a job taken over meanwhile (its `locked_by` changed) or
        // finished is not touched. The claim's attempt is given back, never below zero.
        let attempts = Expr::col(jobs::Column::Attempts);
        let res = jobs::Entity::update_many()
            .set(jobs::ActiveModel {
                state: Set(JobState::Queued.as_str().to_string()),
                locked_by: Set(None),
                locked_until: Set(None),
                ..Default::default()
            })
            .col_expr(
                jobs::Column::Attempts,
                Expr::case(attempts.clone().gt(0), attempts.sub(1))
                    .finally(0)
                    .into(),
            )
            .filter(jobs::Column::Id.is_in(ids.iter().map(|id| id.as_i64())))
            .filter(jobs::Column::State.eq(JobState::Running.as_str()))
            .filter(jobs::Column::LockedBy.eq(worker))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected)
    }

    async fn job_by_id(&self, id: Id) -> StoreResult<Option<JobRecord>> {
        jobs::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(job_from_row)
            .transpose()
    }

    async fn reschedule_job(&self, id: Id, run_at: DateTime<Utc>) -> StoreResult<bool> {
        let res = jobs::Entity::update_many()
            .set(jobs::ActiveModel {
                run_at: Set(run_at),
                ..Default::default()
            })
            .filter(jobs::Column::Id.eq(id.as_i64()))
            .filter(jobs::Column::State.eq(JobState::Queued.as_str()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn cancel_job(&self, id: Id) -> StoreResult<bool> {
        let res = jobs::Entity::delete_many()
            .filter(jobs::Column::Id.eq(id.as_i64()))
            .filter(jobs::Column::State.eq(JobState::Queued.as_str()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn purge_done_jobs(&self, before: DateTime<Utc>) -> StoreResult<u64> {
        let res = jobs::Entity::delete_many()
            .filter(jobs::Column::State.eq(JobState::Done.as_str()))
            .filter(jobs::Column::FinishedAt.lt(before))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected)
    }

    async fn count_jobs(&self, state: JobState) -> StoreResult<i64> {
        let n = jobs::Entity::find()
            .filter(jobs::Column::State.eq(state.as_str()))
            .count(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(n as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claim_statements_use_the_stored_state_names() {
        for sql in [CLAIM_POSTGRES, CLAIM_SQLITE] {
            assert!(sql.contains(&format!("state = '{}'", JobState::Running.as_str())));
            assert!(sql.contains(&format!("state = '{}'", JobState::Queued.as_str())));
        }
        assert!(CLAIM_POSTGRES.contains("FOR UPDATE SKIP LOCKED"));
        assert!(!CLAIM_SQLITE.contains("FOR UPDATE"));
    }
}
