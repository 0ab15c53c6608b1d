//! `CryptoStore` for `SeaStore`: devices by token (`crypto_devices`), their one-time keys and
//! their encrypted messages. A device is read only while its token is unrevoked (the token's
//! revocation leaves the row, which no read finds); deleting its account removes it, and its
//! keys and messages with it, by foreign keys.

use async_trait::async_trait;
use fedblog_core::pagination::Page;
use fedblog_core::store::{CryptoStore, DeviceRecord, EncryptedMessageRecord, OneTimeKeyRecord};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{OnConflict, Query, SelectStatement};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder};

use super::entity::{crypto_devices, crypto_encrypted_messages, crypto_one_time_keys, tokens};
use super::{SeaStore, backend_err, paging};

/// How often a claim tries again when another claim took the key it picked.
const CLAIM_ATTEMPTS: usize = 8;

fn device_from_row(m: crypto_devices::Model) -> DeviceRecord {
    DeviceRecord {
        id: Id::from_i64(m.id),
        token_id: Id::from_i64(m.token_id),
        account_id: Id::from_i64(m.account_id),
        device_id: m.device_id,
        name: m.name,
        fingerprint_key: m.fingerprint_key,
        identity_key: m.identity_key,
        created_at: m.created_at,
        updated_at: m.updated_at,
    }
}

fn key_from_row(m: crypto_one_time_keys::Model) -> OneTimeKeyRecord {
    OneTimeKeyRecord {
        id: Id::from_i64(m.id),
        device: Id::from_i64(m.device),
        key_id: m.key_id,
        key: m.key,
        signature: m.signature,
        created_at: m.created_at,
    }
}

fn message_from_row(m: crypto_encrypted_messages::Model) -> EncryptedMessageRecord {
    EncryptedMessageRecord {
        id: Id::from_i64(m.id),
        device: Id::from_i64(m.device),
        from_account_id: Id::from_i64(m.from_account_id),
        from_device_id: m.from_device_id,
        kind: m.kind,
        body: m.body,
        digest: m.digest,
        message_franking: m.message_franking,
        created_at: m.created_at,
    }
}

/// The ids of the unrevoked tokens.
fn live_tokens() -> SelectStatement {
    Query::select()
        .column(tokens::Column::Id)
        .from(tokens::Entity)
        .and_where(tokens::Column::RevokedAt.is_null())
        .to_owned()
}

/// The devices whose token is unrevoked.
fn live_devices() -> sea_orm::Select<crypto_devices::Entity> {
    crypto_devices::Entity::find()
        .filter(crypto_devices::Column::TokenId.in_subquery(live_tokens()))
}

/// The live device with this id.
async fn live_device<C: ConnectionTrait>(db: &C, device: Id) -> StoreResult<Option<DeviceRecord>> {
    Ok(live_devices()
        .filter(crypto_devices::Column::Id.eq(device.as_i64()))
        .one(db)
        .await
        .map_err(backend_err)?
        .map(device_from_row))
}

/// Removes a device's keys and messages.
async fn drop_device_data<C: ConnectionTrait>(db: &C, device: Id) -> StoreResult<()> {
    crypto_one_time_keys::Entity::delete_many()
        .filter(crypto_one_time_keys::Column::Device.eq(device.as_i64()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    crypto_encrypted_messages::Entity::delete_many()
        .filter(crypto_encrypted_messages::Column::Device.eq(device.as_i64()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

#[async_trait]
impl CryptoStore for SeaStore {
    async fn put_device(
        &self,
        device: &DeviceRecord,
        keys: &[OneTimeKeyRecord],
    ) -> StoreResult<DeviceRecord> {
        use crypto_devices::Column as C;
        let tx = self.begin_write().await?;
        let token = tokens::Entity::find()
            .filter(tokens::Column::Id.eq(device.token_id.as_i64()))
            .filter(tokens::Column::RevokedAt.is_null())
            .one(&tx)
            .await
            .map_err(backend_err)?;
        if token.is_none() {
            return Err(StoreError::NotFound);
        }
        let old = crypto_devices::Entity::find_by_id(device.token_id.as_i64())
            .one(&tx)
            .await
            .map_err(backend_err)?
            .map(device_from_row);
        let mut stored = device.clone();
        if let Some(old) = &old {
            stored.id = old.id;
            stored.created_at = old.created_at;
            if old.device_id != device.device_id
                || old.fingerprint_key != device.fingerprint_key
                || old.identity_key != device.identity_key
            {
                drop_device_data(&tx, old.id).await?;
            }
        }
        crypto_devices::Entity::insert(crypto_devices::ActiveModel {
            token_id: Set(stored.token_id.as_i64()),
            id: Set(stored.id.as_i64()),
            account_id: Set(stored.account_id.as_i64()),
            device_id: Set(stored.device_id.clone()),
            name: Set(stored.name.clone()),
            fingerprint_key: Set(stored.fingerprint_key.clone()),
            identity_key: Set(stored.identity_key.clone()),
            created_at: Set(stored.created_at),
            updated_at: Set(stored.updated_at),
        })
        .on_conflict(
            OnConflict::column(C::TokenId)
                .update_columns([
                    C::AccountId,
                    C::DeviceId,
                    C::Name,
                    C::FingerprintKey,
                    C::IdentityKey,
                    C::UpdatedAt,
                ])
                .to_owned(),
        )
        .exec_without_returning(&tx)
        .await
        .map_err(|e| match e.sql_err() {
            Some(sea_orm::SqlErr::ForeignKeyConstraintViolation(_)) => StoreError::NotFound,
            _ => backend_err(e),
        })?;
        if !keys.is_empty() {
            crypto_one_time_keys::Entity::insert_many(keys.iter().map(|k| {
                crypto_one_time_keys::ActiveModel {
                    id: Set(k.id.as_i64()),
                    device: Set(stored.id.as_i64()),
                    key_id: Set(k.key_id.clone()),
                    key: Set(k.key.clone()),
                    signature: Set(k.signature.clone()),
                    created_at: Set(k.created_at),
                }
            }))
            .exec_without_returning(&tx)
            .await
            .map_err(backend_err)?;
        }
        tx.commit().await.map_err(backend_err)?;
        Ok(stored)
    }

    async fn device_of_token(&self, token_id: Id) -> StoreResult<Option<DeviceRecord>> {
        Ok(live_devices()
            .filter(crypto_devices::Column::TokenId.eq(token_id.as_i64()))
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(device_from_row))
    }

    async fn devices_of_accounts(&self, accounts: &[Id]) -> StoreResult<Vec<DeviceRecord>> {
        if accounts.is_empty() {
            return Ok(vec![]);
        }
        let mut devices = Vec::new();
        for chunk in accounts.chunks(super::IN_CHUNK) {
            devices.extend(
                live_devices()
                    .filter(
                        crypto_devices::Column::AccountId.is_in(chunk.iter().map(|a| a.as_i64())),
                    )
                    .all(&self.db)
                    .await
                    .map_err(backend_err)?
                    .into_iter()
                    .map(device_from_row),
            );
        }
        devices.sort_by_key(|d| d.id);
        Ok(devices)
    }

    async fn device_by_name(
        &self,
        account: Id,
        device_id: &str,
    ) -> StoreResult<Option<DeviceRecord>> {
        Ok(live_devices()
            .filter(crypto_devices::Column::AccountId.eq(account.as_i64()))
            .filter(crypto_devices::Column::DeviceId.eq(device_id))
            .order_by_desc(crypto_devices::Column::Id)
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(device_from_row))
    }

    async fn count_one_time_keys(&self, device: Id) -> StoreResult<u64> {
        if live_device(&self.db, device).await?.is_none() {
            return Ok(0);
        }
        crypto_one_time_keys::Entity::find()
            .filter(crypto_one_time_keys::Column::Device.eq(device.as_i64()))
            .count(&self.db)
            .await
            .map_err(backend_err)
    }

    async fn claim_one_time_key(&self, device: Id) -> StoreResult<Option<OneTimeKeyRecord>> {
        if live_device(&self.db, device).await?.is_none() {
            return Ok(None);
        }
        for _ in 0..CLAIM_ATTEMPTS {
            let Some(key) = crypto_one_time_keys::Entity::find()
                .filter(crypto_one_time_keys::Column::Device.eq(device.as_i64()))
                .order_by_asc(crypto_one_time_keys::Column::Id)
                .one(&self.db)
                .await
                .map_err(backend_err)?
            else {
                return Ok(None);
            };
            // Whoever deletes the row has claimed it; a claim that lost the race picks again.
            let res = crypto_one_time_keys::Entity::delete_many()
                .filter(crypto_one_time_keys::Column::Id.eq(key.id))
                .exec(&self.db)
                .await
                .map_err(backend_err)?;
            if res.rows_affected == 1 {
                return Ok(Some(key_from_row(key)));
            }
        }
        Err(StoreError::Backend(
            "one-time key claims kept racing".into(),
        ))
    }

    async fn insert_encrypted_message(&self, m: &EncryptedMessageRecord) -> StoreResult<()> {
        if live_device(&self.db, m.device).await?.is_none() {
            return Err(StoreError::NotFound);
        }
        crypto_encrypted_messages::Entity::insert(crypto_encrypted_messages::ActiveModel {
            id: Set(m.id.as_i64()),
            device: Set(m.device.as_i64()),
            from_account_id: Set(m.from_account_id.as_i64()),
            from_device_id: Set(m.from_device_id.clone()),
            kind: Set(m.kind),
            body: Set(m.body.clone()),
            digest: Set(m.digest.clone()),
            message_franking: Set(m.message_franking.clone()),
            created_at: Set(m.created_at),
        })
        .exec_without_returning(&self.db)
        .await
        .map_err(|e| match e.sql_err() {
            Some(sea_orm::SqlErr::UniqueConstraintViolation(_)) => {
                StoreError::AlreadyExists("encrypted_message".into())
            }
            Some(sea_orm::SqlErr::ForeignKeyConstraintViolation(_)) => StoreError::NotFound,
            _ => backend_err(e),
        })?;
        Ok(())
    }

    async fn encrypted_messages(
        &self,
        device: Id,
        page: Page,
    ) -> StoreResult<Vec<EncryptedMessageRecord>> {
        if live_device(&self.db, device).await?.is_none() {
            return Ok(vec![]);
        }
        let query = crypto_encrypted_messages::Entity::find()
            .filter(crypto_encrypted_messages::Column::Device.eq(device.as_i64()));
        let rows = paging::apply(query, crypto_encrypted_messages::Column::Id, &page)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(paging::finish(rows, &page)
            .into_iter()
            .map(message_from_row)
            .collect())
    }

    async fn clear_encrypted_messages(&self, device: Id, up_to: Id) -> StoreResult<u64> {
        let res = crypto_encrypted_messages::Entity::delete_many()
            .filter(crypto_encrypted_messages::Column::Device.eq(device.as_i64()))
            .filter(crypto_encrypted_messages::Column::Id.lte(up_to.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected)
    }
}
