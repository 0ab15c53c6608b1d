//! `GET /auth/password/new`: the "forgot your password?" form, linked from the sign-in page.

use http::{Method, StatusCode};

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Html, NoParams};
use crate::error::ApiResult;

/// Shows the form asking for the account's e-mail address.
pub struct NewPassword;

impl Endpoint for NewPassword {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = crate::api::oauth::FORGOT_PASSWORD_PATH;
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Html;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Html> {
        Ok(super::request_form(app, StatusCode::OK, "", None))
    }
}
