//! `POST /api/v1/admin/measures`: numbers of the server per day over a range of days.

use http::Method;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminMeasure;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::services::metrics::DayRange;

/// The measures named by `keys[]` from `start_at` to `end_at` (days, both included, at most
/// 366), in the order asked; unknown keys are left out. The per-tag and per-server measures
/// take their own parameters (`tag_accounts[id]`, `instance_accounts[domain]`, ...): one
/// missing is a 400, an unknown tag a 404. A missing or unreadable date is a 422. Needs the
/// `admin:read` scope and a role that views the dashboard.
pub struct GetMeasures;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetMeasuresRequest {
    /// The measures asked for.
    #[serde(default, deserialize_with = "de::list")]
    pub keys: Vec<String>,
    /// The first day.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub start_at: Option<String>,
    /// The last day.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub end_at: Option<String>,
    /// Each key's own parameters, under its name.
    #[serde(flatten)]
    pub params: Map<String, Value>,
}

impl Endpoint for GetMeasures {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/measures";
    const AUTH: Auth = Auth::User("admin:read");
    type Request = GetMeasuresRequest;
    type Response = Json<Vec<AdminMeasure>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetMeasuresRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::VIEW_DASHBOARD)?;
        let range = DayRange::parse(r.start_at.as_deref(), r.end_at.as_deref())?;
        let measures = app.metrics().measures(&r.keys, range, &r.params).await?;
        Ok(Json(
            measures
                .iter()
                .map(|m| app.render_admin_measure(m))
                .collect(),
        ))
    }
}
