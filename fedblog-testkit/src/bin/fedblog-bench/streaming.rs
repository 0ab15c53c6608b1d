//! The streaming benchmark: idle WebSocket connections held open (the server's RSS before and
//! after opening them), then the delivery latency of posts to followers listening on their user
//! streams and to `public:local` listeners, over WebSocket and server-sent events, from the
//! POST's answer to each receipt. Talks only the Mastodon streaming API.
//!
//! A connection task timestamps every frame as it arrives and recognises a benchmark post by a
//! marker in its text (a substring search, no JSON parsing), so the client does as little as
//! possible on the cores it shares with the server.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use fedblog_core::api::Endpoint;
use fedblog_core::api::streaming::stream_public_local::StreamPublicLocal;
use fedblog_core::api::streaming::stream_user::StreamUser;
use fedblog_core::api::streaming::stream_websocket::StreamWebSocket;
use futures_util::StreamExt;
use tokio::sync::{Semaphore, mpsc};
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::{HeaderValue, header};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::api::{self, Api};
use crate::cli::Streaming;
use crate::load;
use crate::pool;
use crate::report::{DeliveryFigures, IdleFigures, Latencies, StreamingFigures};
use crate::run;
use crate::tokens::Tokens;

/// Longest wait for one connection to open (the WebSocket handshake, or the SSE answer's head).
const OPEN_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest wait for one post to reach every connection.
const DELIVERY_TIMEOUT: Duration = Duration::from_secs(10);
/// Pause between two measured posts, so each starts on a quiet server.
const BETWEEN_POSTS: Duration = Duration::from_millis(200);
/// Pause after opening the idle connections before reading the server's RSS.
const SETTLE: Duration = Duration::from_secs(1);
/// How often opening many connections prints its progress.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);
/// File descriptors a process needs besides its streaming connections.
const FD_MARGIN: u64 = 256;
/// Streaming connections fedblog lets one token hold by default
/// (`FEDBLOG_STREAMING_CONNECTIONS_PER_TOKEN` raises it).
const FEDBLOG_CONNECTIONS_PER_TOKEN: usize = 32;
/// The bench's WebSocket read buffer (tungstenite allocates 128 KiB per socket by default).
const WS_READ_BUFFER: usize = 8 * 1024;

/// How a connection receives its stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// `GET /api/v1/streaming?stream=NAME` upgraded to a WebSocket.
    WebSocket,
    /// `GET /api/v1/streaming/NAME` as server-sent events.
    Sse,
}

/// The streams the benchmark listens to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stream {
    User,
    PublicLocal,
}

impl Stream {
    /// The WebSocket's `stream` parameter.
    fn name(self) -> &'static str {
        match self {
            Stream::User => "user",
            Stream::PublicLocal => "public:local",
        }
    }

    /// The server-sent events path.
    fn sse_path(self) -> &'static str {
        match self {
            Stream::User => StreamUser::PATH,
            Stream::PublicLocal => StreamPublicLocal::PATH,
        }
    }
}

/// What one connection listens to, and how.
#[derive(Clone)]
struct Target {
    transport: Transport,
    stream: Stream,
    token: Option<Arc<str>>,
}

/// Half the connections over WebSocket (the even ones), half over server-sent events.
fn transport_of(i: usize) -> Transport {
    if i.is_multiple_of(2) {
        Transport::WebSocket
    } else {
        Transport::Sse
    }
}

/// Where the streams are: the WebSocket URL's base and the HTTP client for the SSE requests.
struct Endpoints {
    ws_base: String,
    http_base: String,
    sse: reqwest::Client,
}

impl Endpoints {
    fn new(http_base: &str) -> Result<Endpoints, String> {
        let ws_base = websocket_base(http_base)?;
        // No overall timeout: an event stream is an answer that never ends.
        let sse = reqwest::Client::builder()
            .tcp_nodelay(true)
            .no_proxy()
            .connect_timeout(OPEN_TIMEOUT)
            .pool_max_idle_per_host(0)
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        Ok(Endpoints {
            ws_base,
            http_base: http_base.to_string(),
            sse,
        })
    }
}

/// `ws://host:port` for `http://host:port` (`wss://` for `https://`).
fn websocket_base(http_base: &str) -> Result<String, String> {
    if let Some(rest) = http_base.strip_prefix("http://") {
        Ok(format!("ws://{rest}"))
    } else if let Some(rest) = http_base.strip_prefix("https://") {
        Ok(format!("wss://{rest}"))
    } else {
        Err(format!("not an http(s) URL: {http_base}"))
    }
}

/// The number of the benchmark post whose marker (`PREFIX` then its number) `text` holds.
fn post_number(text: &str, prefix: &str) -> Option<usize> {
    let at = text.find(prefix)? + prefix.len();
    let digits: &str = &text[at..];
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    digits[..end].parse().ok()
}

/// Whether a WebSocket message is an `update` (`{"event":"update","payload":...,"stream":[...]}`).
fn websocket_update(text: &str) -> bool {
    text.contains("\"event\":\"update\"")
}

/// The event name of one server-sent event (`None` for a comment such as the heartbeat).
fn sse_event(frame: &str) -> Option<&str> {
    frame
        .lines()
        .find_map(|l| l.strip_prefix("event:"))
        .map(str::trim)
}

/// The end of the first complete server-sent event in `buf` (the index of its blank line).
fn sse_frame_end(buf: &[u8]) -> Option<usize> {
    buf.windows(2).position(|w| w == b"\n\n")
}

/// A benchmark post seen on a connection.
struct Delivery {
    conn: usize,
    post: usize,
    at: Instant,
}

/// What every connection task of a group shares.
struct Shared {
    endpoints: Arc<Endpoints>,
    open_slots: Arc<Semaphore>,
    opened: mpsc::UnboundedSender<(usize, Result<(), String>)>,
    deliveries: mpsc::UnboundedSender<Delivery>,
    prefix: Arc<str>,
    /// Connections whose stream ended (closed by the server, or broken) after opening.
    ended: Arc<AtomicUsize>,
    /// Messages that were not a benchmark post's `update` (heartbeats and pings not counted).
    stray: Arc<AtomicU64>,
}

impl Shared {
    /// Hands a message on: a benchmark post's `update` as a delivery, anything else counted.
    fn note(&self, conn: usize, at: Instant, is_update: bool, text: &str) {
        match post_number(text, &self.prefix).filter(|_| is_update) {
            Some(post) => {
                let _ = self.deliveries.send(Delivery { conn, post, at });
            }
            None => {
                self.stray.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

/// Opens a WebSocket for `target`.
async fn open_websocket(
    endpoints: &Endpoints,
    target: &Target,
) -> Result<
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    String,
> {
    let url = format!(
        "{}{}?stream={}",
        endpoints.ws_base,
        StreamWebSocket::PATH,
        target.stream.name()
    );
    let mut request = url
        .as_str()
        .into_client_request()
        .map_err(|e| format!("bad WebSocket request: {e}"))?;
    if let Some(token) = &target.token {
        let value = HeaderValue::from_str(&format!("Bearer {token}"))
            .map_err(|e| format!("bad token: {e}"))?;
        request.headers_mut().insert(header::AUTHORIZATION, value);
    }
    let config = WebSocketConfig::default()
        .read_buffer_size(WS_READ_BUFFER)
        .write_buffer_size(0);
    let (socket, _) = tokio_tungstenite::connect_async_with_config(request, Some(config), true)
        .await
        .map_err(|e| match e {
            tokio_tungstenite::tungstenite::Error::Http(resp) => {
                let body = resp
                    .body()
                    .as_deref()
                    .map(|b| api::excerpt(&String::from_utf8_lossy(b)))
                    .unwrap_or_default();
                format!("HTTP {}: {body}", resp.status())
            }
            e => format!("WebSocket: {e}"),
        })?;
    Ok(socket)
}

/// Opens an event stream for `target` (its answer's head).
async fn open_sse(endpoints: &Endpoints, target: &Target) -> Result<reqwest::Response, String> {
    let mut req = endpoints
        .sse
        .get(format!(
            "{}{}",
            endpoints.http_base,
            target.stream.sse_path()
        ))
        .header(reqwest::header::ACCEPT, "text/event-stream");
    if let Some(token) = &target.token {
        req = req.bearer_auth(token);
    }
    let resp = req.send().await.map_err(|e| format!("no answer: {e}"))?;
    let status = resp.status();
    if !status.is_success() {
        let body = tokio::time::timeout(Duration::from_secs(2), resp.text())
            .await
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        return Err(format!("HTTP {status}: {}", api::excerpt(&body)));
    }
    Ok(resp)
}

/// One connection: opens it (holding one of the open slots), says whether it opened, then
/// reads until the stream ends or the task is aborted.
async fn connection(conn: usize, target: Target, shared: Arc<Shared>) {
    let slot = shared.open_slots.clone().acquire_owned().await;
    let endpoints = shared.endpoints.clone();
    let opened = |r: Result<(), String>| {
        let _ = shared.opened.send((conn, r));
    };
    match target.transport {
        Transport::WebSocket => {
            let socket = tokio::time::timeout(OPEN_TIMEOUT, open_websocket(&endpoints, &target))
                .await
                .unwrap_or_else(|_| Err(format!("not open within {} s", OPEN_TIMEOUT.as_secs())));
            drop(slot);
            let mut socket = match socket {
                Ok(s) => {
                    opened(Ok(()));
                    s
                }
                Err(e) => return opened(Err(e)),
            };
            while let Some(frame) = socket.next().await {
                let at = Instant::now();
                match frame {
                    Ok(Message::Text(text)) => {
                        let text = text.as_str();
                        shared.note(conn, at, websocket_update(text), text);
                    }
                    Ok(Message::Close(_)) | Err(_) => break,
                    // Pings are answered by the library.
                    Ok(_) => {}
                }
            }
        }
        Transport::Sse => {
            let resp = tokio::time::timeout(OPEN_TIMEOUT, open_sse(&endpoints, &target))
                .await
                .unwrap_or_else(|_| Err(format!("not open within {} s", OPEN_TIMEOUT.as_secs())));
            drop(slot);
            let mut resp = match resp {
                Ok(r) => {
                    opened(Ok(()));
                    r
                }
                Err(e) => return opened(Err(e)),
            };
            let mut buf: Vec<u8> = Vec::new();
            while let Ok(Some(chunk)) = resp.chunk().await {
                let at = Instant::now();
                buf.extend_from_slice(&chunk);
                while let Some(end) = sse_frame_end(&buf) {
                    let frame = String::from_utf8_lossy(&buf[..end]);
                    // A frame without an event is a comment (the heartbeat).
                    if let Some(event) = sse_event(&frame) {
                        shared.note(conn, at, event == "update", &frame);
                    }
                    buf.drain(..end + 2);
                }
            }
        }
    }
    shared.ended.fetch_add(1, Ordering::Relaxed);
}

/// Connections opened together and read until the group is closed.
struct Group {
    tasks: JoinSet<()>,
    transports: Vec<Transport>,
    opened: Vec<bool>,
    failed: usize,
    first_error: Option<String>,
    open_secs: f64,
    ended: Arc<AtomicUsize>,
    stray: Arc<AtomicU64>,
    deliveries: mpsc::UnboundedReceiver<Delivery>,
}

impl Group {
    /// Opens a connection for each target, `at_once` at a time, printing `label`'s progress;
    /// connections that fail to open are counted, not fatal.
    async fn open(
        label: &str,
        endpoints: &Arc<Endpoints>,
        targets: Vec<Target>,
        at_once: usize,
        prefix: &Arc<str>,
    ) -> Group {
        let start = Instant::now();
        let count = targets.len();
        let (opened_tx, mut opened_rx) = mpsc::unbounded_channel();
        let (deliveries_tx, deliveries) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared {
            endpoints: endpoints.clone(),
            open_slots: Arc::new(Semaphore::new(at_once.max(1))),
            opened: opened_tx,
            deliveries: deliveries_tx,
            prefix: prefix.clone(),
            ended: Arc::new(AtomicUsize::new(0)),
            stray: Arc::new(AtomicU64::new(0)),
        });
        let transports = targets.iter().map(|t| t.transport).collect();
        let mut tasks = JoinSet::new();
        for (i, target) in targets.into_iter().enumerate() {
            tasks.spawn(connection(i, target, shared.clone()));
        }
        let (ended, stray) = (shared.ended.clone(), shared.stray.clone());
        // The tasks hold the only senders now: the channel ends if they all end.
        drop(shared);
        let mut opened = vec![false; count];
        let (mut answered, mut failed, mut first_error) = (0, 0, None);
        let mut ticker =
            tokio::time::interval_at(tokio::time::Instant::now() + PROGRESS_EVERY, PROGRESS_EVERY);
        while answered < count {
            tokio::select! {
                r = opened_rx.recv() => match r {
                    Some((i, Ok(()))) => {
                        opened[i] = true;
                        answered += 1;
                    }
                    Some((_, Err(e))) => {
                        failed += 1;
                        answered += 1;
                        first_error.get_or_insert(e);
                    }
                    None => break,
                },
                _ = ticker.tick() => println!(
                    "    {label}: {answered}/{count} answered after {:.0} s ({failed} failed)",
                    start.elapsed().as_secs_f64()
                ),
            }
        }
        // Tasks that ended without saying (a panic) count as failed.
        failed += count - answered;
        let open_secs = start.elapsed().as_secs_f64();
        let ok = opened.iter().filter(|o| **o).count();
        println!(
            "    {label}: {ok} of {count} open in {open_secs:.2} s ({:.0}/s), {failed} failed{}",
            count as f64 / open_secs.max(1e-9),
            first_error
                .as_ref()
                .map(|e| format!(" (first: {e})"))
                .unwrap_or_default()
        );
        Group {
            tasks,
            transports,
            opened,
            failed,
            first_error,
            open_secs,
            ended,
            stray,
            deliveries,
        }
    }

    fn open_count(&self) -> usize {
        self.opened.iter().filter(|o| **o).count()
    }

    fn open_over(&self, transport: Transport) -> usize {
        self.opened
            .iter()
            .zip(&self.transports)
            .filter(|(o, t)| **o && **t == transport)
            .count()
    }

    /// Messages that were not expected: strays, and any benchmark post seen here outside a
    /// measurement.
    fn stray_messages(&mut self) -> u64 {
        let mut n = self.stray.load(Ordering::Relaxed);
        while self.deliveries.try_recv().is_ok() {
            n += 1;
        }
        n
    }

    /// Closes every connection (aborting its task drops the socket).
    async fn close(mut self) {
        self.tasks.shutdown().await;
    }
}

/// Sorted latencies, in microseconds, summarised.
fn latencies(mut us: Vec<u64>) -> Latencies {
    us.sort_unstable();
    let ms = |p: f64| load::percentile(&us, p).map(|v| v as f64 / 1000.0);
    Latencies {
        count: us.len() as u64,
        p50_ms: ms(50.0),
        p95_ms: ms(95.0),
        p99_ms: ms(99.0),
        max_ms: us.last().map(|v| *v as f64 / 1000.0),
    }
}

/// `poster` posts `posts` times; each post is awaited on every open connection of `group`
/// (at most [`DELIVERY_TIMEOUT`]), its receipt timed from the POST's answer.
#[allow(clippy::too_many_arguments)]
async fn measure_deliveries(
    label: &str,
    audience: &str,
    api: &Api,
    poster: &str,
    group: &mut Group,
    posts: usize,
    prefix: &str,
    pid: Option<u32>,
) -> DeliveryFigures {
    let open = group.open_count();
    let (mut after_answer, mut since_sent) = (Vec::new(), Vec::new());
    let (mut over_ws, mut over_sse) = (Vec::new(), Vec::new());
    let (mut post_us, mut post_errors, mut first_post_error) = (Vec::new(), 0, None);
    let (mut delivered, mut late, mut before_answer) = (0u64, 0u64, 0u64);
    let cpu_before = pid.and_then(|p| run::cpu_secs(p).ok());
    let mut missing_note = None;
    for k in 1..=posts {
        let text = format!("Streaming benchmark post {k} of {posts} ({prefix}{k}x)");
        let sent = Instant::now();
        let posted = api.post_status(poster, &text).await;
        let answered = Instant::now();
        if let Err(e) = posted {
            post_errors += 1;
            first_post_error.get_or_insert(e);
            continue;
        }
        post_us.push(answered.duration_since(sent).as_micros() as u64);
        let mut seen = vec![false; group.opened.len()];
        let (mut got, mut last) = (0, None);
        let deadline = tokio::time::Instant::from_std(answered + DELIVERY_TIMEOUT);
        while got < open {
            let Ok(Some(d)) = tokio::time::timeout_at(deadline, group.deliveries.recv()).await
            else {
                break;
            };
            if d.post != k {
                late += 1;
                continue;
            }
            if std::mem::replace(&mut seen[d.conn], true) {
                continue;
            }
            got += 1;
            if d.at < answered {
                before_answer += 1;
            }
            let after = d.at.saturating_duration_since(answered).as_micros() as u64;
            after_answer.push(after);
            since_sent.push(d.at.duration_since(sent).as_micros() as u64);
            match group.transports[d.conn] {
                Transport::WebSocket => over_ws.push(after),
                Transport::Sse => over_sse.push(after),
            }
            last = last.max(Some(after));
        }
        delivered += got as u64;
        println!(
            "    post {k}: on {got} of {open} connections, the last {} after the POST's answer (the POST took {:.1} ms)",
            last.map(|us| format!("{:.1} ms", us as f64 / 1000.0))
                .unwrap_or_else(|| "n/a".into()),
            answered.duration_since(sent).as_secs_f64() * 1000.0
        );
        if got < open && missing_note.is_none() {
            missing_note = Some(format!(
                "post {k} reached {got} of {open} connections within {} s",
                DELIVERY_TIMEOUT.as_secs()
            ));
        }
        tokio::time::sleep(BETWEEN_POSTS).await;
    }
    let cpu_after = pid.and_then(|p| run::cpu_secs(p).ok());
    let posted = posts - post_errors;
    let figures = DeliveryFigures {
        label: label.to_string(),
        audience: audience.to_string(),
        connections: group.opened.len(),
        opened: open,
        open_failed: group.failed,
        first_open_error: group.first_error.clone(),
        open_secs: group.open_secs,
        websocket_connections: group.open_over(Transport::WebSocket),
        sse_connections: group.open_over(Transport::Sse),
        posts,
        post_errors,
        first_post_error,
        post_p50_ms: latencies(post_us).p50_ms,
        expected: (open * posted) as u64,
        delivered,
        before_answer,
        late,
        missing_note,
        after_answer: latencies(after_answer),
        websocket: latencies(over_ws),
        sse: latencies(over_sse),
        since_sent: latencies(since_sent),
        closed_early: group.ended.load(Ordering::Relaxed),
        stray_messages: group.stray.load(Ordering::Relaxed),
        server_cpu_ms_per_post: cpu_before
            .zip(cpu_after)
            .filter(|_| posted > 0)
            .map(|(a, b)| (b - a) * 1000.0 / posted as f64),
    };
    println!("    {}", figures.line());
    figures
}

/// The soft limit of open files of this process, raised to its hard limit; `(before, after)`.
pub fn raise_open_files_limit() -> Result<(u64, u64), String> {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE)
        .map_err(|e| format!("cannot read the open files limit: {e}"))?;
    if soft < hard {
        setrlimit(Resource::RLIMIT_NOFILE, hard, hard)
            .map_err(|e| format!("cannot raise the open files limit to {hard}: {e}"))?;
    }
    Ok((soft, soft.max(hard)))
}

/// The soft limit of open files of this process.
fn own_open_files_limit() -> Option<u64> {
    nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE)
        .ok()
        .map(|(soft, _)| soft)
}

/// The soft `Max open files` of process `pid`, from `/proc/PID/limits`.
fn open_files_limit_of(pid: u32) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/limits")).ok()?;
    limits_open_files(&text)
}

/// The soft `Max open files` of a `/proc/PID/limits` text.
fn limits_open_files(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    let soft = line
        .strip_prefix("Max open files")?
        .split_whitespace()
        .next()?;
    match soft {
        "unlimited" => Some(u64::MAX),
        n => n.parse().ok(),
    }
}

/// The server's `VmRSS` in MB, if its pid is known.
fn rss_now(pid: Option<u32>) -> Option<f64> {
    pid.and_then(|p| run::read_rss(p).ok()).map(|(_, now)| now)
}

/// Tokens of accounts whose user streams see nothing during the streaming benchmark: the
/// followers who do not follow poster (after `following_poster`), the authors, the reader.
fn idle_tokens(tokens: &Tokens, following_poster: usize) -> Vec<Arc<str>> {
    let skip = following_poster.min(tokens.followers.len());
    tokens.followers[skip..]
        .iter()
        .chain(&tokens.authors)
        .chain(std::iter::once(&tokens.reader))
        .map(|t| Arc::from(t.as_str()))
        .collect()
}

/// Targets of a delivery benchmark: `count` connections on `stream`, alternating WebSocket and
/// SSE, each with the token `token(i)`.
fn targets(count: usize, stream: Stream, token: impl Fn(usize) -> Option<Arc<str>>) -> Vec<Target> {
    (0..count)
        .map(|i| Target {
            transport: transport_of(i),
            stream,
            token: token(i),
        })
        .collect()
}

/// Runs the streaming benchmark: idle connections (kept open to the end), deliveries to
/// poster's followers on their user streams, then to `public:local` listeners.
pub async fn run(
    api: &Api,
    tokens: &Tokens,
    pid: Option<u32>,
    settings: &Streaming,
    connections: usize,
    tag: &str,
) -> Result<StreamingFigures, String> {
    println!(
        "streaming: {} idle WebSocket connections, {} followers on their user streams, {} public:local listeners, {} posts each, {} connections opened at once",
        settings.idle, settings.followers, settings.public, settings.posts, settings.open_at_once
    );
    let endpoints = Arc::new(Endpoints::new(api.base())?);
    // Each group recognises its posts by its own marker: the prefix, then the post's number.
    let marker = |group: &str| -> Arc<str> { Arc::from(format!("strm{tag}{group}")) };

    let needed = (settings.idle + settings.followers.max(settings.public)) as u64 + FD_MARGIN;
    let own_limit = own_open_files_limit();
    let server_limit = pid.and_then(open_files_limit_of);
    println!(
        "  open files limit: this process {}, the server {} (about {needed} needed by each)",
        own_limit.map_or("unknown".into(), |l| l.to_string()),
        server_limit.map_or("unknown".into(), |l| l.to_string()),
    );
    for (who, limit) in [("this process", own_limit), ("the server", server_limit)] {
        if limit.is_some_and(|l| l < needed) {
            println!(
                "  WARNING: {who} may open at most {} files; connections beyond will fail (raise `ulimit -n`)",
                limit.unwrap_or(0)
            );
        }
    }

    let poster_id = api.account_id(&tokens.poster).await?;
    let following_poster = settings
        .followers
        .max(run::POSTER_FOLLOWERS)
        .min(tokens.followers.len());
    if settings.followers > run::POSTER_FOLLOWERS {
        let followers = Arc::new(tokens.followers.clone());
        let poster_id = Arc::new(poster_id);
        let api2 = api.clone();
        pool::each(
            "more followers follow poster",
            settings.followers - run::POSTER_FOLLOWERS,
            connections,
            move |i| {
                let (api, followers, poster) = (api2.clone(), followers.clone(), poster_id.clone());
                async move {
                    api.follow(&followers[run::POSTER_FOLLOWERS + i], &poster)
                        .await
                }
            },
        )
        .await?;
    }

    let mut idle = None;
    let mut idle_figures = None;
    if settings.idle > 0 {
        let pool = idle_tokens(tokens, following_poster);
        let per_token = settings.idle.div_ceil(pool.len().max(1));
        println!(
            "  idle: {} WebSocket connections on the user streams of {} accounts that do not follow poster (up to {per_token} per token)",
            settings.idle,
            pool.len()
        );
        if per_token > FEDBLOG_CONNECTIONS_PER_TOKEN {
            println!(
                "  WARNING: fedblog lets a token hold {FEDBLOG_CONNECTIONS_PER_TOKEN} streaming connections unless FEDBLOG_STREAMING_CONNECTIONS_PER_TOKEN is raised; seed more followers"
            );
        }
        let rss_before = rss_now(pid);
        let group = Group::open(
            "idle WebSocket connections",
            &endpoints,
            targets(settings.idle, Stream::User, |i| {
                Some(pool[i % pool.len()].clone())
            })
            .into_iter()
            .map(|t| Target {
                transport: Transport::WebSocket,
                ..t
            })
            .collect(),
            settings.open_at_once,
            &marker("i"),
        )
        .await;
        tokio::time::sleep(SETTLE).await;
        let rss_after = rss_now(pid);
        let opened = group.open_count();
        let figures = IdleFigures {
            connections: settings.idle,
            tokens: pool.len().min(settings.idle),
            opened,
            failed: group.failed,
            first_error: group.first_error.clone(),
            open_secs: group.open_secs,
            rss_before_mb: rss_before,
            rss_after_mb: rss_after,
            kb_per_connection: rss_before
                .zip(rss_after)
                .filter(|_| opened > 0)
                .map(|(b, a)| (a - b) * 1024.0 / opened as f64),
            rss_end_mb: None,
            closed_early: 0,
            stray_messages: 0,
        };
        println!("    {}", figures.line());
        idle_figures = Some(figures);
        idle = Some(group);
    }

    let mut followers = None;
    if settings.followers > 0 {
        println!(
            "  delivery to {} of poster's followers, each on its user stream:",
            settings.followers
        );
        let follower_tokens: Vec<Arc<str>> = tokens.followers[..settings.followers]
            .iter()
            .map(|t| Arc::from(t.as_str()))
            .collect();
        let prefix = marker("f");
        let mut group = Group::open(
            "followers' user streams",
            &endpoints,
            targets(settings.followers, Stream::User, |i| {
                Some(follower_tokens[i].clone())
            }),
            settings.open_at_once,
            &prefix,
        )
        .await;
        followers = Some(
            measure_deliveries(
                "followers' user streams",
                &format!("{} followers' user streams", settings.followers),
                api,
                &tokens.poster,
                &mut group,
                settings.posts,
                &prefix,
                pid,
            )
            .await,
        );
        group.close().await;
    }

    let mut public = None;
    if settings.public > 0 {
        println!(
            "  delivery to {} public:local listeners without a token:",
            settings.public
        );
        let prefix = marker("l");
        let mut group = Group::open(
            "public:local listeners",
            &endpoints,
            targets(settings.public, Stream::PublicLocal, |_| None),
            settings.open_at_once,
            &prefix,
        )
        .await;
        public = Some(
            measure_deliveries(
                "public:local listeners",
                &format!("{} public:local listeners", settings.public),
                api,
                &tokens.poster,
                &mut group,
                settings.posts,
                &prefix,
                pid,
            )
            .await,
        );
        group.close().await;
    }

    if let (Some(mut group), Some(figures)) = (idle, idle_figures.as_mut()) {
        figures.rss_end_mb = rss_now(pid);
        figures.closed_early = group.ended.load(Ordering::Relaxed);
        figures.stray_messages = group.stray_messages();
        println!(
            "  idle connections at the end: {} of {} still open, {} messages received, server RSS {}",
            figures.opened.saturating_sub(figures.closed_early),
            figures.opened,
            figures.stray_messages,
            figures
                .rss_end_mb
                .map_or("not measured".into(), |m| format!("{m:.1} MB"))
        );
        group.close().await;
    }

    Ok(StreamingFigures {
        settings: *settings,
        open_files_limit: own_limit,
        server_open_files_limit: server_limit,
        idle: idle_figures,
        followers,
        public,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posts_are_found_by_their_marker() {
        let ws = r#"{"event":"update","payload":"{\"id\":\"1\",\"content\":\"<p>Streaming benchmark post 3 of 5 (strmbench1a2p3x)</p>\"}","stream":["user"]}"#;
        assert!(websocket_update(ws));
        assert_eq!(post_number(ws, "strmbench1a2p"), Some(3));
        assert_eq!(post_number(ws, "strmbench1a3p"), None);
        assert!(!websocket_update(
            r#"{"event":"delete","payload":"1","stream":["user"]}"#
        ));
        assert_eq!(post_number("strmXp12", "strmXp"), Some(12));
        assert_eq!(post_number("strmXpx", "strmXp"), None);
    }

    #[test]
    fn server_sent_events_are_split_and_named() {
        let buf = b":thump\n\nevent: update\ndata: {\"content\":\"strmXp1x\"}\n\nevent: up";
        let end = sse_frame_end(buf).unwrap();
        assert_eq!(sse_event(std::str::from_utf8(&buf[..end]).unwrap()), None);
        let rest = &buf[end + 2..];
        let end = sse_frame_end(rest).unwrap();
        let frame = std::str::from_utf8(&rest[..end]).unwrap();
        assert_eq!(sse_event(frame), Some("update"));
        assert_eq!(post_number(frame, "strmXp"), Some(1));
        assert_eq!(sse_frame_end(&rest[end + 2..]), None);
    }

    #[test]
    fn websocket_urls_and_transports() {
        assert_eq!(
            websocket_base("http://127.0.0.1:3000").unwrap(),
            "ws://127.0.0.1:3000"
        );
        assert_eq!(
            websocket_base("https://a.example").unwrap(),
            "wss://a.example"
        );
        assert!(websocket_base("ftp://x").is_err());
        assert_eq!(transport_of(0), Transport::WebSocket);
        assert_eq!(transport_of(1), Transport::Sse);
    }

    #[test]
    fn idle_tokens_leave_out_poster_s_followers() {
        let tokens = Tokens {
            reader: "r".into(),
            authors: vec!["a1".into()],
            big_author: "b".into(),
            poster: "p".into(),
            followers: (1..=5).map(|i| format!("f{i}")).collect(),
        };
        let got: Vec<String> = idle_tokens(&tokens, 3)
            .iter()
            .map(|t| t.to_string())
            .collect();
        assert_eq!(got, ["f4", "f5", "a1", "r"]);
        assert_eq!(idle_tokens(&tokens, 10).len(), 2);
    }

    #[test]
    fn open_files_limit_is_read_from_proc() {
        let text = "Limit                     Soft Limit           Hard Limit           Units     \nMax open files            1024                 524288               files     \n";
        assert_eq!(limits_open_files(text), Some(1024));
        assert!(open_files_limit_of(std::process::id()).is_some());
        assert_eq!(latencies(vec![3000, 1000, 2000]).max_ms, Some(3.0));
        assert_eq!(latencies(vec![]).p99_ms, None);
    }
}
