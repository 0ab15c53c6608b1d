//! `POST /auth/notification_emails`: signed in by the password, shows the account's
//! notification e-mail choices (Mastodon's defaults until saved), and saves them when the
//! form says `save` (a box left unchecked turns its notification off).

use http::{Method, StatusCode};
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Html};
use crate::error::ApiResult;
use crate::params::de;
use crate::rate_limit::Family;
use crate::store::{NotificationEmailsRecord, Role};

/// Shows or saves the choices.
pub struct SaveNotificationEmails;

/// The form's fields.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct NotificationEmailsForm {
    /// Username or e-mail address.
    #[serde(deserialize_with = "de::opt_string")]
    pub username: Option<String>,
    /// Password.
    #[serde(deserialize_with = "de::opt_string")]
    pub password: Option<String>,
    /// Present when the choices are to be saved.
    #[serde(deserialize_with = "de::opt_string")]
    pub save: Option<String>,
    /// Checked boxes (any value); absent ones are off.
    #[serde(deserialize_with = "de::opt_string")]
    pub follow: Option<String>,
    /// As `follow`.
    #[serde(deserialize_with = "de::opt_string")]
    pub follow_request: Option<String>,
    /// As `follow`.
    #[serde(deserialize_with = "de::opt_string")]
    pub mention: Option<String>,
    /// As `follow`.
    #[serde(deserialize_with = "de::opt_string")]
    pub reblog: Option<String>,
    /// As `follow`.
    #[serde(deserialize_with = "de::opt_string")]
    pub favourite: Option<String>,
    /// As `follow` (staff only).
    #[serde(deserialize_with = "de::opt_string")]
    pub report: Option<String>,
    /// As `follow` (staff only).
    #[serde(deserialize_with = "de::opt_string")]
    pub pending_account: Option<String>,
}

impl Endpoint for SaveNotificationEmails {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = crate::mail::NOTIFICATION_EMAILS_PATH;
    const AUTH: Auth = Auth::Public;
    const RATE_LIMITS: &'static [Family] = &[Family::SignIn];
    type Request = NotificationEmailsForm;
    type Response = Html;

    async fn handle(app: &App, _caller: &Caller, form: NotificationEmailsForm) -> ApiResult<Html> {
        let login = form.username.clone().unwrap_or_default();
        let password = form.password.clone().unwrap_or_default();
        let named = login.trim().trim_start_matches('@').to_lowercase();
        if !named.is_empty() {
            app.rate_limits()
                .charge(Family::SignInAccount, &named)
                .await?;
        }
        let mailing = app.mailing();
        let Some((account, user)) = mailing.sign_in(&login, &password).await? else {
            return Ok(super::settings_sign_in(
                app,
                StatusCode::UNAUTHORIZED,
                &login,
                Some("Invalid username, e-mail or password."),
            ));
        };
        let mut choices = mailing.notification_emails(account.id).await?;
        let mut note = None;
        if form.save.is_some() {
            let on = |v: &Option<String>| v.as_deref().is_some_and(|v| !v.is_empty());
            let staff = user.role != Role::User;
            choices = NotificationEmailsRecord {
                follow: on(&form.follow),
                follow_request: on(&form.follow_request),
                mention: on(&form.mention),
                reblog: on(&form.reblog),
                favourite: on(&form.favourite),
                // Boxes a role is not shown keep their value.
                report: if staff {
                    on(&form.report)
                } else {
                    choices.report
                },
                pending_account: if staff {
                    on(&form.pending_account)
                } else {
                    choices.pending_account
                },
            };
            mailing
                .save_notification_emails(account.id, &choices)
                .await?;
            note = Some("Saved.");
        }
        Ok(super::settings_form(
            app, &login, &password, user.role, &choices, note,
        ))
    }
}
