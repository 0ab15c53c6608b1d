//! `GET /api/v1/accounts/:id`: one account. <https://docs.joinmastodon.org/methods/accounts/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Account;
use crate::error::ApiResult;

/// Returns an account; 404 when unknown, 410 when suspended.
pub struct GetAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for GetAccount {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/accounts/:id";
    const AUTH: Auth = Auth::Optional("read:accounts");
    type Request = GetAccountRequest;
    type Response = Json<Account>;

    async fn handle(
        app: &App,
        _caller: &Caller,
        r: GetAccountRequest,
    ) -> ApiResult<Self::Response> {
        let account = app.accounts().visible_account(path_id(&r.id)?).await?;
        Ok(Json(app.render_account_alone(&account).await?))
    }
}
