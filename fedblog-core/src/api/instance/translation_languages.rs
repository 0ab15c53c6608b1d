//! `GET /api/v1/instance/translation_languages`: the language pairs translation offers. <https://docs.joinmastodon.org/methods/instance/#translation_languages>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::error::ApiResult;
use crate::translation::LanguageMatrix;

/// Source language → the languages it can be translated into (`und`: statuses of unknown
/// language); `{}` when translation is disabled.
pub struct TranslationLanguages;

impl Endpoint for TranslationLanguages {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/instance/translation_languages";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<LanguageMatrix>;

    async fn handle(app: &App, _caller: &Caller, _req: NoParams) -> ApiResult<Self::Response> {
        Ok(Json(app.translation().translation_languages().await?))
    }
}
