//! `GET /.well-known/nodeinfo`: Where the NodeInfo document is. <https://nodeinfo.diaspora.software/protocol>

use http::Method;
use serde_json::json;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::error::ApiResult;

/// Where the NodeInfo document is. <https://nodeinfo.diaspora.software/protocol>
pub struct NodeinfoDiscovery;

impl Endpoint for NodeinfoDiscovery {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/.well-known/nodeinfo";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<serde_json::Value>;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let link = |version: &str| {
            json!({
                "rel": format!("http://nodeinfo.diaspora.software/ns/schema/{version}"),
                "href": format!("{}/nodeinfo/{version}", app.base_url()),
            })
        };
        Ok(Json(json!({ "links": [link("2.0"), link("2.1")] })))
    }
}
