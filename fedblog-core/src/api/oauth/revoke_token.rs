//! `POST /oauth/revoke`: revoke a token of the calling client. <https://docs.joinmastodon.org/methods/oauth/#revoke>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Empty;
use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::services::oauth::TokenRequest;

/// Revokes a token; unknown tokens are not an error (RFC 7009).
pub struct RevokeToken;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RevokeRequest {
    /// Client id.
    #[serde(deserialize_with = "de::opt_string")]
    pub client_id: Option<String>,
    /// Client secret.
    #[serde(deserialize_with = "de::opt_string")]
    pub client_secret: Option<String>,
    /// The token to revoke.
    #[serde(deserialize_with = "de::opt_string")]
    pub token: Option<String>,
}

impl Endpoint for RevokeToken {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/oauth/revoke";
    const AUTH: Auth = Auth::Public;
    type Request = RevokeRequest;
    type Response = Json<Empty>;

    async fn handle(app: &App, caller: &Caller, r: RevokeRequest) -> ApiResult<Self::Response> {
        let token = r.token.ok_or_else(|| {
            ApiError::oauth(
                http::StatusCode::BAD_REQUEST,
                "invalid_request",
                "Missing required parameter: token.",
            )
        })?;
        let req = TokenRequest {
            client_id: r.client_id,
            client_secret: r.client_secret,
            ..Default::default()
        };
        app.oauth()
            .revoke(req, &token, caller.authorization.as_deref())
            .await?;
        Ok(Json(Empty {}))
    }
}
