//! `GET /api/v1/follow_requests`: accounts asking to follow the caller. <https://docs.joinmastodon.org/methods/follow_requests/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::Account;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// Pending requests, newest first (40 by default, 80 at most), paginated on hidden ids.
pub struct ListFollowRequests;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListRequest {
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListFollowRequests {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/follow_requests";
    const AUTH: Auth = Auth::User("read:follows");
    type Request = ListRequest;
    type Response = Paged<Account>;

    async fn handle(app: &App, caller: &Caller, r: ListRequest) -> ApiResult<Self::Response> {
        let page = app
            .relationships()
            .follow_requests(caller.account()?, r.page.page(40, 80))
            .await?;
        Ok(Paged::accounts(app, caller, page))
    }
}
