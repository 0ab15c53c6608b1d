//! `DELETE /api/v1/media/:id`: delete one's own upload that no status uses. <https://docs.joinmastodon.org/methods/media/#delete>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::error::ApiResult;

/// Deletes an unposted upload with its files; 422 when a status or scheduled status uses it.
pub struct DeleteMedia;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteMediaRequest {
    /// Media id (path).
    pub id: String,
}

impl Endpoint for DeleteMedia {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/media/:id";
    const AUTH: Auth = Auth::User("write:media");
    type Request = DeleteMediaRequest;
    type Response = Json<serde_json::Value>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteMediaRequest,
    ) -> ApiResult<Self::Response> {
        app.media()
            .delete_media(caller.account()?, path_id(&r.id)?)
            .await?;
        Ok(Json(serde_json::json!({})))
    }
}
