//! `POST /api/v1/admin/trends/links/publishers/:id/reject`: staff decide that a publisher of links may not trend.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminTrendPublisher;
use crate::error::ApiResult;

/// Rejects a publisher of links (a preview card provider) for trends (may not trend). 404 when no publisher has that id; answers it as staff see it. Needs the `admin:write` scope and a role that manages taxonomies.
pub struct RejectTrendPublisher;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct RejectTrendPublisherRequest {
    /// Id (path).
    pub id: String,
}

impl Endpoint for RejectTrendPublisher {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/trends/links/publishers/:id/reject";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = RejectTrendPublisherRequest;
    type Response = Json<AdminTrendPublisher>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: RejectTrendPublisherRequest,
    ) -> ApiResult<Self::Response> {
        super::review_publisher(app, caller, &r.id, false).await
    }
}
