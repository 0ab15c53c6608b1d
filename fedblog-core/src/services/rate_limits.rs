//! Charging requests against the rate limits: which counters a request hits, the `429` when one
//! is spent, and the `X-RateLimit-*` headers of the limit that applies to the answer.

use chrono::{DateTime, SecondsFormat, Utc};
use http::StatusCode;

use crate::error::{ApiError, ApiResult};
use crate::rate_limit::{Family, RateLimiter, RateLimits, Rule};

/// One hit counted against a family's counter for a subject.
#[derive(Clone, Debug)]
pub struct Charge {
    /// The family.
    pub family: Family,
    /// Its rule.
    pub rule: Rule,
    /// The counter's key.
    pub key: String,
    /// Hits in this window, this one included.
    pub count: u64,
    /// When the window ends.
    pub reset_at: chrono::DateTime<chrono::Utc>,
}

impl Charge {
    /// Hits left in the window.
    pub fn remaining(&self) -> u64 {
        self.rule.limit.saturating_sub(self.count)
    }

    /// `X-RateLimit-Limit`, `-Remaining` and `-Reset` (an ISO 8601 time, as Mastodon sends it).
    pub fn headers(&self) -> Vec<(String, String)> {
        vec![
            ("X-RateLimit-Limit".into(), self.rule.limit.to_string()),
            ("X-RateLimit-Remaining".into(), self.remaining().to_string()),
            (
                "X-RateLimit-Reset".into(),
                self.reset_at.to_rfc3339_opts(SecondsFormat::Micros, true),
            ),
        ]
    }

    /// The `429` for a spent limit, with `Retry-After` and the limit's headers.
    fn exceeded(&self, now: chrono::DateTime<chrono::Utc>) -> ApiError {
        let mut e = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "Too many requests");
        let wait = (self.reset_at - now).num_seconds().max(1);
        e.headers = self.headers();
        e.headers.push(("Retry-After".into(), wait.to_string()));
        e
    }
}

/// The rate-limits area: `app.rate_limits()`. It holds the configured limits, the counter
/// store and the clock.
pub struct RateLimiting<'a> {
    limits: &'a RateLimits,
    counters: &'a dyn RateLimiter,
    now: DateTime<Utc>,
}

impl<'a> RateLimiting<'a> {
    /// The area counting `limits` in `counters`, at `now`.
    pub fn new(limits: &'a RateLimits, counters: &'a dyn RateLimiter, now: DateTime<Utc>) -> Self {
        RateLimiting {
            limits,
            counters,
            now,
        }
    }
    /// Counts one hit of `subject` against `family`. `Ok(None)` when limits are off; a `429`
    /// once the window's limit is spent (the hit that found it spent is not kept). A counter
    /// store that fails lets the request through (and says so in the log): limits protect the
    /// service, they must not take it down.
    pub async fn charge(&self, family: Family, subject: &str) -> ApiResult<Option<Charge>> {
        if !self.limits.enabled {
            return Ok(None);
        }
        let rule = self.limits.rule(family);
        let now = self.now;
        let (window, reset_at) = rule.window(now);
        let key = format!("rl:{}:{subject}:{window}", family.name());
        let count = match self.counters.add(&key, 1, reset_at).await {
            Ok(n) => n.max(0) as u64,
            Err(e) => {
                tracing::warn!(family = family.name(), error = %e, "rate limit counter unavailable; not limiting");
                return Ok(None);
            }
        };
        let charge = Charge {
            family,
            rule,
            key,
            count,
            reset_at,
        };
        if count > rule.limit {
            self.refund(&charge).await;
            return Err(charge.exceeded(now));
        }
        Ok(Some(charge))
    }

    /// Takes a hit back (the action it was counted for did not happen).
    pub async fn refund(&self, charge: &Charge) {
        if let Err(e) = self.counters.add(&charge.key, -1, charge.reset_at).await {
            tracing::warn!(family = charge.family.name(), error = %e, "rate limit refund failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::App;
    use crate::config::InstanceConfig;

    fn app(limits: &str) -> App {
        let mut config = InstanceConfig::new("limits.test");
        config.rate_limits = RateLimits::parse(limits).unwrap();
        App::new(Arc::new(crate::MemoryStore::new()), config)
    }

    #[tokio::test]
    async fn a_family_counts_down_then_answers_429_with_retry_after() {
        let app = app("statuses=3/1h");
        let mut remaining = vec![];
        for _ in 0..3 {
            let c = app
                .rate_limits()
                .charge(Family::Statuses, "7")
                .await
                .unwrap()
                .unwrap();
            remaining.push(c.remaining());
            assert!(
                c.headers()
                    .iter()
                    .any(|(k, v)| k == "X-RateLimit-Limit" && v == "3")
            );
        }
        assert_eq!(remaining, [2, 1, 0]);
        let e = app
            .rate_limits()
            .charge(Family::Statuses, "7")
            .await
            .unwrap_err();
        assert_eq!(e.status, StatusCode::TOO_MANY_REQUESTS);
        let header = |name: &str| {
            e.headers
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        let wait: i64 = header("Retry-After").unwrap().parse().unwrap();
        assert!((1..=3600).contains(&wait), "{wait}");
        assert_eq!(header("X-RateLimit-Remaining").as_deref(), Some("0"));
        // Another subject and another family have counters of their own.
        assert!(
            app.rate_limits()
                .charge(Family::Statuses, "8")
                .await
                .unwrap()
                .is_some()
        );
        assert!(
            app.rate_limits()
                .charge(Family::Follows, "7")
                .await
                .unwrap()
                .is_some()
        );
        // A refused hit is not kept: a refund reopens exactly one place.
        let more = app
            .rate_limits()
            .charge(Family::Statuses, "8")
            .await
            .unwrap()
            .unwrap();
        app.rate_limits().refund(&more).await;
        assert_eq!(
            app.rate_limits()
                .charge(Family::Statuses, "8")
                .await
                .unwrap()
                .unwrap()
                .remaining(),
            1
        );
    }

    #[tokio::test]
    async fn nothing_is_counted_when_limits_are_off() {
        let app = app("off");
        for _ in 0..10 {
            assert!(
                app.rate_limits()
                    .charge(Family::SignUps, "ip")
                    .await
                    .unwrap()
                    .is_none()
            );
        }
    }
}
