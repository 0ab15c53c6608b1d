//! `GET /nodeinfo/2.1`: The NodeInfo 2.1 document. <https://nodeinfo.diaspora.software/protocol>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::error::ApiResult;

/// The NodeInfo 2.1 document: 2.0's, with the software's repository and homepage.
pub struct Nodeinfo21;

impl Endpoint for Nodeinfo21 {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/nodeinfo/2.1";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<serde_json::Value>;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let area = app.instance();
        let (totals, active) = (area.totals().await?, area.active_users().await?);
        Ok(Json(app.render_nodeinfo("2.1", totals, active)))
    }
}
