//! `GET /api/v1/accounts/:id/featured_tags`: The hashtags an account features, by recent use; public; empty for a suspended account. <https://docs.joinmastodon.org/methods/accounts/#featured_tags>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::FeaturedTag;
use crate::error::ApiResult;

/// The hashtags an account features, by recent use; public; empty for a suspended account. <https://docs.joinmastodon.org/methods/accounts/#featured_tags>
pub struct GetFeaturedTags;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetFeaturedTagsRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for GetFeaturedTags {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/accounts/:id/featured_tags";
    const AUTH: Auth = Auth::Public;
    type Request = GetFeaturedTagsRequest;
    type Response = Json<Vec<FeaturedTag>>;

    async fn handle(
        app: &App,
        _caller: &Caller,
        r: GetFeaturedTagsRequest,
    ) -> ApiResult<Self::Response> {
        let tags = app.tags().account_featured_tags(path_id(&r.id)?).await?;
        Ok(Json(app.render_featured_tags(&tags)))
    }
}
