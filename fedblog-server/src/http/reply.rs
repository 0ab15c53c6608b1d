//! Turns core's `Reply` into an HTTP response, adding the headers every answer carries; a
//! streaming reply becomes server-sent events.

use std::convert::Infallible;
use std::time::Duration;

use fedblog_core::api::{Body, MessageSource, Reply, StreamBody, StreamMessage};
use http::{HeaderName, HeaderValue, Response, StatusCode};
use warp::Reply as _;

/// The HTTP response type of the server (its body may stream).
pub type HttpResponse = warp::reply::Response;

/// The longest a server-sent-events answer stays silent: a comment line is sent after this long
/// without a message, so that proxies keep the connection open.
pub const SSE_HEARTBEAT: Duration = Duration::from_secs(15);

/// CORS for every answer, and `nosniff` so no answer is taken for another type than it says.
const EVERY_ANSWER: [(&str, &str); 3] = [
    ("X-Content-Type-Options", "nosniff"),
    ("Access-Control-Allow-Origin", "*"),
    (
        "Access-Control-Expose-Headers",
        "Link, X-RateLimit-Reset, X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After, X-Request-Id, Idempotency-Key",
    ),
];

/// A builder with the headers of [`EVERY_ANSWER`].
fn cors(builder: http::response::Builder) -> http::response::Builder {
    EVERY_ANSWER
        .iter()
        .fold(builder, |b, (name, value)| b.header(*name, *value))
}

/// Converts a reply. Header values that are not valid HTTP are dropped (and logged).
pub fn to_http(reply: Reply) -> HttpResponse {
    let mut builder = cors(Response::builder().status(reply.status));
    let (content_type, body) = match reply.body {
        Body::Json(text) => ("application/json; charset=utf-8", text.into_bytes()),
        Body::Html(h) => ("text/html; charset=utf-8", h.into_bytes()),
        Body::Text(t) => ("text/plain; charset=utf-8", t.into_bytes()),
        Body::Typed(media_type, t) => (media_type, t.into_bytes()),
        Body::Empty => ("text/plain; charset=utf-8", Vec::new()),
        Body::Stream(stream) => return server_sent_events(reply.status, reply.headers, stream),
    };
    builder = builder.header("Content-Type", content_type);
    for (k, v) in reply.headers {
        match (
            HeaderName::from_bytes(k.as_bytes()),
            HeaderValue::from_str(&v),
        ) {
            (Ok(name), Ok(value)) => builder = builder.header(name, value),
            _ => tracing::warn!(header = %k, "dropping an invalid header"),
        }
    }
    builder
        .body(body.into())
        .unwrap_or_else(|_| internal_error())
}

fn internal_error() -> HttpResponse {
    let mut r = Response::new(bytes::Bytes::from_static(b"{\"error\":\"Internal error\"}").into());
    *r.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    r
}

/// A streaming reply as server-sent events: each message an `event:` and a `data:` line, a
/// comment after [`SSE_HEARTBEAT`] of silence, until the source ends or the client goes.
fn server_sent_events(
    status: StatusCode,
    headers: Vec<(String, String)>,
    stream: StreamBody,
) -> HttpResponse {
    let Some(source) = stream.take() else {
        tracing::error!("a streaming reply was sent twice");
        return internal_error();
    };
    let mut messages = pump(source);
    let events = futures_util::stream::poll_fn(move |cx| {
        messages.poll_recv(cx).map(|m| {
            // `event: name` and `data: payload`, with the space after the colon that some
            // clients (Mastodon.py) split on; by the SSE rules it is not part of the value. An
            // event without a payload (`filters_changed`) says `undefined`, as Mastodon's does:
            // clients that parse every payload as JSON take that for none.
            m.map(|m| {
                let payload = match m.payload.as_str() {
                    "" => "undefined",
                    p => p,
                };
                Ok::<_, Infallible>(
                    warp::sse::Event::default()
                        .event(format!(" {}", m.event))
                        .data(format!(" {payload}")),
                )
            })
        })
    });
    let keep_alive = warp::sse::keep_alive()
        .interval(SSE_HEARTBEAT)
        .text("thump");
    let mut response = warp::sse::reply(keep_alive.stream(events)).into_response();
    *response.status_mut() = status;
    let h = response.headers_mut();
    // Proxies such as nginx must pass each event on at once.
    for (name, value) in EVERY_ANSWER.iter().chain(&[("X-Accel-Buffering", "no")]) {
        h.insert(*name, HeaderValue::from_static(value));
    }
    for (k, v) in headers {
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(k.as_bytes()),
            HeaderValue::from_str(&v),
        ) {
            h.insert(name, value);
        }
    }
    response
}

/// Messages the transport has not sent yet, per connection: a source gets ahead of a slow
/// client by this many at most.
pub const STREAM_QUEUE: usize = 64;

/// Runs `source` on a task of its own, handing its messages over a bounded queue; the task
/// ends with the source, or as soon as the receiving side is dropped (the client went).
fn pump(mut source: Box<dyn MessageSource>) -> tokio::sync::mpsc::Receiver<StreamMessage> {
    let (tx, rx) = tokio::sync::mpsc::channel(STREAM_QUEUE);
    tokio::spawn(async move {
        loop {
            let message = tokio::select! {
                m = source.next() => m,
                _ = tx.closed() => None,
            };
            let Some(message) = message else { break };
            if tx.send(message).await.is_err() {
                break;
            }
        }
    });
    rx
}

/// The answer to a CORS preflight request.
pub fn preflight() -> HttpResponse {
    cors(Response::builder().status(StatusCode::NO_CONTENT))
        .header(
            "Access-Control-Allow-Methods",
            "GET, POST, PUT, PATCH, DELETE, OPTIONS",
        )
        .header(
            "Access-Control-Allow-Headers",
            "Authorization, Content-Type, Idempotency-Key",
        )
        .header("Access-Control-Max-Age", "86400")
        .body(bytes::Bytes::new().into())
        .unwrap_or_default()
}

/// A static file.
pub fn file(content_type: &'static str, bytes: &'static [u8]) -> HttpResponse {
    cors(Response::builder().status(StatusCode::OK))
        .header("Content-Type", content_type)
        .header("Cache-Control", "public, max-age=86400")
        .body(bytes::Bytes::from_static(bytes).into())
        .unwrap_or_default()
}

/// A stored (uploaded) file. Its key is random and never reused, so it may be cached for good;
/// `nosniff` and a sandboxing CSP keep a browser from treating it as anything but an image.
pub fn stored_file(content_type: &'static str, bytes: Vec<u8>) -> HttpResponse {
    cors(Response::builder().status(StatusCode::OK))
        .header("Content-Type", content_type)
        .header("Cache-Control", "public, max-age=31536000, immutable")
        .header("Content-Security-Policy", "default-src 'none'; sandbox")
        .body(bytes::Bytes::from(bytes).into())
        .unwrap_or_default()
}
