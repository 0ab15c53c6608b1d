//! `GET /api/v1/preferences`: the caller's posting defaults (set through
//! `update_credentials`' `source[privacy]`, `source[sensitive]` and `source[language]`) and
//! reading preferences, by Mastodon's keys. <https://docs.joinmastodon.org/methods/preferences/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Preferences;
use crate::error::ApiResult;

/// The caller's preferences. The reading preferences are Mastodon's defaults: fedblog has no
/// web settings that change them.
pub struct GetPreferences;

/// Parameters: none.
#[derive(Debug, Default, Deserialize)]
pub struct GetPreferencesRequest {}

impl Endpoint for GetPreferences {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/preferences";
    const AUTH: Auth = Auth::User("read:accounts");
    type Request = GetPreferencesRequest;
    type Response = Json<Preferences>;

    async fn handle(
        app: &App,
        caller: &Caller,
        _r: GetPreferencesRequest,
    ) -> ApiResult<Self::Response> {
        Ok(Json(app.render_preferences(caller.account()?)))
    }
}
