//! `GET /api/v1/endorsements`: The accounts the caller features on its profile, newest first (40 by default, 80 at most). <https://docs.joinmastodon.org/methods/endorsements/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::Account;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// The accounts the caller features on its profile, newest first (40 by default, 80 at most),
/// paginated on hidden endorsement ids through the Link header. <https://docs.joinmastodon.org/methods/endorsements/#get>
pub struct ListEndorsements;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListEndorsementsRequest {
    /// Cursor (hidden endorsement ids; follow the Link header) and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListEndorsements {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/endorsements";
    const AUTH: Auth = Auth::User("read:accounts");
    type Request = ListEndorsementsRequest;
    type Response = Paged<Account>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListEndorsementsRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let page = app
            .relationships()
            .endorsements(Some(me), me.id, r.page.page(40, 80))
            .await?;
        Ok(Paged::accounts(app, caller, page))
    }
}
