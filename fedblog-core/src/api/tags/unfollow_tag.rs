//! `POST /api/v1/tags/:id/unfollow`: Stop following a hashtag (not following is not an error). <https://docs.joinmastodon.org/methods/tags/#unfollow>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Tag;
use crate::error::ApiResult;

/// Stop following a hashtag (not following is not an error). <https://docs.joinmastodon.org/methods/tags/#unfollow>
pub struct UnfollowTag;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnfollowTagRequest {
    /// The tag's name (path), with or without percent-encoding; not a valid hashtag name: 404.
    pub id: String,
}

impl Endpoint for UnfollowTag {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/tags/:id/unfollow";
    const AUTH: Auth = Auth::User("write:follows");
    type Request = UnfollowTagRequest;
    type Response = Json<Tag>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnfollowTagRequest,
    ) -> ApiResult<Self::Response> {
        let tag = app
            .tags()
            .unfollow_hashtag(caller.account()?, &r.id)
            .await?;
        Ok(Json(app.render_tag(&tag)))
    }
}
