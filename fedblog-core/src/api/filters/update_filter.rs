//! `PUT /api/v2/filters/:id`: change a filter and add, change (`keywords_attributes[][id]`) or remove (`_destroy`) keywords, all or nothing. <https://docs.joinmastodon.org/methods/filters/#update>

use http::Method;
use serde::Deserialize;

use crate::api::filters::FilterFields;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Filter;
use crate::error::ApiResult;
use crate::render::render_filter;

/// Change a filter and add, change (`keywords_attributes[][id]`) or remove (`_destroy`) keywords, all or nothing.
pub struct UpdateFilter;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UpdateFilterRequest {
    /// Filter id (path).
    pub id: String,
    /// The fields.
    #[serde(flatten)]
    pub fields: FilterFields,
}

impl Endpoint for UpdateFilter {
    const METHOD: Method = Method::PUT;
    const PATH: &'static str = "/api/v2/filters/:id";
    const AUTH: Auth = Auth::User("write:filters");
    type Request = UpdateFilterRequest;
    type Response = Json<Filter>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UpdateFilterRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let f = app
            .filters()
            .update_filter(me, path_id(&r.id)?, r.fields.changes()?)
            .await?;
        Ok(Json(render_filter(&f, true)))
    }
}
