//! `GET /api/v1/accounts/:id/lists`: The caller's lists that contain an account (lists do not exist yet: always empty). <https://docs.joinmastodon.org/methods/accounts/#lists>

use http::Method;
use serde::Deserialize;

use crate::api::{Auth, Endpoint, Json, path_id};
use crate::app::{App, Caller};
use crate::entities::List;
use crate::error::{ApiError, ApiResult};

/// The caller's lists that contain an account. Lists arrive with a later issue, so this answers
/// an empty array for an existing account and 404 for an unknown one. <https://docs.joinmastodon.org/methods/accounts/#lists>
pub struct GetAccountLists;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetAccountListsRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for GetAccountLists {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/accounts/:id/lists";
    const AUTH: Auth = Auth::User("read:lists");
    type Request = GetAccountListsRequest;
    type Response = Json<Vec<List>>;

    async fn handle(
        app: &App,
        _caller: &Caller,
        r: GetAccountListsRequest,
    ) -> ApiResult<Self::Response> {
        app.store
            .account_by_id(path_id(&r.id)?)
            .await?
            .ok_or_else(ApiError::not_found)?;
        Ok(Json(vec![]))
    }
}
