//! `GET /api/v1/domain_blocks`: The domains the caller blocks, newest first (100 by default, 200 at most). <https://docs.joinmastodon.org/methods/domain_blocks/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// The domains the caller blocks, as strings, newest first (100 by default, 200 at most),
/// paginated on hidden block ids through the Link header. <https://docs.joinmastodon.org/methods/domain_blocks/#get>
pub struct ListDomainBlocks;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListDomainBlocksRequest {
    /// Cursor (hidden block ids; follow the Link header) and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListDomainBlocks {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/domain_blocks";
    const AUTH: Auth = Auth::User("read:blocks");
    type Request = ListDomainBlocksRequest;
    type Response = Paged<String>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListDomainBlocksRequest,
    ) -> ApiResult<Self::Response> {
        let rows = app
            .blocks()
            .blocked_domains(caller.account()?, r.page.page(100, 200))
            .await?;
        let link = app.page_link(caller, rows.first().map(|r| r.0), rows.last().map(|r| r.0));
        Ok(Paged {
            items: rows.into_iter().map(|(_, d)| d).collect(),
            link,
        })
    }
}
