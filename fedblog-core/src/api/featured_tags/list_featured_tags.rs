//! `GET /api/v1/featured_tags`: The hashtags the caller features on its profile, by recent use (never-used ones last). <https://docs.joinmastodon.org/methods/featured_tags/#get>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::FeaturedTag;
use crate::error::ApiResult;

/// The hashtags the caller features on its profile, by recent use (never-used ones last). <https://docs.joinmastodon.org/methods/featured_tags/#get>
pub struct ListFeaturedTags;

impl Endpoint for ListFeaturedTags {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/featured_tags";
    const AUTH: Auth = Auth::User("read:accounts");
    type Request = NoParams;
    type Response = Json<Vec<FeaturedTag>>;

    async fn handle(app: &App, caller: &Caller, _: NoParams) -> ApiResult<Self::Response> {
        let tags = app.tags().own_featured_tags(caller.account()?).await?;
        Ok(Json(app.render_featured_tags(&tags)))
    }
}
