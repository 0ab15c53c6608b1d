//! `POST /api/v1/announcements/:id/dismiss`: Marks an announcement read by the caller. <https://docs.joinmastodon.org/methods/announcements/#dismiss>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Marks a published announcement read by the caller (again: no change); its `read` is then
/// `true` for the caller only. 404 for an unknown or unpublished one.
pub struct DismissAnnouncement;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DismissAnnouncementRequest {
    /// The announcement's id (path).
    pub id: String,
}

impl Endpoint for DismissAnnouncement {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/announcements/:id/dismiss";
    const AUTH: Auth = Auth::User("write:accounts");
    type Request = DismissAnnouncementRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DismissAnnouncementRequest,
    ) -> ApiResult<Self::Response> {
        app.announcements()
            .dismiss(caller.account()?, path_id(&r.id)?)
            .await?;
        Ok(Json(Empty {}))
    }
}
