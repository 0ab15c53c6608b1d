//! `POST /api/v1/admin/announcements/:id/publish` (fedblog's own): Shows an announcement to users.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminAnnouncement;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_announcement;

/// Shows an announcement to users (again: it is dated now), streaming it to their `user` streams; 404 if unknown. Needs the `admin:write` scope and a role that manages announcements. fedblog's own:
/// Mastodon has no admin API for announcements.
pub struct PublishAdminAnnouncement;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct PublishAdminAnnouncementRequest {
    /// The announcement's id (path).
    pub id: String,
}

impl Endpoint for PublishAdminAnnouncement {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/announcements/:id/publish";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = PublishAdminAnnouncementRequest;
    type Response = Json<AdminAnnouncement>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: PublishAdminAnnouncementRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_ANNOUNCEMENTS)?;
        let a = app
            .announcements()
            .publish_announcement(path_id(&r.id)?)
            .await?;
        Ok(Json(render_admin_announcement(&a)))
    }
}
