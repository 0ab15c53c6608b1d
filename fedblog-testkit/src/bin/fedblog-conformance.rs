//! `fedblog-conformance`: run the HTTP conformance suite against any Mastodon-compatible server.
//!
//! ```text
//! fedblog-conformance --base-url http://127.0.0.1:3000 \
//!     --account-factory 'fedblog-server accounts create {username} --email {username}@example.com --password "correct horse battery" --confirmed --approved >/dev/null && fedblog-server tokens create {username}' \
//!     --expect fedblog-testkit/baselines/fedblog.jsonl
//! ```
//!
//! The `federation` checks play a remote ActivityPub server on `--peer-listen` (a free loopback
//! port by default), which the server must be able to reach.
//!
//! `--lacks push,streaming` declares optional features the server does not offer (their checks
//! end not-run: declared absent); `--markdown summary.md` writes the failures grouped by cause,
//! each with a curl command that repeats its request.
//!
//! Exit status: 0 when every check passed (with `--expect`: when no check did worse than the
//! baseline and every check run is listed in it; with `--no-fail`: whenever the run finished),
//! 1 otherwise, 2 when the run could not start (bad arguments, no schema, unreadable baseline).

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Parser;
use fedblog_testkit::client::Client;
use fedblog_testkit::conformance::{
    self, AccountFactory, Baseline, CommandFactory, Cx, Feature, checks,
};
use fedblog_testkit::openapi::OpenApi;

/// Checks a Mastodon-compatible server against the fedblog conformance suite.
#[derive(Parser, Debug)]
#[command(name = "fedblog-conformance", version, about)]
struct Args {
    /// The server's base URL, e.g. http://127.0.0.1:3000.
    #[arg(long, required_unless_present = "list")]
    base_url: Option<String>,
    /// A user token, for checks that need one user when no account factory is given.
    #[arg(long, allow_hyphen_values = true)]
    token: Option<String>,
    /// An administrator's token (admin:read admin:write), for checks whose set-up needs
    /// moderation, such as suspending an account; without it they end not-run.
    // A token is random text and may begin with `-`.
    #[arg(long, allow_hyphen_values = true)]
    admin_token: Option<String>,
    /// A shell command that creates a confirmed account named {username} and prints its token on the last line.
    #[arg(long)]
    account_factory: Option<String>,
    /// The password of accounts the factory makes (lets the authorization-code checks sign in).
    #[arg(
        long,
        env = "FEDBLOG_CONFORMANCE_FACTORY_PASSWORD",
        allow_hyphen_values = true
    )]
    factory_password: Option<String>,
    /// Where to write the JSON-lines report.
    #[arg(long, default_value = "conformance-report.jsonl")]
    report: PathBuf,
    /// Run one area only (e.g. statuses).
    #[arg(long)]
    only: Option<String>,
    /// List the checks and exit.
    #[arg(long)]
    list: bool,
    /// The Mastodon OpenAPI schema (default: FEDBLOG_OPENAPI, or shared/reference/mastodon-openapi.json found upwards).
    #[arg(long)]
    openapi: Option<PathBuf>,
    /// A baseline (JSON lines with `id` and `outcome`; a report will do) to compare with:
    /// exit non-zero only if a check expected to pass did not, or a check is not listed.
    #[arg(long)]
    expect: Option<PathBuf>,
    /// Exit 0 even when checks fail (the report still says so).
    #[arg(long)]
    no_fail: bool,
    /// Optional features the server does not offer, comma-separated: admin, federation, push,
    /// streaming, translation. Their checks end `not-run: declared absent`.
    #[arg(long, value_delimiter = ',', value_parser = parse_feature)]
    lacks: Vec<Feature>,
    /// Where the `federation` checks' stand-in ActivityPub server listens (it plays a remote
    /// server the one under test must reach: a fedblog server needs
    /// FEDBLOG_ALLOW_PRIVATE_ADDRESSES=true for a loopback address). Default: a free loopback
    /// port.
    #[arg(long, default_value = "127.0.0.1:0")]
    peer_listen: String,
    /// Also write a Markdown summary: the table, the failures grouped by cause with the request
    /// that shows each (as curl), and the checks not run grouped by reason.
    #[arg(long)]
    markdown: Option<PathBuf>,
}

fn parse_feature(s: &str) -> Result<Feature, String> {
    Feature::parse(s).ok_or_else(|| {
        let names: Vec<&str> = Feature::ALL.iter().map(|f| f.name()).collect();
        format!("unknown feature {s:?} (one of {})", names.join(", "))
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let all = checks::all();
    if args.list {
        for c in &all {
            println!("{:<48} {}", c.id, c.rule);
        }
        return std::process::ExitCode::SUCCESS;
    }
    let baseline = match &args.expect {
        None => None,
        Some(p) => match std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|t| Baseline::parse(&t))
        {
            Ok(b) => Some(b),
            Err(e) => {
                eprintln!(
                    "fedblog-conformance: cannot read the baseline {}: {e}",
                    p.display()
                );
                return std::process::ExitCode::from(2);
            }
        },
    };
    let openapi = match &args.openapi {
        Some(p) => OpenApi::load(p),
        None => OpenApi::discover(&std::env::current_dir().unwrap_or_default()),
    };
    let openapi = match openapi {
        Ok(o) => Arc::new(o),
        Err(e) => {
            eprintln!("fedblog-conformance: cannot load the OpenAPI schema: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let base = args.base_url.clone().unwrap_or_default();
    let client = match Client::new(&base, Some(openapi)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("fedblog-conformance: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let factory: Option<Arc<dyn AccountFactory>> = args
        .account_factory
        .clone()
        .map(|t| Arc::new(CommandFactory { template: t }) as Arc<dyn AccountFactory>);
    let mut cx = Cx::new(client, factory, args.token.clone());
    cx.factory_password = args.factory_password.clone();
    cx.set_admin_token(args.admin_token.clone());
    cx.lacks = args.lacks.iter().copied().collect();
    cx.peer_listen = args.peer_listen.clone();
    let selected = all
        .iter()
        .filter(|c| args.only.as_deref().is_none_or(|a| c.area() == a))
        .count();
    eprintln!("running {selected} checks against {base}");
    let declared = if cx.lacks.is_empty() {
        "none".to_string()
    } else {
        let names: Vec<&str> = cx.lacks.iter().map(|f| f.name()).collect();
        names.join(", ")
    };
    let mut done = 0;
    let report = conformance::run(&cx, &all, args.only.as_deref(), |r| {
        done += 1;
        eprintln!(
            "[{done:>3}/{selected}] {:<8} {}{}",
            r.outcome.label(),
            r.id,
            if r.outcome.detail().is_empty() {
                String::new()
            } else {
                format!(": {}", r.outcome.detail())
            }
        );
    })
    .await;
    if let Err(e) = std::fs::File::create(&args.report)
        .and_then(|mut f| f.write_all(report.to_jsonl().as_bytes()))
    {
        eprintln!(
            "fedblog-conformance: cannot write {}: {e}",
            args.report.display()
        );
        return std::process::ExitCode::from(2);
    }
    if let Some(md) = &args.markdown {
        let text = report.markdown(&base, &declared);
        if let Err(e) = std::fs::write(md, text) {
            eprintln!("fedblog-conformance: cannot write {}: {e}", md.display());
            return std::process::ExitCode::from(2);
        }
    }
    println!("{}", report.summary());
    println!("declared absent: {declared}");
    let unlisted = checks::schema::unlisted(&cx);
    if args.only.is_none() && !unlisted.is_empty() {
        println!(
            "endpoints whose answers no schema check judges (the schema area lists those fedblog's run exercises): {}",
            unlisted.join(", ")
        );
    }
    let not_run = report.not_run();
    if !not_run.is_empty() {
        println!("checks that could not run, and why:");
        for (why, ids) in &not_run {
            let why: String = why.split_whitespace().collect::<Vec<_>>().join(" ");
            let why = match why.char_indices().nth(160) {
                Some((at, _)) => format!("{}…", &why[..at]),
                None => why,
            };
            println!("  {} ({}): {}", why, ids.len(), ids.join(", "));
        }
    }
    println!("report: {}", args.report.display());
    if let Some(md) = &args.markdown {
        println!("summary: {}", md.display());
    }
    let ok = match &baseline {
        Some(b) => {
            let only = args.only.as_deref();
            let c = b.compare(&report, |id| {
                only.is_none_or(|a| id.split('/').next() == Some(a))
            });
            if c.exact() {
                println!(
                    "baseline {}: every outcome as expected",
                    args.expect
                        .as_ref()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default()
                );
            } else {
                print!("{}", c.describe());
            }
            c.acceptable()
        }
        None => report.failures().is_empty() && not_run.is_empty(),
    };
    if ok || args.no_fail {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tokens and passwords are random text: one beginning with `-` is a value, not a flag.
    #[test]
    fn tokens_and_passwords_may_begin_with_a_hyphen() {
        let args = Args::try_parse_from([
            "fedblog-conformance",
            "--base-url",
            "http://127.0.0.1:1",
            "--token",
            "-user",
            "--admin-token",
            "-Jadmin",
            "--factory-password",
            "--secret",
        ])
        .expect("parsed");
        assert_eq!(args.token.as_deref(), Some("-user"));
        assert_eq!(args.admin_token.as_deref(), Some("-Jadmin"));
        assert_eq!(args.factory_password.as_deref(), Some("--secret"));
    }
}
