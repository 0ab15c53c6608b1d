//! An HTTP client for Mastodon-compatible servers that validates every JSON response against the
//! OpenAPI schema of the Mastodon API, so every test and check that uses it checks shapes too.

use std::sync::Arc;

use reqwest::header::HeaderMap;
use serde_json::Value;

use crate::openapi::{OpenApi, Validation};
use crate::recorder::{Exchange, Recorder, SentBody, SentPart};

/// A request body.
#[derive(Clone, Debug)]
pub enum Body {
    /// No body.
    None,
    /// `application/x-www-form-urlencoded` pairs (repeat a key for `key[]` arrays).
    Form(Vec<(String, String)>),
    /// `application/json`.
    Json(Value),
    /// `multipart/form-data`: text fields and files.
    Multipart(Vec<Part>),
}

/// One part of a multipart body.
#[derive(Clone, Debug)]
pub enum Part {
    /// A text field.
    Text {
        /// Field name.
        name: String,
        /// Value.
        value: String,
    },
    /// A file.
    File {
        /// Field name.
        name: String,
        /// The file name sent.
        file_name: String,
        /// The content type claimed.
        content_type: String,
        /// The bytes.
        bytes: Vec<u8>,
    },
}

impl Part {
    /// A text field.
    pub fn text(name: &str, value: &str) -> Part {
        Part::Text {
            name: name.into(),
            value: value.into(),
        }
    }

    /// A file field.
    pub fn file(name: &str, file_name: &str, content_type: &str, bytes: &[u8]) -> Part {
        Part::File {
            name: name.into(),
            file_name: file_name.into(),
            content_type: content_type.into(),
            bytes: bytes.to_vec(),
        }
    }
}

/// Encodes parts as a `multipart/form-data` body; returns the body and its content type.
pub fn encode_multipart(parts: &[Part]) -> (Vec<u8>, String) {
    let boundary = format!(
        "fedblog-testkit-{:x}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    );
    // Quotes and line breaks cannot appear in a quoted header parameter.
    let quote = |s: &str| s.replace(['"', '\r', '\n'], "_");
    let mut body = Vec::new();
    for part in parts {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        match part {
            Part::Text { name, value } => {
                body.extend_from_slice(
                    format!(
                        "Content-Disposition: form-data; name=\"{}\"\r\n\r\n",
                        quote(name)
                    )
                    .as_bytes(),
                );
                body.extend_from_slice(value.as_bytes());
            }
            Part::File {
                name,
                file_name,
                content_type,
                bytes,
            } => {
                body.extend_from_slice(
                    format!(
                        "Content-Disposition: form-data; name=\"{}\"; filename=\"{}\"\r\nContent-Type: {}\r\n\r\n",
                        quote(name),
                        quote(file_name),
                        quote(content_type)
                    )
                    .as_bytes(),
                );
                body.extend_from_slice(bytes);
            }
        }
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (body, format!("multipart/form-data; boundary={boundary}"))
}

/// A query string of `(key, value)` pairs, percent-encoded (`a=1&b=x%2Fy`).
pub fn query<K: AsRef<str>, V: AsRef<str>>(pairs: &[(K, V)]) -> String {
    let mut ser = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        ser.append_pair(k.as_ref(), v.as_ref());
    }
    ser.finish()
}

/// Builds a form body from `(key, value)` pairs.
pub fn form<K: ToString, V: ToString>(pairs: &[(K, V)]) -> Body {
    Body::Form(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    )
}

/// A response as the client saw it.
#[derive(Clone, Debug)]
pub struct Response {
    /// HTTP status.
    pub status: u16,
    /// Headers.
    pub headers: HeaderMap,
    /// The body as text.
    pub text: String,
    /// The body as JSON, when it is JSON.
    pub json: Option<Value>,
}

impl Response {
    /// A header's value as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The JSON body, or an error naming the status and text.
    pub fn json(&self) -> Result<&Value, String> {
        self.json.as_ref().ok_or_else(|| {
            format!(
                "expected JSON, got {} {:?}",
                self.status,
                truncate(&self.text)
            )
        })
    }

    /// The `error` text of an error body.
    pub fn error_text(&self) -> Option<&str> {
        self.json.as_ref()?.get("error")?.as_str()
    }

    /// The URL with `rel` in the `Link` header.
    pub fn link(&self, rel: &str) -> Option<String> {
        parse_link(self.header("link")?, rel)
    }

    /// Fails unless the status is `want`.
    pub fn expect(&self, want: u16) -> Result<&Self, String> {
        if self.status == want {
            Ok(self)
        } else {
            Err(format!(
                "expected HTTP {want}, got {} {}",
                self.status,
                truncate(&self.text)
            ))
        }
    }
}

/// Finds `rel` in a `Link` header: `<url>; rel="next", <url>; rel="prev"`.
pub fn parse_link(header: &str, rel: &str) -> Option<String> {
    header.split(',').find_map(|part| {
        let (url, params) = part.trim().split_once(';')?;
        let is_rel = params.split(';').any(|p| {
            let p = p.trim();
            p == format!("rel=\"{rel}\"") || p == format!("rel={rel}")
        });
        is_rel.then(|| {
            url.trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .to_string()
        })
    })
}

/// The first 300 characters of a text, for messages.
pub fn truncate(s: &str) -> String {
    if s.len() > 300 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(300).map(|(i, _)| i).unwrap_or(s.len())]
        )
    } else {
        s.to_string()
    }
}

impl Body {
    /// What a report keeps of the body: everything but file contents.
    fn sent(&self) -> SentBody {
        match self {
            Body::None => SentBody::None,
            Body::Form(pairs) => SentBody::Form(pairs.clone()),
            Body::Json(v) => SentBody::Json(v.clone()),
            Body::Multipart(parts) => SentBody::Multipart(
                parts
                    .iter()
                    .map(|p| match p {
                        Part::Text { name, value } => SentPart::Text {
                            name: name.clone(),
                            value: value.clone(),
                        },
                        Part::File {
                            name,
                            file_name,
                            content_type,
                            bytes,
                        } => SentPart::File {
                            name: name.clone(),
                            file_name: file_name.clone(),
                            content_type: content_type.clone(),
                            len: bytes.len(),
                        },
                    })
                    .collect(),
            ),
        }
    }
}

/// The client. Cheap to clone.
///
/// Without a [`Recorder`] a JSON answer that contradicts the schema is an error; with one
/// ([`Client::recording`]) it is recorded against its operation and returned as it came, and
/// every request is kept in the recorder's transcript.
#[derive(Clone)]
pub struct Client {
    base_url: String,
    http: reqwest::Client,
    openapi: Option<Arc<OpenApi>>,
    recorder: Option<Arc<Recorder>>,
}

impl Client {
    /// A client for `base_url` (no trailing slash) that validates against `openapi` when given.
    pub fn new(base_url: &str, openapi: Option<Arc<OpenApi>>) -> Result<Self, String> {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("fedblog-testkit/", env!("CARGO_PKG_VERSION")))
            .timeout(std::time::Duration::from_secs(30))
            .build()
            .map_err(|e| e.to_string())?;
        Ok(Client {
            base_url: base_url.trim_end_matches('/').to_string(),
            http,
            openapi,
            recorder: None,
        })
    }

    /// The same client, recording into `recorder` (see [`Client`]).
    pub fn recording(mut self, recorder: Arc<Recorder>) -> Self {
        self.recorder = Some(recorder);
        self
    }

    /// The recorder, if the client has one.
    pub fn recorder(&self) -> Option<&Arc<Recorder>> {
        self.recorder.as_ref()
    }

    fn exchange(
        &self,
        method: &str,
        url: &str,
        token: Option<&str>,
        headers: &[(&str, &str)],
        body: SentBody,
    ) -> Option<Exchange> {
        let recorder = self.recorder.as_ref()?;
        Some(Exchange {
            method: method.to_string(),
            url: url.to_string(),
            token_of: token.map(|t| recorder.holder_of(t)),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            operation: None,
            body,
            status: 0,
            response: String::new(),
        })
    }

    /// The server's base URL.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Sends a request to `path_and_query` (or an absolute URL on the same server, e.g. from a
    /// `Link` header). A JSON body that contradicts the schema for its operation and status is an
    /// error, so callers never see an invalid response as a success.
    pub async fn send(
        &self,
        method: &str,
        path_and_query: &str,
        token: Option<&str>,
        body: Body,
        headers: &[(&str, &str)],
    ) -> Result<Response, String> {
        let url = if path_and_query.starts_with("http://") || path_and_query.starts_with("https://")
        {
            path_and_query.to_string()
        } else {
            format!("{}{}", self.base_url, path_and_query)
        };
        let method_v = reqwest::Method::from_bytes(method.as_bytes()).map_err(|e| e.to_string())?;
        let mut exchange = self.exchange(method, &url, token, headers, body.sent());
        let mut req = self.http.request(method_v, &url);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req = match body {
            Body::None => req,
            Body::Form(pairs) => {
                let mut ser = form_urlencoded::Serializer::new(String::new());
                for (k, v) in &pairs {
                    ser.append_pair(k, v);
                }
                req.header("Content-Type", "application/x-www-form-urlencoded")
                    .body(ser.finish())
            }
            Body::Json(v) => req.json(&v),
            Body::Multipart(parts) => {
                let (bytes, content_type) = encode_multipart(&parts);
                req.header("Content-Type", content_type).body(bytes)
            }
        };
        let resp = match req.send().await {
            Ok(resp) => resp,
            Err(e) => {
                if let (Some(r), Some(x)) = (&self.recorder, exchange.take()) {
                    r.record(x, None);
                }
                return Err(format!("{method} {url}: {e}"));
            }
        };
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let is_json = headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|c| c.contains("json"));
        let text = resp
            .text()
            .await
            .map_err(|e| format!("{method} {url}: reading the body: {e}"))?;
        let json = if is_json {
            serde_json::from_str(&text).ok()
        } else {
            None
        };
        let beyond_reference = self
            .recorder
            .as_ref()
            .is_some_and(|r| r.is_beyond_reference());
        let validation = match (&self.openapi, &json) {
            (Some(api), Some(v)) if !beyond_reference => {
                let path = url
                    .split("://")
                    .nth(1)
                    .and_then(|r| r.find('/').map(|i| &r[i..]))
                    .unwrap_or("/");
                let path = path.split('?').next().unwrap_or(path);
                Some(api.validate(method, path, status, v))
            }
            _ => None,
        };
        if let (Some(r), Some(mut x)) = (&self.recorder, exchange) {
            x.status = status;
            x.operation = self.openapi.as_ref().and_then(|api| {
                api.operation_for(method, x.path().split('?').next().unwrap_or_default())
                    .map(str::to_string)
            });
            x.response = Recorder::excerpt(&text);
            r.record(x, validation);
        } else if let Some(Validation::Invalid { operation, errors }) = validation {
            return Err(format!(
                "{method} {url} answered {status} with a body that does not match the schema of {operation}: {}",
                errors.join("; ")
            ));
        }
        if is_json && json.is_none() {
            return Err(format!(
                "{method} {url}: the body claims JSON but does not parse: {}",
                truncate(&text)
            ));
        }
        Ok(Response {
            status,
            headers,
            text,
            json,
        })
    }

    /// `GET`.
    pub async fn get(&self, path: &str, token: Option<&str>) -> Result<Response, String> {
        self.send("GET", path, token, Body::None, &[]).await
    }

    /// `POST` with a body.
    pub async fn post(
        &self,
        path: &str,
        token: Option<&str>,
        body: Body,
    ) -> Result<Response, String> {
        self.send("POST", path, token, body, &[]).await
    }

    /// `PATCH` with a body.
    pub async fn patch(
        &self,
        path: &str,
        token: Option<&str>,
        body: Body,
    ) -> Result<Response, String> {
        self.send("PATCH", path, token, body, &[]).await
    }

    /// `DELETE`.
    pub async fn delete(&self, path: &str, token: Option<&str>) -> Result<Response, String> {
        self.send("DELETE", path, token, Body::None, &[]).await
    }

    /// `GET` of a non-JSON resource (e.g. an image) on the server or at an absolute URL: the
    /// status, headers and raw bytes, unvalidated.
    pub async fn get_bytes(&self, path_or_url: &str) -> Result<(u16, HeaderMap, Vec<u8>), String> {
        let url = if path_or_url.starts_with("http://") || path_or_url.starts_with("https://") {
            path_or_url.to_string()
        } else {
            format!("{}{}", self.base_url, path_or_url)
        };
        let resp = self
            .http
            .get(&url)
            .send()
            .await
            .map_err(|e| format!("GET {url}: {e}"))?;
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        if let (Some(r), Some(mut x)) = (
            &self.recorder,
            self.exchange("GET", &url, None, &[], SentBody::None),
        ) {
            x.status = status;
            x.response = format!(
                "({})",
                headers
                    .get("content-type")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("no content type")
            );
            r.record(x, None);
        }
        let bytes = resp
            .bytes()
            .await
            .map_err(|e| format!("GET {url}: reading the body: {e}"))?;
        Ok((status, headers, bytes.to_vec()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_headers_parse() {
        let h = "<https://a.test/api/v1/timelines/home?max_id=7>; rel=\"next\", <https://a.test/api/v1/timelines/home?min_id=9>; rel=\"prev\"";
        assert_eq!(
            parse_link(h, "next").unwrap(),
            "https://a.test/api/v1/timelines/home?max_id=7"
        );
        assert_eq!(
            parse_link(h, "prev").unwrap(),
            "https://a.test/api/v1/timelines/home?min_id=9"
        );
        assert!(parse_link(h, "last").is_none());
    }
}
