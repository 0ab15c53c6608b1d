//! The machine-translation seam: the [`Translator`] trait a backend implements (the reference
//! server ships a LibreTranslate client), what it answers and how it fails.
//!
//! Core never talks to a translation service itself; an embedder hands one to
//! [`App::with_translator`](crate::App::with_translator). With none, translation is disabled: the
//! instance says so and `POST /api/v1/statuses/:id/translate` answers as Mastodon does then.

use std::collections::BTreeMap;

use async_trait::async_trait;
use http::StatusCode;

use crate::error::ApiError;

/// Source language code → the codes it can be translated into.
pub type LanguageMatrix = BTreeMap<String, Vec<String>>;

/// What a backend answers for one batch of texts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Translated {
    /// One translation per text asked, in the same order. Each is an HTML fragment, as the texts
    /// sent were; core sanitises them before they reach a client.
    pub texts: Vec<String>,
    /// The language the backend detected in the first text, when it detects languages.
    pub detected_source_language: Option<String>,
}

/// Why a backend could not translate. Every kind is a 503 for the client, never a 500.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TranslationError {
    /// The service's usage quota is used up.
    #[error("the translation service's usage quota is used up")]
    QuotaExceeded,
    /// The service is rate-limiting us.
    #[error("too many requests to the translation service")]
    TooManyRequests,
    /// Anything else: unreachable, timed out, refused, or an answer that makes no sense. The text
    /// is for the log, not for clients.
    #[error("the translation service is unavailable: {0}")]
    Unavailable(String),
}

impl From<TranslationError> for ApiError {
    fn from(e: TranslationError) -> Self {
        tracing::warn!(error = %e, "translation failed");
        let message = match e {
            TranslationError::QuotaExceeded => {
                "The server-wide usage quota for the translation service has been exceeded."
            }
            TranslationError::TooManyRequests => {
                "There have been too many requests to the translation service recently."
            }
            TranslationError::Unavailable(_) => "Translation service unavailable",
        };
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }
}

/// A machine-translation backend.
///
/// Implementations must answer in bounded time (a timeout of their own) and report every
/// failure as a [`TranslationError`]; they must not panic.
#[async_trait]
pub trait Translator: Send + Sync {
    /// Translates `texts` (HTML fragments) from `source` (`None`: let the backend detect it)
    /// into `target`, all in one request where the backend allows. The answer holds exactly one
    /// text per text asked, in order.
    async fn translate(
        &self,
        texts: &[String],
        source: Option<&str>,
        target: &str,
    ) -> Result<Translated, TranslationError>;

    /// The language pairs the backend supports: source code → target codes. Backends may cache
    /// this (it rarely changes); core asks before every translation.
    async fn languages(&self) -> Result<LanguageMatrix, TranslationError>;

    /// The name shown to clients as the Translation's `provider`, e.g. `LibreTranslate`.
    fn provider(&self) -> &str;
}
