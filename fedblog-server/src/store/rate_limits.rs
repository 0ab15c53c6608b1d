//! Rate-limit counters in the database (`rate_limit_counters`): one upsert per hit, so every
//! process of a deployment sharing the database shares the counts.

use std::sync::atomic::{AtomicU64, Ordering};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use fedblog_core::rate_limit::RateLimiter;
use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, Statement, Value};

use super::SeaStore;

/// Hits between two sweeps of expired counters.
const SWEEP_EVERY: u64 = 1000;

/// Counters in the store's database.
pub struct DbRateLimiter {
    db: DatabaseConnection,
    hits: AtomicU64,
}

impl SeaStore {
    /// Rate-limit counters kept in this store's database.
    pub fn rate_limiter(&self) -> DbRateLimiter {
        DbRateLimiter {
            db: self.db.clone(),
            hits: AtomicU64::new(0),
        }
    }
}

/// The same upsert on both engines (SQLite has had `ON CONFLICT ... RETURNING` since 3.35); only
/// the placeholders differ.
fn upsert(backend: DbBackend) -> &'static str {
    match backend {
        DbBackend::Postgres => {
            "INSERT INTO rate_limit_counters (counter_key, count, expires_at) VALUES ($1, $2, $3) \
             ON CONFLICT (counter_key) DO UPDATE SET count = rate_limit_counters.count + excluded.count, \
             expires_at = excluded.expires_at RETURNING count"
        }
        _ => {
            "INSERT INTO rate_limit_counters (counter_key, count, expires_at) VALUES (?, ?, ?) \
             ON CONFLICT (counter_key) DO UPDATE SET count = rate_limit_counters.count + excluded.count, \
             expires_at = excluded.expires_at RETURNING count"
        }
    }
}

fn sweep(backend: DbBackend) -> &'static str {
    match backend {
        DbBackend::Postgres => "DELETE FROM rate_limit_counters WHERE expires_at < $1",
        _ => "DELETE FROM rate_limit_counters WHERE expires_at < ?",
    }
}

#[async_trait]
impl RateLimiter for DbRateLimiter {
    async fn add(&self, key: &str, delta: i64, expires_at: DateTime<Utc>) -> Result<i64, String> {
        let backend = self.db.get_database_backend();
        if self.hits.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            let values: [Value; 1] = [Utc::now().into()];
            if let Err(e) = self
                .db
                .execute_raw(Statement::from_sql_and_values(
                    backend,
                    sweep(backend),
                    values,
                ))
                .await
            {
                tracing::warn!(error = %e, "sweeping expired rate-limit counters failed");
            }
        }
        let values: [Value; 3] = [key.into(), delta.into(), expires_at.into()];
        let row = self
            .db
            .query_one_raw(Statement::from_sql_and_values(
                backend,
                upsert(backend),
                values,
            ))
            .await
            .map_err(|e| e.to_string())?
            .ok_or_else(|| "the counter upsert returned no row".to_string())?;
        row.try_get::<i64>("", "count").map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;
    use crate::store::{ConnectSettings, connect};

    #[tokio::test]
    async fn counters_count_per_key_and_take_back() {
        let store = connect("sqlite::memory:", &ConnectSettings::default())
            .await
            .expect("connect");
        store.migrate().await.expect("migrate");
        let limiter = store.rate_limiter();
        let until = Utc::now() + Duration::minutes(5);
        assert_eq!(limiter.add("a", 1, until).await.unwrap(), 1);
        assert_eq!(limiter.add("a", 1, until).await.unwrap(), 2);
        assert_eq!(limiter.add("b", 1, until).await.unwrap(), 1);
        assert_eq!(limiter.add("a", -1, until).await.unwrap(), 1);
    }
}
