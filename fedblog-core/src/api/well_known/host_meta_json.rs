//! `GET /.well-known/host-meta.json`: where WebFinger is, in JSON (JRD).
//! <https://www.rfc-editor.org/rfc/rfc6415>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::error::ApiResult;

/// The JRD naming the WebFinger template.
pub struct HostMetaJson;

impl Endpoint for HostMetaJson {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/.well-known/host-meta.json";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<serde_json::Value>;

    async fn handle(app: &App, _caller: &Caller, _r: NoParams) -> ApiResult<Self::Response> {
        Ok(Json(app.render_host_meta_json()))
    }
}
