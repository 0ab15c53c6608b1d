//! `POST /api/v1/accounts/:id/endorse`: Feature a followed account on the caller's profile (422 when not following it). <https://docs.joinmastodon.org/methods/accounts/#endorse>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Relationship;
use crate::error::ApiResult;

/// Feature an account on the caller's profile: only an account the caller follows (422
/// otherwise); endorsing twice is not an error. <https://docs.joinmastodon.org/methods/accounts/#endorse>
pub struct EndorseAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct EndorseAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for EndorseAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/accounts/:id/endorse";
    const AUTH: Auth = Auth::User("write:accounts");
    type Request = EndorseAccountRequest;
    type Response = Json<Relationship>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: EndorseAccountRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let target = app.relationships().endorse(me, path_id(&r.id)?).await?;
        Ok(Json(app.relationship(me, target.id).await?))
    }
}
