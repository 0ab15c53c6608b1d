//! [`PgChangeLog`]: how server processes sharing a PostgreSQL database tell each other that they
//! wrote, so that each one's [`CachedStore`](fedblog_core::store::cached::CachedStore) forgets
//! what another changed. The log is the `fedblog_changes` sequence: a write takes its next
//! number, and a look reads the newest number taken by anyone (sequences are not transactional,
//! so a number taken is seen by every session at once, and a look costs no lock).

use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use async_trait::async_trait;
use fedblog_core::store::cached::{CHANGE_LOOK_INTERVAL, ChangeLog};
use fedblog_core::{StoreError, StoreResult};
use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, Statement};

const RECORD: &str = "SELECT nextval('fedblog_changes') AS n";
const NEWEST: &str =
    "SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS n FROM fedblog_changes";

/// The change log on the `fedblog_changes` sequence (migration m0019).
pub struct PgChangeLog {
    db: DatabaseConnection,
    /// When this process last took a number.
    last_record: Mutex<Option<Instant>>,
}

impl PgChangeLog {
    /// The log of the PostgreSQL database `db` is connected to.
    pub fn new(db: DatabaseConnection) -> Self {
        PgChangeLog {
            db,
            last_record: Mutex::new(None),
        }
    }

    async fn number(&self, sql: &str) -> StoreResult<u64> {
        let row = self
            .db
            .query_one_raw(Statement::from_string(DbBackend::Postgres, sql))
            .await
            .map_err(|e| StoreError::Backend(e.to_string()))?
            .ok_or_else(|| StoreError::Backend("the change log returned no row".into()))?;
        let n: i64 = row
            .try_get("", "n")
            .map_err(|e| StoreError::Backend(e.to_string()))?;
        Ok(n.max(0) as u64)
    }
}

#[async_trait]
impl ChangeLog for PgChangeLog {
    async fn record(&self) -> StoreResult<u64> {
        let n = self.number(RECORD).await?;
        *self
            .last_record
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(Instant::now());
        Ok(n)
    }

    async fn newest(&self) -> StoreResult<u64> {
        self.number(NEWEST).await
    }

    /// Waits until one look interval has passed since this process last took a number (the
    /// timer rounds up, never down): every process's next look then begins after it, so a
    /// request made once this one is answered sees its writes wherever it goes.
    async fn settle(&self) {
        let last = *self
            .last_record
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(at) = last {
            let until = at + CHANGE_LOOK_INTERVAL;
            if until > Instant::now() {
                tokio::time::sleep_until(until.into()).await;
            }
        }
    }
}
