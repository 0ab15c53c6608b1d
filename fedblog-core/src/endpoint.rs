//! What an endpoint declares (method, path, authentication, body kind, request and response
//! types) and the replies it answers with: the vocabulary every file under `api/` speaks, and
//! the [`Route`] the transports serve. The API layer sits on top: nothing below it (app,
//! services, render, store) names an endpoint.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use http::{Method, StatusCode};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::app::{App, Caller};
use crate::entities::Account;
use crate::error::{ApiError, ApiResult};
use crate::params::Params;
use crate::rate_limit::Family;
use crate::services::accounts::AccountPage;

/// Who may call an endpoint, and with which scope (`""` = no scope needed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Auth {
    /// Anyone; tokens are not read.
    Public,
    /// Anyone; a token, if given, must be valid and carry the scope.
    Optional(&'static str),
    /// Any valid token, app or user, with the scope.
    App(&'static str),
    /// A user token with the scope, for an active (confirmed, approved, not suspended) account.
    User(&'static str),
    /// A user token with the scope; the account may still await confirmation or approval.
    UserPending(&'static str),
}

/// How large a request body an endpoint takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// Parameters only (JSON or a form): [`SMALL_BODY_BYTES`] at most.
    Params,
    /// Files too (multipart uploads): up to the largest upload the limits allow, read only
    /// after the caller is authenticated.
    Upload,
    /// The body as sent, unparsed, with the request's headers ([`crate::app::RawBody`] in
    /// [`crate::app::RequestInfo::raw`]): for bodies whose bytes matter, such as signed
    /// ActivityPub deliveries, whose digest and signature cover them. Parameters come from the
    /// path and query only. [`SMALL_BODY_BYTES`] at most.
    Raw,
}

/// The prefix of the client API's paths (what the API-wide rate limits count).
pub const API_PREFIX: &str = "/api/";

/// Largest body of an endpoint that takes parameters only.
pub const SMALL_BODY_BYTES: u64 = 1024 * 1024;

/// The body of a reply.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// `application/json`: the serialised JSON text (entities are written straight to text,
    /// without building a `serde_json::Value` first).
    Json(String),
    /// `text/html; charset=utf-8`.
    Html(String),
    /// `text/plain; charset=utf-8` (a health check's `OK`).
    Text(String),
    /// Text of another media type, named (`application/jrd+json`, `application/xrd+xml`).
    Typed(&'static str, String),
    /// Messages sent as they come, for as long as the connection lasts (see [`StreamBody`]).
    Stream(StreamBody),
    /// No body.
    Empty,
}

/// One message of a streaming reply, as Mastodon's streaming API sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamMessage {
    /// The stream it belongs to, as WebSocket clients are told (`["user"]`,
    /// `["hashtag", "rust"]`).
    pub stream: Vec<String>,
    /// The event name (`update`, `delete`, `notification`, ...).
    pub event: String,
    /// The payload: JSON text, or a plain id for `delete`.
    pub payload: String,
}

impl StreamMessage {
    /// A request of the client's that failed (a WebSocket `subscribe` to a stream it may not
    /// read), with its HTTP status: sent as Mastodon does, `{"error": ..., "status": ...}`.
    pub fn error(status: u16, error: &str) -> StreamMessage {
        StreamMessage {
            stream: Vec::new(),
            event: ERROR_EVENT.to_string(),
            payload: serde_json::json!({ "error": error, "status": status }).to_string(),
        }
    }

    /// Whether it reports a failed request (see [`StreamMessage::error`]); server-sent events
    /// have no way to send one.
    pub fn is_error(&self) -> bool {
        self.event == ERROR_EVENT && self.stream.is_empty()
    }

    /// The message as a WebSocket text frame, as Mastodon sends it: `{"stream": [...], "event":
    /// ..., "payload": "..."}` (no `payload` when it is empty), or the error object.
    pub fn websocket_text(&self) -> String {
        if self.is_error() {
            return self.payload.clone();
        }
        let mut frame = serde_json::json!({ "stream": self.stream, "event": self.event });
        if !self.payload.is_empty() {
            frame["payload"] = self.payload.clone().into();
        }
        frame.to_string()
    }
}

/// The event name of [`StreamMessage::error`].
const ERROR_EVENT: &str = "error";

/// A plain-text answer with status 200.
pub struct Text(pub String);

impl IntoReply for Text {
    fn into_reply(self) -> ApiResult<Reply> {
        Ok(Reply {
            status: StatusCode::OK,
            headers: vec![],
            body: Body::Text(self.0),
        })
    }
}

/// An answer of another media type than JSON, HTML or plain text, with status 200: the media
/// type and the text.
pub struct Typed(pub &'static str, pub String);

impl IntoReply for Typed {
    fn into_reply(self) -> ApiResult<Reply> {
        Ok(Reply {
            status: StatusCode::OK,
            headers: vec![],
            body: Body::Typed(self.0, self.1),
        })
    }
}

/// `202 Accepted` with no body (an inbox took an activity).
pub struct Accepted;

impl IntoReply for Accepted {
    fn into_reply(self) -> ApiResult<Reply> {
        Ok(Reply {
            status: StatusCode::ACCEPTED,
            headers: vec![],
            body: Body::Empty,
        })
    }
}

/// The media type of ActivityPub documents we serve.
pub const ACTIVITY_JSON_UTF8: &str = "application/activity+json; charset=utf-8";

/// An ActivityPub document, or the HTML page of the same thing, as the request's `Accept`
/// asked; either way with `Vary: Accept, Signature`, so that caches keep the two apart and
/// never hand a document served to one signer (a followers-only note, or anything under
/// authorized fetch) to another request.
pub enum Negotiated {
    /// ActivityStreams JSON.
    Activity(String),
    /// The page for browsers.
    Page(Html),
}

impl IntoReply for Negotiated {
    fn into_reply(self) -> ApiResult<Reply> {
        let mut reply = match self {
            Negotiated::Activity(json) => Typed(ACTIVITY_JSON_UTF8, json).into_reply()?,
            Negotiated::Page(page) => page.into_reply()?,
        };
        reply
            .headers
            .push(("Vary".into(), "Accept, Signature".into()));
        Ok(reply)
    }
}

#[cfg(test)]
mod negotiated_tests {
    use super::*;

    #[test]
    fn documents_and_pages_vary_by_accept_and_signature() {
        for negotiated in [
            Negotiated::Activity("{}".into()),
            Negotiated::Page(Html(StatusCode::OK, "<p>page</p>".into())),
        ] {
            let reply = negotiated.into_reply().expect("a reply");
            let vary: Vec<&str> = reply
                .headers
                .iter()
                .filter(|(name, _)| name.eq_ignore_ascii_case("vary"))
                .flat_map(|(_, value)| value.split(',').map(str::trim))
                .collect();
            assert_eq!(vary, ["Accept", "Signature"]);
        }
    }
}

/// Where a streaming reply's messages come from. The transport frames them (server-sent
/// events: `event:` and `data:` lines, with a heartbeat comment while idle; a WebSocket: one
/// text message each) and hands back what a WebSocket client sends.
#[async_trait::async_trait]
pub trait MessageSource: Send {
    /// The next message to send; `None` ends the reply.
    async fn next(&mut self) -> Option<StreamMessage>;
    /// A text message from the client (a WebSocket's `subscribe` and `unsubscribe`); ignored
    /// unless a source needs it.
    async fn received(&mut self, _text: &str) {}
}

/// A streaming reply's source, taken once by the transport that sends it.
#[derive(Clone)]
pub struct StreamBody(Arc<std::sync::Mutex<Option<Box<dyn MessageSource>>>>);

impl StreamBody {
    /// A body sending what `source` yields.
    pub fn new(source: impl MessageSource + 'static) -> StreamBody {
        StreamBody(Arc::new(std::sync::Mutex::new(Some(Box::new(source)))))
    }

    /// The source, the first time it is asked for (`None` after).
    pub fn take(&self) -> Option<Box<dyn MessageSource>> {
        self.0.lock().ok().and_then(|mut s| s.take())
    }
}

impl PartialEq for StreamBody {
    fn eq(&self, other: &StreamBody) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for StreamBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StreamBody(..)")
    }
}

/// A streaming answer (status 200): see [`Body::Stream`].
pub struct Streamed(pub StreamBody);

impl IntoReply for Streamed {
    fn into_reply(self) -> ApiResult<Reply> {
        Ok(Reply {
            status: StatusCode::OK,
            headers: vec![("Cache-Control".into(), "no-store".into())],
            body: Body::Stream(self.0),
        })
    }
}

/// What an endpoint answers: status, extra headers and body.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// HTTP status.
    pub status: StatusCode,
    /// Extra headers, e.g. `Link`.
    pub headers: Vec<(String, String)>,
    /// Body.
    pub body: Body,
}

impl Reply {
    /// The JSON body parsed, for callers that read replies in-process (`None` for other bodies).
    pub fn json(&self) -> Option<serde_json::Value> {
        match &self.body {
            Body::Json(text) => serde_json::from_str(text).ok(),
            _ => None,
        }
    }
}

/// Converts an endpoint's typed response into a reply.
pub trait IntoReply {
    /// The reply.
    fn into_reply(self) -> ApiResult<Reply>;
}

/// A JSON response of type `T` with status 200.
pub struct Json<T>(pub T);

impl<T: Serialize> IntoReply for Json<T> {
    fn into_reply(self) -> ApiResult<Reply> {
        let value = serde_json::to_string(&self.0).map_err(|e| {
            tracing::error!(error = %e, "serialising a response failed");
            ApiError::internal()
        })?;
        Ok(Reply {
            status: StatusCode::OK,
            headers: vec![],
            body: Body::Json(value),
        })
    }
}

/// A JSON response of type `T` with another status than 200 (`202 Accepted`, `206`).
pub struct JsonWithStatus<T>(pub StatusCode, pub T);

impl<T: Serialize> IntoReply for JsonWithStatus<T> {
    fn into_reply(self) -> ApiResult<Reply> {
        let mut reply = Json(self.1).into_reply()?;
        reply.status = self.0;
        Ok(reply)
    }
}

/// A page of a collection with its `Link` header (absent for an empty page).
pub struct Paged<T> {
    /// The items, newest first.
    pub items: Vec<T>,
    /// The `Link` header value.
    pub link: Option<String>,
}

impl Paged<Account> {
    /// A page of accounts (followers, follows, endorsements...) rendered for `caller`, with the
    /// `Link` header its hidden cursors give.
    pub fn accounts(app: &App, caller: &Caller, page: AccountPage) -> Self {
        Paged {
            link: app.page_link(caller, page.first, page.last),
            items: page
                .accounts
                .iter()
                .map(|a| app.render_account(a))
                .collect(),
        }
    }
}

/// A JSON body that is not a list but is paged all the same (grouped notifications), with its
/// `Link` header.
pub struct Linked<T> {
    /// The body.
    pub body: T,
    /// The `Link` header value.
    pub link: Option<String>,
}

impl<T: Serialize> IntoReply for Linked<T> {
    fn into_reply(self) -> ApiResult<Reply> {
        let mut reply = Json(self.body).into_reply()?;
        if let Some(link) = self.link {
            reply.headers.push(("Link".into(), link));
        }
        Ok(reply)
    }
}

impl<T: Serialize> IntoReply for Paged<T> {
    fn into_reply(self) -> ApiResult<Reply> {
        let mut reply = Json(self.items).into_reply()?;
        if let Some(link) = self.link {
            reply.headers.push(("Link".into(), link));
        }
        Ok(reply)
    }
}

/// An HTML page with a status.
pub struct Html(pub StatusCode, pub String);

/// The policy of every page: nothing but its own inline style, no scripts, and no framing by
/// other sites (the consent button must not be clickjacked). `form-action` is left out on
/// purpose: browsers apply it to the redirect after the consent form, which leaves for the
/// client's own redirect URI.
pub const PAGE_CONTENT_SECURITY_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'";

impl IntoReply for Html {
    fn into_reply(self) -> ApiResult<Reply> {
        Ok(Reply {
            status: self.0,
            headers: vec![
                ("Cache-Control".into(), "no-store".into()),
                (
                    "Content-Security-Policy".into(),
                    PAGE_CONTENT_SECURITY_POLICY.into(),
                ),
                ("X-Frame-Options".into(), "DENY".into()),
                ("Referrer-Policy".into(), "no-referrer".into()),
            ],
            body: Body::Html(self.1),
        })
    }
}

/// A redirect (302) to a URL, or an HTML page for flows that end in the browser.
pub enum Redirect {
    /// `302 Found` with `Location`.
    To(String),
    /// A page instead of a redirect.
    Page(Html),
}

impl IntoReply for Redirect {
    fn into_reply(self) -> ApiResult<Reply> {
        match self {
            Redirect::To(url) => Ok(Reply {
                status: StatusCode::FOUND,
                headers: vec![
                    ("Location".into(), url),
                    ("Cache-Control".into(), "no-store".into()),
                ],
                body: Body::Empty,
            }),
            Redirect::Page(h) => h.into_reply(),
        }
    }
}

/// One endpoint of the API.
pub trait Endpoint: Send + Sync + 'static {
    /// HTTP method.
    const METHOD: Method;
    /// Path, with `:name` parameters.
    const PATH: &'static str;
    /// Authentication and scope.
    const AUTH: Auth;
    /// The rate limits of its own this endpoint counts against, besides the API's; the first is
    /// the one its answers' `X-RateLimit-*` headers describe.
    const RATE_LIMITS: &'static [Family] = &[];
    /// How large a body it takes.
    const BODY: BodyKind = BodyKind::Params;
    /// Parameters (path, query and body merged).
    type Request: DeserializeOwned + Send + 'static;
    /// The typed answer.
    type Response: IntoReply + Send + 'static;
    /// Runs the endpoint for an authenticated caller.
    fn handle(
        app: &App,
        caller: &Caller,
        req: Self::Request,
    ) -> impl Future<Output = ApiResult<Self::Response>> + Send;
}

/// A boxed future of a reply.
pub type ReplyFuture = Pin<Box<dyn Future<Output = ApiResult<Reply>> + Send>>;

/// An endpoint with its types erased, as a route table holds it.
#[derive(Clone)]
pub struct Route {
    /// Method.
    pub method: Method,
    /// Path with `:name` parameters.
    pub path: &'static str,
    /// Authentication and scope.
    pub auth: Auth,
    /// Its own rate limits (the first is shown in the headers).
    pub rate_limits: &'static [Family],
    /// How large a body it takes.
    pub body: BodyKind,
    /// The endpoint's type name, for logs.
    pub name: &'static str,
    /// Parses the parameters and runs the handler.
    pub handler: fn(Arc<App>, Caller, Params) -> ReplyFuture,
}

impl std::fmt::Debug for Route {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} ({})", self.method, self.path, self.name)
    }
}

fn call<E: Endpoint>(app: Arc<App>, caller: Caller, params: Params) -> ReplyFuture {
    Box::pin(async move {
        let req: E::Request = params
            .parse()
            .map_err(|e| ApiError::unprocessable(format!("Validation failed: {e}")))?;
        E::handle(&app, &caller, req).await?.into_reply()
    })
}

/// The route entry of an endpoint.
pub fn route<E: Endpoint>() -> Route {
    let full = std::any::type_name::<E>();
    Route {
        method: E::METHOD,
        path: E::PATH,
        auth: E::AUTH,
        rate_limits: E::RATE_LIMITS,
        body: E::BODY,
        name: full.rsplit("::").next().unwrap_or(full),
        handler: call::<E>,
    }
}

/// Fills the `:name` parameters of a declared path, e.g. for clients and tests.
pub fn fill_path(path: &str, values: &[(&str, &str)]) -> String {
    path.split('/')
        .map(|seg| match seg.strip_prefix(':') {
            Some(name) => values
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
                .unwrap_or_else(|| seg.to_string()),
            None => seg.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The request type of endpoints that take no parameters (unknown parameters are ignored).
#[derive(Debug, Default, serde::Deserialize)]
pub struct NoParams {}

/// Parses an id from a path; anything that is not an id cannot name a record, so it is a 404.
pub fn path_id(raw: &str) -> ApiResult<crate::Id> {
    raw.parse().map_err(|_| ApiError::not_found())
}
