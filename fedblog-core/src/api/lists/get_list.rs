//! `GET /api/v1/lists/:id`: one of the caller's lists; another account's or an unknown list is a 404. <https://docs.joinmastodon.org/methods/lists/#get-one>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::List;
use crate::error::ApiResult;
use crate::render::render_list;

/// One of the caller's lists.
pub struct GetList;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetListRequest {
    /// List id (path).
    pub id: String,
}

impl Endpoint for GetList {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/lists/:id";
    const AUTH: Auth = Auth::User("read:lists");
    type Request = GetListRequest;
    type Response = Json<List>;

    async fn handle(app: &App, caller: &Caller, r: GetListRequest) -> ApiResult<Self::Response> {
        let list = app
            .lists()
            .own_list(caller.account()?, path_id(&r.id)?)
            .await?;
        Ok(Json(render_list(&list)))
    }
}
