//! `GET /api/v1/accounts/verify_credentials`: the signed-in user's own account. <https://docs.joinmastodon.org/methods/accounts/#verify_credentials>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::CredentialAccount;
use crate::error::{ApiError, ApiResult};

/// Returns the caller's account with `source` and `role`.
pub struct VerifyCredentials;

impl Endpoint for VerifyCredentials {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/accounts/verify_credentials";
    const AUTH: Auth = Auth::User("profile");
    type Request = NoParams;
    type Response = Json<CredentialAccount>;

    async fn handle(app: &App, caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let user = caller.user.as_ref().ok_or_else(ApiError::invalid_token)?;
        Ok(Json(app.render_credential_account(
            caller.account()?,
            user,
            caller.custom_role.as_ref(),
        )))
    }
}
