//! `GET /api/v1/statuses/:id/favourited_by`: The accounts that favourited a status, newest first (40 by default, 80 at most). <https://docs.joinmastodon.org/methods/statuses/#favourited_by>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged, path_id};
use crate::entities::Account;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// The accounts that favourited a status the caller may see (404 otherwise), newest first (40 by
/// default, 80 at most), paginated on hidden favourite ids with Link headers. Suspended
/// accounts and accounts the caller blocks, is blocked by or mutes are left out.
/// <https://docs.joinmastodon.org/methods/statuses/#favourited_by>
pub struct FavouritedBy;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct FavouritedByRequest {
    /// Status id (path).
    pub id: String,
    /// Cursor (hidden favourite ids; follow the Link header) and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for FavouritedBy {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/statuses/:id/favourited_by";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = FavouritedByRequest;
    type Response = Paged<Account>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: FavouritedByRequest,
    ) -> ApiResult<Self::Response> {
        let page = app
            .interactions()
            .favourited_by(
                caller.account.as_ref(),
                path_id(&r.id)?,
                r.page.page(40, 80),
            )
            .await?;
        Ok(Paged::accounts(app, caller, page))
    }
}
