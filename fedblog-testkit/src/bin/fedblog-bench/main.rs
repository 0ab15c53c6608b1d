//! `fedblog-bench`: the load benchmark for fedblog-server or any other Mastodon-compatible server.
//!
//! # The one command
//!
//! ```sh
//! cargo build --release -p fedblog-server -p fedblog-testkit && target/release/fedblog-bench local
//! ```
//!
//! makes a fresh temporary data folder, seeds it (10,103 accounts with a token each),
//! starts `fedblog-server` from the bench's own folder on a free loopback port, runs the whole
//! benchmark against it through the Mastodon API, prints a summary table with every figure next
//! to its target, stops the server and removes the folder. `--small` is a quick smoke run (10
//! authors, 5 posts each, 200 followers, 50 posts, 2-second read benchmarks), as CI runs it:
//! `target/debug/fedblog-bench local --small --server-bin target/debug/fedblog-server`.
//!
//! # Subcommands
//!
//! - `seed --database-url URL --out tokens.json [--server-bin PATH]`: creates the accounts
//!   (`bench_reader`, `bench_author_1..N`, `bench_big`, `bench_poster`, `bench_follower_1..M`;
//!   confirmed, approved, role user) in a fedblog database with `fedblog-server accounts
//!   create-many`, and writes a token for each to the tokens file. Fedblog-specific and fast;
//!   an account that already exists is reused with a new token.
//! - `run --base-url URL --tokens tokens.json [--pid PID]`: talks only the Mastodon HTTP API, so
//!   it measures any Mastodon-compatible server for which you have such tokens. It sets up the
//!   graph and the posts through the API, then measures (see `run --help`).
//! - `local`: `seed`, start the server, `run`, stop, clean up.
//! - `federation [--small]`: starts `fedblog-server` federating on loopback and measures issue
//!   23's federation figures, the bench playing the other servers (see `federation.rs`).
//!
//! # The tokens file
//!
//! ```json
//! {"reader": "TOKEN", "authors": ["TOKEN", ...], "big_author": "TOKEN", "poster": "TOKEN",
//!  "followers": ["TOKEN", ...]}
//! ```
//!
//! Bearer tokens with the scopes `read write follow push`, each of a different active account.
//! `run` uses the first `--authors` authors and the first `--followers` followers.
//!
//! # What is measured
//!
//! Read benchmarks (home timeline `limit=40` of the reader who follows every author, public
//! local timeline `limit=40`, one status, `verify_credentials`) each run `--duration` seconds on
//! `--connections` keep-alive connections; requests/s counts 2xx answers, p50/p99 are their
//! latencies, and every non-2xx answer or transport failure is an error. Posting throughput is
//! `--post-count` statuses posted one after another on one connection by `poster`, whom 100
//! followers follow. Fan-out time runs from sending `big_author`'s post to it being in the home
//! feed of each of 50 probe followers spread over the list (polled every 50 ms); all followers
//! are then checked once, untimed. Peak RSS is the server's `VmHWM` from `/proc/PID/status`; the
//! server's CPU per request is its user and system time (`/proc/PID/stat`) over a read benchmark
//! divided by the answers.
//!
//! Streaming, last (`--streaming-idle`, `--streaming-followers`, `--streaming-public`,
//! `--streaming-posts`; `--no-streaming` skips it): 10,000 idle WebSocket connections (200 with
//! `--small`) on the user streams of accounts that do not follow poster, opened 200 at a time,
//! with the server's `VmRSS` before and a second after, kept open to the end; then the first
//! 1,000 followers (50 with `--small`) follow poster and each listens on its user stream (even
//! ones over WebSocket, odd ones over server-sent events) while poster posts 5 times, one post at
//! a time; then the same with 1,000 `public:local` listeners without a token (50 with
//! `--small`). Each delivery is timed from the POST's answer to the frame's arrival (one that
//! comes earlier counts as 0 ms), and p50/p95/p99/max are over every delivery of every post.
//! The program raises its open files limit to the hard limit first; the server `local` starts
//! inherits it.

mod api;
mod cli;
mod federation;
mod load;
mod local;
mod pool;
mod report;
mod run;
mod seed;
mod streaming;
mod tokens;

use clap::Parser;

use crate::cli::{Cli, Command};

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    if !matches!(cli.command, Command::Seed(_)) {
        // Thousands of streaming connections need as many descriptors, here and in the server
        // `local` starts (it inherits the limit).
        match streaming::raise_open_files_limit() {
            Ok((before, after)) if after > before => {
                println!("open files limit raised from {before} to {after}")
            }
            Ok(_) => {}
            Err(e) => eprintln!("fedblog-bench: {e}"),
        }
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("fedblog-bench: cannot start the runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(async move {
        match cli.command {
            Command::Seed(args) => seed::command(args).await,
            Command::Run(args) => run::command(args).await,
            Command::Local(args) => local::command(args).await,
            Command::Federation(args) => federation::command(args).await,
        }
    });
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fedblog-bench: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
