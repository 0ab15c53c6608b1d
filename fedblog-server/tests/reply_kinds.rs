//! The seams later areas build on, through real HTTP: an endpoint that takes its body raw gets
//! the exact bytes with the method, target and headers (what a signed ActivityPub delivery
//! needs), and a streaming reply is sent as server-sent events until its source ends, and its
//! source is dropped when the client goes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use fedblog_core::api::{
    Auth, BodyKind, Endpoint, Json, MessageSource, StreamBody, StreamMessage, Streamed, route,
};
use fedblog_core::app::Caller;
use fedblog_core::error::{ApiError, ApiResult};
use fedblog_core::{App, InstanceConfig, MemoryStore};
use fedblog_server::http::{HttpOptions, Server};
use fedblog_server::serve::{Running, spawn_server};
use http::Method;
use serde::Deserialize;
use serde_json::{Value, json};

/// Echoes what a raw-body endpoint receives.
struct EchoRaw;

#[derive(Deserialize)]
struct EchoRawRequest {
    mailbox: String,
    q: Option<String>,
}

impl Endpoint for EchoRaw {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/test/raw/:mailbox";
    const AUTH: Auth = Auth::Public;
    const BODY: BodyKind = BodyKind::Raw;
    type Request = EchoRawRequest;
    type Response = Json<Value>;

    async fn handle(_app: &App, caller: &Caller, r: EchoRawRequest) -> ApiResult<Json<Value>> {
        let raw = caller.info.raw.as_ref().ok_or_else(ApiError::internal)?;
        Ok(Json(json!({
            "mailbox": r.mailbox,
            "q": r.q,
            "method": raw.method,
            "target": raw.target,
            "signature": raw.header("Signature"),
            "digest": raw.header("digest"),
            "content_type": raw.header("content-type"),
            "body": String::from_utf8_lossy(&raw.bytes),
        })))
    }
}

/// A source of `left` messages, then the end (or never the end, with `None`); it counts the
/// messages it made and says when it is dropped.
struct Counting {
    left: Option<usize>,
    made: Arc<AtomicUsize>,
    dropped: Arc<AtomicBool>,
}

impl Drop for Counting {
    fn drop(&mut self) {
        self.dropped.store(true, Ordering::SeqCst);
    }
}

#[async_trait]
impl MessageSource for Counting {
    async fn next(&mut self) -> Option<StreamMessage> {
        match &mut self.left {
            Some(0) => return None,
            Some(n) => *n -= 1,
            None => tokio::time::sleep(Duration::from_millis(20)).await,
        }
        let n = self.made.fetch_add(1, Ordering::SeqCst);
        Some(StreamMessage {
            stream: vec!["user".into()],
            event: "update".into(),
            payload: format!("{{\"n\":{n}}}"),
        })
    }
}

type Counters = (Arc<AtomicUsize>, Arc<AtomicBool>);

/// The counters of the endless sources (one test makes them) and of the others.
static ENDLESS: std::sync::OnceLock<Counters> = std::sync::OnceLock::new();
static FINITE: std::sync::OnceLock<Counters> = std::sync::OnceLock::new();

fn counters(endless: bool) -> &'static Counters {
    if endless { &ENDLESS } else { &FINITE }.get_or_init(Default::default)
}

/// Streams three messages, or without end with `?endless=true`.
struct Ticks;

#[derive(Deserialize)]
struct TicksRequest {
    endless: Option<String>,
}

impl Endpoint for Ticks {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/test/ticks";
    const AUTH: Auth = Auth::Public;
    type Request = TicksRequest;
    type Response = Streamed;

    async fn handle(_app: &App, _caller: &Caller, r: TicksRequest) -> ApiResult<Streamed> {
        let endless = r.endless.is_some();
        let (made, dropped) = counters(endless);
        Ok(Streamed(StreamBody::new(Counting {
            left: if endless { None } else { Some(3) },
            made: made.clone(),
            dropped: dropped.clone(),
        })))
    }
}

async fn start() -> Running {
    let app = Arc::new(App::new(
        Arc::new(MemoryStore::new()),
        InstanceConfig::new("seams.test"),
    ));
    let server = Server::with_routes(
        app,
        HttpOptions::default(),
        vec![route::<EchoRaw>(), route::<Ticks>()],
    )
    .expect("server");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    spawn_server(server, listener).await.expect("spawn")
}

#[tokio::test]
async fn a_raw_body_endpoint_gets_the_bytes_method_target_and_headers_as_sent() {
    let server = start().await;
    let client = reqwest::Client::new();
    // Not valid JSON, nor a form: a raw endpoint does not parse it.
    let body = "{ \"type\": \"Create\",\n  \"id\": 1 } trailing";
    let r = client
        .post(format!("{}/test/raw/inbox?q=1", server.base_url()))
        .header("Content-Type", "application/activity+json")
        .header("Digest", "SHA-256=abc=")
        .header(
            "Signature",
            "keyId=\"k\",headers=\"(request-target) digest\"",
        )
        .body(body)
        .send()
        .await
        .expect("post");
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.expect("json");
    assert_eq!(
        v,
        json!({
            "mailbox": "inbox",
            "q": "1",
            "method": "POST",
            "target": "/test/raw/inbox?q=1",
            "signature": "keyId=\"k\",headers=\"(request-target) digest\"",
            "digest": "SHA-256=abc=",
            "content_type": "application/activity+json",
            "body": body,
        })
    );
    let r = client
        .post(format!("{}/test/raw/inbox", server.base_url()))
        .body(vec![b'x'; 1024 * 1024 + 1])
        .send()
        .await
        .expect("post");
    assert_eq!(
        r.status(),
        413,
        "a raw body is held to the small-body limit"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_streaming_reply_is_sent_as_server_sent_events_and_ends_with_its_source() {
    let server = start().await;
    let r = reqwest::get(format!("{}/test/ticks", server.base_url()))
        .await
        .expect("get");
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("text/event-stream")
    );
    assert_eq!(
        r.headers()
            .get("cache-control")
            .and_then(|v| v.to_str().ok()),
        Some("no-store")
    );
    assert_eq!(
        r.headers()
            .get("access-control-allow-origin")
            .and_then(|v| v.to_str().ok()),
        Some("*"),
        "a stream carries the headers of every answer"
    );
    let text = tokio::time::timeout(Duration::from_secs(10), r.text())
        .await
        .expect("the stream ends with its source")
        .expect("body");
    let events: Vec<(&str, &str)> = text
        .split("\n\n")
        .filter(|e| !e.trim().is_empty())
        .map(|e| {
            let field = |name: &str| e.lines().find_map(|l| l.strip_prefix(name)).unwrap_or("");
            (field("event: "), field("data: "))
        })
        .collect();
    assert_eq!(events.len(), 3, "three events: {text:?}");
    assert!(
        events
            .iter()
            .all(|(e, d)| *e == "update" && d.starts_with("{\"n\":")),
        "{text:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn an_endless_stream_s_source_is_dropped_when_the_client_goes() {
    let server = start().await;
    let (made, dropped) = counters(true);
    let mut r = reqwest::get(format!("{}/test/ticks?endless=true", server.base_url()))
        .await
        .expect("get");
    let first = tokio::time::timeout(Duration::from_secs(10), r.chunk())
        .await
        .expect("a first message")
        .expect("chunk")
        .expect("not the end");
    assert!(String::from_utf8_lossy(&first).contains("event: update"));
    drop(r);
    let gone = async {
        while !dropped.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), gone)
        .await
        .expect("the source is dropped once the client has gone");
    let so_far = made.load(Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        made.load(Ordering::SeqCst),
        so_far,
        "nothing is made for nobody"
    );
    server.stop().await;
}
