//! `POST /api/v1/admin/trends/links/publishers/:id/approve`: staff decide that a publisher of links may trend.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::ApiResult;

/// Approves a publisher of links (a preview card provider) for trends (may trend). fedblog makes no preview cards yet, so every id is a 404. Needs the `admin:write` scope and a role that manages taxonomies.
pub struct ApproveTrendPublisher;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ApproveTrendPublisherRequest {
    /// Id (path).
    pub id: String,
}

impl Endpoint for ApproveTrendPublisher {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/trends/links/publishers/:id/approve";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = ApproveTrendPublisherRequest;
    type Response = Json<serde_json::Value>;

    async fn handle(
        _app: &App,
        caller: &Caller,
        r: ApproveTrendPublisherRequest,
    ) -> ApiResult<Self::Response> {
        super::review_card(caller, &r.id)
    }
}
