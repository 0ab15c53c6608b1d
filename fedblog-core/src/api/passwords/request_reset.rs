//! `POST /auth/password`: the "forgot your password?" form sent: a reset link is mailed to the
//! account with that address, if there is one. The answer is the same either way, so the page
//! tells nobody which addresses have an account.

use http::{Method, StatusCode};
use serde::Deserialize;

use crate::api::oauth::page;
use crate::app::{App, Caller};
use crate::content::escape;
use crate::endpoint::{Auth, Endpoint, Html};
use crate::error::ApiResult;
use crate::params::de;
use crate::rate_limit::Family;

/// Mails a password reset link.
pub struct RequestReset;

/// The form's fields.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RequestResetForm {
    /// The account's e-mail address.
    #[serde(deserialize_with = "de::opt_string")]
    pub email: Option<String>,
}

impl Endpoint for RequestReset {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/auth/password";
    const AUTH: Auth = Auth::Public;
    // Mastodon throttles password resets per address and per e-mail, as confirmations.
    const RATE_LIMITS: &'static [Family] = &[Family::Confirmations];
    type Request = RequestResetForm;
    type Response = Html;

    async fn handle(app: &App, _caller: &Caller, form: RequestResetForm) -> ApiResult<Html> {
        let email = form.email.unwrap_or_default().trim().to_string();
        if email.is_empty() {
            return Ok(super::request_form(
                app,
                StatusCode::UNPROCESSABLE_ENTITY,
                "",
                Some("Enter the e-mail address of your account."),
            ));
        }
        // Counted per address named, known or not, so the limit tells nothing either.
        app.rate_limits()
            .charge(Family::ConfirmationsAccount, &email.to_lowercase())
            .await?;
        app.mailing().request_password_reset(&email).await;
        Ok(Html(
            StatusCode::OK,
            page(
                app,
                "Check your e-mail",
                &format!(
                    "<p>If an account uses <strong>{}</strong>, a link to choose a new password is on \
its way there. It works once, for {} hours.</p><p>No mail? Check the spam folder, or \
<a href=\"{}\">ask again</a>.</p>",
                    escape(&email),
                    crate::mail::RESET_VALID_HOURS,
                    super::new_password::NewPassword::PATH
                ),
            ),
        ))
    }
}
