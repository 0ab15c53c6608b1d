//! Errors: the store's semantic error kinds and the API error every failure becomes at the border.

use std::collections::BTreeMap;

use http::StatusCode;
use serde::Serialize;

/// What a store can fail with. Stores translate their backend errors into these kinds.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The record does not exist.
    #[error("not found")]
    NotFound,
    /// A unique constraint was violated; the string names the constraint (e.g. `accounts.username`).
    #[error("already exists: {0}")]
    AlreadyExists(String),
    /// The backend failed (connection, I/O, unexpected data).
    #[error("store backend: {0}")]
    Backend(String),
}

/// Result type of the store traits.
pub type StoreResult<T> = Result<T, StoreError>;

/// One field error in a 422 body (`details`), in Mastodon's registration error format.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FieldError {
    /// `ERR_BLANK`, `ERR_INVALID`, `ERR_TOO_LONG`, `ERR_TAKEN`, ...
    pub error: String,
    /// A sentence for people.
    pub description: String,
}

/// An error answer of the API: an HTTP status and a `{"error": "..."}` body.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The `error` text.
    pub message: String,
    /// OAuth's `error_description`, when the OAuth endpoints answer.
    pub description: Option<String>,
    /// Per-field validation errors (only on 422).
    pub details: Option<BTreeMap<String, Vec<FieldError>>>,
    /// Extra headers (e.g. `WWW-Authenticate`).
    pub headers: Vec<(String, String)>,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status.as_u16(), self.message)
    }
}

impl std::error::Error for ApiError {}

impl ApiError {
    /// An error with a status and message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            description: None,
            details: None,
            headers: vec![],
        }
    }
    /// 400 with a message.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }
    /// 401: the token is missing, invalid, expired or revoked.
    pub fn invalid_token() -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "The access token is invalid")
    }
    /// 401: an endpoint that needs a token got none.
    pub fn missing_token() -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "The access token is invalid")
    }
    /// 403: the token lacks the scope.
    pub fn outside_scopes() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "This action is outside the authorized scopes",
        )
    }
    /// 403: the rules forbid the action.
    pub fn forbidden() -> Self {
        Self::new(StatusCode::FORBIDDEN, "This action is not allowed")
    }
    /// 404: no such record, or one the caller may not see.
    pub fn not_found() -> Self {
        Self::new(StatusCode::NOT_FOUND, "Record not found")
    }
    /// 410: the record is gone for good (a suspended account).
    pub fn gone() -> Self {
        Self::new(StatusCode::GONE, "Gone")
    }
    /// 422 with a message and no field details.
    pub fn unprocessable(message: impl Into<String>) -> Self {
        let mut e = Self::new(StatusCode::UNPROCESSABLE_ENTITY, message);
        e.details = Some(BTreeMap::new());
        e
    }
    /// 422 for one field, in the form `Validation failed: Field description`.
    pub fn invalid_field(field: &str, code: &str, description: impl Into<String>) -> Self {
        let description = description.into();
        let mut details = BTreeMap::new();
        details.insert(
            field.to_string(),
            vec![FieldError {
                error: code.to_string(),
                description: description.clone(),
            }],
        );
        let mut e = Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("Validation failed: {description}"),
        );
        e.details = Some(details);
        e
    }
    /// 404 for a store that keeps no moderation data: the admin API and reports are not
    /// offered, as an endpoint a server does not serve answers 404 (not 501, which would
    /// promise it some day, nor 503, which tells clients to retry).
    pub fn no_moderation_data() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "This server keeps no moderation data",
        )
    }
    /// 404 for a store that keeps no admin dashboard data (see
    /// [`StatsStore::keeps_dashboard_data`](crate::store::StatsStore::keeps_dashboard_data)):
    /// the measures, dimensions and retention are not offered, rather than shown as zeros.
    pub fn no_dashboard_data() -> Self {
        Self::new(StatusCode::NOT_FOUND, "This server keeps no dashboard data")
    }
    /// 429.
    pub fn too_many_requests() -> Self {
        Self::new(StatusCode::TOO_MANY_REQUESTS, "Too many requests")
    }
    /// 500 for a failure of ours; the message never carries internals.
    pub fn internal() -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "There was a temporary problem serving your request, please try again",
        )
    }
    /// 503 for a failure of the store.
    pub fn unavailable() -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "There was a temporary problem serving your request, please try again",
        )
    }
    /// An OAuth 2 error (RFC 6749 §5.2): `error` is the code, `error_description` the text.
    pub fn oauth(status: StatusCode, code: &str, description: impl Into<String>) -> Self {
        let mut e = Self::new(status, code);
        e.description = Some(description.into());
        e
    }

    /// The JSON body.
    pub fn body(&self) -> serde_json::Value {
        let mut body = serde_json::json!({ "error": self.message });
        if let Some(d) = &self.description {
            body["error_description"] = serde_json::Value::String(d.clone());
        }
        if let Some(details) = &self.details {
            body["details"] = serde_json::to_value(details).unwrap_or_default();
        }
        body
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound => ApiError::not_found(),
            StoreError::AlreadyExists(what) => {
                ApiError::unprocessable(format!("Duplicate record: {what}"))
            }
            StoreError::Backend(msg) => {
                tracing::error!(error = %msg, "store failure");
                ApiError::unavailable()
            }
        }
    }
}

/// Result type of the API layer.
pub type ApiResult<T> = Result<T, ApiError>;
