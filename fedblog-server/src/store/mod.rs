//! `SeaStore`: fedblog-core's store traits on sea-orm, for SQLite (default) and PostgreSQL.
//!
//! The store traits run portable SQL built with sea-query, with three exceptions written per
//! engine: claiming jobs (`jobs.rs`, `SeaStore::claim_rows`) needs row locks on PostgreSQL
//! (`FOR UPDATE SKIP LOCKED`), which SQLite lacks; full-text search of statuses (`search.rs`)
//! uses SQLite's FTS5 and PostgreSQL's `tsvector`; account search by name (`directory.rs`) uses
//! an FTS5 trigram index and `pg_trgm`. Engine-specific settings live only in [`connect`]
//! (SQLite pragmas, PostgreSQL statement timeout).

pub mod admin;
pub mod changes;
pub mod entity;
pub mod migration;
pub mod pg_events;
pub use rate_limits::DbRateLimiter;

mod accounts;
mod announcements;
mod blocks;
mod cards;
mod conversations;
mod crypto;
mod directory;
mod domain_blocks;
mod federation;
mod feeds;
mod filters;
mod follows;
mod interactions;
mod jobs;
mod links;
mod lists;
mod mail_tokens;
mod markers;
mod media;
mod moderation;
mod nodes;
mod notes;
mod notification_policies;
mod notifications;
mod oauth;
mod paging;
mod pairs;
mod polls;
mod quotes;
mod rate_limits;
mod scheduled_statuses;
mod search;
mod stats;
mod status_edits;
mod statuses;
mod tags;
mod trends;

use std::time::Duration;

use fedblog_core::StoreError;
use sea_orm::sqlx::sqlite::{SqliteJournalMode, SqliteSynchronous};
use sea_orm::{
    ConnectOptions, Database, DatabaseConnection, DatabaseTransaction, DbBackend, DbErr, SqlErr,
    SqliteTransactionMode, TransactionOptions, TransactionTrait,
};
use sea_orm_migration::MigratorTrait;

/// How to open the connection pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectSettings {
    /// Upper bound of the pool (ignored for `sqlite::memory:`, which always uses one connection).
    pub max_connections: u32,
    /// PostgreSQL `statement_timeout`, in seconds (SQLite has none).
    pub statement_timeout_secs: Option<u64>,
}

impl Default for ConnectSettings {
    fn default() -> Self {
        ConnectSettings {
            max_connections: 10,
            statement_timeout_secs: None,
        }
    }
}

/// The sea-orm store. Cheap to clone: clones share one connection pool.
#[derive(Clone)]
pub struct SeaStore {
    db: DatabaseConnection,
    /// The database file, for SQLite on disk.
    sqlite_file: Option<std::path::PathBuf>,
}

impl std::fmt::Debug for SeaStore {
    /// Names the backend only: nothing of the connection settings (credentials) is printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SeaStore")
            .field("backend", &self.backend_name())
            .finish()
    }
}

/// Ids per `IN (...)` list: well under SQLite's (32766) and PostgreSQL's (65535) bind-parameter limits.
const IN_CHUNK: usize = 500;

/// How long a SQLite connection waits for another writer before failing with "database is locked".
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Opens a pool on `url` (`sqlite://path?mode=rwc`, `sqlite::memory:`, `postgres://...`).
/// Does not migrate: call [`SeaStore::migrate`].
pub async fn connect(url: &str, opts: &ConnectSettings) -> Result<SeaStore, StoreError> {
    let mut co = ConnectOptions::new(url.to_string());
    // Every statement is logged at debug level under `sqlx::query` (`FEDBLOG_LOG=
    // info,sqlx::query=debug` shows them); a disabled level costs a level check per statement.
    co.max_connections(opts.max_connections.max(1))
        .sqlx_logging(true)
        .sqlx_logging_level(log::LevelFilter::Debug);
    if url.starts_with("sqlite:") {
        // Engine-specific: SQLite pragmas applied on every new connection.
        co.map_sqlx_sqlite_opts(|o| {
            o.journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .foreign_keys(true)
                .busy_timeout(SQLITE_BUSY_TIMEOUT)
                // Reads go through a memory map of the file (up to 256 MiB of it): pages come
                // from the OS page cache, shared by every connection, without a `read` call and
                // a copy into each connection's cache. It takes address space, not memory.
                .pragma("mmap_size", "268435456")
                // Each connection's page cache: 8 MiB rather than the default 2 MB, which is
                // smaller than the indexes one account search reads at 100,000 accounts (the
                // rank walk's, the name and trigram indexes), so that a search found them evicted
                // by the last one. 8 MiB times the pool's connections (10 by default) at most.
                // A negative size is in KiB.
                .pragma("cache_size", "-8192")
        })
        .map_sqlx_sqlite_pool_opts(|o| {
            o.after_connect(|conn, _| Box::pin(async move { stable_query_plans(conn).await }))
        })
        .test_before_acquire(false);
        if is_sqlite_memory(url) {
            // Each connection to `sqlite::memory:` would otherwise see its own (or a shared-cache)
            // database; one connection that never expires keeps a single database alive.
            co.max_connections(1)
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None);
        }
    } else if let Some(secs) = opts.statement_timeout_secs {
        // Engine-specific: only PostgreSQL has a server-side statement timeout.
        co.statement_timeout(Duration::from_secs(secs));
    }
    let db = Database::connect(co).await.map_err(|e| {
        // Connection errors may echo the URL; never let a password through.
        StoreError::Backend(e.to_string().replace(url, &redact_url(url)))
    })?;
    tracing::debug!(backend = backend_of(&db), url = %redact_url(url), "store connected");
    Ok(SeaStore {
        db,
        sqlite_file: sqlite_file(url),
    })
}

/// Turns on SQLite's query planner stability guarantee for a new connection, so that a plan never
/// depends on the values bound to a statement.
///
/// Without it SQLite marks a statement that binds its `LIMIT` (every sea-orm `one()` and every
/// page), a `LIKE` pattern or a value compared with a partial index's condition as dependent on
/// that binding, and prepares it again from its SQL on every execution: a tenth of the server's
/// CPU under a home-timeline load went to re-preparing statements sqlx had cached. The plans
/// those bindings could improve are not ones fedblog needs: pages walk an index in order, the
/// public timelines' partial indexes are matched by literals, and account search scans anyway.
async fn stable_query_plans(
    conn: &mut sea_orm::sqlx::SqliteConnection,
) -> Result<(), sea_orm::sqlx::Error> {
    use libsqlite3_sys::{SQLITE_DBCONFIG_ENABLE_QPSG, SQLITE_OK, sqlite3_db_config};
    let mut handle = conn.lock_handle().await?;
    let db = handle.as_raw_handle().as_ptr();
    let mut now_on: std::ffi::c_int = 0;
    // SAFETY: `db` is this connection's open handle, locked away from sqlx's worker thread
    // while `handle` lives; SQLITE_DBCONFIG_ENABLE_QPSG takes an int and an int pointer
    // (https://sqlite.org/c3ref/c_dbconfig_defensive.html), both valid for the call.
    let rc = unsafe {
        sqlite3_db_config(
            db,
            SQLITE_DBCONFIG_ENABLE_QPSG,
            1 as std::ffi::c_int,
            &mut now_on as *mut std::ffi::c_int,
        )
    };
    if rc != SQLITE_OK || now_on != 1 {
        return Err(sea_orm::sqlx::Error::Configuration(
            format!("SQLite refused SQLITE_DBCONFIG_ENABLE_QPSG (code {rc})").into(),
        ));
    }
    Ok(())
}

/// The database file of a `sqlite://PATH?...` (or `sqlite:PATH`) URL; `None` for memory
/// databases and other engines.
fn sqlite_file(url: &str) -> Option<std::path::PathBuf> {
    if is_sqlite_memory(url) {
        return None;
    }
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next().unwrap_or(rest);
    (!path.is_empty()).then(|| std::path::PathBuf::from(path))
}

/// The file whose modification time tells a server on a SQLite database that another process
/// (the admin CLI) wrote to it: `<database file>-changed`, beside the database.
fn change_marker_file(database: &std::path::Path) -> std::path::PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push("-changed");
    std::path::PathBuf::from(name)
}

/// How long a server trusts its last look at the change marker: it looks at most once per
/// interval rather than before every cached read (a `statx` each, a fortieth of its CPU under
/// a timeline load).
const MARKER_LOOK_INTERVAL: Duration = Duration::from_millis(1);

/// Tells the servers running on the SQLite database of `url` that this process wrote to it, so
/// that they forget the records they cached (see [`SeaStore::into_shared`]). The admin CLI calls
/// it after every command that writes. On PostgreSQL the writes were logged as they were made
/// (see [`changes::PgChangeLog`]); this only waits.
///
/// Returns only after a server's next look at the marker (or the log) is due, so whatever asks
/// a server after the command returned is answered with the change.
pub fn mark_changed(url: &str) -> std::io::Result<()> {
    let Some(db) = sqlite_file(url) else {
        std::thread::sleep(MARKER_LOOK_INTERVAL * 3);
        return Ok(());
    };
    let marker = change_marker_file(&db);
    // Written anew, and its modification time set to the nanosecond (a file system stamps
    // writes with a coarser clock), so that it moves even when it exists already.
    let mut file = std::fs::File::create(&marker)?;
    std::io::Write::write_all(&mut file, chrono::Utc::now().to_rfc3339().as_bytes())?;
    file.set_modified(std::time::SystemTime::now())?;
    std::thread::sleep(MARKER_LOOK_INTERVAL * 3);
    Ok(())
}

/// The change marker's modification time, looked at no more than once per
/// [`MARKER_LOOK_INTERVAL`]. A look that began after a mark sees it, and [`mark_changed`] waits
/// past the interval, so an answer after the mark returned comes from a look made after it.
fn watch_change_marker(
    path: std::path::PathBuf,
) -> impl Fn() -> Option<std::time::SystemTime> + Send + Sync + 'static {
    type Look = Option<(std::time::Instant, Option<std::time::SystemTime>)>;
    let last: std::sync::Mutex<Look> = std::sync::Mutex::new(None);
    move || {
        let mut last = last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = std::time::Instant::now();
        match *last {
            Some((at, seen)) if now.duration_since(at) < MARKER_LOOK_INTERVAL => seen,
            _ => {
                let seen = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
                *last = Some((now, seen));
                seen
            }
        }
    }
}

fn is_sqlite_memory(url: &str) -> bool {
    url.contains(":memory:") || url.contains("mode=memory")
}

/// `scheme://user:secret@host/...` with the secret replaced by `***`.
fn redact_url(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else {
        return url.to_string();
    };
    let rest = &url[scheme_end + 3..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    match (authority.rfind('@'), authority.find(':')) {
        (Some(at), Some(colon)) if colon < at => {
            format!(
                "{}{}:***{}",
                &url[..scheme_end + 3],
                &authority[..colon],
                &rest[at..]
            )
        }
        _ => url.to_string(),
    }
}

fn backend_of(db: &DatabaseConnection) -> &'static str {
    match db.get_database_backend() {
        DbBackend::Postgres => "postgres",
        DbBackend::Sqlite => "sqlite",
        _ => "other",
    }
}

impl SeaStore {
    /// Applies every pending migration. Idempotent.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        migration::Migrator::up(&self.db, None)
            .await
            .map_err(backend_err)
    }

    /// The store as the server uses it, behind a
    /// [`CachedStore`](fedblog_core::store::cached::CachedStore) keeping the records read on
    /// almost every request in memory. On SQLite, which one server process owns, the admin CLI
    /// writing beside it calls [`mark_changed`] afterwards, and the server, which watches that
    /// marker, forgets what it cached. On PostgreSQL, which several processes may share, they
    /// tell each other through the database's change log (see [`changes::PgChangeLog`]).
    pub fn into_shared(self) -> std::sync::Arc<dyn fedblog_core::Store> {
        self.into_cached().0
    }

    /// [`SeaStore::into_shared`], with the change log its cache shares with other processes
    /// (PostgreSQL only): give it to the app (`App::with_change_log`), so that a request that
    /// wrote is answered only once every process will see its writes.
    pub fn into_cached(
        self,
    ) -> (
        std::sync::Arc<dyn fedblog_core::Store>,
        Option<std::sync::Arc<dyn fedblog_core::store::cached::ChangeLog>>,
    ) {
        use fedblog_core::store::cached::{CacheLimits, CachedStore, ChangeLog};
        let marker = self.sqlite_file.as_deref().map(change_marker_file);
        let log: Option<std::sync::Arc<dyn ChangeLog>> = match self.backend_name() {
            "postgres" => Some(std::sync::Arc::new(changes::PgChangeLog::new(
                self.db.clone(),
            ))),
            _ => None,
        };
        let store: std::sync::Arc<dyn fedblog_core::Store> = std::sync::Arc::new(self);
        let mut cached = CachedStore::new(store, CacheLimits::default());
        if let Some(path) = marker {
            cached = cached.with_change_marker(watch_change_marker(path));
        }
        if let Some(log) = &log {
            cached = cached.with_change_log(log.clone());
        }
        (std::sync::Arc::new(cached), log)
    }

    /// `"sqlite"` or `"postgres"`.
    pub fn backend_name(&self) -> &'static str {
        backend_of(&self.db)
    }

    /// The underlying pool (for health checks and admin tasks).
    pub fn connection(&self) -> &DatabaseConnection {
        &self.db
    }

    /// Starts a read-write transaction. On SQLite it is `BEGIN IMMEDIATE`: taking the write lock
    /// up front means a transaction that reads before it writes cannot fail with `SQLITE_BUSY`
    /// when another connection wrote in between (PostgreSQL ignores the option).
    async fn begin_write(&self) -> Result<DatabaseTransaction, StoreError> {
        self.db
            .begin_with_options(TransactionOptions {
                sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
                ..Default::default()
            })
            .await
            .map_err(backend_err)
    }
}

/// Commits `tx` if `result` is `Ok`, rolls it back otherwise.
///
/// Callers must not touch `self.db` while a transaction is open: with `sqlite::memory:` the pool
/// has a single connection, which the transaction holds.
async fn finish<T>(
    tx: DatabaseTransaction,
    result: Result<T, StoreError>,
) -> Result<T, StoreError> {
    match result {
        Ok(v) => {
            tx.commit().await.map_err(backend_err)?;
            Ok(v)
        }
        Err(e) => {
            if let Err(rb) = tx.rollback().await {
                tracing::warn!(error = %rb, "store rollback failed");
            }
            Err(e)
        }
    }
}

/// Translates a backend error: unique violations (SQLite "UNIQUE constraint failed", PostgreSQL
/// SQLSTATE 23505) become `AlreadyExists` naming what was taken, everything else `Backend`.
pub(crate) fn backend_err(e: DbErr) -> StoreError {
    let msg = match e.sql_err() {
        Some(SqlErr::UniqueConstraintViolation(m)) => Some(m),
        _ => {
            let s = e.to_string();
            (s.contains("UNIQUE constraint failed") || s.contains("violates unique constraint"))
                .then_some(s)
        }
    };
    match msg {
        Some(m) => StoreError::AlreadyExists(unique_name(&m).to_string()),
        None => StoreError::Backend(e.to_string()),
    }
}

/// Unique constraints and the names the store contract gives them. SQLite reports the columns
/// (`UNIQUE constraint failed: users.email_lower`), PostgreSQL the constraint or index name
/// (`... violates unique constraint "ux_users_email"`), so each entry lists both.
const UNIQUE_NAMES: &[(&[&str], &str)] = &[
    // Before `accounts`: "list_accounts_pkey" holds "accounts_pkey".
    (
        &["list_accounts.list_id", "list_accounts_pkey"],
        "list_account",
    ),
    (&["lists.id", "lists_pkey"], "list"),
    (
        &["accounts.username_lower", "ux_accounts_username"],
        "username",
    ),
    (&["users.email_lower", "ux_users_email"], "email"),
    (
        &[
            "accounts.id",
            "accounts_pkey",
            "users.account_id",
            "users_pkey",
        ],
        "account",
    ),
    (
        &[
            "apps.client_id",
            "ux_apps_client_id",
            "apps.id",
            "apps_pkey",
        ],
        "client_id",
    ),
    (&["authorizations.code_hash", "authorizations_pkey"], "code"),
    (&["tokens.token_hash", "tokens_pkey"], "token"),
    // A second reblog of one status by one account (SQLite names both columns).
    (
        &["statuses.reblog_of_id", "ux_statuses_account_reblog"],
        "reblog",
    ),
    // Before `statuses`: "filter_statuses.id" and "filter_statuses_pkey" hold its needles.
    (
        &[
            "filter_statuses.id",
            "filter_statuses_pkey",
            "filter_statuses.filter_id",
            "ux_filter_statuses_filter_status",
        ],
        "filter_status",
    ),
    (
        &["filter_keywords.id", "filter_keywords_pkey"],
        "filter_keyword",
    ),
    (&["filters.id", "filters_pkey"], "filter"),
    (
        &[
            "conversations.account_id",
            "ux_conversations_account_thread_participants",
            "conversations.id",
            "conversations_pkey",
        ],
        "conversation",
    ),
    // Before `statuses`: its needles are substrings of these.
    (
        &["scheduled_statuses.id", "scheduled_statuses_pkey"],
        "scheduled_status",
    ),
    (&["statuses.id", "statuses_pkey"], "status"),
    (
        &[
            "notification_requests.account_id",
            "ux_notification_requests_account_from",
            "notification_requests.id",
            "notification_requests_pkey",
        ],
        "notification_request",
    ),
    (&["notifications.id", "notifications_pkey"], "notification"),
    (&["jobs.id", "jobs_pkey"], "job"),
    (
        &["list_accounts.list_id", "list_accounts_pkey"],
        "list_account",
    ),
    (&["lists.id", "lists_pkey"], "list"),
    (&["media_attachments.id", "media_attachments_pkey"], "media"),
];

fn unique_name(message: &str) -> &str {
    UNIQUE_NAMES
        .iter()
        .find(|(needles, _)| needles.iter().any(|n| message.contains(n)))
        .map(|(_, name)| *name)
        .unwrap_or(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_passwords() {
        assert_eq!(
            redact_url("postgres://u:pw@h:5432/db"),
            "postgres://u:***@h:5432/db"
        );
        assert_eq!(redact_url("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact_url("sqlite::memory:"), "sqlite::memory:");
        assert_eq!(
            redact_url("sqlite:///tmp/x.db?mode=rwc"),
            "sqlite:///tmp/x.db?mode=rwc"
        );
    }

    /// Every pooled SQLite connection plans without looking at bound values (see
    /// `stable_query_plans`), so sqlx's cached statements are not prepared again on each use.
    #[tokio::test]
    async fn sqlite_connections_keep_their_plans() {
        use libsqlite3_sys::{SQLITE_DBCONFIG_ENABLE_QPSG, sqlite3_db_config};
        let dir = std::env::temp_dir().join(format!("fedblog-qpsg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let url = format!("sqlite://{}?mode=rwc", dir.join("t.sqlite").display());
        let settings = ConnectSettings {
            max_connections: 2,
            ..ConnectSettings::default()
        };
        let store = connect(&url, &settings).await.expect("connect");
        let pool = store.db.get_sqlite_connection_pool();
        // Two connections at once: the setting is not a property of the first one only.
        let mut held = vec![];
        for _ in 0..2 {
            let mut conn = pool.acquire().await.expect("acquire");
            let mut handle = conn.lock_handle().await.expect("handle");
            let mut on: std::ffi::c_int = -1;
            // SAFETY: as in `stable_query_plans`; -1 asks for the setting without changing it.
            let rc = unsafe {
                sqlite3_db_config(
                    handle.as_raw_handle().as_ptr(),
                    SQLITE_DBCONFIG_ENABLE_QPSG,
                    -1 as std::ffi::c_int,
                    &mut on as *mut std::ffi::c_int,
                )
            };
            assert_eq!((rc, on), (0, 1));
            drop(handle);
            held.push(conn);
        }
        drop(held);
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A server that looked at the marker just before the admin CLI wrote sees the change as
    /// soon as the CLI's `mark_changed` has returned.
    #[test]
    fn a_returned_mark_is_seen_by_the_next_look() {
        let dir = std::env::temp_dir().join(format!("fedblog-marker-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let db = dir.join("t.sqlite");
        let url = format!("sqlite://{}?mode=rwc", db.display());
        let look = watch_change_marker(change_marker_file(&db));
        assert_eq!(look(), None, "no marker yet");
        for _ in 0..3 {
            let before = look();
            mark_changed(&url).expect("mark");
            let after = look();
            assert!(
                after.is_some() && after != before,
                "{before:?} then {after:?}"
            );
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn names_unique_violations() {
        assert_eq!(
            unique_name("UNIQUE constraint failed: accounts.username_lower, accounts.domain_key"),
            "username"
        );
        assert_eq!(
            unique_name("duplicate key value violates unique constraint \"ux_users_email\""),
            "email"
        );
        assert_eq!(
            unique_name("UNIQUE constraint failed: statuses.id"),
            "status"
        );
        assert_eq!(
            unique_name("duplicate key value violates unique constraint \"tokens_pkey\""),
            "token"
        );
        assert_eq!(
            unique_name("UNIQUE constraint failed: scheduled_statuses.id"),
            "scheduled_status"
        );
        assert_eq!(
            unique_name(
                "duplicate key value violates unique constraint \"scheduled_statuses_pkey\""
            ),
            "scheduled_status"
        );
        assert_eq!(unique_name("UNIQUE constraint failed: jobs.id"), "job");
        assert_eq!(
            unique_name("UNIQUE constraint failed: media_attachments.id"),
            "media"
        );
        assert_eq!(
            unique_name(
                "duplicate key value violates unique constraint \"media_attachments_pkey\""
            ),
            "media"
        );
        assert_eq!(
            unique_name("UNIQUE constraint failed: statuses.account_id, statuses.reblog_of_id"),
            "reblog"
        );
        assert_eq!(
            unique_name(
                "duplicate key value violates unique constraint \"ux_statuses_account_reblog\""
            ),
            "reblog"
        );
    }
}
