//! `POST /api/v1/admin/reports/:id/unassign`: leave a report to anyone: it is assigned to no one. <https://docs.joinmastodon.org/methods/admin/reports/#unassign>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminReport;
use crate::error::ApiResult;
use crate::services::reports::ReportAction;

use super::act;

/// Leaves a report to anyone: it is assigned to no one; 404 when unknown. <https://docs.joinmastodon.org/methods/admin/reports/#unassign>
pub struct UnassignReport;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnassignReportRequest {
    /// Report id (path).
    pub id: String,
}

impl Endpoint for UnassignReport {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/reports/:id/unassign";
    const AUTH: Auth = Auth::User("admin:write:reports");
    type Request = UnassignReportRequest;
    type Response = Json<AdminReport>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnassignReportRequest,
    ) -> ApiResult<Self::Response> {
        act(app, caller, &r.id, ReportAction::Unassign).await
    }
}
