//! `PUT /api/v1/statuses/:id`: edit one's own status. <https://docs.joinmastodon.org/methods/statuses/#edit>

use http::Method;
use serde::Deserialize;
use serde_json::Value;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::services::edits::{MediaAttribute, StatusChanges};

/// Edits the text, content warning, sensitivity, language, media and poll of the caller's own
/// status and returns it with `edited_at`; another account's status is a 404.
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
    /// The status's media after the edit, in order.
    #[serde(deserialize_with = "de::list")]
    pub media_ids: Vec<String>,
    /// Descriptions and focal points of those media: `[{id, description, focus}]`.
    #[serde(deserialize_with = "de::list")]
    pub media_attributes: Vec<MediaAttributeParams>,
    /// The poll after the edit (`poll[options][]`, `poll[expires_in]`, ...); absent: none.
    pub poll: Option<Value>,
    /// Who may quote the status from now on: `public`, `followers` or `nobody` (Mastodon
    /// 4.5); absent: unchanged.
    #[serde(deserialize_with = "de::opt_string")]
    pub quote_approval_policy: Option<String>,
}

/// One `media_attributes[]` entry.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct MediaAttributeParams {
    /// Media id.
    #[serde(deserialize_with = "de::opt_string")]
    pub id: Option<String>,
    /// Alternative text.
    #[serde(deserialize_with = "de::opt_string")]
    pub description: Option<String>,
    /// Focal point `"x,y"`.
    #[serde(deserialize_with = "de::opt_string")]
    pub focus: Option<String>,
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
            media_attributes: r
                .media_attributes
                .into_iter()
                .map(|a| MediaAttribute {
                    id: a.id.unwrap_or_default(),
                    description: a.description,
                    focus: a.focus,
                })
                .collect(),
            poll: r.poll,
        };
        app.federation().resolve_mentions(&changes.text).await;
        if let Some(policy) = r.quote_approval_policy.as_deref().filter(|p| !p.is_empty()) {
            app.quotes()
                .set_policy(caller.account()?, id, Some(policy))
                .await?;
        }
        let status = app
            .edits()
            .edit_status(caller.account()?, id, changes)
            .await?;
        let mut out = app
            .render_statuses(&[status], caller.account.as_ref(), false)
            .await?;
        out.pop().map(Json).ok_or_else(ApiError::internal)
    }
}
