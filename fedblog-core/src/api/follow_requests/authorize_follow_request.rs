//! `POST /api/v1/follow_requests/:account_id/authorize`: Accept a follow request; the answer is the updated relationship (404 without a request). <https://docs.joinmastodon.org/methods/follow_requests/#accept>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Relationship;
use crate::error::ApiResult;

/// Accept a follow request; the answer is the updated relationship (404 without a request). <https://docs.joinmastodon.org/methods/follow_requests/#accept>
pub struct AuthorizeFollowRequest;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct AuthorizeFollowRequestRequest {
    /// The requesting account's id (path).
    pub account_id: String,
}

impl Endpoint for AuthorizeFollowRequest {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/follow_requests/:account_id/authorize";
    const AUTH: Auth = Auth::User("write:follows");
    type Request = AuthorizeFollowRequestRequest;
    type Response = Json<Relationship>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: AuthorizeFollowRequestRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let requester = path_id(&r.account_id)?;
        app.relationships()
            .authorize_follow_request(me, requester)
            .await?;
        Ok(Json(app.relationship(me, requester).await?))
    }
}
