//! The LibreTranslate-compatible translation backend (`FEDBLOG_TRANSLATION_URL`,
//! `FEDBLOG_TRANSLATION_API_KEY`): `POST {url}/translate` and `GET {url}/languages` over HTTP,
//! with timeouts, every failure reported as a [`TranslationError`] (a 503 for clients).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use fedblog_core::translation::{LanguageMatrix, Translated, TranslationError, Translator};
use serde_json::{Value, json};

/// How long one request to the service may take, connection included.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);

/// How long to wait for a connection to the service.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// How long the service's language list is reused before it is asked again.
const LANGUAGES_TTL: Duration = Duration::from_secs(3600);

/// The largest answer read from the service.
const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// A client of a LibreTranslate-compatible service.
pub struct LibreTranslate {
    base_url: String,
    api_key: Option<String>,
    http: reqwest::Client,
    /// The last language list and when it was fetched (failures are not kept).
    languages: Mutex<Option<(Instant, LanguageMatrix)>>,
}

impl std::fmt::Debug for LibreTranslate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LibreTranslate")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

impl LibreTranslate {
    /// A client of the service at `base_url` (`http://` or `https://`; a trailing `/` is
    /// ignored), sending `api_key` when given, each request bounded by `timeout`.
    pub fn new(base_url: &str, api_key: Option<String>, timeout: Duration) -> Result<Self, String> {
        let base_url = base_url.trim().trim_end_matches('/').to_string();
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(format!(
                "the translation service URL must start with http:// or https://, not {base_url:?}"
            ));
        }
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(CONNECT_TIMEOUT.min(timeout))
            .user_agent(concat!("fedblog/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("cannot build the translation client: {e}"))?;
        Ok(LibreTranslate {
            base_url,
            api_key: api_key.filter(|k| !k.is_empty()),
            http,
            languages: Mutex::new(None),
        })
    }

    /// Sends a request and reads a JSON answer, mapping every failure to a [`TranslationError`].
    async fn call(
        &self,
        request: reqwest::RequestBuilder,
        what: &str,
    ) -> Result<Value, TranslationError> {
        let unavailable = |e: String| TranslationError::Unavailable(format!("{what}: {e}"));
        let mut response = request
            .send()
            .await
            .map_err(|e| unavailable(e.to_string()))?;
        let status = response.status();
        let mut body = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| unavailable(e.to_string()))?
        {
            if body.len() + chunk.len() > MAX_BODY_BYTES {
                return Err(unavailable(format!(
                    "answer larger than {MAX_BODY_BYTES} bytes"
                )));
            }
            body.extend_from_slice(&chunk);
        }
        match status.as_u16() {
            429 => return Err(TranslationError::TooManyRequests),
            200..=299 => {}
            code => {
                let text = String::from_utf8_lossy(&body);
                let detail: String = text.chars().take(200).collect();
                let hint = if code == 403 {
                    " (is FEDBLOG_TRANSLATION_API_KEY right?)"
                } else {
                    ""
                };
                return Err(unavailable(format!("HTTP {code}{hint}: {detail}")));
            }
        }
        serde_json::from_slice(&body).map_err(|e| unavailable(format!("not JSON: {e}")))
    }

    /// `GET {url}/languages`, uncached.
    async fn fetch_languages(&self) -> Result<LanguageMatrix, TranslationError> {
        let value = self
            .call(
                self.http.get(format!("{}/languages", self.base_url)),
                "languages",
            )
            .await?;
        parse_languages(&value)
    }
}

#[async_trait]
impl Translator for LibreTranslate {
    async fn translate(
        &self,
        texts: &[String],
        source: Option<&str>,
        target: &str,
    ) -> Result<Translated, TranslationError> {
        let mut body = json!({
            "q": texts,
            "source": source.filter(|s| !s.is_empty()).unwrap_or("auto"),
            "target": target,
            "format": "html",
        });
        if let Some(key) = &self.api_key {
            body["api_key"] = Value::String(key.clone());
        }
        let value = self
            .call(
                self.http
                    .post(format!("{}/translate", self.base_url))
                    .json(&body),
                "translate",
            )
            .await?;
        parse_translation(&value, texts.len())
    }

    async fn languages(&self) -> Result<LanguageMatrix, TranslationError> {
        if let Ok(cached) = self.languages.lock()
            && let Some((at, matrix)) = cached.as_ref()
            && at.elapsed() < LANGUAGES_TTL
        {
            return Ok(matrix.clone());
        }
        let matrix = self.fetch_languages().await?;
        if let Ok(mut cached) = self.languages.lock() {
            *cached = Some((Instant::now(), matrix.clone()));
        }
        Ok(matrix)
    }

    fn provider(&self) -> &str {
        "LibreTranslate"
    }
}

/// Reads `[{"code": "en", "targets": ["de", ...]}, ...]`; a service without `targets` (older
/// LibreTranslate) translates between all its languages.
fn parse_languages(value: &Value) -> Result<LanguageMatrix, TranslationError> {
    let list = value.as_array().ok_or_else(|| {
        TranslationError::Unavailable("languages: the answer is not a list".into())
    })?;
    let codes: Vec<String> = list
        .iter()
        .filter_map(|l| l.get("code").and_then(Value::as_str))
        .map(str::to_string)
        .collect();
    let mut matrix = LanguageMatrix::new();
    for language in list {
        let Some(code) = language.get("code").and_then(Value::as_str) else {
            continue;
        };
        let mut targets: Vec<String> = match language.get("targets").and_then(Value::as_array) {
            Some(t) => t
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
            None => codes.clone(),
        };
        targets.retain(|t| t != code);
        targets.sort();
        targets.dedup();
        matrix.insert(code.to_string(), targets);
    }
    Ok(matrix)
}

/// Reads `{"translatedText": [...], "detectedLanguage": [{"language": "de", ...}, ...]}` (or the
/// single-text forms), which must hold `expected` texts.
fn parse_translation(value: &Value, expected: usize) -> Result<Translated, TranslationError> {
    let bad = |why: &str| TranslationError::Unavailable(format!("translate: {why}"));
    let texts: Vec<String> = match value.get("translatedText") {
        Some(Value::Array(items)) => items
            .iter()
            .map(|t| t.as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or_else(|| bad("translatedText holds something that is not text"))?,
        Some(Value::String(s)) => vec![s.clone()],
        _ => {
            return Err(bad(&format!(
                "no translatedText in the answer{}",
                value
                    .get("error")
                    .and_then(Value::as_str)
                    .map(|e| format!(" ({e})"))
                    .unwrap_or_default()
            )));
        }
    };
    if texts.len() != expected {
        return Err(bad(&format!(
            "asked for {expected} translations, got {}",
            texts.len()
        )));
    }
    let first_detected = match value.get("detectedLanguage") {
        Some(Value::Array(items)) => items.first(),
        Some(v @ Value::Object(_)) => Some(v),
        _ => None,
    };
    let detected_source_language = first_detected
        .and_then(|d| d.get("language"))
        .and_then(Value::as_str)
        .filter(|l| !l.is_empty())
        .map(str::to_string);
    Ok(Translated {
        texts,
        detected_source_language,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_drop_self_targets_and_fill_missing_targets() {
        let m = parse_languages(&json!([
            {"code": "en", "name": "English", "targets": ["en", "de", "fr"]},
            {"code": "de", "name": "German"},
        ]))
        .unwrap();
        assert_eq!(m["en"], vec!["de", "fr"]);
        assert_eq!(m["de"], vec!["en"]);
        assert!(parse_languages(&json!({"error": "x"})).is_err());
    }

    #[test]
    fn translations_are_read_in_order_with_the_first_detection() {
        let t = parse_translation(
            &json!({
                "translatedText": ["<p>Hallo</p>", "Achtung"],
                "detectedLanguage": [{"confidence": 90, "language": "en"}, {"confidence": 80, "language": "fr"}]
            }),
            2,
        )
        .unwrap();
        assert_eq!(t.texts, vec!["<p>Hallo</p>", "Achtung"]);
        assert_eq!(t.detected_source_language.as_deref(), Some("en"));
        let single = parse_translation(&json!({"translatedText": "x"}), 1).unwrap();
        assert_eq!(single.detected_source_language, None);
    }

    #[test]
    fn wrong_counts_and_errors_are_unavailable() {
        assert!(matches!(
            parse_translation(&json!({"translatedText": ["a"]}), 2),
            Err(TranslationError::Unavailable(_))
        ));
        let e = parse_translation(&json!({"error": "Invalid API key"}), 1).unwrap_err();
        assert!(e.to_string().contains("Invalid API key"));
    }

    #[test]
    fn urls_must_be_http() {
        assert!(LibreTranslate::new("ftp://x", None, DEFAULT_TIMEOUT).is_err());
        let t =
            LibreTranslate::new("http://lt.test/", Some(String::new()), DEFAULT_TIMEOUT).unwrap();
        assert_eq!(t.base_url, "http://lt.test");
        assert!(t.api_key.is_none());
    }
}
