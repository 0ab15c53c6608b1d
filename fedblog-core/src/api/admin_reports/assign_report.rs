//! `POST /api/v1/admin/reports/:id/assign_to_self`: take a report on: it is assigned to the caller. <https://docs.joinmastodon.org/methods/admin/reports/#assign_to_self>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminReport;
use crate::error::ApiResult;
use crate::services::reports::ReportAction;

use super::act;

/// Takes a report on: it is assigned to the caller (one assigned to someone else is taken over); 404 when unknown. <https://docs.joinmastodon.org/methods/admin/reports/#assign_to_self>
pub struct AssignReport;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct AssignReportRequest {
    /// Report id (path).
    pub id: String,
}

impl Endpoint for AssignReport {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/reports/:id/assign_to_self";
    const AUTH: Auth = Auth::User("admin:write:reports");
    type Request = AssignReportRequest;
    type Response = Json<AdminReport>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: AssignReportRequest,
    ) -> ApiResult<Self::Response> {
        act(app, caller, &r.id, ReportAction::AssignToSelf).await
    }
}
