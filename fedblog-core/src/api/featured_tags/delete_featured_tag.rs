//! `DELETE /api/v1/featured_tags/:id`: Stop featuring a hashtag; an unknown id or another account's featured tag is a 404. <https://docs.joinmastodon.org/methods/featured_tags/#unfeature>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Stop featuring a hashtag; an unknown id or another account's featured tag is a 404. <https://docs.joinmastodon.org/methods/featured_tags/#unfeature>
pub struct DeleteFeaturedTag;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteFeaturedTagRequest {
    /// Featured tag id (path).
    pub id: String,
}

impl Endpoint for DeleteFeaturedTag {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/featured_tags/:id";
    const AUTH: Auth = Auth::User("write:accounts");
    type Request = DeleteFeaturedTagRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteFeaturedTagRequest,
    ) -> ApiResult<Self::Response> {
        app.tags()
            .delete_featured_tag(caller.account()?, path_id(&r.id)?)
            .await?;
        Ok(Json(Empty {}))
    }
}
