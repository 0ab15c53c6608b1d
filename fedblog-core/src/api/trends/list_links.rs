//! `GET /api/v1/trends/links`: the links shared the most now, highest score first (10 by default, 20 at most); public. <https://docs.joinmastodon.org/methods/trends/#links>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::TrendsLink;
use crate::error::ApiResult;

use super::TrendsPageRequest;

/// The trending links clients are shown (only those staff approved, the link or its
/// publisher, unless the instance's trends setting says otherwise; none when trends are off),
/// highest score first, each a preview card with its `history` of the last 7 days (see
/// `services/cards.rs` for the score). 10 by default, 20 at most, `offset` to skip; a `Link`
/// header names the next page (and the previous one past the first), even when the page is
/// empty. Public.
/// <https://docs.joinmastodon.org/methods/trends/#links>
pub struct ListTrendingLinks;

/// Default page size.
pub const DEFAULT_LIMIT: u64 = 10;
/// Largest page size.
pub const MAX_LIMIT: u64 = 20;

impl Endpoint for ListTrendingLinks {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/trends/links";
    const AUTH: Auth = Auth::Optional("");
    type Request = TrendsPageRequest;
    type Response = Paged<TrendsLink>;

    async fn handle(app: &App, caller: &Caller, r: TrendsPageRequest) -> ApiResult<Self::Response> {
        let page = r.page(DEFAULT_LIMIT, MAX_LIMIT);
        let views = app.cards().trending_links(page.offset, page.limit).await?;
        Ok(Paged {
            link: Some(page.link(app, caller)),
            items: views.iter().map(|v| app.render_trends_link(v)).collect(),
        })
    }
}
