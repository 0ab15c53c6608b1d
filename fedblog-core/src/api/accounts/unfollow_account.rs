//! `POST /api/v1/accounts/:id/unfollow`: Stop following an account, or withdraw the request. <https://docs.joinmastodon.org/methods/accounts/#unfollow>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Relationship;
use crate::error::ApiResult;

/// Stop following an account, or withdraw the request. <https://docs.joinmastodon.org/methods/accounts/#unfollow>
pub struct UnfollowAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnfollowAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for UnfollowAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/accounts/:id/unfollow";
    const AUTH: Auth = Auth::User("write:follows");
    type Request = UnfollowAccountRequest;
    type Response = Json<Relationship>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnfollowAccountRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let target = app.relationships().unfollow(me, path_id(&r.id)?).await?;
        Ok(Json(app.relationship(me, target.id).await?))
    }
}
