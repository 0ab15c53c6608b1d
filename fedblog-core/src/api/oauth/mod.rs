//! OAuth 2 endpoints and the sign-in/consent page. <https://docs.joinmastodon.org/methods/oauth/>

pub mod authorize_decision;
pub mod authorize_page;
pub mod create_token;
pub mod introspect_token;
pub mod revoke_token;
pub mod scope_words;
pub mod server_metadata;
pub mod token_info;
pub mod userinfo;

use http::StatusCode;
use serde::Deserialize;

use crate::api::pages;
use crate::app::App;
use crate::content::escape;
use crate::endpoint::{Endpoint, Html, Redirect};
use crate::error::ApiError;
use crate::params::de;
use crate::services::oauth::{
    AuthorizationError, AuthorizationQuery, AuthorizationRequest, OOB_REDIRECT, with_query,
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

/// Where the sign-in form's "Forgot your password?" link leads (the password-reset request
/// page).
pub const FORGOT_PASSWORD_PATH: &str = "/auth/password/new";

/// A whole page around a body: the shared layout of [`crate::api::pages`] (the instance's
/// header, `title` as the heading, the footer); `body` is HTML the caller escaped.
pub fn page(app: &App, title: &str, body: &str) -> String {
    pages::layout(app, title, body)
}

/// The sign-in and consent form for a valid authorization request: which app asks (its name
/// and website), what each requested scope lets it do, the sign-in fields and the two buttons.
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
    let instance = escape(&app.config.title);
    let mut body = String::new();
    if let Some(e) = error {
        body.push_str(&pages::alert(e));
    }
    let website = match req.app.website.as_deref().and_then(pages::web_href) {
        Some(href) => format!(
            "<p class=\"muted\">Website: <a href=\"{href}\" rel=\"noopener noreferrer nofollow\">{href}</a></p>"
        ),
        None => "<p class=\"muted\">This app gives no website.</p>".to_string(),
    };
    body.push_str(&format!(
        "<section class=\"card\" aria-label=\"The app\"><p><strong class=\"app-name\">{}</strong> \
wants to use your account on <strong>{instance}</strong>.</p>{website}\
<h2>If you authorize it, it can:</h2>{}</section>",
        escape(&req.app.name),
        scope_words::scope_list(&req.scopes),
    ));
    body.push_str(&format!(
        "<form class=\"card\" method=\"post\" action=\"{}\"><h2>Sign in to {instance}</h2>",
        authorize_decision::AuthorizeDecision::PATH
    ));
    for (name, value) in hidden {
        body.push_str(&format!(
            "<input type=\"hidden\" name=\"{name}\" value=\"{}\">",
            escape(&value)
        ));
    }
    let after = if req.redirect_uri == OOB_REDIRECT {
        "If you authorize it, the next page shows a code to copy into the app.".to_string()
    } else {
        format!(
            "Either way, you go back to <code>{}</code>.",
            escape(&req.redirect_uri)
        )
    };
    body.push_str(&format!(
        "<label for=\"username\">Username or e-mail</label>\
<input type=\"text\" id=\"username\" name=\"username\" autocomplete=\"username\" autocapitalize=\"none\" \
spellcheck=\"false\" required value=\"{}\">\
<label for=\"password\">Password</label>\
<input type=\"password\" id=\"password\" name=\"password\" autocomplete=\"current-password\" required>\
<p class=\"aside\"><a href=\"{FORGOT_PASSWORD_PATH}\">Forgot your password?</a></p>\
<div class=\"buttons\"><button class=\"primary\" type=\"submit\" name=\"decision\" value=\"approve\">Authorize</button>\
<button type=\"submit\" name=\"decision\" value=\"deny\" formnovalidate>Deny</button></div>\
<p class=\"muted\">{after}</p></form>",
        escape(login)
    ));
    let status = if error.is_some() {
        StatusCode::UNAUTHORIZED
    } else {
        StatusCode::OK
    };
    Html(status, page(app, "Authorize an app", &body))
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
    let mut body = pages::alert(e.description.as_deref().unwrap_or(&e.message));
    if e.description.is_some() {
        body.push_str(&format!(
            "<p class=\"muted\">Error code: <code>{}</code></p>",
            escape(&e.message)
        ));
    }
    body.push_str(if e.status.is_client_error() {
        "<p>Nothing was shared with the app. Go back to it and start signing in again; if \
this page comes back, the app asks in a way this server does not accept, and its developers \
can tell from the error above.</p>"
    } else {
        "<p>Nothing was shared with the app. The server could not finish this request; try \
again in a moment.</p>"
    });
    Html(
        if e.status.is_client_error() {
            e.status
        } else {
            StatusCode::BAD_REQUEST
        },
        page(app, "This app cannot be authorized", &body),
    )
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::scope::Scopes;
    use crate::store::records::AppRecord;

    fn app() -> App {
        let mut config = crate::InstanceConfig::new("pages.test");
        config.title = "Harbour Social".into();
        App::new(Arc::new(crate::MemoryStore::new()), config)
    }

    fn request(name: &str, website: Option<&str>, scopes: &str) -> AuthorizationRequest {
        AuthorizationRequest {
            app: AppRecord {
                id: crate::Id(7),
                name: name.into(),
                website: website.map(str::to_string),
                redirect_uris: vec!["https://client.example/cb".into()],
                scopes: scopes.into(),
                client_id: "cid".into(),
                client_secret: "secret".into(),
                created_at: chrono::Utc::now(),
            },
            redirect_uri: "https://client.example/cb".into(),
            scopes: Scopes::parse(scopes).unwrap(),
            state: Some("st\"ate".into()),
            code_challenge: None,
            code_challenge_method: None,
        }
    }

    #[test]
    fn the_consent_page_names_the_instance_the_app_and_each_scope() {
        let req = request(
            "Tusky",
            Some("https://tusky.example"),
            "read write:media push",
        );
        let Html(status, html) = sign_in_form(&app(), &req, "", None);
        assert_eq!(status, StatusCode::OK);
        assert!(html.contains("<span class=\"name\">Harbour Social</span>"));
        assert!(html.contains("<span class=\"domain\">pages.test</span>"));
        assert!(html.contains("Sign in to Harbour Social"));
        assert!(html.contains("<strong class=\"app-name\">Tusky</strong>"));
        assert!(html.contains("<a href=\"https://tusky.example\""));
        for scope in ["read", "write:media", "push"] {
            let words = scope_words::describe(scope).unwrap();
            assert!(
                html.contains(&format!(
                    "<span class=\"words\">{}</span> <code>{scope}</code>",
                    escape(words)
                )),
                "{scope}: {html}"
            );
        }
        assert!(!html.to_lowercase().contains("<script"));
        assert!(html.contains("Either way, you go back to <code>https://client.example/cb</code>"));
        assert!(html.contains(&format!("href=\"{FORGOT_PASSWORD_PATH}\"")));
    }

    #[test]
    fn the_form_keeps_its_field_names() {
        let req = request("App", None, "read");
        let Html(_, html) = sign_in_form(&app(), &req, "ada", None);
        for hidden in [
            "<input type=\"hidden\" name=\"response_type\" value=\"code\">",
            "<input type=\"hidden\" name=\"client_id\" value=\"cid\">",
            "<input type=\"hidden\" name=\"redirect_uri\" value=\"https://client.example/cb\">",
            "<input type=\"hidden\" name=\"scope\" value=\"read\">",
            "<input type=\"hidden\" name=\"state\" value=\"st&quot;ate\">",
            "<input type=\"hidden\" name=\"code_challenge\" value=\"\">",
            "<input type=\"hidden\" name=\"code_challenge_method\" value=\"\">",
        ] {
            assert!(html.contains(hidden), "{hidden}: {html}");
        }
        assert!(html.contains("name=\"username\""));
        assert!(html.contains("value=\"ada\""));
        assert!(html.contains("type=\"password\" id=\"password\" name=\"password\""));
        assert!(html.contains("name=\"decision\" value=\"approve\">Authorize</button>"));
        assert!(html.contains("name=\"decision\" value=\"deny\" formnovalidate>Deny</button>"));
        assert_eq!(html.matches("<form").count(), 1);
        assert!(html.contains("<label for=\"username\">"));
        assert!(html.contains("<label for=\"password\">"));
        assert!(html.contains("This app gives no website."));
    }

    #[test]
    fn hostile_app_names_and_websites_are_escaped() {
        let req = request(
            "<script>alert(1)</script> & \"Co\"",
            Some("https://evil.example/?q=\"><script>alert(2)</script>"),
            "read",
        );
        let Html(_, html) = sign_in_form(&app(), &req, "\"><b>", Some("<i>bad</i>"));
        assert!(!html.to_lowercase().contains("<script"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;"));
        assert!(html.contains(
            "href=\"https://evil.example/?q=&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;\""
        ));
        assert!(html.contains("value=\"&quot;&gt;&lt;b&gt;\""));
        assert!(html.contains("<div class=\"alert\" role=\"alert\">&lt;i&gt;bad&lt;/i&gt;</div>"));
        for website in ["javascript:alert(3)", "data:text/html,hi"] {
            let req = request("App", Some(website), "read");
            let Html(_, html) = sign_in_form(&app(), &req, "", None);
            assert!(!html.contains("<a href=\"javascript"), "{html}");
            assert!(!html.contains("<a href=\"data"), "{html}");
            assert!(html.contains("This app gives no website."));
        }
    }

    #[test]
    fn an_error_shows_in_an_alert_with_a_status_of_its_own() {
        let req = request("App", None, "read");
        let Html(status, html) = sign_in_form(
            &app(),
            &req,
            "ada",
            Some("Invalid username, e-mail or password."),
        );
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert!(html.contains(
            "<div class=\"alert\" role=\"alert\">Invalid username, e-mail or password.</div>"
        ));
    }

    #[test]
    fn the_error_page_uses_the_layout() {
        let e = ApiError::oauth(
            StatusCode::BAD_REQUEST,
            "invalid_client",
            "Client <unknown>",
        );
        let Html(status, html) = error_page(&app(), &e);
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(html.contains("<span class=\"name\">Harbour Social</span>"));
        assert!(html.contains("<div class=\"alert\" role=\"alert\">Client &lt;unknown&gt;</div>"));
        assert!(html.contains("<code>invalid_client</code>"));
        assert!(html.contains(pages::STYLESHEET));
    }
}
