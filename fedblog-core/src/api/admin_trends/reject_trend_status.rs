//! `POST /api/v1/admin/trends/statuses/:id/reject`: staff decide that a status may not trend.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminTrendStatus;
use crate::error::ApiResult;

/// Rejects the status for trends (may not trend), recording the review; answers it with `requires_review`. 404 when unknown, and for a status that cannot trend (not public, or a reblog). Needs the `admin:write` scope and a role that manages taxonomies.
pub struct RejectTrendStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct RejectTrendStatusRequest {
    /// Id (path).
    pub id: String,
}

impl Endpoint for RejectTrendStatus {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/trends/statuses/:id/reject";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = RejectTrendStatusRequest;
    type Response = Json<AdminTrendStatus>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: RejectTrendStatusRequest,
    ) -> ApiResult<Self::Response> {
        super::review_status(app, caller, &r.id, false).await
    }
}
