//! `POST /api/v1/admin/trends/links/:id/approve`: staff decide that a link may trend.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminTrendLink;
use crate::error::ApiResult;

/// Approves a link (a preview card) for trends (may trend). 404 when no link has that id; answers it as staff see it. Needs the `admin:write` scope and a role that manages taxonomies.
pub struct ApproveTrendLink;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ApproveTrendLinkRequest {
    /// Id (path).
    pub id: String,
}

impl Endpoint for ApproveTrendLink {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/trends/links/:id/approve";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = ApproveTrendLinkRequest;
    type Response = Json<AdminTrendLink>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ApproveTrendLinkRequest,
    ) -> ApiResult<Self::Response> {
        super::review_link(app, caller, &r.id, true).await
    }
}
