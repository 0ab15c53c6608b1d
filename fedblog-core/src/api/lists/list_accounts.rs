//! `GET /api/v1/lists/:id/accounts`: the members of one of the caller's lists, 40 by default and 80 at most; `limit=0` gives them all without paging. <https://docs.joinmastodon.org/methods/lists/#accounts>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged, path_id};
use crate::entities::Account;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// The members of a list.
pub struct ListAccounts;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListAccountsRequest {
    /// List id (path).
    pub id: String,
    /// Cursors (account ids) and limit; `limit=0`: every member, no `Link` header.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListAccounts {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/lists/:id/accounts";
    const AUTH: Auth = Auth::User("read:lists");
    type Request = ListAccountsRequest;
    type Response = Paged<Account>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListAccountsRequest,
    ) -> ApiResult<Self::Response> {
        let page = (r.page.limit != Some(0)).then(|| r.page.page(40, 80));
        let members = app
            .lists()
            .list_members(caller.account()?, path_id(&r.id)?, page)
            .await?;
        Ok(Paged::accounts(app, caller, members))
    }
}
