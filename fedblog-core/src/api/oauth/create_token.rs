//! `POST /oauth/token`: exchange an authorization code or client credentials for a token. <https://docs.joinmastodon.org/methods/oauth/#token>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Token;
use crate::error::ApiResult;
use crate::params::de;
use crate::services::oauth::TokenRequest;

/// Issues an access token.
pub struct CreateToken;

/// Parameters (form or JSON; client credentials may also come by HTTP Basic).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CreateTokenRequest {
    /// `authorization_code` or `client_credentials`.
    #[serde(deserialize_with = "de::opt_string")]
    pub grant_type: Option<String>,
    /// Client id.
    #[serde(deserialize_with = "de::opt_string")]
    pub client_id: Option<String>,
    /// Client secret.
    #[serde(deserialize_with = "de::opt_string")]
    pub client_secret: Option<String>,
    /// The code from the redirect.
    #[serde(deserialize_with = "de::opt_string")]
    pub code: Option<String>,
    /// The redirect URI the code was issued for.
    #[serde(deserialize_with = "de::opt_string")]
    pub redirect_uri: Option<String>,
    /// PKCE verifier.
    #[serde(deserialize_with = "de::opt_string")]
    pub code_verifier: Option<String>,
    /// Scopes (client_credentials).
    #[serde(deserialize_with = "de::opt_string")]
    pub scope: Option<String>,
}

impl Endpoint for CreateToken {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/oauth/token";
    const AUTH: Auth = Auth::Public;
    type Request = CreateTokenRequest;
    type Response = Json<Token>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CreateTokenRequest,
    ) -> ApiResult<Self::Response> {
        let req = TokenRequest {
            grant_type: r.grant_type,
            client_id: r.client_id,
            client_secret: r.client_secret,
            code: r.code,
            redirect_uri: r.redirect_uri,
            code_verifier: r.code_verifier,
            scope: r.scope,
        };
        let issued = app
            .oauth()
            .exchange_token(req, caller.authorization.as_deref())
            .await?;
        Ok(Json(app.render_token(&issued)))
    }
}
