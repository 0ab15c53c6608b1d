//! `GET /api/v1/push/subscription`: the access token's push subscription, 404 when it has
//! none. <https://docs.joinmastodon.org/methods/push/#get>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::WebPushSubscription;
use crate::error::{ApiError, ApiResult};

/// Shows the token's push subscription.
pub struct GetSubscription;

/// Parameters: none.
#[derive(Debug, Default, Deserialize)]
pub struct GetSubscriptionRequest {}

impl Endpoint for GetSubscription {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/push/subscription";
    const AUTH: Auth = Auth::User("push");
    type Request = GetSubscriptionRequest;
    type Response = Json<WebPushSubscription>;

    async fn handle(
        app: &App,
        caller: &Caller,
        _r: GetSubscriptionRequest,
    ) -> ApiResult<Self::Response> {
        let token = caller.token.as_ref().ok_or_else(ApiError::missing_token)?;
        let sub = app.web_push().subscription(token).await?;
        Ok(Json(app.render_push_subscription(&sub)))
    }
}
