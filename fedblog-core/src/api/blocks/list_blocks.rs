//! `GET /api/v1/blocks`: The accounts the caller blocks, newest first (40 by default, 80 at most). <https://docs.joinmastodon.org/methods/blocks/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::Account;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// The accounts the caller blocks, newest first (40 by default, 80 at most). <https://docs.joinmastodon.org/methods/blocks/#get>
pub struct ListBlocks;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListBlocksRequest {
    /// Cursor (hidden ids; follow the Link header) and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListBlocks {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/blocks";
    const AUTH: Auth = Auth::User("read:blocks");
    type Request = ListBlocksRequest;
    type Response = Paged<Account>;

    async fn handle(app: &App, caller: &Caller, r: ListBlocksRequest) -> ApiResult<Self::Response> {
        let page = app
            .blocks()
            .blocked_accounts(caller.account()?, r.page.page(40, 80))
            .await?;
        Ok(Paged::accounts(app, caller, page))
    }
}
