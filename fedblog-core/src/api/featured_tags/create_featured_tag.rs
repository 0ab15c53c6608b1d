//! `POST /api/v1/featured_tags`: Feature a hashtag on one's profile; an invalid name, a tag already featured or an eleventh tag is a 422. <https://docs.joinmastodon.org/methods/featured_tags/#feature>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::FeaturedTag;
use crate::error::ApiResult;
use crate::params::de;

/// Feature a hashtag on one's profile; an invalid name, a tag already featured or an eleventh tag is a 422. <https://docs.joinmastodon.org/methods/featured_tags/#feature>
pub struct CreateFeaturedTag;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct CreateFeaturedTagRequest {
    /// The hashtag, without `#` (one leading `#` is tolerated); missing is a 422.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub name: Option<String>,
}

impl Endpoint for CreateFeaturedTag {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/featured_tags";
    const AUTH: Auth = Auth::User("write:accounts");
    type Request = CreateFeaturedTagRequest;
    type Response = Json<FeaturedTag>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CreateFeaturedTagRequest,
    ) -> ApiResult<Self::Response> {
        let name = r.name.unwrap_or_default();
        let tag = app
            .tags()
            .create_featured_tag(caller.account()?, &name)
            .await?;
        Ok(Json(app.render_featured_tag(&tag)))
    }
}
