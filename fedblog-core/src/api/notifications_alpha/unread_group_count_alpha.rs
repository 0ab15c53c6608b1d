//! `GET /api/v2_alpha/notifications/unread_count`: How many notification groups came after the caller's notifications marker, under the path of Mastodon 4.3's betas. <https://docs.joinmastodon.org/methods/notifications_alpha/#unread-group-count>

use http::Method;

use crate::api::notifications::unread_count::UnreadCountResponse;
use crate::api::notifications::unread_group_count::{UnreadGroupCount, UnreadGroupCountRequest};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::ApiResult;

/// `GET /api/v2/notifications/unread_count` under its beta path: `{"count": n}`, counted as
/// there (100 by default, 1,000 at most).
pub struct UnreadGroupCountAlpha;

impl Endpoint for UnreadGroupCountAlpha {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2_alpha/notifications/unread_count";
    const AUTH: Auth = Auth::User("read:notifications");
    type Request = UnreadGroupCountRequest;
    type Response = Json<UnreadCountResponse>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UnreadGroupCountRequest,
    ) -> ApiResult<Self::Response> {
        <UnreadGroupCount as Endpoint>::handle(app, caller, r).await
    }
}
