//! `POST /api/v1/admin/retention`: how many local accounts that signed up in a period were
//! still active in each later one.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminCohort;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::services::metrics::{DayRange, Frequency};

/// One cohort per `frequency` period (`day`, the default, or `month`) from `start_at` to
/// `end_at` (at most 366 periods), each with the share of its members whose last activity is
/// in each period from its own to the last. A missing or unreadable date is a 422. Needs the
/// `admin:read` scope and a role that views the dashboard.
pub struct GetRetention;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetRetentionRequest {
    /// The first day.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub start_at: Option<String>,
    /// The last day.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub end_at: Option<String>,
    /// `day` or `month`.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub frequency: Option<String>,
}

impl Endpoint for GetRetention {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/retention";
    const AUTH: Auth = Auth::User("admin:read");
    type Request = GetRetentionRequest;
    type Response = Json<Vec<AdminCohort>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetRetentionRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::VIEW_DASHBOARD)?;
        let range = DayRange::parse_unbounded(r.start_at.as_deref(), r.end_at.as_deref())?;
        let frequency = Frequency::parse(r.frequency.as_deref());
        let cohorts = app.metrics().retention(range, frequency).await?;
        Ok(Json(
            cohorts.iter().map(|c| app.render_admin_cohort(c)).collect(),
        ))
    }
}
