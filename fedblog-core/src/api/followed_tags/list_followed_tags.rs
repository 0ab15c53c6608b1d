//! `GET /api/v1/followed_tags`: The hashtags the caller follows, most recently followed first (100 by default, 200 at most). <https://docs.joinmastodon.org/methods/followed_tags/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::Tag;
use crate::error::ApiResult;
use crate::pagination::PageParams;

/// The hashtags the caller follows, most recently followed first (100 by default, 200 at most). <https://docs.joinmastodon.org/methods/followed_tags/#get>
pub struct ListFollowedTags;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ListFollowedTagsRequest {
    /// Cursor (hidden ids of the follows; follow the Link header) and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl Endpoint for ListFollowedTags {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/followed_tags";
    const AUTH: Auth = Auth::User("read:follows");
    type Request = ListFollowedTagsRequest;
    type Response = Paged<Tag>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListFollowedTagsRequest,
    ) -> ApiResult<Self::Response> {
        let page = app
            .tags()
            .followed_hashtags(caller.account()?, r.page.page(100, 200))
            .await?;
        let link = app.page_link(caller, page.first, page.last);
        Ok(Paged {
            items: app.render_tags(&page.tags),
            link,
        })
    }
}
