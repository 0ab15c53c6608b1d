//! `PUT /api/v1/admin/announcements/:id` (fedblog's own): Changes an announcement.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::AdminAnnouncement;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_announcement;
use crate::services::announcements::AnnouncementChange;

/// Changes an announcement: the parameters given (`text`, `starts_at`, `ends_at`, `all_day`;
/// an empty `starts_at` or `ends_at` clears it) replace its own, checked as when it was made
/// (422). A published one is streamed to users again. 404 if unknown. Needs the `admin:write`
/// scope and a role that manages announcements. fedblog's own: Mastodon has no admin API for
/// announcements.
pub struct UpdateAdminAnnouncement;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct UpdateAdminAnnouncementRequest {
    /// The announcement's id (path).
    pub id: String,
    /// The text.
    #[serde(deserialize_with = "de::opt_string")]
    pub text: Option<String>,
    /// When the event starts.
    #[serde(deserialize_with = "de::opt_string")]
    pub starts_at: Option<String>,
    /// When it ends.
    #[serde(deserialize_with = "de::opt_string")]
    pub ends_at: Option<String>,
    /// Dates only.
    #[serde(deserialize_with = "de::opt_bool")]
    pub all_day: Option<bool>,
}

impl Endpoint for UpdateAdminAnnouncement {
    const METHOD: Method = Method::PUT;
    const PATH: &'static str = "/api/v1/admin/announcements/:id";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = UpdateAdminAnnouncementRequest;
    type Response = Json<AdminAnnouncement>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UpdateAdminAnnouncementRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_ANNOUNCEMENTS)?;
        let a = app
            .announcements()
            .update(
                path_id(&r.id)?,
                AnnouncementChange {
                    text: r.text,
                    starts_at: r.starts_at,
                    ends_at: r.ends_at,
                    all_day: r.all_day,
                    publish: None,
                },
            )
            .await?;
        Ok(Json(render_admin_announcement(&a)))
    }
}
