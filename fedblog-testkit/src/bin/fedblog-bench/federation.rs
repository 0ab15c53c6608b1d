//! `federation`: issue 23's two federation figures, with the full activity mix, measured
//! against a fresh `fedblog-server` that this command starts (as `local` does: a temporary data
//! folder, accounts and tokens made by the server's `accounts create-many`, a free loopback
//! port), federating with
//! `FEDBLOG_ALLOW_PRIVATE_ADDRESSES=true` and rate limits off. The bench plays the other servers
//! itself, every socket on 127.0.0.1:
//!
//! - **The remote servers.** Small HTTP/1 servers on loopback ports, one actor each
//!   (`http://127.0.0.1:PORT/users/NAME`, inbox `/users/NAME/inbox`, shared inbox `/inbox`,
//!   WebFinger for `acct:NAME@127.0.0.1:PORT`). Every actor publishes the same RSA key, made
//!   once at start: one key pair serves all (making 1,000 would only cost time, and fedblog
//!   cannot tell). Every POST to an inbox has its HTTP signature verified with fedblog-core's
//!   `verify_request` against the signer's key, fetched once from fedblog's actor document, and
//!   is counted by activity type; a request that does not verify is answered 401 and counted as
//!   refused.
//! - **Inbound.** L local accounts follow the remote actor `r` by handle (`POST
//!   /api/v1/follows`); `r` answers each Follow with a signed `Accept` of it. Then N distinct
//!   `Create` activities of public `Note`s by `r` (to Public, cc its followers), signed before
//!   the clock starts (signing costs the bench CPU on the cores the server uses), are POSTed to
//!   fedblog's shared inbox over C keep-alive connections. Throughput is the accepted (202)
//!   activities over the wall time from the first send to the last answer; fedblog verifies,
//!   stores and fans out to the local followers' home feeds within the request. Afterwards each
//!   follower's home timeline is read for the last note (proof of the fan-out).
//! - **Inbound, the full mix** (`inbound_mix.rs`; `--no-mix` skips it). Then `r` sends M more
//!   signed activities, interleaved in a fixed cycle: per 20, 6 `Create`, 5 `Like` and 3
//!   `Announce` of local posts, 2 `Update` and 2 `Delete` of notes the mix created, 1 `Follow`
//!   of a local account and 1 `Undo` of such a Follow. Its throughput, latency per kind and the
//!   outcome read back through the client API are reported next to the `Create`-only figures.
//! - **Outbound.** S remote servers on S distinct ports (distinct servers: a host includes its
//!   port), each with actor `f` whose shared inbox is on the same port, follow the local account
//!   `author` (signed `Follow` to `/users/author/inbox`); fedblog fetches each actor and answers
//!   with an `Accept`. Once the author has S followers and the Accepts have stopped arriving,
//!   the author posts one public status; the figure is the time from sending that POST to the
//!   moment every server has received, and verified, the `Create` of that note.
//! - **Outbound, the full mix** (`outbound_mix.rs`; `--no-mix` skips it). Then, one at a time,
//!   the author edits the post (`Update`), boosts it (`Announce`) and takes the boost back
//!   (`Undo`), posts a poll (`Create` of a `Question`), changes its profile (`Update` of the
//!   `Person`) and deletes the post (`Delete`); each is timed like the post, from the API call
//!   until every server has received and verified it, with its refusals and duplicates.
//!
//! The summary table shows each figure next to its target, the settings (the server's workers,
//! connections, N, L, S) and the server's peak RSS; the server's log is summarised (warnings and
//! errors). A missed target is a finding; the exit status is non-zero only when a phase could
//! not be completed (set-up failed, an activity was refused, a delivery never came).

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{SecondsFormat, Utc};
use fedblog_core::api::accounts::get_account::GetAccount;
use fedblog_core::api::accounts::get_relationships::GetRelationships;
use fedblog_core::api::activitypub::shared_inbox::SharedInbox;
use fedblog_core::api::follows::follow_by_uri::FollowByUri;
use fedblog_core::api::{Endpoint, fill_path};
use fedblog_core::federation::RawBody;
use fedblog_core::federation::keys::{KEY_BITS, PrivateKey, generate_key_pair};
use fedblog_core::federation::paths;
use fedblog_core::federation::signatures::{sign_request, signature_key_id, verify_request};
use fedblog_core::federation::vocab::{ACTIVITY_JSON, ACTIVITY_STREAMS, Actor, PUBLIC};
use fedblog_core::services::federation::SIGNATURE_MAX_SKEW;
use futures_util::StreamExt;
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::task::JoinSet;

use fedblog_testkit::peer::{
    MAX_INBOX_BODY, activity_json, actor_document, fetch_json, plain, read_raw, serve_http,
    webfinger_jrd,
};

use crate::api;
use crate::cli::FederationArgs;
use crate::report::Row;
use crate::run::{cpu_secs, read_rss};
use crate::seed;

mod inbound_mix;
mod outbound_mix;

/// Inbound: signed `Create` activities processed end to end per second, at least.
pub const INBOUND_TARGET_PER_SEC: f64 = 300.0;
/// Outbound: one post delivered to every remote server within this many seconds.
pub const OUTBOUND_TARGET_SECS: f64 = 10.0;

/// Longest wait for the server to answer after it starts.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// Longest wait for follows to be accepted, followers to be counted, Accepts to arrive.
const SETTLE_TIMEOUT: Duration = Duration::from_secs(180);
/// Longest wait for the post to reach every remote server.
const DELIVERY_TIMEOUT: Duration = Duration::from_secs(120);
/// Accepts have "stopped arriving" after this long without an inbox POST.
const QUIET: Duration = Duration::from_secs(1);
/// The scopes of the tokens made.
const SCOPES: &str = "read write follow push";
/// The local account whose post is delivered.
const AUTHOR: &str = "author";
/// The remote actor the local followers follow (inbound).
const INBOUND_ACTOR: &str = "r";
/// The actor of each remote server following the author (outbound).
const OUTBOUND_ACTOR: &str = "f";

/// Resolved settings.
#[derive(Debug, Clone, serde::Serialize)]
struct Settings {
    activities: usize,
    mix_activities: usize,
    local_followers: usize,
    connections: usize,
    servers: usize,
    follow_concurrency: usize,
    workers: usize,
    worker_poll_ms: u64,
    inbound: bool,
    outbound: bool,
    mix: bool,
    database: &'static str,
}

impl Settings {
    fn resolve(args: &FederationArgs) -> Result<Settings, String> {
        let pick = |given: Option<usize>, full: usize, small: usize| {
            given.unwrap_or(if args.small { small } else { full })
        };
        let settings = Settings {
            activities: pick(args.activities, 3000, 200),
            mix_activities: pick(args.mix_activities, 3000, 200),
            local_followers: pick(args.local_followers, 20, 5),
            connections: args.connections,
            servers: pick(args.servers, 1000, 50),
            follow_concurrency: args.follow_concurrency,
            workers: args.workers,
            worker_poll_ms: args.worker_poll_ms,
            inbound: !args.no_inbound,
            outbound: !args.no_outbound,
            mix: !args.no_mix,
            database: database_kind(args.database_url.as_deref()),
        };
        for (name, value) in [
            ("--activities", settings.activities),
            ("--mix-activities", settings.mix_activities),
            ("--local-followers", settings.local_followers),
            ("--connections", settings.connections),
            ("--servers", settings.servers),
            ("--follow-concurrency", settings.follow_concurrency),
            ("--workers", settings.workers),
        ] {
            if value == 0 {
                return Err(format!("{name} must be at least 1"));
            }
        }
        if !(settings.inbound || settings.outbound) {
            return Err("--no-inbound and --no-outbound leave nothing to measure".into());
        }
        Ok(settings)
    }

    fn line(&self) -> String {
        let mix = if self.mix {
            format!(
                "then M={} mixed activities (per 20: {})",
                self.mix_activities,
                inbound_mix::Kind::cycle_line()
            )
        } else {
            "no mix".to_string()
        };
        format!(
            "FEDBLOG_WORKERS={}, FEDBLOG_WORKER_POLL_MS={}, {}; inbound: N={} Creates, {mix}, over C={} connections, L={} local followers; outbound: S={} servers, follows {} at a time, {}; one {KEY_BITS}-bit RSA key shared by every bench actor; inbound requests signed before timing",
            self.workers,
            self.worker_poll_ms,
            self.database,
            self.activities,
            self.connections,
            self.local_followers,
            self.servers,
            self.follow_concurrency,
            if self.mix {
                "a post then its edit, boost, unboost, a poll, a profile update and its deletion"
            } else {
                "one post"
            }
        )
    }
}

/// `fedblog-bench federation`.
pub async fn command(args: FederationArgs) -> Result<(), String> {
    let settings = Settings::resolve(&args)?;
    let server_bin = match &args.server_bin {
        Some(p) if p.is_file() => p.clone(),
        Some(p) => return Err(format!("no server binary at {}", p.display())),
        None => seed::default_server_bin()?,
    };
    check_open_files(&settings);
    println!("settings: {}", settings.line());
    let dir = DataDir::new()?;
    println!("data folder {} (removed afterwards)", dir.path.display());
    let port = free_port()?;
    let listen = format!("127.0.0.1:{port}");
    let base = format!("http://{listen}");
    let database_url = args
        .database_url
        .clone()
        .unwrap_or_else(|| sqlite_url(&dir.path));
    let log_path = args
        .server_log
        .clone()
        .unwrap_or_else(|| dir.path.join("server.log"));

    let key_started = Instant::now();
    let pair = tokio::task::spawn_blocking(generate_key_pair)
        .await
        .map_err(|e| format!("key generation stopped: {e}"))?
        .map_err(|e| format!("cannot make the bench's key pair: {e}"))?;
    let key = PrivateKey::from_pem(&pair.private_key_pem)
        .map_err(|e| format!("cannot read the bench's key: {e}"))?;
    println!(
        "one {KEY_BITS}-bit RSA key pair for every bench actor, made in {:.2} s",
        key_started.elapsed().as_secs_f64()
    );

    let mut names = vec![AUTHOR.to_string()];
    names.extend((1..=settings.local_followers).map(|n| format!("follower_{n}")));
    let tokens = create_accounts(&server_bin, &database_url, &dir.path, &listen, &names).await?;
    let author_token = tokens[0].clone();
    let follower_tokens = tokens[1..].to_vec();
    let follower_names = names[1..].to_vec();

    println!(
        "starting {} on {listen} (log: {})",
        server_bin.display(),
        log_path.display()
    );
    let mut server = Server::start(
        &server_bin,
        &dir.path,
        &database_url,
        &listen,
        &settings,
        &log_path,
    )?;
    server.wait_ready(&base).await?;
    let pid = server.pid();
    let fed = Fedblog::new(&base, settings.connections)?;

    let mut rows = Vec::new();
    let mut failures = Vec::new();
    let mut inbound_note = None;
    if settings.inbound {
        match inbound(
            &fed,
            &settings,
            &key,
            &pair.public_key_pem,
            (&follower_tokens, &follower_names),
            pid,
        )
        .await
        {
            Ok(figures) => {
                if let Some(why) = figures.incomplete() {
                    failures.push(format!("inbound: {why}"));
                }
                figures.rows(&mut rows);
                inbound_note = figures.last_note.clone();
                match &figures.mix {
                    Some(Ok(mix)) => {
                        if let Some(why) = mix.incomplete() {
                            failures.push(format!("inbound mix: {why}"));
                        }
                        mix.rows(&mut rows);
                    }
                    Some(Err(e)) => {
                        failures.push(format!("inbound mix: {e}"));
                        rows.push(judged("inbound mix", format!("failed: {e}"), "-", false));
                    }
                    None => {}
                }
            }
            Err(e) => {
                failures.push(format!("inbound: {e}"));
                rows.push(judged("inbound", format!("failed: {e}"), "-", false));
            }
        }
    }
    if settings.outbound {
        match outbound(
            &fed,
            &settings,
            &key,
            &pair.public_key_pem,
            &author_token,
            pid,
        )
        .await
        {
            Ok(figures) => {
                if let Some(why) = figures.incomplete() {
                    failures.push(format!("outbound: {why}"));
                }
                figures.rows(&mut rows);
            }
            Err(e) => {
                failures.push(format!("outbound: {e}"));
                rows.push(judged("outbound", format!("failed: {e}"), "-", false));
            }
        }
    }
    match read_rss(pid) {
        Ok((peak, now)) => {
            rows.push(row("server peak RSS (VmHWM)", format!("{peak:.1} MB")));
            rows.push(row("server RSS at the end (VmRSS)", format!("{now:.1} MB")));
        }
        Err(e) => rows.push(row("server peak RSS", format!("not measured: {e}"))),
    }
    let exited = server.exited();
    server.stop();
    let log = LogSummary::read(&log_path);
    rows.push(row(
        "server log (FEDBLOG_LOG=warn)",
        format!("{} warnings, {} errors", log.warnings, log.errors),
    ));
    if let Some(status) = exited {
        failures.push(format!("the server exited during the run ({status})"));
    }

    print_table(&base, &settings, &rows);
    if let Some(note) = inbound_note {
        println!("fan-out proof (first follower's home timeline): {note}");
    }
    log.print();
    if let Some(path) = &args.json {
        let doc = json!({ "settings": settings, "summary": rows, "failures": failures });
        let text = serde_json::to_string_pretty(&doc)
            .map_err(|e| format!("cannot encode the figures: {e}"))?;
        std::fs::write(path, text + "\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("figures written to {}", path.display());
    }
    drop(dir);
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("incomplete run: {}", failures.join("; ")))
    }
}

// ---------------------------------------------------------------------------------------------
// Inbound
// ---------------------------------------------------------------------------------------------

/// What the inbound measurement found.
struct InboundFigures {
    remote_acct: String,
    followers: usize,
    setup_secs: f64,
    accepts_sent: u64,
    sign_secs: f64,
    activities: usize,
    connections: usize,
    ok: usize,
    errors: usize,
    first_error: Option<String>,
    wall_secs: f64,
    per_sec: f64,
    p50_ms: Option<f64>,
    p99_ms: Option<f64>,
    max_ms: Option<f64>,
    server_cpu_ms: Option<f64>,
    bench_cpu_ms: Option<f64>,
    homes_with_last: usize,
    last_note: Option<String>,
    refused: u64,
    first_refusal: Option<String>,
    /// The full mix, after the Creates (`None` with `--no-mix`).
    mix: Option<Result<inbound_mix::MixFigures, String>>,
}

impl InboundFigures {
    fn incomplete(&self) -> Option<String> {
        if self.errors > 0 {
            Some(format!(
                "{} of {} activities were not accepted{}",
                self.errors,
                self.activities,
                first(&self.first_error)
            ))
        } else if self.homes_with_last < self.followers {
            Some(format!(
                "the last note is in {} of {} followers' home timelines",
                self.homes_with_last, self.followers
            ))
        } else {
            None
        }
    }

    fn rows(&self, rows: &mut Vec<Row>) {
        rows.push(row(
            "inbound: set-up",
            format!(
                "{} local accounts follow {} ({} Accepts sent) in {:.2} s",
                self.followers, self.remote_acct, self.accepts_sent, self.setup_secs
            ),
        ));
        rows.push(row(
            "inbound: signing the requests (before timing)",
            format!("{} in {:.2} s", self.activities, self.sign_secs),
        ));
        rows.push(judged(
            "inbound: signed Creates accepted (202) at /inbox",
            format!(
                "{} of {} ({} errors{})",
                self.ok,
                self.activities,
                self.errors,
                first(&self.first_error)
            ),
            "all",
            self.errors == 0,
        ));
        rows.push(judged(
            format!(
                "inbound: throughput, {} connections (verified, stored, fanned out to {})",
                self.connections, self.followers
            ),
            format!("{:.1} activities/s ({:.2} s)", self.per_sec, self.wall_secs),
            format!(">= {INBOUND_TARGET_PER_SEC:.0}/s"),
            self.incomplete().is_none() && self.per_sec >= INBOUND_TARGET_PER_SEC,
        ));
        rows.push(row(
            "inbound: latency p50 / p99 / max",
            format!(
                "{} / {} / {}",
                ms(self.p50_ms),
                ms(self.p99_ms),
                ms(self.max_ms)
            ),
        ));
        rows.push(row(
            "inbound: CPU per activity, server / bench",
            format!("{} / {}", ms(self.server_cpu_ms), ms(self.bench_cpu_ms)),
        ));
        rows.push(judged(
            "inbound: fan-out proof, last note in home timelines",
            format!("{} of {}", self.homes_with_last, self.followers),
            "all",
            self.homes_with_last == self.followers,
        ));
        rows.push(judged(
            "inbound: fedblog requests the remote refused",
            format!("{}{}", self.refused, first(&self.first_refusal)),
            "0",
            self.refused == 0,
        ));
    }
}

async fn inbound(
    fed: &Fedblog,
    settings: &Settings,
    key: &PrivateKey,
    public_pem: &str,
    (follower_tokens, follower_names): (&[String], &[String]),
    pid: u32,
) -> Result<InboundFigures, String> {
    println!();
    println!(
        "inbound: {} local followers, {} signed Creates over {} connections",
        follower_tokens.len(),
        settings.activities,
        settings.connections
    );
    let started = Instant::now();
    let remote = Remote::start(INBOUND_ACTOR, 1, key, public_pem, fed).await?;
    let acct = format!("{INBOUND_ACTOR}@{}", remote.host(0));
    let actor = remote.actor(0);

    // Follow by handle: the first alone (fedblog looks the actor up), then the rest.
    let first_token = follower_tokens.first().ok_or("no local followers")?.clone();
    let remote_id = fed.follow_by_handle(&first_token, &acct).await?;
    let rest: Vec<Result<String, String>> =
        futures_util::stream::iter(follower_tokens[1..].iter().cloned())
            .map(|token| {
                let acct = acct.clone();
                async move { fed.follow_by_handle(&token, &acct).await }
            })
            .buffer_unordered(8)
            .collect()
            .await;
    for id in rest {
        let id = id?;
        if id != remote_id {
            return Err(format!(
                "{acct} has two accounts in fedblog ({remote_id} and {id})"
            ));
        }
    }
    wait_until(
        &format!("every local follower follows {acct}"),
        SETTLE_TIMEOUT,
        || async {
            let mut following = 0;
            for token in follower_tokens {
                if fed.following(token, &remote_id).await? {
                    following += 1;
                }
            }
            Ok((following == follower_tokens.len())
                .then_some(())
                .ok_or(format!("{following} of {}", follower_tokens.len())))
        },
    )
    .await?;
    let setup_secs = started.elapsed().as_secs_f64();
    let accepts_sent = remote.tally.accepts_sent.load(Ordering::Relaxed);
    println!(
        "  {} followers follow {acct} after {setup_secs:.2} s ({accepts_sent} Accepts sent)",
        follower_tokens.len()
    );

    // The activities, signed before the clock starts.
    let run = run_tag();
    let followers_url = paths::followers(&actor);
    let inbox = format!("{}{}", fed.base, SharedInbox::PATH);
    let published = Utc::now();
    let bodies: Vec<(usize, String, String)> = (0..settings.activities)
        .map(|i| {
            let at = (published + chrono::Duration::milliseconds(i as i64))
                .to_rfc3339_opts(SecondsFormat::Millis, true);
            let note = format!("{actor}/statuses/{run}-{i}");
            let body = json!({
                "@context": ACTIVITY_STREAMS,
                "id": format!("{note}/activity"),
                "type": "Create",
                "actor": actor,
                "published": at,
                "to": [PUBLIC],
                "cc": [followers_url],
                "object": {
                    "id": note,
                    "type": "Note",
                    "attributedTo": actor,
                    "content": format!("<p>Inbound note {i} of {} ({})</p>", settings.activities, note_marker(&run, i)),
                    "published": at,
                    "url": note,
                    "to": [PUBLIC],
                    "cc": [followers_url],
                },
            });
            (0, inbox.clone(), body.to_string())
        })
        .collect();
    let signing = Instant::now();
    let signed = Arc::new(remote.sign_all(bodies).await?);
    let sign_secs = signing.elapsed().as_secs_f64();
    println!(
        "  {} requests signed in {sign_secs:.2} s (not timed)",
        signed.len()
    );

    // The timed part.
    let client = api::client(settings.connections)?;
    let next = Arc::new(AtomicUsize::new(0));
    let cpu_before = cpu_secs(pid).ok();
    let bench_before = cpu_secs(std::process::id()).ok();
    let start = Instant::now();
    let mut tasks = JoinSet::new();
    for _ in 0..settings.connections {
        let (client, signed, next) = (client.clone(), signed.clone(), next.clone());
        tasks.spawn(async move {
            let mut done = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(request) = signed.get(i) else {
                    break;
                };
                let sent = Instant::now();
                let outcome = request.send(&client).await;
                done.push((sent.elapsed(), Instant::now(), outcome));
            }
            done
        });
    }
    let mut latencies = Vec::new();
    let mut last_answer = start;
    let (mut ok, mut errors, mut first_error) = (0, 0, None);
    while let Some(joined) = tasks.join_next().await {
        let done = joined.map_err(|e| format!("a sending task stopped: {e}"))?;
        for (latency, at, outcome) in done {
            last_answer = last_answer.max(at);
            match outcome {
                Ok(_) => {
                    ok += 1;
                    latencies.push(latency);
                }
                Err(e) => {
                    errors += 1;
                    first_error.get_or_insert(e);
                }
            }
        }
    }
    let wall = last_answer.duration_since(start);
    let cpu_after = cpu_secs(pid).ok();
    let bench_after = cpu_secs(std::process::id()).ok();
    let per_activity = |before: Option<f64>, after: Option<f64>| match (before, after) {
        (Some(b), Some(a)) if ok > 0 => Some((a - b) * 1000.0 / ok as f64),
        _ => None,
    };
    latencies.sort();
    let per_sec = if wall.is_zero() {
        0.0
    } else {
        ok as f64 / wall.as_secs_f64()
    };
    println!(
        "  {ok} of {} accepted in {:.2} s: {per_sec:.1} activities/s, p50 {}, p99 {}, {errors} errors{}",
        settings.activities,
        wall.as_secs_f64(),
        ms(percentile(&latencies, 50.0)),
        ms(percentile(&latencies, 99.0)),
        first(&first_error)
    );

    // The proof of the fan-out: the last note in every follower's home timeline.
    let marker = note_marker(&run, settings.activities - 1);
    let mut homes_with_last = 0;
    let mut last_note = None;
    for token in follower_tokens {
        let home = fed.get(&api::home_path(40), token).await?;
        let found = home.as_array().and_then(|list| {
            list.iter().find(|s| {
                s.get("content")
                    .and_then(Value::as_str)
                    .is_some_and(|c| c.contains(&marker))
            })
        });
        if let Some(status) = found {
            homes_with_last += 1;
            if last_note.is_none() {
                last_note = Some(format!(
                    "id {} by {}: {} (uri {})",
                    status["id"].as_str().unwrap_or("?"),
                    status["account"]["acct"].as_str().unwrap_or("?"),
                    status["content"].as_str().unwrap_or("?"),
                    status["uri"].as_str().unwrap_or("?")
                ));
            }
        }
    }
    println!(
        "  the last note is in {homes_with_last} of {} home timelines",
        follower_tokens.len()
    );
    let (refused, first_refusal) = remote.tally.refusals();
    let mix = if settings.mix {
        let locals = inbound_mix::Locals {
            tokens: follower_tokens,
            names: follower_names,
        };
        Some(
            inbound_mix::run(
                fed,
                &remote,
                &remote_id,
                locals,
                settings.mix_activities,
                settings.connections,
                pid,
            )
            .await,
        )
    } else {
        None
    };
    remote.stop();
    Ok(InboundFigures {
        remote_acct: acct,
        followers: follower_tokens.len(),
        setup_secs,
        accepts_sent,
        sign_secs,
        activities: settings.activities,
        connections: settings.connections,
        ok,
        errors,
        first_error,
        wall_secs: wall.as_secs_f64(),
        per_sec,
        p50_ms: percentile(&latencies, 50.0),
        p99_ms: percentile(&latencies, 99.0),
        max_ms: latencies.last().map(|d| d.as_secs_f64() * 1000.0),
        server_cpu_ms: per_activity(cpu_before, cpu_after),
        bench_cpu_ms: per_activity(bench_before, bench_after),
        homes_with_last,
        last_note,
        refused,
        first_refusal,
        mix,
    })
}

/// A marker no other note's text contains (`note-RUN-1-end` is not in `note-RUN-10-end`).
fn note_marker(run: &str, i: usize) -> String {
    format!("note-{run}-{i}-end")
}

// ---------------------------------------------------------------------------------------------
// Outbound
// ---------------------------------------------------------------------------------------------

/// What the outbound measurement found.
struct OutboundFigures {
    servers: usize,
    listen_secs: f64,
    follows_ok: usize,
    follow_errors: usize,
    first_follow_error: Option<String>,
    follows_secs: f64,
    followers_count: u64,
    accepts: u64,
    settle_secs: f64,
    actor_fetches: u64,
    /// The post (`Create`).
    post: Delivered,
    /// The rest of the mix, in the order made (empty with `--no-mix`).
    mix: Vec<Delivered>,
    refused: u64,
    first_refusal: Option<String>,
}

impl OutboundFigures {
    fn incomplete(&self) -> Option<String> {
        if self.follow_errors > 0 {
            return Some(format!(
                "{} of {} follows were refused{}",
                self.follow_errors,
                self.servers,
                first(&self.first_follow_error)
            ));
        }
        std::iter::once(&self.post)
            .chain(&self.mix)
            .find_map(Delivered::incomplete)
    }

    fn rows(&self, rows: &mut Vec<Row>) {
        rows.push(row(
            "outbound: remote servers listening (distinct ports)",
            format!("{} in {:.2} s", self.servers, self.listen_secs),
        ));
        rows.push(judged(
            "outbound: signed Follows of author accepted (202)",
            format!(
                "{} of {} in {:.2} s ({} actor fetches by fedblog{})",
                self.follows_ok,
                self.servers,
                self.follows_secs,
                self.actor_fetches,
                first(&self.first_follow_error)
            ),
            "all",
            self.follow_errors == 0,
        ));
        rows.push(judged(
            "outbound: author's followers_count / Accepts verified",
            format!(
                "{} / {} (settled after {:.2} s)",
                self.followers_count, self.accepts, self.settle_secs
            ),
            format!("{0} / {0}", self.servers),
            self.followers_count == self.servers as u64 && self.accepts == self.servers as u64,
        ));
        let post = &self.post;
        rows.push(judged(
            format!(
                "outbound: post delivered to all {} servers (from sending the POST)",
                self.servers
            ),
            match (post.all_secs, &post.api_error) {
                (Some(s), _) => format!("{s:.2} s"),
                (None, Some(e)) => format!("not posted: {}", api::excerpt(e)),
                (None, None) => format!("only {} of {} servers", post.delivered, self.servers),
            },
            format!("<= {OUTBOUND_TARGET_SECS:.0} s"),
            post.all_secs.is_some_and(|s| s <= OUTBOUND_TARGET_SECS),
        ));
        rows.push(judged(
            "outbound: servers that received and verified the Create",
            format!(
                "{} of {} ({} to shared inboxes, {} to actor inboxes, {} duplicates)",
                post.delivered, self.servers, post.to_shared, post.to_actor, post.duplicates
            ),
            "all",
            post.delivered == self.servers,
        ));
        rows.push(row(
            "outbound: arrival p50 / p99 / last after the POST",
            format!(
                "{} / {} / {}",
                ms(post.p50_ms),
                ms(post.p99_ms),
                ms(post.last_ms)
            ),
        ));
        rows.push(row(
            "outbound: latency of the POST /api/v1/statuses",
            format!("{:.1} ms", post.api_ms),
        ));
        rows.push(row(
            "outbound: server CPU from the POST to the last arrival",
            match post.server_cpu_secs {
                Some(s) => format!("{s:.2} s"),
                None => "not measured".into(),
            },
        ));
        for step in &self.mix {
            step.row(rows);
        }
        if !self.mix.is_empty() {
            let all = std::iter::once(&self.post).chain(&self.mix);
            let slowest = all
                .clone()
                .filter_map(|d| d.all_secs.map(|s| (s, d.kind)))
                .max_by(|a, b| a.0.total_cmp(&b.0));
            let complete = all.clone().filter(|d| d.all_secs.is_some()).count();
            rows.push(judged(
                format!(
                    "outbound mix: kinds delivered to all {} servers, slowest",
                    self.servers
                ),
                format!(
                    "{complete} of {}{}",
                    self.mix.len() + 1,
                    slowest
                        .map(|(s, kind)| format!("; slowest {kind}, {s:.2} s"))
                        .unwrap_or_default()
                ),
                "all",
                complete == self.mix.len() + 1,
            ));
        }
        rows.push(judged(
            "outbound: deliveries the remote servers refused",
            format!("{}{}", self.refused, first(&self.first_refusal)),
            "0",
            self.refused == 0,
        ));
    }
}

/// One local action, timed from its API call until every remote server has received and
/// verified its activity.
struct Delivered {
    /// The activity's kind, as the rows name it (`Create`, `Update (edit)`, ...).
    kind: &'static str,
    /// The API call that made it.
    call: &'static str,
    servers: usize,
    api_ms: f64,
    api_error: Option<String>,
    delivered: usize,
    all_secs: Option<f64>,
    p50_ms: Option<f64>,
    p99_ms: Option<f64>,
    last_ms: Option<f64>,
    duplicates: u64,
    to_shared: u64,
    to_actor: u64,
    server_cpu_secs: Option<f64>,
    /// Deliveries refused from the call until every server had it (or time ran out).
    refused: u64,
    watch: Arc<Watch>,
}

impl Delivered {
    /// Makes the call with `remote` watching for the activities `matches` picks out, and waits
    /// until every server has one (at most [`DELIVERY_TIMEOUT`]).
    async fn time<Fut>(
        remote: &Remote,
        pid: u32,
        kind: &'static str,
        call: &'static str,
        matches: impl Fn(&Value) -> bool + Send + Sync + 'static,
        made: Fut,
    ) -> Delivered
    where
        Fut: std::future::Future<Output = Result<Value, String>>,
    {
        let refused_before = remote.tally.refusals().0;
        let cpu_before = cpu_secs(pid).ok();
        let watch = remote.watch(matches);
        let outcome = made.await;
        let api_ms = watch.since.elapsed().as_secs_f64() * 1000.0;
        let api_error = outcome.err();
        if api_error.is_none() {
            watch.wait_all(watch.since + DELIVERY_TIMEOUT).await;
        }
        let cpu_after = cpu_secs(pid).ok();
        let arrivals = watch.arrivals();
        let servers = watch.arrivals.len();
        let delivered = arrivals.len();
        Delivered {
            kind,
            call,
            servers,
            api_ms,
            api_error,
            delivered,
            all_secs: (delivered == servers)
                .then(|| arrivals.last().map(Duration::as_secs_f64))
                .flatten(),
            p50_ms: percentile(&arrivals, 50.0),
            p99_ms: percentile(&arrivals, 99.0),
            last_ms: arrivals.last().map(|d| d.as_secs_f64() * 1000.0),
            duplicates: 0,
            to_shared: 0,
            to_actor: 0,
            server_cpu_secs: match (cpu_before, cpu_after) {
                (Some(b), Some(a)) => Some(a - b),
                _ => None,
            },
            refused: remote.tally.refusals().0 - refused_before,
            watch,
        }
    }

    /// Reads the counts that late arrivals can still change (duplicates).
    fn settle(&mut self) {
        self.duplicates = self.watch.duplicates.load(Ordering::Relaxed);
        self.to_shared = self.watch.to_shared.load(Ordering::Relaxed);
        self.to_actor = self.watch.to_actor.load(Ordering::Relaxed);
    }

    /// One line for the console.
    fn line(&self) -> String {
        match (&self.api_error, self.all_secs) {
            (Some(e), _) => format!("{}: {} failed: {e}", self.kind, self.call),
            (None, Some(s)) => format!(
                "{} reached all {} servers within {s:.2} s (p50 {}); {} took {:.1} ms",
                self.kind,
                self.servers,
                ms(self.p50_ms),
                self.call,
                self.api_ms
            ),
            (None, None) => format!(
                "{} reached {} of {} servers within {} s; {} took {:.1} ms",
                self.kind,
                self.delivered,
                self.servers,
                DELIVERY_TIMEOUT.as_secs(),
                self.call,
                self.api_ms
            ),
        }
    }

    fn incomplete(&self) -> Option<String> {
        match (&self.api_error, self.all_secs) {
            (Some(e), _) => Some(format!("{} ({}) failed: {e}", self.kind, self.call)),
            (None, Some(_)) => None,
            (None, None) => Some(format!(
                "the {} reached {} of {} servers within {} s",
                self.kind,
                self.delivered,
                self.servers,
                DELIVERY_TIMEOUT.as_secs()
            )),
        }
    }

    /// The mix's row for this kind: time to all servers, arrivals, refusals.
    fn row(&self, rows: &mut Vec<Row>) {
        let value = match (&self.api_error, self.all_secs) {
            (Some(e), _) => format!("not made: {}", api::excerpt(e)),
            (None, all) => format!(
                "{}; p50 / p99 / last {} / {} / {}; API {:.1} ms; {} refused, {} duplicates",
                match all {
                    Some(s) => format!("all {} in {s:.2} s", self.servers),
                    None => format!("only {} of {}", self.delivered, self.servers),
                },
                ms(self.p50_ms),
                ms(self.p99_ms),
                ms(self.last_ms),
                self.api_ms,
                self.refused,
                self.duplicates
            ),
        };
        rows.push(judged(
            format!("outbound mix: {}, {}", self.kind, self.call),
            value,
            format!("<= {OUTBOUND_TARGET_SECS:.0} s, 0 refused"),
            self.all_secs.is_some_and(|s| s <= OUTBOUND_TARGET_SECS) && self.refused == 0,
        ));
    }
}

async fn outbound(
    fed: &Fedblog,
    settings: &Settings,
    key: &PrivateKey,
    public_pem: &str,
    author_token: &str,
    pid: u32,
) -> Result<OutboundFigures, String> {
    println!();
    println!(
        "outbound: {} remote servers follow {AUTHOR}, who posts once{}",
        settings.servers,
        if settings.mix {
            ", then edits, boosts, unboosts, posts a poll, updates the profile and deletes the post"
        } else {
            ""
        }
    );
    let listening = Instant::now();
    let remote = Remote::start(OUTBOUND_ACTOR, settings.servers, key, public_pem, fed).await?;
    let listen_secs = listening.elapsed().as_secs_f64();
    let author = paths::actor(&fed.base, AUTHOR);
    let author_id = fed.account_id(author_token).await?;
    // The author's key, fetched once (fedblog makes it on first use).
    remote.signer(&paths::key_id(&author)).await?;

    // Every server's actor follows the author.
    let author_inbox = paths::inbox(&author);
    let run = run_tag();
    let follows: Vec<(usize, String, String)> = (0..settings.servers)
        .map(|i| {
            let actor = remote.actor(i);
            let body = json!({
                "@context": ACTIVITY_STREAMS,
                "id": format!("{actor}#follows/{run}"),
                "type": "Follow",
                "actor": actor,
                "object": author,
            });
            (i, author_inbox.clone(), body.to_string())
        })
        .collect();
    let signed = remote.sign_all(follows).await?;
    let following = Instant::now();
    let client = api::client(settings.follow_concurrency)?;
    let outcomes: Vec<Result<u16, String>> = futures_util::stream::iter(signed.iter())
        .map(|request| request.send(&client))
        .buffer_unordered(settings.follow_concurrency)
        .collect()
        .await;
    let follows_secs = following.elapsed().as_secs_f64();
    let follow_errors: Vec<String> = outcomes.into_iter().filter_map(Result::err).collect();
    let follows_ok = settings.servers - follow_errors.len();
    println!(
        "  {follows_ok} of {} Follows accepted in {follows_secs:.2} s{}",
        settings.servers,
        first(&follow_errors.first().cloned())
    );

    // Settle: every follower counted, every Accept in, then nothing more arriving.
    let expected = follows_ok as u64;
    let account_path = fill_path(GetAccount::PATH, &[("id", &author_id)]);
    let mut followers_count = 0;
    let settle = wait_until(
        "the author's followers and Accepts",
        SETTLE_TIMEOUT,
        || async {
            let account = fed.get(&account_path, author_token).await?;
            let count = account["followers_count"].as_u64().unwrap_or(0);
            let accepts = remote.tally.count("Accept");
            Ok((count >= expected && accepts >= expected)
                .then_some(count)
                .ok_or(format!(
                    "followers_count {count}, {accepts} Accepts of {expected}"
                )))
        },
    )
    .await;
    match settle {
        Ok(count) => followers_count = count,
        Err(e) => println!("  {e}"),
    }
    remote.wait_quiet(QUIET, SETTLE_TIMEOUT).await;
    let settle_secs = following.elapsed().as_secs_f64() - follows_secs;
    let accepts = remote.tally.count("Accept");
    println!(
        "  followers_count {followers_count}, {accepts} Accepts verified, quiet after {settle_secs:.2} s more"
    );
    if followers_count == 0 {
        let account = fed.get(&account_path, author_token).await?;
        followers_count = account["followers_count"].as_u64().unwrap_or(0);
    }

    // The post, timed until every server has it.
    let marker = format!("post-{run}-end");
    let text = format!("Outbound benchmark post {marker}");
    let post_marker = marker.clone();
    let mut posted = None;
    let post = Delivered::time(
        &remote,
        pid,
        "Create",
        "POST /api/v1/statuses",
        move |a| {
            a["type"] == "Create"
                && a["object"]["content"]
                    .as_str()
                    .is_some_and(|c| c.contains(&post_marker))
        },
        async {
            let status = fed
                .post_status(author_token, &json!({"status": text}))
                .await?;
            posted = Some(status.clone());
            Ok(status)
        },
    )
    .await;
    println!("  {}", post.line());
    let mut mix = Vec::new();
    if settings.mix
        && let Some(status) = &posted
    {
        mix = outbound_mix::run(fed, &remote, pid, author_token, status, &run).await;
    }
    // Anything late (a duplicate, a retry) shows within a moment.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut post = post;
    post.settle();
    for step in &mut mix {
        step.settle();
    }
    let (refused, first_refusal) = remote.tally.refusals();
    let figures = OutboundFigures {
        servers: settings.servers,
        listen_secs,
        follows_ok,
        follow_errors: follow_errors.len(),
        first_follow_error: follow_errors.first().cloned(),
        follows_secs,
        followers_count,
        accepts,
        settle_secs,
        actor_fetches: remote.tally.actor_fetches.load(Ordering::Relaxed),
        post,
        mix,
        refused,
        first_refusal,
    };
    remote.stop();
    Ok(figures)
}

// ---------------------------------------------------------------------------------------------
// The remote servers the bench plays
// ---------------------------------------------------------------------------------------------

/// A signer's key and inbox, from its actor document.
#[derive(Clone, Debug)]
struct Signer {
    pem: String,
    inbox: String,
}

/// An activity whose arrival at every remote server is timed: the first verified activity each
/// server receives that `matches` counts; any later one that matches is a duplicate.
struct Watch {
    matches: Box<dyn Fn(&Value) -> bool + Send + Sync>,
    since: Instant,
    /// Per server: microseconds from `since` to the arrival, plus one (0: not arrived).
    arrivals: Vec<AtomicU64>,
    arrived: AtomicUsize,
    duplicates: AtomicU64,
    to_shared: AtomicU64,
    to_actor: AtomicU64,
}

impl Watch {
    /// A watch for `servers` servers, timed from now.
    fn new(servers: usize, matches: impl Fn(&Value) -> bool + Send + Sync + 'static) -> Watch {
        Watch {
            matches: Box::new(matches),
            since: Instant::now(),
            arrivals: (0..servers).map(|_| AtomicU64::new(0)).collect(),
            arrived: AtomicUsize::new(0),
            duplicates: AtomicU64::new(0),
            to_shared: AtomicU64::new(0),
            to_actor: AtomicU64::new(0),
        }
    }

    /// Notes `activity`'s arrival at server `server` if it is the one watched.
    fn observe(&self, server: usize, shared: bool, activity: &Value) {
        if !(self.matches)(activity) {
            return;
        }
        if shared {
            self.to_shared.fetch_add(1, Ordering::Relaxed);
        } else {
            self.to_actor.fetch_add(1, Ordering::Relaxed);
        }
        let micros = self.since.elapsed().as_micros() as u64 + 1;
        let Some(slot) = self.arrivals.get(server) else {
            return;
        };
        match slot.compare_exchange(0, micros, Ordering::AcqRel, Ordering::Relaxed) {
            Ok(_) => {
                self.arrived.fetch_add(1, Ordering::AcqRel);
            }
            Err(_) => {
                self.duplicates.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// The arrival times so far, sorted.
    fn arrivals(&self) -> Vec<Duration> {
        let mut arrivals: Vec<Duration> = self
            .arrivals
            .iter()
            .filter_map(|a| match a.load(Ordering::Relaxed) {
                0 => None,
                micros => Some(Duration::from_micros(micros - 1)),
            })
            .collect();
        arrivals.sort();
        arrivals
    }

    /// Waits until every server has it, or until `deadline`.
    async fn wait_all(&self, deadline: Instant) {
        while self.arrived.load(Ordering::Acquire) < self.arrivals.len()
            && Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// What the remote servers saw.
#[derive(Default)]
struct Tally {
    /// Verified inbox POSTs, by activity type.
    verified: Mutex<BTreeMap<String, u64>>,
    /// Inbox POSTs refused (bad or missing signature, unreadable body).
    refused: AtomicU64,
    first_refusal: Mutex<Option<String>>,
    /// GETs of an actor document.
    actor_fetches: AtomicU64,
    /// Accepts sent back for Follows and taken by fedblog (one it refuses counts as refused).
    accepts_sent: AtomicU64,
    /// When the last inbox POST arrived (since `started`, in ms).
    last_post_ms: AtomicU64,
}

impl Tally {
    fn count(&self, kind: &str) -> u64 {
        self.verified
            .lock()
            .map(|m| m.get(kind).copied().unwrap_or(0))
            .unwrap_or(0)
    }

    fn refuse(&self, why: String) {
        self.refused.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut first) = self.first_refusal.lock() {
            first.get_or_insert(why);
        }
    }

    fn refusals(&self) -> (u64, Option<String>) {
        (
            self.refused.load(Ordering::Relaxed),
            self.first_refusal.lock().ok().and_then(|f| f.clone()),
        )
    }
}

/// A request signed ahead of sending.
struct Signed {
    url: String,
    headers: Vec<(String, String)>,
    body: Bytes,
}

impl Signed {
    /// POSTs it; the status of a 2xx answer, else an error naming the answer.
    async fn send(&self, client: &reqwest::Client) -> Result<u16, String> {
        let mut req = client
            .post(&self.url)
            .header(reqwest::header::CONTENT_TYPE, ACTIVITY_JSON)
            .body(self.body.clone());
        for (name, value) in &self.headers {
            if !name.eq_ignore_ascii_case("host") {
                req = req.header(name.as_str(), value.as_str());
            }
        }
        let resp = req
            .send()
            .await
            .map_err(|e| format!("POST {}: no answer: {e}", self.url))?;
        let status = resp.status();
        if status.is_success() {
            return Ok(status.as_u16());
        }
        let text = resp.text().await.unwrap_or_default();
        Err(format!(
            "POST {}: {status}: {}",
            self.url,
            api::excerpt(&text)
        ))
    }
}

/// The remote servers of one phase: `bases.len()` listeners, one actor `name` on each.
struct Remote {
    name: &'static str,
    bases: Vec<String>,
    key: PrivateKey,
    public_pem: String,
    /// fedblog's base URL: the only place keys are fetched from.
    fedblog: String,
    client: reqwest::Client,
    signers: Mutex<HashMap<String, Arc<tokio::sync::OnceCell<Signer>>>>,
    tally: Tally,
    started: Instant,
    /// The activities whose arrivals are timed (every one is kept, so a late duplicate of an
    /// earlier one is still counted).
    watches: Mutex<Vec<Arc<Watch>>>,
    accept_ids: AtomicU64,
    tasks: Mutex<Vec<tokio::task::JoinHandle<()>>>,
}

impl Remote {
    /// Binds `count` loopback listeners and serves `name` on each.
    async fn start(
        name: &'static str,
        count: usize,
        key: &PrivateKey,
        public_pem: &str,
        fed: &Fedblog,
    ) -> Result<Arc<Remote>, String> {
        let mut listeners = Vec::with_capacity(count);
        let mut bases = Vec::with_capacity(count);
        for _ in 0..count {
            let listener = TcpListener::bind("127.0.0.1:0")
                .await
                .map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))?;
            let addr = listener
                .local_addr()
                .map_err(|e| format!("cannot read a listener's address: {e}"))?;
            bases.push(format!("http://{addr}"));
            listeners.push(listener);
        }
        let remote = Arc::new(Remote {
            name,
            bases,
            key: key.clone(),
            public_pem: public_pem.to_string(),
            fedblog: fed.base.clone(),
            client: api::client(64)?,
            signers: Mutex::new(HashMap::new()),
            tally: Tally::default(),
            started: Instant::now(),
            watches: Mutex::new(Vec::new()),
            accept_ids: AtomicU64::new(0),
            tasks: Mutex::new(Vec::new()),
        });
        let handles: Vec<_> = listeners
            .into_iter()
            .enumerate()
            .map(|(server, listener)| {
                let remote = remote.clone();
                tokio::spawn(serve_http(listener, move |req| {
                    let remote = remote.clone();
                    async move { remote.answer(server, req).await }
                }))
            })
            .collect();
        if let Ok(mut tasks) = remote.tasks.lock() {
            tasks.extend(handles);
        }
        Ok(remote)
    }

    /// Stops listening (and drops the open connections).
    fn stop(&self) {
        if let Ok(mut tasks) = self.tasks.lock() {
            for task in tasks.drain(..) {
                task.abort();
            }
        }
    }

    /// `127.0.0.1:PORT` of server `i`.
    fn host(&self, i: usize) -> &str {
        self.bases[i].trim_start_matches("http://")
    }

    /// The actor of server `i`.
    fn actor(&self, i: usize) -> String {
        paths::actor(&self.bases[i], self.name)
    }

    /// Signs POSTs of `(server, url, body)` as that server's actor, on every core.
    async fn sign_all(
        self: &Arc<Self>,
        requests: Vec<(usize, String, String)>,
    ) -> Result<Vec<Signed>, String> {
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2);
        let chunk = requests.len().div_ceil(threads).max(1);
        let mut requests = requests.into_iter();
        let mut jobs = Vec::new();
        loop {
            let part: Vec<_> = requests.by_ref().take(chunk).collect();
            if part.is_empty() {
                break;
            }
            let remote = self.clone();
            jobs.push(tokio::task::spawn_blocking(move || {
                let now = Utc::now();
                part.into_iter()
                    .map(|(server, url, body)| {
                        let key_id = paths::key_id(&remote.actor(server));
                        let headers = sign_request(
                            "POST",
                            &url,
                            Some(body.as_bytes()),
                            &key_id,
                            &remote.key,
                            now,
                        )
                        .map_err(|e| format!("cannot sign a POST to {url}: {e}"))?;
                        Ok(Signed {
                            url,
                            headers,
                            body: Bytes::from(body),
                        })
                    })
                    .collect::<Result<Vec<_>, String>>()
            }));
        }
        let mut signed = Vec::new();
        for job in jobs {
            signed.extend(job.await.map_err(|e| format!("signing stopped: {e}"))??);
        }
        Ok(signed)
    }

    /// The key and inbox of a fedblog actor by key id, fetched once from fedblog's actor
    /// document (`Accept: application/activity+json`, unsigned).
    async fn signer(&self, key_id: &str) -> Result<Signer, String> {
        let actor_url = key_id.split('#').next().unwrap_or(key_id).to_string();
        if !actor_url.starts_with(&format!("{}/", self.fedblog)) {
            return Err(format!(
                "signed by {key_id}, not by the fedblog server measured ({})",
                self.fedblog
            ));
        }
        let cell = match self.signers.lock() {
            Ok(mut map) => map.entry(key_id.to_string()).or_default().clone(),
            Err(_) => return Err("the key cache is poisoned".into()),
        };
        let signer = cell
            .get_or_try_init(|| async {
                let doc = fetch_json(&self.client, &actor_url, Vec::new()).await?;
                let actor = Actor::from_json(&doc)
                    .map_err(|e| format!("{actor_url} is not an actor: {e}"))?;
                if actor.public_key_id != key_id {
                    return Err(format!(
                        "{actor_url} publishes the key {}, not {key_id}",
                        actor.public_key_id
                    ));
                }
                Ok(Signer {
                    pem: actor.public_key_pem,
                    inbox: actor.inbox,
                })
            })
            .await?;
        Ok(signer.clone())
    }

    /// Waits until no inbox POST has arrived for `quiet` (at most `limit`).
    async fn wait_quiet(&self, quiet: Duration, limit: Duration) {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            let last = Duration::from_millis(self.tally.last_post_ms.load(Ordering::Relaxed));
            if self.started.elapsed().saturating_sub(last) >= quiet {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Answers one request to server `server`.
    async fn answer(
        self: Arc<Self>,
        server: usize,
        req: Request<Incoming>,
    ) -> Response<Full<Bytes>> {
        let path = req.uri().path().to_string();
        let actor_path = paths::actor("", self.name);
        let is_post = req.method() == hyper::Method::POST;
        let is_get = req.method() == hyper::Method::GET || req.method() == hyper::Method::HEAD;
        if is_get && path == "/.well-known/webfinger" {
            return self.webfinger(server, req.uri().query().unwrap_or(""));
        }
        if is_get && path == actor_path {
            self.tally.actor_fetches.fetch_add(1, Ordering::Relaxed);
            return activity_json(&self.actor_document(server));
        }
        if is_get
            && [
                paths::followers(&actor_path),
                paths::following(&actor_path),
                paths::outbox(&actor_path),
            ]
            .contains(&path)
        {
            let id = format!("{}{path}", self.bases[server]);
            return activity_json(&json!({
                "@context": ACTIVITY_STREAMS,
                "id": id,
                "type": "OrderedCollection",
                "totalItems": 0,
                "orderedItems": [],
            }));
        }
        if is_post && (path == "/inbox" || path == paths::inbox(&actor_path)) {
            return self.inbox(server, path == "/inbox", req).await;
        }
        plain(StatusCode::NOT_FOUND, "not found")
    }

    fn webfinger(&self, server: usize, query: &str) -> Response<Full<Bytes>> {
        let actor = self.actor(server);
        let acct = format!("acct:{}@{}", self.name, self.host(server));
        let asked = form_urlencoded::parse(query.as_bytes())
            .find(|(k, _)| k == "resource")
            .map(|(_, v)| v.into_owned());
        if asked.as_deref() != Some(acct.as_str()) && asked.as_deref() != Some(actor.as_str()) {
            return plain(StatusCode::NOT_FOUND, "no such account");
        }
        webfinger_jrd(&format!("{}@{}", self.name, self.host(server)), &actor)
    }

    fn actor_document(&self, server: usize) -> Value {
        actor_document(
            &self.actor(server),
            self.name,
            &paths::shared_inbox(&self.bases[server]),
            &self.public_pem,
        )
    }

    /// An inbox POST: verified, counted, and acted on (a Follow is accepted, the watched
    /// Create's arrival is timed).
    async fn inbox(
        self: Arc<Self>,
        server: usize,
        shared: bool,
        req: Request<Incoming>,
    ) -> Response<Full<Bytes>> {
        let raw = match read_raw(req, MAX_INBOX_BODY).await {
            Ok(raw) => raw,
            Err(why) => {
                self.tally.refuse(why);
                return plain(StatusCode::BAD_REQUEST, "unreadable body");
            }
        };
        self.tally
            .last_post_ms
            .store(self.started.elapsed().as_millis() as u64, Ordering::Relaxed);
        let (signer_actor, signer) = match self.verify(&raw).await {
            Ok(v) => v,
            Err(why) => {
                self.tally
                    .refuse(format!("{} {}: {why}", self.bases[server], raw.target));
                return plain(StatusCode::UNAUTHORIZED, &why);
            }
        };
        let activity: Value = match serde_json::from_slice(&raw.bytes) {
            Ok(v) => v,
            Err(e) => {
                self.tally.refuse(format!("the body is not JSON: {e}"));
                return plain(StatusCode::BAD_REQUEST, "not JSON");
            }
        };
        if activity["actor"].as_str() != Some(signer_actor.as_str()) {
            let why = format!(
                "signed by {signer_actor} for the actor {}",
                activity["actor"]
            );
            self.tally.refuse(why.clone());
            return plain(StatusCode::UNAUTHORIZED, &why);
        }
        let kind = activity["type"].as_str().unwrap_or("(no type)").to_string();
        if let Ok(mut verified) = self.tally.verified.lock() {
            *verified.entry(kind.clone()).or_default() += 1;
        }
        let watches = self.watches.lock().map(|w| w.clone()).unwrap_or_default();
        for watch in watches {
            watch.observe(server, shared, &activity);
        }
        if kind == "Follow" {
            self.accept(server, activity, signer.inbox);
        }
        plain(StatusCode::ACCEPTED, "")
    }

    /// Checks a request's signature against its signer's key: the signer's actor URL.
    async fn verify(&self, raw: &RawBody) -> Result<(String, Signer), String> {
        let key_id = signature_key_id(raw).map_err(|e| e.to_string())?;
        let signer = self.signer(&key_id).await?;
        verify_request(raw, "http", &signer.pem, Utc::now(), SIGNATURE_MAX_SKEW)
            .map_err(|e| format!("{key_id}: {e}"))?;
        let actor = key_id.split('#').next().unwrap_or(&key_id).to_string();
        Ok((actor, signer))
    }

    /// Answers a Follow with a signed Accept of it, sent to the follower's inbox.
    fn accept(self: &Arc<Self>, server: usize, follow: Value, inbox: String) {
        let remote = self.clone();
        tokio::spawn(async move {
            let actor = remote.actor(server);
            let n = remote.accept_ids.fetch_add(1, Ordering::Relaxed);
            let body = json!({
                "@context": ACTIVITY_STREAMS,
                "id": format!("{actor}#accepts/{n}"),
                "type": "Accept",
                "actor": actor,
                "object": follow,
            })
            .to_string();
            let signed = remote.sign_all(vec![(server, inbox, body)]).await;
            let outcome = match signed {
                Ok(signed) => match signed.first() {
                    Some(request) => request.send(&remote.client).await,
                    None => Err("nothing was signed".into()),
                },
                Err(e) => Err(e),
            };
            match outcome {
                Ok(_) => {
                    remote.tally.accepts_sent.fetch_add(1, Ordering::Relaxed);
                }
                Err(e) => remote.tally.refuse(format!("an Accept was not taken: {e}")),
            }
        });
    }

    /// Starts timing the arrivals of the activities `matches` picks out, from now.
    fn watch(&self, matches: impl Fn(&Value) -> bool + Send + Sync + 'static) -> Arc<Watch> {
        let watch = Arc::new(Watch::new(self.bases.len(), matches));
        if let Ok(mut watches) = self.watches.lock() {
            watches.push(watch.clone());
        }
        watch
    }
}

// ---------------------------------------------------------------------------------------------
// fedblog: its client API, its process, its accounts
// ---------------------------------------------------------------------------------------------

/// The fedblog server measured, through its client API.
struct Fedblog {
    base: String,
    api: api::Api,
    client: reqwest::Client,
}

impl Fedblog {
    fn new(base: &str, connections: usize) -> Result<Fedblog, String> {
        Ok(Fedblog {
            base: base.to_string(),
            api: api::Api::new(base, connections)?,
            client: api::client(connections)?,
        })
    }

    async fn get(&self, path: &str, token: &str) -> Result<Value, String> {
        self.api.get(path, token).await
    }

    async fn account_id(&self, token: &str) -> Result<String, String> {
        self.api.account_id(token).await
    }

    /// `POST /api/v1/follows uri=HANDLE`: the followed account's id.
    async fn follow_by_handle(&self, token: &str, handle: &str) -> Result<String, String> {
        let what = format!("POST {} uri={handle}", FollowByUri::PATH);
        let resp = self
            .client
            .post(format!("{}{}", self.base, FollowByUri::PATH))
            .bearer_auth(token)
            .form(&[("uri", handle)])
            .send()
            .await
            .map_err(|e| format!("{what}: no answer: {e}"))?;
        let status = resp.status();
        let text = resp
            .text()
            .await
            .map_err(|e| format!("{what}: the answer broke off: {e}"))?;
        if !status.is_success() {
            return Err(format!("{what}: {status}: {}", api::excerpt(&text)));
        }
        let account: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{what}: not JSON ({e}): {}", api::excerpt(&text)))?;
        account["id"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("{what}: no account id in {}", api::excerpt(&text)))
    }

    /// `METHOD path` with a token and a JSON body (or none); the JSON answer of a 2xx, else an
    /// error naming the answer.
    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        token: &str,
        body: Option<&Value>,
    ) -> Result<Value, String> {
        let what = format!("{method} {path}");
        let mut req = self
            .client
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(token);
        if let Some(body) = body {
            req = req.json(body);
        }
        let resp = req
            .send()
            .await
            .map_err(|e| format!("{what}: no answer: {e}"))?;
        let status = resp.status();
        let text = resp
            .text()
            .await
            .map_err(|e| format!("{what}: the answer broke off: {e}"))?;
        if !status.is_success() {
            return Err(format!("{what}: {status}: {}", api::excerpt(&text)));
        }
        serde_json::from_str(&text)
            .map_err(|e| format!("{what}: not JSON ({e}): {}", api::excerpt(&text)))
    }

    /// Posts a public status (`fields`: `status` and anything else); the status.
    async fn post_status(&self, token: &str, fields: &Value) -> Result<Value, String> {
        let mut body = fields.clone();
        body["visibility"] = json!("public");
        self.call(
            reqwest::Method::POST,
            fedblog_core::api::statuses::create_status::CreateStatus::PATH,
            token,
            Some(&body),
        )
        .await
    }

    /// Whether `token`'s account follows `id` (not merely requested).
    async fn following(&self, token: &str, id: &str) -> Result<bool, String> {
        let path = format!("{}?id[]={id}", GetRelationships::PATH);
        let rel = self.get(&path, token).await?;
        Ok(rel[0]["following"].as_bool() == Some(true))
    }
}

/// Polls `check` every 100 ms until it answers `Ok(Ok(value))`; `Ok(Err(state))` means "not
/// yet" (shown if time runs out), `Err` stops at once.
async fn wait_until<T, F, Fut>(what: &str, limit: Duration, mut check: F) -> Result<T, String>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<Result<T, String>, String>>,
{
    let deadline = Instant::now() + limit;
    loop {
        let state = match check().await? {
            Ok(value) => return Ok(value),
            Err(state) => state,
        };
        if Instant::now() > deadline {
            return Err(format!(
                "waited {} s for {what}: still {state}",
                limit.as_secs()
            ));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Creates the accounts with `accounts create-many` (before the server starts); their tokens in
/// the order of `names`.
async fn create_accounts(
    server_bin: &Path,
    database_url: &str,
    data_dir: &Path,
    domain: &str,
    names: &[String],
) -> Result<Vec<String>, String> {
    use std::io::Write;
    let started = Instant::now();
    let mut command = Command::new(server_bin);
    command
        .args(["accounts", "create-many", "--scopes", SCOPES])
        .env("FEDBLOG_DATABASE_URL", database_url)
        .env("FEDBLOG_DATA_DIR", data_dir)
        .env("FEDBLOG_DOMAIN", domain)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let input = names.join("\n") + "\n";
    let output = tokio::task::spawn_blocking(move || {
        let mut child = command.spawn()?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(input.as_bytes())?;
        }
        child.wait_with_output()
    })
    .await
    .map_err(|e| format!("creating the accounts stopped: {e}"))?
    .map_err(|e| format!("cannot run {}: {e}", server_bin.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{} accounts create-many failed ({}): {}",
            server_bin.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.len() != names.len() {
        return Err(format!(
            "accounts create-many printed {} lines for {} accounts",
            lines.len(),
            names.len()
        ));
    }
    let tokens = names
        .iter()
        .zip(lines)
        .map(|(name, line)| match line.split_once('\t') {
            Some((user, token)) if user == name && !token.is_empty() => Ok(token.to_string()),
            _ => Err(format!(
                "accounts create-many printed {line:?} where a token for {name} was expected"
            )),
        })
        .collect::<Result<Vec<_>, String>>()?;
    println!(
        "{} accounts with a token each ({AUTHOR}, follower_1..{}) in {:.2} s",
        names.len(),
        names.len() - 1,
        started.elapsed().as_secs_f64()
    );
    Ok(tokens)
}

/// The server child process, federating; killed when dropped.
struct Server {
    child: Child,
}

impl Server {
    fn start(
        bin: &Path,
        data_dir: &Path,
        database_url: &str,
        listen: &str,
        settings: &Settings,
        log: &Path,
    ) -> Result<Server, String> {
        let out = File::create(log).map_err(|e| format!("cannot create {}: {e}", log.display()))?;
        let err = out
            .try_clone()
            .map_err(|e| format!("cannot open {}: {e}", log.display()))?;
        let child = Command::new(bin)
            .arg("serve")
            .env("FEDBLOG_DATA_DIR", data_dir)
            .env("FEDBLOG_DATABASE_URL", database_url)
            .env("FEDBLOG_LISTEN", listen)
            .env("FEDBLOG_DOMAIN", listen)
            .env("FEDBLOG_LOG", "warn")
            .env("NO_COLOR", "1")
            .env("FEDBLOG_RATE_LIMITS", "off")
            .env("FEDBLOG_ALLOW_PRIVATE_ADDRESSES", "true")
            .env("FEDBLOG_WORKERS", settings.workers.to_string())
            .env(
                "FEDBLOG_WORKER_POLL_MS",
                settings.worker_poll_ms.to_string(),
            )
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        Ok(Server { child })
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// How the server ended, if it has.
    fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    async fn wait_ready(&mut self, base_url: &str) -> Result<(), String> {
        let client = api::client(1)?;
        let url = format!("{base_url}{}", api::instance_path());
        let start = Instant::now();
        loop {
            if let Some(status) = self.exited() {
                return Err(format!("the server exited ({status}) before answering"));
            }
            if let Ok(resp) = client.get(&url).send().await
                && resp.status().is_success()
            {
                println!(
                    "server (pid {}) answers after {:.2} s",
                    self.pid(),
                    start.elapsed().as_secs_f64()
                );
                return Ok(());
            }
            if start.elapsed() > START_TIMEOUT {
                return Err(format!(
                    "the server did not answer {url} within {} s",
                    START_TIMEOUT.as_secs()
                ));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    fn stop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            if let Err(e) = self.child.kill() {
                eprintln!("fedblog-bench: cannot stop the server: {e}");
            }
            let _ = self.child.wait();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A fresh temporary data folder, removed when dropped.
struct DataDir {
    path: PathBuf,
}

impl DataDir {
    fn new() -> Result<DataDir, String> {
        let path = std::env::temp_dir().join(format!(
            "fedblog-bench-federation-{}-{}",
            std::process::id(),
            run_tag()
        ));
        std::fs::create_dir(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(DataDir { path })
    }
}

impl Drop for DataDir {
    fn drop(&mut self) {
        if let Err(e) = std::fs::remove_dir_all(&self.path) {
            eprintln!("fedblog-bench: cannot remove {}: {e}", self.path.display());
        }
    }
}

/// The warnings and errors of the server's log.
struct LogSummary {
    warnings: usize,
    errors: usize,
    /// The first few distinct messages (timestamps left out).
    first: Vec<String>,
    note: Option<String>,
}

impl LogSummary {
    fn read(path: &Path) -> LogSummary {
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                return LogSummary {
                    warnings: 0,
                    errors: 0,
                    first: vec![],
                    note: Some(format!("cannot read {}: {e}", path.display())),
                };
            }
        };
        let (mut warnings, mut errors, mut first) = (0, 0, Vec::<String>::new());
        for line in text.lines() {
            let line = strip_ansi(line);
            let level = if line.contains(" ERROR ") {
                errors += 1;
                true
            } else if line.contains(" WARN ") {
                warnings += 1;
                true
            } else {
                false
            };
            // Without its timestamp, so repeats of one message are shown once.
            let message: String = line
                .split_once(' ')
                .map_or(line.as_str(), |(_, rest)| rest)
                .trim()
                .chars()
                .take(400)
                .collect();
            if (level || line.contains("panicked")) && first.len() < 8 && !first.contains(&message)
            {
                first.push(message);
            }
        }
        LogSummary {
            warnings,
            errors,
            first,
            note: None,
        }
    }

    fn print(&self) {
        if let Some(note) = &self.note {
            println!("server log: {note}");
            return;
        }
        println!(
            "server log: {} warnings, {} errors{}",
            self.warnings,
            self.errors,
            if self.first.is_empty() {
                ""
            } else {
                "; first distinct:"
            }
        );
        for message in &self.first {
            println!("  {message}");
        }
    }
}

/// A line without its ANSI colour codes.
fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

/// Warns when the open files limit is too low for the remote servers and their connections.
fn check_open_files(settings: &Settings) {
    let needed = if settings.outbound {
        settings.servers as u64 * 3 + 512
    } else {
        1024
    };
    if let Ok((soft, _)) =
        nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE)
        && soft < needed
    {
        eprintln!(
            "fedblog-bench: the open files limit is {soft}; {} servers need about {needed}",
            settings.servers
        );
    }
}

/// What to call a database in the output (never its credentials).
fn database_kind(url: Option<&str>) -> &'static str {
    match url {
        Some(u) if u.starts_with("postgres") => "PostgreSQL",
        _ => "SQLite",
    }
}

fn sqlite_url(data_dir: &Path) -> String {
    format!(
        "sqlite://{}?mode=rwc",
        data_dir.join("fedblog.sqlite").display()
    )
}

/// A loopback port nobody listens on now (the server binds it a moment later).
fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")
        .map_err(|e| format!("cannot find a free port: {e}"))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("cannot find a free port: {e}"))
}

/// The id of an ActivityStreams reference: the string itself, or an embedded object's `id`.
fn id_of(v: &Value) -> Option<&str> {
    v.as_str().or_else(|| v["id"].as_str())
}

/// A short tag that makes this run's ids unique.
fn run_tag() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("{:x}", nanos & 0xffff_ffff_ffff)
}

/// The `p`th percentile of sorted durations, in milliseconds.
fn percentile(sorted: &[Duration], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    let i = rank.clamp(1, sorted.len()) - 1;
    Some(sorted[i].as_secs_f64() * 1000.0)
}

fn ms(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.2} ms"))
        .unwrap_or_else(|| "n/a".into())
}

fn first(e: &Option<String>) -> String {
    e.as_ref()
        .map(|e| format!("; first: {}", api::excerpt(e)))
        .unwrap_or_default()
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

/// The summary table, as `report.rs` prints it.
fn print_table(base: &str, settings: &Settings, rows: &[Row]) {
    let header = ["figure", "value", "target", "result"];
    let width = |f: fn(&Row) -> &str, i: usize| {
        rows.iter()
            .map(|r| f(r).chars().count())
            .chain([header[i].len()])
            .max()
            .unwrap_or(0)
    };
    let (w0, w1, w2) = (
        width(|r| &r.figure, 0),
        width(|r| &r.value, 1),
        width(|r| &r.target, 2),
    );
    println!();
    println!("summary: federation with {base}");
    println!("settings: {}", settings.line());
    println!(
        "{:<w0$}  {:<w1$}  {:<w2$}  {}",
        header[0], header[1], header[2], header[3]
    );
    println!("{}", "-".repeat(w0 + w1 + w2 + 12));
    for r in rows {
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn settings(args: &[&str]) -> Result<Settings, String> {
        let cli = crate::cli::Cli::parse_from(args);
        let crate::cli::Command::Federation(a) = cli.command else {
            panic!("federation expected");
        };
        Settings::resolve(&a)
    }

    #[test]
    fn defaults_small_and_explicit_values() {
        let full = settings(&["fedblog-bench", "federation"]).unwrap();
        assert_eq!(
            (
                full.activities,
                full.local_followers,
                full.servers,
                full.workers
            ),
            (3000, 20, 1000, 4)
        );
        assert_eq!((full.mix_activities, full.mix), (3000, true));
        let small =
            settings(&["fedblog-bench", "federation", "--small", "--servers", "7"]).unwrap();
        assert_eq!(
            (
                small.activities,
                small.mix_activities,
                small.local_followers,
                small.servers
            ),
            (200, 200, 5, 7)
        );
        let bare = settings(&["fedblog-bench", "federation", "--small", "--no-mix"]).unwrap();
        assert!(!bare.mix);
        assert!(settings(&["fedblog-bench", "federation", "--mix-activities", "0"]).is_err());
        assert!(settings(&["fedblog-bench", "federation", "--workers", "0"]).is_err());
        assert!(
            settings(&[
                "fedblog-bench",
                "federation",
                "--no-inbound",
                "--no-outbound"
            ])
            .is_err()
        );
    }

    #[test]
    fn a_watch_times_the_first_match_per_server_and_counts_the_rest() {
        let watch = Watch::new(2, |a| {
            a["type"] == "Delete" && id_of(&a["object"]) == Some("x")
        });
        let delete = json!({"type": "Delete", "object": {"id": "x", "type": "Tombstone"}});
        watch.observe(0, true, &json!({"type": "Create", "object": "x"}));
        watch.observe(0, true, &delete);
        watch.observe(0, false, &json!({"type": "Delete", "object": "x"}));
        assert_eq!(watch.arrived.load(Ordering::Relaxed), 1);
        assert_eq!(watch.duplicates.load(Ordering::Relaxed), 1);
        watch.observe(1, true, &delete);
        assert_eq!(watch.arrivals().len(), 2);
        assert_eq!(
            (
                watch.to_shared.load(Ordering::Relaxed),
                watch.to_actor.load(Ordering::Relaxed)
            ),
            (2, 1)
        );
    }

    #[test]
    fn markers_do_not_contain_each_other() {
        assert!(!note_marker("ab", 10).contains(&note_marker("ab", 1)));
    }

    #[test]
    fn percentiles_and_ansi() {
        let d: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert_eq!(percentile(&d, 50.0), Some(50.0));
        assert_eq!(percentile(&d, 99.0), Some(99.0));
        assert_eq!(percentile(&[], 50.0), None);
        assert_eq!(strip_ansi("\u{1b}[33m WARN\u{1b}[0m x"), " WARN x");
    }
}
