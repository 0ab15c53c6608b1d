//! `PUT /api/v1/lists/:id`: change a list's `title`, `replies_policy` or `exclusive` (those not given are kept). <https://docs.joinmastodon.org/methods/lists/#update>

use http::Method;
use serde::Deserialize;

use crate::api::lists::ListFields;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::List;
use crate::error::ApiResult;
use crate::render::render_list;

/// Change a list.
pub struct UpdateList;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UpdateListRequest {
    /// List id (path).
    pub id: String,
    /// The changes.
    #[serde(flatten)]
    pub fields: ListFields,
}

impl Endpoint for UpdateList {
    const METHOD: Method = Method::PUT;
    const PATH: &'static str = "/api/v1/lists/:id";
    const AUTH: Auth = Auth::User("write:lists");
    type Request = UpdateListRequest;
    type Response = Json<List>;

    async fn handle(app: &App, caller: &Caller, r: UpdateListRequest) -> ApiResult<Self::Response> {
        let list = app
            .lists()
            .update_list(caller.account()?, path_id(&r.id)?, r.fields.into())
            .await?;
        Ok(Json(render_list(&list)))
    }
}
