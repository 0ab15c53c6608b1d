//! `POST /api/v1/admin/reports/:id/resolve`: mark a report resolved, with no further action. <https://docs.joinmastodon.org/methods/admin/reports/#resolve>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminReport;
use crate::error::ApiResult;
use crate::services::reports::ReportAction;

use super::act;

/// Marks a report resolved by the caller, with no further action (already resolved, it stays as it was); 404 when unknown. <https://docs.joinmastodon.org/methods/admin/reports/#resolve>
pub struct ResolveReport;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ResolveReportRequest {
    /// Report id (path).
    pub id: String,
}

impl Endpoint for ResolveReport {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/reports/:id/resolve";
    const AUTH: Auth = Auth::User("admin:write:reports");
    type Request = ResolveReportRequest;
    type Response = Json<AdminReport>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ResolveReportRequest,
    ) -> ApiResult<Self::Response> {
        act(app, caller, &r.id, ReportAction::Resolve).await
    }
}
