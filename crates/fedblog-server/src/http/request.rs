//! Turns an HTTP request (query, body in JSON, form or multipart, headers) into core's `Request`.

use bytes::Bytes;
use fedblog_core::app::{Request, RequestInfo};
use fedblog_core::error::ApiError;
use fedblog_core::params::Params;
use http::HeaderMap;
use serde_json::Value;

/// The parts of an HTTP request core needs.
pub struct RawRequest {
    /// Path without query.
    pub path: String,
    /// Raw query string.
    pub query: String,
    /// Headers.
    pub headers: HeaderMap,
    /// Body.
    pub body: Bytes,
    /// Client address.
    pub remote: Option<std::net::SocketAddr>,
}

fn header(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// Builds core's request: query parameters first, then the body, then path parameters.
/// A body that cannot be parsed as its declared type is a 400.
pub async fn to_core(
    raw: RawRequest,
    path_params: Vec<(String, String)>,
) -> Result<Request, ApiError> {
    let mut params = Params::new();
    params.add_urlencoded(&raw.query);
    let content_type = header(&raw.headers, "content-type")
        .unwrap_or_default()
        .to_ascii_lowercase();
    if !raw.body.is_empty() {
        if content_type.starts_with("application/json") {
            let v: Value = serde_json::from_slice(&raw.body)
                .map_err(|e| ApiError::bad_request(format!("Invalid JSON body: {e}")))?;
            params.add_json(v);
        } else if content_type.starts_with("multipart/form-data") {
            read_multipart(&mut params, &content_type, raw.body).await?;
        } else {
            // Form bodies, and bodies sent without a content type, are read as forms.
            let text = std::str::from_utf8(&raw.body)
                .map_err(|_| ApiError::bad_request("The body is not valid UTF-8"))?;
            params.add_urlencoded(text);
        }
    }
    for (k, v) in path_params {
        params.set(&k, v);
    }
    Ok(Request {
        authorization: header(&raw.headers, "authorization"),
        params,
        info: RequestInfo {
            path: raw.path,
            query: raw.query,
            idempotency_key: header(&raw.headers, "idempotency-key"),
            remote_addr: raw.remote.map(|a| a.ip().to_string()),
        },
    })
}

async fn read_multipart(
    params: &mut Params,
    content_type: &str,
    body: Bytes,
) -> Result<(), ApiError> {
    let boundary = multer::parse_boundary(content_type)
        .map_err(|_| ApiError::bad_request("Invalid multipart boundary"))?;
    let stream = futures_util::stream::once(async move { Ok::<Bytes, std::io::Error>(body) });
    let mut multipart = multer::Multipart::new(stream, boundary);
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|e| ApiError::bad_request(format!("Invalid multipart body: {e}")))?
    {
        let Some(name) = field.name().map(str::to_string) else {
            continue;
        };
        if field.file_name().is_some() {
            // File uploads (avatars, media) are not stored yet; their fields are skipped.
            continue;
        }
        let text = field
            .text()
            .await
            .map_err(|e| ApiError::bad_request(format!("Invalid multipart body: {e}")))?;
        params.add_pair(&name, Value::String(text));
    }
    Ok(())
}
