//! The figures of a run, the targets they are compared with, the summary table (figure, value,
//! target, PASS/MISS) and the JSON file.

use std::path::Path;

use serde::Serialize;

use crate::cli::{Scale, Streaming};
use crate::load::Measured;

/// Home timeline: at least this many requests per second...
pub const HOME_RPS_TARGET: f64 = 3000.0;
/// ...with a p99 latency of at most this many milliseconds.
pub const HOME_P99_TARGET_MS: f64 = 15.0;
/// A post in every follower's home feed within this many milliseconds.
pub const FANOUT_TARGET_MS: f64 = 1000.0;
/// Sequential posts per second by an author with 100 followers.
pub const POSTING_TARGET: f64 = 200.0;
/// The server's peak RSS under load, in MB (1 MB = 1024 KiB as /proc counts).
pub const RSS_TARGET_MB: f64 = 100.0;
/// The server's RSS with the idle streaming connections open, in MB.
pub const STREAMING_IDLE_RSS_TARGET_MB: f64 = 250.0;
/// A streamed post's 99th percentile delivery latency after the POST's answer, in ms.
pub const STREAMING_P99_TARGET_MS: f64 = 100.0;

/// Everything a run measured.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The server measured.
    pub base_url: String,
    /// Scale of the run.
    pub scale: Scale,
    /// Connections of the read benchmarks and the set-up.
    pub connections: usize,
    /// Length of each read benchmark, in seconds.
    pub read_duration_secs: f64,
    /// Time the seed took (only when this program seeded, i.e. `local`).
    pub seed_secs: Option<f64>,
    /// Time the set-up through the API took.
    pub setup_secs: f64,
    /// Statuses in the first home timeline answer, and how many were expected.
    pub home_answer: HomeAnswer,
    /// The read benchmarks, home timeline first.
    pub reads: Vec<ReadFigures>,
    /// The posting benchmark.
    pub posting: PostingFigures,
    /// The fan-out measurement.
    pub fanout: FanoutFigures,
    /// The server's memory (read before the streaming benchmark).
    pub rss: RssFigures,
    /// The streaming benchmark; `None` when skipped.
    pub streaming: Option<StreamingFigures>,
}

/// The sanity check of the home timeline.
#[derive(Debug, Serialize)]
pub struct HomeAnswer {
    /// `min(40, statuses posted by followed authors)`.
    pub expected: usize,
    /// Statuses in the answer.
    pub got: usize,
}

/// One read benchmark.
#[derive(Debug, Serialize)]
pub struct ReadFigures {
    /// What was read.
    pub name: String,
    /// The request path and query.
    pub path: String,
    /// 2xx answers.
    pub ok: u64,
    /// Non-2xx answers and requests without an answer.
    pub errors: u64,
    /// The first error.
    pub first_error: Option<String>,
    /// 2xx answers per second.
    pub requests_per_sec: f64,
    /// Median latency of 2xx answers.
    pub p50_ms: Option<f64>,
    /// 99th percentile latency of 2xx answers.
    pub p99_ms: Option<f64>,
    /// Wall time.
    pub secs: f64,
    /// The server's CPU time (user and system, all threads) per 2xx answer, in milliseconds:
    /// steadier than requests per second on shared cores. `None` without `--pid`.
    pub server_cpu_ms_per_request: Option<f64>,
}

impl ReadFigures {
    /// The figures of a measurement; `server_cpu_secs` is the CPU time the server spent
    /// during it, if known.
    pub fn new(name: &str, path: &str, m: &Measured, server_cpu_secs: Option<f64>) -> ReadFigures {
        ReadFigures {
            name: name.into(),
            path: path.into(),
            ok: m.ok(),
            errors: m.errors(),
            first_error: m.first_error.clone(),
            requests_per_sec: m.per_sec(),
            p50_ms: m.percentile_ms(50.0),
            p99_ms: m.percentile_ms(99.0),
            secs: m.elapsed.as_secs_f64(),
            server_cpu_ms_per_request: server_cpu_secs
                .filter(|_| m.ok() > 0)
                .map(|cpu| cpu * 1000.0 / m.ok() as f64),
        }
    }

    /// The server's CPU per request as the report shows it.
    pub fn cpu(&self) -> String {
        match self.server_cpu_ms_per_request {
            Some(ms) => format!("{ms:.3} ms"),
            None => "not measured (no --pid)".into(),
        }
    }

    /// One line for the progress output.
    pub fn line(&self) -> String {
        format!(
            "{}: {} ok in {:.1} s, {:.1} req/s, p50 {}, p99 {}, server CPU {} per request, {} errors{}",
            self.name,
            self.ok,
            self.secs,
            self.requests_per_sec,
            ms(self.p50_ms),
            ms(self.p99_ms),
            self.cpu(),
            self.errors,
            first_error(&self.first_error)
        )
    }
}

/// The posting benchmark.
#[derive(Debug, Serialize)]
pub struct PostingFigures {
    /// Followers of the poster.
    pub poster_followers: usize,
    /// Posts attempted.
    pub posts: usize,
    /// 2xx answers.
    pub ok: u64,
    /// Failed posts.
    pub errors: u64,
    /// The first error.
    pub first_error: Option<String>,
    /// Successful posts per second of wall time.
    pub posts_per_sec: f64,
    /// Median POST latency.
    pub p50_ms: Option<f64>,
    /// 99th percentile POST latency.
    pub p99_ms: Option<f64>,
    /// Wall time.
    pub secs: f64,
}

impl PostingFigures {
    /// One line for the progress output.
    pub fn line(&self) -> String {
        format!(
            "{} of {} posted in {:.2} s: {:.1} posts/s, p50 {}, p99 {}, {} errors{}",
            self.ok,
            self.posts,
            self.secs,
            self.posts_per_sec,
            ms(self.p50_ms),
            ms(self.p99_ms),
            self.errors,
            first_error(&self.first_error)
        )
    }
}

/// The fan-out measurement.
#[derive(Debug, Serialize)]
pub struct FanoutFigures {
    /// Followers of big_author.
    pub followers: usize,
    /// Followers whose home feed was polled while timing.
    pub probes: usize,
    /// Probes that saw the post before the time limit.
    pub probes_reached: usize,
    /// Pause between two polls of one probe.
    pub poll_interval_ms: u64,
    /// Time from sending the POST until the post was in every probe's home feed; `None` when
    /// some probe did not see it in time.
    pub visible_in_all_probes_ms: Option<f64>,
    /// Latency of the POST itself.
    pub post_ms: f64,
    /// Failed polls while timing (they were retried).
    pub poll_errors: u64,
    /// Followers whose home feed had the post when all were checked once, after the timing.
    pub followers_with_post: usize,
}

/// The server's memory, from `/proc/PID/status`.
#[derive(Debug, Serialize)]
pub struct RssFigures {
    /// The process measured.
    pub pid: Option<u32>,
    /// `VmHWM`: the peak resident set, in MB.
    pub peak_mb: Option<f64>,
    /// `VmRSS` after the run, in MB.
    pub current_mb: Option<f64>,
    /// Why it was not measured.
    pub note: Option<String>,
}

/// The streaming benchmark.
#[derive(Debug, Serialize)]
pub struct StreamingFigures {
    /// Its settings.
    pub settings: Streaming,
    /// This process's open files limit (soft, after raising it to the hard limit).
    pub open_files_limit: Option<u64>,
    /// The server's open files limit (soft), when its pid is known.
    pub server_open_files_limit: Option<u64>,
    /// The idle WebSocket connections.
    pub idle: Option<IdleFigures>,
    /// Deliveries to followers on their user streams.
    pub followers: Option<DeliveryFigures>,
    /// Deliveries to `public:local` listeners.
    pub public: Option<DeliveryFigures>,
}

impl StreamingFigures {
    fn rows(&self, rows: &mut Vec<Row>) {
        if let Some(idle) = &self.idle {
            rows.push(judged(
                "streaming: idle WebSocket connections open",
                format!(
                    "{} of {} ({} failed{})",
                    idle.opened,
                    idle.connections,
                    idle.failed,
                    first_error(&idle.first_error)
                ),
                "all",
                idle.failed == 0,
            ));
            let with = format!(
                "streaming: server RSS with {} idle connections (VmRSS)",
                idle.opened
            );
            match idle.rss_after_mb {
                Some(after) => rows.push(judged(
                    with,
                    format!(
                        "{after:.1} MB ({} before, {} per connection)",
                        mb(idle.rss_before_mb),
                        idle.kb_per_connection
                            .map_or("n/a".into(), |kb| format!("{kb:.1} KB"))
                    ),
                    format!("<= {STREAMING_IDLE_RSS_TARGET_MB:.0} MB"),
                    idle.failed == 0 && after <= STREAMING_IDLE_RSS_TARGET_MB,
                )),
                None => rows.push(Row {
                    figure: with,
                    value: "not measured (no --pid)".into(),
                    target: format!("<= {STREAMING_IDLE_RSS_TARGET_MB:.0} MB"),
                    result: None,
                }),
            }
            rows.push(row(
                "streaming: idle connections at the end",
                format!(
                    "{} still open, {} messages received, server RSS {}",
                    idle.opened.saturating_sub(idle.closed_early),
                    idle.stray_messages,
                    mb(idle.rss_end_mb)
                ),
            ));
        }
        for d in [&self.followers, &self.public].into_iter().flatten() {
            d.rows(rows);
        }
    }
}

/// Idle WebSocket connections and the server's memory with them.
#[derive(Debug, Serialize)]
pub struct IdleFigures {
    /// Connections asked for.
    pub connections: usize,
    /// Distinct tokens they used.
    pub tokens: usize,
    /// Connections that opened.
    pub opened: usize,
    /// Connections that did not open.
    pub failed: usize,
    /// Why the first one did not open.
    pub first_error: Option<String>,
    /// Time to open them all.
    pub open_secs: f64,
    /// The server's `VmRSS` before opening them, in MB.
    pub rss_before_mb: Option<f64>,
    /// The server's `VmRSS` with them open (a second after the last opened), in MB.
    pub rss_after_mb: Option<f64>,
    /// `(after - before) / opened`, in KB.
    pub kb_per_connection: Option<f64>,
    /// The server's `VmRSS` after the delivery benchmarks, with them still open, in MB.
    pub rss_end_mb: Option<f64>,
    /// Connections the server closed (or that broke) before the end.
    pub closed_early: usize,
    /// Messages they received (none expected).
    pub stray_messages: u64,
}

impl IdleFigures {
    /// One line for the progress output.
    pub fn line(&self) -> String {
        format!(
            "{} of {} idle WebSocket connections open ({} failed{}); server RSS {} before, {} with them open ({} per connection)",
            self.opened,
            self.connections,
            self.failed,
            first_error(&self.first_error),
            mb(self.rss_before_mb),
            mb(self.rss_after_mb),
            self.kb_per_connection
                .map_or("n/a".into(), |kb| format!("{kb:.1} KB"))
        )
    }
}

/// Latencies of deliveries, in milliseconds.
#[derive(Debug, Serialize)]
pub struct Latencies {
    /// Deliveries measured.
    pub count: u64,
    /// Median.
    pub p50_ms: Option<f64>,
    /// 95th percentile.
    pub p95_ms: Option<f64>,
    /// 99th percentile.
    pub p99_ms: Option<f64>,
    /// The slowest.
    pub max_ms: Option<f64>,
}

impl Latencies {
    /// `p50 / p95 / p99 / max`.
    pub fn show(&self) -> String {
        format!(
            "{} / {} / {} / {}",
            ms(self.p50_ms),
            ms(self.p95_ms),
            ms(self.p99_ms),
            ms(self.max_ms)
        )
    }
}

/// Posts delivered to a group of streaming connections.
#[derive(Debug, Serialize)]
pub struct DeliveryFigures {
    /// The group, short.
    pub label: String,
    /// Who listens.
    pub audience: String,
    /// Connections asked for.
    pub connections: usize,
    /// Connections that opened.
    pub opened: usize,
    /// Connections that did not open.
    pub open_failed: usize,
    /// Why the first one did not open.
    pub first_open_error: Option<String>,
    /// Time to open them.
    pub open_secs: f64,
    /// Open connections over WebSocket.
    pub websocket_connections: usize,
    /// Open connections over server-sent events.
    pub sse_connections: usize,
    /// Posts made.
    pub posts: usize,
    /// Posts that failed.
    pub post_errors: usize,
    /// The first failure.
    pub first_post_error: Option<String>,
    /// Median latency of the POST itself.
    pub post_p50_ms: Option<f64>,
    /// Deliveries expected: open connections times successful posts.
    pub expected: u64,
    /// Deliveries seen in time.
    pub delivered: u64,
    /// Deliveries that came before the POST's answer (counted as 0 ms after it).
    pub before_answer: u64,
    /// Deliveries that came after their post's time limit, or twice.
    pub late: u64,
    /// The first post that did not reach every connection in time.
    pub missing_note: Option<String>,
    /// From the POST's answer to the receipt, every delivery.
    pub after_answer: Latencies,
    /// The same over WebSocket.
    pub websocket: Latencies,
    /// The same over server-sent events.
    pub sse: Latencies,
    /// From sending the POST to the receipt.
    pub since_sent: Latencies,
    /// Connections that ended (closed by the server, or broken) before the end.
    pub closed_early: usize,
    /// Messages that were not a benchmark post's update.
    pub stray_messages: u64,
    /// The server's CPU time per post (posting, rendering and sending to every connection).
    pub server_cpu_ms_per_post: Option<f64>,
}

impl DeliveryFigures {
    /// One line for the progress output.
    pub fn line(&self) -> String {
        format!(
            "{}: {} of {} deliveries; after the POST's answer p50/p95/p99/max {} (WebSocket {}, SSE {}); from sending the POST {}; {} before the answer; POST p50 {}; server CPU {} per post; {} closed early, {} stray messages{}",
            self.label,
            self.delivered,
            self.expected,
            self.after_answer.show(),
            self.websocket.show(),
            self.sse.show(),
            self.since_sent.show(),
            self.before_answer,
            ms(self.post_p50_ms),
            ms(self.server_cpu_ms_per_post),
            self.closed_early,
            self.stray_messages,
            first_error(&self.first_post_error)
        )
    }

    /// Whether every connection opened and got every post.
    fn complete(&self) -> bool {
        self.open_failed == 0 && self.post_errors == 0 && self.delivered == self.expected
    }

    fn rows(&self, rows: &mut Vec<Row>) {
        let name = format!("streaming to {}", self.audience);
        rows.push(judged(
            format!("{name}: connections open"),
            format!(
                "{} of {} ({} WebSocket, {} SSE; {} failed{})",
                self.opened,
                self.connections,
                self.websocket_connections,
                self.sse_connections,
                self.open_failed,
                first_error(&self.first_open_error)
            ),
            "all",
            self.open_failed == 0,
        ));
        rows.push(judged(
            format!("{name}: deliveries"),
            format!(
                "{} of {} ({} posts)",
                self.delivered, self.expected, self.posts
            ),
            "all",
            self.complete() && self.expected > 0,
        ));
        rows.push(judged(
            format!("{name}: p50/p95/p99/max after the POST"),
            self.after_answer.show(),
            format!("p99 <= {STREAMING_P99_TARGET_MS:.0} ms"),
            self.complete()
                && self
                    .after_answer
                    .p99_ms
                    .is_some_and(|p| p <= STREAMING_P99_TARGET_MS),
        ));
        rows.push(row(
            format!("{name}: p99 WebSocket / SSE"),
            format!("{} / {}", ms(self.websocket.p99_ms), ms(self.sse.p99_ms)),
        ));
        rows.push(row(
            format!("{name}: p50 / p99 from sending the POST"),
            format!(
                "{} / {} (POST p50 {})",
                ms(self.since_sent.p50_ms),
                ms(self.since_sent.p99_ms),
                ms(self.post_p50_ms)
            ),
        ));
        rows.push(row(
            format!("{name}: server CPU per post"),
            match self.server_cpu_ms_per_post {
                Some(v) => format!("{v:.1} ms"),
                None => "not measured".into(),
            },
        ));
    }
}

/// One row of the summary table.
#[derive(Debug, Serialize)]
pub struct Row {
    /// What.
    pub figure: String,
    /// The measured value.
    pub value: String,
    /// The target, or `-`.
    pub target: String,
    /// `PASS`, `MISS`, or nothing for figures without a target.
    pub result: Option<&'static str>,
}

fn row(figure: impl Into<String>, value: impl Into<String>) -> Row {
    Row {
        figure: figure.into(),
        value: value.into(),
        target: "-".into(),
        result: None,
    }
}

fn judged(
    figure: impl Into<String>,
    value: impl Into<String>,
    target: impl Into<String>,
    pass: bool,
) -> Row {
    Row {
        figure: figure.into(),
        value: value.into(),
        target: target.into(),
        result: Some(if pass { "PASS" } else { "MISS" }),
    }
}

fn ms(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.2} ms"))
        .unwrap_or_else(|| "n/a".into())
}

fn mb(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.1} MB"))
        .unwrap_or_else(|| "not measured".into())
}

fn first_error(e: &Option<String>) -> String {
    e.as_ref()
        .map(|e| format!(" (first: {e})"))
        .unwrap_or_default()
}

impl Report {
    /// The summary table's rows.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = Vec::new();
        if let Some(s) = self.seed_secs {
            rows.push(row(
                "seed: accounts and tokens (server CLI)",
                format!("{s:.2} s"),
            ));
        }
        rows.push(row(
            "set-up through the API",
            format!("{:.2} s", self.setup_secs),
        ));
        let h = &self.home_answer;
        let answer_ok = h.got == h.expected;
        rows.push(judged(
            "home timeline: statuses in the answer",
            h.got.to_string(),
            h.expected.to_string(),
            answer_ok,
        ));
        if let Some((home, others)) = self.reads.split_first() {
            let clean = home.errors == 0 && answer_ok;
            rows.push(judged(
                "home timeline limit=40: throughput",
                format!("{:.1} req/s", home.requests_per_sec),
                format!(">= {HOME_RPS_TARGET:.0} req/s"),
                clean && home.requests_per_sec >= HOME_RPS_TARGET,
            ));
            rows.push(row("home timeline limit=40: p50", ms(home.p50_ms)));
            rows.push(row(
                "home timeline limit=40: server CPU per request",
                home.cpu(),
            ));
            rows.push(judged(
                "home timeline limit=40: p99",
                ms(home.p99_ms),
                format!("<= {HOME_P99_TARGET_MS:.0} ms"),
                clean && home.p99_ms.is_some_and(|p| p <= HOME_P99_TARGET_MS),
            ));
            rows.push(judged(
                "home timeline limit=40: errors",
                home.errors.to_string(),
                "0",
                home.errors == 0,
            ));
            for r in others {
                rows.push(row(
                    format!("{}: throughput", r.name),
                    format!("{:.1} req/s ({} errors)", r.requests_per_sec, r.errors),
                ));
                rows.push(row(
                    format!("{}: p50 / p99", r.name),
                    format!("{} / {}", ms(r.p50_ms), ms(r.p99_ms)),
                ));
                rows.push(row(format!("{}: server CPU per request", r.name), r.cpu()));
            }
        }
        let p = &self.posting;
        rows.push(judged(
            format!(
                "posting, sequential ({} followers): throughput",
                p.poster_followers
            ),
            format!("{:.1} posts/s", p.posts_per_sec),
            format!(">= {POSTING_TARGET:.0} posts/s"),
            p.errors == 0 && p.posts_per_sec >= POSTING_TARGET,
        ));
        rows.push(row(
            "posting: p50 / p99 of the POST",
            format!("{} / {}", ms(p.p50_ms), ms(p.p99_ms)),
        ));
        rows.push(judged(
            "posting: errors",
            format!("{} of {}", p.errors, p.posts),
            "0",
            p.errors == 0,
        ));
        let f = &self.fanout;
        rows.push(judged(
            format!(
                "fan-out to {} followers: in {} probe feeds",
                f.followers, f.probes
            ),
            match f.visible_in_all_probes_ms {
                Some(v) => format!("{v:.0} ms"),
                None => format!("only {} of {} probes", f.probes_reached, f.probes),
            },
            format!("<= {FANOUT_TARGET_MS:.0} ms"),
            f.visible_in_all_probes_ms
                .is_some_and(|v| v <= FANOUT_TARGET_MS),
        ));
        rows.push(row(
            "fan-out: latency of the POST itself",
            format!("{:.0} ms", f.post_ms),
        ));
        rows.push(judged(
            "fan-out: followers with the post (checked after)",
            format!("{} of {}", f.followers_with_post, f.followers),
            "all",
            f.followers_with_post == f.followers,
        ));
        match (&self.rss.peak_mb, &self.rss.current_mb) {
            (Some(peak), current) => {
                rows.push(judged(
                    "server peak RSS (VmHWM)",
                    format!("{peak:.1} MB"),
                    format!("<= {RSS_TARGET_MB:.0} MB"),
                    *peak <= RSS_TARGET_MB,
                ));
                if let Some(c) = current {
                    rows.push(row(
                        "server RSS after the run (VmRSS)",
                        format!("{c:.1} MB"),
                    ));
                }
            }
            (None, _) => rows.push(Row {
                figure: "server peak RSS".into(),
                value: self
                    .rss
                    .note
                    .clone()
                    .unwrap_or_else(|| "not measured".into()),
                target: format!("<= {RSS_TARGET_MB:.0} MB"),
                result: None,
            }),
        }
        if let Some(s) = &self.streaming {
            s.rows(&mut rows);
        }
        rows
    }

    /// Prints the summary table.
    pub fn print(&self) {
        let rows = self.rows();
        let header = ["figure", "value", "target", "result"];
        let width = |i: usize| {
            rows.iter()
                .map(|r| match i {
                    0 => r.figure.chars().count(),
                    1 => r.value.chars().count(),
                    _ => r.target.chars().count(),
                })
                .chain([header[i].len()])
                .max()
                .unwrap_or(0)
        };
        let (w0, w1, w2) = (width(0), width(1), width(2));
        println!();
        println!(
            "summary: {} ({} authors x {} posts, {} followers, {} posts; {} connections, {:.0} s per read benchmark)",
            self.base_url,
            self.scale.authors,
            self.scale.posts_per_author,
            self.scale.followers,
            self.scale.post_count,
            self.connections,
            self.read_duration_secs
        );
        if let Some(s) = &self.streaming {
            println!(
                "streaming: {} idle WebSocket connections, {} followers and {} public:local listeners (half WebSocket, half SSE), {} posts each",
                s.settings.idle, s.settings.followers, s.settings.public, s.settings.posts
            );
        }
        println!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {}",
            header[0], header[1], header[2], header[3]
        );
        println!("{}", "-".repeat(w0 + w1 + w2 + 12));
        for r in &rows {
            println!(
                "{:<w0$}  {:<w1$}  {:<w2$}  {}",
                r.figure,
                r.value,
                r.target,
                r.result.unwrap_or("")
            );
        }
        let misses = rows.iter().filter(|r| r.result == Some("MISS")).count();
        let judged = rows.iter().filter(|r| r.result.is_some()).count();
        println!(
            "{} of {judged} targets met{}",
            judged - misses,
            if misses > 0 {
                " (a missed target is a finding, not a failure of the run)"
            } else {
                ""
            }
        );
    }

    /// Writes `{"figures": ..., "summary": [rows]}` to `path`.
    pub fn write_json(&self, path: &Path) -> Result<(), String> {
        let doc = serde_json::json!({ "figures": self, "summary": self.rows() });
        let text = serde_json::to_string_pretty(&doc)
            .map_err(|e| format!("cannot encode the figures: {e}"))?;
        std::fs::write(path, text + "\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Report {
        Report {
            base_url: "http://127.0.0.1:3000".into(),
            scale: Scale {
                authors: 100,
                posts_per_author: 50,
                followers: 10_000,
                post_count: 500,
                small: false,
            },
            connections: 16,
            read_duration_secs: 10.0,
            seed_secs: Some(3.0),
            setup_secs: 30.0,
            home_answer: HomeAnswer {
                expected: 40,
                got: 40,
            },
            reads: vec![
                ReadFigures {
                    name: "home timeline".into(),
                    path: "home".into(),
                    ok: 40_000,
                    errors: 0,
                    first_error: None,
                    requests_per_sec: 4000.0,
                    p50_ms: Some(3.0),
                    p99_ms: Some(20.0),
                    secs: 10.0,
                    server_cpu_ms_per_request: Some(0.25),
                },
                ReadFigures {
                    name: "single status".into(),
                    path: "status".into(),
                    ok: 1,
                    errors: 2,
                    first_error: Some("HTTP 500".into()),
                    requests_per_sec: 0.1,
                    p50_ms: Some(1.0),
                    p99_ms: Some(1.0),
                    secs: 10.0,
                    server_cpu_ms_per_request: None,
                },
            ],
            posting: PostingFigures {
                poster_followers: 100,
                posts: 500,
                ok: 500,
                errors: 0,
                first_error: None,
                posts_per_sec: 250.0,
                p50_ms: Some(4.0),
                p99_ms: Some(8.0),
                secs: 2.0,
            },
            fanout: FanoutFigures {
                followers: 10_000,
                probes: 50,
                probes_reached: 49,
                poll_interval_ms: 50,
                visible_in_all_probes_ms: None,
                post_ms: 900.0,
                poll_errors: 0,
                followers_with_post: 10_000,
            },
            rss: RssFigures {
                pid: None,
                peak_mb: None,
                current_mb: None,
                note: Some("not measured (no --pid)".into()),
            },
            streaming: Some(StreamingFigures {
                settings: Streaming {
                    idle: 10_000,
                    followers: 1000,
                    public: 1000,
                    posts: 5,
                    open_at_once: 200,
                },
                open_files_limit: Some(20_000),
                server_open_files_limit: None,
                idle: Some(IdleFigures {
                    connections: 10_000,
                    tokens: 9_000,
                    opened: 10_000,
                    failed: 0,
                    first_error: None,
                    open_secs: 5.0,
                    rss_before_mb: Some(70.0),
                    rss_after_mb: Some(260.0),
                    kb_per_connection: Some(19.5),
                    rss_end_mb: Some(262.0),
                    closed_early: 0,
                    stray_messages: 0,
                }),
                followers: Some(delivery("followers", 1000, Some(80.0))),
                public: Some(delivery("public", 999, Some(20.0))),
            }),
        }
    }

    fn latencies(p99_ms: Option<f64>) -> Latencies {
        Latencies {
            count: 5000,
            p50_ms: p99_ms.map(|p| p / 4.0),
            p95_ms: p99_ms.map(|p| p / 2.0),
            p99_ms,
            max_ms: p99_ms.map(|p| p * 2.0),
        }
    }

    fn delivery(audience: &str, opened: usize, p99_ms: Option<f64>) -> DeliveryFigures {
        DeliveryFigures {
            label: audience.into(),
            audience: audience.into(),
            connections: 1000,
            opened,
            open_failed: 1000 - opened,
            first_open_error: None,
            open_secs: 1.0,
            websocket_connections: 500,
            sse_connections: opened - 500,
            posts: 5,
            post_errors: 0,
            first_post_error: None,
            post_p50_ms: Some(5.0),
            expected: opened as u64 * 5,
            delivered: opened as u64 * 5,
            before_answer: 0,
            late: 0,
            missing_note: None,
            after_answer: latencies(p99_ms),
            websocket: latencies(p99_ms),
            sse: latencies(p99_ms),
            since_sent: latencies(p99_ms),
            closed_early: 0,
            stray_messages: 0,
            server_cpu_ms_per_post: Some(50.0),
        }
    }

    #[test]
    fn rows_judge_each_figure_against_its_target() {
        let rows = sample().rows();
        let result = |prefix: &str| {
            rows.iter()
                .find(|r| r.figure.starts_with(prefix))
                .map(|r| r.result)
                .unwrap_or_else(|| panic!("no row {prefix}"))
        };
        assert_eq!(result("home timeline limit=40: throughput"), Some("PASS"));
        assert_eq!(result("home timeline limit=40: p99"), Some("MISS"));
        assert_eq!(result("posting, sequential"), Some("PASS"));
        assert_eq!(result("fan-out to 10000"), Some("MISS"));
        assert_eq!(result("server peak RSS"), None);
        assert_eq!(result("single status: throughput"), None);
        let shown = |prefix: &str| {
            rows.iter()
                .find(|r| r.figure.starts_with(prefix))
                .map(|r| r.value.clone())
                .unwrap_or_else(|| panic!("no row {prefix}"))
        };
        assert_eq!(shown("home timeline limit=40: server CPU"), "0.250 ms");
        assert_eq!(
            shown("single status: server CPU"),
            "not measured (no --pid)"
        );
        let json = serde_json::to_value(sample()).unwrap();
        assert_eq!(json["fanout"]["probes_reached"], 49);
        assert_eq!(json["streaming"]["idle"]["opened"], 10_000);
    }

    #[test]
    fn streaming_rows_judge_rss_delivery_and_p99() {
        let rows = sample().rows();
        let row = |prefix: &str| {
            rows.iter()
                .find(|r| r.figure.starts_with(prefix))
                .unwrap_or_else(|| panic!("no row {prefix}"))
        };
        assert_eq!(row("streaming: idle WebSocket").result, Some("PASS"));
        let rss = row("streaming: server RSS with 10000 idle");
        assert_eq!(rss.result, Some("MISS"));
        assert!(rss.value.starts_with("260.0 MB (70.0 MB before"));
        assert_eq!(
            row("streaming to followers: p50/p95/p99/max").result,
            Some("PASS")
        );
        assert_eq!(
            row("streaming to followers: p50/p95/p99/max").value,
            "20.00 ms / 40.00 ms / 80.00 ms / 160.00 ms"
        );
        // A connection that did not open fails the public group's rows, fast as it was.
        assert_eq!(
            row("streaming to public: connections open").result,
            Some("MISS")
        );
        assert_eq!(
            row("streaming to public: p50/p95/p99/max").result,
            Some("MISS")
        );
        let mut skipped = sample();
        skipped.streaming = None;
        assert!(
            !skipped
                .rows()
                .iter()
                .any(|r| r.figure.starts_with("streaming"))
        );
    }
}
