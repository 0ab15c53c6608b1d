//! `POST /api/v1/lists`: make a list (`title`, `replies_policy`, `exclusive`); a blank title, an unknown policy or a 51st list is a 422. <https://docs.joinmastodon.org/methods/lists/#create>

use http::Method;

use crate::api::lists::ListFields;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::List;
use crate::error::ApiResult;
use crate::render::render_list;

/// Make a list.
pub struct CreateList;

impl Endpoint for CreateList {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/lists";
    const AUTH: Auth = Auth::User("write:lists");
    type Request = ListFields;
    type Response = Json<List>;

    async fn handle(app: &App, caller: &Caller, r: ListFields) -> ApiResult<Self::Response> {
        let list = app.lists().create_list(caller.account()?, r.into()).await?;
        Ok(Json(render_list(&list)))
    }
}
