//! `GET /api/v1/instance`: Server information, version 1 (deprecated, still read by clients). <https://docs.joinmastodon.org/methods/instance/#v1>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::error::ApiResult;

/// Server information, version 1 (deprecated, still read by clients). <https://docs.joinmastodon.org/methods/instance/#v1>
pub struct InstanceV1;

impl Endpoint for InstanceV1 {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/instance";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<serde_json::Value>;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let area = app.instance();
        let (totals, domains) = (area.totals().await?, area.domain_count().await?);
        let (rules, thumbnail) = (area.rules().await?, area.thumbnail().await?);
        Ok(Json(app.render_instance_v1(
            totals,
            domains,
            rules.as_deref(),
            thumbnail.as_ref(),
        )))
    }
}
