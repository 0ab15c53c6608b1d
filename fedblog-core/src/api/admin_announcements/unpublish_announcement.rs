//! `POST /api/v1/admin/announcements/:id/unpublish` (fedblog's own): Takes an announcement back to a draft.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminAnnouncement;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_announcement;

/// Takes an announcement back to a draft: users no longer see it (their `user` streams are told with `announcement.delete`); 404 if unknown. Needs the `admin:write` scope and a role that manages announcements. fedblog's own:
/// Mastodon has no admin API for announcements.
pub struct UnpublishAdminAnnouncement;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnpublishAdminAnnouncementRequest {
    /// The announcement's id (path).
    pub id: String,
}

impl Endpoint for UnpublishAdminAnnouncement {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/announcements/:id/unpublish";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = UnpublishAdminAnnouncementRequest;
    type Response = Json<AdminAnnouncement>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnpublishAdminAnnouncementRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_ANNOUNCEMENTS)?;
        let a = app.announcements().unpublish(path_id(&r.id)?).await?;
        Ok(Json(render_admin_announcement(&a)))
    }
}
