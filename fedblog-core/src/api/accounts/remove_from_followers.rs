//! `POST /api/v1/accounts/:id/remove_from_followers`: Make an account stop following the caller; not being followed is not an error. <https://docs.joinmastodon.org/methods/accounts/#remove_from_followers>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Relationship;
use crate::error::ApiResult;

/// Make an account stop following the caller (its endorsement of the caller ends too); not being
/// followed is not an error. <https://docs.joinmastodon.org/methods/accounts/#remove_from_followers>
pub struct RemoveFromFollowers;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct RemoveFromFollowersRequest {
    /// Account id (path).
    pub id: String,
}

impl Endpoint for RemoveFromFollowers {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/accounts/:id/remove_from_followers";
    const AUTH: Auth = Auth::User("write:follows");
    type Request = RemoveFromFollowersRequest;
    type Response = Json<Relationship>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: RemoveFromFollowersRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let target = app
            .relationships()
            .remove_from_followers(me, path_id(&r.id)?)
            .await?;
        Ok(Json(app.relationship(me, target.id).await?))
    }
}
