//! `GET /api/v1/mutes`: The accounts the caller mutes, with when each mute ends, newest first (40 by default, 80 at most). <https://docs.joinmastodon.org/methods/mutes/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::MutedAccount;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// The accounts the caller mutes, newest first (40 by default, 80 at most). <https://docs.joinmastodon.org/methods/mutes/#get>
pub struct ListMutes;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListMutesRequest {
    /// Cursor (hidden ids; follow the Link header) and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListMutes {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/mutes";
    const AUTH: Auth = Auth::User("read:mutes");
    type Request = ListMutesRequest;
    type Response = Paged<MutedAccount>;

    async fn handle(app: &App, caller: &Caller, r: ListMutesRequest) -> ApiResult<Self::Response> {
        let (page, expiries) = app
            .blocks()
            .muted_accounts(caller.account()?, r.page.page(40, 80))
            .await?;
        Ok(Paged {
            link: app.page_link(caller, page.first, page.last),
            items: page
                .accounts
                .iter()
                .map(|a| app.render_muted_account(a, expiries.get(&a.id).copied()))
                .collect(),
        })
    }
}
