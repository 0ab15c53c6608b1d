//! `DELETE /api/v1/lists/:id`: delete one of the caller's lists. <https://docs.joinmastodon.org/methods/lists/#delete>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Delete a list with its members and timeline.
pub struct DeleteList;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteListRequest {
    /// List id (path).
    pub id: String,
}

impl Endpoint for DeleteList {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/lists/:id";
    const AUTH: Auth = Auth::User("write:lists");
    type Request = DeleteListRequest;
    type Response = Json<Empty>;

    async fn handle(app: &App, caller: &Caller, r: DeleteListRequest) -> ApiResult<Self::Response> {
        app.lists()
            .delete_list(caller.account()?, path_id(&r.id)?)
            .await?;
        Ok(Json(Empty {}))
    }
}
