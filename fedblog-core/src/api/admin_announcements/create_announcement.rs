//! `POST /api/v1/admin/announcements` (fedblog's own): Makes an announcement.

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::AdminAnnouncement;
use crate::error::ApiResult;
use crate::params::de;
use crate::permissions::{Permissions, require};
use crate::render::render_admin_announcement;
use crate::services::announcements::AnnouncementChange;

/// Makes an announcement: `text` (422 when blank), `starts_at` and `ends_at` (ISO 8601, both or
/// neither, 422 otherwise), `all_day`, and `publish=true` to show it to users at once (else it
/// is a draft). Needs the `admin:write` scope and a role that manages announcements. fedblog's
/// own: Mastodon has no admin API for announcements.
pub struct CreateAdminAnnouncement;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CreateAdminAnnouncementRequest {
    /// The text (plain, with links, mentions, hashtags and `:emoji:`).
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
    /// Publish at once.
    #[serde(deserialize_with = "de::opt_bool")]
    pub publish: Option<bool>,
}

impl Endpoint for CreateAdminAnnouncement {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/admin/announcements";
    const AUTH: Auth = Auth::User("admin:write");
    type Request = CreateAdminAnnouncementRequest;
    type Response = Json<AdminAnnouncement>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CreateAdminAnnouncementRequest,
    ) -> ApiResult<Self::Response> {
        require(caller, Permissions::MANAGE_ANNOUNCEMENTS)?;
        let a = app
            .announcements()
            .create(AnnouncementChange {
                text: Some(r.text.unwrap_or_default()),
                starts_at: r.starts_at,
                ends_at: r.ends_at,
                all_day: r.all_day,
                publish: r.publish,
            })
            .await?;
        Ok(Json(render_admin_announcement(&a)))
    }
}
