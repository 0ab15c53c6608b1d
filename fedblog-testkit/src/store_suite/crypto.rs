//! Checks of [`CryptoStore`](fedblog_core::store::CryptoStore), which a store offers through
//! [`AccountStore::crypto`](fedblog_core::store::AccountStore::crypto): the device of each
//! access token, its one-time keys (each claimed once) and the encrypted messages delivered to
//! it; a device goes with its token's revocation and its account's deletion.
//!
//! All of it is [`Capability::KeepsCryptoDevices`]: a store claiming it must offer a crypto
//! store and keep every contract below; a store lacking it (the trait's default, `crypto()` is
//! `None`) is held to that alone. A store that declares the lack but offers one anyway is
//! checked in full.

use fedblog_core::pagination::Page;
use fedblog_core::store::{CryptoStore, DeviceRecord, EncryptedMessageRecord, OneTimeKeyRecord};
use fedblog_core::{Id, IdGenerator, Store, StoreError};

use super::{Capabilities, Capability, T0, add_app, add_local, at, token};

/// The store's crypto store, if it offers one. A store claiming
/// [`Capability::KeepsCryptoDevices`] must; for one declaring the lack and offering none there
/// is nothing more to check (`None`).
fn crypto(store: &dyn Store, capabilities: Capabilities) -> Option<&dyn CryptoStore> {
    let c = store.crypto();
    assert!(
        c.is_some() || !capabilities.has(Capability::KeepsCryptoDevices),
        "AccountStore::crypto: a store claiming Capability::KeepsCryptoDevices must offer its \
         crypto store, got None"
    );
    c
}

/// A local account with a user token (hash `hash`) inserted: the account's and the token's ids.
async fn account_with_token(store: &dyn Store, ids: &IdGenerator, name: &str) -> (Id, Id) {
    let account = add_local(store, ids, name).await;
    let app = add_app(store, ids, &format!("client-{name}")).await;
    let t = token(
        ids,
        &format!("hash-{name}"),
        app.id,
        Some(account.id),
        T0 + 1_000,
    );
    store.insert_token(&t).await.expect("insert_token");
    (account.id, t.id)
}

/// A device of `token` (of `account`) the client calls `device_id`, made at `millis`.
fn device(ids: &IdGenerator, account: Id, token: Id, device_id: &str, millis: i64) -> DeviceRecord {
    DeviceRecord {
        id: ids.next_at(millis),
        token_id: token,
        account_id: account,
        device_id: device_id.to_string(),
        name: format!("{device_id} name"),
        fingerprint_key: format!("fingerprint of {device_id}"),
        identity_key: format!("identity of {device_id}"),
        created_at: at(millis),
        updated_at: at(millis),
    }
}

/// A one-time key named `key_id`, made at `millis` (its device set by `put_device`).
fn key(ids: &IdGenerator, key_id: &str, millis: i64) -> OneTimeKeyRecord {
    OneTimeKeyRecord {
        id: ids.next_at(millis),
        device: Id::from_i64(0),
        key_id: key_id.to_string(),
        key: format!("key {key_id}"),
        signature: format!("signature {key_id}"),
        created_at: at(millis),
    }
}

/// A message for `device` from `from`, made at `millis`.
fn message(ids: &IdGenerator, device: Id, from: Id, millis: i64) -> EncryptedMessageRecord {
    EncryptedMessageRecord {
        id: ids.next_at(millis),
        device,
        from_account_id: from,
        from_device_id: "sender".into(),
        kind: 1,
        body: format!("body {millis}"),
        digest: format!("digest {millis}"),
        message_franking: format!("franking {millis}"),
        created_at: at(millis),
    }
}

/// A device comes back by token, by account and by name exactly as stored; uploading again
/// for the same token replaces it, keeping its id and `created_at`; `device_by_name` answers
/// the newest of an account's devices of that name, and `devices_of_accounts` lists those of
/// the accounts asked only, oldest first.
pub async fn devices_are_kept_per_token_and_replaced(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(c) = crypto(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let (alice, alice_token) = account_with_token(store, &ids, "alice").await;
    let (bob, bob_token) = account_with_token(store, &ids, "bob").await;
    let first = device(&ids, alice, alice_token, "phone", T0 + 2_000);
    let stored = c.put_device(&first, &[]).await.expect("put_device");
    assert_eq!(stored, first, "put_device answers the device as stored");
    assert_eq!(
        c.device_of_token(alice_token)
            .await
            .expect("device_of_token"),
        Some(first.clone()),
        "device_of_token finds the device as stored"
    );
    let mut again = device(&ids, alice, alice_token, "phone", T0 + 3_000);
    again.name = "renamed".into();
    let replaced = c.put_device(&again, &[]).await.expect("put_device again");
    assert_eq!(
        replaced,
        DeviceRecord {
            id: first.id,
            created_at: first.created_at,
            ..again.clone()
        },
        "uploading again replaces the token's device, keeping its id and created_at"
    );
    assert_eq!(
        c.device_of_token(alice_token)
            .await
            .expect("device_of_token"),
        Some(replaced.clone()),
        "the replacement is what is read back"
    );
    let bobs = device(&ids, bob, bob_token, "phone", T0 + 4_000);
    c.put_device(&bobs, &[]).await.expect("put_device bob");
    assert_eq!(
        c.devices_of_accounts(&[alice])
            .await
            .expect("devices_of_accounts"),
        vec![replaced.clone()],
        "devices_of_accounts lists the accounts asked only"
    );
    assert_eq!(
        c.devices_of_accounts(&[bob, alice])
            .await
            .expect("devices_of_accounts"),
        vec![replaced.clone(), bobs.clone()],
        "devices_of_accounts lists oldest first"
    );
    assert_eq!(
        c.device_by_name(bob, "phone")
            .await
            .expect("device_by_name"),
        Some(bobs),
        "device_by_name finds the account's device of that name"
    );
    assert_eq!(
        c.device_by_name(bob, "tablet")
            .await
            .expect("device_by_name"),
        None,
        "device_by_name finds no device of another name"
    );
}

/// One-time keys are counted per device; each claim removes and answers one of them, each
/// key once, until none is left; a device without keys answers `None`.
pub async fn one_time_keys_are_counted_and_claimed_once(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(c) = crypto(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let (alice, alice_token) = account_with_token(store, &ids, "alice").await;
    let keys = [
        key(&ids, "k1", T0 + 2_000),
        key(&ids, "k2", T0 + 2_001),
        key(&ids, "k3", T0 + 2_002),
    ];
    let d = c
        .put_device(
            &device(&ids, alice, alice_token, "phone", T0 + 2_000),
            &keys,
        )
        .await
        .expect("put_device");
    assert_eq!(c.count_one_time_keys(d.id).await.expect("count"), 3);
    let mut claimed = Vec::new();
    for left in [2, 1, 0] {
        let k = c
            .claim_one_time_key(d.id)
            .await
            .expect("claim")
            .expect("a key while some are left");
        assert_eq!(k.device, d.id, "a claimed key is the device's");
        claimed.push(k.key_id.clone());
        assert_eq!(
            c.count_one_time_keys(d.id).await.expect("count"),
            left,
            "a claim removes the key it answers"
        );
    }
    claimed.sort();
    assert_eq!(claimed, ["k1", "k2", "k3"], "each key is claimed once");
    assert_eq!(
        c.claim_one_time_key(d.id).await.expect("claim"),
        None,
        "no key is left to claim"
    );
}

/// Uploading the device again with another identity key removes the keys and messages it had;
/// with the same keys and device id (another name only), they stay.
pub async fn new_device_keys_drop_its_one_time_keys_and_messages(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(c) = crypto(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let (alice, alice_token) = account_with_token(store, &ids, "alice").await;
    let d = c
        .put_device(
            &device(&ids, alice, alice_token, "phone", T0 + 2_000),
            &[key(&ids, "k1", T0 + 2_000)],
        )
        .await
        .expect("put_device");
    c.insert_encrypted_message(&message(&ids, d.id, alice, T0 + 3_000))
        .await
        .expect("insert_encrypted_message");
    let mut renamed = d.clone();
    renamed.name = "renamed".into();
    c.put_device(&renamed, &[])
        .await
        .expect("put_device renamed");
    assert_eq!(c.count_one_time_keys(d.id).await.expect("count"), 1);
    assert_eq!(
        c.encrypted_messages(d.id, Page::first(10))
            .await
            .expect("messages")
            .len(),
        1,
        "a new name keeps the messages"
    );
    let mut rekeyed = renamed.clone();
    rekeyed.identity_key = "another identity".into();
    c.put_device(&rekeyed, &[key(&ids, "k2", T0 + 4_000)])
        .await
        .expect("put_device rekeyed");
    let left = c.claim_one_time_key(d.id).await.expect("claim");
    assert_eq!(
        left.map(|k| k.key_id),
        Some("k2".to_string()),
        "a new identity key removes the old one-time keys, and the new ones are added"
    );
    assert_eq!(
        c.encrypted_messages(d.id, Page::first(10))
            .await
            .expect("messages"),
        vec![],
        "a new identity key removes the messages"
    );
}

/// Messages come back per device, newest first, paged by id; clearing removes those up to and
/// including the id given, of that device only; a message for a device that does not exist is
/// `NotFound`.
pub async fn encrypted_messages_page_by_id_and_clear_up_to(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(c) = crypto(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let (alice, alice_token) = account_with_token(store, &ids, "alice").await;
    let (bob, bob_token) = account_with_token(store, &ids, "bob").await;
    let a = c
        .put_device(&device(&ids, alice, alice_token, "phone", T0 + 2_000), &[])
        .await
        .expect("put_device");
    let b = c
        .put_device(&device(&ids, bob, bob_token, "phone", T0 + 2_000), &[])
        .await
        .expect("put_device");
    let mine: Vec<EncryptedMessageRecord> = (0..4)
        .map(|i| message(&ids, a.id, bob, T0 + 3_000 + i))
        .collect();
    for m in &mine {
        c.insert_encrypted_message(m).await.expect("insert");
    }
    let theirs = message(&ids, b.id, alice, T0 + 3_001);
    c.insert_encrypted_message(&theirs).await.expect("insert");
    let newest_first: Vec<_> = mine.iter().rev().cloned().collect();
    assert_eq!(
        c.encrypted_messages(a.id, Page::first(10))
            .await
            .expect("messages"),
        newest_first,
        "a device's messages, newest first, exactly as stored"
    );
    let page = Page {
        max_id: Some(mine[3].id),
        limit: 2,
        ..Page::first(2)
    };
    assert_eq!(
        c.encrypted_messages(a.id, page).await.expect("messages"),
        vec![mine[2].clone(), mine[1].clone()],
        "max_id and limit page the messages"
    );
    let page = Page {
        min_id: Some(mine[0].id),
        ..Page::first(2)
    };
    assert_eq!(
        c.encrypted_messages(a.id, page).await.expect("messages"),
        vec![mine[2].clone(), mine[1].clone()],
        "min_id takes the messages immediately above it"
    );
    assert_eq!(
        c.clear_encrypted_messages(a.id, mine[1].id)
            .await
            .expect("clear"),
        2,
        "clearing removes the messages up to and including the id"
    );
    assert_eq!(
        c.encrypted_messages(a.id, Page::first(10))
            .await
            .expect("messages"),
        vec![mine[3].clone(), mine[2].clone()],
        "the later messages stay"
    );
    assert_eq!(
        c.encrypted_messages(b.id, Page::first(10))
            .await
            .expect("messages"),
        vec![theirs],
        "another device's messages stay"
    );
    let nowhere = message(&ids, ids.next_at(T0 + 5_000), alice, T0 + 5_000);
    assert!(
        matches!(
            c.insert_encrypted_message(&nowhere).await,
            Err(StoreError::NotFound)
        ),
        "a message for an unknown device is NotFound"
    );
}

/// A device goes with its token's revocation and with its account's deletion: no method finds
/// it, its keys or its messages; a device for a revoked token is `NotFound`.
pub async fn revoking_the_token_or_deleting_the_account_removes_the_device(
    store: &dyn Store,
    capabilities: Capabilities,
) {
    let Some(c) = crypto(store, capabilities) else {
        return;
    };
    let ids = IdGenerator::default();
    let (alice, alice_token) = account_with_token(store, &ids, "alice").await;
    let (bob, bob_token) = account_with_token(store, &ids, "bob").await;
    let a = c
        .put_device(
            &device(&ids, alice, alice_token, "phone", T0 + 2_000),
            &[key(&ids, "k1", T0 + 2_000)],
        )
        .await
        .expect("put_device");
    let b = c
        .put_device(
            &device(&ids, bob, bob_token, "phone", T0 + 2_000),
            &[key(&ids, "k1", T0 + 2_000)],
        )
        .await
        .expect("put_device");
    c.insert_encrypted_message(&message(&ids, a.id, bob, T0 + 3_000))
        .await
        .expect("insert");
    assert!(
        store
            .revoke_token("hash-alice", at(T0 + 4_000))
            .await
            .expect("revoke")
    );
    assert_eq!(
        c.device_of_token(alice_token)
            .await
            .expect("device_of_token"),
        None,
        "a revoked token has no device"
    );
    assert_eq!(
        c.device_by_name(alice, "phone")
            .await
            .expect("device_by_name"),
        None,
        "a revoked token's device is not found by name"
    );
    assert_eq!(
        c.devices_of_accounts(&[alice, bob]).await.expect("devices"),
        vec![b.clone()],
        "a revoked token's device is not listed"
    );
    assert_eq!(c.count_one_time_keys(a.id).await.expect("count"), 0);
    assert_eq!(c.claim_one_time_key(a.id).await.expect("claim"), None);
    assert_eq!(
        c.encrypted_messages(a.id, Page::first(10))
            .await
            .expect("messages"),
        vec![],
        "a revoked token's device has no messages"
    );
    assert!(
        matches!(
            c.put_device(&device(&ids, alice, alice_token, "phone", T0 + 5_000), &[])
                .await,
            Err(StoreError::NotFound)
        ),
        "a revoked token cannot upload a device"
    );
    store.delete_account(bob).await.expect("delete_account");
    assert_eq!(
        c.device_of_token(bob_token).await.expect("device_of_token"),
        None,
        "a deleted account's device is gone"
    );
    assert_eq!(
        c.devices_of_accounts(&[bob]).await.expect("devices"),
        vec![],
        "a deleted account has no devices"
    );
    assert_eq!(c.claim_one_time_key(b.id).await.expect("claim"), None);
}
