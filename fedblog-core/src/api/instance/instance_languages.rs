//! `GET /api/v1/instance/languages`: The languages the server knows, with their names. (Undocumented; Mastodon's `Api::V1::Instances::LanguagesController`.)

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::Language;
use crate::error::ApiResult;

/// The ISO 639 languages a status may be written in, `{code, name}` with English names: every
/// ISO 639-1 language, then the ISO 639-3 ones Mastodon adds.
pub struct InstanceLanguages;

impl Endpoint for InstanceLanguages {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/instance/languages";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<Vec<Language>>;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        Ok(Json(app.render_languages()))
    }
}
