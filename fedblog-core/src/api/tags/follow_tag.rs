//! `POST /api/v1/tags/:id/follow`: Follow a hashtag (following twice is not an error). <https://docs.joinmastodon.org/methods/tags/#follow>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Tag;
use crate::error::ApiResult;

/// Follow a hashtag (following twice is not an error). <https://docs.joinmastodon.org/methods/tags/#follow>
pub struct FollowTag;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct FollowTagRequest {
    /// The tag's name (path), with or without percent-encoding; not a valid hashtag name: 404.
    pub id: String,
}

impl Endpoint for FollowTag {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/tags/:id/follow";
    const AUTH: Auth = Auth::User("write:follows");
    type Request = FollowTagRequest;
    type Response = Json<Tag>;

    async fn handle(app: &App, caller: &Caller, r: FollowTagRequest) -> ApiResult<Self::Response> {
        let tag = app.tags().follow_hashtag(caller.account()?, &r.id).await?;
        Ok(Json(app.render_tag(&tag)))
    }
}
