//! `PgEventBus`: the event bus shared by every fedblog-server process on one PostgreSQL
//! database, over `LISTEN`/`NOTIFY`.
//!
//! [`EventBus::publish`] sends `SELECT pg_notify(channel, json)`; each bus holds one dedicated
//! `LISTEN` connection whose background task decodes the notifications and hands them to an
//! [`InProcessBus`], from which its local subscriptions read. An event published here therefore
//! reaches local subscribers through the database round-trip too, exactly once, and every process
//! sees the events of the channel in the same (commit) order.
//!
//! Limits: PostgreSQL refuses `NOTIFY` payloads of [`MAX_NOTIFY_PAYLOAD_BYTES`] + 1 (8000) bytes
//! or more, so an event whose JSON encoding is that large goes by reference: `publish` stores it
//! in `fedblog_large_events` (migration m0020) and notifies `{"ref": id}`, and each listener
//! reads it from there (rows older than [`LARGE_EVENT_KEPT`] are removed as new ones come). On
//! a database without that table, publishing a large event fails. Notifications are not persisted:
//! while the `LISTEN` connection is down (it is re-established automatically, with back-off),
//! events published elsewhere are not delivered to this process.

use std::fmt;
use std::time::Duration;

use async_trait::async_trait;
use fedblog_core::events::{Event, EventBus, InProcessBus, Subscription};
use sea_orm::sqlx;
use sea_orm::sqlx::postgres::{PgListener, PgPool, PgPoolOptions};
use tokio::task::JoinHandle;

/// The `NOTIFY` channel [`PgEventBus::connect`] uses.
pub const CHANNEL: &str = "fedblog_events";

/// The largest JSON-encoded event, in bytes, that PostgreSQL accepts as a `NOTIFY` payload
/// (payloads must be shorter than 8000 bytes).
pub const MAX_NOTIFY_PAYLOAD_BYTES: usize = 7999;

/// How long an event sent by reference is kept for the listeners to read.
pub const LARGE_EVENT_KEPT: Duration = Duration::from_secs(300);

/// A notification's payload: an event, or the row of one too large to be sent itself.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
enum Wire {
    /// The row id in `fedblog_large_events`.
    Ref {
        #[serde(rename = "ref")]
        id: i64,
    },
    Event(Event),
}

/// Connections of the pool `publish` uses.
const PUBLISH_CONNECTIONS: u32 = 4;
/// How long `publish` waits for a pooled connection before failing.
const PUBLISH_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);
/// First and longest wait between attempts to re-establish a failed `LISTEN` connection.
const RECONNECT_DELAY_MIN: Duration = Duration::from_millis(100);
const RECONNECT_DELAY_MAX: Duration = Duration::from_secs(10);

/// An [`EventBus`] over PostgreSQL `LISTEN`/`NOTIFY`, shared by every process that connects to
/// the same database and channel.
///
/// Dropping it stops its listener task; its subscriptions then return the events they have not
/// read yet and end.
pub struct PgEventBus {
    /// Connections for `pg_notify`.
    pool: PgPool,
    /// Where the listener task delivers notifications; subscriptions read from it.
    local: InProcessBus,
    channel: String,
    listener: JoinHandle<()>,
}

impl PgEventBus {
    /// Connects to the PostgreSQL database at `url` on the channel [`CHANNEL`]. Must be called
    /// within a tokio runtime: it spawns the listener task. Once it returns, the bus is
    /// listening: events published afterwards by any process reach its subscriptions.
    pub async fn connect(url: &str) -> Result<PgEventBus, String> {
        PgEventBus::connect_on_channel(url, CHANNEL).await
    }

    /// Like [`PgEventBus::connect`], on another channel (1 to 63 ASCII letters, digits or
    /// underscores): buses on different channels do not see each other's events.
    pub async fn connect_on_channel(url: &str, channel: &str) -> Result<PgEventBus, String> {
        let valid = !channel.is_empty()
            && channel.len() <= 63
            && channel
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if !valid {
            return Err(format!(
                "invalid event bus channel {channel:?}: use 1 to 63 ASCII letters, digits or underscores"
            ));
        }
        let pool = PgPoolOptions::new()
            .max_connections(PUBLISH_CONNECTIONS)
            .acquire_timeout(PUBLISH_ACQUIRE_TIMEOUT)
            .connect(url)
            .await
            .map_err(|e| format!("event bus: cannot connect to PostgreSQL: {e}"))?;
        let listener = listen(url, channel)
            .await
            .map_err(|e| format!("event bus: cannot LISTEN on {channel:?}: {e}"))?;
        let local = InProcessBus::new();
        let task = tokio::spawn(forward(
            listener,
            pool.clone(),
            url.to_owned(),
            channel.to_owned(),
            local.clone(),
        ));
        Ok(PgEventBus {
            pool,
            local,
            channel: channel.to_owned(),
            listener: task,
        })
    }

    /// Keeps an event too large for a `NOTIFY` in `fedblog_large_events`, removing those older
    /// than [`LARGE_EVENT_KEPT`]; the payload that refers to it.
    async fn store_large(&self, encoded: &str) -> Result<String, String> {
        let fail = |e: sqlx::Error| format!("event bus: cannot keep a large event: {e}");
        sqlx::query(
            "DELETE FROM fedblog_large_events WHERE created_at < now() - make_interval(secs => $1)",
        )
        .bind(LARGE_EVENT_KEPT.as_secs_f64())
        .execute(&self.pool)
        .await
        .map_err(fail)?;
        let id: i64 =
            sqlx::query_scalar("INSERT INTO fedblog_large_events (event) VALUES ($1) RETURNING id")
                .bind(encoded)
                .fetch_one(&self.pool)
                .await
                .map_err(fail)?;
        serde_json::to_string(&Wire::Ref { id }).map_err(|e| e.to_string())
    }

    /// The `NOTIFY` channel of this bus.
    pub fn channel(&self) -> &str {
        &self.channel
    }
}

impl Drop for PgEventBus {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

impl fmt::Debug for PgEventBus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PgEventBus")
            .field("channel", &self.channel)
            .field("local", &self.local)
            .finish_non_exhaustive()
    }
}

#[async_trait]
impl EventBus for PgEventBus {
    /// Sends the event as a `NOTIFY`; it reaches this process's subscriptions through the
    /// database like everyone else's. An event whose JSON encoding is larger than
    /// [`MAX_NOTIFY_PAYLOAD_BYTES`] goes by reference (see the module's documentation).
    async fn publish(&self, event: Event) -> Result<(), String> {
        let encoded =
            serde_json::to_string(&event).map_err(|e| format!("cannot encode event: {e}"))?;
        let payload = if encoded.len() > MAX_NOTIFY_PAYLOAD_BYTES {
            self.store_large(&encoded).await?
        } else {
            encoded
        };
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(&self.channel)
            .bind(payload)
            .execute(&self.pool)
            .await
            .map_err(|e| format!("event bus: NOTIFY failed: {e}"))?;
        Ok(())
    }

    fn subscribe(&self) -> Subscription {
        self.local.subscribe()
    }
}

/// The event a notification carries, read from `fedblog_large_events` when it came by
/// reference.
async fn decode(payload: &str, pool: &PgPool) -> Result<Event, String> {
    match serde_json::from_str::<Wire>(payload).map_err(|e| e.to_string())? {
        Wire::Event(event) => Ok(event),
        Wire::Ref { id } => {
            let encoded: Option<String> =
                sqlx::query_scalar("SELECT event FROM fedblog_large_events WHERE id = $1")
                    .bind(id)
                    .fetch_optional(pool)
                    .await
                    .map_err(|e| format!("cannot read large event {id}: {e}"))?;
            let encoded = encoded.ok_or_else(|| format!("large event {id} is gone"))?;
            serde_json::from_str(&encoded).map_err(|e| e.to_string())
        }
    }
}

/// A new `LISTEN` connection on `channel`.
async fn listen(url: &str, channel: &str) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect(url).await?;
    listener.listen(channel).await?;
    Ok(listener)
}

/// The listener task: delivers every notification of `channel` to `local`, forever, surviving
/// connection loss and errors.
async fn forward(
    mut listener: PgListener,
    pool: PgPool,
    url: String,
    channel: String,
    local: InProcessBus,
) {
    loop {
        match listener.try_recv().await {
            Ok(Some(notification)) => {
                if notification.channel() != channel {
                    continue;
                }
                match decode(notification.payload(), &pool).await {
                    Ok(event) => local.broadcast(event),
                    Err(error) => tracing::warn!(
                        channel = %channel,
                        %error,
                        "event bus: ignoring a notification that is not an event"
                    ),
                }
            }
            // PgListener noticed the connection was lost and has re-established it.
            Ok(None) => tracing::warn!(
                channel = %channel,
                "event bus: the LISTEN connection was lost and re-established; \
                 events published meanwhile were not delivered to this process"
            ),
            Err(error) => {
                tracing::warn!(
                    channel = %channel,
                    %error,
                    "event bus: the LISTEN connection failed; reconnecting"
                );
                // Start over with a fresh connection rather than trust the failed one.
                drop(listener);
                listener = relisten(&url, &channel).await;
                tracing::info!(
                    channel = %channel,
                    "event bus: listening again; events published meanwhile were not delivered \
                     to this process"
                );
            }
        }
    }
}

/// A new `LISTEN` connection, retrying with exponential back-off until one is established.
async fn relisten(url: &str, channel: &str) -> PgListener {
    let mut delay = RECONNECT_DELAY_MIN;
    loop {
        tokio::time::sleep(delay).await;
        match listen(url, channel).await {
            Ok(listener) => return listener,
            Err(error) => {
                delay = (delay * 2).min(RECONNECT_DELAY_MAX);
                tracing::warn!(
                    channel = %channel,
                    %error,
                    retry_in = ?delay,
                    "event bus: cannot LISTEN; retrying"
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;
    use std::time::{SystemTime, UNIX_EPOCH};

    use sea_orm::sqlx::AssertSqlSafe;
    use sea_orm::sqlx::ConnectOptions;
    use sea_orm::sqlx::postgres::PgConnectOptions;

    use super::*;

    fn database_url() -> Option<String> {
        let url = std::env::var("FEDBLOG_TEST_DATABASE_URL").ok();
        if url.is_none() {
            println!("pg_events test did not run: set FEDBLOG_TEST_DATABASE_URL");
        }
        url
    }

    fn run_id() -> String {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        format!("{}_{nanos}", std::process::id())
    }

    async fn recv(sub: &mut Subscription, within: Duration) -> Option<Event> {
        tokio::time::timeout(within, sub.recv())
            .await
            .ok()
            .flatten()
    }

    #[tokio::test]
    async fn invalid_channels_are_refused_before_connecting() {
        for channel in ["", "semi;colon", "quo\"te", &"x".repeat(64)] {
            let err = PgEventBus::connect_on_channel("postgres://nowhere.invalid/db", channel)
                .await
                .expect_err("invalid channel");
            assert!(err.contains("invalid event bus channel"), "{err}");
        }
    }

    #[tokio::test]
    async fn the_listener_survives_a_terminated_connection() {
        let Some(url) = database_url() else {
            return;
        };
        // Show the listener's reconnection messages in the test output.
        let _ = tracing_subscriber::fmt().with_test_writer().try_init();
        let run = run_id();
        let channel = format!("fedblog_test_{run}");
        let bus = PgEventBus::connect_on_channel(&url, &channel)
            .await
            .expect("connect");
        let mut sub = bus.subscribe();
        bus.publish(Event::new("test", "update", "before"))
            .await
            .expect("publish");
        assert_eq!(
            recv(&mut sub, Duration::from_secs(10)).await,
            Some(Event::new("test", "update", "before"))
        );

        // Kill the LISTEN connection from the server side, as a restart or a proxy would.
        let killed: i64 = sqlx::query_scalar(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
             WHERE pid <> pg_backend_pid() AND query LIKE $1",
        )
        .bind(format!("%LISTEN%{channel}%"))
        .fetch_one(&bus.pool)
        .await
        .expect("terminate the listener");
        assert_eq!(
            killed, 1,
            "exactly one LISTEN connection on the test channel"
        );

        // Events published while the listener is down may be lost; keep probing until one
        // arrives, then the bus must be back to normal.
        let mut probe = 0;
        loop {
            probe += 1;
            assert!(probe <= 100, "the listener did not come back within 20 s");
            bus.publish(Event::new("probe", "update", probe.to_string()))
                .await
                .expect("publish a probe");
            if recv(&mut sub, Duration::from_millis(200)).await.is_some() {
                break;
            }
        }
        for n in 0..5 {
            bus.publish(Event::new("test", "update", format!("after {n}")))
                .await
                .expect("publish");
        }
        let mut after = Vec::new();
        while after.len() < 5 {
            let event = recv(&mut sub, Duration::from_secs(10))
                .await
                .expect("an event after reconnecting");
            if event.stream == "test" {
                after.push(event.payload);
            }
        }
        assert_eq!(
            after,
            (0..5).map(|n| format!("after {n}")).collect::<Vec<_>>()
        );
    }

    /// Publishes a probe every 200 ms until one reaches `sub` (probes sent while the listener is
    /// down are lost); fails after 20 s.
    async fn probe_until_delivered(bus: &PgEventBus, sub: &mut Subscription) {
        for probe in 0..100 {
            bus.publish(Event::new("probe", "update", probe.to_string()))
                .await
                .expect("publish a probe");
            if recv(sub, Duration::from_millis(200)).await.is_some() {
                return;
            }
        }
        panic!("the listener did not come back within 20 s");
    }

    #[tokio::test]
    async fn the_listener_task_survives_failing_reconnects() {
        let Some(url) = database_url() else {
            return;
        };
        let _ = tracing_subscriber::fmt().with_test_writer().try_init();
        let run = run_id();
        let role = format!("fedblog_evtest_{run}");
        let channel = format!("fedblog_test_{run}");
        let admin = PgPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .expect("connect");
        let created = sqlx::query(AssertSqlSafe(format!(
            "CREATE ROLE {role} LOGIN PASSWORD 'evtest'"
        )))
        .execute(&admin)
        .await;
        if let Err(error) = created {
            println!("pg_events reconnect test did not run: cannot create a role: {error}");
            return;
        }
        let role_url = PgConnectOptions::from_str(&url)
            .expect("parse the URL")
            .username(&role)
            .password("evtest")
            .to_url_lossy()
            .to_string();

        let body = {
            let admin = admin.clone();
            let role = role.clone();
            async move {
                let bus = PgEventBus::connect_on_channel(&role_url, &channel)
                    .await
                    .expect("connect");
                let mut sub = bus.subscribe();
                probe_until_delivered(&bus, &mut sub).await;

                // Kill the LISTEN connection and refuse new logins: reconnecting fails for a
                // while.
                let listeners = "SELECT count(*) FROM pg_stat_activity \
                                 WHERE usename = $1 AND query LIKE '%LISTEN%'";
                let kill = "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
                            WHERE usename = $1 AND query LIKE '%LISTEN%'";
                sqlx::query(AssertSqlSafe(format!("ALTER ROLE {role} NOLOGIN")))
                    .execute(&admin)
                    .await
                    .expect("NOLOGIN");
                let killed: i64 = sqlx::query_scalar(kill)
                    .bind(&role)
                    .fetch_one(&admin)
                    .await
                    .expect("terminate the listener");
                assert_eq!(killed, 1);
                tokio::time::sleep(Duration::from_millis(1500)).await;
                let listening: i64 = sqlx::query_scalar(listeners)
                    .bind(&role)
                    .fetch_one(&admin)
                    .await
                    .expect("count listeners");
                assert_eq!(listening, 0, "reconnecting fails while logins are refused");

                sqlx::query(AssertSqlSafe(format!("ALTER ROLE {role} LOGIN")))
                    .execute(&admin)
                    .await
                    .expect("LOGIN");
                probe_until_delivered(&bus, &mut sub).await;
            }
        };
        let outcome = tokio::spawn(body).await;

        let cleanup = [
            format!(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
                 WHERE usename = '{role}'"
            ),
            format!("DROP ROLE {role}"),
        ];
        for statement in cleanup {
            if let Err(error) = sqlx::query(AssertSqlSafe(statement)).execute(&admin).await {
                println!("pg_events reconnect test: cleanup failed: {error}");
            }
        }
        if let Err(error) = outcome {
            std::panic::resume_unwind(error.into_panic());
        }
    }
}
