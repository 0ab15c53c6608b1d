//! `PUT /api/v1/media/:id`: describe one's own upload before it is posted. <https://docs.joinmastodon.org/methods/media/#update>

use http::Method;
use serde::Deserialize;

use crate::api::media::MediaFields;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::MediaAttachment;
use crate::error::ApiResult;

/// Changes the description, focal point or thumbnail of an upload no status uses yet (one
/// waiting in a scheduled status included); posted media change by editing their status.
pub struct UpdateMedia;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UpdateMediaRequest {
    /// Media id (path).
    pub id: String,
    /// Description and focus.
    #[serde(flatten)]
    pub fields: MediaFields,
}

impl Endpoint for UpdateMedia {
    const METHOD: Method = Method::PUT;
    const PATH: &'static str = "/api/v1/media/:id";
    const AUTH: Auth = Auth::User("write:media");
    const BODY: crate::endpoint::BodyKind = crate::endpoint::BodyKind::Upload;
    type Request = UpdateMediaRequest;
    type Response = Json<MediaAttachment>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UpdateMediaRequest,
    ) -> ApiResult<Self::Response> {
        let media = app
            .media()
            .update_media(caller.account()?, path_id(&r.id)?, r.fields.changes(caller))
            .await?;
        Ok(Json(app.render_media(&media)))
    }
}
