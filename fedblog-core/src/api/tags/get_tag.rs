//! `GET /api/v1/tags/:id`: A hashtag with its use over the last week, and whether the signed-in caller follows and features it; a valid name not yet known is created. <https://docs.joinmastodon.org/methods/tags/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Tag;
use crate::error::ApiResult;

/// A hashtag with its use over the last week, and whether the signed-in caller follows and features it; a valid name not yet known is created. <https://docs.joinmastodon.org/methods/tags/#get>
pub struct GetTag;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetTagRequest {
    /// The tag's name (path), with or without percent-encoding; not a valid hashtag name: 404.
    pub id: String,
}

impl Endpoint for GetTag {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/tags/:id";
    const AUTH: Auth = Auth::Optional("");
    type Request = GetTagRequest;
    type Response = Json<Tag>;

    async fn handle(app: &App, caller: &Caller, r: GetTagRequest) -> ApiResult<Self::Response> {
        let tag = app
            .tags()
            .show_hashtag(caller.account.as_ref(), &r.id)
            .await?;
        Ok(Json(app.render_tag(&tag)))
    }
}
