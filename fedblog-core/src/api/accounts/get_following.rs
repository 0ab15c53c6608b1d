//! `GET /api/v1/accounts/:id/following`: The accounts an account follows, newest first (40 by default, 80 at most); public. <https://docs.joinmastodon.org/methods/accounts/#following>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged, path_id};
use crate::entities::Account;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// The accounts an account follows, newest first (40 by default, 80 at most); public. <https://docs.joinmastodon.org/methods/accounts/#following>
pub struct GetFollowing;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetFollowingRequest {
    /// Account id (path).
    pub id: String,
    /// Cursor (hidden follow ids; follow the Link header) and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for GetFollowing {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/accounts/:id/following";
    const AUTH: Auth = Auth::Optional("read:accounts");
    type Request = GetFollowingRequest;
    type Response = Paged<Account>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetFollowingRequest,
    ) -> ApiResult<Self::Response> {
        let page = app
            .relationships()
            .following(
                caller.account.as_ref(),
                path_id(&r.id)?,
                r.page.page(40, 80),
            )
            .await?;
        Ok(Paged::accounts(app, caller, page))
    }
}
