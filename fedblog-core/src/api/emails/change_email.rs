//! `POST /auth/email/edit`: the form changing the address sent: signed in by the password, the
//! new address gets a link that confirms it; the old one stays until then.

use http::{Method, StatusCode};
use serde::Deserialize;

use crate::api::oauth::page;
use crate::api::passwords::error_text;
use crate::app::{App, Caller};
use crate::content::escape;
use crate::endpoint::{Auth, Endpoint, Html};
use crate::error::ApiResult;
use crate::params::de;
use crate::rate_limit::Family;

/// Asks for the change.
pub struct ChangeEmail;

/// The form's fields.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ChangeEmailForm {
    /// Username or e-mail address.
    #[serde(deserialize_with = "de::opt_string")]
    pub username: Option<String>,
    /// Current password.
    #[serde(deserialize_with = "de::opt_string")]
    pub password: Option<String>,
    /// The new address.
    #[serde(deserialize_with = "de::opt_string")]
    pub email: Option<String>,
}

impl Endpoint for ChangeEmail {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/auth/email/edit";
    const AUTH: Auth = Auth::Public;
    const RATE_LIMITS: &'static [Family] = &[Family::SignIn];
    type Request = ChangeEmailForm;
    type Response = Html;

    async fn handle(app: &App, _caller: &Caller, form: ChangeEmailForm) -> ApiResult<Html> {
        let login = form.username.unwrap_or_default();
        let email = form.email.unwrap_or_default();
        // Password guesses count as sign-in attempts on the account named, known or not.
        let named = login.trim().trim_start_matches('@').to_lowercase();
        if !named.is_empty() {
            app.rate_limits()
                .charge(Family::SignInAccount, &named)
                .await?;
        }
        let mailing = app.mailing();
        let Some((account, user)) = mailing
            .sign_in(&login, &form.password.unwrap_or_default())
            .await?
        else {
            return Ok(super::change_form(
                app,
                StatusCode::UNAUTHORIZED,
                &login,
                &email,
                Some("Invalid username, e-mail or password."),
            ));
        };
        if account.is_suspended() || user.disabled {
            return Ok(super::change_form(
                app,
                StatusCode::FORBIDDEN,
                &login,
                &email,
                Some("Your login is currently disabled."),
            ));
        }
        if let Err(e) = mailing.request_email_change(&user, &email).await {
            if e.status != StatusCode::UNPROCESSABLE_ENTITY {
                return Err(e);
            }
            return Ok(super::change_form(
                app,
                StatusCode::UNPROCESSABLE_ENTITY,
                &login,
                &email,
                Some(&error_text(&e)),
            ));
        }
        Ok(Html(
            StatusCode::OK,
            page(
                app,
                "Check your new address",
                &format!(
                    "<p>A link to confirm <strong>{}</strong> is on its way there. Until you open it \
(within {} hours), the address of <strong>@{}</strong> stays <strong>{}</strong>.</p>",
                    escape(email.trim()),
                    crate::mail::EMAIL_CHANGE_VALID_HOURS,
                    escape(&account.username),
                    escape(&user.email)
                ),
            ),
        ))
    }
}
