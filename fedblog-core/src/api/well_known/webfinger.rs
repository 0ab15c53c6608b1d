//! `GET /.well-known/webfinger?resource=`: a local account's JRD.
//! <https://docs.joinmastodon.org/spec/webfinger/>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Typed};
use crate::error::ApiResult;
use crate::params::de;
use crate::render::webfinger::JRD;

/// The JRD of the local account a resource names (`acct:user@domain`, or its profile or actor
/// URL): 400 without a resource, 404 for anything else, 410 for a suspended account.
pub struct GetWebfinger;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct WebfingerRequest {
    /// `acct:user@domain`, or a profile or actor URL.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub resource: Option<String>,
}

impl Endpoint for GetWebfinger {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/.well-known/webfinger";
    const AUTH: Auth = Auth::Public;
    type Request = WebfingerRequest;
    type Response = Typed;

    async fn handle(app: &App, _caller: &Caller, r: WebfingerRequest) -> ApiResult<Typed> {
        let account = app
            .webfinger()
            .resolve(r.resource.as_deref().unwrap_or(""))
            .await?;
        Ok(Typed(JRD, app.render_webfinger(&account).to_string()))
    }
}
