//! `GET /api/v1/accounts/:id/endorsements`: The accounts an account features, newest first (40 by default, 80 at most); public. <https://docs.joinmastodon.org/methods/accounts/#endorsements>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged, path_id};
use crate::entities::Account;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// The accounts an account features, newest first (40 by default, 80 at most), paginated on
/// hidden endorsement ids through the Link header; public. Empty for a suspended account or one
/// that blocks the caller; accounts blocked either way by the caller are left out. <https://docs.joinmastodon.org/methods/accounts/#endorsements>
pub struct GetAccountEndorsements;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetAccountEndorsementsRequest {
    /// Account id (path).
    pub id: String,
    /// Cursor (hidden endorsement ids; follow the Link header) and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for GetAccountEndorsements {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/accounts/:id/endorsements";
    const AUTH: Auth = Auth::Optional("");
    type Request = GetAccountEndorsementsRequest;
    type Response = Paged<Account>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetAccountEndorsementsRequest,
    ) -> ApiResult<Self::Response> {
        let page = app
            .relationships()
            .endorsements(
                caller.account.as_ref(),
                path_id(&r.id)?,
                r.page.page(40, 80),
            )
            .await?;
        Ok(Paged::accounts(app, caller, page))
    }
}
