//! `GET /api/v1/instance/terms_of_service/:date`: The terms of service effective from a date. <https://docs.joinmastodon.org/methods/instance/#terms_of_service_date>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::TermsOfService;
use crate::error::ApiResult;

/// The published version of the terms of service effective from a date; 404 when there is
/// none (or the date is not one, as for an id that names nothing). <https://docs.joinmastodon.org/methods/instance/#terms_of_service_date>
pub struct GetTermsOfServiceOn;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetTermsOfServiceOnRequest {
    /// The effective date (path), `YYYY-MM-DD`.
    pub date: String,
}

impl Endpoint for GetTermsOfServiceOn {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/instance/terms_of_service/:date";
    const AUTH: Auth = Auth::Public;
    type Request = GetTermsOfServiceOnRequest;
    type Response = Json<TermsOfService>;

    async fn handle(
        app: &App,
        _caller: &Caller,
        r: GetTermsOfServiceOnRequest,
    ) -> ApiResult<Self::Response> {
        let terms = app
            .instance()
            .terms_on(&r.date, app.now().date_naive())
            .await?;
        Ok(Json(app.render_terms_of_service(&terms)))
    }
}
