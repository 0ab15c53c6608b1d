//! `POST /api/v1/statuses/:id/favourite`: Favourite a status the caller may see (the original, when the id names a reblog); favouriting again is not an error. <https://docs.joinmastodon.org/methods/statuses/#favourite>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::ApiResult;

/// Favourite a status the caller may see (the original, when the id names a reblog);
/// favouriting again is not an error. 404 for a status the caller may not see; 403 when the
/// caller blocks its author. <https://docs.joinmastodon.org/methods/statuses/#favourite>
pub struct FavouriteStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct FavouriteStatusRequest {
    /// Status id (path).
    pub id: String,
}

impl Endpoint for FavouriteStatus {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/statuses/:id/favourite";
    const AUTH: Auth = Auth::User("write:favourites");
    type Request = FavouriteStatusRequest;
    type Response = Json<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: FavouriteStatusRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let status = app.interactions().favourite(me, path_id(&r.id)?).await?;
        Ok(Json(app.render_status(&status, Some(me)).await?))
    }
}
