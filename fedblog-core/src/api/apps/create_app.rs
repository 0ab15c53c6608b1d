//! `POST /api/v1/apps`: register a client application. <https://docs.joinmastodon.org/methods/apps/#create>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::CredentialApplication;
use crate::error::ApiResult;
use crate::params::de;
use crate::services::oauth::NewApp;

/// Registers an application and returns its client credentials.
pub struct CreateApp;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct CreateAppRequest {
    /// Name (at most 60 characters).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub client_name: Option<String>,
    /// Redirect URIs: newline-separated text or a list.
    #[serde(default, deserialize_with = "de::list")]
    pub redirect_uris: Vec<String>,
    /// Space-separated scopes (default `read`).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub scopes: Option<String>,
    /// Homepage (at most 2000 characters).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub website: Option<String>,
}

impl Endpoint for CreateApp {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/apps";
    const AUTH: Auth = Auth::Public;
    type Request = CreateAppRequest;
    type Response = Json<CredentialApplication>;

    async fn handle(
        app: &App,
        _caller: &Caller,
        req: CreateAppRequest,
    ) -> ApiResult<Self::Response> {
        let record = app
            .oauth()
            .create_app(NewApp {
                name: req.client_name.unwrap_or_default(),
                redirect_uris: req.redirect_uris,
                scopes: req.scopes,
                website: req.website,
            })
            .await?;
        Ok(Json(CredentialApplication {
            application: app.render_application(&record),
            client_id: record.client_id,
            client_secret: record.client_secret,
            client_secret_expires_at: 0,
        }))
    }
}
