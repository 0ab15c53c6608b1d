//! `POST /api/v1/crypto/keys/claim`: claims one one-time key of each device `device[]` names
//! (`account_id`, `device_id`); each key is handed out once. Devices unknown or out of keys are
//! left out of the answer.

use http::Method;
use serde::{Deserialize, Serialize};

use super::{DeviceRef, objects};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::ApiResult;

/// Claims one-time keys.
pub struct ClaimKeys;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ClaimKeysRequest {
    /// The devices.
    #[serde(deserialize_with = "objects")]
    pub device: Vec<DeviceRef>,
}

/// A claimed key (Mastodon's `REST::Keys::ClaimResultSerializer`).
#[derive(Debug, Serialize)]
pub struct ClaimResult {
    /// The device's account.
    pub account_id: String,
    /// The device.
    pub device_id: String,
    /// The client's name for the key.
    pub key_id: String,
    /// The key.
    pub key: String,
    /// Its signature by the device's fingerprint key.
    pub signature: String,
}

impl Endpoint for ClaimKeys {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/crypto/keys/claim";
    const AUTH: Auth = Auth::User("crypto");
    type Request = ClaimKeysRequest;
    type Response = Json<Vec<ClaimResult>>;

    async fn handle(app: &App, caller: &Caller, r: ClaimKeysRequest) -> ApiResult<Self::Response> {
        caller.account()?;
        let wanted: Vec<(String, String)> = r
            .device
            .into_iter()
            .filter_map(|d| Some((d.account_id?, d.device_id?)))
            .collect();
        let claimed = app.crypto().claim(&wanted).await?;
        Ok(Json(
            claimed
                .into_iter()
                .map(|c| ClaimResult {
                    account_id: c.account_id.to_string(),
                    device_id: c.device_id,
                    key_id: c.key.key_id,
                    key: c.key.key,
                    signature: c.key.signature,
                })
                .collect(),
        ))
    }
}
