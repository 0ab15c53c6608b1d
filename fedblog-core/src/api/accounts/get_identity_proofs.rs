//! `GET /api/v1/accounts/:id/identity_proofs`: always an empty list. Mastodon dropped identity
//! proofs (3.5) and has answered `[]` for a known account since; an unknown account is a 404
//! as on the other account routes.
//! <https://docs.joinmastodon.org/methods/accounts/#identity_proofs>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::error::ApiResult;

/// An account's identity proofs: none.
pub struct GetIdentityProofs;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct GetIdentityProofsRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for GetIdentityProofs {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/accounts/:id/identity_proofs";
    const AUTH: Auth = Auth::User("");
    type Request = GetIdentityProofsRequest;
    type Response = Json<Vec<serde_json::Value>>;

    async fn handle(
        app: &App,
        _caller: &Caller,
        r: GetIdentityProofsRequest,
    ) -> ApiResult<Self::Response> {
        app.accounts().visible_account(path_id(&r.id)?).await?;
        Ok(Json(vec![]))
    }
}
