//! `GET /api/v1/trends`: the old path of the trending hashtags (deprecated by Mastodon 3.5), answered as `GET /api/v1/trends/tags`; public. <https://docs.joinmastodon.org/methods/trends/#tags>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::Tag;
use crate::error::ApiResult;

use super::TrendsPageRequest;
use super::list_tags::trending_tags;

/// The trending hashtags, as [`super::list_tags::ListTrendingTags`] answers them (same
/// parameters, page sizes and `Link` header, the links naming this path). Public.
/// <https://docs.joinmastodon.org/methods/trends/#tags>
pub struct ListTrendingTagsV1;

impl Endpoint for ListTrendingTagsV1 {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/trends";
    const AUTH: Auth = Auth::Optional("");
    type Request = TrendsPageRequest;
    type Response = Paged<Tag>;

    async fn handle(app: &App, caller: &Caller, r: TrendsPageRequest) -> ApiResult<Self::Response> {
        trending_tags(app, caller, &r).await
    }
}
