//! `GET /api/v1/accounts/:id/lists`: the caller's lists that hold the account. <https://docs.joinmastodon.org/methods/accounts/#lists>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::List;
use crate::error::ApiResult;
use crate::render::render_lists;

/// The caller's lists holding an account.
pub struct GetAccountLists;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetAccountListsRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for GetAccountLists {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/accounts/:id/lists";
    const AUTH: Auth = Auth::User("read:lists");
    type Request = GetAccountListsRequest;
    type Response = Json<Vec<List>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetAccountListsRequest,
    ) -> ApiResult<Self::Response> {
        let lists = app
            .lists()
            .lists_with_account(caller.account()?, path_id(&r.id)?)
            .await?;
        Ok(Json(render_lists(&lists)))
    }
}
