//! `GET /auth/confirmation`: the link from the confirmation e-mail.

use http::{Method, StatusCode};
use serde::Deserialize;

use crate::api::oauth::page;
use crate::api::pages;
use crate::app::{App, Caller};
use crate::content::escape;
use crate::endpoint::{Auth, Endpoint, Html};
use crate::error::ApiResult;
use crate::params::de;

/// Confirms an e-mail address and says so on a page.
pub struct ConfirmEmail;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ConfirmRequest {
    /// The token from the link.
    #[serde(deserialize_with = "de::opt_string")]
    pub confirmation_token: Option<String>,
}

impl Endpoint for ConfirmEmail {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/auth/confirmation";
    const AUTH: Auth = Auth::Public;
    type Request = ConfirmRequest;
    type Response = Html;

    async fn handle(app: &App, _caller: &Caller, r: ConfirmRequest) -> ApiResult<Html> {
        let Some(token) = r.confirmation_token else {
            return Ok(invalid_link(app));
        };
        let Ok((account, user)) = app.accounts().confirm_email(&token).await else {
            return Ok(invalid_link(app));
        };
        if user.approved {
            super::tell_staff_of_sign_up(app, &account).await;
        }
        let next = if user.approved {
            "You can sign in now: go back to your app and sign in with your username or e-mail \
address and your password."
        } else {
            "The moderators of this server still have to approve your account; once they \
have, you can sign in from your app."
        };
        let body = format!(
            "{}<p>{next}</p><p class=\"muted\">You can close this page.</p>",
            pages::success(&format!(
                "The e-mail address of <strong>@{}</strong> on {} is confirmed.",
                escape(&account.username),
                escape(&app.config.title)
            )),
        );
        Ok(Html(
            StatusCode::OK,
            page(app, "E-mail address confirmed", &body),
        ))
    }
}

/// The page for a link that confirms nothing (no token, an unknown one, one already used).
fn invalid_link(app: &App) -> Html {
    let body = format!(
        "{}<p>Each confirmation link works once, and a new one replaces the one sent before. \
If your address is not confirmed yet, ask your app to send the e-mail again and open the \
newest link.</p>",
        pages::alert("This confirmation link is invalid or was already used.")
    );
    Html(StatusCode::NOT_FOUND, page(app, "Confirmation", &body))
}
