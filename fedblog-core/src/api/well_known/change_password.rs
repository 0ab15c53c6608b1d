//! `GET /.well-known/change-password`: where to change one's password (the W3C "well-known URL
//! for changing passwords"), a `302` to the password page. Mastodon sends it to its account
//! settings; fedblog has no settings page, and its password page is the reset form (a reset
//! link by e-mail, then the new password).
//! <https://w3c.github.io/webappsec-change-password-url/>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, NoParams, Redirect};
use crate::error::ApiResult;

/// Redirects to the password page.
pub struct ChangePassword;

impl Endpoint for ChangePassword {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/.well-known/change-password";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Redirect;

    async fn handle(app: &App, _caller: &Caller, _r: NoParams) -> ApiResult<Redirect> {
        Ok(Redirect::To(format!(
            "{}{}",
            app.base_url(),
            crate::api::oauth::FORGOT_PASSWORD_PATH
        )))
    }
}
