//! `GET /api/v1/trends/tags`: the hashtags in use now, highest score first (10 by default, 20 at most); public. <https://docs.joinmastodon.org/methods/trends/#tags>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::Tag;
use crate::error::ApiResult;

use super::TrendsPageRequest;

/// The trending hashtags clients are shown (only those staff approved, unless the instance's
/// trends setting says otherwise; none when trends are off), highest score first, each a Tag
/// with its `history` of the last 7 days (`following` with a token). 10 by default, 20 at most,
/// `offset` to skip; a `Link` header names the next page (and the previous one past the
/// first), even when the page is empty. Public.
/// <https://docs.joinmastodon.org/methods/trends/#tags>
pub struct ListTrendingTags;

/// Default page size.
pub const DEFAULT_LIMIT: u64 = 10;
/// Largest page size.
pub const MAX_LIMIT: u64 = 20;

impl Endpoint for ListTrendingTags {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/trends/tags";
    const AUTH: Auth = Auth::Optional("");
    type Request = TrendsPageRequest;
    type Response = Paged<Tag>;

    async fn handle(app: &App, caller: &Caller, r: TrendsPageRequest) -> ApiResult<Self::Response> {
        trending_tags(app, caller, &r).await
    }
}

/// The page of trending hashtags `r` asks for, with its `Link` header (shared with the
/// deprecated path).
pub(super) async fn trending_tags(
    app: &App,
    caller: &Caller,
    r: &TrendsPageRequest,
) -> ApiResult<Paged<Tag>> {
    let page = r.page(DEFAULT_LIMIT, MAX_LIMIT);
    let views = app
        .trends()
        .public_tags(caller.account.as_ref(), page.offset, page.limit)
        .await?;
    Ok(Paged {
        link: Some(page.link(app, caller)),
        items: app.render_tags(&views),
    })
}
