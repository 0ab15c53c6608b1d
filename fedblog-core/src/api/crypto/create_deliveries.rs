//! `POST /api/v1/crypto/deliveries`: delivers encrypted messages from the access token's device
//! to the devices `device[]` names (`account_id`, `device_id`, `type`, `body`, `hmac` or
//! `digest`); each is kept for its device and streamed to it (`encrypted_message`). Answers
//! `{}`; 400 without `device`, 404 for the token's missing device or an unknown recipient.

use http::Method;
use serde::Deserialize;
use serde_json::{Value, json};

use super::objects;
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::services::crypto::Delivery;

/// Delivers encrypted messages.
pub struct CreateDeliveries;

/// One `device[]` entry.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DeliveryParams {
    /// The recipient's account.
    #[serde(deserialize_with = "de::opt_string")]
    pub account_id: Option<String>,
    /// The recipient's device.
    #[serde(deserialize_with = "de::opt_string")]
    pub device_id: Option<String>,
    /// The Olm message type.
    #[serde(rename = "type", deserialize_with = "de::opt_i64")]
    pub kind: Option<i64>,
    /// The encrypted body.
    #[serde(deserialize_with = "de::opt_string")]
    pub body: Option<String>,
    /// The sender's HMAC of the message (Mastodon's parameter name).
    #[serde(deserialize_with = "de::opt_string")]
    pub hmac: Option<String>,
    /// The same, under the name the message shows it.
    #[serde(deserialize_with = "de::opt_string")]
    pub digest: Option<String>,
}

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CreateDeliveriesRequest {
    /// The deliveries.
    #[serde(deserialize_with = "objects")]
    pub device: Vec<DeliveryParams>,
}

impl Endpoint for CreateDeliveries {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/crypto/deliveries";
    const AUTH: Auth = Auth::User("crypto");
    type Request = CreateDeliveriesRequest;
    type Response = Json<Value>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: CreateDeliveriesRequest,
    ) -> ApiResult<Self::Response> {
        let token = caller.token.as_ref().ok_or_else(ApiError::missing_token)?;
        if r.device.is_empty() {
            return Err(ApiError::bad_request(
                "param is missing or the value is empty: device",
            ));
        }
        let deliveries = r
            .device
            .into_iter()
            .map(|d| Delivery {
                account_id: d.account_id,
                device_id: d.device_id,
                kind: d.kind.and_then(|k| i32::try_from(k).ok()),
                body: d.body,
                digest: d.hmac.or(d.digest),
            })
            .collect();
        app.crypto()
            .deliver(caller.account()?, token, deliveries)
            .await?;
        Ok(Json(json!({})))
    }
}
