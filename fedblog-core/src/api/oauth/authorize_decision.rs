//! `POST /oauth/authorize`: the submitted sign-in and consent form; redirects with a code or an error.

use http::Method;
use serde::Deserialize;

use super::{AuthorizeParams, page, refusal, sign_in_form};
use crate::api::pages;
use crate::app::{App, Caller};
use crate::content::escape;
use crate::endpoint::{Auth, Endpoint, Html, Redirect};
use crate::error::ApiResult;
use crate::params::de;
use crate::rate_limit::Family;
use crate::services::oauth::{OOB_REDIRECT, with_query};

/// Signs the user in and records their decision.
pub struct AuthorizeDecision;

/// The form's fields.
#[derive(Debug, Deserialize)]
pub struct DecisionRequest {
    /// The authorization request carried along.
    #[serde(flatten)]
    pub params: AuthorizeParams,
    /// Username or e-mail address.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub username: Option<String>,
    /// Password.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub password: Option<String>,
    /// `approve` or `deny`.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub decision: Option<String>,
}

impl Endpoint for AuthorizeDecision {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/oauth/authorize";
    const AUTH: Auth = Auth::Public;
    const RATE_LIMITS: &'static [crate::rate_limit::Family] = &[crate::rate_limit::Family::SignIn];
    type Request = DecisionRequest;
    type Response = Redirect;

    async fn handle(app: &App, _caller: &Caller, req: DecisionRequest) -> ApiResult<Redirect> {
        let valid = match req.params.validate(app).await {
            Ok(v) => v,
            Err(e) => return Ok(refusal(app, &e)),
        };
        let state = valid.state.clone().unwrap_or_default();
        let mut extra: Vec<(&str, &str)> = vec![];
        if !state.is_empty() {
            extra.push(("state", &state));
        }
        if req.decision.as_deref() == Some("deny") {
            if valid.redirect_uri == OOB_REDIRECT {
                return Ok(Redirect::Page(Html(
                    http::StatusCode::OK,
                    page(
                        app,
                        "Authorization denied",
                        &format!(
                            "{}<p>You can close this page.</p>",
                            pages::success(&format!(
                                "You denied <strong>{}</strong> access to your account.",
                                escape(&valid.app.name)
                            ))
                        ),
                    ),
                )));
            }
            let mut pairs = vec![
                ("error", "access_denied"),
                (
                    "error_description",
                    "The resource owner or authorization server denied the request.",
                ),
            ];
            pairs.extend(extra);
            return Ok(Redirect::To(with_query(&valid.redirect_uri, &pairs)));
        }
        let login = req.username.unwrap_or_default();
        let password = req.password.unwrap_or_default();
        // Guesses are limited per client address (the route's own limit) and per account
        // named, known or not, so the limit tells nothing about which accounts exist.
        let named = login.trim().trim_start_matches('@').to_lowercase();
        if !named.is_empty() {
            app.rate_limits()
                .charge(Family::SignInAccount, &named)
                .await?;
        }
        let Some((account, user)) = app.oauth().sign_in(&login, &password).await? else {
            return Ok(Redirect::Page(sign_in_form(
                app,
                &valid,
                &login,
                Some("Invalid username, e-mail or password."),
            )));
        };
        let refusal = if account.is_suspended() || user.disabled {
            Some("Your login is currently disabled.")
        } else if user.confirmed_at.is_none() {
            Some(
                "Your login is missing a confirmed e-mail address: open the link we sent you first.",
            )
        } else if !user.approved {
            Some("Your login is currently pending approval.")
        } else {
            None
        };
        if let Some(r) = refusal {
            let mut html = sign_in_form(app, &valid, &login, Some(r));
            html.0 = http::StatusCode::FORBIDDEN;
            return Ok(Redirect::Page(html));
        }
        let code = app.oauth().issue_code(&valid, account.id).await?;
        if valid.redirect_uri == OOB_REDIRECT {
            let body = format!(
                "<p>Copy this authorization code and paste it into <strong>{}</strong>:</p>\
<p><code id=\"code\" class=\"copy\">{}</code></p>\
<p class=\"muted\">The code works once, for a few minutes. Then you can close this page.</p>",
                escape(&valid.app.name),
                escape(&code)
            );
            return Ok(Redirect::Page(Html(
                http::StatusCode::OK,
                page(app, "Authorization code", &body),
            )));
        }
        let mut pairs = vec![("code", code.as_str())];
        pairs.extend(extra);
        Ok(Redirect::To(with_query(&valid.redirect_uri, &pairs)))
    }
}
