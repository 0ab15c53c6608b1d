//! `GET /api/v1/instance/peers`: Domains this server knows. <https://docs.joinmastodon.org/methods/instance/#peers>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::error::ApiResult;

/// Domains this server knows. <https://docs.joinmastodon.org/methods/instance/#peers>
pub struct InstancePeers;

impl Endpoint for InstancePeers {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/instance/peers";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<Vec<String>>;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        Ok(Json(app.store.known_domains().await?))
    }
}
