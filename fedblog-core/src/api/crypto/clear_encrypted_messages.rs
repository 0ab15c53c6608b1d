//! `POST /api/v1/crypto/encrypted_messages/clear`: removes the messages of the access token's
//! device up to and including `up_to_id`; answers `{}`.

use http::Method;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::{ApiError, ApiResult};
use crate::params::de;

/// Clears the token's device's messages.
pub struct ClearEncryptedMessages;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ClearEncryptedMessagesRequest {
    /// The newest message to remove.
    #[serde(deserialize_with = "de::opt_string")]
    pub up_to_id: Option<String>,
}

impl Endpoint for ClearEncryptedMessages {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/crypto/encrypted_messages/clear";
    const AUTH: Auth = Auth::User("crypto");
    type Request = ClearEncryptedMessagesRequest;
    type Response = Json<Value>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ClearEncryptedMessagesRequest,
    ) -> ApiResult<Self::Response> {
        let token = caller.token.as_ref().ok_or_else(ApiError::missing_token)?;
        let up_to = r.up_to_id.as_deref().and_then(|id| id.parse().ok());
        app.crypto().clear(token, up_to).await?;
        Ok(Json(json!({})))
    }
}
