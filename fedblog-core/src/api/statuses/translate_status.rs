//! `POST /api/v1/statuses/:id/translate`: a machine translation of a status. <https://docs.joinmastodon.org/methods/statuses/#translate>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Translation;
use crate::error::ApiResult;
use crate::services::translation::target_language;

/// Translates a public or unlisted status the caller may see: 404 for one it may not see, 403
/// when translation is disabled or cannot apply (not public or unlisted, unsupported language
/// pair), 503 when the translation service fails.
pub struct TranslateStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct TranslateStatusRequest {
    /// Status id (path).
    pub id: String,
    /// The language to translate into (default: the login's locale).
    #[serde(default)]
    pub lang: Option<String>,
}

impl Endpoint for TranslateStatus {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/statuses/:id/translate";
    const AUTH: Auth = Auth::User("read:statuses");
    type Request = TranslateStatusRequest;
    type Response = Json<Translation>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: TranslateStatusRequest,
    ) -> ApiResult<Self::Response> {
        let viewer = caller.account()?;
        let target = target_language(
            r.lang.as_deref(),
            caller.user.as_ref().map(|u| u.locale.as_str()),
        );
        let translation = app
            .translation()
            .translate_status(viewer, path_id(&r.id)?, &target)
            .await?;
        Ok(Json(app.render_translation(&translation)))
    }
}
