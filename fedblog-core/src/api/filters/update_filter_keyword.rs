//! `PUT /api/v2/filters/keywords/:id`: change a keyword of the caller's filters; a missing or blank keyword is a 422. <https://docs.joinmastodon.org/methods/filters/#keywords-update>

use http::Method;
use serde::Deserialize;

use crate::api::filters::KeywordFields;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::FilterKeyword;
use crate::error::ApiResult;
use crate::render::render_filter_keyword;

/// Change a keyword of the caller's filters; a missing or blank keyword is a 422.
pub struct UpdateFilterKeyword;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UpdateFilterKeywordRequest {
    /// Keyword id (path).
    pub id: String,
    /// The fields.
    #[serde(flatten)]
    pub fields: KeywordFields,
}

impl Endpoint for UpdateFilterKeyword {
    const METHOD: Method = Method::PUT;
    const PATH: &'static str = "/api/v2/filters/keywords/:id";
    const AUTH: Auth = Auth::User("write:filters");
    type Request = UpdateFilterKeywordRequest;
    type Response = Json<FilterKeyword>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UpdateFilterKeywordRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let k = app
            .filters()
            .update_filter_keyword(
                me,
                path_id(&r.id)?,
                r.fields.keyword.as_deref(),
                r.fields.whole_word,
            )
            .await?;
        Ok(Json(render_filter_keyword(&k)))
    }
}
