//! `run`: set-up through the Mastodon API, the read benchmarks, posting throughput, fan-out time,
//! the server's RSS and the streaming benchmark, then the summary. Talks only the Mastodon API.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::api::{self, Api};
use crate::cli::{Load, RunArgs, Scale, Streaming};
use crate::load;
use crate::pool;
use crate::report::{FanoutFigures, HomeAnswer, PostingFigures, ReadFigures, Report, RssFigures};
use crate::streaming;
use crate::tokens::Tokens;

/// Followers who also follow `poster` (the posting target is for an author with 100 followers).
pub(crate) const POSTER_FOLLOWERS: usize = 100;
/// Followers polled while timing the fan-out.
const FANOUT_PROBES: usize = 50;
/// Pause between two polls of one probe's home feed.
const FANOUT_POLL: Duration = Duration::from_millis(50);
/// Longest wait for the fanned-out post to reach every probe.
const FANOUT_TIMEOUT: Duration = Duration::from_secs(60);

/// `fedblog-bench run`.
pub async fn command(args: RunArgs) -> Result<(), String> {
    let scale = args.scale.resolve()?;
    let load = args.load.resolve(&scale)?;
    let streaming = args.streaming.resolve(&scale)?;
    let tokens = Tokens::read(&args.tokens)?.for_scale(&scale)?;
    let report = run(
        &args.base_url,
        &tokens,
        args.pid,
        &scale,
        &load,
        &streaming,
        None,
    )
    .await?;
    finish(&report, &load)
}

/// Prints the summary and writes the JSON file if asked.
pub fn finish(report: &Report, load: &Load) -> Result<(), String> {
    report.print();
    if let Some(path) = &load.json {
        report.write_json(path)?;
        println!("figures written to {}", path.display());
    }
    Ok(())
}

/// A tag unique to this run, put in the texts it posts.
fn run_tag() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("bench{:x}", nanos & 0xffff_ffff_ffff)
}

/// Runs every step against `base_url` with `tokens` (already cut to the scale); `seed` is the
/// time seeding took when this program seeded.
pub async fn run(
    base_url: &str,
    tokens: &Tokens,
    pid: Option<u32>,
    scale: &Scale,
    load: &Load,
    stream: &Streaming,
    seed: Option<Duration>,
) -> Result<Report, String> {
    let api = Api::new(base_url, load.connections)?;
    let tag = run_tag();
    println!(
        "benchmarking {} ({} authors x {} posts, {} followers, {} connections)",
        api.base(),
        scale.authors,
        scale.posts_per_author,
        scale.followers,
        load.connections
    );

    println!("set-up through the API:");
    let setup_start = Instant::now();
    let status_id = set_up(&api, tokens, scale, load.connections, &tag).await?;
    let setup = setup_start.elapsed();
    println!("set-up done in {:.2} s", setup.as_secs_f64());

    println!(
        "read benchmarks, {:.0} s each:",
        load.duration.as_secs_f64()
    );
    let expected = (scale.authors * scale.posts_per_author).min(40);
    let got = match api.get(&api::home_path(40), &tokens.reader).await {
        Ok(home) => home.as_array().map_or(0, Vec::len),
        Err(e) => {
            println!("  WARNING: the reader's home timeline failed: {e}");
            0
        }
    };
    if got != expected {
        println!(
            "  WARNING: the reader's home timeline answered {got} statuses, {expected} expected"
        );
    }
    let targets = [
        ("home timeline limit=40", api::home_path(40)),
        ("public local timeline limit=40", api::public_local_path()),
        ("single status", api::status_path(&status_id)),
        ("verify_credentials", api::verify_credentials_path()),
    ];
    let mut reads = Vec::new();
    for (name, path) in targets {
        let cpu_before = pid.and_then(|p| cpu_secs(p).ok());
        let m = load::read(
            api.base(),
            &path,
            &tokens.reader,
            load.connections,
            load.duration,
        )
        .await?;
        let cpu_after = pid.and_then(|p| cpu_secs(p).ok());
        let server_cpu = cpu_before.zip(cpu_after).map(|(a, b)| b - a);
        let figures = ReadFigures::new(name, &path, &m, server_cpu);
        println!("  {}", figures.line());
        reads.push(figures);
    }

    let poster_followers = scale.followers.min(POSTER_FOLLOWERS);
    println!(
        "posting: {} statuses one after another on one connection by an author with {poster_followers} followers",
        scale.post_count
    );
    let m = load::post_sequentially(api.base(), &tokens.poster, scale.post_count, &tag).await?;
    let posting = PostingFigures {
        poster_followers,
        posts: scale.post_count,
        ok: m.ok(),
        errors: m.errors(),
        first_error: m.first_error.clone(),
        posts_per_sec: m.per_sec(),
        p50_ms: m.percentile_ms(50.0),
        p99_ms: m.percentile_ms(99.0),
        secs: m.elapsed.as_secs_f64(),
    };
    println!("  {}", posting.line());

    let fanout = fan_out(&api, tokens, load.connections, &tag).await?;

    let rss = match pid {
        Some(pid) => match read_rss(pid) {
            Ok((peak, current)) => {
                println!("server RSS (pid {pid}): peak {peak:.1} MB, now {current:.1} MB");
                RssFigures {
                    pid: Some(pid),
                    peak_mb: Some(peak),
                    current_mb: Some(current),
                    note: None,
                }
            }
            Err(e) => {
                println!("server RSS not measured: {e}");
                RssFigures {
                    pid: Some(pid),
                    peak_mb: None,
                    current_mb: None,
                    note: Some(format!("not measured: {e}")),
                }
            }
        },
        None => {
            println!("server RSS not measured (no --pid)");
            RssFigures {
                pid: None,
                peak_mb: None,
                current_mb: None,
                note: Some("not measured (no --pid)".into()),
            }
        }
    };

    // After the RSS above, so that its peak is the REST benchmarks' alone.
    let streaming = match stream.any() {
        true => Some(streaming::run(&api, tokens, pid, stream, load.connections, &tag).await?),
        false => None,
    };

    Ok(Report {
        base_url: api.base().to_string(),
        scale: *scale,
        connections: load.connections,
        read_duration_secs: load.duration.as_secs_f64(),
        seed_secs: seed.map(|d| d.as_secs_f64()),
        setup_secs: setup.as_secs_f64(),
        home_answer: HomeAnswer { expected, got },
        reads,
        posting,
        fanout,
        rss,
        streaming,
    })
}

/// Step a: the reader follows every author, each author posts, every follower follows
/// big_author, the first 100 followers follow poster. Returns the id of one seeded status.
async fn set_up(
    api: &Api,
    tokens: &Tokens,
    scale: &Scale,
    connections: usize,
    tag: &str,
) -> Result<String, String> {
    let authors = Arc::new(tokens.authors.clone());
    let (author_ids, _) = pool::each(
        "author ids (verify_credentials)",
        authors.len(),
        connections,
        {
            let (api, authors) = (api.clone(), authors.clone());
            move |i| {
                let (api, authors) = (api.clone(), authors.clone());
                async move { api.account_id(&authors[i]).await }
            }
        },
    )
    .await?;
    let big_id = api.account_id(&tokens.big_author).await?;
    let poster_id = api.account_id(&tokens.poster).await?;
    let author_ids = Arc::new(author_ids);

    let reader = Arc::new(tokens.reader.clone());
    pool::each("reader follows authors", author_ids.len(), connections, {
        let (api, ids) = (api.clone(), author_ids.clone());
        move |i| {
            let (api, ids, reader) = (api.clone(), ids.clone(), reader.clone());
            async move { api.follow(&reader, &ids[i]).await }
        }
    })
    .await?;

    // Interleaved (post n of every author, then post n + 1) so concurrent posts come from
    // different authors, as on a real server.
    let per_author = scale.posts_per_author;
    let tag_owned = Arc::new(tag.to_string());
    let (status_ids, _) = pool::each(
        "authors post statuses",
        authors.len() * per_author,
        connections,
        {
            let api = api.clone();
            move |i| {
                let (api, authors, tag) = (api.clone(), authors.clone(), tag_owned.clone());
                async move {
                    let (author, n) = (i % authors.len(), i / authors.len() + 1);
                    let text = format!(
                        "Benchmark status {n} of author {} ({tag}): a short public post with a few words in it.",
                        author + 1
                    );
                    api.post_status(&authors[author], &text).await
                }
            }
        },
    )
    .await?;

    let followers = Arc::new(tokens.followers.clone());
    let big_id = Arc::new(big_id);
    pool::each(
        "followers follow big_author",
        followers.len(),
        connections,
        {
            let (api, followers) = (api.clone(), followers.clone());
            move |i| {
                let (api, followers, big) = (api.clone(), followers.clone(), big_id.clone());
                async move { api.follow(&followers[i], &big).await }
            }
        },
    )
    .await?;

    let poster_id = Arc::new(poster_id);
    pool::each(
        "followers follow poster",
        followers.len().min(POSTER_FOLLOWERS),
        connections,
        {
            let api = api.clone();
            move |i| {
                let (api, followers, poster) = (api.clone(), followers.clone(), poster_id.clone());
                async move { api.follow(&followers[i], &poster).await }
            }
        },
    )
    .await?;

    status_ids
        .into_iter()
        .next()
        .ok_or_else(|| "no status was posted during set-up".to_string())
}

/// `count` indices spread evenly over `0..len`, the first and the last included.
fn probe_indices(len: usize, count: usize) -> Vec<usize> {
    let count = count.min(len);
    let mut out: Vec<usize> = match count {
        0 => vec![],
        1 => vec![0],
        _ => (0..count).map(|k| k * (len - 1) / (count - 1)).collect(),
    };
    out.dedup();
    out
}

/// Step d: big_author posts; the time until the post is in the home feed of every probe
/// follower (polled concurrently), then every follower checked once.
async fn fan_out(
    api: &Api,
    tokens: &Tokens,
    connections: usize,
    tag: &str,
) -> Result<FanoutFigures, String> {
    let followers = Arc::new(tokens.followers.clone());
    let probes = probe_indices(followers.len(), FANOUT_PROBES);
    println!(
        "fan-out: big_author posts; timing until the post is in the home feed (limit=5) of {} of its {} followers, each polled every {} ms",
        probes.len(),
        followers.len(),
        FANOUT_POLL.as_millis()
    );
    let marker = format!("fanout{tag}");
    let feed = api::home_path(5);
    // One poll per probe before timing, all at once: opens the probes' connections and checks
    // their feeds answer (and do not have the post yet).
    let probe_client = api::client(probes.len())?;
    let url = Arc::new(format!("{}{feed}", api.base()));
    let mut first = tokio::task::JoinSet::new();
    for &i in &probes {
        let (client, url, token, marker) = (
            probe_client.clone(),
            url.clone(),
            followers[i].clone(),
            marker.clone(),
        );
        first.spawn(async move { feed_has(&client, &url, &token, &marker).await });
    }
    while let Some(joined) = first.join_next().await {
        match joined.map_err(|e| format!("a probe task failed: {e}"))? {
            Ok(false) => {}
            Ok(true) => return Err("the fan-out post is in a feed before it was posted".into()),
            Err(e) => return Err(format!("a probe follower's home feed: {e}")),
        }
    }

    let text = format!("Fan-out benchmark post ({marker})");
    let start = Instant::now();
    let post = {
        let (api, token) = (api.clone(), tokens.big_author.clone());
        tokio::spawn(async move {
            let r = api.post_status(&token, &text).await;
            (r, start.elapsed())
        })
    };
    let mut polls = tokio::task::JoinSet::new();
    for &i in &probes {
        let (client, url, token, marker) = (
            probe_client.clone(),
            url.clone(),
            followers[i].clone(),
            marker.clone(),
        );
        polls.spawn(async move {
            let mut errors = 0u64;
            while start.elapsed() < FANOUT_TIMEOUT {
                match feed_has(&client, &url, &token, &marker).await {
                    Ok(true) => return (Some(start.elapsed()), errors),
                    Ok(false) => {}
                    Err(_) => errors += 1,
                }
                tokio::time::sleep(FANOUT_POLL).await;
            }
            (None, errors)
        });
    }
    let (posted, post_latency) = post
        .await
        .map_err(|e| format!("the posting task failed: {e}"))?;
    let status_id = match posted {
        Ok(id) => id,
        Err(e) => {
            polls.abort_all();
            return Err(format!("big_author could not post: {e}"));
        }
    };
    let mut reached = Vec::new();
    let mut poll_errors = 0;
    while let Some(joined) = polls.join_next().await {
        let (seen, errors) = joined.map_err(|e| format!("a probe task failed: {e}"))?;
        poll_errors += errors;
        reached.extend(seen);
    }
    let visible = (reached.len() == probes.len())
        .then(|| reached.iter().max().copied())
        .flatten();
    match visible {
        Some(t) => println!(
            "  in all {} probe feeds after {:.0} ms (the POST took {:.0} ms; {poll_errors} failed polls)",
            probes.len(),
            t.as_secs_f64() * 1000.0,
            post_latency.as_secs_f64() * 1000.0
        ),
        None => println!(
            "  only {} of {} probe feeds had it after {} s (the POST took {:.0} ms; {poll_errors} failed polls)",
            reached.len(),
            probes.len(),
            FANOUT_TIMEOUT.as_secs(),
            post_latency.as_secs_f64() * 1000.0
        ),
    }

    let (had, _) = pool::each(
        "check every follower's feed (untimed)",
        followers.len(),
        connections,
        {
            let (api, followers) = (api.clone(), followers.clone());
            let status_id = Arc::new(status_id);
            move |i| {
                let (api, followers, status_id) =
                    (api.clone(), followers.clone(), status_id.clone());
                let feed = api::home_path(5);
                async move {
                    let page = api.get(&feed, &followers[i]).await?;
                    Ok(page.as_array().is_some_and(|list| {
                        list.iter().any(|s| {
                            s.get("id").and_then(Value::as_str) == Some(status_id.as_str())
                        })
                    }))
                }
            }
        },
    )
    .await?;
    let followers_with_post = had.iter().filter(|h| **h).count();
    println!(
        "  {followers_with_post} of {} followers have the post in their home feed",
        followers.len()
    );
    Ok(FanoutFigures {
        followers: followers.len(),
        probes: probes.len(),
        probes_reached: reached.len(),
        poll_interval_ms: FANOUT_POLL.as_millis() as u64,
        visible_in_all_probes_ms: visible.map(|t| t.as_secs_f64() * 1000.0),
        post_ms: post_latency.as_secs_f64() * 1000.0,
        poll_errors,
        followers_with_post,
    })
}

/// Whether the home feed page at `url` (read with `token`) has a status containing `marker`.
async fn feed_has(
    client: &reqwest::Client,
    url: &str,
    token: &str,
    marker: &str,
) -> Result<bool, String> {
    let resp = client
        .get(url)
        .bearer_auth(token)
        .send()
        .await
        .map_err(|e| format!("no answer: {e}"))?;
    let status = resp.status();
    let text = resp
        .text()
        .await
        .map_err(|e| format!("the answer broke off: {e}"))?;
    if !status.is_success() {
        return Err(format!("{status}: {}", api::excerpt(&text)));
    }
    let page: Value = serde_json::from_str(&text)
        .map_err(|e| format!("the answer is not JSON ({e}): {}", api::excerpt(&text)))?;
    Ok(api::has_status_with(&page, marker))
}

/// Clock ticks per second of `/proc/PID/stat` (`USER_HZ`, 100 on every Linux ABI).
const USER_HZ: f64 = 100.0;

/// The CPU time a process has used so far (user and system, every thread), in seconds.
pub(crate) fn cpu_secs(pid: u32) -> Result<f64, String> {
    let path = format!("/proc/{pid}/stat");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
    // The command name (field 2) may hold spaces; the fields after its `)` are fixed.
    let rest = text
        .rsplit_once(')')
        .map(|(_, r)| r)
        .ok_or_else(|| format!("{path}: no command name"))?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let tick = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .ok_or_else(|| format!("{path}: field {} is missing", i + 3))
    };
    Ok((tick(11)? + tick(12)?) / USER_HZ)
}

/// `VmHWM` and `VmRSS` of a process, in MB (1024 KiB).
pub(crate) fn read_rss(pid: u32) -> Result<(f64, f64), String> {
    let path = format!("/proc/{pid}/status");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<f64>()
                    .ok()
            })
            .map(|kib| kib / 1024.0)
            .ok_or_else(|| format!("{path} has no {name} line"))
    };
    Ok((field("VmHWM:")?, field("VmRSS:")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_of_this_process_grows_as_it_works() {
        // Works until the reading grows by 0.1 s (however busy the machine, which may give this
        // thread only a part of a core), within a generous wall-clock bound.
        let pid = std::process::id();
        let before = cpu_secs(pid).expect("cpu");
        let started = std::time::Instant::now();
        let mut x = 0u64;
        let mut after = before;
        while after - before < 0.1 && started.elapsed() < Duration::from_secs(30) {
            for _ in 0..1_000_000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            std::hint::black_box(x);
            after = cpu_secs(pid).expect("cpu");
        }
        assert!(after - before >= 0.1, "{before} then {after}");
    }

    #[test]
    fn probes_spread_over_the_list_with_both_ends() {
        let p = probe_indices(10_000, 50);
        assert_eq!(p.len(), 50);
        assert_eq!(p.first(), Some(&0));
        assert_eq!(p.last(), Some(&9_999));
        assert_eq!(probe_indices(3, 50), vec![0, 1, 2]);
        assert_eq!(probe_indices(1, 50), vec![0]);
        assert!(probe_indices(0, 50).is_empty());
    }

    #[test]
    fn rss_of_this_process() {
        let (peak, now) = read_rss(std::process::id()).unwrap();
        assert!(peak >= now && now > 0.0);
        assert!(read_rss(u32::MAX).is_err());
    }
}
