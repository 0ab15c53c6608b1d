//! `GET /api/v1/announcements`: The announcements shown to the caller. <https://docs.joinmastodon.org/methods/announcements/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Announcement;
use crate::error::ApiResult;
use crate::params::de;
use crate::render::render_announcement;

/// The published announcements whose end has not passed, oldest first (by `starts_at`, else
/// `published_at`), each with `read` (whether the caller dismissed it) and the reactions with
/// the caller's `me`. Any scope of a user token will do, as in Mastodon.
pub struct ListAnnouncements;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ListAnnouncementsRequest {
    /// `false` leaves out the announcements the caller dismissed; they are listed by default,
    /// with `read: true`.
    #[serde(deserialize_with = "de::opt_bool")]
    pub with_dismissed: Option<bool>,
}

impl Endpoint for ListAnnouncements {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/announcements";
    const AUTH: Auth = Auth::User("");
    type Request = ListAnnouncementsRequest;
    type Response = Json<Vec<Announcement>>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListAnnouncementsRequest,
    ) -> ApiResult<Self::Response> {
        let views = app
            .announcements()
            .list_for(caller.account()?, r.with_dismissed.unwrap_or(true))
            .await?;
        let base = app.base_url();
        Ok(Json(
            views
                .iter()
                .map(|v| render_announcement(&base, v))
                .collect(),
        ))
    }
}
