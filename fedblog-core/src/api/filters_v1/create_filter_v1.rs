//! `POST /api/v1/filters`: make a v1 filter (`phrase`, `context[]`, `irreversible`, `whole_word`, `expires_in`): a filter titled by the phrase holding it as its one keyword. <https://docs.joinmastodon.org/methods/filters/#create-v1>

use http::Method;
use serde::Deserialize;

use crate::api::filters_v1::V1FilterFields;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::V1Filter;
use crate::error::ApiResult;
use crate::render::render_v1_filter;

/// Make a v1 filter (`phrase`, `context[]`, `irreversible`, `whole_word`, `expires_in`): a filter titled by the phrase holding it as its one keyword.
pub struct CreateFilterV1;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct CreateFilterV1Request {
    /// The fields.
    #[serde(flatten)]
    pub fields: V1FilterFields,
}

impl Endpoint for CreateFilterV1 {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/filters";
    const AUTH: Auth = Auth::User("write:filters");
    type Request = CreateFilterV1Request;
    type Response = Json<V1Filter>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CreateFilterV1Request,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let (k, f) = app.filters().create_v1_filter(me, r.fields.into()).await?;
        Ok(Json(render_v1_filter(&k, &f)))
    }
}
