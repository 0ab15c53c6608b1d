//! `PUT /api/v1/statuses/:id`: edit one's own status. <https://docs.joinmastodon.org/methods/statuses/#edit>

use http::Method;
use serde::Deserialize;
use serde_json::Value;

use crate::api::{Auth, Endpoint, Json, path_id};
use crate::app::{App, Caller};
use crate::entities::Status;
use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::services::edits::StatusChanges;

/// Edits the text, content warning, sensitivity and language of the caller's own status and
/// returns it with `edited_at`; another account's status is a 404.
pub struct EditStatus;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct EditStatusRequest {
    /// Status id (path).
    pub id: String,
    /// New text.
    #[serde(deserialize_with = "de::opt_string")]
    pub status: Option<String>,
    /// New content warning.
    #[serde(deserialize_with = "de::opt_string")]
    pub spoiler_text: Option<String>,
    /// Sensitive.
    #[serde(deserialize_with = "de::opt_bool")]
    pub sensitive: Option<bool>,
    /// ISO 639 language code.
    #[serde(deserialize_with = "de::opt_string")]
    pub language: Option<String>,
    /// Must be the status's own visibility when given.
    #[serde(deserialize_with = "de::opt_string")]
    pub visibility: Option<String>,
    /// Media attachment ids (not supported yet).
    #[serde(deserialize_with = "de::list")]
    pub media_ids: Vec<String>,
    /// A poll (not supported yet).
    pub poll: Option<Value>,
}

impl Endpoint for EditStatus {
    const METHOD: Method = Method::PUT;
    const PATH: &'static str = "/api/v1/statuses/:id";
    const AUTH: Auth = Auth::User("write:statuses");
    type Request = EditStatusRequest;
    type Response = Json<Status>;

    async fn handle(app: &App, caller: &Caller, r: EditStatusRequest) -> ApiResult<Self::Response> {
        let id = path_id(&r.id)?;
        let changes = StatusChanges {
            text: r.status.unwrap_or_default(),
            spoiler_text: r.spoiler_text.unwrap_or_default(),
            sensitive: r.sensitive,
            language: r.language,
            visibility: r.visibility,
            media_ids: r.media_ids,
            has_poll: r
                .poll
                .as_ref()
                .is_some_and(|p| !p.is_null() && p.as_str() != Some("")),
        };
        let status = app.edit_status(caller, id, changes).await?;
        let mut out = app
            .render_statuses(&[status], caller.account.as_ref(), false)
            .await?;
        out.pop().map(Json).ok_or_else(ApiError::internal)
    }
}
