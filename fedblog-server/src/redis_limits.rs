//! Rate-limit counters in Redis (`FEDBLOG_REDIS_URL`): `INCRBY` and `EXPIREAT` in one
//! transaction per hit, shared by every process that names the same Redis.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use fedblog_core::rate_limit::RateLimiter;
use redis::aio::ConnectionManager;

/// Counters in Redis, through a connection manager that reconnects by itself.
#[derive(Clone)]
pub struct RedisRateLimiter {
    connection: ConnectionManager,
}

impl RedisRateLimiter {
    /// Connects to `url` (`redis://host:port/db`).
    pub async fn connect(url: &str) -> Result<Self, String> {
        let client = redis::Client::open(url).map_err(|e| format!("invalid Redis URL: {e}"))?;
        let connection = ConnectionManager::new(client)
            .await
            .map_err(|e| format!("cannot reach Redis: {e}"))?;
        Ok(RedisRateLimiter { connection })
    }
}

#[async_trait]
impl RateLimiter for RedisRateLimiter {
    async fn add(&self, key: &str, delta: i64, expires_at: DateTime<Utc>) -> Result<i64, String> {
        let mut connection = self.connection.clone();
        let (count,): (i64,) = redis::pipe()
            .atomic()
            .incr(key, delta)
            .expire_at(key, expires_at.timestamp())
            .ignore()
            .query_async(&mut connection)
            .await
            .map_err(|e| e.to_string())?;
        Ok(count)
    }
}
