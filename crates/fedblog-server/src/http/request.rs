//! Turns an HTTP request (query, body in JSON, form or multipart, headers) into core's `Request`.
//! Multipart file parts become uploads in `Params`, never text parameters.

use bytes::Bytes;
use fedblog_core::app::{Request, RequestInfo};
use fedblog_core::error::ApiError;
use fedblog_core::params::{Params, Upload};
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
    let raw_content_type = header(&raw.headers, "content-type").unwrap_or_default();
    let content_type = raw_content_type.to_ascii_lowercase();
    if !raw.body.is_empty() {
        if content_type.starts_with("application/json") {
            let v: Value = serde_json::from_slice(&raw.body)
                .map_err(|e| ApiError::bad_request(format!("Invalid JSON body: {e}")))?;
            params.add_json(v);
        } else if content_type.starts_with("multipart/form-data") {
            // The boundary is case-sensitive: parse it from the header as sent.
            read_multipart(&mut params, &raw_content_type, raw.body).await?;
        } else {
            // Form bodies, and bodies sent without a content type, are read as forms.
            let text = std::str::from_utf8(&raw.body)
                .map_err(|_| ApiError::bad_request("The body is not valid UTF-8"))?;
            params.add_urlencoded(text);
        }
    }
    for (k, v) in path_params {
        // Path segments arrive percent-encoded (`/api/v1/tags/caf%C3%A9`); core sees text. A
        // segment that does not decode to UTF-8 cannot name anything: 404.
        let v = percent_encoding::percent_decode_str(&v)
            .decode_utf8()
            .map_err(|_| ApiError::not_found())?;
        params.set(&k, v.into_owned());
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
        let file_name = field.file_name().map(str::to_string);
        let part_type = field.content_type().map(|m| m.to_string());
        // A part with a file name, or with a content type that is not text, is a file.
        let is_file = file_name.is_some()
            || part_type
                .as_deref()
                .is_some_and(|t| !t.to_ascii_lowercase().starts_with("text/"));
        if is_file {
            let bytes = field
                .bytes()
                .await
                .map_err(|e| ApiError::bad_request(format!("Invalid multipart body: {e}")))?;
            if bytes.is_empty() && file_name.as_deref().is_none_or(str::is_empty) {
                // An empty file input of an HTML form: no file was chosen.
                continue;
            }
            params.add_file(Upload {
                name,
                file_name,
                content_type: part_type,
                bytes: bytes.to_vec(),
            });
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Field name, file name, content type, bytes.
    type TestPart<'a> = (&'a str, Option<&'a str>, Option<&'a str>, &'a [u8]);

    fn multipart(boundary: &str, parts: &[TestPart<'_>]) -> Bytes {
        let mut body = Vec::new();
        for (name, file_name, ctype, bytes) in parts {
            body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
            let mut disposition = format!("Content-Disposition: form-data; name=\"{name}\"");
            if let Some(f) = file_name {
                disposition.push_str(&format!("; filename=\"{f}\""));
            }
            body.extend_from_slice(disposition.as_bytes());
            body.extend_from_slice(b"\r\n");
            if let Some(t) = ctype {
                body.extend_from_slice(format!("Content-Type: {t}\r\n").as_bytes());
            }
            body.extend_from_slice(b"\r\n");
            body.extend_from_slice(bytes);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        Bytes::from(body)
    }

    #[tokio::test]
    async fn multipart_files_become_uploads() {
        let boundary = "XyZ-Mixed-Case";
        let body = multipart(
            boundary,
            &[
                ("display_name", None, None, b"Ada"),
                (
                    "avatar",
                    Some("../me.png"),
                    Some("image/png"),
                    b"\x89PNG\r\n\x1a\n\xff",
                ),
                ("header", None, Some("application/octet-stream"), b"GIF89a"),
                ("note", Some(""), Some("application/octet-stream"), b""),
            ],
        );
        let mut headers = HeaderMap::new();
        headers.insert(
            "content-type",
            format!("multipart/form-data; boundary={boundary}")
                .parse()
                .unwrap(),
        );
        let raw = RawRequest {
            path: "/x".into(),
            query: String::new(),
            headers,
            body,
            remote: None,
        };
        let mut req = to_core(raw, vec![]).await.unwrap();
        let avatar = req.params.file("avatar").unwrap();
        assert_eq!(avatar.file_name.as_deref(), Some("../me.png"));
        assert_eq!(avatar.bytes, b"\x89PNG\r\n\x1a\n\xff");
        assert_eq!(req.params.file("header").unwrap().bytes, b"GIF89a");
        assert!(req.params.file("note").is_none());
        let files = req.params.take_files();
        assert_eq!(files.len(), 2);
        assert_eq!(
            req.params.into_value(),
            serde_json::json!({"display_name": "Ada"})
        );
    }

    #[tokio::test]
    async fn path_params_are_percent_decoded() {
        let raw = || RawRequest {
            path: "/x".into(),
            query: String::new(),
            headers: HeaderMap::new(),
            body: Bytes::new(),
            remote: None,
        };
        let req = to_core(raw(), vec![("id".into(), "Caf%C3%A9".into())])
            .await
            .unwrap();
        assert_eq!(req.params.into_value(), serde_json::json!({"id": "Café"}));
        let err = to_core(raw(), vec![("id".into(), "%FF".into())])
            .await
            .err()
            .unwrap();
        assert_eq!(err.status, http::StatusCode::NOT_FOUND);
    }
}
