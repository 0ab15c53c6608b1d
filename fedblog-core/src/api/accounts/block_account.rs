//! `POST /api/v1/accounts/:id/block`: Block an account: follows both ways end, and neither sees the other's posts in timelines. <https://docs.joinmastodon.org/methods/accounts/#block>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Relationship;
use crate::error::ApiResult;

/// Block an account: follows both ways end, and neither sees the other's posts in timelines. <https://docs.joinmastodon.org/methods/accounts/#block>
pub struct BlockAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct BlockAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for BlockAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/accounts/:id/block";
    const AUTH: Auth = Auth::User("write:blocks");
    type Request = BlockAccountRequest;
    type Response = Json<Relationship>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: BlockAccountRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let target = app.blocks().block(me, path_id(&r.id)?).await?;
        Ok(Json(app.relationship(me, target.id).await?))
    }
}
