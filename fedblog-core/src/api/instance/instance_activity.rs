//! `GET /api/v1/instance/activity`: Weekly activity of the last 12 weeks, numbers as strings. <https://docs.joinmastodon.org/methods/instance/#activity>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::error::ApiResult;

/// Weekly activity of the last 12 weeks, numbers as strings. <https://docs.joinmastodon.org/methods/instance/#activity>
pub struct InstanceActivity;

impl Endpoint for InstanceActivity {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/instance/activity";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<serde_json::Value>;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let weeks = app.instance().activity().await?;
        Ok(Json(app.render_activity(&weeks)))
    }
}
