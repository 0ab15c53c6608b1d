//! `GET /api/v1/trends/statuses`: the statuses favourited and reblogged the most now, highest score first (20 by default, 40 at most); public. <https://docs.joinmastodon.org/methods/trends/#statuses>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::Status;
use crate::error::ApiResult;
use crate::store::FilterContext;

use super::TrendsPageRequest;

/// The trending statuses clients are shown (only those staff approved, unless the instance's
/// trends setting says otherwise; none when trends are off), highest score first (with a
/// token, those in the caller's default posting language first). With a token, statuses the
/// caller may not see are left out of the page: by accounts the caller blocks, mutes or is
/// blocked by, or from a domain the caller blocks; a page may then hold fewer than `limit`,
/// and the next one still starts at `offset + limit`. 20 by default, 40 at most, `offset` to
/// skip; a `Link` header names the next page (and the previous one past the first), even when
/// the page is empty. Public.
/// <https://docs.joinmastodon.org/methods/trends/#statuses>
pub struct ListTrendingStatuses;

/// Default page size.
pub const DEFAULT_LIMIT: u64 = 20;
/// Largest page size.
pub const MAX_LIMIT: u64 = 40;

impl Endpoint for ListTrendingStatuses {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/trends/statuses";
    const AUTH: Auth = Auth::Optional("");
    type Request = TrendsPageRequest;
    type Response = Paged<Status>;

    async fn handle(app: &App, caller: &Caller, r: TrendsPageRequest) -> ApiResult<Self::Response> {
        let page = r.page(DEFAULT_LIMIT, MAX_LIMIT);
        let viewer = caller.account.as_ref();
        let statuses = app
            .trends()
            .public_statuses(viewer, page.offset, page.limit)
            .await?;
        Ok(Paged {
            link: Some(page.link(app, caller)),
            items: app
                .render_page_in(statuses, viewer, FilterContext::Public)
                .await?,
        })
    }
}
