//! `GET /auth/password/edit`: the link of a password reset mail: the form for the new password,
//! while the link works.

use http::{Method, StatusCode};
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Html};
use crate::error::ApiResult;
use crate::params::de;

/// Shows the new-password form for a working reset link.
pub struct EditPassword;

/// The link's query.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct EditPasswordQuery {
    /// The token from the mail.
    #[serde(deserialize_with = "de::opt_string")]
    pub reset_password_token: Option<String>,
}

impl Endpoint for EditPassword {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = crate::mail::PASSWORD_EDIT_PATH;
    const AUTH: Auth = Auth::Public;
    type Request = EditPasswordQuery;
    type Response = Html;

    async fn handle(app: &App, _caller: &Caller, q: EditPasswordQuery) -> ApiResult<Html> {
        let Some(token) = q.reset_password_token.filter(|t| !t.is_empty()) else {
            return Ok(super::invalid_link_page(app));
        };
        if !app.mailing().reset_token_works(&token).await? {
            return Ok(super::invalid_link_page(app));
        }
        Ok(super::password_form(app, StatusCode::OK, &token, None))
    }
}
