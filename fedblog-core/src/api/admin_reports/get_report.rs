//! `GET /api/v1/admin/reports/:id`: one report as moderators see it. <https://docs.joinmastodon.org/methods/admin/reports/#get-one>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminReport;
use crate::error::ApiResult;
use crate::permissions::{self, Permissions};

use super::rendered_one;

/// One report, open or resolved; 404 when unknown. <https://docs.joinmastodon.org/methods/admin/reports/#get-one>
pub struct GetReport;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetReportRequest {
    /// Report id (path).
    pub id: String,
}

impl Endpoint for GetReport {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/reports/:id";
    const AUTH: Auth = Auth::User("admin:read:reports");
    type Request = GetReportRequest;
    type Response = Json<AdminReport>;

    async fn handle(app: &App, caller: &Caller, r: GetReportRequest) -> ApiResult<Self::Response> {
        let me = permissions::require(caller, Permissions::MANAGE_REPORTS)?;
        let view = app.reports().report(path_id(&r.id)?).await?;
        rendered_one(app, me, view).await
    }
}
