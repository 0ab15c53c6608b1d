//! `DELETE /api/v1/lists/:id/accounts`: remove accounts (`account_ids[]`) from one of the caller's lists; accounts not in it are ignored. <https://docs.joinmastodon.org/methods/lists/#accounts-remove>

use http::Method;
use serde::Deserialize;

use crate::api::lists::AccountIds;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Remove accounts from a list.
pub struct RemoveListAccounts;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct RemoveListAccountsRequest {
    /// List id (path).
    pub id: String,
    /// The accounts.
    #[serde(flatten)]
    pub accounts: AccountIds,
}

impl Endpoint for RemoveListAccounts {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/lists/:id/accounts";
    const AUTH: Auth = Auth::User("write:lists");
    type Request = RemoveListAccountsRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: RemoveListAccountsRequest,
    ) -> ApiResult<Self::Response> {
        let list = path_id(&r.id)?;
        app.lists()
            .remove_list_members(caller.account()?, list, &r.accounts.valid())
            .await?;
        Ok(Json(Empty {}))
    }
}
