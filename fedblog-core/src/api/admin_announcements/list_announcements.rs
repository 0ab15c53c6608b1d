//! `GET /api/v1/admin/announcements` (fedblog's own): Every announcement, drafts too.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminAnnouncement;
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_announcement;

/// Every announcement, drafts too, oldest first (by `starts_at`, else `published_at`, else
/// creation). Needs the `admin:read` scope and a role that manages announcements. fedblog's
/// own: Mastodon has no admin API for announcements.
pub struct ListAdminAnnouncements;

/// Parameters (none).
#[derive(Debug, Default, Deserialize)]
pub struct ListAdminAnnouncementsRequest {}

impl Endpoint for ListAdminAnnouncements {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/announcements";
    const AUTH: Auth = Auth::User("admin:read");
    type Request = ListAdminAnnouncementsRequest;
    type Response = Json<Vec<AdminAnnouncement>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        _r: ListAdminAnnouncementsRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_ANNOUNCEMENTS)?;
        let all = app.announcements().all().await?;
        Ok(Json(all.iter().map(render_admin_announcement).collect()))
    }
}
