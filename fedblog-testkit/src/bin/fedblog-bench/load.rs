//! The timed measurements: a read benchmark on N keep-alive connections for a fixed time, and
//! sequential posting on one connection, recording every request's latency; percentiles come
//! from the sorted latencies (nearest rank).

use std::time::{Duration, Instant};

use crate::api;

/// Pause after a request that got no answer, so a dead server is not hammered in a tight loop.
const PAUSE_AFTER_FAILURE: Duration = Duration::from_millis(10);

/// The outcome of one measurement.
#[derive(Debug, Default)]
pub struct Measured {
    /// Latencies of the 2xx answers, in microseconds, sorted.
    latencies_us: Vec<u64>,
    /// Non-2xx answers.
    pub http_errors: u64,
    /// Requests that got no (complete) answer.
    pub transport_errors: u64,
    /// The first error seen, for the report.
    pub first_error: Option<String>,
    /// Wall time of the whole measurement.
    pub elapsed: Duration,
}

impl Measured {
    /// 2xx answers.
    pub fn ok(&self) -> u64 {
        self.latencies_us.len() as u64
    }

    /// Non-2xx answers and requests without an answer.
    pub fn errors(&self) -> u64 {
        self.http_errors + self.transport_errors
    }

    /// 2xx answers per second.
    pub fn per_sec(&self) -> f64 {
        self.ok() as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The `p`th percentile latency of the 2xx answers, in milliseconds.
    pub fn percentile_ms(&self, p: f64) -> Option<f64> {
        percentile(&self.latencies_us, p).map(|us| us as f64 / 1000.0)
    }

    fn record(&mut self, started: Instant, outcome: Result<Answer, String>) {
        match outcome {
            Ok(Answer::Success) => {
                self.latencies_us.push(started.elapsed().as_micros() as u64);
            }
            Ok(Answer::Failure(status, body)) => {
                self.http_errors += 1;
                self.first_error
                    .get_or_insert_with(|| format!("HTTP {status}: {}", api::excerpt(&body)));
            }
            Err(e) => {
                self.transport_errors += 1;
                self.first_error.get_or_insert(e);
            }
        }
    }

    fn merge(&mut self, other: Measured) {
        self.latencies_us.extend(other.latencies_us);
        self.http_errors += other.http_errors;
        self.transport_errors += other.transport_errors;
        if self.first_error.is_none() {
            self.first_error = other.first_error;
        }
    }

    fn finish(mut self, elapsed: Duration) -> Measured {
        self.latencies_us.sort_unstable();
        self.elapsed = elapsed;
        self
    }
}

/// Nearest-rank percentile of sorted values.
pub(crate) fn percentile(sorted: &[u64], p: f64) -> Option<u64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// A complete answer: 2xx, or another status with its body.
enum Answer {
    Success,
    Failure(u16, String),
}

/// Sends one request and reads the whole answer, or says why there was none.
async fn exchange(req: reqwest::RequestBuilder) -> Result<Answer, String> {
    let resp = req.send().await.map_err(|e| format!("no answer: {e}"))?;
    let status = resp.status();
    let body = resp
        .bytes()
        .await
        .map_err(|e| format!("the answer broke off: {e}"))?;
    Ok(if status.is_success() {
        Answer::Success
    } else {
        Answer::Failure(status.as_u16(), String::from_utf8_lossy(&body).into_owned())
    })
}

/// `GET base+path` with `token` on `connections` connections (one client, hence one keep-alive
/// connection, per task) for `duration`. Fails only when no request got any answer at all (the
/// server is down); error answers are counted.
pub async fn read(
    base: &str,
    path: &str,
    token: &str,
    connections: usize,
    duration: Duration,
) -> Result<Measured, String> {
    let url = format!("{base}{path}");
    let start = Instant::now();
    let deadline = start + duration;
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..connections {
        let client = api::client(1)?;
        let (url, token) = (url.clone(), token.to_string());
        tasks.spawn(async move {
            let mut m = Measured::default();
            while Instant::now() < deadline {
                let started = Instant::now();
                let outcome = exchange(client.get(&url).bearer_auth(&token)).await;
                let failed = outcome.is_err();
                m.record(started, outcome);
                if failed {
                    tokio::time::sleep(PAUSE_AFTER_FAILURE).await;
                }
            }
            m
        });
    }
    let mut all = Measured::default();
    while let Some(joined) = tasks.join_next().await {
        all.merge(joined.map_err(|e| format!("a connection task failed: {e}"))?);
    }
    let all = all.finish(start.elapsed());
    if all.ok() + all.http_errors == 0 {
        return Err(format!(
            "GET {path}: no request got an answer: {}",
            all.first_error.as_deref().unwrap_or("no request was sent")
        ));
    }
    Ok(all)
}

/// Posts `count` public statuses with `token`, one after another on one connection. The texts
/// carry `tag` and their number. Fails only when no post got any answer.
pub async fn post_sequentially(
    base: &str,
    token: &str,
    count: usize,
    tag: &str,
) -> Result<Measured, String> {
    use fedblog_core::api::Endpoint;
    use fedblog_core::api::statuses::create_status::CreateStatus;
    let client = api::client(1)?;
    let url = format!("{base}{}", CreateStatus::PATH);
    let start = Instant::now();
    let mut m = Measured::default();
    for n in 1..=count {
        let text = format!("Posting benchmark {n} of {count} ({tag})");
        let started = Instant::now();
        let outcome = exchange(
            client
                .post(&url)
                .bearer_auth(token)
                .form(&api::status_form(&text)),
        )
        .await;
        m.record(started, outcome);
    }
    let m = m.finish(start.elapsed());
    if m.ok() + m.http_errors == 0 {
        return Err(format!(
            "POST {}: no post got an answer: {}",
            CreateStatus::PATH,
            m.first_error.as_deref().unwrap_or("none was sent")
        ));
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&v, 50.0), Some(50));
        assert_eq!(percentile(&v, 99.0), Some(99));
        assert_eq!(percentile(&v, 100.0), Some(100));
        assert_eq!(percentile(&[7], 99.0), Some(7));
        assert_eq!(percentile(&[], 50.0), None);
    }

    #[test]
    fn errors_are_counted_apart_from_latencies() {
        let mut m = Measured::default();
        let t = Instant::now();
        m.record(t, Ok(Answer::Success));
        m.record(t, Ok(Answer::Failure(500, "{\"error\":\"boom\"}".into())));
        m.record(t, Err("no answer: refused".into()));
        let m = m.finish(Duration::from_secs(1));
        assert_eq!((m.ok(), m.http_errors, m.transport_errors), (1, 1, 1));
        assert_eq!(m.errors(), 2);
        assert_eq!(
            m.first_error.as_deref(),
            Some("HTTP 500: {\"error\":\"boom\"}")
        );
        assert!((m.per_sec() - 1.0).abs() < 1e-9);
    }
}
