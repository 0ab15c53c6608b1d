//! `POST /api/v2/media`: upload a media attachment. <https://docs.joinmastodon.org/methods/media/#v2>

use http::{Method, StatusCode};

use crate::api::media::MediaFields;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, JsonWithStatus};
use crate::entities::MediaAttachment;
use crate::error::ApiResult;

/// Uploads a file (`file`, with optional `thumbnail`, `description`, `focus`). An image is ready
/// at once (200); video and audio are processed in the background (202, `url` null until done).
pub struct CreateMedia;

impl Endpoint for CreateMedia {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v2/media";
    const AUTH: Auth = Auth::User("write:media");
    const RATE_LIMITS: &'static [crate::rate_limit::Family] = &[crate::rate_limit::Family::Media];
    const BODY: crate::endpoint::BodyKind = crate::endpoint::BodyKind::Upload;
    type Request = MediaFields;
    type Response = JsonWithStatus<MediaAttachment>;

    async fn handle(app: &App, caller: &Caller, r: MediaFields) -> ApiResult<Self::Response> {
        let media = app
            .media()
            .upload_media(caller.account()?, caller.upload("file"), r.changes(caller))
            .await?;
        let status = if media.processed {
            StatusCode::OK
        } else {
            StatusCode::ACCEPTED
        };
        Ok(JsonWithStatus(status, app.render_media(&media)))
    }
}
