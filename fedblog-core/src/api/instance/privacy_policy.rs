//! `GET /api/v1/instance/privacy_policy`: The privacy policy, as HTML. <https://docs.joinmastodon.org/methods/instance/#privacy_policy>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::PrivacyPolicy;
use crate::error::ApiResult;
use crate::services::instance::PolicyText;

/// The privacy policy, as HTML (a default one until the administrator sets one). <https://docs.joinmastodon.org/methods/instance/#privacy_policy>
pub struct GetPrivacyPolicy;

impl Endpoint for GetPrivacyPolicy {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/instance/privacy_policy";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<PrivacyPolicy>;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let text = app.instance().text(PolicyText::PrivacyPolicy).await?;
        Ok(Json(app.render_privacy_policy(&text)))
    }
}
