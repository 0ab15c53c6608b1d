//! Streaming through real HTTP: server-sent events framed as clients parse them, a WebSocket
//! carrying several streams with the token as its subprotocol, the per-token cap, and streams
//! closed when their token is revoked, their account deleted or the server stops.

mod common;

use std::time::Duration;

use fedblog_core::api::Endpoint;
use fedblog_core::api::accounts::follow_account::FollowAccount;
use fedblog_core::api::fill_path;
use fedblog_core::api::oauth::revoke_token::RevokeToken;
use fedblog_core::api::statuses::create_status::CreateStatus;
use fedblog_core::api::streaming::{
    health::StreamingHealth, stream_public_local::StreamPublicLocal, stream_user::StreamUser,
    stream_websocket::StreamWebSocket,
};
use fedblog_testkit::client::form;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use common::TestServer;

const WAIT: Duration = Duration::from_secs(5);

/// An open server-sent-events answer, read a chunk at a time.
struct Sse {
    response: reqwest::Response,
    text: String,
}

impl Sse {
    async fn open(base: &str, path: &str, token: Option<&str>) -> reqwest::Response {
        let mut request = reqwest::Client::new().get(format!("{base}{path}"));
        if let Some(t) = token {
            request = request.bearer_auth(t);
        }
        request.send().await.expect("stream request")
    }

    async fn connect(base: &str, path: &str, token: Option<&str>) -> Sse {
        let response = Sse::open(base, path, token).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(
            response.headers()["content-type"].to_str().unwrap(),
            "text/event-stream"
        );
        Sse {
            response,
            text: String::new(),
        }
    }

    /// Reads until the text holds `needle`; the text read so far.
    async fn until(&mut self, needle: &str) -> &str {
        let found = tokio::time::timeout(WAIT, async {
            while !self.text.contains(needle) {
                match self.response.chunk().await {
                    Ok(Some(chunk)) => self.text.push_str(&String::from_utf8_lossy(&chunk)),
                    _ => return false,
                }
            }
            true
        })
        .await;
        assert!(
            matches!(found, Ok(true)),
            "no {needle:?} in the stream; got {:?}",
            self.text
        );
        &self.text
    }

    /// The whole frame that begins with `start` (up to its blank line).
    async fn frame(&mut self, start: &str) -> String {
        self.until(start).await;
        let at = self.text.find(start).unwrap();
        while !self.text[at..].contains("\n\n") {
            let chunk = tokio::time::timeout(WAIT, self.response.chunk()).await;
            let Ok(Ok(Some(chunk))) = chunk else {
                panic!("the frame {start:?} did not end: {:?}", &self.text[at..])
            };
            self.text.push_str(&String::from_utf8_lossy(&chunk));
        }
        let frame = &self.text[at..];
        frame[..frame.find("\n\n").unwrap()].to_string()
    }

    /// Whether the answer ends within the wait.
    async fn ends(&mut self) -> bool {
        let ended = tokio::time::timeout(WAIT, async {
            loop {
                match self.response.chunk().await {
                    Ok(Some(chunk)) => self.text.push_str(&String::from_utf8_lossy(&chunk)),
                    _ => return,
                }
            }
        })
        .await;
        ended.is_ok()
    }
}

async fn post(server: &TestServer, token: &str, text: &str) -> String {
    let r = server
        .client
        .post(CreateStatus::PATH, Some(token), form(&[("status", text)]))
        .await
        .unwrap();
    r.json().unwrap()["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn server_sent_events_carry_the_event_and_data_as_clients_parse_them() {
    let server = TestServer::start().await;
    let base = server.running.base_url();
    let health = reqwest::get(format!("{base}{}", StreamingHealth::PATH))
        .await
        .unwrap();
    assert_eq!(health.status(), 200);
    assert!(
        health.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    assert_eq!(health.text().await.unwrap(), "OK");

    let (alice, alice_token) = server.user("alice").await;
    let (_, bob_token) = server.user("bob").await;
    server
        .client
        .post(
            &fill_path(FollowAccount::PATH, &[("id", &alice)]),
            Some(&bob_token),
            form(&[("reblogs", "true")]),
        )
        .await
        .unwrap()
        .expect(200)
        .unwrap();
    let mut home = Sse::connect(&base, StreamUser::PATH, Some(&bob_token)).await;
    let mut local = Sse::connect(&base, StreamPublicLocal::PATH, None).await;
    let id = post(&server, &alice_token, "hello @bob").await;

    let mention = format!(
        "<p>hello <span class=\"h-card\" translate=\"no\"><a href=\"{base}/@bob\" \
         class=\"u-url mention\">@<span>bob</span></a></span></p>"
    );
    for stream in [&mut home, &mut local] {
        // `event: ` and `data: ` with a space: Mastodon.py splits each line on ": ".
        let start = format!("event: update\ndata: {{\"id\":\"{id}\"");
        let frame = stream.frame(&start).await;
        let data = frame
            .lines()
            .nth(1)
            .and_then(|l| l.strip_prefix("data: "))
            .expect("a data line");
        let status: Value = serde_json::from_str(data).expect("the status as JSON");
        assert_eq!(status["content"], mention.as_str());
    }
    home.until("event: notification\ndata: {").await;

    // Without a token, the user stream is a 401 with a Mastodon error body.
    let r = Sse::open(&base, StreamUser::PATH, None).await;
    assert_eq!(r.status(), 401);
    assert!(r.json::<Value>().await.unwrap()["error"].is_string());
    server.stop().await;
}

#[tokio::test]
async fn a_websocket_carries_several_streams_and_takes_its_token_as_subprotocol() {
    let server = TestServer::start().await;
    let addr = server.running.addr;
    let (alice, alice_token) = server.user("alice").await;
    let (_, bob_token) = server.user("bob").await;
    server
        .client
        .post(
            &fill_path(FollowAccount::PATH, &[("id", &alice)]),
            Some(&bob_token),
            form(&[("reblogs", "true")]),
        )
        .await
        .unwrap();

    let mut request = format!("ws://{addr}{}?stream=user", StreamWebSocket::PATH)
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("sec-websocket-protocol", bob_token.parse().unwrap());
    let (mut socket, response) = tokio_tungstenite::connect_async(request)
        .await
        .expect("upgrade");
    assert_eq!(
        response.headers()["sec-websocket-protocol"]
            .to_str()
            .unwrap(),
        bob_token,
        "the subprotocol is echoed"
    );
    for subscribe in [
        json!({"type": "subscribe", "stream": "hashtag", "tag": "Rust"}),
        json!({"type": "subscribe", "stream": "list", "list": "1"}),
        json!({"type": "subscribe", "stream": "nonsense"}),
    ] {
        socket
            .send(Message::text(subscribe.to_string()))
            .await
            .unwrap();
    }
    let mut next = async || -> Value {
        loop {
            let frame = tokio::time::timeout(WAIT, socket.next())
                .await
                .expect("a message in time")
                .expect("the socket is open")
                .expect("a frame");
            if let Message::Text(text) = frame {
                return serde_json::from_str(&text).expect("JSON");
            }
        }
    };
    assert_eq!(
        next().await,
        json!({"error": "Record not found", "status": 404})
    );
    assert_eq!(
        next().await,
        json!({"error": "Unknown stream type", "status": 400})
    );
    let id = post(&server, &alice_token, "#rust is here").await;
    let mut streams = Vec::new();
    for _ in 0..2 {
        let m = next().await;
        assert_eq!(m["event"], "update");
        let status: Value = serde_json::from_str(m["payload"].as_str().unwrap()).unwrap();
        assert_eq!(status["id"], id.as_str());
        streams.push(m["stream"].clone());
    }
    streams.sort_by_key(|s| s.to_string());
    assert_eq!(streams, vec![json!(["hashtag", "rust"]), json!(["user"])]);
    socket.close(None).await.unwrap();

    // An anonymous socket may listen to public streams, not to the user stream.
    let (mut anonymous, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}{}", StreamWebSocket::PATH))
            .await
            .expect("upgrade");
    anonymous
        .send(Message::text(
            json!({"type": "subscribe", "stream": "user"}).to_string(),
        ))
        .await
        .unwrap();
    let frame = tokio::time::timeout(WAIT, anonymous.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let m: Value = serde_json::from_str(frame.to_text().unwrap()).unwrap();
    assert_eq!(m["status"], 401);
    server.stop().await;
}

#[tokio::test]
async fn a_token_holds_a_bounded_number_of_streams_and_revoking_it_closes_them() {
    let server = TestServer::start_with(|c| c.streaming.connections_per_token = 2).await;
    let base = server.running.base_url();
    let (client_id, secret, token) = server.app_token().await;
    let mut first = Sse::connect(&base, StreamPublicLocal::PATH, Some(&token)).await;
    let _second = Sse::connect(&base, StreamPublicLocal::PATH, Some(&token)).await;
    let third = Sse::open(&base, StreamPublicLocal::PATH, Some(&token)).await;
    assert_eq!(third.status(), 429);
    assert!(third.json::<Value>().await.unwrap()["error"].is_string());

    server
        .client
        .post(
            RevokeToken::PATH,
            None,
            form(&[
                ("client_id", &client_id),
                ("client_secret", &secret),
                ("token", &token),
            ]),
        )
        .await
        .unwrap()
        .expect(200)
        .unwrap();
    assert!(first.ends().await, "the revoked token's stream ends");
    server.stop().await;
}

#[tokio::test]
async fn deleting_an_account_and_stopping_the_server_close_open_streams() {
    let server = TestServer::start().await;
    let base = server.running.base_url();
    let (alice, alice_token) = server.user("alice").await;
    let mut alice_stream = Sse::connect(&base, StreamUser::PATH, Some(&alice_token)).await;
    let mut anonymous = Sse::connect(&base, StreamPublicLocal::PATH, None).await;
    server
        .app
        .accounts()
        .delete_account(alice.parse().unwrap())
        .await
        .expect("delete");
    assert!(alice_stream.ends().await, "a deleted account's stream ends");

    let stopping = tokio::spawn(server.stop());
    assert!(anonymous.ends().await, "stopping ends the streams");
    tokio::time::timeout(WAIT, stopping)
        .await
        .expect("the server stops at once, not after the open streams' grace period")
        .unwrap();
}
