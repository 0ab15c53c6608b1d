//! `GET /api/v1/markers`: The caller's read positions in the timelines named by `timeline[]` (`home`, `notifications`). <https://docs.joinmastodon.org/methods/markers/#get>

use std::collections::BTreeMap;

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Marker;
use crate::error::ApiResult;
use crate::params::de;

/// The caller's read positions in the timelines named by `timeline[]`, by timeline; timelines
/// without one, and names other than `home` and `notifications`, are left out (so no
/// `timeline[]` gives `{}`, as in Mastodon).
pub struct GetMarkers;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct GetMarkersRequest {
    /// `home` and/or `notifications`.
    #[serde(deserialize_with = "de::list")]
    pub timeline: Vec<String>,
}

impl Endpoint for GetMarkers {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/markers";
    const AUTH: Auth = Auth::User("read:statuses");
    type Request = GetMarkersRequest;
    type Response = Json<BTreeMap<String, Marker>>;

    async fn handle(app: &App, caller: &Caller, r: GetMarkersRequest) -> ApiResult<Self::Response> {
        let markers = app.markers().of(caller.account()?, &r.timeline).await?;
        Ok(Json(
            markers
                .iter()
                .map(|(t, m)| (t.clone(), app.render_marker(m)))
                .collect(),
        ))
    }
}
