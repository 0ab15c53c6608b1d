//! `POST /api/v1/crypto/keys/upload`: publishes the device of the access token (`device[...]`:
//! `device_id`, `name`, `fingerprint_key`, `identity_key`) with one-time keys
//! (`one_time_keys[][...]`: `key_id`, `key`, `signature`), as Mastodon 3.x did; answers the
//! device.

use http::Method;
use serde::Deserialize;

use super::{DeviceJson, objects};
use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Json};
use crate::error::{ApiError, ApiResult};
use crate::params::de;
use crate::services::crypto::{NewDevice, NewOneTimeKey};

/// Uploads the token's device and some one-time keys.
pub struct UploadKeys;

/// `device[...]`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DeviceParams {
    /// The client's name for the device.
    #[serde(deserialize_with = "de::opt_string")]
    pub device_id: Option<String>,
    /// A name shown to people.
    #[serde(deserialize_with = "de::opt_string")]
    pub name: Option<String>,
    /// The Ed25519 fingerprint key, base64.
    #[serde(deserialize_with = "de::opt_string")]
    pub fingerprint_key: Option<String>,
    /// The Curve25519 identity key, base64.
    #[serde(deserialize_with = "de::opt_string")]
    pub identity_key: Option<String>,
}

/// `one_time_keys[][...]`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct OneTimeKeyParams {
    /// The client's name for the key.
    #[serde(deserialize_with = "de::opt_string")]
    pub key_id: Option<String>,
    /// The key, base64.
    #[serde(deserialize_with = "de::opt_string")]
    pub key: Option<String>,
    /// Its signature by the fingerprint key, base64.
    #[serde(deserialize_with = "de::opt_string")]
    pub signature: Option<String>,
}

/// Parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct UploadKeysRequest {
    /// The device.
    pub device: DeviceParams,
    /// One-time keys to add.
    #[serde(deserialize_with = "objects")]
    pub one_time_keys: Vec<OneTimeKeyParams>,
}

impl Endpoint for UploadKeys {
    const METHOD: Method = Method::POST;
    const PATH: &'static str = "/api/v1/crypto/keys/upload";
    const AUTH: Auth = Auth::User("crypto");
    type Request = UploadKeysRequest;
    type Response = Json<DeviceJson>;

    async fn handle(app: &App, caller: &Caller, r: UploadKeysRequest) -> ApiResult<Self::Response> {
        let token = caller.token.as_ref().ok_or_else(ApiError::missing_token)?;
        let device = NewDevice {
            device_id: r.device.device_id,
            name: r.device.name,
            fingerprint_key: r.device.fingerprint_key,
            identity_key: r.device.identity_key,
        };
        let keys = r
            .one_time_keys
            .into_iter()
            .map(|k| NewOneTimeKey {
                key_id: k.key_id,
                key: k.key,
                signature: k.signature,
            })
            .collect();
        let stored = app
            .crypto()
            .upload(caller.account()?, token, device, keys)
            .await?;
        Ok(Json(DeviceJson::from(&stored)))
    }
}
