//! `PATCH /api/v1/accounts/update_credentials`: change one's profile, avatar and header images
//! included (multipart files, or base64 `data:` URIs from JSON clients).
//! <https://docs.joinmastodon.org/methods/accounts/#update_credentials>

use http::Method;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::CredentialAccount;
use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::services::accounts::{ProfileImage, ProfileUpdate};
use crate::store::ProfileField;

/// Updates the caller's profile; every field is optional; nothing changes if one is invalid.
pub struct UpdateCredentials;

/// Defaults for new posts.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SourceParams {
    /// Default visibility.
    #[serde(deserialize_with = "de::opt_string")]
    pub privacy: Option<String>,
    /// Default sensitivity.
    #[serde(deserialize_with = "de::opt_bool")]
    pub sensitive: Option<bool>,
    /// Default language; an empty string clears it.
    pub language: Option<String>,
}

/// A profile field as sent.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FieldParam {
    /// Label.
    pub name: String,
    /// Value.
    pub value: String,
}

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct UpdateRequest {
    /// Display name (at most 30).
    pub display_name: Option<String>,
    /// Bio (at most 500).
    pub note: Option<String>,
    /// Require follow requests.
    #[serde(deserialize_with = "de::opt_bool")]
    pub locked: Option<bool>,
    /// Automated account.
    #[serde(deserialize_with = "de::opt_bool")]
    pub bot: Option<bool>,
    /// Listed in the directory.
    #[serde(deserialize_with = "de::opt_bool")]
    pub discoverable: Option<bool>,
    /// Posts may be indexed.
    #[serde(deserialize_with = "de::opt_bool")]
    pub indexable: Option<bool>,
    /// Hide followers and following.
    #[serde(deserialize_with = "de::opt_bool")]
    pub hide_collections: Option<bool>,
    /// Profile fields (`fields_attributes[0][name]=...`); replaces all fields when present.
    #[serde(deserialize_with = "opt_fields")]
    pub fields_attributes: Option<Vec<FieldParam>>,
    /// Defaults for new posts. An empty or non-object `source` is ignored, never a 400.
    #[serde(deserialize_with = "opt_source")]
    pub source: Option<SourceParams>,
    /// The avatar when sent as text: a base64 `data:` URI (a multipart file part wins).
    #[serde(deserialize_with = "de::opt_string")]
    pub avatar: Option<String>,
    /// The header when sent as text, as `avatar`.
    #[serde(deserialize_with = "de::opt_string")]
    pub header: Option<String>,
}

/// The bytes of an image parameter: the multipart file of that name, else a `data:` URI.
fn image_param(
    caller: &Caller,
    which: ProfileImage,
    text: Option<String>,
) -> ApiResult<Option<Vec<u8>>> {
    if let Some(upload) = caller.upload(which.field()) {
        return Ok(Some(upload.bytes.clone()));
    }
    text.map(|t| which.decode_data_uri(&t)).transpose()
}

fn opt_fields<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<FieldParam>>, D::Error> {
    let v = Value::deserialize(d)?;
    if v.is_null() || v.as_str() == Some("") {
        return Ok(None);
    }
    de::list(v).map(Some).map_err(serde::de::Error::custom)
}

fn opt_source<'de, D: Deserializer<'de>>(d: D) -> Result<Option<SourceParams>, D::Error> {
    match Value::deserialize(d)? {
        v @ Value::Object(_) => serde_json::from_value(v)
            .map(Some)
            .map_err(serde::de::Error::custom),
        _ => Ok(None),
    }
}

impl Endpoint for UpdateCredentials {
    const METHOD: Method = Method::PATCH;
    const PATH: &'static str = "/api/v1/accounts/update_credentials";
    const AUTH: Auth = Auth::User("write:accounts");
    const BODY: crate::endpoint::BodyKind = crate::endpoint::BodyKind::Upload;
    type Request = UpdateRequest;
    type Response = Json<CredentialAccount>;

    async fn handle(app: &App, caller: &Caller, r: UpdateRequest) -> ApiResult<Self::Response> {
        let avatar = image_param(caller, ProfileImage::Avatar, r.avatar)?;
        let header = image_param(caller, ProfileImage::Header, r.header)?;
        let source = r.source.unwrap_or_default();
        let update = ProfileUpdate {
            display_name: r.display_name,
            note: r.note,
            locked: r.locked,
            bot: r.bot,
            discoverable: r.discoverable,
            indexable: r.indexable,
            hide_collections: r.hide_collections,
            fields: r.fields_attributes.map(|fs| {
                fs.into_iter()
                    .map(|f| ProfileField {
                        name: f.name,
                        value: f.value,
                    })
                    .collect()
            }),
            privacy: source.privacy,
            sensitive: source.sensitive,
            language: source.language,
            avatar,
            header,
        };
        let account = app
            .accounts()
            .update_profile(caller.account()?, update)
            .await?;
        app.outbox().profile_updated(&account).await?;
        let user = caller.user.as_ref().ok_or_else(ApiError::invalid_token)?;
        Ok(Json(app.render_credential_account(
            &account,
            user,
            caller.custom_role.as_ref(),
        )))
    }
}
