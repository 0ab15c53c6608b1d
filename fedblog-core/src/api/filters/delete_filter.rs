//! `DELETE /api/v2/filters/:id`: delete a filter with its keywords and statuses. <https://docs.joinmastodon.org/methods/filters/#delete>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Delete a filter with its keywords and statuses.
pub struct DeleteFilter;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteFilterRequest {
    /// Filter id (path).
    pub id: String,
}

impl Endpoint for DeleteFilter {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v2/filters/:id";
    const AUTH: Auth = Auth::User("write:filters");
    type Request = DeleteFilterRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteFilterRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        app.filters().delete_filter(me, path_id(&r.id)?).await?;
        Ok(Json(Empty {}))
    }
}
