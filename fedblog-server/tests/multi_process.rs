//! Several server processes on one PostgreSQL database: a post made through one is read through
//! the other, each scheduled job runs exactly once with both processes working, killing a
//! process that holds jobs loses none of them, and what one process changes is never answered
//! from another's cache once the change was answered.
//!
//! Runs when `FEDBLOG_TEST_DATABASE_URL` names a PostgreSQL server (`.ci/run` always sets it);
//! otherwise it says that it did not run.

mod common;

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::{
    update_credentials::UpdateCredentials, verify_credentials::VerifyCredentials,
};
use fedblog_core::api::fill_path;
use fedblog_core::api::statuses::{
    create_status::CreateStatus, delete_status::DeleteStatus, get_status::GetStatus,
};
use fedblog_core::api::timelines::{home_timeline::HomeTimeline, public_timeline::PublicTimeline};
use fedblog_core::store::JobState;
use fedblog_core::{Id, Store};
use fedblog_server::store::{ConnectSettings, admin, connect};
use fedblog_testkit::client::{Client, form};

const BIN: &str = env!("CARGO_BIN_EXE_fedblog-server");

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

struct Proc {
    child: Child,
    base: String,
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn command(db_url: &str) -> Command {
    let mut c = Command::new(BIN);
    c.env("FEDBLOG_DATABASE_URL", db_url)
        .env("FEDBLOG_DOMAIN", "fedblog.test")
        .env("FEDBLOG_LOG", "warn")
        .env(
            "FEDBLOG_DATA_DIR",
            std::env::temp_dir().join("fedblog-mp-unused"),
        );
    c
}

fn run_cli(db_url: &str, args: &[&str]) -> String {
    let out = command(db_url)
        .args(args)
        .output()
        .expect("run fedblog-server");
    assert!(
        out.status.success(),
        "fedblog-server {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

async fn start(db_url: &str) -> Proc {
    let port = free_port();
    let child = command(db_url)
        .arg("serve")
        .env("FEDBLOG_LISTEN", format!("127.0.0.1:{port}"))
        .env("FEDBLOG_WORKERS", "2")
        .env("FEDBLOG_WORKER_POLL_MS", "50")
        .env("FEDBLOG_JOB_LEASE_SECS", "3")
        .env("FEDBLOG_MIGRATE_ON_START", "false")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start fedblog-server");
    let p = Proc {
        child,
        base: format!("http://127.0.0.1:{port}"),
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if reqwest::get(format!("{}/nodeinfo/2.0", p.base))
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            return p;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("server on port {port} did not start");
}

fn signal(p: &Proc, sig: &str) {
    let ok = Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(p.child.id().to_string())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "kill -{sig} failed");
}

/// Schedules `n` statuses through `client` and makes their jobs due now (through the store, as
/// waiting five minutes is not a test).
async fn schedule_due(
    client: &Client,
    token: &str,
    store: &dyn Store,
    n: usize,
    tag: &str,
) -> Vec<Id> {
    let mut ids = Vec::new();
    for i in 0..n {
        // Spread over days: an account may schedule 25 statuses per day.
        let at = (chrono::Utc::now()
            + chrono::Duration::minutes(10)
            + chrono::Duration::days(i as i64 / 20))
        .to_rfc3339();
        let r = client
            .post(
                CreateStatus::PATH,
                Some(token),
                form(&[
                    ("status", format!("{tag} {i}").as_str()),
                    ("scheduled_at", at.as_str()),
                ]),
            )
            .await
            .expect("schedule");
        r.expect(200).expect("scheduled");
        ids.push(
            r.json().unwrap()["id"]
                .as_str()
                .unwrap()
                .parse::<Id>()
                .unwrap(),
        );
    }
    let now = chrono::Utc::now();
    for id in &ids {
        assert!(
            store.reschedule_job(*id, now).await.unwrap(),
            "job {id} is queued"
        );
    }
    ids
}

async fn wait_all_done(store: &dyn Store, ids: &[Id], within: Duration) {
    let deadline = Instant::now() + within;
    loop {
        let mut done = 0;
        for id in ids {
            if store
                .job_by_id(*id)
                .await
                .unwrap()
                .is_some_and(|j| j.state == JobState::Done)
            {
                done += 1;
            }
        }
        if done == ids.len() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "only {done} of {} jobs done in time",
            ids.len()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// How many of the account's statuses carry each text prefix.
async fn published(store: &dyn Store, account: Id, tag: &str) -> Vec<String> {
    let page = fedblog_core::pagination::Page::first(1000);
    let ids = store.home_feed(account, page).await.unwrap();
    let mut texts: Vec<String> = store
        .statuses_by_ids(&ids)
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.text)
        .filter(|t| t.starts_with(tag))
        .collect();
    texts.sort();
    texts
}

/// A new, migrated database (its name and URL) with one confirmed account, `username`, and a
/// token of it, made through the CLI.
async fn database_with_account(
    admin_url: &str,
    prefix: &str,
    username: &str,
) -> (String, String, String) {
    let name = format!(
        "{prefix}_{}_{}",
        std::process::id(),
        chrono::Utc::now().timestamp_micros() % 1_000_000_000
    );
    let db_url = admin::create_database(admin_url, &name)
        .await
        .expect("create database");
    run_cli(&db_url, &["migrate"]);
    let email = format!("{username}@example.com");
    run_cli(
        &db_url,
        &[
            "accounts",
            "create",
            username,
            "--email",
            &email,
            "--password",
            "correct horse battery",
            "--confirmed",
            "--approved",
        ],
    );
    let token = run_cli(&db_url, &["tokens", "create", username])
        .lines()
        .last()
        .unwrap()
        .trim()
        .to_string();
    (name, db_url, token)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_share_one_database() {
    let Some(admin_url) = common::TestServer::postgres_or_say("two_processes_share_one_database")
    else {
        return;
    };
    let (name, db_url, token) = database_with_account(&admin_url, "fedblog_mp", "mp").await;
    let store: Arc<dyn Store> = Arc::new(
        connect(&db_url, &ConnectSettings::default())
            .await
            .expect("connect"),
    );
    let account = store
        .account_by_username("mp", None)
        .await
        .unwrap()
        .unwrap()
        .id;

    let a = start(&db_url).await;
    let b = start(&db_url).await;
    let ca = Client::new(&a.base, Some(common::openapi())).unwrap();
    let cb = Client::new(&b.base, Some(common::openapi())).unwrap();

    // A post made through one process is visible through the other.
    let r = ca
        .post(
            CreateStatus::PATH,
            Some(&token),
            form(&[("status", "hello from A")]),
        )
        .await
        .unwrap();
    let id = r.json().unwrap()["id"].as_str().unwrap().to_string();
    cb.get(&fill_path(GetStatus::PATH, &[("id", &id)]), Some(&token))
        .await
        .unwrap()
        .expect(200)
        .unwrap();
    let home = cb.get(HomeTimeline::PATH, Some(&token)).await.unwrap();
    assert!(
        home.json()
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["id"] == id.as_str()),
        "B's home timeline shows A's post"
    );

    // 100 scheduled jobs, both processes working: each runs exactly once.
    let started = Instant::now();
    let ids = schedule_due(&ca, &token, &*store, 100, "round1").await;
    wait_all_done(&*store, &ids, Duration::from_secs(60)).await;
    for id in &ids {
        let job = store.job_by_id(*id).await.unwrap().unwrap();
        assert_eq!(
            job.attempts, 1,
            "job {id} was claimed {} times",
            job.attempts
        );
    }
    let texts = published(&*store, account, "round1").await;
    assert_eq!(
        texts.len(),
        100,
        "each scheduled status is published exactly once"
    );
    for id in &ids {
        assert!(
            store
                .job_by_id(*id)
                .await
                .unwrap()
                .unwrap()
                .locked_by
                .is_none(),
            "a finished job holds no lock"
        );
    }
    println!(
        "round 1: 100 jobs done once each in {:?}",
        started.elapsed()
    );

    // Kill A while it holds jobs: B takes them over when their lease ends; none is lost.
    let ids2 = schedule_due(&cb, &token, &*store, 100, "round2").await;
    let a_marker = format!(":{}:", a.child.id());
    let mut caught = 0;
    for _ in 0..500 {
        signal(&a, "STOP");
        let mut held = 0;
        for id in &ids2 {
            if let Some(j) = store.job_by_id(*id).await.unwrap()
                && j.state == JobState::Running
                && j.locked_by
                    .as_deref()
                    .is_some_and(|w| w.contains(&a_marker))
            {
                held += 1;
            }
        }
        if held > 0 {
            caught = held;
            break;
        }
        signal(&a, "CONT");
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    assert!(caught > 0, "A never held a job (it should share the work)");
    signal(&a, "KILL");
    drop(a);
    wait_all_done(&*store, &ids2, Duration::from_secs(60)).await;
    let texts = published(&*store, account, "round2").await;
    let mut unique = texts.clone();
    unique.dedup();
    assert_eq!(unique.len(), 100, "every scheduled status was published");
    assert_eq!(texts.len(), 100, "none was published twice");
    println!("round 2: A killed holding {caught} jobs; all 100 done by B");

    drop(b);
    drop(store);
    admin::drop_database(&admin_url, &name)
        .await
        .expect("drop database");
}

/// The JSON answer of a `GET`.
async fn json(client: &Client, path: &str, token: &str) -> serde_json::Value {
    client
        .get(path, Some(token))
        .await
        .unwrap()
        .json()
        .unwrap()
        .clone()
}

/// Each process caches what it reads; a change made through one is seen through the other as
/// soon as its request was answered: a profile edit, a new post in the home timeline and the
/// public timeline, and a deleted post, each read through the other process right after.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_through_one_process_is_never_answered_from_the_others_cache() {
    let Some(admin_url) = common::TestServer::postgres_or_say(
        "a_change_through_one_process_is_never_answered_from_the_others_cache",
    ) else {
        return;
    };
    let (name, db_url, token) = database_with_account(&admin_url, "fedblog_mpc", "mpc").await;
    let a = start(&db_url).await;
    let b = start(&db_url).await;
    let ca = Client::new(&a.base, None).unwrap();
    let cb = Client::new(&b.base, None).unwrap();
    let ids_of = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .expect("a page")
            .iter()
            .map(|s| s["id"].as_str().unwrap().to_string())
            .collect()
    };
    let public = format!("{}?local=true", PublicTimeline::PATH);

    // Eight rounds, four each way (about 110 requests, well within the API's rate limit).
    for round in 0..8 {
        // Both read first, so both hold the account, the feeds and the timelines.
        let (writer, reader) = if round % 2 == 0 {
            (&ca, &cb)
        } else {
            (&cb, &ca)
        };
        for c in [&ca, &cb] {
            c.get(VerifyCredentials::PATH, Some(&token))
                .await
                .unwrap()
                .expect(200)
                .unwrap();
            c.get(HomeTimeline::PATH, Some(&token)).await.unwrap();
            c.get(&public, Some(&token)).await.unwrap();
        }

        let shown = format!("name {round}");
        writer
            .patch(
                UpdateCredentials::PATH,
                Some(&token),
                form(&[("display_name", &shown)]),
            )
            .await
            .unwrap()
            .expect(200)
            .unwrap();
        let me = json(reader, VerifyCredentials::PATH, &token).await;
        assert_eq!(
            me["display_name"],
            shown.as_str(),
            "round {round}: the edit"
        );

        let posted = writer
            .post(
                CreateStatus::PATH,
                Some(&token),
                form(&[("status", &format!("post {round}"))]),
            )
            .await
            .unwrap()
            .json()
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        let home = json(reader, HomeTimeline::PATH, &token).await;
        assert_eq!(
            ids_of(&home).first(),
            Some(&posted),
            "round {round}: the new post heads the other process's home timeline"
        );
        let local = json(reader, &public, &token).await;
        assert_eq!(
            ids_of(&local).first(),
            Some(&posted),
            "round {round}: and its local timeline"
        );
        let me = json(reader, VerifyCredentials::PATH, &token).await;
        assert_eq!(me["statuses_count"], 1, "round {round}: the count");

        writer
            .delete(
                &fill_path(DeleteStatus::PATH, &[("id", &posted)]),
                Some(&token),
            )
            .await
            .unwrap()
            .expect(200)
            .unwrap();
        reader
            .get(
                &fill_path(GetStatus::PATH, &[("id", &posted)]),
                Some(&token),
            )
            .await
            .unwrap()
            .expect(404)
            .unwrap();
        let home = json(reader, HomeTimeline::PATH, &token).await;
        assert!(
            !ids_of(&home).contains(&posted),
            "round {round}: the deleted post left the other process's home timeline"
        );
        let me = json(reader, VerifyCredentials::PATH, &token).await;
        assert_eq!(me["statuses_count"], 0, "round {round}: the count after");
    }
    drop(a);
    drop(b);
    admin::drop_database(&admin_url, &name)
        .await
        .expect("drop database");
}

/// Reads `response` (server-sent events) until its text holds `needle`, for at most 10 s.
async fn sse_until(response: &mut reqwest::Response, needle: &str) -> Result<String, String> {
    let mut text = String::new();
    let read = tokio::time::timeout(Duration::from_secs(10), async {
        while !text.contains(needle) {
            match response.chunk().await {
                Ok(Some(chunk)) => text.push_str(&String::from_utf8_lossy(&chunk)),
                _ => return false,
            }
        }
        true
    })
    .await;
    match read {
        Ok(true) => Ok(text),
        _ => Err(format!("no {needle:?} in {text:?}")),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_through_one_process_reaches_the_streams_of_the_other() {
    let Some(admin_url) = common::TestServer::postgres_or_say(
        "a_post_through_one_process_reaches_the_streams_of_the_other",
    ) else {
        return;
    };
    let (name, db_url, token) = database_with_account(&admin_url, "fedblog_mps", "streamer").await;
    let a = start(&db_url).await;
    let b = start(&db_url).await;
    let http = reqwest::Client::new();
    let mut home = http
        .get(format!("{}/api/v1/streaming/user", a.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    let mut local = http
        .get(format!("{}/api/v1/streaming/public/local", a.base))
        .send()
        .await
        .unwrap();
    assert_eq!(
        (home.status().as_u16(), local.status().as_u16()),
        (200, 200)
    );

    let cb = Client::new(&b.base, Some(common::openapi())).unwrap();
    // The event travels by id through PostgreSQL; process A renders it for its listeners.
    let r = cb
        .post(
            CreateStatus::PATH,
            Some(&token),
            form(&[("status", "through B")]),
        )
        .await
        .unwrap();
    let id = r.json().unwrap()["id"].as_str().unwrap().to_string();
    let frame = format!("event: update\ndata: {{\"id\":\"{id}\"");
    let outcome = (
        sse_until(&mut home, &frame).await,
        sse_until(&mut local, &frame).await,
    );
    drop((home, local, a, b));
    admin::drop_database(&admin_url, &name)
        .await
        .expect("drop database");
    outcome.0.expect("A's user stream got B's post");
    outcome.1.expect("A's public:local stream got B's post");
}
