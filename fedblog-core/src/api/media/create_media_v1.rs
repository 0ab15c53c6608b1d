//! `POST /api/v1/media` (deprecated since Mastodon 3.1.3, kept for older clients): upload a media
//! attachment and wait for its processing. <https://docs.joinmastodon.org/methods/media/#v1>

use http::Method;

use crate::api::media::MediaFields;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::MediaAttachment;
use crate::error::{ApiError, ApiResult};

/// Uploads a file like `POST /api/v2/media`, but processes it before answering, so the answer
/// always has its `url`.
pub struct CreateMediaV1;

impl Endpoint for CreateMediaV1 {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/media";
    const AUTH: Auth = Auth::User("write:media");
    const RATE_LIMITS: &'static [crate::rate_limit::Family] = &[crate::rate_limit::Family::Media];
    const BODY: crate::endpoint::BodyKind = crate::endpoint::BodyKind::Upload;
    type Request = MediaFields;
    type Response = Json<MediaAttachment>;

    async fn handle(app: &App, caller: &Caller, r: MediaFields) -> ApiResult<Self::Response> {
        let media = app
            .media()
            .upload_media(caller.account()?, caller.upload("file"), r.changes(caller))
            .await?;
        app.media()
            .process_media(media.id)
            .await
            .map_err(|reason| {
                tracing::error!(media = %media.id, %reason, "processing an upload failed");
                ApiError::internal()
            })?;
        let media = app
            .store
            .media_by_id(media.id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        Ok(Json(app.render_media(&media)))
    }
}
