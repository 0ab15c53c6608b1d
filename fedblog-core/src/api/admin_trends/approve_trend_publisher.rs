//! `POST /api/v1/admin/trends/links/publishers/:id/approve`: staff decide that a publisher of links may trend.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminTrendPublisher;
use crate::error::ApiResult;

/// Approves a publisher of links (a preview card provider) for trends (may trend). 404 when no publisher has that id; answers it as staff see it. Needs the `admin:write` scope and a role that manages taxonomies.
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
    type Response = Json<AdminTrendPublisher>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ApproveTrendPublisherRequest,
    ) -> ApiResult<Self::Response> {
        super::review_publisher(app, caller, &r.id, true).await
    }
}
