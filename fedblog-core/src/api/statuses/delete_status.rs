//! `DELETE /api/v1/statuses/:id`: delete one's own status. <https://docs.joinmastodon.org/methods/statuses/#delete>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::{ApiError, ApiResult};
use crate::params::de;

/// Deletes a status and returns it with its source `text`, poll and media, for "delete and
/// redraft". Its media stay a day for a new post unless `delete_media` is true.
pub struct DeleteStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteStatusRequest {
    /// Status id (path).
    pub id: String,
    /// Remove the media at once instead of keeping them a day for a redraft.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub delete_media: Option<bool>,
}

impl Endpoint for DeleteStatus {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/statuses/:id";
    const AUTH: Auth = Auth::User("write:statuses");
    const RATE_LIMITS: &'static [crate::rate_limit::Family] = &[crate::rate_limit::Family::Deletes];
    type Request = DeleteStatusRequest;
    type Response = Json<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteStatusRequest,
    ) -> ApiResult<Self::Response> {
        let status = app
            .statuses()
            .status_to_delete(caller.account()?, path_id(&r.id)?)
            .await?;
        // Rendered before the deletion, so the answer still carries the poll (delete and redraft).
        let mut out = app
            .render_statuses(std::slice::from_ref(&status), caller.account.as_ref(), true)
            .await?;
        let media = app.media().media_ever_attached(&status).await?;
        app.statuses().delete_status(&status).await?;
        app.media()
            .release_media(&media, r.delete_media.unwrap_or(false))
            .await?;
        out.pop().map(Json).ok_or_else(ApiError::internal)
    }
}
