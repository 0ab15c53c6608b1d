//! `GET /api/v1/notifications/requests/merged`: whether accepted requests are merged into the notifications (always: fedblog merges them while accepting). <https://docs.joinmastodon.org/methods/notifications/#requests-merged>

use http::Method;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json, NoParams};
use crate::entities::MergedResponse;
use crate::error::ApiResult;

/// Whether the notifications of accepted requests are merged; accepting merges them before it
/// answers, so they always are.
pub struct NotificationRequestsMerged;

impl Endpoint for NotificationRequestsMerged {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/notifications/requests/merged";
    const AUTH: Auth = Auth::User("read:notifications");
    type Request = NoParams;
    type Response = Json<MergedResponse>;

    async fn handle(_app: &App, caller: &Caller, _: NoParams) -> ApiResult<Self::Response> {
        caller.account()?;
        Ok(Json(MergedResponse { merged: true }))
    }
}
