//! `GET /.well-known/oauth-authorization-server`: OAuth server metadata (RFC 8414). <https://docs.joinmastodon.org/methods/oauth/#authorization-server-metadata>

use http::Method;
use serde_json::{Value, json};

use crate::api::apps::create_app::CreateApp;
use crate::api::oauth::{
    authorize_page::AuthorizePage, create_token::CreateToken, revoke_token::RevokeToken,
    userinfo::Userinfo,
};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::error::ApiResult;
use crate::scope::KNOWN_SCOPES;

/// Describes the authorization server.
pub struct ServerMetadata;

impl Endpoint for ServerMetadata {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/.well-known/oauth-authorization-server";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<Value>;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let base = app.base_url();
        Ok(Json(json!({
            "issuer": format!("{base}/"),
            "service_documentation": "https://docs.joinmastodon.org/",
            "authorization_endpoint": format!("{base}{}", AuthorizePage::PATH),
            "token_endpoint": format!("{base}{}", CreateToken::PATH),
            "revocation_endpoint": format!("{base}{}", RevokeToken::PATH),
            "userinfo_endpoint": format!("{base}{}", Userinfo::PATH),
            "app_registration_endpoint": format!("{base}{}", CreateApp::PATH),
            "scopes_supported": KNOWN_SCOPES,
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": ["authorization_code", "client_credentials"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
            "code_challenge_methods_supported": ["S256"],
        })))
    }
}
