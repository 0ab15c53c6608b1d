//! `GET /api/v1/instance/terms_of_service`: The terms of service in effect. <https://docs.joinmastodon.org/methods/instance/#terms_of_service>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::TermsOfService;
use crate::error::ApiResult;

/// The published terms of service in effect today (or, before the first comes into effect, the
/// next to); 404 when none is published. <https://docs.joinmastodon.org/methods/instance/#terms_of_service>
pub struct GetTermsOfService;

impl Endpoint for GetTermsOfService {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/instance/terms_of_service";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<TermsOfService>;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        let terms = app.instance().current_terms(app.now().date_naive()).await?;
        Ok(Json(app.render_terms_of_service(&terms)))
    }
}
