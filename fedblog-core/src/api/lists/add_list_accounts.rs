//! `POST /api/v1/lists/:id/accounts`: add accounts (`account_ids[]`) the caller follows to one of its lists; an unknown or unfollowed account is a 404, one already in the list a 422, and then none is added. <https://docs.joinmastodon.org/methods/lists/#accounts-add>

use http::Method;
use serde::Deserialize;

use crate::api::lists::AccountIds;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Add accounts to a list.
pub struct AddListAccounts;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct AddListAccountsRequest {
    /// List id (path).
    pub id: String,
    /// The accounts.
    #[serde(flatten)]
    pub accounts: AccountIds,
}

impl Endpoint for AddListAccounts {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/lists/:id/accounts";
    const AUTH: Auth = Auth::User("write:lists");
    type Request = AddListAccountsRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: AddListAccountsRequest,
    ) -> ApiResult<Self::Response> {
        let list = path_id(&r.id)?;
        app.lists()
            .add_list_members(caller.account()?, list, &r.accounts.all()?)
            .await?;
        Ok(Json(Empty {}))
    }
}
