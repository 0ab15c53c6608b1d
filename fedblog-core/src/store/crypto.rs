//! The end-to-end encryption helpers' records and their store: the device of each access token
//! (its public identity and fingerprint keys), the one-time keys it published for others to
//! claim, and the encrypted messages delivered to it, as Mastodon 3.x kept them (`devices`,
//! `one_time_keys`, `encrypted_messages`). The server never reads the messages: it keeps and
//! hands over what clients encrypted.
//!
//! [`CryptoStore`] came after the other store traits. A store offers it through
//! [`AccountStore::crypto`](super::AccountStore::crypto) (`None` by default), so stores written
//! before it keep compiling; without it the `/api/v1/crypto/...` endpoints answer that the
//! server keeps no devices.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::error::StoreResult;
use crate::id::Id;
use crate::pagination::Page;

/// The device of one access token: what other clients encrypt to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceRecord {
    /// Id (kept when the token uploads its device again).
    pub id: Id,
    /// The access token it belongs to (one device per token).
    pub token_id: Id,
    /// The token's account.
    pub account_id: Id,
    /// The client's name for the device (Mastodon's `device_id`, a string).
    pub device_id: String,
    /// A name shown to people.
    pub name: String,
    /// The Ed25519 key one-time keys are signed with, base64.
    pub fingerprint_key: String,
    /// The Curve25519 identity key, base64.
    pub identity_key: String,
    /// First uploaded.
    pub created_at: DateTime<Utc>,
    /// Last uploaded.
    pub updated_at: DateTime<Utc>,
}

/// A one-time key a device published; claiming it removes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OneTimeKeyRecord {
    /// Id.
    pub id: Id,
    /// The device ([`DeviceRecord::id`]) it belongs to.
    pub device: Id,
    /// The client's name for the key.
    pub key_id: String,
    /// The key, base64.
    pub key: String,
    /// Its signature by the device's fingerprint key, base64.
    pub signature: String,
    /// Uploaded.
    pub created_at: DateTime<Utc>,
}

/// An encrypted message delivered to a device, kept until the device clears it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncryptedMessageRecord {
    /// Id.
    pub id: Id,
    /// The device ([`DeviceRecord::id`]) it was delivered to.
    pub device: Id,
    /// The sender's account.
    pub from_account_id: Id,
    /// The sender's device (its [`DeviceRecord::device_id`]).
    pub from_device_id: String,
    /// The Olm message type (0: pre-key message, 1: normal message).
    pub kind: i32,
    /// The encrypted body.
    pub body: String,
    /// The sender's HMAC of the message.
    pub digest: String,
    /// The server's franking token of the message.
    pub message_franking: String,
    /// Delivered.
    pub created_at: DateTime<Utc>,
}

/// Devices, their one-time keys and the messages delivered to them. A device belongs to an
/// access token: it is gone (no method finds it, nor its keys and messages) once that token is
/// revoked or its account deleted.
#[async_trait]
pub trait CryptoStore: Send + Sync {
    /// Stores `device` as the device of `device.token_id`, replacing the one that token had
    /// (which keeps its id and `created_at`), and adds `keys` to it (their `device` set to the
    /// stored device's id). When the replacement changes `device_id`, `fingerprint_key` or
    /// `identity_key`, the keys and messages the device had are removed first, as Mastodon
    /// invalidates them. Answers the device as stored. `NotFound` when the token is unknown or
    /// revoked.
    async fn put_device(
        &self,
        device: &DeviceRecord,
        keys: &[OneTimeKeyRecord],
    ) -> StoreResult<DeviceRecord>;
    /// The device of this token, if it has one and is not revoked.
    async fn device_of_token(&self, token_id: Id) -> StoreResult<Option<DeviceRecord>>;
    /// The devices of these accounts, oldest first.
    async fn devices_of_accounts(&self, accounts: &[Id]) -> StoreResult<Vec<DeviceRecord>>;
    /// The device of `account` the client calls `device_id` (the newest such, should there be
    /// several).
    async fn device_by_name(
        &self,
        account: Id,
        device_id: &str,
    ) -> StoreResult<Option<DeviceRecord>>;
    /// How many one-time keys the device (by [`DeviceRecord::id`]) has left.
    async fn count_one_time_keys(&self, device: Id) -> StoreResult<u64>;
    /// Removes and answers one of the device's one-time keys (any one), at most once per key
    /// even when two claims race; `None` when it has none left.
    async fn claim_one_time_key(&self, device: Id) -> StoreResult<Option<OneTimeKeyRecord>>;
    /// Stores a message for `message.device`. `NotFound` when that device is gone.
    async fn insert_encrypted_message(&self, message: &EncryptedMessageRecord) -> StoreResult<()>;
    /// The messages delivered to the device, newest first, paged by id.
    async fn encrypted_messages(
        &self,
        device: Id,
        page: Page,
    ) -> StoreResult<Vec<EncryptedMessageRecord>>;
    /// Removes the device's messages whose id is `up_to` or lower; how many went.
    async fn clear_encrypted_messages(&self, device: Id, up_to: Id) -> StoreResult<u64>;
}
