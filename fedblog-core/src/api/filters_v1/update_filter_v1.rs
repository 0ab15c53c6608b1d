//! `PUT /api/v1/filters/:id`: change a v1 filter: its keyword, and its filter (a 422 when that filter has other keywords). <https://docs.joinmastodon.org/methods/filters/#update-v1>

use http::Method;
use serde::Deserialize;

use crate::api::filters_v1::V1FilterFields;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::V1Filter;
use crate::error::ApiResult;
use crate::render::render_v1_filter;

/// Change a v1 filter: its keyword, and its filter (a 422 when that filter has other keywords).
pub struct UpdateFilterV1;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UpdateFilterV1Request {
    /// Keyword id (path).
    pub id: String,
    /// The fields.
    #[serde(flatten)]
    pub fields: V1FilterFields,
}

impl Endpoint for UpdateFilterV1 {
    const METHOD: Method = Method::PUT;
    const PATH: &'static str = "/api/v1/filters/:id";
    const AUTH: Auth = Auth::User("write:filters");
    type Request = UpdateFilterV1Request;
    type Response = Json<V1Filter>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UpdateFilterV1Request,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let (k, f) = app
            .filters()
            .update_v1_filter(me, path_id(&r.id)?, r.fields.into())
            .await?;
        Ok(Json(render_v1_filter(&k, &f)))
    }
}
