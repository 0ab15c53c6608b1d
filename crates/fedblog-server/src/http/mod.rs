//! The HTTP layer: one warp filter that hands every request to core through the route table.
//!
//! warp only carries bytes here: routing is the radix [`router::Router`] over
//! `fedblog_core::api::routes()`, and every answer, errors included, is built by core.

pub mod assets;
pub mod reply;
pub mod request;
pub mod router;
pub mod uploads;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use fedblog_core::App;
use fedblog_core::app::error_reply;
use fedblog_core::error::ApiError;
use futures_util::{FutureExt, StreamExt};
use http::{HeaderMap, Method, StatusCode};
use warp::Filter;
use warp::filters::path::FullPath;

use self::reply::{HttpResponse, to_http};
use self::request::RawRequest;
use self::router::{Lookup, Router};

/// Largest request body accepted: room for a video or audio upload at the default limit (40 MiB)
/// with its multipart framing (a larger file inside this is a 422 from core; beyond it, a 413).
pub const MAX_BODY_BYTES: u64 = 41 * 1024 * 1024;

/// Everything a request needs.
pub struct Server {
    app: Arc<App>,
    router: Router,
}

impl Server {
    /// Builds the server over core's route table.
    pub fn new(app: Arc<App>) -> Result<Arc<Self>, String> {
        Ok(Arc::new(Server {
            app,
            router: Router::new(fedblog_core::api::routes())?,
        }))
    }

    /// The app.
    pub fn app(&self) -> &Arc<App> {
        &self.app
    }

    /// Answers one request.
    pub async fn handle(&self, method: Method, raw: RawRequest) -> HttpResponse {
        if method == Method::OPTIONS {
            return reply::preflight();
        }
        if let Some(asset) = assets::lookup(&method, &raw.path) {
            return asset;
        }
        if let Some(file) = uploads::lookup(&self.app, &method, &raw.path).await {
            return file;
        }
        let started = Instant::now();
        let path = raw.path.clone();
        let response = match self.router.lookup(&method, &raw.path) {
            Lookup::Found(m) => {
                let route = m.route.clone();
                match request::to_core(raw, m.params).await {
                    Ok(req) => to_http(self.app.dispatch(&route, req).await),
                    Err(e) => to_http(error_reply(e)),
                }
            }
            Lookup::OtherMethods(_) | Lookup::NotFound => to_http(error_reply(ApiError::new(
                StatusCode::NOT_FOUND,
                "Not Found",
            ))),
        };
        tracing::info!(%method, %path, status = response.status().as_u16(), ms = started.elapsed().as_millis() as u64, "request");
        response
    }
}

/// Reads a body up to `limit` bytes; a larger one is a 413.
async fn read_body<S, B>(stream: S, limit: u64) -> Result<Bytes, ApiError>
where
    S: futures_util::Stream<Item = Result<B, warp::Error>>,
    B: warp::Buf,
{
    let mut out = Vec::new();
    futures_util::pin_mut!(stream);
    while let Some(chunk) = stream.next().await {
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

/// Serves HTTP on a bound listener until `shutdown` completes, then finishes open requests.
pub async fn run(
    server: Arc<Server>,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) {
    warp::serve(filter(server))
        .incoming(listener)
        .graceful(shutdown)
        .run()
        .await;
}

/// The warp filter serving everything.
pub fn filter(
    server: Arc<Server>,
) -> impl Filter<Extract = (HttpResponse,), Error = Infallible> + Clone {
    let query = warp::query::raw().or(warp::any().map(String::new)).unify();
    warp::method()
        .and(warp::path::full())
        .and(query)
        .and(warp::header::headers_cloned())
        .and(warp::addr::remote())
        .and(warp::body::stream())
        .and_then(
            move |method: Method,
                  path: FullPath,
                  query: String,
                  headers: HeaderMap,
                  remote: Option<SocketAddr>,
                  body| {
                let server = server.clone();
                async move {
                    let body = match read_body(body, MAX_BODY_BYTES).await {
                        Ok(b) => b,
                        Err(e) => return Ok::<_, warp::Rejection>(to_http(error_reply(e))),
                    };
                    let raw = RawRequest {
                        path: path.as_str().to_string(),
                        query,
                        headers,
                        body,
                        remote,
                    };
                    let answer = std::panic::AssertUnwindSafe(server.handle(method, raw))
                        .catch_unwind()
                        .await;
                    Ok(answer.unwrap_or_else(|_| {
                        tracing::error!("a request handler panicked");
                        to_http(error_reply(ApiError::internal()))
                    }))
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
