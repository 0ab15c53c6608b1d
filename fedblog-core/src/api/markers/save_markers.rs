//! `POST /api/v1/markers`: Save the caller's read positions (`home[last_read_id]`, `notifications[last_read_id]`). <https://docs.joinmastodon.org/methods/markers/#create>

use std::collections::BTreeMap;

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Marker;
use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::params::de;

/// Save the caller's read positions; the answer holds the markers saved. Each save raises the
/// marker's `version` by one; a save racing another on the same marker is a 409. A position that
/// is no id is a 422, and nothing is saved.
pub struct SaveMarkers;

/// One timeline's new position.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct MarkerPosition {
    /// The id of the newest item read.
    #[serde(deserialize_with = "de::opt_string")]
    pub last_read_id: Option<String>,
}

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SaveMarkersRequest {
    /// The home timeline's position.
    pub home: Option<MarkerPosition>,
    /// The notifications' position.
    pub notifications: Option<MarkerPosition>,
}

impl Endpoint for SaveMarkers {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/markers";
    const AUTH: Auth = Auth::User("write:statuses");
    type Request = SaveMarkersRequest;
    type Response = Json<BTreeMap<String, Marker>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: SaveMarkersRequest,
    ) -> ApiResult<Self::Response> {
        let mut positions: Vec<(String, Id)> = Vec::new();
        for (timeline, given) in [("home", r.home), ("notifications", r.notifications)] {
            let Some(given) = given else { continue };
            let raw = given.last_read_id.unwrap_or_default();
            let id = raw.trim().parse::<Id>().map_err(|_| {
                ApiError::invalid_field(
                    "last_read_id",
                    if raw.trim().is_empty() {
                        "ERR_BLANK"
                    } else {
                        "ERR_INVALID"
                    },
                    format!("Last read id of {timeline} must be a status or notification id"),
                )
            })?;
            positions.push((timeline.to_string(), id));
        }
        let saved = app.markers().save(caller.account()?, &positions).await?;
        Ok(Json(
            saved
                .iter()
                .map(|(t, m)| (t.clone(), app.render_marker(m)))
                .collect(),
        ))
    }
}
