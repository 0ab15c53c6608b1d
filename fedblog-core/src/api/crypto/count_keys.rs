//! `GET /api/v1/crypto/keys/count`: how many one-time keys the access token's device has left
//! (`{"one_time_keys": n}`); 404 before it uploaded a device.

use http::Method;
use serde_json::{Value, json};

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::error::{ApiError, ApiResult};

/// Counts the token's device's one-time keys.
pub struct CountKeys;

impl Endpoint for CountKeys {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/crypto/keys/count";
    const AUTH: Auth = Auth::User("crypto");
    type Request = NoParams;
    type Response = Json<Value>;

    async fn handle(app: &App, caller: &Caller, _r: NoParams) -> ApiResult<Self::Response> {
        let token = caller.token.as_ref().ok_or_else(ApiError::missing_token)?;
        let n = app.crypto().count(token).await?;
        Ok(Json(json!({ "one_time_keys": n })))
    }
}
