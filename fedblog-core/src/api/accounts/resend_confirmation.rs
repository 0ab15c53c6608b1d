//! `POST /api/v1/emails/confirmations`: send the confirmation link again. <https://docs.joinmastodon.org/methods/emails/#confirmation>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Empty;
use crate::error::{ApiError, ApiResult};
use crate::params::de;

/// Resends the confirmation e-mail, optionally to a corrected address.
pub struct ResendConfirmation;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ResendRequest {
    /// A new address to use instead.
    #[serde(deserialize_with = "de::opt_string")]
    pub email: Option<String>,
}

impl Endpoint for ResendConfirmation {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/emails/confirmations";
    const AUTH: Auth = Auth::UserPending("");
    const RATE_LIMITS: &'static [crate::rate_limit::Family] = &[
        crate::rate_limit::Family::ConfirmationsAccount,
        crate::rate_limit::Family::Confirmations,
    ];
    type Request = ResendRequest;
    type Response = Json<Empty>;

    async fn handle(app: &App, caller: &Caller, r: ResendRequest) -> ApiResult<Self::Response> {
        let user = caller.user.as_ref().ok_or_else(ApiError::invalid_token)?;
        app.accounts().resend_confirmation(user, r.email).await?;
        Ok(Json(Empty {}))
    }
}
