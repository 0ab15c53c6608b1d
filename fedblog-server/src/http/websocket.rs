//! A streaming reply over a WebSocket: each message one text frame as Mastodon sends it, the
//! client's text frames (`subscribe`, `unsubscribe`) handed to the source, a ping while idle.
//!
//! The upgrade is ours rather than warp's, so that each socket's buffers can be sized: with
//! tungstenite's default 128 KiB read buffer, 10,000 idle clients would hold 1.3 GB.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use fedblog_core::api::MessageSource;
use futures_util::{SinkExt, StreamExt};
use http::{HeaderValue, Method, Response, StatusCode};
use hyper::upgrade::OnUpgrade;
use hyper_util::rt::TokioIo;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};

use super::reply::HttpResponse;

/// How long a socket stays silent before a ping is sent (proxies close idle connections).
pub const PING_INTERVAL: Duration = Duration::from_secs(15);

/// The longest a frame may wait for the client to take it; a client that reads nothing for
/// this long is disconnected.
const SEND_TIMEOUT: Duration = Duration::from_secs(30);

/// Largest message a client may send (subscription requests are tiny).
const MAX_CLIENT_MESSAGE: usize = 64 * 1024;

/// What a socket reads at once: clients send little, and an idle socket keeps this much.
const READ_BUFFER: usize = 4 * 1024;

/// A WebSocket upgrade request, taken from the request before routing (see
/// [`WsUpgrade::from_request`]); answering it with [`upgrade`] switches protocols.
#[derive(Clone)]
pub struct WsUpgrade {
    on_upgrade: Arc<Mutex<Option<OnUpgrade>>>,
    accept: String,
}

impl WsUpgrade {
    /// The upgrade `request` asks for, if it is a WebSocket handshake (`GET`, `Upgrade:
    /// websocket`, `Connection: upgrade`, version 13, a key).
    pub fn from_request<B>(request: &mut http::Request<B>) -> Option<WsUpgrade> {
        let headers = request.headers();
        let has = |name: &str, token: &str| {
            headers.get_all(name).iter().any(|v| {
                v.to_str().is_ok_and(|v| {
                    v.split(',')
                        .any(|part| part.trim().eq_ignore_ascii_case(token))
                })
            })
        };
        let is_handshake = request.method() == Method::GET
            && has("upgrade", "websocket")
            && has("connection", "upgrade")
            && has("sec-websocket-version", "13");
        let key = headers.get("sec-websocket-key")?;
        if !is_handshake {
            return None;
        }
        let accept = derive_accept_key(key.as_bytes());
        let on_upgrade = hyper::upgrade::on(request);
        Some(WsUpgrade {
            on_upgrade: Arc::new(Mutex::new(Some(on_upgrade))),
            accept,
        })
    }
}

/// Switches protocols and serves `source` on the socket, echoing the subprotocol the client
/// offered (web clients send their token as one, and a browser refuses a socket whose answer
/// does not name it).
pub fn upgrade(
    ws: WsUpgrade,
    source: Box<dyn MessageSource>,
    protocol: Option<String>,
) -> HttpResponse {
    let taken = ws
        .on_upgrade
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    let Some(on_upgrade) = taken else {
        tracing::error!("a WebSocket upgrade was answered twice");
        let mut r = Response::new(bytes::Bytes::new().into());
        *r.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
        return r;
    };
    tokio::spawn(async move {
        match on_upgrade.await {
            Ok(upgraded) => {
                let config = WebSocketConfig::default()
                    .read_buffer_size(READ_BUFFER)
                    .write_buffer_size(0)
                    .max_message_size(Some(MAX_CLIENT_MESSAGE))
                    .max_frame_size(Some(MAX_CLIENT_MESSAGE));
                let socket = WebSocketStream::from_raw_socket(
                    TokioIo::new(upgraded),
                    Role::Server,
                    Some(config),
                )
                .await;
                serve(socket, source).await;
            }
            Err(error) => tracing::debug!(%error, "a WebSocket upgrade failed"),
        }
    });
    let mut response = Response::new(bytes::Bytes::new().into());
    *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let h = response.headers_mut();
    h.insert("upgrade", HeaderValue::from_static("websocket"));
    h.insert("connection", HeaderValue::from_static("upgrade"));
    if let Ok(accept) = HeaderValue::from_str(&ws.accept) {
        h.insert("sec-websocket-accept", accept);
    }
    if let Some(value) = protocol.and_then(|p| HeaderValue::from_str(&p).ok()) {
        h.insert("sec-websocket-protocol", value);
    }
    response
}

/// Sends the source's messages and hands it the client's, until either side ends.
async fn serve<S>(socket: WebSocketStream<S>, mut source: Box<dyn MessageSource>)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let (mut tx, mut rx) = socket.split();
    let mut ping = tokio::time::interval(PING_INTERVAL);
    ping.reset();
    loop {
        tokio::select! {
            message = source.next() => {
                let Some(message) = message else { break };
                let frame = Message::text(message.websocket_text());
                match tokio::time::timeout(SEND_TIMEOUT, tx.send(frame)).await {
                    Ok(Ok(())) => ping.reset(),
                    _ => break,
                }
            }
            incoming = rx.next() => match incoming {
                Some(Ok(Message::Text(text))) => source.received(text.as_str()).await,
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                // Pings are answered by the library; pongs and binary frames mean nothing here.
                Some(Ok(_)) => {}
            },
            _ = ping.tick() => {
                let sent = tokio::time::timeout(SEND_TIMEOUT, tx.send(Message::Ping(Default::default()))).await;
                if !matches!(sent, Ok(Ok(()))) {
                    break;
                }
            }
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(1), tx.send(Message::Close(None))).await;
}
