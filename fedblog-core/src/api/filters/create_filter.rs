//! `POST /api/v2/filters`: make a filter (`title`, `context[]`, `filter_action`, `expires_in`, `keywords_attributes[]`); a blank title, no or an unknown context, an unknown action or a blank keyword is a 422. <https://docs.joinmastodon.org/methods/filters/#create>

use http::Method;
use serde::Deserialize;

use crate::api::filters::FilterFields;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::Filter;
use crate::error::ApiResult;
use crate::render::render_filter;

/// Make a filter (`title`, `context[]`, `filter_action`, `expires_in`, `keywords_attributes[]`); a blank title, no or an unknown context, an unknown action or a blank keyword is a 422.
pub struct CreateFilter;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct CreateFilterRequest {
    /// The fields.
    #[serde(flatten)]
    pub fields: FilterFields,
}

impl Endpoint for CreateFilter {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v2/filters";
    const AUTH: Auth = Auth::User("write:filters");
    type Request = CreateFilterRequest;
    type Response = Json<Filter>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CreateFilterRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let f = app.filters().create_filter(me, r.fields.changes()?).await?;
        Ok(Json(render_filter(&f, true)))
    }
}
