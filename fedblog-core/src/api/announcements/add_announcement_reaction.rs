//! `PUT /api/v1/announcements/:id/reactions/:name`: Reacts to an announcement with an emoji. <https://docs.joinmastodon.org/methods/announcements/#put-reactions>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Empty;
use crate::error::ApiResult;

/// Reacts to a published announcement with `name`: a Unicode emoji, or the shortcode of an
/// enabled custom emoji of this server (anything else is a 422). Reacting again with the same
/// name changes nothing; at most eight different names per announcement (a new ninth is a
/// 422). 404 for an unknown or unpublished announcement.
pub struct AddAnnouncementReaction;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct AddAnnouncementReactionRequest {
    /// The announcement's id (path).
    pub id: String,
    /// The emoji (path, URL-decoded).
    pub name: String,
}

impl Endpoint for AddAnnouncementReaction {
    const METHOD: Method = Method::PUT;
    const PATH: &'static str = "/api/v1/announcements/:id/reactions/:name";
    const AUTH: Auth = Auth::User("write:favourites");
    type Request = AddAnnouncementReactionRequest;
    type Response = Json<Empty>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: AddAnnouncementReactionRequest,
    ) -> ApiResult<Self::Response> {
        app.announcements()
            .react(caller.account()?, path_id(&r.id)?, &r.name)
            .await?;
        Ok(Json(Empty {}))
    }
}
