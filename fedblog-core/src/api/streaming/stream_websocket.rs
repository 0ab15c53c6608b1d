//! `GET /api/v1/streaming` (a WebSocket): several streams on one socket, chosen with `stream`
//! at connection and `subscribe` / `unsubscribe` messages after.
//! <https://docs.joinmastodon.org/methods/streaming/#websocket>
//!
//! The token may come in the `Authorization` header, the `access_token` parameter or the
//! `Sec-WebSocket-Protocol` header (the transport reads that one). Requested without an upgrade,
//! the same streams are sent as server-sent events.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Streamed};
use crate::error::ApiResult;
use crate::params::de;

use super::{channel, open};

/// A WebSocket carrying the streams its client subscribes to.
pub struct StreamWebSocket;

/// Parameters: an optional first stream.
#[derive(Debug, Deserialize)]
pub struct WebSocketRequest {
    /// A stream to subscribe to at once (`user`, `public:local`, `hashtag`, ...).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub stream: Option<String>,
    /// The tag of a `hashtag` stream.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub tag: Option<String>,
    /// The list of a `list` stream.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub list: Option<String>,
}

impl Endpoint for StreamWebSocket {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/streaming";
    // Scopes are checked per stream: the public ones need none.
    const AUTH: Auth = Auth::Optional("");
    type Request = WebSocketRequest;
    type Response = Streamed;

    async fn handle(app: &App, caller: &Caller, r: WebSocketRequest) -> ApiResult<Streamed> {
        let channels = match r.stream.as_deref() {
            Some(name) => vec![channel(name, r.tag.as_deref(), r.list.as_deref())?],
            None => vec![],
        };
        open(app, caller, channels).await
    }
}
