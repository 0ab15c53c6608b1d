//! OAuth 2 endpoints and the sign-in/consent page. <https://docs.joinmastodon.org/methods/oauth/>

pub mod authorize_decision;
pub mod authorize_page;
pub mod create_token;
pub mod revoke_token;
pub mod server_metadata;
pub mod userinfo;

use http::StatusCode;
use serde::Deserialize;

use crate::app::App;
use crate::content::escape;
use crate::endpoint::{Endpoint, Html, Redirect};
use crate::error::ApiError;
use crate::params::de;
use crate::services::oauth::{
    AuthorizationError, AuthorizationQuery, AuthorizationRequest, with_query,
};

/// The parameters of an authorization request, as the page carries them along.
#[derive(Debug, Default, Deserialize)]
pub struct AuthorizeParams {
    /// Must be `code`.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub response_type: Option<String>,
    /// The app's client id.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub client_id: Option<String>,
    /// One of the app's redirect URIs.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub redirect_uri: Option<String>,
    /// Requested scopes (default `read`).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub scope: Option<String>,
    /// Opaque client state, echoed back.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub state: Option<String>,
    /// PKCE challenge.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub code_challenge: Option<String>,
    /// PKCE method (`S256`).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub code_challenge_method: Option<String>,
}

impl AuthorizeParams {
    /// Validates the request against the registered app.
    pub async fn validate(self, app: &App) -> Result<AuthorizationRequest, AuthorizationError> {
        app.oauth()
            .authorization_request(AuthorizationQuery {
                response_type: self.response_type,
                client_id: self.client_id,
                redirect_uri: self.redirect_uri,
                scope: self.scope,
                state: self.state,
                code_challenge: self.code_challenge,
                code_challenge_method: self.code_challenge_method,
            })
            .await
    }
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}\
form{display:flex;flex-direction:column;gap:.6rem}input{padding:.5rem;font-size:1rem}\
.buttons{display:flex;gap:.6rem}button{padding:.5rem 1rem;font-size:1rem}.error{color:#a00}code{word-break:break-all}";

/// A whole page around a body.
pub fn page(app: &App, title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">\
<title>{} - {}</title><style>{STYLE}</style></head><body><h1>{}</h1>{body}</body></html>",
        escape(title),
        escape(&app.config.title),
        escape(title)
    )
}

/// The sign-in and consent form for a valid authorization request.
pub fn sign_in_form(
    app: &App,
    req: &AuthorizationRequest,
    login: &str,
    error: Option<&str>,
) -> Html {
    let hidden = [
        ("response_type", "code".to_string()),
        ("client_id", req.app.client_id.clone()),
        ("redirect_uri", req.redirect_uri.clone()),
        ("scope", req.scopes.to_string()),
        ("state", req.state.clone().unwrap_or_default()),
        (
            "code_challenge",
            req.code_challenge.clone().unwrap_or_default(),
        ),
        (
            "code_challenge_method",
            req.code_challenge_method.clone().unwrap_or_default(),
        ),
    ];
    let mut body = String::new();
    if let Some(e) = error {
        body.push_str(&format!(
            "<p class=\"error\" role=\"alert\">{}</p>",
            escape(e)
        ));
    }
    body.push_str(&format!(
        "<p><strong>{}</strong> asks for access to your account with these permissions: <code>{}</code>.</p>",
        escape(&req.app.name),
        escape(&req.scopes.to_string())
    ));
    body.push_str(&format!(
        "<form method=\"post\" action=\"{}\">",
        authorize_decision::AuthorizeDecision::PATH
    ));
    for (name, value) in hidden {
        body.push_str(&format!(
            "<input type=\"hidden\" name=\"{name}\" value=\"{}\">",
            escape(&value)
        ));
    }
    body.push_str(&format!(
        "<label>Username or e-mail <input name=\"username\" autocomplete=\"username\" required value=\"{}\"></label>\
<label>Password <input type=\"password\" name=\"password\" autocomplete=\"current-password\" required></label>\
<div class=\"buttons\"><button type=\"submit\" name=\"decision\" value=\"approve\">Authorize</button>\
<button type=\"submit\" name=\"decision\" value=\"deny\" formnovalidate>Deny</button></div></form>",
        escape(login)
    ));
    let status = if error.is_some() {
        StatusCode::UNAUTHORIZED
    } else {
        StatusCode::OK
    };
    Html(status, page(app, "Authorize", &body))
}

/// The answer to a request that cannot go on: back to the client when its redirect URI is
/// trusted, else an error page.
pub fn refusal(app: &App, e: &AuthorizationError) -> Redirect {
    match e {
        AuthorizationError::Page(e) => Redirect::Page(error_page(app, e)),
        AuthorizationError::Redirect {
            redirect_uri,
            error,
            description,
            state,
        } => {
            let mut pairs = vec![
                ("error", error.as_str()),
                ("error_description", description.as_str()),
            ];
            if let Some(s) = state {
                pairs.push(("state", s.as_str()));
            }
            Redirect::To(with_query(redirect_uri, &pairs))
        }
    }
}

/// An error page for a request that cannot be redirected back to the client.
pub fn error_page(app: &App, e: &ApiError) -> Html {
    let text = e.description.clone().unwrap_or_else(|| e.message.clone());
    Html(
        if e.status.is_client_error() {
            e.status
        } else {
            StatusCode::BAD_REQUEST
        },
        page(
            app,
            "Authorization error",
            &format!(
                "<p class=\"error\">{}</p><p><code>{}</code></p>",
                escape(&text),
                escape(&e.message)
            ),
        ),
    )
}
