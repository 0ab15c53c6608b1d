//! `POST /api/v2/filters/:filter_id/keywords`: add a keyword (`keyword`, `whole_word`) to one of the caller's filters; a blank keyword is a 422. <https://docs.joinmastodon.org/methods/filters/#keywords-create>

use http::Method;
use serde::Deserialize;

use crate::api::filters::KeywordFields;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::FilterKeyword;
use crate::error::ApiResult;
use crate::render::render_filter_keyword;

/// Add a keyword (`keyword`, `whole_word`) to one of the caller's filters; a blank keyword is a 422.
pub struct AddFilterKeyword;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct AddFilterKeywordRequest {
    /// Filter id (path).
    pub filter_id: String,
    /// The fields.
    #[serde(flatten)]
    pub fields: KeywordFields,
}

impl Endpoint for AddFilterKeyword {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v2/filters/:filter_id/keywords";
    const AUTH: Auth = Auth::User("write:filters");
    type Request = AddFilterKeywordRequest;
    type Response = Json<FilterKeyword>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: AddFilterKeywordRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let k = app
            .filters()
            .add_filter_keyword(
                me,
                path_id(&r.filter_id)?,
                r.fields.keyword.as_deref(),
                r.fields.whole_word,
            )
            .await?;
        Ok(Json(render_filter_keyword(&k)))
    }
}
