//! `GET /auth/confirmation`: the link from the confirmation e-mail.

use http::{Method, StatusCode};
use serde::Deserialize;

use crate::api::oauth::page;
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
            return Ok(Html(
                StatusCode::NOT_FOUND,
                page(
                    app,
                    "Confirmation",
                    "<p>This confirmation link is invalid or was already used.</p>",
                ),
            ));
        };
        Ok(match app.accounts().confirm_email(&token).await {
            Ok((account, user)) => {
                if user.approved {
                    super::tell_staff_of_sign_up(app, &account).await;
                }
                Html(
                    StatusCode::OK,
                    page(
                        app,
                        "Confirmed",
                        &format!(
                            "<p>The e-mail address of <strong>@{}</strong> is confirmed. You can sign in now.</p>",
                            escape(&account.username)
                        ),
                    ),
                )
            }
            Err(_) => Html(
                StatusCode::NOT_FOUND,
                page(
                    app,
                    "Confirmation",
                    "<p>This confirmation link is invalid or was already used.</p>",
                ),
            ),
        })
    }
}
