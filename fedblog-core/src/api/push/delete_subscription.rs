//! `DELETE /api/v1/push/subscription`: removes the access token's push subscription (an
//! empty object, whether it had one or not). <https://docs.joinmastodon.org/methods/push/#delete>

use http::Method;
use serde::Deserialize;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::{ApiError, ApiResult};

/// Removes the token's push subscription.
pub struct DeleteSubscription;

/// Parameters: none.
#[derive(Debug, Default, Deserialize)]
pub struct DeleteSubscriptionRequest {}

impl Endpoint for DeleteSubscription {
    const METHOD: Method = Method::DELETE;
    const PATH: &'static str = "/api/v1/push/subscription";
    const AUTH: Auth = Auth::User("push");
    type Request = DeleteSubscriptionRequest;
    type Response = Json<serde_json::Value>;

    async fn handle(
        app: &App,
        caller: &Caller,
        _r: DeleteSubscriptionRequest,
    ) -> ApiResult<Self::Response> {
        let token = caller.token.as_ref().ok_or_else(ApiError::missing_token)?;
        app.web_push().unsubscribe(token).await?;
        Ok(Json(serde_json::json!({})))
    }
}
