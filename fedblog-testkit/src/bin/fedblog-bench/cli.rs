//! The command line: `seed`, `run`, `local` and `federation`, the scale flags they share and their
//! defaults.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

const TOKENS_HELP: &str = "\
The tokens file (written by `seed`) is JSON:
  {\"reader\": \"TOKEN\", \"authors\": [\"TOKEN\", ...], \"big_author\": \"TOKEN\",
   \"poster\": \"TOKEN\", \"followers\": [\"TOKEN\", ...]}
bearer tokens with the scopes `read write follow push`, each of a different active account.
`run` uses the first --authors authors and the first --followers followers.

Steps: set-up through the API (the reader follows every author, each author posts
--posts-per-author public statuses, every follower follows big_author, the first 100 followers
follow poster); read benchmarks of --duration seconds on --connections connections (home
timeline limit=40, public local timeline limit=40, one status, verify_credentials); posting
throughput (poster posts --post-count statuses one after another on one connection); fan-out
time (big_author posts; time until the post is in the home feed of 50 probe followers, then all
followers checked once); the server's peak RSS and CPU per request when --pid is given; then
streaming: --streaming-idle idle WebSocket connections on the user streams of accounts that do
not follow poster (the server's RSS before and with them open when --pid is given), the first
--streaming-followers followers follow poster and each listens on its user stream, then
--streaming-public public:local listeners (half WebSocket, half server-sent events) while poster
posts --streaming-posts times; each delivery timed from the POST's answer. Missing a target is
not an error; the exit status is non-zero only when the run itself failed.";

/// Load benchmark for fedblog-server or any Mastodon-compatible server.
#[derive(Parser, Debug)]
#[command(name = "fedblog-bench", version)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Create the benchmark's accounts and their tokens in a fedblog database with
    /// `fedblog-server accounts create-many` (fast, fedblog-specific) and write the tokens file.
    Seed(SeedArgs),
    /// Set up and measure a running server through the Mastodon API only, given a tokens file.
    #[command(after_help = TOKENS_HELP)]
    Run(RunArgs),
    /// Seed a fresh database, start fedblog-server on it, run the benchmark, stop the server and
    /// remove the data folder: the one documented command.
    Local(LocalArgs),
    /// Start fedblog-server federating on loopback and measure issue 23's two federation figures
    /// (inbound signed Creates per second; one post delivered to 1,000 servers), the bench
    /// playing the other servers.
    Federation(FederationArgs),
}

/// How big the benchmark is.
#[derive(Args, Debug, Clone)]
pub struct ScaleArgs {
    /// Authors the reader follows [default: 100; 10 with --small].
    #[arg(long)]
    pub authors: Option<usize>,
    /// Public statuses each author posts during set-up [default: 50; 5 with --small].
    #[arg(long)]
    pub posts_per_author: Option<usize>,
    /// Followers of big_author [default: 10000; 200 with --small].
    #[arg(long)]
    pub followers: Option<usize>,
    /// Statuses poster posts in the posting benchmark [default: 500; 50 with --small].
    #[arg(long)]
    pub post_count: Option<usize>,
    /// A quick smoke run: 10 authors, 5 posts each, 200 followers, 50 posts, 2-second read
    /// benchmarks (flags given explicitly still win).
    #[arg(long)]
    pub small: bool,
}

/// Resolved scale.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Scale {
    /// Authors the reader follows.
    pub authors: usize,
    /// Statuses per author.
    pub posts_per_author: usize,
    /// Followers of big_author.
    pub followers: usize,
    /// Statuses in the posting benchmark.
    pub post_count: usize,
    /// Whether `--small` was given.
    pub small: bool,
}

impl ScaleArgs {
    /// Applies the defaults (full or `--small`) and checks every figure is at least 1.
    pub fn resolve(&self) -> Result<Scale, String> {
        let pick = |given: Option<usize>, full: usize, small: usize| {
            given.unwrap_or(if self.small { small } else { full })
        };
        let scale = Scale {
            authors: pick(self.authors, 100, 10),
            posts_per_author: pick(self.posts_per_author, 50, 5),
            followers: pick(self.followers, 10_000, 200),
            post_count: pick(self.post_count, 500, 50),
            small: self.small,
        };
        for (name, value) in [
            ("--authors", scale.authors),
            ("--posts-per-author", scale.posts_per_author),
            ("--followers", scale.followers),
            ("--post-count", scale.post_count),
        ] {
            if value == 0 {
                return Err(format!("{name} must be at least 1"));
            }
        }
        Ok(scale)
    }
}

/// How the measurements run (shared by `run` and `local`).
#[derive(Args, Debug, Clone)]
pub struct LoadArgs {
    /// Seconds each read benchmark runs [default: 10; 2 with --small].
    #[arg(long)]
    pub duration: Option<f64>,
    /// Concurrent keep-alive connections for the read benchmarks and the set-up.
    #[arg(long, default_value_t = 16)]
    pub connections: usize,
    /// Also write every figure as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

/// Resolved load settings.
#[derive(Debug, Clone)]
pub struct Load {
    /// Length of each read benchmark.
    pub duration: Duration,
    /// Concurrent connections.
    pub connections: usize,
    /// Where to write the JSON figures.
    pub json: Option<PathBuf>,
}

impl LoadArgs {
    /// Applies the defaults (`--small` shortens the read benchmarks) and checks the values.
    pub fn resolve(&self, scale: &Scale) -> Result<Load, String> {
        let secs = self
            .duration
            .unwrap_or(if scale.small { 2.0 } else { 10.0 });
        if !(secs.is_finite() && secs > 0.0 && secs <= 86_400.0) {
            return Err(format!(
                "--duration must be a number of seconds above 0, not {secs}"
            ));
        }
        if self.connections == 0 {
            return Err("--connections must be at least 1".into());
        }
        Ok(Load {
            duration: Duration::from_secs_f64(secs),
            connections: self.connections,
            json: self.json.clone(),
        })
    }
}

/// The streaming benchmark (shared by `run` and `local`): idle WebSocket connections, then
/// deliveries to followers' user streams and to `public:local` listeners.
#[derive(Args, Debug, Clone, Default)]
pub struct StreamArgs {
    /// Idle WebSocket connections held open on user streams of accounts that do not follow
    /// poster, the server's RSS read before and after opening them [default: 10000; 200 with
    /// --small; 0 skips them].
    #[arg(long, value_name = "N")]
    pub streaming_idle: Option<usize>,
    /// Followers of poster each connected on its own user stream (half over WebSocket, half over
    /// server-sent events) while poster posts [default: 1000, at most --followers; 50 with
    /// --small; 0 skips them].
    #[arg(long, value_name = "N")]
    pub streaming_followers: Option<usize>,
    /// Listeners of the `public:local` stream without a token (half over WebSocket, half over
    /// server-sent events) while poster posts [default: 1000; 50 with --small; 0 skips them].
    #[arg(long, value_name = "N")]
    pub streaming_public: Option<usize>,
    /// Posts per delivery benchmark, each delivered to every connection [default: 5].
    #[arg(long, value_name = "N")]
    pub streaming_posts: Option<usize>,
    /// Streaming connections opened at once.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub streaming_open_at_once: usize,
    /// Skip the streaming benchmark (as --streaming-idle 0 --streaming-followers 0
    /// --streaming-public 0).
    #[arg(long)]
    pub no_streaming: bool,
}

/// Resolved streaming settings.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Streaming {
    /// Idle WebSocket connections.
    pub idle: usize,
    /// Followers of poster listening on their user streams.
    pub followers: usize,
    /// `public:local` listeners.
    pub public: usize,
    /// Posts per delivery benchmark.
    pub posts: usize,
    /// Connections opened at once.
    pub open_at_once: usize,
}

impl Streaming {
    /// Whether any part of the streaming benchmark runs.
    pub fn any(&self) -> bool {
        self.idle + self.followers + self.public > 0
    }
}

impl StreamArgs {
    /// Applies the defaults (full or `--small`); the followers are at most `scale.followers`
    /// (an error when given explicitly above it).
    pub fn resolve(&self, scale: &Scale) -> Result<Streaming, String> {
        if self.no_streaming {
            return Ok(Streaming {
                idle: 0,
                followers: 0,
                public: 0,
                posts: 0,
                open_at_once: self.streaming_open_at_once.max(1),
            });
        }
        let pick = |given: Option<usize>, full: usize, small: usize| {
            given.unwrap_or(if scale.small { small } else { full })
        };
        let followers = match self.streaming_followers {
            Some(n) if n > scale.followers => {
                return Err(format!(
                    "--streaming-followers {n} is more than the {} followers (--followers)",
                    scale.followers
                ));
            }
            Some(n) => n,
            None => pick(None, 1000, 50).min(scale.followers),
        };
        let posts = self.streaming_posts.unwrap_or(5);
        if posts == 0 {
            return Err("--streaming-posts must be at least 1".into());
        }
        if self.streaming_open_at_once == 0 {
            return Err("--streaming-open-at-once must be at least 1".into());
        }
        Ok(Streaming {
            idle: pick(self.streaming_idle, 10_000, 200),
            followers,
            public: pick(self.streaming_public, 1000, 50),
            posts,
            open_at_once: self.streaming_open_at_once,
        })
    }
}

/// `seed` arguments.
#[derive(Args, Debug)]
pub struct SeedArgs {
    /// Database of the fedblog server to seed: `sqlite://PATH?mode=rwc` or `postgres://...`
    /// (migrations are applied first).
    #[arg(long, env = "FEDBLOG_DATABASE_URL")]
    pub database_url: String,
    /// Where to write the tokens file.
    #[arg(long)]
    pub out: PathBuf,
    /// The server binary that seeds [default: `fedblog-server` next to this executable].
    #[arg(long)]
    pub server_bin: Option<PathBuf>,
    /// Scale.
    #[command(flatten)]
    pub scale: ScaleArgs,
}

/// `run` arguments.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Base URL of the server, e.g. `http://127.0.0.1:3000`.
    #[arg(long)]
    pub base_url: String,
    /// The tokens file (see below).
    #[arg(long)]
    pub tokens: PathBuf,
    /// Process id of the server, to read its peak and current RSS from /proc after the run.
    #[arg(long)]
    pub pid: Option<u32>,
    /// Scale.
    #[command(flatten)]
    pub scale: ScaleArgs,
    /// Measurements.
    #[command(flatten)]
    pub load: LoadArgs,
    /// Streaming.
    #[command(flatten)]
    pub streaming: StreamArgs,
}

/// `local` arguments.
#[derive(Args, Debug)]
pub struct LocalArgs {
    /// The server binary [default: `fedblog-server` next to this executable].
    #[arg(long)]
    pub server_bin: Option<PathBuf>,
    /// Use this (new or empty) folder for the data and keep it afterwards, with `tokens.json`,
    /// instead of a temporary folder that is removed.
    #[arg(long, value_name = "DIR")]
    pub keep: Option<PathBuf>,
    /// The server's database [default: SQLite in the data folder]: `postgres://...` measures
    /// the PostgreSQL store (give a new, empty database; it is left as the run made it).
    #[arg(long, value_name = "URL")]
    pub database_url: Option<String>,
    /// Scale.
    #[command(flatten)]
    pub scale: ScaleArgs,
    /// Measurements.
    #[command(flatten)]
    pub load: LoadArgs,
    /// Streaming.
    #[command(flatten)]
    pub streaming: StreamArgs,
}

/// `federation` arguments.
#[derive(Args, Debug)]
pub struct FederationArgs {
    /// The server binary [default: `fedblog-server` next to this executable].
    #[arg(long)]
    pub server_bin: Option<PathBuf>,
    /// The server's database [default: SQLite in a temporary data folder]: `postgres://...`
    /// (give a new, empty database).
    #[arg(long, value_name = "URL")]
    pub database_url: Option<String>,
    /// Signed `Create` activities POSTed to the shared inbox [default: 3000; 200 with --small].
    #[arg(long, value_name = "N")]
    pub activities: Option<usize>,
    /// Signed activities of the full mix POSTed to the shared inbox after the `Create`s: per 20,
    /// 6 `Create`, 5 `Like`, 3 `Announce`, 2 `Update`, 2 `Delete`, 1 `Follow`, 1 `Undo` of a
    /// `Follow` [default: 3000; 200 with --small].
    #[arg(long, value_name = "M")]
    pub mix_activities: Option<usize>,
    /// Local accounts following the remote author of those activities [default: 20; 5 with
    /// --small].
    #[arg(long, value_name = "L")]
    pub local_followers: Option<usize>,
    /// Concurrent connections sending the activities.
    #[arg(long, value_name = "C", default_value_t = 16)]
    pub connections: usize,
    /// Remote servers (loopback ports) whose actor follows the local author [default: 1000; 50
    /// with --small].
    #[arg(long, value_name = "S")]
    pub servers: Option<usize>,
    /// Follows the remote servers send at once.
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub follow_concurrency: usize,
    /// The server's background workers (`FEDBLOG_WORKERS`), which make the deliveries (4 was
    /// fastest on 2 cores: 1 → 2.8 s, 4 → 1.5 s, 16 → 2.9 s, 32 → 3.1 s for 1,000 servers).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub workers: usize,
    /// The server's idle worker poll interval (`FEDBLOG_WORKER_POLL_MS`).
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub worker_poll_ms: u64,
    /// Skip the inbound measurement.
    #[arg(long)]
    pub no_inbound: bool,
    /// Skip the outbound measurement.
    #[arg(long)]
    pub no_outbound: bool,
    /// Measure only the `Create`s inbound and the post outbound, not the full activity mix
    /// (inbound: the mixed activities; outbound: the edit, boost, unboost, poll, profile update
    /// and deletion after the post).
    #[arg(long)]
    pub no_mix: bool,
    /// A quick smoke run: 200 `Create`s and 200 mixed activities, 5 local followers, 50 remote
    /// servers (flags given explicitly still win).
    #[arg(long)]
    pub small: bool,
    /// Also write the settings and the summary as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Write the server's log (`FEDBLOG_LOG=warn`) to this file and keep it [default: in the
    /// temporary data folder, summarised and removed].
    #[arg(long, value_name = "FILE")]
    pub server_log: Option<PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_sets_the_smoke_defaults_and_explicit_flags_win() {
        let cli = Cli::parse_from(["fedblog-bench", "local", "--small", "--followers", "300"]);
        let Command::Local(args) = cli.command else {
            panic!("local expected");
        };
        let scale = args.scale.resolve().unwrap();
        assert_eq!(
            (
                scale.authors,
                scale.posts_per_author,
                scale.followers,
                scale.post_count
            ),
            (10, 5, 300, 50)
        );
        let load = args.load.resolve(&scale).unwrap();
        assert_eq!(load.duration, Duration::from_secs(2));
        assert_eq!(load.connections, 16);
    }

    #[test]
    fn full_defaults_and_bad_values() {
        let cli = Cli::parse_from([
            "fedblog-bench",
            "run",
            "--base-url",
            "http://127.0.0.1:3000",
            "--tokens",
            "t.json",
        ]);
        let Command::Run(args) = cli.command else {
            panic!("run expected");
        };
        let scale = args.scale.resolve().unwrap();
        assert_eq!(
            (
                scale.authors,
                scale.posts_per_author,
                scale.followers,
                scale.post_count
            ),
            (100, 50, 10_000, 500)
        );
        assert_eq!(
            args.load.resolve(&scale).unwrap().duration,
            Duration::from_secs(10)
        );
        let zero = ScaleArgs {
            authors: Some(0),
            posts_per_author: None,
            followers: None,
            post_count: None,
            small: false,
        };
        assert!(zero.resolve().unwrap_err().contains("--authors"));
    }

    #[test]
    fn streaming_defaults_small_values_and_limits() {
        let resolve = |args: &[&str]| {
            let cli = Cli::parse_from(args);
            let Command::Local(a) = cli.command else {
                panic!("local expected");
            };
            let scale = a.scale.resolve()?;
            a.streaming.resolve(&scale)
        };
        let full = resolve(&["fedblog-bench", "local"]).unwrap();
        assert_eq!(
            (full.idle, full.followers, full.public, full.posts),
            (10_000, 1000, 1000, 5)
        );
        let small = resolve(&["fedblog-bench", "local", "--small"]).unwrap();
        assert_eq!(
            (
                small.idle,
                small.followers,
                small.public,
                small.open_at_once
            ),
            (200, 50, 50, 200)
        );
        // The default follows a smaller --followers; an explicit value above it is an error.
        let few = resolve(&["fedblog-bench", "local", "--followers", "300"]).unwrap();
        assert_eq!(few.followers, 300);
        let err = resolve(&[
            "fedblog-bench",
            "local",
            "--followers",
            "300",
            "--streaming-followers",
            "400",
        ])
        .unwrap_err();
        assert!(err.contains("--streaming-followers 400"), "{err}");
        let off = resolve(&["fedblog-bench", "local", "--no-streaming"]).unwrap();
        assert!(!off.any());
        let some = resolve(&["fedblog-bench", "local", "--streaming-idle", "0"]).unwrap();
        assert!(some.any() && some.idle == 0);
        assert!(resolve(&["fedblog-bench", "local", "--streaming-posts", "0"]).is_err());
    }
}
