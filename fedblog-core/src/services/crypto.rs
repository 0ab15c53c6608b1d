//! The end-to-end encryption helpers (`app.crypto()`), as Mastodon 3.x served them under
//! `/api/v1/crypto/...`: each access token may publish one device (its Ed25519 fingerprint key
//! and Curve25519 identity key) with one-time keys signed by the fingerprint key; other local
//! users look devices up by account, claim one-time keys (each handed out once) and deliver
//! encrypted messages to a device, which lists and clears them and hears of each new one on its
//! `user` stream (`encrypted_message`).
//!
//! Only local accounts take part: fedblog neither fetches remote devices nor federates
//! Mastodon's `EncryptedMessage` activity, so a remote account has no devices here and a
//! delivery to one is refused. The server never reads a message. The franking token Mastodon
//! encrypts with its secret is, here, the franking fields (sender, recipient, HMAC, time) as
//! base64url JSON: fedblog keeps no secret to seal it with, and says so rather than pretend.

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::events::{DomainEvent, EventBus, publish_logged};
use crate::id::{Id, IdGenerator};
use crate::pagination::Page;
use crate::store::{
    AccountRecord, AccountStore, CryptoStore, DeviceRecord, EncryptedMessageRecord,
    OneTimeKeyRecord, TokenRecord,
};

/// A device as its client uploads it (`device[...]`).
#[derive(Clone, Debug, Default)]
pub struct NewDevice {
    /// The client's name for it.
    pub device_id: Option<String>,
    /// A name shown to people.
    pub name: Option<String>,
    /// Its Ed25519 fingerprint key, base64.
    pub fingerprint_key: Option<String>,
    /// Its Curve25519 identity key, base64.
    pub identity_key: Option<String>,
}

/// A one-time key as its client uploads it (`one_time_keys[][...]`).
#[derive(Clone, Debug, Default)]
pub struct NewOneTimeKey {
    /// The client's name for it.
    pub key_id: Option<String>,
    /// The key, base64.
    pub key: Option<String>,
    /// Its signature by the device's fingerprint key, base64.
    pub signature: Option<String>,
}

/// One delivery of an encrypted message (`device[][...]`).
#[derive(Clone, Debug, Default)]
pub struct Delivery {
    /// The recipient's account id.
    pub account_id: Option<String>,
    /// The recipient's device (its client's name).
    pub device_id: Option<String>,
    /// The Olm message type.
    pub kind: Option<i32>,
    /// The encrypted body.
    pub body: Option<String>,
    /// The sender's HMAC of the message (`hmac`, or `digest`).
    pub digest: Option<String>,
}

/// A claimed one-time key and whose device it came from.
#[derive(Clone, Debug)]
pub struct ClaimedKey {
    /// The device's account.
    pub account_id: Id,
    /// The device (its client's name).
    pub device_id: String,
    /// The key.
    pub key: OneTimeKeyRecord,
}

/// The devices of one account, as a query answers them.
#[derive(Clone, Debug)]
pub struct AccountDevices {
    /// The account.
    pub account_id: Id,
    /// Its devices, oldest first (none for a remote account).
    pub devices: Vec<DeviceRecord>,
}

/// The end-to-end encryption helpers' area.
pub struct Crypto<'a> {
    accounts: &'a dyn AccountStore,
    ids: &'a IdGenerator,
    events: &'a dyn EventBus,
    now: DateTime<Utc>,
}

/// Decodes base64 as leniently as Ruby's `Base64.decode64` reads what clients send: standard
/// or URL-safe alphabet, padded or not.
fn decode64(text: &str) -> Option<Vec<u8>> {
    let text = text.trim();
    [STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD]
        .iter()
        .find_map(|engine| engine.decode(text).ok())
}

/// Whether `text` is a base64 Ed25519 (or Curve25519) public key: 32 bytes.
fn valid_key(text: &str) -> bool {
    decode64(text).is_some_and(|bytes| bytes.len() == 32)
}

/// Whether `signature` (base64) is the Ed25519 signature by `verify_key` (base64) of `message`,
/// as Mastodon checked a one-time key's signature (the key's text, signed by the device's
/// fingerprint key).
pub fn verify_signature(verify_key: &str, signature: &str, message: &str) -> bool {
    let (Some(key), Some(signature)) = (decode64(verify_key), decode64(signature)) else {
        return false;
    };
    ring::signature::UnparsedPublicKey::new(&ring::signature::ED25519, key)
        .verify(message.as_bytes(), &signature)
        .is_ok()
}

/// A required, non-blank value, or the validation error Mastodon answers.
fn present(value: Option<String>, what: &str) -> ApiResult<String> {
    match value {
        Some(v) if !v.trim().is_empty() => Ok(v),
        _ => Err(ApiError::unprocessable(format!(
            "Validation failed: {what} can't be blank"
        ))),
    }
}

/// An encrypted message as the device reads it (Mastodon's `EncryptedMessage` entity): its id,
/// the sender's account and device, type, body, digest, franking token and time.
pub fn message_json(m: &EncryptedMessageRecord) -> Value {
    json!({
        "id": m.id.to_string(),
        "account_id": m.from_account_id.to_string(),
        "device_id": m.from_device_id,
        "type": m.kind,
        "body": m.body,
        "digest": m.digest,
        "message_franking": m.message_franking,
        "created_at": m.created_at.to_rfc3339_opts(SecondsFormat::Millis, true),
    })
}

impl<'a> Crypto<'a> {
    /// The area over `store`, making ids with `ids`, publishing to `events`, at `now`.
    pub fn new(
        store: &'a dyn crate::store::Store,
        ids: &'a IdGenerator,
        events: &'a dyn EventBus,
        now: DateTime<Utc>,
    ) -> Self {
        Crypto {
            accounts: store,
            ids,
            events,
            now,
        }
    }

    /// The store's crypto data; 404 on a store that keeps none.
    fn store(&self) -> ApiResult<&'a dyn CryptoStore> {
        self.accounts.crypto().ok_or_else(|| {
            ApiError::new(
                http::StatusCode::NOT_FOUND,
                "This server keeps no encryption devices",
            )
        })
    }

    /// The device of the caller's token; 404 when it has uploaded none (as Mastodon's
    /// `Device.find_by!`).
    pub async fn device_of(&self, token: &TokenRecord) -> ApiResult<DeviceRecord> {
        self.store()?
            .device_of_token(token.id)
            .await?
            .ok_or_else(|| ApiError::new(http::StatusCode::NOT_FOUND, "Record not found"))
    }

    /// Uploads the device of `token` (of `me`) with some one-time keys, replacing the device it
    /// had. The keys must be Ed25519 public keys, and each one-time key must be signed by the
    /// fingerprint key; a failure changes nothing (422).
    pub async fn upload(
        &self,
        me: &AccountRecord,
        token: &TokenRecord,
        device: NewDevice,
        keys: Vec<NewOneTimeKey>,
    ) -> ApiResult<DeviceRecord> {
        let store = self.store()?;
        let existing = store.device_of_token(token.id).await?;
        // Mastodon updates the existing device with the attributes given; those not given stay.
        let keep =
            |given: Option<String>, old: Option<&str>| given.or_else(|| old.map(str::to_string));
        let device_id = keep(
            device.device_id,
            existing.as_ref().map(|d| d.device_id.as_str()),
        )
        .unwrap_or_default();
        let name = present(
            keep(device.name, existing.as_ref().map(|d| d.name.as_str())),
            "Name",
        )?;
        let fingerprint_key = present(
            keep(
                device.fingerprint_key,
                existing.as_ref().map(|d| d.fingerprint_key.as_str()),
            ),
            "Fingerprint key",
        )?;
        let identity_key = present(
            keep(
                device.identity_key,
                existing.as_ref().map(|d| d.identity_key.as_str()),
            ),
            "Identity key",
        )?;
        if !valid_key(&fingerprint_key) {
            return Err(ApiError::unprocessable(
                "Validation failed: Fingerprint key is not a valid Ed25519 key",
            ));
        }
        if !valid_key(&identity_key) {
            return Err(ApiError::unprocessable(
                "Validation failed: Identity key is not a valid Ed25519 key",
            ));
        }
        let mut records = Vec::with_capacity(keys.len());
        for k in keys {
            let key_id = present(k.key_id, "Key")?;
            let key = present(k.key, "Key")?;
            let signature = present(k.signature, "Signature")?;
            if !valid_key(&key) {
                return Err(ApiError::unprocessable(
                    "Validation failed: Key is not a valid Ed25519 key",
                ));
            }
            if !verify_signature(&fingerprint_key, &signature, &key) {
                return Err(ApiError::unprocessable(
                    "Validation failed: Key has an invalid signature",
                ));
            }
            records.push(OneTimeKeyRecord {
                id: self.ids.next(),
                device: Id::from_i64(0),
                key_id,
                key,
                signature,
                created_at: self.now,
            });
        }
        let record = DeviceRecord {
            id: existing.as_ref().map_or_else(|| self.ids.next(), |d| d.id),
            token_id: token.id,
            account_id: me.id,
            device_id,
            name,
            fingerprint_key,
            identity_key,
            created_at: existing.as_ref().map_or(self.now, |d| d.created_at),
            updated_at: self.now,
        };
        Ok(store.put_device(&record, &records).await?)
    }

    /// How many one-time keys the device of `token` has left.
    pub async fn count(&self, token: &TokenRecord) -> ApiResult<u64> {
        let device = self.device_of(token).await?;
        Ok(self.store()?.count_one_time_keys(device.id).await?)
    }

    /// The devices of the accounts among `ids` that exist, each account once, in the order
    /// asked; a remote account's list is empty (fedblog fetches no remote devices).
    pub async fn query(&self, ids: &[Id]) -> ApiResult<Vec<AccountDevices>> {
        let store = self.store()?;
        let mut wanted: Vec<Id> = Vec::new();
        for id in ids {
            if !wanted.contains(id) {
                wanted.push(*id);
            }
        }
        let accounts = self.accounts.accounts_by_ids(&wanted).await?;
        let local: Vec<Id> = accounts
            .iter()
            .filter(|a| a.is_local())
            .map(|a| a.id)
            .collect();
        let devices = store.devices_of_accounts(&local).await?;
        Ok(wanted
            .into_iter()
            .filter(|id| accounts.iter().any(|a| a.id == *id))
            .map(|account_id| AccountDevices {
                account_id,
                devices: devices
                    .iter()
                    .filter(|d| d.account_id == account_id)
                    .cloned()
                    .collect(),
            })
            .collect())
    }

    /// Claims one one-time key of each `(account id, device)` asked; those whose account or
    /// device is unknown, or whose device has no key left, are left out, as Mastodon leaves
    /// them out.
    pub async fn claim(&self, wanted: &[(String, String)]) -> ApiResult<Vec<ClaimedKey>> {
        let store = self.store()?;
        let mut claimed = Vec::new();
        for (account, device_id) in wanted {
            let Ok(account_id) = account.parse::<Id>() else {
                continue;
            };
            let Some(device) = store.device_by_name(account_id, device_id).await? else {
                continue;
            };
            if let Some(key) = store.claim_one_time_key(device.id).await? {
                claimed.push(ClaimedKey {
                    account_id,
                    device_id: device.device_id,
                    key,
                });
            }
        }
        Ok(claimed)
    }

    /// Delivers encrypted messages from the device of `token` (of `me`) to the devices asked,
    /// each stored for its device and streamed to it. An unknown account or device is a 404,
    /// a remote account a 422 (fedblog does not federate them); deliveries before the failing
    /// one stay delivered, as Mastodon's loop leaves them.
    pub async fn deliver(
        &self,
        me: &AccountRecord,
        token: &TokenRecord,
        deliveries: Vec<Delivery>,
    ) -> ApiResult<()> {
        let store = self.store()?;
        let from = self.device_of(token).await?;
        for d in deliveries {
            let account_id: Id = d
                .account_id
                .as_deref()
                .and_then(|a| a.parse().ok())
                .ok_or_else(|| ApiError::new(http::StatusCode::NOT_FOUND, "Record not found"))?;
            let account = self
                .accounts
                .account_by_id(account_id)
                .await?
                .ok_or_else(|| ApiError::new(http::StatusCode::NOT_FOUND, "Record not found"))?;
            if !account.is_local() {
                return Err(ApiError::unprocessable(
                    "This server delivers encrypted messages to its own accounts only",
                ));
            }
            let device = store
                .device_by_name(account.id, d.device_id.as_deref().unwrap_or_default())
                .await?
                .ok_or_else(|| ApiError::new(http::StatusCode::NOT_FOUND, "Record not found"))?;
            let digest = d.digest.unwrap_or_default();
            let message = EncryptedMessageRecord {
                id: self.ids.next(),
                device: device.id,
                from_account_id: me.id,
                from_device_id: from.device_id.clone(),
                kind: d.kind.unwrap_or(0),
                body: d.body.unwrap_or_default(),
                message_franking: self.franking(me.id, account.id, &digest),
                digest,
                created_at: self.now,
            };
            store.insert_encrypted_message(&message).await?;
            publish_logged(
                self.events,
                DomainEvent::EncryptedMessage {
                    account: device.account_id,
                    token: device.token_id,
                    payload: message_json(&message).to_string(),
                },
            )
            .await;
        }
        Ok(())
    }

    /// The franking token of a message: its sender, recipient, HMAC and time as base64url
    /// JSON (see the module documentation).
    fn franking(&self, from: Id, to: Id, hmac: &str) -> String {
        let fields = json!({
            "hmac": hmac,
            "source_account_id": from.to_string(),
            "target_account_id": to.to_string(),
            "timestamp": self.now.to_rfc3339_opts(SecondsFormat::Millis, true),
        });
        URL_SAFE_NO_PAD.encode(fields.to_string())
    }

    /// A page of the messages delivered to the device of `token`, newest first.
    pub async fn messages(
        &self,
        token: &TokenRecord,
        page: Page,
    ) -> ApiResult<Vec<EncryptedMessageRecord>> {
        let device = self.device_of(token).await?;
        Ok(self.store()?.encrypted_messages(device.id, page).await?)
    }

    /// Removes the messages of the device of `token` up to and including `up_to` (none
    /// without it, as Mastodon's comparison with nothing matches nothing).
    pub async fn clear(&self, token: &TokenRecord, up_to: Option<Id>) -> ApiResult<()> {
        let device = self.device_of(token).await?;
        if let Some(up_to) = up_to {
            self.store()?
                .clear_encrypted_messages(device.id, up_to)
                .await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_32_bytes_of_base64() {
        assert!(valid_key(&STANDARD.encode([7u8; 32])));
        assert!(valid_key(&URL_SAFE_NO_PAD.encode([7u8; 32])));
        assert!(!valid_key(&STANDARD.encode([7u8; 31])));
        assert!(!valid_key("not base64!"));
    }

    #[test]
    fn signatures_are_checked_with_the_fingerprint_key() {
        use ring::signature::{Ed25519KeyPair, KeyPair};
        let pair = Ed25519KeyPair::from_seed_unchecked(&[3u8; 32]).expect("a key pair");
        let fingerprint = STANDARD.encode(pair.public_key().as_ref());
        let key = STANDARD.encode([9u8; 32]);
        let signature = STANDARD.encode(pair.sign(key.as_bytes()).as_ref());
        assert!(verify_signature(&fingerprint, &signature, &key));
        assert!(!verify_signature(&fingerprint, &signature, "another key"));
        assert!(!verify_signature(&key, &signature, &key));
    }
}
