//! `POST /api/v1/accounts/:id/unblock`: Lift a block. <https://docs.joinmastodon.org/methods/accounts/#unblock>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Relationship;
use crate::error::ApiResult;

/// Lift a block. <https://docs.joinmastodon.org/methods/accounts/#unblock>
pub struct UnblockAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnblockAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for UnblockAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/accounts/:id/unblock";
    const AUTH: Auth = Auth::User("write:blocks");
    type Request = UnblockAccountRequest;
    type Response = Json<Relationship>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnblockAccountRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let target = app.blocks().unblock(me, path_id(&r.id)?).await?;
        Ok(Json(app.relationship(me, target.id).await?))
    }
}
