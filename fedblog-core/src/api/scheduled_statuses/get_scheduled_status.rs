//! `GET /api/v1/scheduled_statuses/:id`: one of the caller's scheduled statuses. <https://docs.joinmastodon.org/methods/scheduled_statuses/#get-one>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::ScheduledStatus;
use crate::error::ApiResult;

/// Returns a scheduled status of the caller; 404 for others'.
pub struct GetScheduledStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetRequest {
    /// Id (path).
    pub id: String,
}

impl Endpoint for GetScheduledStatus {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/scheduled_statuses/:id";
    const AUTH: Auth = Auth::User("read:statuses");
    type Request = GetRequest;
    type Response = Json<ScheduledStatus>;

    async fn handle(app: &App, caller: &Caller, r: GetRequest) -> ApiResult<Self::Response> {
        let s = app
            .scheduled()
            .own_scheduled_status(caller.account()?, path_id(&r.id)?)
            .await?;
        Ok(Json(app.render_scheduled_status(&s).await?))
    }
}
