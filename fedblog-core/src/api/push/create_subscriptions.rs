//! `POST /api/v1/push/subscriptions`: the create call as the specification writes its path;
//! the same as `POST /api/v1/push/subscription`.

use http::Method;

use super::CreateSubscriptionRequest;
use super::create_subscription::subscribe;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::WebPushSubscription;
use crate::error::ApiResult;

/// Creates the token's push subscription (the specification's path).
pub struct CreateSubscriptions;

impl Endpoint for CreateSubscriptions {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/push/subscriptions";
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
