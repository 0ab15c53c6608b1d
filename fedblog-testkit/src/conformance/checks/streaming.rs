//! Streaming: the server-sent-events endpoints (one per stream) and the WebSocket that carries
//! several streams on one connection, as Mastodon clients use them
//! (<https://docs.joinmastodon.org/methods/streaming/>).
//!
//! A check connects before it acts, so what it waits for is an event the server must send once
//! the action is done. Every wait is bounded: [`WAIT`] for an event that must come, [`QUIET`]
//! for one that must not. Where it can, a check that an event never comes makes a later event
//! the same stream must carry (a sentinel) and looks for the first only among what came before
//! it.
//!
//! Streams are read outside the validating client (an answer that does not end cannot be read
//! whole), with a small server-sent-events reader and a WebSocket client; the request that
//! opened one is recorded all the same (its token named, never written), so a failure shows it.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use fedblog_core::api::accounts::follow_account::FollowAccount;
use fedblog_core::api::filters::create_filter::CreateFilter;
use fedblog_core::api::lists::{add_list_accounts::AddListAccounts, create_list::CreateList};
use fedblog_core::api::statuses::{delete_status::DeleteStatus, edit_status::EditStatus};
use fedblog_core::api::streaming::{
    health::StreamingHealth, stream_direct::StreamDirect, stream_hashtag::StreamHashtag,
    stream_hashtag_local::StreamHashtagLocal, stream_list::StreamList, stream_public::StreamPublic,
    stream_public_local::StreamPublicLocal, stream_user::StreamUser,
    stream_user_notification::StreamUserNotification, stream_websocket::StreamWebSocket,
};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::{self, Message, client::IntoClientRequest};

use crate::check;
use crate::client::{Response, form, query, truncate};
use crate::conformance::checks::social::act;
use crate::conformance::{
    Check, CheckResult, Cx, Failure, SET_UP_FAILED, SetUp, User, expect_error, path, str_of,
};
use crate::ensure;
use crate::recorder::{Exchange, Recorder, SentBody};

/// How long a check waits for an event that must come (and for a stream to open).
pub(crate) const WAIT: Duration = Duration::from_secs(5);

/// How long a check listens for an event that must not come, where no sentinel can bound it.
pub(crate) const QUIET: Duration = Duration::from_millis(1500);

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "streaming/health",
            "the streaming endpoint exists: GET /api/v1/streaming/health answers 200 with the text OK",
            health
        ),
        check!(
            "streaming/user/no-token-401",
            "the user stream without a token is a 401 with an error body, not a stream",
            user_no_token
        ),
        check!(
            "streaming/user/update-from-followed",
            "the user stream of a follower carries an `update` event whose data is the followed account's new status",
            user_update
        ),
        check!(
            "streaming/user/notification-on-mention",
            "the user stream carries a `notification` event (a mention, with its status) when another account mentions the listener",
            user_notification
        ),
        check!(
            "streaming/user/delete",
            "deleting a status the user stream carried sends a `delete` event whose data is the status id",
            user_delete
        ),
        check!(
            "streaming/user/status-update-on-edit",
            "editing a status the user stream carried sends a `status.update` event with the edited status",
            user_status_update
        ),
        check!(
            "streaming/user/filters-changed",
            "creating a filter sends `filters_changed` on its owner's user stream",
            user_filters_changed
        ),
        check!(
            "streaming/user/access-token-param",
            "a stream accepts its token as the access_token query parameter (clients that cannot set headers): the user stream opens and carries the account's own post",
            user_access_token_param
        ),
        check!(
            "streaming/user-notification/notifications-only",
            "GET /api/v1/streaming/user/notification carries notifications and no `update` of the home feed",
            notifications_only
        ),
        check!(
            "streaming/public-local/public-only",
            "the public:local stream carries a new local public status and not an unlisted one",
            public_local
        ),
        check!(
            "streaming/hashtag/tagged-public-post",
            "the hashtag stream of a tag carries a public status with the tag and not one without it",
            hashtag
        ),
        check!(
            "streaming/hashtag-local/tagged-local-post",
            "the hashtag:local stream of a tag carries a local public status with the tag",
            hashtag_local
        ),
        check!(
            "streaming/list/member-post",
            "the list stream of one's list carries an `update` for a status by a member of the list",
            list_stream
        ),
        check!(
            "streaming/direct/conversation",
            "the direct stream of the account a direct message mentions carries a `conversation` event whose last_status is the message",
            direct_conversation
        ),
        check!(
            "streaming/private/not-on-others-streams",
            "a private status reaches a follower's user stream, and neither a non-follower's user stream nor the public and public:local streams",
            private_not_leaked
        ),
        check!(
            "streaming/websocket/several-streams",
            "one WebSocket carries several streams: a status reaching the user, public:local and hashtag streams comes once per stream, each message naming it in `stream` ([\"user\"], [\"public:local\"], [\"hashtag\", tag]) with the status as a JSON string `payload`",
            websocket_several
        ),
        check!(
            "streaming/websocket/subscribe-unsubscribe",
            "a WebSocket subscribe message adds a stream to the socket and an unsubscribe message removes it",
            websocket_subscribe_unsubscribe
        ),
        check!(
            "streaming/websocket/others-list-404",
            "subscribing a WebSocket to another account's list answers {\"error\": ..., \"status\": 404}",
            websocket_others_list
        ),
        check!(
            "streaming/websocket/user-without-token-401",
            "the user stream on a WebSocket without a token is refused with status 401 (an error message, or the upgrade answered 401)",
            websocket_user_no_token
        ),
        check!(
            "streaming/websocket/token-as-protocol",
            "a WebSocket accepts its token as the Sec-WebSocket-Protocol header, echoes that protocol, and streams the account's user stream",
            websocket_token_protocol
        ),
    ]
}

// --- The stream reader -------------------------------------------------------------------------

/// How a stream request carries its token.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Auth<'a> {
    /// No token.
    None,
    /// `Authorization: Bearer`.
    Bearer(&'a str),
    /// The `access_token` query parameter.
    Query(&'a str),
    /// The `Sec-WebSocket-Protocol` header (WebSocket only).
    Protocol(&'a str),
}

impl<'a> Auth<'a> {
    /// A bearer token, or none.
    pub(crate) fn of(token: Option<&'a str>) -> Auth<'a> {
        token.map_or(Auth::None, Auth::Bearer)
    }

    /// Who the request is made as, for messages.
    fn whom(self, cx: &Cx) -> String {
        let holder = |t: &str| cx.recorder().holder_of(t);
        match self {
            Auth::None => " without a token".into(),
            Auth::Bearer(t) => format!(" as {}", holder(t)),
            Auth::Query(t) => format!(" as {} (access_token parameter)", holder(t)),
            Auth::Protocol(t) => format!(" as {} (token as Sec-WebSocket-Protocol)", holder(t)),
        }
    }

    /// `path_and_query` with the `access_token` parameter added when the token goes there:
    /// the URL to request, and the one to report (the token written `$TOKEN`).
    fn url(self, path_and_query: &str) -> (String, String) {
        match self {
            Auth::Query(t) => {
                let sep = if path_and_query.contains('?') {
                    '&'
                } else {
                    '?'
                };
                (
                    format!("{path_and_query}{sep}{}", query(&[("access_token", t)])),
                    format!("{path_and_query}{sep}access_token=$TOKEN"),
                )
            }
            _ => (path_and_query.to_string(), path_and_query.to_string()),
        }
    }
}

/// One message of a stream: a server-sent event, or a WebSocket message.
#[derive(Clone, Debug)]
pub(crate) struct Event {
    /// `update`, `delete`, `notification`, ...; `error` for a WebSocket error message.
    pub event: String,
    /// The payload as sent: JSON text, the status id of a `delete`, nothing for
    /// `filters_changed`; for a WebSocket error message the whole message.
    pub payload: String,
    /// The whole WebSocket message (None for server-sent events).
    pub frame: Option<Value>,
}

impl Event {
    /// The payload parsed as JSON (null when it is not JSON).
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.payload).unwrap_or(Value::Null)
    }

    /// Whether it is `event` about status `id`: the payload itself for `delete`, the payload's
    /// `id` otherwise.
    pub(crate) fn is(&self, event: &str, id: &str) -> bool {
        self.event == event
            && match event {
                "delete" => self.payload.trim() == id,
                _ => self.json()["id"] == id,
            }
    }

    /// The `stream` of a WebSocket message (null for server-sent events).
    fn stream(&self) -> &Value {
        self.frame.as_ref().map_or(&Value::Null, |f| &f["stream"])
    }

    /// A short description, for messages: `update 1234 on ["user"]`.
    fn describe(&self) -> String {
        let v = self.json();
        let text = |x: &Value| x.as_str().map_or_else(|| x.to_string(), str::to_string);
        let about = match self.event.as_str() {
            "delete" => self.payload.trim().to_string(),
            "notification" => format!(
                "{} of status {}",
                text(&v["type"]),
                text(&v["status"]["id"])
            ),
            "conversation" => format!("last_status {}", text(&v["last_status"]["id"])),
            "error" | "filters_changed" => truncate(&self.payload),
            _ if v.is_null() => truncate(&self.payload),
            _ => text(&v["id"]),
        };
        let on = match self.stream() {
            Value::Null => String::new(),
            s => format!(" on {s}"),
        };
        format!("{} {about}{on}", self.event)
    }
}

type WebSocket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

enum Transport {
    /// A `text/event-stream` answer and the bytes read of its next event.
    Sse {
        response: reqwest::Response,
        buf: Vec<u8>,
    },
    /// A WebSocket.
    Ws(Box<WebSocket>),
}

/// An open stream: a server-sent-events answer or a WebSocket, read an event at a time.
pub(crate) struct Stream {
    /// What was opened, for messages: `GET /api/v1/streaming/user as @alice`.
    what: String,
    transport: Transport,
    /// Events read but not handed out yet.
    pending: VecDeque<Event>,
    /// Every event handed out, in order.
    seen: Vec<Event>,
    /// Why the stream ended, once it has.
    ended: Option<String>,
    /// The request that opened it, and where the run records requests: a failure about what
    /// the stream carried records it again, so the report shows that request.
    opened: (Exchange, Arc<Recorder>),
}

/// A stream, or the answer that refused to open it.
pub(crate) enum Opened {
    /// The stream.
    Stream(Box<Stream>),
    /// The answer instead of a stream, and what was asked.
    Refused(Response, String),
}

impl Opened {
    /// The stream, failing the check when the server refused it.
    pub(crate) fn stream(self) -> Result<Stream, Failure> {
        match self {
            Opened::Stream(s) => Ok(*s),
            Opened::Refused(r, what) => Err(Failure::Fail(format!(
                "{what} answered HTTP {} ({}) {} (expected a stream)",
                r.status,
                r.header("content-type").unwrap_or("no content type"),
                truncate(&r.text)
            ))),
        }
    }
}

/// Splits complete server-sent events off the front of `buf` (carriage returns already
/// dropped): `event:` and `data:` fields, one space after the colon not part of the value;
/// comments (`:thump`) and blocks without fields are skipped.
fn parse_sse(buf: &mut Vec<u8>, out: &mut VecDeque<Event>) {
    while let Some(at) = buf.windows(2).position(|w| w == b"\n\n") {
        let block: Vec<u8> = buf.drain(..at + 2).collect();
        let text = String::from_utf8_lossy(&block[..at]);
        let (mut event, mut data) = (None, Vec::new());
        for line in text.split('\n') {
            if line.is_empty() || line.starts_with(':') {
                continue;
            }
            let (field, value) = line.split_once(':').unwrap_or((line, ""));
            let value = value.strip_prefix(' ').unwrap_or(value);
            match field {
                "event" => event = Some(value.to_string()),
                "data" => data.push(value),
                _ => {}
            }
        }
        if event.is_none() && data.is_empty() {
            continue;
        }
        out.push_back(Event {
            event: event.unwrap_or_else(|| "message".into()),
            payload: data.join("\n"),
            frame: None,
        });
    }
}

/// A WebSocket text message as an event: `{"stream", "event", "payload"}`, or an error
/// message `{"error", "status"}` as event `error`.
fn ws_event(text: &str) -> Event {
    let Ok(frame) = serde_json::from_str::<Value>(text) else {
        return Event {
            event: "(not JSON)".into(),
            payload: text.to_string(),
            frame: None,
        };
    };
    if frame.get("error").is_some() {
        return Event {
            event: "error".into(),
            payload: text.to_string(),
            frame: Some(frame),
        };
    }
    let payload = match &frame["payload"] {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    Event {
        event: frame["event"].as_str().unwrap_or("(no event)").to_string(),
        payload,
        frame: Some(frame),
    }
}

impl Stream {
    /// Reads what comes next into `pending`, or notes that the stream ended. Cancel-safe.
    async fn read(&mut self) {
        let Stream {
            transport,
            pending,
            ended,
            ..
        } = self;
        match transport {
            Transport::Sse { response, buf } => match response.chunk().await {
                Ok(Some(bytes)) => {
                    buf.extend(bytes.iter().filter(|b| **b != b'\r'));
                    parse_sse(buf, pending);
                }
                Ok(None) => *ended = Some("the server ended the answer".into()),
                Err(e) => *ended = Some(format!("reading the answer failed: {e}")),
            },
            Transport::Ws(ws) => match ws.next().await {
                Some(Ok(Message::Text(text))) => pending.push_back(ws_event(text.as_str())),
                Some(Ok(Message::Close(frame))) => {
                    *ended = Some(match frame {
                        Some(f) => {
                            format!("the server closed the socket ({} {})", f.code, f.reason)
                        }
                        None => "the server closed the socket".into(),
                    })
                }
                // Pings are answered by the library; pongs and binary frames carry no event.
                Some(Ok(_)) => {}
                Some(Err(e)) => *ended = Some(format!("the socket failed: {e}")),
                None => *ended = Some("the socket closed".into()),
            },
        }
    }

    /// The next event before `until`, without noting it as seen.
    async fn next_raw(&mut self, until: Instant) -> Option<Event> {
        loop {
            if let Some(e) = self.pending.pop_front() {
                return Some(e);
            }
            if self.ended.is_some() {
                return None;
            }
            // The read is polled before the deadline is looked at, so what the connection
            // holds already is taken even past it; what it has yet to read from the socket is
            // not (read several streams at once to keep each one reading).
            if tokio::time::timeout_at(until, self.read()).await.is_err() {
                return None;
            }
        }
    }

    /// The next event before `until`.
    pub(crate) async fn next(&mut self, until: Instant) -> Option<Event> {
        let e = self.next_raw(until).await?;
        self.seen.push(e.clone());
        Some(e)
    }

    /// The next event that satisfies `wanted`, waiting at most `wait`; fails saying what was
    /// wanted (`what`) and what came instead.
    pub(crate) async fn expect(
        &mut self,
        what: &str,
        wait: Duration,
        wanted: impl Fn(&Event) -> bool,
    ) -> Result<Event, Failure> {
        let until = Instant::now() + wait;
        while let Some(e) = self.next(until).await {
            if wanted(&e) {
                return Ok(e);
            }
        }
        self.blame();
        Err(Failure::Fail(format!(
            "{}: no {what} within {} s; {}",
            self.what,
            wait.as_secs_f32(),
            self.received()
        )))
    }

    /// Records the request that opened the stream again, as the one a failure is about.
    pub(crate) fn blame(&self) {
        let (exchange, recorder) = &self.opened;
        recorder.record(exchange.clone(), None);
    }

    /// Fails, saying the stream carried `what`, when an event seen so far satisfies `f`.
    pub(crate) fn never(&self, what: &str, f: impl Fn(&Event) -> bool) -> CheckResult {
        if self.saw(f).is_none() {
            return Ok(());
        }
        self.blame();
        Err(Failure::Fail(format!(
            "{} carried {what}: {}",
            self.what,
            self.received()
        )))
    }

    /// Expects the `update` of status `shown.1` (`shown.0` describes it), then fails if the
    /// stream carried the `update` of status `hidden.1` before it.
    pub(crate) async fn update_without(
        &mut self,
        shown: (&str, &str),
        hidden: (&str, &str),
    ) -> CheckResult {
        let (what, id) = shown;
        self.expect(&format!("`update` of {what}{id}"), WAIT, update_of(id))
            .await?;
        let (what, id) = hidden;
        self.never(&format!("{what}{id}"), update_of(id))
    }

    /// Every event that comes before `until`.
    pub(crate) async fn drain_until(&mut self, until: Instant) -> Vec<Event> {
        let mut out = Vec::new();
        while let Some(e) = self.next(until).await {
            out.push(e);
        }
        out
    }

    /// The first event seen so far that satisfies `f`.
    pub(crate) fn saw(&self, f: impl Fn(&Event) -> bool) -> Option<&Event> {
        self.seen.iter().find(|e| f(e))
    }

    /// What the stream carried so far, for messages.
    pub(crate) fn received(&self) -> String {
        let mut s = if self.seen.is_empty() {
            "it carried nothing".to_string()
        } else {
            let all: Vec<String> = self.seen.iter().map(Event::describe).collect();
            format!("it carried: {}", all.join("; "))
        };
        if let Some(why) = &self.ended {
            s.push_str(&format!(" ({why})"));
        }
        truncate(&s)
    }

    /// What was opened, for messages.
    pub(crate) fn what(&self) -> &str {
        &self.what
    }

    /// Sends a JSON message over a WebSocket.
    async fn send(&mut self, message: Value) -> CheckResult {
        let Transport::Ws(ws) = &mut self.transport else {
            return Err(Failure::Fail(
                "a message can only be sent over a WebSocket".into(),
            ));
        };
        ws.send(Message::text(message.to_string()))
            .await
            .map_err(|e| Failure::Fail(format!("{}: sending {message}: {e}", self.what)))
    }

    /// Waits until the server has handled the messages sent so far: sends a subscription to a
    /// stream no server has and waits (at most [`QUIET`]) for its error message, as a server
    /// handles a socket's messages in order. Other events that come meanwhile stay to be read.
    async fn settle(&mut self) -> CheckResult {
        self.send(json!({"type": "subscribe", "stream": "conformance:no-such-stream"}))
            .await?;
        let until = Instant::now() + QUIET;
        let mut kept = Vec::new();
        while let Some(e) = self.next_raw(until).await {
            if e.event == "error" {
                break;
            }
            kept.push(e);
        }
        for e in kept.into_iter().rev() {
            self.pending.push_front(e);
        }
        Ok(())
    }
}

/// Records the request that opened (or failed to open) a stream, so a report shows it, and
/// answers it with the recorder, for the stream to keep.
fn record(
    cx: &Cx,
    url: &str,
    auth: Auth,
    headers: &[(&str, &str)],
    status: u16,
    response: &str,
) -> (Exchange, Arc<Recorder>) {
    let recorder = cx.recorder().clone();
    let exchange = Exchange {
        method: "GET".into(),
        url: url.to_string(),
        token_of: match auth {
            Auth::Bearer(t) => Some(recorder.holder_of(t)),
            _ => None,
        },
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        body: SentBody::None,
        operation: None,
        status,
        response: Recorder::excerpt(response),
    };
    recorder.record(exchange.clone(), None);
    (exchange, recorder)
}

/// Opens a server-sent-events stream (`GET path_and_query`): the stream when the server
/// answers 200 with `text/event-stream`, else the answer.
pub(crate) async fn sse(cx: &Cx, path_and_query: &str, auth: Auth<'_>) -> Result<Opened, Failure> {
    let (target, shown) = auth.url(path_and_query);
    let what = format!("GET {shown}{}", auth.whom(cx));
    let base = cx.client.base_url();
    let (url, shown_url) = (format!("{base}{target}"), format!("{base}{shown}"));
    let accept = [("Accept", "text/event-stream")];
    // A client of its own: the validating client's time limit would cut a stream short.
    let http = reqwest::Client::builder()
        .connect_timeout(WAIT)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| Failure::Fail(e.to_string()))?;
    let mut request = http.get(&url).header("Accept", "text/event-stream");
    if let Auth::Bearer(t) = auth {
        request = request.bearer_auth(t);
    }
    let response = match tokio::time::timeout(WAIT, request.send()).await {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => {
            record(cx, &shown_url, auth, &accept, 0, "");
            return Err(Failure::Fail(format!("{what}: {e}")));
        }
        Err(_) => {
            record(cx, &shown_url, auth, &accept, 0, "");
            return Err(Failure::Fail(format!(
                "{what}: no answer within {} s",
                WAIT.as_secs()
            )));
        }
    };
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let is_stream = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("text/event-stream"));
    if status == 200 && is_stream {
        let opened = record(
            cx,
            &shown_url,
            auth,
            &accept,
            status,
            "(a stream of server-sent events)",
        );
        return Ok(Opened::Stream(Box::new(Stream {
            what,
            transport: Transport::Sse {
                response,
                buf: Vec::new(),
            },
            pending: VecDeque::new(),
            seen: Vec::new(),
            ended: None,
            opened,
        })));
    }
    let text = match tokio::time::timeout(WAIT, response.text()).await {
        Ok(Ok(t)) => t,
        Ok(Err(e)) => format!("(reading the body failed: {e})"),
        Err(_) => "(the body did not end)".into(),
    };
    record(cx, &shown_url, auth, &accept, status, &text);
    let json = serde_json::from_str(&text).ok();
    Ok(Opened::Refused(
        Response {
            status,
            headers,
            text,
            json,
        },
        what,
    ))
}

/// Opens a server-sent-events stream, failing the check unless it opens.
pub(crate) async fn open_sse(
    cx: &Cx,
    path_and_query: &str,
    auth: Auth<'_>,
) -> Result<Stream, Failure> {
    sse(cx, path_and_query, auth).await?.stream()
}

/// Opens the WebSocket (`GET /api/v1/streaming` upgraded, with `query` such as `stream=user`):
/// the socket when the upgrade succeeds, else the answer.
pub(crate) async fn websocket(cx: &Cx, query: &str, auth: Auth<'_>) -> Result<Opened, Failure> {
    let p = path::<StreamWebSocket>(&[]);
    let path_and_query = if query.is_empty() {
        p
    } else {
        format!("{p}?{query}")
    };
    let (target, shown) = auth.url(&path_and_query);
    let what = format!("the WebSocket {shown}{}", auth.whom(cx));
    let base = cx.client.base_url();
    let shown_url = format!("{base}{shown}");
    let ws_base = match base.split_once("://") {
        Some(("https", rest)) => format!("wss://{rest}"),
        Some((_, rest)) => format!("ws://{rest}"),
        None => base.to_string(),
    };
    let mut headers = vec![
        ("Connection", "Upgrade"),
        ("Upgrade", "websocket"),
        ("Sec-WebSocket-Version", "13"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ];
    if let Auth::Protocol(_) = auth {
        headers.push(("Sec-WebSocket-Protocol", "$TOKEN"));
    }
    let mut request = format!("{ws_base}{target}")
        .into_client_request()
        .map_err(|e| Failure::Fail(format!("{what}: {e}")))?;
    let header = |v: String| {
        tungstenite::http::HeaderValue::from_str(&v)
            .map_err(|e| Failure::NotRun(format!("{SET_UP_FAILED}: the token as a header: {e}")))
    };
    match auth {
        Auth::Bearer(t) => {
            request
                .headers_mut()
                .insert("authorization", header(format!("Bearer {t}"))?);
        }
        Auth::Protocol(t) => {
            request
                .headers_mut()
                .insert("sec-websocket-protocol", header(t.to_string())?);
        }
        Auth::None | Auth::Query(_) => {}
    }
    let connected = tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(request)).await;
    match connected {
        Ok(Ok((socket, _))) => {
            let opened = record(cx, &shown_url, auth, &headers, 101, "(a WebSocket)");
            Ok(Opened::Stream(Box::new(Stream {
                what,
                transport: Transport::Ws(Box::new(socket)),
                pending: VecDeque::new(),
                seen: Vec::new(),
                ended: None,
                opened,
            })))
        }
        Ok(Err(tungstenite::Error::Http(response))) => {
            let status = response.status().as_u16();
            let text = response
                .body()
                .as_deref()
                .map(|b| String::from_utf8_lossy(b).into_owned())
                .unwrap_or_default();
            record(cx, &shown_url, auth, &headers, status, &text);
            let json = serde_json::from_str(&text).ok();
            Ok(Opened::Refused(
                Response {
                    status,
                    headers: response.headers().clone(),
                    text,
                    json,
                },
                what,
            ))
        }
        Ok(Err(tungstenite::Error::Url(e))) => Err(Failure::NotRun(format!(
            "{SET_UP_FAILED}: the kit's WebSocket client cannot open {ws_base}: {e}"
        ))),
        Ok(Err(e)) => {
            record(cx, &shown_url, auth, &headers, 0, &e.to_string());
            Err(Failure::Fail(format!(
                "{what}: the WebSocket handshake failed: {e}"
            )))
        }
        Err(_) => {
            record(cx, &shown_url, auth, &headers, 0, "");
            Err(Failure::Fail(format!(
                "{what}: no answer within {} s",
                WAIT.as_secs()
            )))
        }
    }
}

// --- Set-up ------------------------------------------------------------------------------------

/// `reader` follows `author` (set-up).
async fn follow(cx: &Cx, reader: &User, author: &User) -> CheckResult {
    let rel = act::<FollowAccount>(cx, reader, author, &[])
        .await
        .setup("following (POST /api/v1/accounts/:id/follow)")?;
    if rel["following"] != true {
        return Err(Failure::NotRun(format!(
            "{SET_UP_FAILED}: following: the follow of an unlocked account did not take: {rel}"
        )));
    }
    Ok(())
}

/// Posts a status as `who` (set-up) and answers its id.
async fn post(cx: &Cx, who: &User, pairs: &[(&str, &str)]) -> Result<String, Failure> {
    str_of(&cx.post_status(who, pairs).await?, "id").setup("reading the new status's id")
}

/// Posts `text` as `who` with `visibility`; the new status's id.
async fn post_as(cx: &Cx, who: &User, text: &str, visibility: &str) -> Result<String, Failure> {
    post(cx, who, &[("status", text), ("visibility", visibility)]).await
}

/// Whether an event is the `update` of status `id`.
fn update_of(id: &str) -> impl Fn(&Event) -> bool + '_ {
    move |e| e.is("update", id)
}

/// A hashtag unique to this run (lower case, so that servers name its stream as given).
fn unique_tag(cx: &Cx, prefix: &str) -> String {
    cx.unique(prefix).replace('_', "")
}

// --- Checks ------------------------------------------------------------------------------------

async fn health(cx: &Cx) -> CheckResult {
    let r = cx.client.get(&path::<StreamingHealth>(&[]), None).await?;
    ensure!(
        r.status == 200,
        "GET /api/v1/streaming/health: HTTP {} {}",
        r.status,
        truncate(&r.text)
    );
    ensure!(
        r.text.trim() == "OK",
        "GET /api/v1/streaming/health answered {:?} (expected OK)",
        truncate(&r.text)
    );
    Ok(())
}

async fn user_no_token(cx: &Cx) -> CheckResult {
    match sse(cx, &path::<StreamUser>(&[]), Auth::None).await? {
        Opened::Stream(s) => Err(Failure::Fail(format!(
            "{} opened a stream (expected a 401)",
            s.what()
        ))),
        Opened::Refused(r, what) => expect_error(&r, 401, &what),
    }
}

async fn user_update(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("streader").await?;
    let author = cx.new_user("stauthor").await?;
    follow(cx, &reader, &author).await?;
    let mut s = open_sse(cx, &path::<StreamUser>(&[]), Auth::Bearer(&reader.token)).await?;
    let id = post(cx, &author, &[("status", "streamed to followers")]).await?;
    let e = s
        .expect(
            &format!("`update` of the followed account's status {id}"),
            WAIT,
            update_of(&id),
        )
        .await?;
    let status = e.json();
    ensure!(
        status["account"]["id"] == author.id.as_str()
            && status["content"]
                .as_str()
                .is_some_and(|c| c.contains("streamed to followers")),
        "the `update` data is not the status as posted: {}",
        truncate(&e.payload)
    );
    Ok(())
}

async fn user_notification(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("stmentioned").await?;
    let author = cx.new_user("stmentioner").await?;
    let mut s = open_sse(cx, &path::<StreamUser>(&[]), Auth::Bearer(&reader.token)).await?;
    let text = format!("@{} are you listening?", reader.username);
    let id = post(cx, &author, &[("status", text.as_str())]).await?;
    let e = s
        .expect(
            &format!("`notification` of the mention in status {id}"),
            WAIT,
            |e| e.event == "notification" && e.json()["status"]["id"] == id.as_str(),
        )
        .await?;
    let n = e.json();
    ensure!(
        n["type"] == "mention" && n["account"]["id"] == author.id.as_str(),
        "the notification is not a mention by its author: {}",
        truncate(&e.payload)
    );
    Ok(())
}

async fn user_delete(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("stdelreader").await?;
    let author = cx.new_user("stdelauthor").await?;
    follow(cx, &reader, &author).await?;
    let mut s = open_sse(cx, &path::<StreamUser>(&[]), Auth::Bearer(&reader.token)).await?;
    let id = post(cx, &author, &[("status", "soon gone")]).await?;
    s.expect(&format!("`update` of status {id}"), WAIT, update_of(&id))
        .await?;
    cx.client
        .delete(&path::<DeleteStatus>(&[("id", &id)]), Some(&author.token))
        .await?
        .expect(200)
        .setup("deleting the status (DELETE /api/v1/statuses/:id)")?;
    s.expect(&format!("`delete` event with data {id}"), WAIT, |e| {
        e.is("delete", &id)
    })
    .await?;
    Ok(())
}

async fn user_status_update(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("stedreader").await?;
    let author = cx.new_user("stedauthor").await?;
    follow(cx, &reader, &author).await?;
    let mut s = open_sse(cx, &path::<StreamUser>(&[]), Auth::Bearer(&reader.token)).await?;
    let id = post(cx, &author, &[("status", "first draft")]).await?;
    s.expect(&format!("`update` of status {id}"), WAIT, update_of(&id))
        .await?;
    cx.send(
        "PUT",
        &path::<EditStatus>(&[("id", &id)]),
        Some(&author.token),
        form(&[("status", "second draft")]),
    )
    .await?
    .expect(200)
    .setup("editing the status (PUT /api/v1/statuses/:id)")?;
    let e = s
        .expect(&format!("`status.update` of status {id}"), WAIT, |e| {
            e.is("status.update", &id)
        })
        .await?;
    ensure!(
        e.json()["content"]
            .as_str()
            .is_some_and(|c| c.contains("second draft")),
        "the `status.update` data is not the edited status: {}",
        truncate(&e.payload)
    );
    Ok(())
}

async fn user_filters_changed(cx: &Cx) -> CheckResult {
    let user = cx.new_user("stfilters").await?;
    let mut s = open_sse(cx, &path::<StreamUser>(&[]), Auth::Bearer(&user.token)).await?;
    cx.client
        .post(
            &path::<CreateFilter>(&[]),
            Some(&user.token),
            form(&[
                ("title", "streamed"),
                ("context[]", "home"),
                ("filter_action", "warn"),
                ("keywords_attributes[][keyword]", "spoilers"),
            ]),
        )
        .await?
        .expect(200)
        .setup("creating a filter (POST /api/v2/filters)")?;
    s.expect("`filters_changed` event", WAIT, |e| {
        e.event == "filters_changed"
    })
    .await?;
    Ok(())
}

async fn user_access_token_param(cx: &Cx) -> CheckResult {
    let user = cx.new_user("stparam").await?;
    let mut s = open_sse(cx, &path::<StreamUser>(&[]), Auth::Query(&user.token)).await?;
    let id = post(cx, &user, &[("status", "my own, streamed")]).await?;
    s.expect(
        &format!("`update` of the account's own status {id}"),
        WAIT,
        update_of(&id),
    )
    .await?;
    Ok(())
}

async fn notifications_only(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("stnotifonly").await?;
    let author = cx.new_user("stnotifauth").await?;
    follow(cx, &reader, &author).await?;
    let mut s = open_sse(
        cx,
        &path::<StreamUserNotification>(&[]),
        Auth::Bearer(&reader.token),
    )
    .await?;
    let plain = post(cx, &author, &[("status", "for the home feed")]).await?;
    let text = format!("@{} for the notifications", reader.username);
    let mention = post(cx, &author, &[("status", text.as_str())]).await?;
    s.expect(
        &format!("`notification` of the mention in status {mention}"),
        WAIT,
        |e| e.event == "notification" && e.json()["status"]["id"] == mention.as_str(),
    )
    .await?;
    s.never(
        &format!("an `update` (of {plain} or another status)"),
        |e| e.event == "update",
    )
}

async fn public_local(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("stlocalreader").await?;
    let author = cx.new_user("stlocalauthor").await?;
    let mut s = open_sse(
        cx,
        &path::<StreamPublicLocal>(&[]),
        Auth::Bearer(&reader.token),
    )
    .await?;
    let unlisted = post_as(cx, &author, "quietly local", "unlisted").await?;
    let public = post_as(cx, &author, "loudly local", "public").await?;
    s.update_without(
        ("the public status ", &public),
        ("the unlisted status ", &unlisted),
    )
    .await
}

async fn hashtag(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("sttagreader").await?;
    let author = cx.new_user("sttagauthor").await?;
    let tag = unique_tag(cx, "sttag");
    let url = format!("{}?{}", path::<StreamHashtag>(&[]), query(&[("tag", &tag)]));
    let mut s = open_sse(cx, &url, Auth::Bearer(&reader.token)).await?;
    let untagged = post(cx, &author, &[("status", "no tag here")]).await?;
    let text = format!("tagged #{tag}");
    let tagged = post(cx, &author, &[("status", text.as_str())]).await?;
    s.update_without(
        ("the tagged status ", &tagged),
        ("the untagged status ", &untagged),
    )
    .await
}

async fn hashtag_local(cx: &Cx) -> CheckResult {
    let reader = cx.new_user("stltagreader").await?;
    let author = cx.new_user("stltagauthor").await?;
    let tag = unique_tag(cx, "stltag");
    let url = format!(
        "{}?{}",
        path::<StreamHashtagLocal>(&[]),
        query(&[("tag", &tag)])
    );
    let mut s = open_sse(cx, &url, Auth::Bearer(&reader.token)).await?;
    let text = format!("locally tagged #{tag}");
    let tagged = post(cx, &author, &[("status", text.as_str())]).await?;
    s.expect(
        &format!("`update` of the tagged status {tagged}"),
        WAIT,
        update_of(&tagged),
    )
    .await?;
    Ok(())
}

async fn list_stream(cx: &Cx) -> CheckResult {
    let owner = cx.new_user("stlistowner").await?;
    let member = cx.new_user("stlistmember").await?;
    follow(cx, &owner, &member).await?;
    let list = make_list(cx, &owner, &member).await?;
    let url = format!("{}?{}", path::<StreamList>(&[]), query(&[("list", &list)]));
    let mut s = open_sse(cx, &url, Auth::Bearer(&owner.token)).await?;
    let id = post(cx, &member, &[("status", "for my listeners")]).await?;
    s.expect(
        &format!("`update` of the member's status {id}"),
        WAIT,
        update_of(&id),
    )
    .await?;
    Ok(())
}

/// Makes a list of `owner`'s holding `member` (set-up) and answers its id.
async fn make_list(cx: &Cx, owner: &User, member: &User) -> Result<String, Failure> {
    async {
        let r = cx
            .client
            .post(
                &path::<CreateList>(&[]),
                Some(&owner.token),
                form(&[("title", "streamed")]),
            )
            .await?;
        r.expect(200)?;
        let id = str_of(r.json()?, "id")?;
        cx.client
            .post(
                &path::<AddListAccounts>(&[("id", &id)]),
                Some(&owner.token),
                form(&[("account_ids[]", member.id.as_str())]),
            )
            .await?
            .expect(200)?;
        Ok::<_, Failure>(id)
    }
    .await
    .setup("making a list holding the member (POST /api/v1/lists, /lists/:id/accounts)")
}

async fn direct_conversation(cx: &Cx) -> CheckResult {
    let recipient = cx.new_user("stdmto").await?;
    let sender = cx.new_user("stdmfrom").await?;
    // Following the sender lets its private mentions through the default notification policy.
    follow(cx, &recipient, &sender).await?;
    let mut s = open_sse(
        cx,
        &path::<StreamDirect>(&[]),
        Auth::Bearer(&recipient.token),
    )
    .await?;
    let text = format!("@{} just between us", recipient.username);
    let id = post(
        cx,
        &sender,
        &[("status", text.as_str()), ("visibility", "direct")],
    )
    .await?;
    let e = s
        .expect(
            &format!("`conversation` whose last_status is {id}"),
            WAIT,
            |e| e.event == "conversation" && e.json()["last_status"]["id"] == id.as_str(),
        )
        .await?;
    let c = e.json();
    ensure!(
        c["accounts"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x["id"] == sender.id.as_str())),
        "the conversation does not name the sender {}: {}",
        sender.id,
        truncate(&e.payload)
    );
    Ok(())
}

async fn private_not_leaked(cx: &Cx) -> CheckResult {
    let author = cx.new_user("stprivauthor").await?;
    let follower = cx.new_user("stprivfollower").await?;
    let stranger = cx.new_user("stprivstranger").await?;
    follow(cx, &follower, &author).await?;
    let mut followers =
        open_sse(cx, &path::<StreamUser>(&[]), Auth::Bearer(&follower.token)).await?;
    let mut strangers =
        open_sse(cx, &path::<StreamUser>(&[]), Auth::Bearer(&stranger.token)).await?;
    let mut public = open_sse(
        cx,
        &path::<StreamPublic>(&[]),
        Auth::Bearer(&stranger.token),
    )
    .await?;
    let mut local = open_sse(
        cx,
        &path::<StreamPublicLocal>(&[]),
        Auth::Bearer(&stranger.token),
    )
    .await?;
    let private = post_as(cx, &author, "for followers only", "private").await?;
    // The sentinel: the public streams carry it after the private status, had they carried that.
    let sentinel = post_as(cx, &author, "for everyone", "public").await?;
    followers
        .expect(
            &format!("`update` of the private status {private} (the follower may see it)"),
            WAIT,
            update_of(&private),
        )
        .await?;
    let leak = format!("the private status {private} (LEAK)");
    for s in [&mut public, &mut local] {
        s.expect(
            &format!("`update` of the public status {sentinel} posted after the private one"),
            WAIT,
            update_of(&sentinel),
        )
        .await?;
        s.never(&leak, update_of(&private))?;
    }
    strangers.drain_until(Instant::now() + QUIET).await;
    strangers.never(&leak, |e| {
        e.is("update", &private) || e.json()["status"]["id"] == private.as_str()
    })
}

/// The `update` messages of status `id` on a socket, by stream, until `want` streams have
/// carried it or the wait is over.
async fn updates_by_stream(s: &mut Stream, id: &str, want: usize) -> Vec<Event> {
    let until = Instant::now() + WAIT;
    let mut got = Vec::new();
    while got.len() < want {
        match s.next(until).await {
            Some(e) if e.is("update", id) => got.push(e),
            Some(_) => {}
            None => break,
        }
    }
    got
}

async fn websocket_several(cx: &Cx) -> CheckResult {
    let user = cx.new_user("stwsseveral").await?;
    let tag = unique_tag(cx, "stws");
    let mut s = websocket(cx, "stream=user", Auth::Bearer(&user.token))
        .await?
        .stream()?;
    s.send(json!({"type": "subscribe", "stream": "public:local"}))
        .await?;
    s.send(json!({"type": "subscribe", "stream": "hashtag", "tag": tag}))
        .await?;
    s.settle().await?;
    let text = format!("on three streams #{tag}");
    let id = post(cx, &user, &[("status", text.as_str())]).await?;
    let got = updates_by_stream(&mut s, &id, 3).await;
    let mut streams: Vec<String> = got.iter().map(|e| e.stream().to_string()).collect();
    streams.sort();
    let mut want: Vec<String> = [
        json!(["hashtag", tag]),
        json!(["public:local"]),
        json!(["user"]),
    ]
    .iter()
    .map(Value::to_string)
    .collect();
    want.sort();
    if streams != want {
        s.blame();
    }
    ensure!(
        streams == want,
        "the `update` of status {id} came on the streams {streams:?} (expected once on each of {want:?}); {}",
        s.received()
    );
    for e in &got {
        let frame = e.frame.as_ref().unwrap_or(&Value::Null);
        if !frame["payload"].is_string() {
            s.blame();
        }
        ensure!(
            frame["payload"].is_string() && e.json()["id"] == id.as_str(),
            "the message on {} does not carry the status as a JSON string payload: {}",
            e.stream(),
            truncate(&frame.to_string())
        );
    }
    Ok(())
}

async fn websocket_subscribe_unsubscribe(cx: &Cx) -> CheckResult {
    let user = cx.new_user("stwssub").await?;
    let (dropped, kept) = (unique_tag(cx, "stwsa"), unique_tag(cx, "stwsb"));
    let mut s = websocket(cx, "", Auth::Bearer(&user.token))
        .await?
        .stream()?;
    for tag in [&dropped, &kept] {
        s.send(json!({"type": "subscribe", "stream": "hashtag", "tag": tag}))
            .await?;
    }
    s.settle().await?;
    let text = format!("while subscribed #{dropped}");
    let first = post(cx, &user, &[("status", text.as_str())]).await?;
    s.expect(
        &format!("`update` of status {first} on the subscribed hashtag stream"),
        WAIT,
        update_of(&first),
    )
    .await?;
    s.send(json!({"type": "unsubscribe", "stream": "hashtag", "tag": dropped}))
        .await?;
    s.settle().await?;
    let text = format!("after unsubscribing #{dropped}");
    let second = post(cx, &user, &[("status", text.as_str())]).await?;
    // The sentinel, on the stream still subscribed.
    let text = format!("still subscribed #{kept}");
    let sentinel = post(cx, &user, &[("status", text.as_str())]).await?;
    s.expect(
        &format!("`update` of status {sentinel} on the hashtag stream still subscribed"),
        WAIT,
        update_of(&sentinel),
    )
    .await?;
    s.never(
        &format!("status {second} of #{dropped} after unsubscribing from it"),
        update_of(&second),
    )
}

/// The `status` of the next error message on a socket, which must come within the wait and
/// carry an error text.
async fn error_status(s: &mut Stream) -> Result<Value, Failure> {
    let e = s
        .expect(
            "error message {\"error\": ..., \"status\": ...}",
            WAIT,
            |e| e.event == "error",
        )
        .await?;
    let frame = e.frame.unwrap_or(Value::Null);
    ensure!(
        frame["error"].as_str().is_some_and(|t| !t.is_empty()),
        "the error message has no error text: {frame}"
    );
    Ok(frame["status"].clone())
}

async fn websocket_others_list(cx: &Cx) -> CheckResult {
    let owner = cx.new_user("stwslistowner").await?;
    let member = cx.new_user("stwslistmember").await?;
    let other = cx.new_user("stwslistother").await?;
    follow(cx, &owner, &member).await?;
    let list = make_list(cx, &owner, &member).await?;
    let mut s = websocket(cx, "", Auth::Bearer(&other.token))
        .await?
        .stream()?;
    s.send(json!({"type": "subscribe", "stream": "list", "list": list}))
        .await?;
    let status = error_status(&mut s).await?;
    ensure!(
        status == 404,
        "subscribing to another account's list answered the status {status} (expected 404)"
    );
    // Nor may it listen in: the list's posts do not come.
    let id = post(cx, &member, &[("status", "for the list's owner")]).await?;
    s.drain_until(Instant::now() + QUIET).await;
    s.never(
        &format!("status {id} of another account's list (LEAK)"),
        update_of(&id),
    )
}

async fn websocket_user_no_token(cx: &Cx) -> CheckResult {
    let mut s = match websocket(cx, "", Auth::None).await? {
        Opened::Stream(s) => *s,
        // A server may take no anonymous socket at all.
        Opened::Refused(r, what) => return expect_error(&r, 401, &what),
    };
    s.send(json!({"type": "subscribe", "stream": "user"}))
        .await?;
    let status = error_status(&mut s).await?;
    ensure!(
        status == 401,
        "subscribing to the user stream without a token answered the status {status} (expected 401)"
    );
    Ok(())
}

async fn websocket_token_protocol(cx: &Cx) -> CheckResult {
    let user = cx.new_user("stwsproto").await?;
    let mut s = websocket(cx, "stream=user", Auth::Protocol(&user.token))
        .await?
        .stream()?;
    let id = post(cx, &user, &[("status", "through the subprotocol")]).await?;
    let e = s
        .expect(
            &format!("`update` of the account's own status {id}"),
            WAIT,
            update_of(&id),
        )
        .await?;
    if *e.stream() != json!(["user"]) {
        s.blame();
    }
    ensure!(
        *e.stream() == json!(["user"]),
        "the `update` came on the stream {} (expected [\"user\"])",
        e.stream()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_sent_events_parse_as_clients_read_them() {
        let mut buf = b":connected\n\nevent: update\ndata: {\"id\":\"1\"}\n\n:thump\n\nevent:delete\ndata:7\n\nevent: filters_changed\ndata: \n\nevent: upd".to_vec();
        let mut out = VecDeque::new();
        parse_sse(&mut buf, &mut out);
        let got: Vec<(String, String)> = out
            .iter()
            .map(|e| (e.event.clone(), e.payload.clone()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("update".into(), "{\"id\":\"1\"}".into()),
                ("delete".into(), "7".into()),
                ("filters_changed".into(), String::new()),
            ]
        );
        assert!(out[0].is("update", "1") && out[1].is("delete", "7"));
        // An event cut off stays until the rest comes.
        assert_eq!(buf, b"event: upd");
        buf.extend_from_slice(b"ate\ndata: {\"id\":\"2\"}\n\n");
        parse_sse(&mut buf, &mut out);
        assert!(out[3].is("update", "2") && buf.is_empty());
    }

    #[test]
    fn websocket_messages_parse_with_their_stream_and_errors() {
        let e = ws_event(
            r#"{"stream":["hashtag","rust"],"event":"update","payload":"{\"id\":\"5\"}"}"#,
        );
        assert!(e.is("update", "5"));
        assert_eq!(*e.stream(), json!(["hashtag", "rust"]));
        assert_eq!(e.describe(), "update 5 on [\"hashtag\",\"rust\"]");
        let err = ws_event(r#"{"error":"Record not found","status":404}"#);
        assert_eq!(err.event, "error");
        assert_eq!(err.frame.unwrap()["status"], 404);
        assert_eq!(ws_event("nonsense").event, "(not JSON)");
    }

    #[test]
    fn a_token_in_the_query_is_never_reported() {
        let user = <StreamUser as fedblog_core::api::Endpoint>::PATH;
        let (url, shown) = Auth::Query("s3cret+/").url(user);
        assert_eq!(url, format!("{user}?access_token=s3cret%2B%2F"));
        assert_eq!(shown, format!("{user}?access_token=$TOKEN"));
        let tag = format!(
            "{}?tag=x",
            <StreamHashtag as fedblog_core::api::Endpoint>::PATH
        );
        let (url, _) = Auth::Query("t").url(&tag);
        assert_eq!(url, format!("{tag}&access_token=t"));
        let (url, shown) = Auth::Bearer("t").url("/x");
        assert_eq!((url.as_str(), shown.as_str()), ("/x", "/x"));
    }
}
