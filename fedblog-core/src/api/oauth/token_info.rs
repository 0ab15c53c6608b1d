//! `GET /oauth/token/info`: what the bearer token of the request is (Doorkeeper's token info, one of the default routes Mastodon serves).

use http::Method;
use serde_json::{Value, json};

use crate::app::{App, Caller, bearer_token, query_token};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::error::ApiResult;

/// The request's own token, from `Authorization: Bearer` or the `access_token` query
/// parameter, as Doorkeeper describes it: `resource_owner_id` (the account's id, a string as
/// every id here; `null` for an application's own token), `scope` (an array), `expires_in`
/// (`null`: tokens here never expire), `application.uid` (the client id) and `created_at`
/// (seconds). A missing or unknown token is a 401 `invalid_token`, and so is a revoked one,
/// saying so; any live token may ask, whatever its scopes.
pub struct TokenInfo;

impl Endpoint for TokenInfo {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/oauth/token/info";
    const AUTH: Auth = Auth::Public;
    type Request = NoParams;
    type Response = Json<Value>;

    async fn handle(app: &App, caller: &Caller, _r: NoParams) -> ApiResult<Self::Response> {
        let secret = bearer_token(caller.authorization.as_deref())
            .or_else(|| query_token(&caller.info.query));
        let live = app.oauth().token_info(secret.as_deref()).await?;
        Ok(Json(json!({
            "resource_owner_id": live.token.account_id.map(|id| id.to_string()),
            "scope": live.token.scopes.split_whitespace().collect::<Vec<_>>(),
            "expires_in": null,
            "application": { "uid": live.app.as_ref().map(|a| a.client_id.clone()) },
            "created_at": live.token.created_at.timestamp(),
        })))
    }
}
