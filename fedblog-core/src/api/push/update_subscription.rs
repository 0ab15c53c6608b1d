//! `PUT /api/v1/push/subscription`: changes the alerts and policy of the access token's push
//! subscription (404 when it has none). <https://docs.joinmastodon.org/methods/push/#update>

use http::Method;
use serde::Deserialize;

use super::DataParams;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::entities::WebPushSubscription;
use crate::error::{ApiError, ApiResult};

/// Updates the token's push subscription.
pub struct UpdateSubscription;

/// `data[alerts][<type>]` and `data[policy]`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct UpdateSubscriptionRequest {
    /// What to push.
    pub data: DataParams,
    /// `policy` outside `data`, as Mastodon.py sends it; `data[policy]` wins.
    #[serde(deserialize_with = "crate::params::de::opt_string")]
    pub policy: Option<String>,
}

impl Endpoint for UpdateSubscription {
    const METHOD: Method = Method::PUT;
    const PATH: &'static str = "/api/v1/push/subscription";
    const AUTH: Auth = Auth::User("push");
    type Request = UpdateSubscriptionRequest;
    type Response = Json<WebPushSubscription>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: UpdateSubscriptionRequest,
    ) -> ApiResult<Self::Response> {
        let token = caller.token.as_ref().ok_or_else(ApiError::missing_token)?;
        let sub = app
            .web_push()
            .update(token, r.data.into_data(r.policy))
            .await?;
        Ok(Json(app.render_push_subscription(&sub)))
    }
}
