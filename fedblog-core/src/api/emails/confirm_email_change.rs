//! `GET /auth/email/confirmation`: the link mailed to a new address: opening it makes that
//! address the account's.

use http::{Method, StatusCode};
use serde::Deserialize;

use crate::api::oauth::page;
use crate::app::{App, Caller};
use crate::content::escape;
use crate::endpoint::{Auth, Endpoint, Html};
use crate::error::ApiResult;
use crate::params::de;

/// Confirms the new address and says so on a page.
pub struct ConfirmEmailChange;

/// The link's query.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ConfirmEmailChangeQuery {
    /// The token from the mail.
    #[serde(deserialize_with = "de::opt_string")]
    pub token: Option<String>,
}

fn refused(app: &App, status: StatusCode, text: &str) -> Html {
    Html(
        status,
        page(
            app,
            "E-mail address",
            &format!(
                "<div class=\"alert\" role=\"alert\">{}</div><p><a href=\"{}\">Ask for a new link</a></p>",
                escape(text),
                super::edit_email::EditEmail::PATH
            ),
        ),
    )
}

impl Endpoint for ConfirmEmailChange {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = crate::mail::EMAIL_CHANGE_CONFIRMATION_PATH;
    const AUTH: Auth = Auth::Public;
    type Request = ConfirmEmailChangeQuery;
    type Response = Html;

    async fn handle(app: &App, _caller: &Caller, q: ConfirmEmailChangeQuery) -> ApiResult<Html> {
        let Some(token) = q.token.filter(|t| !t.is_empty()) else {
            return Ok(refused(
                app,
                StatusCode::NOT_FOUND,
                "This link is invalid, was already used, or has expired.",
            ));
        };
        match app.mailing().confirm_email_change(&token).await {
            Ok(user) => Ok(Html(
                StatusCode::OK,
                page(
                    app,
                    "E-mail address changed",
                    &format!(
                        "<p>Your e-mail address is now <strong>{}</strong>.</p>",
                        escape(&user.email)
                    ),
                ),
            )),
            Err(e) if e.status == StatusCode::NOT_FOUND => Ok(refused(
                app,
                StatusCode::NOT_FOUND,
                "This link is invalid, was already used, or has expired.",
            )),
            Err(e) if e.status == StatusCode::UNPROCESSABLE_ENTITY => Ok(refused(
                app,
                StatusCode::UNPROCESSABLE_ENTITY,
                "Another account uses this address now.",
            )),
            Err(e) => Err(e),
        }
    }
}
