//! The HTTP layer: one warp filter that hands every request to core through the route table,
//! served by our own accept loop (header read timeout, graceful stop).
//!
//! warp only carries bytes here: routing is the radix [`router::Router`] over
//! `fedblog_core::api::routes()`, and every answer, errors included, is built by core. The
//! token is checked before a body is read, and bodies are read within the size their
//! endpoint's kind allows.

pub mod assets;
pub mod client_addr;
pub mod reply;
pub mod request;
pub mod router;
pub mod uploads;
pub mod websocket;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use fedblog_core::App;
use fedblog_core::api::error_reply;
use fedblog_core::api::{Auth, Body, BodyKind, SMALL_BODY_BYTES};
use fedblog_core::app::{bearer_token, query_token};
use fedblog_core::error::ApiError;
use fedblog_core::params::Params;
use futures_util::{FutureExt, StreamExt};
use http::{HeaderMap, Method, StatusCode};
use warp::Filter;
use warp::filters::path::FullPath;

use self::client_addr::TrustedProxies;
use self::reply::{HttpResponse, to_http};
use self::request::{RawHead, RawRequest};
use self::router::{Lookup, Router};

/// Room for the multipart framing around the largest upload.
const MULTIPART_FRAMING_BYTES: u64 = 1024 * 1024;

/// How the HTTP layer protects itself.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    /// Longest wait for a request's headers, and for each piece of its body.
    pub read_timeout: Duration,
    /// Proxies whose `X-Forwarded-For` names the client.
    pub trusted_proxies: TrustedProxies,
    /// Longest wait for open requests to finish when the server stops.
    pub stop_timeout: Duration,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            read_timeout: Duration::from_secs(10),
            trusted_proxies: TrustedProxies::loopback(),
            stop_timeout: Duration::from_secs(30),
        }
    }
}

/// Everything a request needs.
pub struct Server {
    app: Arc<App>,
    router: Router,
    options: HttpOptions,
}

/// The client address a connection's requests carry (set by the accept loop).
#[derive(Clone, Copy, Debug)]
pub struct Peer(pub SocketAddr);

impl Server {
    /// Builds the server over core's route table.
    pub fn new(app: Arc<App>, options: HttpOptions) -> Result<Arc<Self>, String> {
        Server::with_routes(app, options, fedblog_core::api::routes())
    }

    /// Builds the server over another route table (core's with endpoints of one's own, say).
    pub fn with_routes(
        app: Arc<App>,
        options: HttpOptions,
        routes: Vec<fedblog_core::api::Route>,
    ) -> Result<Arc<Self>, String> {
        Ok(Arc::new(Server {
            app,
            router: Router::new(routes)?,
            options,
        }))
    }

    /// The app.
    pub fn app(&self) -> &Arc<App> {
        &self.app
    }

    /// Largest body an endpoint of this kind may send.
    pub fn body_limit(&self, kind: BodyKind) -> u64 {
        match kind {
            BodyKind::Params | BodyKind::Raw => SMALL_BODY_BYTES,
            BodyKind::Upload => {
                let l = &self.app.config.limits;
                l.image_size_limit.max(l.video_size_limit) as u64 + MULTIPART_FRAMING_BYTES
            }
        }
    }

    /// Answers one request whose body is still to be read, logging it (and any panic of its
    /// handler, with the request line).
    pub async fn serve<S, B>(&self, head: RawHead, body: S) -> HttpResponse
    where
        S: futures_util::Stream<Item = Result<B, warp::Error>> + Send,
        B: warp::Buf,
    {
        self.serve_upgradable(head, body, None).await
    }

    /// [`Server::serve`] for a request that may be a WebSocket upgrade (`ws`): a streaming
    /// answer to one is sent over the socket.
    pub async fn serve_upgradable<S, B>(
        &self,
        mut head: RawHead,
        body: S,
        ws: Option<websocket::WsUpgrade>,
    ) -> HttpResponse
    where
        S: futures_util::Stream<Item = Result<B, warp::Error>> + Send,
        B: warp::Buf,
    {
        let started = Instant::now();
        let (method, path) = (head.method.clone(), head.path.clone());
        let protocol = ws.as_ref().and_then(|_| websocket_token(&mut head));
        let answer = std::panic::AssertUnwindSafe(self.answer(head, body, ws, protocol))
            .catch_unwind()
            .await;
        let response = answer.unwrap_or_else(|panic| {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            tracing::error!(%method, %path, panic = %message, "a request handler panicked");
            to_http(error_reply(ApiError::internal()))
        });
        tracing::info!(%method, %path, status = response.status().as_u16(), ms = started.elapsed().as_millis() as u64, "request");
        response
    }

    async fn answer<S, B>(
        &self,
        head: RawHead,
        body: S,
        ws: Option<websocket::WsUpgrade>,
        protocol: Option<String>,
    ) -> HttpResponse
    where
        S: futures_util::Stream<Item = Result<B, warp::Error>> + Send,
        B: warp::Buf,
    {
        if head.method == Method::OPTIONS {
            return reply::preflight();
        }
        if let Some(asset) = assets::lookup(&head.method, &head.path) {
            return asset;
        }
        if let Some(file) = uploads::lookup(&self.app, &head.method, &head.path).await {
            return file;
        }
        let (route, path_params) = match self.router.lookup(&head.method, &head.path) {
            Lookup::Found(m) => (m.route.clone(), m.params),
            Lookup::OtherMethods(_) | Lookup::NotFound => {
                return to_http(error_reply(ApiError::new(
                    StatusCode::NOT_FOUND,
                    "Not Found",
                )));
            }
        };
        let client = self
            .options
            .trusted_proxies
            .client(head.remote, &head.headers);
        let info = request::info(&head, client.map(|ip| ip.to_string()));
        let remote_addr = info.remote_addr.clone();
        let authorization = request::header(&head.headers, "authorization");
        let early_token =
            bearer_token(authorization.as_deref()).or_else(|| query_token(&head.query));
        // A token in the header or the query is checked before the body is read, so a refused
        // caller never makes the server read a body. Without one, an endpoint taking
        // parameters only reads its small body (the token may be a body parameter, as
        // Mastodon allows); an upload endpoint refuses at once.
        let needs_token = matches!(
            route.auth,
            Auth::App(_) | Auth::User(_) | Auth::UserPending(_)
        );
        let caller = match early_token {
            Some(token) if needs_token || route.body == BodyKind::Upload => Some(
                self.app
                    .authenticate(
                        route.auth,
                        Some(&token),
                        authorization.clone(),
                        info.clone(),
                    )
                    .await,
            ),
            None if needs_token && route.body == BodyKind::Upload => {
                Some(Err(ApiError::missing_token()))
            }
            _ => None,
        };
        if let Some(Err(e)) = caller {
            return to_http(
                self.app
                    .dispatch_as(&route, remote_addr.as_deref(), Err(e), Params::new())
                    .await,
            );
        }
        let limit = self.body_limit(route.body);
        let body = match read_body(body, limit, self.options.read_timeout).await {
            Ok(b) => b,
            Err(e) => return to_http(error_reply(e)),
        };
        let raw = RawRequest { head, body };
        if route.body == BodyKind::Raw {
            let reply = match request::raw_request(raw, path_params, info) {
                Ok(req) => self.app.dispatch(&route, req).await,
                Err(e) => error_reply(e),
            };
            return to_http(reply);
        }
        let reply = match caller {
            Some(Ok(caller)) => match request::params(&raw, path_params).await {
                Ok(mut params) => {
                    params.remove("access_token");
                    self.app
                        .dispatch_as(&route, remote_addr.as_deref(), Ok(caller), params)
                        .await
                }
                Err(e) => error_reply(e),
            },
            _ => match request::to_core(raw, path_params, info).await {
                Ok(req) => self.app.dispatch(&route, req).await,
                Err(e) => error_reply(e),
            },
        };
        match (ws, &reply.body) {
            (Some(ws), Body::Stream(stream)) => match stream.take() {
                Some(source) => websocket::upgrade(ws, source, protocol),
                None => to_http(error_reply(ApiError::internal())),
            },
            _ => to_http(reply),
        }
    }
}

/// The token a WebSocket client sent as its subprotocol (`Sec-WebSocket-Protocol`, as
/// Mastodon's web client does), made the request's bearer token when it carries no other; the
/// protocol to echo in the answer.
fn websocket_token(head: &mut RawHead) -> Option<String> {
    let protocol = request::header(&head.headers, "sec-websocket-protocol")?;
    let protocol = protocol.split(',').next()?.trim().to_string();
    let has_token = head.headers.contains_key(http::header::AUTHORIZATION)
        || query_token(&head.query).is_some();
    if !has_token
        && !protocol.is_empty()
        && let Ok(value) = http::HeaderValue::from_str(&format!("Bearer {protocol}"))
    {
        head.headers.insert(http::header::AUTHORIZATION, value);
    }
    Some(protocol)
}

/// Reads a body up to `limit` bytes (a larger one is a 413), each piece within `timeout` (a
/// slower one is a 408).
async fn read_body<S, B>(stream: S, limit: u64, timeout: Duration) -> Result<Bytes, ApiError>
where
    S: futures_util::Stream<Item = Result<B, warp::Error>>,
    B: warp::Buf,
{
    let mut out = Vec::new();
    futures_util::pin_mut!(stream);
    loop {
        let next = tokio::time::timeout(timeout, stream.next())
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "The request body did not arrive in time",
                )
            })?;
        let Some(chunk) = next else { break };
        let mut chunk = chunk.map_err(|_| ApiError::bad_request("Malformed request body"))?;
        if out.len() as u64 + chunk.remaining() as u64 > limit {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "Request body too large",
            ));
        }
        while chunk.has_remaining() {
            let part = chunk.chunk();
            out.extend_from_slice(part);
            let n = part.len();
            chunk.advance(n);
        }
    }
    Ok(Bytes::from(out))
}

/// Serves HTTP on a bound listener until `shutdown` completes, then lets open requests finish
/// (for at most `options.stop_timeout`). A connection that does not send a request's headers
/// within `options.read_timeout` is closed.
pub async fn run(
    server: Arc<Server>,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) {
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    use hyper_util::server::conn::auto;
    use hyper_util::server::graceful::GracefulShutdown;
    use tower_service::Service;

    let options = server.options.clone();
    let service = warp::service(filter(server));
    let graceful = GracefulShutdown::new();
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(options.read_timeout);
    let builder = Arc::new(builder);
    futures_util::pin_mut!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors and the like: wait a little rather than spin.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let service = service.clone();
        let svc =
            hyper::service::service_fn(move |mut req: http::Request<hyper::body::Incoming>| {
                req.extensions_mut().insert(Peer(peer));
                if let Some(upgrade) = websocket::WsUpgrade::from_request(&mut req) {
                    req.extensions_mut().insert(upgrade);
                }
                let mut service = service.clone();
                async move { service.call(req).await }
            });
        let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), svc);
        let watched = graceful.watch(connection.into_owned());
        tokio::spawn(async move {
            if let Err(e) = watched.await {
                tracing::debug!(error = %e, "connection ended with an error");
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(options.stop_timeout, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!(
            seconds = options.stop_timeout.as_secs(),
            "open requests did not finish in time"
        );
    }
}

/// The warp filter serving everything.
pub fn filter(
    server: Arc<Server>,
) -> impl Filter<Extract = (HttpResponse,), Error = Infallible> + Clone {
    let query = warp::query::raw().or(warp::any().map(String::new)).unify();
    // A WebSocket upgrade request, if it is one (taken from the request by `run`).
    let upgrade = warp::ext::optional::<websocket::WsUpgrade>();
    warp::method()
        .and(warp::path::full())
        .and(query)
        .and(warp::header::headers_cloned())
        .and(warp::ext::optional::<Peer>())
        .and(upgrade)
        .and(warp::body::stream())
        .then(
            move |method: Method,
                  path: FullPath,
                  query: String,
                  headers: HeaderMap,
                  peer: Option<Peer>,
                  ws: Option<websocket::WsUpgrade>,
                  body| {
                let server = server.clone();
                async move {
                    let head = RawHead {
                        method,
                        path: path.as_str().to_string(),
                        query,
                        headers,
                        remote: peer.map(|p| p.0),
                    };
                    server.serve_upgradable(head, body, ws).await
                }
            },
        )
        .recover(|_rejection: warp::Rejection| async move {
            // Only transport failures get here.
            Ok::<_, Infallible>(to_http(error_reply(ApiError::bad_request(
                "Malformed request",
            ))))
        })
        .unify()
}
