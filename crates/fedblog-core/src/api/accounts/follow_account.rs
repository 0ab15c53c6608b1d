//! `POST /api/v1/accounts/:id/follow`: Follow an account (a request when it is locked); following twice is not an error. <https://docs.joinmastodon.org/methods/accounts/#follow>

use http::Method;
use serde::Deserialize;

use crate::api::{Auth, Endpoint, Json, path_id};
use crate::app::{App, Caller};
use crate::entities::Relationship;
use crate::error::ApiResult;

/// Follow an account (a request when it is locked); following twice is not an error. <https://docs.joinmastodon.org/methods/accounts/#follow>
pub struct FollowAccount;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct FollowAccountRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for FollowAccount {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/accounts/:id/follow";
    const AUTH: Auth = Auth::User("write:follows");
    type Request = FollowAccountRequest;
    type Response = Json<Relationship>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: FollowAccountRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let target = app.follow(me, path_id(&r.id)?).await?;
        Ok(Json(app.relationship(me, target.id).await?))
    }
}
