//! `POST /api/v1/admin/reports/:id/reopen`: open a resolved report again. <https://docs.joinmastodon.org/methods/admin/reports/#reopen>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminReport;
use crate::error::ApiResult;
use crate::services::reports::ReportAction;

use super::act;

/// Opens a resolved report again (an open one stays open); 404 when unknown. <https://docs.joinmastodon.org/methods/admin/reports/#reopen>
pub struct ReopenReport;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ReopenReportRequest {
    /// Report id (path).
    pub id: String,
}

impl Endpoint for ReopenReport {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/reports/:id/reopen";
    const AUTH: Auth = Auth::User("admin:write:reports");
    type Request = ReopenReportRequest;
    type Response = Json<AdminReport>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ReopenReportRequest,
    ) -> ApiResult<Self::Response> {
        act(app, caller, &r.id, ReportAction::Reopen).await
    }
}
