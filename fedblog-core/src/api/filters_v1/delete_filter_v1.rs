//! `DELETE /api/v1/filters/:id`: delete a v1 filter: its keyword (the filter holding it stays). <https://docs.joinmastodon.org/methods/filters/#delete-v1>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Delete a v1 filter: its keyword (the filter holding it stays).
pub struct DeleteFilterV1;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteFilterV1Request {
    /// Keyword id (path).
    pub id: String,
}

impl Endpoint for DeleteFilterV1 {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/filters/:id";
    const AUTH: Auth = Auth::User("write:filters");
    type Request = DeleteFilterV1Request;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteFilterV1Request,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        app.filters().delete_v1_filter(me, path_id(&r.id)?).await?;
        Ok(Json(Empty {}))
    }
}
