//! `POST /api/v1/push/subscription`: subscribes the access token to Web Push, replacing the
//! subscription it had. <https://docs.joinmastodon.org/methods/push/#create>

use http::Method;

use super::{CreateSubscriptionRequest, presented_token};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::WebPushSubscription;
use crate::error::{ApiError, ApiResult};

/// Creates the token's push subscription.
pub struct CreateSubscription;

impl Endpoint for CreateSubscription {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/push/subscription";
    const AUTH: Auth = Auth::User("push");
    type Request = CreateSubscriptionRequest;
    type Response = Json<WebPushSubscription>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CreateSubscriptionRequest,
    ) -> ApiResult<Self::Response> {
        subscribe(app, caller, r).await
    }
}

/// Subscribes the caller's token (shared with `POST /api/v1/push/subscriptions`).
pub async fn subscribe(
    app: &App,
    caller: &Caller,
    r: CreateSubscriptionRequest,
) -> ApiResult<Json<WebPushSubscription>> {
    let token = caller.token.as_ref().ok_or_else(ApiError::missing_token)?;
    let sub = app
        .web_push()
        .subscribe(
            caller.account()?,
            token,
            presented_token(caller).as_deref(),
            r.into_new(),
        )
        .await?;
    Ok(Json(app.render_push_subscription(&sub)))
}
