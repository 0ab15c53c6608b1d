//! Turns core's `Reply` into an HTTP response, adding the headers every answer carries.

use fedblog_core::api::{Body, Reply};
use http::{HeaderName, HeaderValue, Response, StatusCode};

/// The HTTP response type of the server.
pub type HttpResponse = Response<bytes::Bytes>;

/// CORS for every answer, and `nosniff` so no answer is taken for another type than it says.
fn cors(builder: http::response::Builder) -> http::response::Builder {
    builder
        .header("X-Content-Type-Options", "nosniff")
        .header("Access-Control-Allow-Origin", "*")
        .header("Access-Control-Expose-Headers", "Link, X-RateLimit-Reset, X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After, X-Request-Id, Idempotency-Key")
}

/// Converts a reply. Header values that are not valid HTTP are dropped (and logged).
pub fn to_http(reply: Reply) -> HttpResponse {
    let mut builder = cors(Response::builder().status(reply.status));
    let (content_type, body) = match reply.body {
        Body::Json(text) => ("application/json; charset=utf-8", text.into_bytes()),
        Body::Html(h) => ("text/html; charset=utf-8", h.into_bytes()),
        Body::Empty => ("text/plain; charset=utf-8", Vec::new()),
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
    builder.body(body.into()).unwrap_or_else(|_| {
        let mut r = Response::new(bytes::Bytes::from_static(b"{\"error\":\"Internal error\"}"));
        *r.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
        r
    })
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
        .body(bytes::Bytes::new())
        .unwrap_or_default()
}

/// A static file.
pub fn file(content_type: &'static str, bytes: &'static [u8]) -> HttpResponse {
    cors(Response::builder().status(StatusCode::OK))
        .header("Content-Type", content_type)
        .header("Cache-Control", "public, max-age=86400")
        .body(bytes::Bytes::from_static(bytes))
        .unwrap_or_default()
}

/// A stored (uploaded) file. Its key is random and never reused, so it may be cached for good;
/// `nosniff` and a sandboxing CSP keep a browser from treating it as anything but an image.
pub fn stored_file(content_type: &'static str, bytes: Vec<u8>) -> HttpResponse {
    cors(Response::builder().status(StatusCode::OK))
        .header("Content-Type", content_type)
        .header("Cache-Control", "public, max-age=31536000, immutable")
        .header("Content-Security-Policy", "default-src 'none'; sandbox")
        .body(bytes::Bytes::from(bytes))
        .unwrap_or_default()
}
