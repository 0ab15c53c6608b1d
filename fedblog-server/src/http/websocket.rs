//! A streaming reply over a WebSocket: each message one text frame as Mastodon sends it, the
//! client's text frames (`subscribe`, `unsubscribe`) handed to the source, a ping while idle.

use std::time::Duration;

use fedblog_core::api::MessageSource;
use futures_util::{SinkExt, StreamExt};
use http::HeaderValue;
use warp::Reply as _;
use warp::ws::{Message, WebSocket, Ws};

use super::reply::HttpResponse;

/// How long a socket stays silent before a ping is sent (proxies close idle connections).
pub const PING_INTERVAL: Duration = Duration::from_secs(15);

/// The longest a frame may wait for the client to take it; a client that reads nothing for
/// this long is disconnected.
const SEND_TIMEOUT: Duration = Duration::from_secs(30);

/// Largest frame a client may send (subscription requests are tiny).
const MAX_CLIENT_MESSAGE: usize = 64 * 1024;

/// Accepts the upgrade and serves `source` on the socket, echoing the subprotocol the client
/// offered (web clients send their token as one, and a browser refuses a socket whose answer
/// does not name it).
pub fn upgrade(ws: Ws, source: Box<dyn MessageSource>, protocol: Option<String>) -> HttpResponse {
    let mut response = ws
        .max_message_size(MAX_CLIENT_MESSAGE)
        .on_upgrade(move |socket| serve(socket, source))
        .into_response();
    if let Some(value) = protocol.and_then(|p| HeaderValue::from_str(&p).ok()) {
        response
            .headers_mut()
            .insert("sec-websocket-protocol", value);
    }
    response
}

/// Sends the source's messages and hands it the client's, until either side ends.
async fn serve(socket: WebSocket, mut source: Box<dyn MessageSource>) {
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
                Some(Ok(frame)) if frame.is_text() => {
                    if let Ok(text) = frame.to_str() {
                        source.received(text).await;
                    }
                }
                Some(Ok(frame)) if frame.is_close() => break,
                // Pings are answered by the library; pongs and binary frames mean nothing here.
                Some(Ok(_)) => {}
                Some(Err(_)) | None => break,
            },
            _ = ping.tick() => {
                let sent = tokio::time::timeout(SEND_TIMEOUT, tx.send(Message::ping(Vec::new()))).await;
                if !matches!(sent, Ok(Ok(()))) {
                    break;
                }
            }
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(1), tx.send(Message::close())).await;
}
