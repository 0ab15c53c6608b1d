//! `GET /api/v1/lists`: the caller's lists (all of them, not paginated). <https://docs.joinmastodon.org/methods/lists/#get>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::List;
use crate::error::ApiResult;
use crate::render::render_lists;

/// The caller's lists, oldest first; not paginated.
pub struct ListLists;

impl Endpoint for ListLists {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/lists";
    const AUTH: Auth = Auth::User("read:lists");
    type Request = NoParams;
    type Response = Json<Vec<List>>;

    async fn handle(app: &App, caller: &Caller, _: NoParams) -> ApiResult<Self::Response> {
        Ok(Json(render_lists(
            &app.lists().all(caller.account()?).await?,
        )))
    }
}
