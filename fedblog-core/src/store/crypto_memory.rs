//! [`CryptoStore`] for [`MemoryStore`]: devices by token, their one-time keys and their
//! messages. A device whose token is revoked or gone (its account deleted) is dropped the
//! next time the store is written, and is never found meanwhile.

use std::collections::BTreeMap;

use async_trait::async_trait;

use super::{Inner, MemoryStore};
use crate::error::{StoreError, StoreResult};
use crate::id::Id;
use crate::pagination::Page;
use crate::store::{CryptoStore, DeviceRecord, EncryptedMessageRecord, OneTimeKeyRecord};

/// The memory store's crypto data.
#[derive(Default)]
pub(super) struct CryptoData {
    /// token id -> its device
    devices: BTreeMap<Id, DeviceRecord>,
    /// key id -> key
    one_time_keys: BTreeMap<Id, OneTimeKeyRecord>,
    /// message id -> message
    messages: BTreeMap<Id, EncryptedMessageRecord>,
}

impl Inner {
    /// Whether the token with this id exists and is not revoked.
    fn live_token(&self, token: Id) -> bool {
        self.tokens
            .values()
            .any(|t| t.id == token && t.revoked_at.is_none())
    }

    /// The live devices.
    fn live_devices(&self) -> impl Iterator<Item = &DeviceRecord> {
        self.crypto
            .devices
            .values()
            .filter(|d| self.live_token(d.token_id) && self.accounts.contains_key(&d.account_id))
    }

    /// Whether the device with this id is live.
    fn live_device(&self, device: Id) -> bool {
        self.live_devices().any(|d| d.id == device)
    }

    /// Drops the devices of revoked or deleted tokens, with their keys and messages.
    fn drop_dead_devices(&mut self) {
        let dead: Vec<(Id, Id)> = self
            .crypto
            .devices
            .values()
            .filter(|d| !(self.live_token(d.token_id) && self.accounts.contains_key(&d.account_id)))
            .map(|d| (d.token_id, d.id))
            .collect();
        for (token, device) in dead {
            self.crypto.devices.remove(&token);
            self.drop_device_data(device);
        }
    }

    /// Removes a device's keys and messages.
    fn drop_device_data(&mut self, device: Id) {
        self.crypto.one_time_keys.retain(|_, k| k.device != device);
        self.crypto.messages.retain(|_, m| m.device != device);
    }
}

#[async_trait]
impl CryptoStore for MemoryStore {
    async fn put_device(
        &self,
        device: &DeviceRecord,
        keys: &[OneTimeKeyRecord],
    ) -> StoreResult<DeviceRecord> {
        let mut g = self.write()?;
        g.drop_dead_devices();
        if !g.live_token(device.token_id) || !g.accounts.contains_key(&device.account_id) {
            return Err(StoreError::NotFound);
        }
        let mut stored = device.clone();
        if let Some(old) = g.crypto.devices.get(&device.token_id).cloned() {
            stored.id = old.id;
            stored.created_at = old.created_at;
            if old.device_id != device.device_id
                || old.fingerprint_key != device.fingerprint_key
                || old.identity_key != device.identity_key
            {
                g.drop_device_data(old.id);
            }
        }
        for key in keys {
            let mut key = key.clone();
            key.device = stored.id;
            g.crypto.one_time_keys.insert(key.id, key);
        }
        g.crypto.devices.insert(stored.token_id, stored.clone());
        Ok(stored)
    }

    async fn device_of_token(&self, token_id: Id) -> StoreResult<Option<DeviceRecord>> {
        let g = self.read()?;
        Ok(g.live_devices().find(|d| d.token_id == token_id).cloned())
    }

    async fn devices_of_accounts(&self, accounts: &[Id]) -> StoreResult<Vec<DeviceRecord>> {
        let g = self.read()?;
        let mut devices: Vec<DeviceRecord> = g
            .live_devices()
            .filter(|d| accounts.contains(&d.account_id))
            .cloned()
            .collect();
        devices.sort_by_key(|d| d.id);
        Ok(devices)
    }

    async fn device_by_name(
        &self,
        account: Id,
        device_id: &str,
    ) -> StoreResult<Option<DeviceRecord>> {
        let g = self.read()?;
        Ok(g.live_devices()
            .filter(|d| d.account_id == account && d.device_id == device_id)
            .max_by_key(|d| d.id)
            .cloned())
    }

    async fn count_one_time_keys(&self, device: Id) -> StoreResult<u64> {
        let g = self.read()?;
        if !g.live_device(device) {
            return Ok(0);
        }
        Ok(g.crypto
            .one_time_keys
            .values()
            .filter(|k| k.device == device)
            .count() as u64)
    }

    async fn claim_one_time_key(&self, device: Id) -> StoreResult<Option<OneTimeKeyRecord>> {
        let mut g = self.write()?;
        g.drop_dead_devices();
        let Some(id) = g
            .crypto
            .one_time_keys
            .values()
            .find(|k| k.device == device)
            .map(|k| k.id)
        else {
            return Ok(None);
        };
        Ok(g.crypto.one_time_keys.remove(&id))
    }

    async fn insert_encrypted_message(&self, message: &EncryptedMessageRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        g.drop_dead_devices();
        if !g.live_device(message.device) {
            return Err(StoreError::NotFound);
        }
        if g.crypto.messages.contains_key(&message.id) {
            return Err(StoreError::AlreadyExists("encrypted_message".into()));
        }
        g.crypto.messages.insert(message.id, message.clone());
        Ok(())
    }

    async fn encrypted_messages(
        &self,
        device: Id,
        page: Page,
    ) -> StoreResult<Vec<EncryptedMessageRecord>> {
        let g = self.read()?;
        if !g.live_device(device) {
            return Ok(vec![]);
        }
        Ok(page.apply(
            g.crypto
                .messages
                .values()
                .rev()
                .filter(|m| m.device == device)
                .cloned()
                .collect::<Vec<_>>()
                .into_iter(),
            |m| m.id,
        ))
    }

    async fn clear_encrypted_messages(&self, device: Id, up_to: Id) -> StoreResult<u64> {
        let mut g = self.write()?;
        g.drop_dead_devices();
        let before = g.crypto.messages.len();
        g.crypto
            .messages
            .retain(|_, m| !(m.device == device && m.id <= up_to));
        Ok((before - g.crypto.messages.len()) as u64)
    }
}
