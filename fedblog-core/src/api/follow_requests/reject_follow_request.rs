//! `POST /api/v1/follow_requests/:account_id/reject`: Decline a follow request; the answer is the updated relationship (404 without a request). <https://docs.joinmastodon.org/methods/follow_requests/#reject>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Relationship;
use crate::error::ApiResult;

/// Decline a follow request; the answer is the updated relationship (404 without a request). <https://docs.joinmastodon.org/methods/follow_requests/#reject>
pub struct RejectFollowRequest;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct RejectFollowRequestRequest {
    /// The requesting account's id (path).
    pub account_id: String,
}

impl Endpoint for RejectFollowRequest {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/follow_requests/:account_id/reject";
    const AUTH: Auth = Auth::User("write:follows");
    type Request = RejectFollowRequestRequest;
    type Response = Json<Relationship>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: RejectFollowRequestRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let requester = path_id(&r.account_id)?;
        app.relationships()
            .reject_follow_request(me, requester)
            .await?;
        Ok(Json(app.relationship(me, requester).await?))
    }
}
