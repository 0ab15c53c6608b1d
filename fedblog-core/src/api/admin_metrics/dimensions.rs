//! `POST /api/v1/admin/dimensions`: the biggest groups of a kind over a range of days.

use http::Method;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminDimension;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::services::metrics::DayRange;

/// The dimensions named by `keys[]` from `start_at` to `end_at` (days, both included, at most
/// 366), each of at most `limit` rows (10 by default, 100 at most), in the order asked;
/// unknown keys are left out. The per-tag and per-server dimensions take their own parameters
/// (`tag_servers[id]`, `instance_languages[domain]`, ...): one missing is a 400, an unknown tag
/// a 404. A missing or unreadable date is a 422. Needs the `admin:read` scope and a role that
/// views the dashboard.
pub struct GetDimensions;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetDimensionsRequest {
    /// The dimensions asked for.
    #[serde(default, deserialize_with = "de::list")]
    pub keys: Vec<String>,
    /// The first day.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub start_at: Option<String>,
    /// The last day.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub end_at: Option<String>,
    /// The most rows per dimension.
    #[serde(default, deserialize_with = "de::opt_i64")]
    pub limit: Option<i64>,
    /// Each key's own parameters, under its name.
    #[serde(flatten)]
    pub params: Map<String, Value>,
}

impl Endpoint for GetDimensions {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/dimensions";
    const AUTH: Auth = Auth::User("admin:read");
    type Request = GetDimensionsRequest;
    type Response = Json<Vec<AdminDimension>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetDimensionsRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::VIEW_DASHBOARD)?;
        let range = DayRange::parse(r.start_at.as_deref(), r.end_at.as_deref())?;
        let dimensions = app
            .metrics()
            .dimensions(&r.keys, range, r.limit, &r.params)
            .await?;
        Ok(Json(
            dimensions
                .iter()
                .map(|d| app.render_admin_dimension(d))
                .collect(),
        ))
    }
}
