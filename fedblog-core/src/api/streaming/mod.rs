//! Streaming: live events over server-sent events (one endpoint per stream) and a WebSocket
//! (several streams on one socket). <https://docs.joinmastodon.org/methods/streaming/>
//!
//! Every endpoint opens a connection of the app's [`StreamHub`](crate::streaming::StreamHub)
//! through [`open`]; the stream runner fills it with the events its listener may see, and the
//! transport sends them (as server-sent events, or over the WebSocket when the request was an
//! upgrade).

pub mod health;
pub mod stream_direct;
pub mod stream_hashtag;
pub mod stream_hashtag_local;
pub mod stream_list;
pub mod stream_public;
pub mod stream_public_local;
pub mod stream_public_remote;
pub mod stream_user;
pub mod stream_user_notification;
pub mod stream_websocket;

use std::sync::Arc;

use http::StatusCode;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{MessageSource, StreamBody, StreamMessage, Streamed};
use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::services::streaming::check_channel;
use crate::store::Store;
use crate::streaming::{Channel, ChannelError, ConnectError, Connection, Grants, Outgoing};

/// The `only_media` parameter of the public streams.
#[derive(Debug, Default, Deserialize)]
pub struct MediaRequest {
    /// Statuses with media only (the `:media` variant of the stream).
    #[serde(default, deserialize_with = "de::bool")]
    pub only_media: bool,
}

/// The `tag` parameter of the hashtag streams.
#[derive(Debug, Deserialize)]
pub struct TagRequest {
    /// The hashtag, with or without `#`.
    pub tag: Option<String>,
}

/// No parameters.
#[derive(Debug, Deserialize)]
pub struct NoRequest {}

/// The channel Mastodon names `name` with these parameters, or a 400 saying what is wrong.
pub(crate) fn channel(name: &str, tag: Option<&str>, list: Option<&str>) -> ApiResult<Channel> {
    Channel::parse(name, tag, list).map_err(|e| ApiError::bad_request(e.to_string()))
}

/// What the caller's token lets it read (nothing without a token).
fn grants(caller: &Caller) -> Grants {
    caller
        .token
        .as_ref()
        .map(|t| Grants::of(&t.scopes))
        .unwrap_or_default()
}

/// Opens a stream for the caller listening to `channels`, each checked first: 401 without a
/// token where one is needed, 403 outside the token's scopes, 404 for another account's list,
/// 429 when the token holds as many streams as it may.
pub(crate) async fn open(
    app: &App,
    caller: &Caller,
    channels: Vec<Channel>,
) -> ApiResult<Streamed> {
    let grants = grants(caller);
    let area = app.streaming();
    for c in &channels {
        area.check_channel(caller.account.as_ref(), grants, c)
            .await?;
    }
    let connection = app
        .streams
        .connect(
            caller.account.clone(),
            caller.token.as_ref().map(|t| t.id),
            grants,
            channels,
        )
        .map_err(|e| match e {
            ConnectError::TooManyConnections => ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "Too many streaming connections for this access token",
            ),
            ConnectError::ShuttingDown => ApiError::unavailable(),
        })?;
    Ok(Streamed(StreamBody::new(HubSource {
        connection,
        lists: app.store.clone(),
        public_needs_token: app.config.streaming.public_needs_token,
    })))
}

/// A streaming reply's source: the messages of one hub connection, and a WebSocket client's
/// `subscribe` and `unsubscribe` requests.
struct HubSource {
    connection: Connection,
    /// Where the lists a client subscribes to are checked.
    lists: Arc<dyn Store>,
    public_needs_token: bool,
}

/// A WebSocket client's request: `{"type": "subscribe", "stream": "hashtag", "tag": "rust"}`.
#[derive(Debug, Deserialize)]
struct ClientRequest {
    #[serde(rename = "type")]
    kind: String,
    stream: String,
    tag: Option<String>,
    #[serde(default, deserialize_with = "de::opt_string")]
    list: Option<String>,
}

impl HubSource {
    /// Carries out a client's request; the error to send back when it fails.
    async fn handle(&self, text: &str) -> Result<(), (u16, String)> {
        let bad = |m: String| (400, m);
        let request: ClientRequest =
            serde_json::from_str(text).map_err(|_| bad("Could not parse the message".into()))?;
        let channel = Channel::parse(
            &request.stream,
            request.tag.as_deref(),
            request.list.as_deref(),
        )
        .map_err(|e: ChannelError| bad(e.to_string()))?;
        match request.kind.as_str() {
            "subscribe" => {
                let l = self.connection.listener();
                check_channel(
                    &*self.lists,
                    self.public_needs_token,
                    l.viewer(),
                    l.grants(),
                    &channel,
                )
                .await
                .map_err(|e| (e.status.as_u16(), e.message))?;
                l.subscribe(channel);
                Ok(())
            }
            "unsubscribe" => {
                self.connection.unsubscribe(&channel);
                Ok(())
            }
            other => Err(bad(format!("Unknown message type {other:?}"))),
        }
    }
}

#[async_trait::async_trait]
impl MessageSource for HubSource {
    async fn next(&mut self) -> Option<StreamMessage> {
        Some(match self.connection.recv().await? {
            Outgoing::Event {
                stream,
                event,
                payload,
            } => StreamMessage {
                stream,
                event,
                payload,
            },
            Outgoing::Error { status, error } => StreamMessage::error(status, &error),
        })
    }

    async fn received(&mut self, text: &str) {
        if let Err((status, error)) = self.handle(text).await {
            self.connection.send(Outgoing::Error { status, error });
        }
    }
}
