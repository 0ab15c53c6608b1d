//! `DELETE /api/v2/filters/statuses/:id`: remove a status from one of the caller's filters; answers the filter status removed, as documented. <https://docs.joinmastodon.org/methods/filters/#statuses-remove>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::FilterStatus;
use crate::error::ApiResult;
use crate::render::render_filter_status;

/// Remove a status from one of the caller's filters; answers the filter status removed, as documented.
pub struct DeleteFilterStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteFilterStatusRequest {
    /// Filter status id (path).
    pub id: String,
}

impl Endpoint for DeleteFilterStatus {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v2/filters/statuses/:id";
    const AUTH: Auth = Auth::User("write:filters");
    type Request = DeleteFilterStatusRequest;
    type Response = Json<FilterStatus>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteFilterStatusRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let removed = app
            .filters()
            .delete_filter_status(me, path_id(&r.id)?)
            .await?;
        Ok(Json(render_filter_status(&removed)))
    }
}
