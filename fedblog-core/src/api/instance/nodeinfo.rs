//! `GET /nodeinfo/2.0`: The NodeInfo 2.0 document. <https://nodeinfo.diaspora.software/protocol>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::error::ApiResult;

/// The NodeInfo 2.0 document. <https://nodeinfo.diaspora.software/protocol>
pub struct Nodeinfo;

impl Endpoint for Nodeinfo {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/nodeinfo/2.0";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<serde_json::Value>;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let area = app.instance();
        let (totals, active) = (area.totals().await?, area.active_users().await?);
        Ok(Json(app.render_nodeinfo("2.0", totals, active)))
    }
}
