//! The end-to-end encryption helpers Mastodon 3.x served under `/api/v1/crypto/...` (removed
//! from Mastodon since, never part of its documented API): a device per access token with its
//! keys, one-time keys others claim, and encrypted messages delivered to devices. Every route
//! needs the `crypto` scope and a user's token. Local accounts only (see
//! [`crate::services::crypto`]).
pub mod claim_keys;
pub mod clear_encrypted_messages;
pub mod count_keys;
pub mod create_deliveries;
pub mod list_encrypted_messages;
pub mod query_keys;
pub mod upload_keys;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::params::de;
use crate::store::DeviceRecord;

/// A device as others see it (Mastodon's `REST::Keys::DeviceSerializer`).
#[derive(Debug, Serialize)]
pub struct DeviceJson {
    /// The client's name for it.
    pub device_id: String,
    /// A name shown to people.
    pub name: String,
    /// The Curve25519 identity key.
    pub identity_key: String,
    /// The Ed25519 fingerprint key.
    pub fingerprint_key: String,
}

impl From<&DeviceRecord> for DeviceJson {
    fn from(d: &DeviceRecord) -> Self {
        DeviceJson {
            device_id: d.device_id.clone(),
            name: d.name.clone(),
            identity_key: d.identity_key.clone(),
            fingerprint_key: d.fingerprint_key.clone(),
        }
    }
}

/// `device[...]` given as a list (JSON array, `device[]` or `device[0]` form keys) or as one
/// object: the entries, each an object.
pub fn objects<'de, D: Deserializer<'de>, T: serde::de::DeserializeOwned>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    let v = Value::deserialize(d)?;
    let items: Vec<Value> = match v {
        Value::Null => vec![],
        Value::Array(a) => a,
        Value::Object(o) if !o.is_empty() && o.keys().all(|k| k.parse::<u64>().is_ok()) => {
            let mut pairs: Vec<(String, Value)> = o.into_iter().collect();
            pairs.sort_by_key(|(k, _)| k.parse::<u64>().unwrap_or(u64::MAX));
            pairs.into_iter().map(|(_, v)| v).collect()
        }
        Value::Object(o) => vec![Value::Object(o)],
        Value::String(s) if s.is_empty() => vec![],
        _ => vec![],
    };
    Ok(items
        .into_iter()
        .filter_map(|x| serde_json::from_value(x).ok())
        .collect())
}

/// One `device[]` entry naming a device: `account_id` and `device_id`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DeviceRef {
    /// The account.
    #[serde(deserialize_with = "de::opt_string")]
    pub account_id: Option<String>,
    /// The device (its client's name).
    #[serde(deserialize_with = "de::opt_string")]
    pub device_id: Option<String>,
}
