//! The store conformance suite against `SeaStore` on SQLite (a fresh temp-file database per check)
//! as the server uses it, behind the record cache (`SeaStore::into_shared`), and the same suite on
//! PostgreSQL as the server uses it too (behind the cache, with the change log that processes
//! sharing the database keep), when `FEDBLOG_TEST_DATABASE_URL` names a scratch database.

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

use fedblog_core::Store;
use fedblog_server::store::{ConnectSettings, SeaStore, connect};

/// Where the per-check SQLite files go.
fn test_dir() -> PathBuf {
    std::env::temp_dir().join("fedblog-store-sqlite-tests")
}

/// Removes databases left by earlier runs (older than an hour, so concurrent runs keep theirs).
fn remove_stale_databases() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Ok(entries) = std::fs::read_dir(test_dir()) else {
            return;
        };
        let cutoff = SystemTime::now() - Duration::from_secs(3600);
        for entry in entries.flatten() {
            let old = entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t < cutoff);
            if old {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    });
}

/// A store on a SQLite file of its own; the file (and its `-wal`/`-shm` companions) is removed on drop.
struct TempSqlite {
    store: SeaStore,
    path: PathBuf,
}

impl std::ops::Deref for TempSqlite {
    type Target = SeaStore;
    fn deref(&self) -> &SeaStore {
        &self.store
    }
}

impl Drop for TempSqlite {
    fn drop(&mut self) {
        // Pool connections may still be open: fine on Unix; elsewhere `remove_stale_databases` sweeps later.
        for suffix in ["", "-wal", "-shm"] {
            let mut p = self.path.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
}

/// A new, empty, migrated SQLite database in a file of its own.
async fn fresh_sqlite() -> TempSqlite {
    static SEQ: AtomicUsize = AtomicUsize::new(0);
    remove_stale_databases();
    let dir = test_dir();
    std::fs::create_dir_all(&dir).expect("create the test database directory");
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let path = dir.join(format!(
        "{}-{nanos}-{}.db",
        std::process::id(),
        SEQ.fetch_add(1, Ordering::Relaxed)
    ));
    let url = format!("sqlite://{}?mode=rwc", path.display());
    let store = connect(&url, &ConnectSettings::default())
        .await
        .expect("connect to a fresh SQLite file");
    let db = TempSqlite { store, path };
    db.migrate().await.expect("migrate a fresh SQLite database");
    db
}

/// A fresh SQLite store as the server uses it (`SeaStore::into_shared`: behind the record cache),
/// holding its database file until dropped.
struct SharedSqlite {
    store: Arc<dyn Store>,
    _file: TempSqlite,
}

impl std::ops::Deref for SharedSqlite {
    type Target = dyn Store;
    fn deref(&self) -> &dyn Store {
        self.store.as_ref()
    }
}

async fn fresh_shared_sqlite() -> SharedSqlite {
    let db = fresh_sqlite().await;
    SharedSqlite {
        store: db.store.clone().into_shared(),
        _file: db,
    }
}

// Each check gets a fresh database; the factory's value dereferences to the store under test.
fedblog_testkit::store_suite!(fresh_shared_sqlite);

/// `sqlite::memory:` gets one connection, so every query sees the one database, even from
/// concurrent tasks and transactions.
#[tokio::test]
async fn sqlite_memory_is_one_database() {
    use fedblog_core::IdGenerator;
    use fedblog_core::store::{AccountStore, FollowStore};
    use fedblog_testkit::store_suite::{local_account, remote_account};

    let store = connect("sqlite::memory:", &ConnectSettings::default())
        .await
        .expect("connect");
    store.migrate().await.expect("migrate");
    store.migrate().await.expect("migrating twice is a no-op");
    assert_eq!(store.backend_name(), "sqlite");
    let ids = IdGenerator::default();
    let (alice, alice_user) = local_account(&ids, "alice");
    let bob = remote_account(&ids, "bob", "remote.example");
    let (a, b) = tokio::join!(
        store.insert_local_account(&alice, &alice_user),
        store.insert_remote_account(&bob)
    );
    a.expect("insert alice");
    b.expect("insert bob");
    let other = store.clone();
    let follow =
        tokio::spawn(async move { other.insert_follow(ids.next(), bob.id, alice.id).await });
    follow.await.expect("join").expect("insert_follow");
    assert_eq!(
        store
            .account_by_id(alice.id)
            .await
            .expect("account_by_id")
            .expect("alice")
            .followers_count,
        1
    );
}

/// The names `AlreadyExists` carries for each unique key, as the memory store gives them.
async fn check_already_exists_names(store: &SeaStore) {
    use fedblog_core::store::{
        AccountStore, JobStore, OAuthStore, ScheduledStatusStore, StatusStore,
    };
    use fedblog_core::{IdGenerator, StoreError};
    use fedblog_testkit::store_suite::{
        T0, app, authorization, job, local_account, remote_account, scheduled_status, status, token,
    };

    let name = |r: Result<(), StoreError>| match r {
        Err(StoreError::AlreadyExists(n)) => n,
        other => panic!("expected AlreadyExists, got {other:?}"),
    };
    let ids = IdGenerator::default();
    let (alice, alice_user) = local_account(&ids, "alice");
    store
        .insert_local_account(&alice, &alice_user)
        .await
        .expect("insert alice");
    let (mut dup, mut dup_user) = local_account(&ids, "other");
    dup.id = alice.id;
    dup_user.account_id = alice.id;
    assert_eq!(
        name(store.insert_local_account(&dup, &dup_user).await),
        "account",
        "taken account id"
    );
    dup_user.email = "ALICE@example.test".into();
    assert_eq!(
        name(store.insert_local_account(&dup, &dup_user).await),
        "email",
        "taken e-mail wins over a taken id"
    );
    let mut remote = remote_account(&ids, "Alice", "Remote.Example");
    store
        .insert_remote_account(&remote)
        .await
        .expect("insert alice@remote");
    remote.id = ids.next_at(T0);
    remote.domain = Some("remote.EXAMPLE".into());
    assert_eq!(
        name(store.insert_remote_account(&remote).await),
        "username",
        "taken username@domain"
    );

    let a = app(&ids, "client-a");
    store.insert_app(&a).await.expect("insert app");
    let mut same_id = app(&ids, "client-b");
    same_id.id = a.id;
    assert_eq!(
        name(store.insert_app(&same_id).await),
        "client_id",
        "taken app id"
    );
    let code = authorization("code-hash", a.id, alice.id);
    store
        .insert_authorization(&code)
        .await
        .expect("insert code");
    assert_eq!(
        name(store.insert_authorization(&code).await),
        "code",
        "taken code"
    );
    let t = token(&ids, "token-hash", a.id, Some(alice.id), T0);
    store.insert_token(&t).await.expect("insert token");
    assert_eq!(
        name(store.insert_token(&t).await),
        "token",
        "taken token hash"
    );
    let s = status(&ids, &alice, T0 + 1_000);
    store.insert_status(&s).await.expect("insert status");
    assert_eq!(
        name(store.insert_status(&s).await),
        "status",
        "taken status id"
    );
    // `scheduled_statuses_pkey` contains `statuses_pkey`: the longer name must win.
    let sched = scheduled_status(&ids, alice.id, T0 + 2_000);
    store
        .insert_scheduled_status(&sched)
        .await
        .expect("insert scheduled status");
    assert_eq!(
        name(store.insert_scheduled_status(&sched).await),
        "scheduled_status",
        "taken scheduled status id"
    );
    let j = job(&ids, "deliver", T0 + 3_000);
    store.enqueue_job(&j).await.expect("enqueue job");
    assert_eq!(name(store.enqueue_job(&j).await), "job", "taken job id");
}

#[tokio::test]
async fn sqlite_already_exists_names() {
    let db = fresh_sqlite().await;
    check_already_exists_names(&db).await;
}

/// Many tasks writing at once through a multi-connection pool: `BEGIN IMMEDIATE` and the busy
/// timeout serialise them without "database is locked" errors, and no counter update is lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_concurrent_writers_lose_nothing() {
    use fedblog_core::IdGenerator;
    use fedblog_core::store::{AccountStore, FeedStore, FollowStore, StatusStore};
    use fedblog_testkit::store_suite::{T0, local_account, status};

    let store = fresh_sqlite().await;
    let ids = Arc::new(IdGenerator::default());
    let (target, target_user) = local_account(&ids, "target");
    store
        .insert_local_account(&target, &target_user)
        .await
        .expect("insert target");
    let mut tasks = vec![];
    for i in 0..40 {
        let (store, ids, target) = (store.clone(), ids.clone(), target.clone());
        tasks.push(tokio::spawn(async move {
            let (me, me_user) = local_account(&ids, &format!("user{i}"));
            store
                .insert_local_account(&me, &me_user)
                .await
                .expect("insert account");
            store
                .insert_follow(ids.next_at(T0), me.id, target.id)
                .await
                .expect("insert_follow");
            let s = status(&ids, &target, T0 + 1_000 + i);
            store.insert_status(&s).await.expect("insert_status");
            store
                .insert_feed_entries(s.id, target.id, &[me.id, target.id])
                .await
                .expect("insert_feed_entries");
        }));
    }
    for t in tasks {
        t.await.expect("writer task");
    }
    let target = store
        .account_by_id(target.id)
        .await
        .expect("account_by_id")
        .expect("target");
    assert_eq!(target.followers_count, 40);
    assert_eq!(target.statuses_count, 40);
    assert_eq!(
        target.last_status_at.map(|t| t.timestamp_millis()),
        Some(T0 + 1_039)
    );
    let feed = store
        .home_feed(target.id, fedblog_core::pagination::Page::first(100))
        .await
        .expect("home_feed");
    assert_eq!(feed.len(), 40);
}

/// Jobs the multi-pool claim tests enqueue.
const RACE_JOBS: usize = 200;

/// Enqueues [`RACE_JOBS`] due jobs through the first store, then lets one worker per store
/// (each store its own connection pool, as separate processes would have) claim 3 at a time
/// until nothing is left, and checks that every job was claimed exactly once.
async fn claims_from_separate_pools_take_each_job_once(stores: Vec<SeaStore>) {
    use std::collections::BTreeSet;

    use fedblog_core::store::{JobState, JobStore};
    use fedblog_core::{Id, IdGenerator};
    use fedblog_testkit::store_suite::{T0, at, job};

    let ids = IdGenerator::default();
    let mut all = BTreeSet::new();
    for i in 0..RACE_JOBS as i64 {
        let j = job(&ids, "deliver", T0 + i);
        stores[0].enqueue_job(&j).await.expect("enqueue_job");
        all.insert(j.id);
    }
    let now = at(T0 + 1_000_000);
    let lease = at(T0 + 2_000_000);
    // All workers start claiming at once.
    let start = Arc::new(tokio::sync::Barrier::new(stores.len()));
    let mut workers = vec![];
    for (w, store) in stores.iter().enumerate() {
        let (store, start) = (store.clone(), start.clone());
        workers.push(tokio::spawn(async move {
            let worker = format!("worker-{w}");
            start.wait().await;
            let mut claimed: Vec<Id> = vec![];
            loop {
                let got = store
                    .claim_jobs(&worker, now, lease, 3)
                    .await
                    .unwrap_or_else(|e| panic!("{worker}: claim_jobs failed: {e:?}"));
                if got.is_empty() {
                    break;
                }
                assert!(
                    got.len() <= 3,
                    "{worker}: a claim returned more than its limit"
                );
                for j in &got {
                    assert_eq!(j.locked_by.as_deref(), Some(worker.as_str()));
                }
                claimed.extend(got.iter().map(|j| j.id));
                tokio::task::yield_now().await;
            }
            (worker, claimed)
        }));
    }
    let mut union: Vec<Id> = vec![];
    let mut per_worker = vec![];
    for w in workers {
        let (worker, claimed) = w.await.expect("worker task");
        per_worker.push(format!("{worker}: {}", claimed.len()));
        union.extend(claimed);
    }
    println!("claims per worker: {}", per_worker.join(", "));
    let distinct: BTreeSet<Id> = union.iter().copied().collect();
    assert_eq!(
        distinct.len(),
        union.len(),
        "a job was returned to two claims ({} claims, {} distinct jobs)",
        union.len(),
        distinct.len()
    );
    assert_eq!(distinct, all, "every job must be claimed, and only those");
    for id in &all {
        let j = stores[0]
            .job_by_id(*id)
            .await
            .expect("job_by_id")
            .expect("a claimed job stays");
        assert_eq!(
            (j.state, j.attempts),
            (JobState::Running, 1),
            "job {id} must be claimed exactly once"
        );
    }
    assert_eq!(
        stores[0]
            .count_jobs(JobState::Running)
            .await
            .expect("count_jobs"),
        RACE_JOBS as i64
    );
}

/// Four pools on one SQLite file claim concurrently: `BEGIN IMMEDIATE` serialises the claims, so
/// no job is claimed twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_claims_from_separate_pools_take_each_job_once() {
    let db = fresh_sqlite().await;
    let url = format!("sqlite://{}?mode=rwc", db.path.display());
    let mut stores = vec![db.store.clone()];
    for _ in 0..3 {
        stores.push(
            connect(&url, &ConnectSettings::default())
                .await
                .expect("another pool on the same file"),
        );
    }
    claims_from_separate_pools_take_each_job_once(stores).await;
}

/// A URL naming the scratch PostgreSQL database, or `None` (the PostgreSQL test then does not run).
/// The scratch PostgreSQL database (`FEDBLOG_TEST_DATABASE_URL`), or `None` after saying that
/// `test` did not run. In CI a PostgreSQL test that does not run is a failure, never a silent pass.
fn postgres_url(test: &str) -> Option<String> {
    match std::env::var("FEDBLOG_TEST_DATABASE_URL") {
        Ok(url) if url.starts_with("postgres") => Some(url),
        _ if std::env::var_os("CI").is_some() => panic!(
            "{test} must run on PostgreSQL in CI: set FEDBLOG_TEST_DATABASE_URL=postgres://... (a scratch database)"
        ),
        _ => {
            println!(
                "{test} did not run: set FEDBLOG_TEST_DATABASE_URL=postgres://... (a scratch database) to run it"
            );
            None
        }
    }
}

/// One connection to the scratch database, for statements about schemas.
async fn postgres_admin(base: &str) -> SeaStore {
    connect(
        base,
        &ConnectSettings {
            max_connections: 1,
            statement_timeout_secs: None,
        },
    )
    .await
    .expect("connect to PostgreSQL")
}

/// `base` with `search_path` set to `schema`.
fn schema_url(base: &str, schema: &str) -> String {
    let sep = if base.contains('?') { '&' } else { '?' };
    format!("{base}{sep}options=-c%20search_path%3D{schema}")
}

/// A new, empty, migrated schema in the scratch database, used through `search_path`.
async fn fresh_postgres_schema(base: &str, schema: &str) -> SeaStore {
    use sea_orm::ConnectionTrait;
    let admin = postgres_admin(base).await;
    // `pg_trgm` goes in `public`, shared by every scratch schema: the migration would otherwise
    // install it in the first schema on the search path (this test's), and the test that drops
    // its schema would drop the extension under the tests still migrating theirs. Two tests
    // creating it at once may collide; the loser finds it installed. (An earlier run that
    // stopped before dropping its schema may have left the extension there: it moves.)
    for _ in 0..3 {
        let created = admin
            .connection()
            .execute_unprepared(
                "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public; \
                 DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension e JOIN pg_namespace n \
                 ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm' \
                 AND n.nspname <> 'public') THEN ALTER EXTENSION pg_trgm SET SCHEMA public; \
                 END IF; END $$",
            )
            .await;
        if created.is_ok() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    admin
        .connection()
        .execute_unprepared(&format!(
            "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
        ))
        .await
        .expect("create a scratch schema");
    let store = connect(
        &schema_url(base, schema),
        &ConnectSettings {
            max_connections: 4,
            statement_timeout_secs: Some(30),
        },
    )
    .await
    .expect("connect to the scratch schema");
    store
        .migrate()
        .await
        .expect("migrate a fresh PostgreSQL schema");
    store.migrate().await.expect("migrating twice is a no-op");
    assert_eq!(store.backend_name(), "postgres");
    let timeout = store
        .connection()
        .query_one_raw(sea_orm::Statement::from_string(
            sea_orm::DbBackend::Postgres,
            "SHOW statement_timeout",
        ))
        .await
        .expect("SHOW statement_timeout")
        .expect("a row");
    assert_eq!(
        timeout
            .try_get::<String>("", "statement_timeout")
            .expect("text"),
        "30s",
        "ConnectSettings::statement_timeout_secs"
    );
    store
}

async fn drop_schema(base: &str, schema: &str) {
    use sea_orm::ConnectionTrait;
    let admin = postgres_admin(base).await;
    admin
        .connection()
        .execute_unprepared(&format!("DROP SCHEMA {schema} CASCADE"))
        .await
        .expect("drop the scratch schema");
}

/// One suite check, runnable on any store.
type Check = (
    &'static str,
    fn(Arc<dyn Store>) -> Pin<Box<dyn Future<Output = ()> + Send>>,
);

/// Expands the suite's check list into `Check`s (boxed, so the test's future stays small).
macro_rules! suite_checks {
    (()
     $($area:ident {
        $($check:ident),* $(,)?
        $(; given capabilities: $($given:ident),* $(,)?)?
     })*) => {
        vec![$(
            $(
                (
                    concat!(stringify!($area), "::", stringify!($check)),
                    (|store: Arc<dyn Store>| {
                        Box::pin(async move { fedblog_testkit::store_suite::$area::$check(&*store).await }) as Pin<Box<dyn Future<Output = ()> + Send>>
                    }) as fn(Arc<dyn Store>) -> Pin<Box<dyn Future<Output = ()> + Send>>,
                ),
            )*
            // SeaStore has every capability.
            $($(
                (
                    concat!(stringify!($area), "::", stringify!($given)),
                    (|store: Arc<dyn Store>| {
                        Box::pin(async move {
                            fedblog_testkit::store_suite::$area::$given(
                                &*store,
                                fedblog_testkit::store_suite::Capabilities::ALL,
                            )
                            .await
                        }) as Pin<Box<dyn Future<Output = ()> + Send>>
                    }) as fn(Arc<dyn Store>) -> Pin<Box<dyn Future<Output = ()> + Send>>,
                ),
            )*)?
        )*]
    };
}

/// The whole conformance suite on PostgreSQL as the server uses it (`into_shared`), each check
/// on a freshly migrated (or emptied) schema. Runs only when
/// `FEDBLOG_TEST_DATABASE_URL` is a `postgres://` URL of a scratch database.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_conformance() {
    let Some(base) = postgres_url("postgres_conformance") else {
        return;
    };
    // The list is the suite's own (a hidden macro of fedblog-testkit), so new checks run here too.
    let checks: Vec<Check> = fedblog_testkit::__store_suite_for_each_check!([suite_checks]());
    let mut failures: Vec<String> = vec![];
    let store = fresh_postgres_schema(&base, "fedblog_check_names").await;
    check_already_exists_names(&store).await;
    drop(store);
    drop_schema(&base, "fedblog_check_names").await;
    // The checks share one schema, migrated once and emptied between checks: running every
    // migration for each of several hundred checks took most of this test's quarter hour, and
    // copying a migrated database per check still took a second each. Emptied, the schema is as
    // a fresh one is: the migrations write no rows but their own bookkeeping.
    let schema = "fedblog_check_suite";
    let migrated = fresh_postgres_schema(&base, schema).await;
    let reset = emptying_statement(&migrated, schema).await;
    migrated.connection().clone().close().await.ok();
    for (name, check) in &checks {
        let store = connect(
            &schema_url(&base, schema),
            &ConnectSettings {
                max_connections: 4,
                statement_timeout_secs: Some(30),
            },
        )
        .await
        .expect("connect to the scratch schema");
        let connection = store.connection().clone();
        if let Err(e) = tokio::spawn(check(store.into_shared())).await {
            failures.push(format!("{name}: {e}"));
        }
        // Closes the pool (the shared store's cache may still hold a clone) before emptying.
        connection.close().await.ok();
        empty_schema(&base, &reset).await;
    }
    drop_schema(&base, schema).await;
    println!(
        "postgres_conformance: {} checks, {} failed",
        checks.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "checks failing on PostgreSQL:\n{}",
        failures.join("\n")
    );
}

/// One statement that empties every table of the migrated `schema` but the migrations' own
/// and restarts its sequences, leaving it as the migrations left it. Foreign keys are not
/// checked while it runs (every row goes).
async fn emptying_statement(store: &SeaStore, schema: &str) -> String {
    use sea_orm::{ConnectionTrait, DbBackend, Statement};
    let names =
        |sql: &str| Statement::from_sql_and_values(DbBackend::Postgres, sql, [schema.into()]);
    let tables = store
        .connection()
        .query_all_raw(names(
            "SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 \
             AND tablename <> 'seaql_migrations'",
        ))
        .await
        .expect("list the tables");
    let sequences = store
        .connection()
        .query_all_raw(names(
            "SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n \
             ON n.oid = c.relnamespace WHERE c.relkind = 'S' AND n.nspname = $1",
        ))
        .await
        .expect("list the sequences");
    let name = |row: &sea_orm::QueryResult| row.try_get::<String>("", "name").expect("a name");
    assert!(
        tables.len() > 50,
        "the migrated schema's tables: {}",
        tables.len()
    );
    // What makes emptying the same as migrating afresh: the migrations left every table empty.
    let count = tables
        .iter()
        .map(|t| format!("(SELECT count(*) FROM {schema}.\"{}\")", name(t)))
        .collect::<Vec<_>>()
        .join(" + ");
    let rows = store
        .connection()
        .query_one_raw(Statement::from_string(
            DbBackend::Postgres,
            format!("SELECT ({count})::bigint AS n"),
        ))
        .await
        .expect("count the rows")
        .expect("a row")
        .try_get::<i64>("", "n")
        .expect("a count");
    assert_eq!(
        rows, 0,
        "the migrations wrote rows, so emptying would lose them"
    );
    let mut sql = String::from("BEGIN; SET LOCAL session_replication_role = replica; ");
    for t in &tables {
        sql.push_str(&format!("DELETE FROM {schema}.\"{}\"; ", name(t)));
    }
    for s in &sequences {
        sql.push_str(&format!(
            "ALTER SEQUENCE {schema}.\"{}\" RESTART; ",
            name(s)
        ));
    }
    sql.push_str("COMMIT;");
    sql
}

/// Runs an [`emptying_statement`].
async fn empty_schema(base: &str, reset: &str) {
    use sea_orm::ConnectionTrait;
    let admin = postgres_admin(base).await;
    admin
        .connection()
        .execute_unprepared(reset)
        .await
        .expect("empty the scratch schema");
    admin.connection().clone().close().await.ok();
}

/// Four `SeaStore`s with separate pools on one PostgreSQL schema (as four worker processes
/// would be) claim concurrently, 3 at a time, over 200 due jobs until none is left: `FOR UPDATE
/// SKIP LOCKED` hands every job to exactly one claim. Runs only when `FEDBLOG_TEST_DATABASE_URL`
/// is a `postgres://` URL of a scratch database.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_claims_from_separate_pools_take_each_job_once() {
    let Some(base) = postgres_url("postgres_claims_from_separate_pools_take_each_job_once") else {
        return;
    };
    let schema = "fedblog_claim_race";
    let mut stores = vec![fresh_postgres_schema(&base, schema).await];
    for _ in 0..3 {
        stores.push(
            connect(
                &schema_url(&base, schema),
                &ConnectSettings {
                    max_connections: 2,
                    statement_timeout_secs: Some(30),
                },
            )
            .await
            .expect("another pool on the scratch schema"),
        );
    }
    claims_from_separate_pools_take_each_job_once(stores).await;
    drop_schema(&base, schema).await;
}

/// Pairs of accounts follow and unfollow each other at the same moment, both ways, many times:
/// each follow moves two counters (the follower's `following_count`, the target's
/// `followers_count`), so two crossed follows lock the same two account rows. None may fail
/// (PostgreSQL reports a deadlock when they lock them in opposite orders), and the counters end
/// matching the follows.
async fn crossed_follows_lose_nothing(store: Arc<dyn Store>) {
    use fedblog_core::IdGenerator;
    use fedblog_testkit::store_suite::local_account;

    let ids = Arc::new(IdGenerator::default());
    let mut accounts = vec![];
    for name in ["ann", "ben", "cat", "dan"] {
        let (a, u) = local_account(&ids, name);
        store
            .insert_local_account(&a, &u)
            .await
            .expect("insert account");
        accounts.push(a.id);
    }
    let mut tasks = vec![];
    for (i, &me) in accounts.iter().enumerate() {
        for (j, &other) in accounts.iter().enumerate() {
            if i == j {
                continue;
            }
            let (store, ids) = (store.clone(), ids.clone());
            tasks.push(tokio::spawn(async move {
                for round in 0..15 {
                    store
                        .insert_follow(ids.next(), me, other)
                        .await
                        .map_err(|e| format!("follow {i}->{j} round {round}: {e}"))?;
                    if round < 14 {
                        store
                            .delete_follow(me, other)
                            .await
                            .map_err(|e| format!("unfollow {i}->{j} round {round}: {e}"))?;
                    }
                }
                Ok::<(), String>(())
            }));
        }
    }
    let mut failures = vec![];
    for t in tasks {
        if let Err(e) = t.await.expect("follow task") {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "crossed follows failed:\n{}",
        failures.join("\n")
    );
    for &id in &accounts {
        let a = store
            .account_by_id(id)
            .await
            .expect("account_by_id")
            .expect("account");
        assert_eq!(
            (a.following_count, a.followers_count),
            (3, 3),
            "counters of {id:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_crossed_follows_lose_nothing() {
    let store = fresh_sqlite().await;
    crossed_follows_lose_nothing(Arc::new(store.clone())).await;
}

/// [`crossed_follows_lose_nothing`] on PostgreSQL, where row locks taken in opposite orders
/// deadlock. Runs only when `FEDBLOG_TEST_DATABASE_URL` is a `postgres://` URL.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_crossed_follows_lose_nothing() {
    let Some(base) = postgres_url("postgres_crossed_follows_lose_nothing") else {
        return;
    };
    let schema = "fedblog_crossed_follows";
    let store = fresh_postgres_schema(&base, schema).await;
    crossed_follows_lose_nothing(Arc::new(store)).await;
    drop_schema(&base, schema).await;
}

/// More custom emojis than one statement takes: 1,200 saved in one call (some keys twice in it:
/// the first id and the last fields win, as if saved one after the other), then saved again,
/// and found by 1,300 keys (repeats and unknown ones among them) in one call: every emoji once,
/// as last saved, with its first id.
async fn custom_emojis_in_many_statements(store: Arc<dyn Store>) {
    use fedblog_core::IdGenerator;
    use fedblog_core::store::CustomEmojiRecord;
    use fedblog_testkit::store_suite::{T0, at};

    let ids = IdGenerator::default();
    let emoji = |n: usize, version: &str| {
        let domain = (!n.is_multiple_of(3)).then(|| format!("host{}.example", n % 7));
        CustomEmojiRecord {
            id: ids.next_at(T0 + n as i64),
            shortcode: format!("emoji_{}", n / 2),
            domain,
            uri: None,
            image_url: format!("https://files.example/{n}/{version}.png"),
            static_url: format!("https://files.example/{n}/{version}-static.png"),
            visible_in_picker: n.is_multiple_of(2),
            category: Some(version.to_string()),
            disabled: false,
            updated_at: at(T0 + n as i64),
        }
    };
    let mut first: Vec<CustomEmojiRecord> = (0..1_200).map(|n| emoji(n, "v1")).collect();
    // Ten keys twice in the batch: the first id, the last fields.
    let repeats: Vec<CustomEmojiRecord> = first[..10]
        .iter()
        .map(|e| CustomEmojiRecord {
            id: ids.next_at(T0 + 10_000),
            category: Some("repeat".into()),
            ..e.clone()
        })
        .collect();
    first.extend(repeats);
    store.save_custom_emojis(&first).await.expect("save");
    let second: Vec<CustomEmojiRecord> = (0..1_200)
        .map(|n| CustomEmojiRecord {
            id: ids.next_at(T0 + 20_000),
            ..emoji(n, "v2")
        })
        .collect();
    store.save_custom_emojis(&second).await.expect("save again");

    let mut keys: Vec<(String, Option<String>)> = second
        .iter()
        .map(|e| (e.shortcode.clone(), e.domain.clone()))
        .collect();
    keys.extend(keys[..50].to_vec());
    keys.extend((0..50).map(|n| (format!("unknown_{n}"), None)));
    let mut found = store.custom_emojis_by_keys(&keys).await.expect("by keys");
    found.sort_by_key(|e| e.id);
    let mut expected: Vec<CustomEmojiRecord> = second
        .iter()
        .zip(&first)
        .map(|(e, f)| CustomEmojiRecord {
            id: f.id,
            ..e.clone()
        })
        .collect();
    expected.sort_by_key(|e| e.id);
    assert_eq!(found.len(), expected.len(), "every emoji once");
    assert_eq!(found, expected, "as last saved, with the first id");
}

#[tokio::test]
async fn sqlite_custom_emojis_in_many_statements() {
    let store = fresh_sqlite().await;
    custom_emojis_in_many_statements(Arc::new(store.clone())).await;
}

/// [`custom_emojis_in_many_statements`] on PostgreSQL, where an upsert may not touch a row
/// twice. Runs only when `FEDBLOG_TEST_DATABASE_URL` is a `postgres://` URL.
#[tokio::test]
async fn postgres_custom_emojis_in_many_statements() {
    let Some(base) = postgres_url("postgres_custom_emojis_in_many_statements") else {
        return;
    };
    let schema = "fedblog_custom_emojis";
    let store = fresh_postgres_schema(&base, schema).await;
    custom_emojis_in_many_statements(Arc::new(store)).await;
    drop_schema(&base, schema).await;
}
