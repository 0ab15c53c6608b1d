//! Runs the whole HTTP conformance suite in-process against the reference server: every check
//! must pass (none may be skipped for want of set-up).

mod common;

use fedblog_testkit::conformance::{self, Outcome, checks};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_conformance_check_passes_against_fedblog() {
    run_all(common::TestServer::start().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_conformance_check_passes_against_fedblog_on_postgres() {
    let Some(admin) = common::TestServer::postgres_or_say(
        "every_conformance_check_passes_against_fedblog_on_postgres",
    ) else {
        return;
    };
    run_all(common::TestServer::start_postgres(&admin).await).await;
}

async fn run_all(server: common::TestServer) {
    let cx = server.cx();
    let all = checks::all();
    assert!(!all.is_empty());
    let report = conformance::run(&cx, &all, None, |_| {}).await;
    println!("{}", report.summary());
    let bad: Vec<String> = report
        .results
        .iter()
        .filter(|r| r.outcome != Outcome::Pass)
        .map(|r| format!("{} [{}]: {}", r.id, r.outcome.label(), r.outcome.detail()))
        .collect();
    server.stop().await;
    assert!(
        bad.is_empty(),
        "{} of {} checks did not pass:\n{}",
        bad.len(),
        all.len(),
        bad.join("\n")
    );
}
