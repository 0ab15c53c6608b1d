//! `DELETE /api/v2/filters/keywords/:id`: remove a keyword from one of the caller's filters. <https://docs.joinmastodon.org/methods/filters/#keywords-delete>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Remove a keyword from one of the caller's filters.
pub struct DeleteFilterKeyword;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct DeleteFilterKeywordRequest {
    /// Keyword id (path).
    pub id: String,
}

impl Endpoint for DeleteFilterKeyword {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v2/filters/keywords/:id";
    const AUTH: Auth = Auth::User("write:filters");
    type Request = DeleteFilterKeywordRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: DeleteFilterKeywordRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        app.filters()
            .delete_filter_keyword(me, path_id(&r.id)?)
            .await?;
        Ok(Json(Empty {}))
    }
}
