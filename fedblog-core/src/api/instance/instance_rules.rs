//! `GET /api/v1/instance/rules`: The server's rules (the store's, or the configured ones when it keeps no moderation data). <https://docs.joinmastodon.org/methods/instance/#rules>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::Rule;
use crate::error::ApiResult;

/// The server's rules. <https://docs.joinmastodon.org/methods/instance/#rules>
pub struct InstanceRules;

impl Endpoint for InstanceRules {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/instance/rules";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<Vec<Rule>>;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let rules = app.instance().rules().await?;
        Ok(Json(app.render_rules(rules.as_deref())))
    }
}
