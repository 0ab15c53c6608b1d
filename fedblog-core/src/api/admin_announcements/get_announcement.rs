//! `GET /api/v1/admin/announcements/:id` (fedblog's own): One announcement, a draft too.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminAnnouncement;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_announcement;

/// One announcement, a draft too; 404 if unknown. Needs the `admin:read` scope and a role that
/// manages announcements. fedblog's own: Mastodon has no admin API for announcements.
pub struct GetAdminAnnouncement;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetAdminAnnouncementRequest {
    /// The announcement's id (path).
    pub id: String,
}

impl Endpoint for GetAdminAnnouncement {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/announcements/:id";
    const AUTH: Auth = Auth::User("admin:read");
    type Request = GetAdminAnnouncementRequest;
    type Response = Json<AdminAnnouncement>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetAdminAnnouncementRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_ANNOUNCEMENTS)?;
        let a = app.announcements().get(path_id(&r.id)?).await?;
        Ok(Json(render_admin_announcement(&a)))
    }
}
