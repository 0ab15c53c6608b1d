//! `POST /api/v1/tags/:id/unfeature`: Stop featuring a hashtag on one's profile (not featured is not an error). <https://docs.joinmastodon.org/methods/tags/#unfeature>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Tag;
use crate::error::ApiResult;

/// Stop featuring a hashtag on one's profile (not featured is not an error). <https://docs.joinmastodon.org/methods/tags/#unfeature>
pub struct UnfeatureTag;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnfeatureTagRequest {
    /// The tag's name (path), with or without percent-encoding; not a valid hashtag name: 404.
    pub id: String,
}

impl Endpoint for UnfeatureTag {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/tags/:id/unfeature";
    const AUTH: Auth = Auth::User("write:accounts");
    type Request = UnfeatureTagRequest;
    type Response = Json<Tag>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnfeatureTagRequest,
    ) -> ApiResult<Self::Response> {
        let tag = app
            .tags()
            .unfeature_hashtag(caller.account()?, &r.id)
            .await?;
        Ok(Json(app.render_tag(&tag)))
    }
}
