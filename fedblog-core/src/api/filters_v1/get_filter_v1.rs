//! `GET /api/v1/filters/:id`: one v1 filter (a keyword id). <https://docs.joinmastodon.org/methods/filters/#get-one-v1>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::V1Filter;
use crate::error::ApiResult;
use crate::render::render_v1_filter;

/// One v1 filter (a keyword id).
pub struct GetFilterV1;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetFilterV1Request {
    /// Keyword id (path).
    pub id: String,
}

impl Endpoint for GetFilterV1 {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/filters/:id";
    const AUTH: Auth = Auth::User("read:filters");
    type Request = GetFilterV1Request;
    type Response = Json<V1Filter>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: GetFilterV1Request,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let (k, f) = app.filters().v1_filter(me, path_id(&r.id)?).await?;
        Ok(Json(render_v1_filter(&k, &f)))
    }
}
