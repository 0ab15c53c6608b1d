//! `GET /api/v1/apps/verify_credentials`: check the calling app's token. <https://docs.joinmastodon.org/methods/apps/#verify_credentials>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::Application;
use crate::error::{ApiError, ApiResult};

/// Returns the application of the token.
pub struct VerifyAppCredentials;

impl Endpoint for VerifyAppCredentials {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/apps/verify_credentials";
    const AUTH: Auth = Auth::App("");
    type Request = NoParams;
    type Response = Json<Application>;

    async fn handle(app: &App, caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let record = caller.app.as_ref().ok_or_else(ApiError::invalid_token)?;
        Ok(Json(app.render_application(record)))
    }
}
