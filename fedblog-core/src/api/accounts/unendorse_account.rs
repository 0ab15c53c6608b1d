//! `POST /api/v1/accounts/:id/unendorse`: Stop featuring an account on the caller's profile; not featuring it is not an error. <https://docs.joinmastodon.org/methods/accounts/#unendorse>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Relationship;
use crate::error::ApiResult;

/// Stop featuring an account on the caller's profile; not featuring it is not an error. <https://docs.joinmastodon.org/methods/accounts/#unendorse>
pub struct UnendorseAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnendorseAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for UnendorseAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/accounts/:id/unendorse";
    const AUTH: Auth = Auth::User("write:accounts");
    type Request = UnendorseAccountRequest;
    type Response = Json<Relationship>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnendorseAccountRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let target = app.relationships().unendorse(me, path_id(&r.id)?).await?;
        Ok(Json(app.relationship(me, target.id).await?))
    }
}
