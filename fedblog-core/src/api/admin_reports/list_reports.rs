//! `GET /api/v1/admin/reports`: reports for moderators, open ones (or `resolved` ones), filtered by reporter (`account_id`) or reported account (`target_account_id`), newest first (100 by default, 200 at most). <https://docs.joinmastodon.org/methods/admin/reports/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::AdminReport;
use crate::error::ApiResult;
use crate::pagination::PageParams;
use crate::params::de;
use crate::permissions::{self, Permissions};
use crate::services::reports::ReportQuery;

use super::{DEFAULT_LIMIT, MAX_LIMIT, rendered};

/// Reports for moderators, with a `Link` header. An `account_id` or `target_account_id` that is
/// no id matches no report. <https://docs.joinmastodon.org/methods/admin/reports/#get>
pub struct ListReports;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
pub struct ListReportsRequest {
    /// Resolved reports (otherwise open ones).
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub resolved: Option<bool>,
    /// Reports filed by this account.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub account_id: Option<String>,
    /// Reports about this account.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub target_account_id: Option<String>,
    /// Cursors (report ids) and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListReports {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/reports";
    const AUTH: Auth = Auth::User("admin:read:reports");
    type Request = ListReportsRequest;
    type Response = Paged<AdminReport>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListReportsRequest,
    ) -> ApiResult<Self::Response> {
        let me = permissions::require(caller, Permissions::MANAGE_REPORTS)?;
        let query = ReportQuery {
            resolved: r.resolved == Some(true),
            account_id: r.account_id,
            target_account_id: r.target_account_id,
        };
        let found = app
            .reports()
            .reports_page(&query, r.page.page(DEFAULT_LIMIT, MAX_LIMIT))
            .await?;
        Ok(Paged {
            link: app.page_link(caller, found.first, found.last),
            items: rendered(app, me, &found.reports).await?,
        })
    }
}
