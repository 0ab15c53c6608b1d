//! `POST /api/v1/accounts`: sign up with an app token. <https://docs.joinmastodon.org/methods/accounts/#create>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Token;
use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::scope::Scopes;

/// Creates an account (unconfirmed until the e-mail link is opened; unapproved in approval mode)
/// and returns a token for it.
pub struct RegisterAccount;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RegisterRequest {
    /// Username.
    #[serde(deserialize_with = "de::opt_string")]
    pub username: Option<String>,
    /// E-mail address.
    #[serde(deserialize_with = "de::opt_string")]
    pub email: Option<String>,
    /// Password.
    #[serde(deserialize_with = "de::opt_string")]
    pub password: Option<String>,
    /// The server's rules and terms were accepted.
    #[serde(deserialize_with = "de::bool")]
    pub agreement: bool,
    /// Language of e-mails.
    #[serde(deserialize_with = "de::opt_string")]
    pub locale: Option<String>,
    /// Why the user wants to join (approval mode).
    #[serde(deserialize_with = "de::opt_string")]
    pub reason: Option<String>,
}

impl Endpoint for RegisterAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/accounts";
    const AUTH: Auth = Auth::App("write:accounts");
    const RATE_LIMITS: &'static [crate::rate_limit::Family] = &[crate::rate_limit::Family::SignUps];
    type Request = RegisterRequest;
    type Response = Json<Token>;

    async fn handle(app: &App, caller: &Caller, r: RegisterRequest) -> ApiResult<Self::Response> {
        let token = caller.token.as_ref().ok_or_else(ApiError::invalid_token)?;
        let email = r.email.unwrap_or_default();
        let from = caller
            .info
            .remote_addr
            .as_deref()
            .and_then(|a| a.parse::<std::net::IpAddr>().ok());
        let verdict = app.server_blocks().sign_up_verdict(&email, from).await?;
        if verdict.ip_refused {
            return Err(ApiError::forbidden());
        }
        if verdict.email_refused {
            return Err(ApiError::invalid_field(
                "email",
                "ERR_BLOCKED",
                "Email is not allowed: this e-mail provider is not allowed",
            ));
        }
        let (account, _user) = app
            .accounts()
            .register(
                r.username.unwrap_or_default(),
                email,
                r.password.unwrap_or_default(),
                r.agreement,
                r.locale,
                verdict.needs_approval,
            )
            .await?;
        let scopes = Scopes::parse(&token.scopes).unwrap_or_default();
        let issued = app
            .oauth()
            .issue_token(token.app_id, Some(account.id), &scopes)
            .await?;
        Ok(Json(app.render_token(&issued)))
    }
}
