//! `POST /api/v1/tags/:id/feature`: Feature a hashtag on one's profile (featuring twice is not an error; more than ten is a 422). <https://docs.joinmastodon.org/methods/tags/#feature>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Tag;
use crate::error::ApiResult;

/// Feature a hashtag on one's profile (featuring twice is not an error; more than ten is a 422). <https://docs.joinmastodon.org/methods/tags/#feature>
pub struct FeatureTag;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct FeatureTagRequest {
    /// The tag's name (path), with or without percent-encoding; not a valid hashtag name: 404.
    pub id: String,
}

impl Endpoint for FeatureTag {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/tags/:id/feature";
    const AUTH: Auth = Auth::User("write:accounts");
    type Request = FeatureTagRequest;
    type Response = Json<Tag>;

    async fn handle(app: &App, caller: &Caller, r: FeatureTagRequest) -> ApiResult<Self::Response> {
        let tag = app.tags().feature_hashtag(caller.account()?, &r.id).await?;
        Ok(Json(app.render_tag(&tag)))
    }
}
