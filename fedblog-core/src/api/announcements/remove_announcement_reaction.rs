//! `DELETE /api/v1/announcements/:id/reactions/:name`: Takes back a reaction to an announcement. <https://docs.joinmastodon.org/methods/announcements/#delete-reactions>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Takes back the caller's reaction `name` to a published announcement. 404 for an unknown or
/// unpublished announcement, or when the caller did not react so.
pub struct RemoveAnnouncementReaction;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct RemoveAnnouncementReactionRequest {
    /// The announcement's id (path).
    pub id: String,
    /// The emoji (path, URL-decoded).
    pub name: String,
}

impl Endpoint for RemoveAnnouncementReaction {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/announcements/:id/reactions/:name";
    const AUTH: Auth = Auth::User("write:favourites");
    type Request = RemoveAnnouncementReactionRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: RemoveAnnouncementReactionRequest,
    ) -> ApiResult<Self::Response> {
        app.announcements()
            .unreact(caller.account()?, path_id(&r.id)?, &r.name)
            .await?;
        Ok(Json(Empty {}))
    }
}
