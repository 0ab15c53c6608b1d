//! Web Push subscriptions, one per access token. <https://docs.joinmastodon.org/methods/push/>
pub mod create_subscription;
pub mod create_subscriptions;
pub mod delete_subscription;
pub mod get_subscription;
pub mod update_subscription;

use serde::Deserialize;
use serde_json::Value;

use crate::app::{Caller, bearer_token, query_token};
use crate::params::de;
use crate::services::web_push::{NewPushSubscription, PushData};

/// `subscription[...]`: where and how to push.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SubscriptionParams {
    /// The push service's URL.
    #[serde(deserialize_with = "de::opt_string")]
    pub endpoint: Option<String>,
    /// `keys[p256dh]` and `keys[auth]`.
    pub keys: KeyParams,
    /// `true` for RFC 8291 `aes128gcm` (Mastodon 4.4); the older `aesgcm` otherwise.
    #[serde(deserialize_with = "de::opt_bool")]
    pub standard: Option<bool>,
}

/// `subscription[keys][...]`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct KeyParams {
    /// The client's P-256 public key, base64url.
    #[serde(deserialize_with = "de::opt_string")]
    pub p256dh: Option<String>,
    /// The client's authentication secret, base64url.
    #[serde(deserialize_with = "de::opt_string")]
    pub auth: Option<String>,
}

/// `data[...]`: what to push.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DataParams {
    /// `alerts[<type>]`: whether to push notifications of that type.
    pub alerts: serde_json::Map<String, Value>,
    /// `all`, `followed`, `follower` or `none`.
    #[serde(deserialize_with = "de::opt_string")]
    pub policy: Option<String>,
}

impl DataParams {
    /// The alerts and policy as the area takes them; an alert is on when its value is true
    /// (`true`, `1`, `"true"`, `"1"`, `"on"`), as Rails casts booleans.
    /// `policy` is the one given outside `data` (Mastodon.py sends it there), used when
    /// `data[policy]` is not given.
    pub fn into_data(self, policy: Option<String>) -> PushData {
        let on = |v: &Value| de::bool_of(v).unwrap_or(false);
        PushData {
            alerts: self
                .alerts
                .iter()
                .map(|(k, v)| (k.clone(), on(v)))
                .collect(),
            policy: self.policy.or(policy),
        }
    }
}

/// The body of a create: `subscription[...]` and `data[...]`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CreateSubscriptionRequest {
    /// Where and how to push.
    pub subscription: SubscriptionParams,
    /// What to push.
    pub data: DataParams,
    /// `policy` outside `data`, as Mastodon.py sends it; `data[policy]` wins.
    #[serde(deserialize_with = "de::opt_string")]
    pub policy: Option<String>,
}

impl CreateSubscriptionRequest {
    /// The subscription as the area takes it.
    pub fn into_new(self) -> NewPushSubscription {
        NewPushSubscription {
            endpoint: self.subscription.endpoint,
            p256dh: self.subscription.keys.p256dh,
            auth: self.subscription.keys.auth,
            standard: self.subscription.standard.unwrap_or(false),
            data: self.data.into_data(self.policy),
        }
    }
}

/// The access token the request presented, if it is the caller's token (the payload of a
/// push carries it, as Mastodon's does).
pub fn presented_token(caller: &Caller) -> Option<String> {
    let hash = &caller.token.as_ref()?.token_hash;
    bearer_token(caller.authorization.as_deref())
        .or_else(|| query_token(&caller.info.query))
        .filter(|t| crate::services::oauth::hash_secret(t) == *hash)
}
