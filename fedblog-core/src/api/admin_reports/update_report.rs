//! `PUT /api/v1/admin/reports/:id`: change a report's `category` or its rules (`rule_ids[]`). <https://docs.joinmastodon.org/methods/admin/reports/#update>

use http::Method;
use serde::Deserialize;
use serde_json::Value;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminReport;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{self, Permissions};
use crate::services::reports::ReportChanges;

use super::rendered_one;

/// Changes a report's category or rules and answers it. Rules named make it a `violation` and
/// must be rules of the server; another category named alone drops the rules, named with rules
/// it is a 422, as is `violation` without rules or an unknown category; 404 when unknown.
/// <https://docs.joinmastodon.org/methods/admin/reports/#update>
pub struct UpdateReport;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UpdateReportRequest {
    /// Report id (path).
    pub id: String,
    /// `spam`, `legal`, `violation` or `other`.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub category: Option<String>,
    /// The server's rules broken (absent: kept).
    #[serde(default, deserialize_with = "opt_list")]
    pub rule_ids: Option<Vec<Value>>,
}

/// A list that may be absent (`None`) or given empty (`Some(vec![])`).
fn opt_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<Value>>, D::Error> {
    de::list(d).map(Some)
}

impl Endpoint for UpdateReport {
    const METHOD: Method = Method::PUT;
    const PATH: &'static str = "/api/v1/admin/reports/:id";
    const AUTH: Auth = Auth::User("admin:write:reports");
    type Request = UpdateReportRequest;
    type Response = Json<AdminReport>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UpdateReportRequest,
    ) -> ApiResult<Self::Response> {
        let me = permissions::require(caller, Permissions::MANAGE_REPORTS)?;
        let changes = ReportChanges {
            category: r.category,
            rule_ids: r.rule_ids.map(|ids| {
                ids.into_iter()
                    .filter_map(|v| match v {
                        Value::Null => None,
                        Value::String(s) if s.trim().is_empty() => None,
                        Value::String(s) => Some(s),
                        other => Some(other.to_string()),
                    })
                    .collect()
            }),
        };
        let view = app
            .reports()
            .update_report(path_id(&r.id)?, changes)
            .await?;
        rendered_one(app, me, view).await
    }
}
