//! `GET /api/v1/media/:id`: one's own media attachment, to see whether processing finished. <https://docs.joinmastodon.org/methods/media/#get>

use http::{Method, StatusCode};
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, JsonWithStatus, path_id};
use crate::entities::MediaAttachment;
use crate::error::{ApiError, ApiResult};

/// The caller's upload that no status uses yet: 200 when processed, 206 while processing.
/// Anyone else's, and (as in Mastodon) one already posted, is a 404.
pub struct GetMedia;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetMediaRequest {
    /// Media id (path).
    pub id: String,
}

impl Endpoint for GetMedia {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/media/:id";
    const AUTH: Auth = Auth::User("write:media");
    type Request = GetMediaRequest;
    type Response = JsonWithStatus<MediaAttachment>;

    async fn handle(app: &App, caller: &Caller, r: GetMediaRequest) -> ApiResult<Self::Response> {
        let media = app
            .media()
            .own_media(caller.account()?, path_id(&r.id)?)
            .await?;
        if media.status_id.is_some() {
            return Err(ApiError::not_found());
        }
        let status = if media.processed {
            StatusCode::OK
        } else {
            StatusCode::PARTIAL_CONTENT
        };
        Ok(JsonWithStatus(status, app.render_media(&media)))
    }
}
