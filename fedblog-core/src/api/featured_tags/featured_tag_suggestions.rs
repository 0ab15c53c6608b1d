//! `GET /api/v1/featured_tags/suggestions`: The hashtags the caller used most in the last four weeks and does not feature yet, up to ten. <https://docs.joinmastodon.org/methods/featured_tags/#suggestions>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::Tag;
use crate::error::ApiResult;

/// The hashtags the caller used most in the last four weeks and does not feature yet, up to ten. <https://docs.joinmastodon.org/methods/featured_tags/#suggestions>
pub struct FeaturedTagSuggestions;

impl Endpoint for FeaturedTagSuggestions {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/featured_tags/suggestions";
    const AUTH: Auth = Auth::User("read:accounts");
    type Request = NoParams;
    type Response = Json<Vec<Tag>>;

    async fn handle(app: &App, caller: &Caller, _: NoParams) -> ApiResult<Self::Response> {
        let tags = app
            .tags()
            .featured_tag_suggestions(caller.account()?)
            .await?;
        Ok(Json(app.render_tags(&tags)))
    }
}
