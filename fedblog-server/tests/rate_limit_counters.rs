//! The counter stores a deployment of several processes shares: PostgreSQL (the database's
//! `rate_limit_counters`) and Redis (`FEDBLOG_REDIS_URL`). Two connections, as two processes
//! would hold, count into the same counters, and a limit spent through one is spent for both.

mod common;

use std::sync::Arc;

use chrono::{Duration, Utc};
use common::TestServer;
use fedblog_core::App;
use fedblog_core::rate_limit::{Family, RateLimiter, RateLimits};
use fedblog_server::redis_limits::RedisRateLimiter;
use fedblog_server::store::{ConnectSettings, connect};

/// Redis on this machine (CI starts it); `FEDBLOG_TEST_REDIS_URL` names another.
fn redis_url() -> String {
    std::env::var("FEDBLOG_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379/0".into())
}

/// Two connections count into one counter, and taking back is seen by both.
async fn shared(a: &dyn RateLimiter, b: &dyn RateLimiter, key: &str) {
    let until = Utc::now() + Duration::minutes(5);
    assert_eq!(a.add(key, 1, until).await.unwrap(), 1);
    assert_eq!(b.add(key, 1, until).await.unwrap(), 2);
    assert_eq!(a.add(key, 1, until).await.unwrap(), 3);
    assert_eq!(b.add(key, -1, until).await.unwrap(), 2);
    let other = format!("{key}:other");
    assert_eq!(b.add(&other, 1, until).await.unwrap(), 1);
}

/// Two apps (two processes) on one counter store: the second sees the first's hits.
async fn one_limit_for_two_apps(a: Arc<dyn RateLimiter>, b: Arc<dyn RateLimiter>, subject: &str) {
    let app = |limiter: Arc<dyn RateLimiter>| {
        let mut config = fedblog_core::InstanceConfig::new("counters.test");
        config.rate_limits = RateLimits::parse("statuses=2/1h").unwrap();
        App::new(Arc::new(fedblog_core::MemoryStore::new()), config).with_rate_limiter(limiter)
    };
    let (first, second) = (app(a), app(b));
    assert!(
        first
            .rate_limits()
            .charge(Family::Statuses, subject)
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        second
            .rate_limits()
            .charge(Family::Statuses, subject)
            .await
            .unwrap()
            .is_some()
    );
    let refused = first
        .rate_limits()
        .charge(Family::Statuses, subject)
        .await
        .unwrap_err();
    assert_eq!(refused.status.as_u16(), 429);
    assert_eq!(
        second
            .rate_limits()
            .charge(Family::Statuses, subject)
            .await
            .unwrap_err()
            .status
            .as_u16(),
        429
    );
}

#[tokio::test]
async fn redis_counters_are_shared_by_connections() {
    let url = redis_url();
    let a = match RedisRateLimiter::connect(&url).await {
        Ok(a) => a,
        // In CI a Redis test that does not run is a failure, never a silent pass.
        Err(e) if std::env::var_os("CI").is_some() => {
            panic!("Redis at {url} is needed by this test in CI: {e}")
        }
        Err(e) => {
            println!(
                "redis_counters_are_shared_by_connections did not run: no Redis at {url} ({e}); set FEDBLOG_TEST_REDIS_URL"
            );
            return;
        }
    };
    let b = RedisRateLimiter::connect(&url)
        .await
        .expect("a second connection");
    let key = format!(
        "fedblog-test:{}:{}",
        std::process::id(),
        Utc::now().timestamp_micros()
    );
    shared(&a, &b, &key).await;
    one_limit_for_two_apps(Arc::new(a), Arc::new(b), &key).await;
}

#[tokio::test]
async fn postgres_counters_are_shared_by_connections() {
    let Some(admin) = TestServer::postgres_or_say("postgres_counters_are_shared_by_connections")
    else {
        return;
    };
    let name = format!("fedblog_rl_{}", std::process::id());
    let url = fedblog_server::store::admin::create_database(&admin, &name)
        .await
        .expect("create database");
    let (a, b) = (
        connect(&url, &ConnectSettings::default()).await.unwrap(),
        connect(&url, &ConnectSettings::default()).await.unwrap(),
    );
    a.migrate().await.unwrap();
    shared(&a.rate_limiter(), &b.rate_limiter(), "k").await;
    one_limit_for_two_apps(Arc::new(a.rate_limiter()), Arc::new(b.rate_limiter()), "7").await;
    // Two processes on one database take different id nodes.
    let (n1, n2) = (
        a.claim_id_node().await.unwrap(),
        b.claim_id_node().await.unwrap(),
    );
    assert_ne!(n1, n2);
    drop((a, b));
    fedblog_server::store::admin::drop_database(&admin, &name)
        .await
        .expect("drop database");
}
