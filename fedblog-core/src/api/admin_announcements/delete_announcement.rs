//! `DELETE /api/v1/admin/announcements/:id` (fedblog's own): Deletes an announcement with its dismissals and reactions.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::error::ApiResult;
use crate::permissions::{Permissions, require};

/// Deletes an announcement with its dismissals and reactions (a published one is taken from users' `user` streams with `announcement.delete`); answers an empty object. 404 if unknown. Needs the `admin:write` scope and a role that manages announcements. fedblog's own:
/// Mastodon has no admin API for announcements.
pub struct DeleteAdminAnnouncement;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteAdminAnnouncementRequest {
    /// The announcement's id (path).
    pub id: String,
}

impl Endpoint for DeleteAdminAnnouncement {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/admin/announcements/:id";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = DeleteAdminAnnouncementRequest;
    type Response = Json<serde_json::Value>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteAdminAnnouncementRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_ANNOUNCEMENTS)?;
        app.announcements().delete(path_id(&r.id)?).await?;
        Ok(Json(serde_json::json!({})))
    }
}
