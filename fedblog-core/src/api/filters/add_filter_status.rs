//! `POST /api/v2/filters/:filter_id/statuses`: add a status (`status_id`) to one of the caller's filters; a status the caller may not see is a 404, one the filter has already a 422. <https://docs.joinmastodon.org/methods/filters/#statuses-add>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::FilterStatus;
use crate::error::ApiResult;
use crate::render::render_filter_status;

/// Add a status (`status_id`) to one of the caller's filters; a status the caller may not see is a 404, one the filter has already a 422.
pub struct AddFilterStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct AddFilterStatusRequest {
    /// Filter id (path).
    pub filter_id: String,
    /// The status (a missing one is a 422).
    #[serde(default)]
    pub status_id: String,
}

impl Endpoint for AddFilterStatus {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v2/filters/:filter_id/statuses";
    const AUTH: Auth = Auth::User("write:filters");
    type Request = AddFilterStatusRequest;
    type Response = Json<FilterStatus>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: AddFilterStatusRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let status_id = r.status_id.trim();
        if status_id.is_empty() {
            return Err(crate::error::ApiError::invalid_field(
                "status_id",
                "ERR_BLANK",
                "Status must exist",
            ));
        }
        let f = app
            .filters()
            .add_filter_status(me, path_id(&r.filter_id)?, path_id(status_id)?)
            .await?;
        Ok(Json(render_filter_status(&f)))
    }
}
