//! `PUT /api/v1/scheduled_statuses/:id`: move a scheduled status to another time. <https://docs.joinmastodon.org/methods/scheduled_statuses/#update>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::ScheduledStatus;
use crate::error::{ApiError, ApiResult};
use crate::params::de;

/// Reschedules (at least 5 minutes ahead, else 422 and nothing changes).
pub struct UpdateScheduledStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UpdateRequest {
    /// Id (path).
    pub id: String,
    /// The new time (ISO 8601).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub scheduled_at: Option<String>,
}

impl Endpoint for UpdateScheduledStatus {
    const METHOD: Method = Method::PUT;
    const PATH: &'static str = "/api/v1/scheduled_statuses/:id";
    const AUTH: Auth = Auth::User("write:statuses");
    type Request = UpdateRequest;
    type Response = Json<ScheduledStatus>;

    async fn handle(app: &App, caller: &Caller, r: UpdateRequest) -> ApiResult<Self::Response> {
        let id = path_id(&r.id)?;
        let me = caller.account()?;
        let Some(at) = r.scheduled_at else {
            // Nothing to change.
            let s = app.scheduled().own_scheduled_status(me, id).await?;
            return Ok(Json(app.render_scheduled_status(&s).await?));
        };
        let s = app
            .scheduled()
            .reschedule_status(me, id, &at)
            .await
            .map_err(|e| {
                if e.status == http::StatusCode::NOT_FOUND {
                    ApiError::not_found()
                } else {
                    e
                }
            })?;
        Ok(Json(app.render_scheduled_status(&s).await?))
    }
}
