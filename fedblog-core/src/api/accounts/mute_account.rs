//! `POST /api/v1/accounts/:id/mute`: mute an account, optionally for a time. <https://docs.joinmastodon.org/methods/accounts/#mute>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Relationship;
use crate::error::ApiResult;
use crate::params::de;

/// Mutes an account: its posts leave the caller's timelines; muting again changes the settings.
pub struct MuteAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct MuteRequest {
    /// Account id (path).
    pub id: String,
    /// Mute its notifications too (default true).
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub notifications: Option<bool>,
    /// Seconds until the mute ends by itself; 0 or absent: until lifted.
    #[serde(default, deserialize_with = "de::opt_i64")]
    pub duration: Option<i64>,
}

impl Endpoint for MuteAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/accounts/:id/mute";
    const AUTH: Auth = Auth::User("write:mutes");
    type Request = MuteRequest;
    type Response = Json<Relationship>;

    async fn handle(app: &App, caller: &Caller, r: MuteRequest) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let target = app
            .blocks()
            .mute(
                me,
                path_id(&r.id)?,
                r.notifications.unwrap_or(true),
                r.duration.unwrap_or(0),
            )
            .await?;
        Ok(Json(app.relationship(me, target.id).await?))
    }
}
