//! `POST /api/v1/statuses/:id/reblog`: Reblog (boost) a status on one's profile, with a visibility. <https://docs.joinmastodon.org/methods/statuses/#boost>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::ApiResult;
use crate::params::de;

/// Reblog a status the caller may see (the original, when the id names a reblog) and answer the
/// reblog, with the original under `reblog`. `visibility` is `public`, `unlisted` or `private`
/// (else 422; default: the caller's default visibility, `private` for `direct`); a reblog of
/// one's own followers-only status stays followers-only. 404 for a status the caller may not
/// see; 422 for someone else's followers-only status or a direct status; 403 when the caller
/// blocks the author. Reblogging again answers the existing reblog.
/// <https://docs.joinmastodon.org/methods/statuses/#boost>
pub struct ReblogStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct ReblogStatusRequest {
    /// Status id (path).
    pub id: String,
    /// `public`, `unlisted` or `private`.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub visibility: Option<String>,
}

impl Endpoint for ReblogStatus {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/statuses/:id/reblog";
    const AUTH: Auth = Auth::User("write:statuses");
    const RATE_LIMITS: &'static [crate::rate_limit::Family] =
        &[crate::rate_limit::Family::Statuses];
    type Request = ReblogStatusRequest;
    type Response = Json<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ReblogStatusRequest,
    ) -> ApiResult<Self::Response> {
        let reblog = app
            .statuses()
            .reblog(
                caller.account()?,
                caller.app.as_ref().map(|a| a.id),
                path_id(&r.id)?,
                r.visibility.as_deref(),
            )
            .await?;
        Ok(Json(
            app.render_status(&reblog, caller.account.as_ref()).await?,
        ))
    }
}
