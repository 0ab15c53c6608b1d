//! Turns an HTTP request (query, body in JSON, form or multipart, headers) into core's `Request`.
//! Multipart file parts become uploads in `Params`, never text parameters.

use bytes::Bytes;
use fedblog_core::app::{RawBody, Request, RequestInfo};
use fedblog_core::error::ApiError;
use fedblog_core::params::{Params, Upload};
use http::HeaderMap;
use serde_json::Value;

/// What arrives before the body: method, path, query, headers and the peer's address.
#[derive(Clone, Debug)]
pub struct RawHead {
    /// Method.
    pub method: http::Method,
    /// Path without query.
    pub path: String,
    /// Raw query string.
    pub query: String,
    /// Headers.
    pub headers: HeaderMap,
    /// The address of the connection's other end (a proxy, or the client).
    pub remote: Option<std::net::SocketAddr>,
}

/// A request with its body read.
pub struct RawRequest {
    /// Everything but the body.
    pub head: RawHead,
    /// Body.
    pub body: Bytes,
}

/// A header's value, if it is text.
pub fn header(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// Facts about the request for core; `client` is the client's address as the trusted
/// proxies tell it.
pub fn info(head: &RawHead, client: Option<String>) -> RequestInfo {
    RequestInfo {
        path: head.path.clone(),
        query: head.query.clone(),
        idempotency_key: header(&head.headers, "idempotency-key"),
        remote_addr: client,
        raw: None,
    }
}

/// The request of an endpoint that takes its body raw
/// ([`BodyKind::Raw`](fedblog_core::api::BodyKind::Raw)): parameters from the query and the
/// path, and the body as sent with the method and every header. Malformed query parameters
/// are a 400.
pub fn raw_request(
    raw: RawRequest,
    path_params: Vec<(String, String)>,
    mut info: RequestInfo,
) -> Result<Request, ApiError> {
    let mut params = Params::new();
    params
        .add_urlencoded(&raw.head.query)
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    add_path_params(&mut params, path_params)?;
    let target = if raw.head.query.is_empty() {
        raw.head.path.clone()
    } else {
        format!("{}?{}", raw.head.path, raw.head.query)
    };
    info.raw = Some(std::sync::Arc::new(RawBody {
        method: raw.head.method.to_string(),
        target,
        headers: raw
            .head
            .headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        bytes: raw.body.to_vec(),
    }));
    Ok(Request {
        authorization: header(&raw.head.headers, "authorization"),
        params,
        info,
    })
}

/// The parameters of a request: the query first, then the body, then path parameters. A
/// body that cannot be parsed as its declared type, or parameters nested too deep or too
/// many, are a 400.
pub async fn params(
    raw: &RawRequest,
    path_params: Vec<(String, String)>,
) -> Result<Params, ApiError> {
    let invalid = |e: fedblog_core::params::ParamsError| ApiError::bad_request(e.to_string());
    let mut params = Params::new();
    params.add_urlencoded(&raw.head.query).map_err(invalid)?;
    let raw_content_type = header(&raw.head.headers, "content-type").unwrap_or_default();
    let content_type = raw_content_type.to_ascii_lowercase();
    if !raw.body.is_empty() {
        if content_type.starts_with("application/json") {
            let v: Value = serde_json::from_slice(&raw.body)
                .map_err(|e| ApiError::bad_request(format!("Invalid JSON body: {e}")))?;
            params.add_json(v);
        } else if content_type.starts_with("multipart/form-data") {
            // The boundary is case-sensitive: parse it from the header as sent.
            read_multipart(&mut params, &raw_content_type, raw.body.clone()).await?;
        } else {
            // Form bodies, and bodies sent without a content type, are read as forms.
            let text = std::str::from_utf8(&raw.body)
                .map_err(|_| ApiError::bad_request("The body is not valid UTF-8"))?;
            params.add_urlencoded(text).map_err(invalid)?;
        }
    }
    add_path_params(&mut params, path_params)?;
    Ok(params)
}

/// Sets the path parameters. Path segments arrive percent-encoded (`/api/v1/tags/caf%C3%A9`);
/// core sees text. A segment that does not decode to UTF-8 cannot name anything: 404.
fn add_path_params(
    params: &mut Params,
    path_params: Vec<(String, String)>,
) -> Result<(), ApiError> {
    for (k, v) in path_params {
        let v = percent_encoding::percent_decode_str(&v)
            .decode_utf8()
            .map_err(|_| ApiError::not_found())?;
        params.set(&k, v.into_owned());
    }
    Ok(())
}

/// Builds core's request from a read request, its path parameters and its facts.
pub async fn to_core(
    raw: RawRequest,
    path_params: Vec<(String, String)>,
    info: RequestInfo,
) -> Result<Request, ApiError> {
    let params = params(&raw, path_params).await?;
    Ok(Request {
        authorization: header(&raw.head.headers, "authorization"),
        params,
        info,
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
        params
            .add_pair(&name, Value::String(text))
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(headers: HeaderMap) -> RawHead {
        RawHead {
            method: http::Method::POST,
            path: "/x".into(),
            query: String::new(),
            headers,
            remote: None,
        }
    }

    /// Defect: a query key nested 10,000 levels deep aborted the process; now it is a 400.
    #[tokio::test]
    async fn deeply_nested_query_and_form_keys_are_a_400() {
        let deep = format!("a{}=1", "[x]".repeat(10_000));
        let mut h = head(HeaderMap::new());
        h.query = deep.clone();
        let e = params(
            &RawRequest {
                head: h,
                body: Bytes::new(),
            },
            vec![],
        )
        .await
        .unwrap_err();
        assert_eq!(e.status, http::StatusCode::BAD_REQUEST);
        let mut headers = HeaderMap::new();
        headers.insert(
            "content-type",
            "application/x-www-form-urlencoded".parse().unwrap(),
        );
        let e = params(
            &RawRequest {
                head: head(headers),
                body: Bytes::from(deep),
            },
            vec![],
        )
        .await
        .unwrap_err();
        assert_eq!(e.status, http::StatusCode::BAD_REQUEST);
    }

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
            head: head(headers),
            body,
        };
        let mut req = to_core(raw, vec![], RequestInfo::default()).await.unwrap();
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
            head: head(HeaderMap::new()),
            body: Bytes::new(),
        };
        let req = params(&raw(), vec![("id".into(), "Caf%C3%A9".into())])
            .await
            .unwrap();
        assert_eq!(req.into_value(), serde_json::json!({"id": "Café"}));
        let err = params(&raw(), vec![("id".into(), "%FF".into())])
            .await
            .err()
            .unwrap();
        assert_eq!(err.status, http::StatusCode::NOT_FOUND);
    }
}
