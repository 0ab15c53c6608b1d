//! `GET /api/v1/statuses/:id/reblogged_by`: The accounts that reblogged a status, newest first (40 by default, 80 at most). <https://docs.joinmastodon.org/methods/statuses/#reblogged_by>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged, path_id};
use crate::entities::Account;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// The accounts that reblogged a status the caller may see (404 otherwise), newest first (40 by
/// default, 80 at most), paginated on hidden reblog ids with Link headers. Only public and unlisted reblogs are listed (a followers-only one also to its author). Suspended
/// accounts and accounts the caller blocks, is blocked by or mutes are left out.
/// <https://docs.joinmastodon.org/methods/statuses/#reblogged_by>
pub struct RebloggedBy;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct RebloggedByRequest {
    /// Status id (path).
    pub id: String,
    /// Cursor (hidden reblog ids; follow the Link header) and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for RebloggedBy {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/statuses/:id/reblogged_by";
    const AUTH: Auth = Auth::Optional("read:statuses");
    type Request = RebloggedByRequest;
    type Response = Paged<Account>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: RebloggedByRequest,
    ) -> ApiResult<Self::Response> {
        let page = app
            .interactions()
            .reblogged_by(
                caller.account.as_ref(),
                path_id(&r.id)?,
                r.page.page(40, 80),
            )
            .await?;
        Ok(Paged::accounts(app, caller, page))
    }
}
