//! `POST /auth/password/edit`: the new-password form sent: the password changes once per link,
//! and every app signed in to the account is signed out (as Mastodon does on a reset).

use http::{Method, StatusCode};
use serde::Deserialize;

use crate::api::oauth::page;
use crate::app::{App, Caller};
use crate::content::escape;
use crate::endpoint::{Auth, Endpoint, Html};
use crate::error::ApiResult;
use crate::params::de;
use crate::rate_limit::Family;

/// Sets the new password.
pub struct UpdatePassword;

/// The form's fields.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct UpdatePasswordForm {
    /// The token from the mail, carried by the form.
    #[serde(deserialize_with = "de::opt_string")]
    pub reset_password_token: Option<String>,
    /// The new password.
    #[serde(deserialize_with = "de::opt_string")]
    pub password: Option<String>,
    /// The new password again.
    #[serde(deserialize_with = "de::opt_string")]
    pub password_confirmation: Option<String>,
}

impl Endpoint for UpdatePassword {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = crate::mail::PASSWORD_EDIT_PATH;
    const AUTH: Auth = Auth::Public;
    const RATE_LIMITS: &'static [Family] = &[Family::SignIn];
    type Request = UpdatePasswordForm;
    type Response = Html;

    async fn handle(app: &App, _caller: &Caller, form: UpdatePasswordForm) -> ApiResult<Html> {
        let Some(token) = form.reset_password_token.filter(|t| !t.is_empty()) else {
            return Ok(super::invalid_link_page(app));
        };
        let password = form.password.unwrap_or_default();
        let confirmation = form.password_confirmation.unwrap_or_default();
        match app
            .mailing()
            .reset_password(&token, &password, &confirmation)
            .await
        {
            Ok(account) => Ok(Html(
                StatusCode::OK,
                page(
                    app,
                    "Password changed",
                    &format!(
                        "<p>The password of <strong>@{}</strong> is changed. Every app that was \
signed in to the account was signed out: you can sign in now with the new password.</p>",
                        escape(&account.username)
                    ),
                ),
            )),
            Err(e) if e.status == StatusCode::UNPROCESSABLE_ENTITY => Ok(super::password_form(
                app,
                StatusCode::UNPROCESSABLE_ENTITY,
                &token,
                Some(&super::error_text(&e)),
            )),
            Err(e) if e.status == StatusCode::NOT_FOUND => Ok(super::invalid_link_page(app)),
            Err(e) => Err(e),
        }
    }
}
