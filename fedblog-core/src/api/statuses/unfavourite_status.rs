//! `POST /api/v1/statuses/:id/unfavourite`: Take back a favourite and answer the status; succeeds even when the caller has lost access to it since (blocked by the author). <https://docs.joinmastodon.org/methods/statuses/#unfavourite>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, path_id};
use crate::entities::Status;
use crate::error::ApiResult;

/// Take back a favourite and answer the status; succeeds even when the caller has lost access
/// to it since (blocked by the author). Without a favourite, 404 for a status the caller may
/// not see. <https://docs.joinmastodon.org/methods/statuses/#unfavourite>
pub struct UnfavouriteStatus;

/// Parameters.
#[derive(Debug, Deserialize)]
pub struct UnfavouriteStatusRequest {
    /// Status id (path).
    pub id: String,
}

impl Endpoint for UnfavouriteStatus {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/statuses/:id/unfavourite";
    const AUTH: Auth = Auth::User("write:favourites");
    type Request = UnfavouriteStatusRequest;
    type Response = Json<Status>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnfavouriteStatusRequest,
    ) -> ApiResult<Self::Response> {
        let me = caller.account()?;
        let status = app.interactions().unfavourite(me, path_id(&r.id)?).await?;
        Ok(Json(app.render_status(&status, Some(me)).await?))
    }
}
