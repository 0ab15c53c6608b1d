//! `POST /api/v1/reports`: report an account (`account_id`), with some of its statuses (`status_ids[]`), a `comment`, a `category` and the rules broken (`rule_ids[]`). <https://docs.joinmastodon.org/methods/reports/#post>

use http::Method;
use serde::Deserialize;
use serde_json::Value;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Report;
use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::services::reports::NewReport;

use super::report_handlers;

/// Files a report and answers it. An unknown or suspended account, or a status that is not one
/// of its statuses the caller may see, is a 404; reporting oneself, a comment over 1,000
/// characters, an unknown category, `violation` without rules, or a rule the server does not have
/// is a 422. Rules named make the category `violation`. The staff that handle reports get an
/// `admin.report` notification, unless another report about the account is still open.
/// `forward` is recorded for a remote account (`forwarded`), but no `Flag` is sent yet.
/// <https://docs.joinmastodon.org/methods/reports/#post>
pub struct CreateReport;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CreateReportRequest {
    /// The account to report (required).
    #[serde(deserialize_with = "de::opt_string")]
    pub account_id: Option<String>,
    /// Statuses of that account.
    #[serde(deserialize_with = "de::list")]
    pub status_ids: Vec<Value>,
    /// Why.
    #[serde(deserialize_with = "de::opt_string")]
    pub comment: Option<String>,
    /// Forward to the account's server (remote accounts only).
    #[serde(deserialize_with = "de::opt_bool")]
    pub forward: Option<bool>,
    /// The servers to forward to.
    #[serde(deserialize_with = "de::list")]
    pub forward_to_domains: Vec<Value>,
    /// `spam`, `legal`, `violation` or `other`.
    #[serde(deserialize_with = "de::opt_string")]
    pub category: Option<String>,
    /// The server's rules broken.
    #[serde(deserialize_with = "de::list")]
    pub rule_ids: Vec<Value>,
}

/// The texts of a list of strings or numbers (anything else becomes text that names nothing).
fn texts(values: Vec<Value>) -> Vec<String> {
    values
        .into_iter()
        .filter_map(|v| match v {
            Value::Null => None,
            Value::String(s) if s.trim().is_empty() => None,
            Value::String(s) => Some(s),
            other => Some(other.to_string()),
        })
        .collect()
}

impl Endpoint for CreateReport {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/reports";
    const AUTH: Auth = Auth::User("write:reports");
    type Request = CreateReportRequest;
    type Response = Json<Report>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CreateReportRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let account_id = r.account_id.ok_or_else(|| {
            ApiError::invalid_field("account_id", "ERR_BLANK", "Account can't be blank")
        })?;
        let new = NewReport {
            account_id,
            status_ids: texts(r.status_ids),
            comment: r.comment.unwrap_or_default(),
            forward: r.forward.unwrap_or(false),
            forward_to_domains: texts(r.forward_to_domains),
            category: r.category,
            rule_ids: texts(r.rule_ids),
        };
        let filed = app
            .reports()
            .file_report(me, new, &report_handlers(app).await?)
            .await?;
        Ok(Json(app.render_report(&filed)))
    }
}
