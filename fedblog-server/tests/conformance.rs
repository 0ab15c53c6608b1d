//! Runs the whole HTTP conformance suite in-process against the reference server (federating,
//! with private addresses allowed, so that the `federation` checks' loopback peer is reachable)
//! and compares the outcomes with the committed baseline (`fedblog-testkit/baselines/fedblog.jsonl`):
//! every check must end as the baseline says, no better and no worse, so the baseline (and the
//! README's table made from it) stays the truth. `FEDBLOG_UPDATE_BASELINE=1 cargo test --test
//! conformance every_conformance_check_matches_the_baseline` rewrites the baseline from the
//! SQLite run instead; review the diff before committing it.

mod common;

use fedblog_testkit::conformance::{self, Baseline, Outcome, checks};

fn baseline_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fedblog-testkit/baselines/fedblog.jsonl")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_conformance_check_matches_the_baseline() {
    run_all(common::TestServer::start_federating(None, true).await, true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_conformance_check_matches_the_baseline_on_postgres() {
    let Some(admin) = common::TestServer::postgres_or_say(
        "every_conformance_check_matches_the_baseline_on_postgres",
    ) else {
        return;
    };
    run_all(
        common::TestServer::start_federating(Some(&admin), true).await,
        false,
    )
    .await;
}

async fn run_all(server: common::TestServer, may_update: bool) {
    let cx = server.full_cx().await;
    let all = checks::all();
    assert!(!all.is_empty());
    let report = conformance::run(&cx, &all, None, |_| {}).await;
    server.stop().await;
    let unlisted = checks::schema::unlisted(&cx);
    assert!(
        unlisted.is_empty(),
        "these endpoints answered but the schema area has no check for them; add them to checks::schema::OPERATIONS: {unlisted:?}"
    );
    println!("{}", report.summary());
    let not_run: Vec<String> = report
        .results
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::NotRun(_)))
        .map(|r| format!("{}: {}", r.id, r.outcome.detail()))
        .collect();
    assert!(
        not_run.is_empty(),
        "in-process every check has its set-up (accounts, admin token), yet these did not run:\n{}",
        not_run.join("\n")
    );
    let path = baseline_path();
    if may_update && std::env::var_os("FEDBLOG_UPDATE_BASELINE").is_some() {
        std::fs::write(&path, Baseline::of(&report).to_jsonl()).expect("write the baseline");
        println!("wrote {}", path.display());
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let baseline = Baseline::parse(&text).expect("the baseline parses");
    let c = baseline.compare(&report, |_| true);
    let failed: Vec<String> = report
        .failures()
        .iter()
        .map(|r| format!("{}: {}", r.id, r.outcome.detail()))
        .collect();
    assert!(
        c.exact(),
        "the run differs from {}:\n{}\nfailed checks and why:\n{}",
        path.display(),
        c.describe(),
        failed.join("\n")
    );
}
