//! `POST /api/v1/accounts/:id/unmute`: Lift a mute. <https://docs.joinmastodon.org/methods/accounts/#unmute>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Relationship;
use crate::error::ApiResult;

/// Lift a mute. <https://docs.joinmastodon.org/methods/accounts/#unmute>
pub struct UnmuteAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnmuteAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for UnmuteAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/accounts/:id/unmute";
    const AUTH: Auth = Auth::User("write:mutes");
    type Request = UnmuteAccountRequest;
    type Response = Json<Relationship>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnmuteAccountRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let target = app.blocks().unmute(me, path_id(&r.id)?).await?;
        Ok(Json(app.relationship(me, target.id).await?))
    }
}
