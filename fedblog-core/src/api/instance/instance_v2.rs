//! `GET /api/v2/instance`: Server information. <https://docs.joinmastodon.org/methods/instance/#v2>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::error::ApiResult;

/// Server information. <https://docs.joinmastodon.org/methods/instance/#v2>
pub struct InstanceV2;

impl Endpoint for InstanceV2 {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2/instance";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<serde_json::Value>;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let area = app.instance();
        let (active, rules) = (area.active_month().await?, area.rules().await?);
        let thumbnail = area.thumbnail().await?;
        Ok(Json(app.render_instance_v2(
            active,
            area.translation(),
            rules.as_deref(),
            thumbnail.as_ref(),
        )))
    }
}
