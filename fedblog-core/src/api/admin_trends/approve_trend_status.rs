//! `POST /api/v1/admin/trends/statuses/:id/approve`: staff decide that a status may trend.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminTrendStatus;
use crate::error::ApiResult;

/// Approves the status for trends (may trend), recording the review; answers it with `requires_review`. 404 when unknown, and for a status that cannot trend (not public, or a reblog). Needs the `admin:write` scope and a role that manages taxonomies.
pub struct ApproveTrendStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ApproveTrendStatusRequest {
    /// Id (path).
    pub id: String,
}

impl Endpoint for ApproveTrendStatus {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/trends/statuses/:id/approve";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = ApproveTrendStatusRequest;
    type Response = Json<AdminTrendStatus>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ApproveTrendStatusRequest,
    ) -> ApiResult<Self::Response> {
        super::review_status(app, caller, &r.id, true).await
    }
}
