//! The end-to-end encryption helpers Mastodon 3.x served under `/api/v1/crypto/...` (and
//! removed later): a device per access token with an Ed25519 fingerprint key and a Curve25519
//! identity key, one-time keys signed by the fingerprint key (each claimed once), and encrypted
//! messages delivered to a device, listed and cleared by it; every route needs the `crypto`
//! scope. A server that does not offer them (Mastodon 4.x) declares the feature absent
//! (`--lacks crypto`); otherwise its 404s fail these checks.
//!
//! The keys are made here: a fixed Ed25519 seed per device, and one-time keys signed with it
//! as Mastodon checked them (the key's base64 text, signed by the fingerprint key).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use fedblog_core::api::accounts::verify_credentials::VerifyCredentials;
use fedblog_core::api::crypto::claim_keys::ClaimKeys;
use fedblog_core::api::crypto::clear_encrypted_messages::ClearEncryptedMessages;
use fedblog_core::api::crypto::count_keys::CountKeys;
use fedblog_core::api::crypto::create_deliveries::CreateDeliveries;
use fedblog_core::api::crypto::list_encrypted_messages::ListEncryptedMessages;
use fedblog_core::api::crypto::query_keys::QueryKeys;
use fedblog_core::api::crypto::upload_keys::UploadKeys;
use ring::signature::{Ed25519KeyPair, KeyPair};
use serde_json::{Value, json};

use crate::check;
use crate::client::Body;
use crate::conformance::{
    Check, CheckResult, Cx, Failure, SetUp, User, expect_error, path, str_of,
};
use crate::ensure;

/// The checks of this area.
pub fn checks() -> Vec<Check> {
    vec![
        check!(
            "crypto/upload-answers-the-device",
            "POST /api/v1/crypto/keys/upload with device[device_id, name, fingerprint_key, identity_key] and signed one_time_keys[] answers the device (device_id, name, identity_key, fingerprint_key as given), and GET /api/v1/crypto/keys/count then answers {\"one_time_keys\": n} with the number uploaded",
            upload_and_count
        ),
        check!(
            "crypto/bad-signature-422",
            "POST /api/v1/crypto/keys/upload with a one-time key whose signature is not the fingerprint key's is a 422 with an {\"error\"} body, and keeps nothing",
            bad_signature
        ),
        check!(
            "crypto/query-lists-devices",
            "POST /api/v1/crypto/keys/query with id[] answers, per account, {account_id, devices: [{device_id, name, identity_key, fingerprint_key}]}",
            query
        ),
        check!(
            "crypto/claim-consumes",
            "POST /api/v1/crypto/keys/claim with device[][account_id, device_id] answers one of the device's one-time keys {account_id, device_id, key_id, key, signature}; each key is handed out once, the count goes down, and a device without keys left is left out",
            claim
        ),
        check!(
            "crypto/deliver-list-clear",
            "POST /api/v1/crypto/deliveries stores a message for the device named; GET /api/v1/crypto/encrypted_messages of that device's token lists it (id, account_id and device_id of the sender, type, body, digest, message_franking, created_at), and POST /api/v1/crypto/encrypted_messages/clear with up_to_id removes it",
            deliver_list_clear
        ),
        check!(
            "crypto/no-device-404",
            "GET /api/v1/crypto/keys/count and /api/v1/crypto/encrypted_messages of a token that uploaded no device are 404s with an {\"error\"} body",
            no_device
        ),
        check!(
            "crypto/needs-crypto-scope",
            "the /api/v1/crypto/... endpoints with a user token lacking the crypto scope are 403s with an {\"error\"} body",
            needs_scope
        ),
    ]
}

/// A device's key pair from a seed byte.
fn pair(seed: u8) -> Result<Ed25519KeyPair, Failure> {
    Ed25519KeyPair::from_seed_unchecked(&[seed; 32])
        .map_err(|_| Failure::Fail("making an Ed25519 key pair".into()))
}

/// A base64 public key.
fn public(pair: &Ed25519KeyPair) -> String {
    STANDARD.encode(pair.public_key().as_ref())
}

/// A one-time key named `key_id` signed by `pair`: `{key_id, key, signature}`.
fn one_time_key(pair: &Ed25519KeyPair, key_id: &str, n: u8) -> Value {
    let key = STANDARD.encode([n; 32]);
    let signature = STANDARD.encode(pair.sign(key.as_bytes()).as_ref());
    json!({"key_id": key_id, "key": key, "signature": signature})
}

/// A user with a token of `read crypto` (read for their account id), or why the check cannot
/// run.
async fn crypto_user(cx: &Cx) -> Result<User, Failure> {
    // Mastodon 4.5 no longer knows the `crypto` scope: the app registered with it, and the
    // token, are outside the reference schema (an app echoes the scopes it asked for).
    let token = cx
        .recorder()
        .beyond_reference(super::oauth::scoped_user_token(cx, "read crypto"))
        .await?;
    let r = cx
        .client
        .get(&path::<VerifyCredentials>(&[]), Some(&token))
        .await
        .setup("reading the account of a crypto token")?;
    if r.status != 200 {
        return Err(Failure::NotRun(
            "needs a user token with the crypto scope (the authorization-code flow)".into(),
        ));
    }
    let v = r.json().setup("reading the account of a crypto token")?;
    Ok(User {
        username: str_of(v, "username")?,
        id: str_of(v, "id")?,
        token,
    })
}

/// Uploads a device called `device_id` for `user` with `keys` one-time keys; the answer.
async fn upload(
    cx: &Cx,
    user: &User,
    device_id: &str,
    pair: &Ed25519KeyPair,
    keys: u8,
) -> Result<crate::client::Response, Failure> {
    let one_time_keys: Vec<Value> = (0..keys)
        .map(|n| one_time_key(pair, &format!("{device_id}-k{n}"), n + 1))
        .collect();
    let body = json!({
        "device": {
            "device_id": device_id,
            "name": format!("{device_id} of conformance"),
            "fingerprint_key": public(pair),
            "identity_key": STANDARD.encode([42u8; 32]),
        },
        "one_time_keys": one_time_keys,
    });
    Ok(cx
        .client
        .post(
            &path::<UploadKeys>(&[]),
            Some(&user.token),
            Body::Json(body),
        )
        .await?)
}

/// The one-time key count of `user`'s device.
async fn count(cx: &Cx, user: &User) -> Result<Value, Failure> {
    let r = cx
        .client
        .get(&path::<CountKeys>(&[]), Some(&user.token))
        .await?;
    r.expect(200)?;
    Ok(r.json()?["one_time_keys"].clone())
}

async fn upload_and_count(cx: &Cx) -> CheckResult {
    let user = crypto_user(cx).await?;
    let keys = pair(1)?;
    let r = upload(cx, &user, "upload", &keys, 3).await?;
    r.expect(200)?;
    let v = r.json()?;
    ensure!(
        v["device_id"] == "upload"
            && v["name"] == "upload of conformance"
            && v["fingerprint_key"] == public(&keys)
            && v["identity_key"] == STANDARD.encode([42u8; 32]),
        "the upload answers the device as given, got {v}"
    );
    let n = count(cx, &user).await?;
    ensure!(n == 3, "3 one-time keys were uploaded, the count is {n}");
    Ok(())
}

async fn bad_signature(cx: &Cx) -> CheckResult {
    let user = crypto_user(cx).await?;
    let keys = pair(2)?;
    upload(cx, &user, "signed", &keys, 1)
        .await?
        .expect(200)
        .setup("uploading a device")?;
    let mut forged = one_time_key(&pair(3)?, "forged", 9);
    forged["key_id"] = json!("forged");
    let body = json!({
        "device": {
            "device_id": "signed",
            "name": "signed of conformance",
            "fingerprint_key": public(&keys),
            "identity_key": STANDARD.encode([42u8; 32]),
        },
        "one_time_keys": [forged],
    });
    let r = cx
        .client
        .post(
            &path::<UploadKeys>(&[]),
            Some(&user.token),
            Body::Json(body),
        )
        .await?;
    expect_error(&r, 422, "a one-time key signed by another key")?;
    let n = count(cx, &user).await?;
    ensure!(
        n == 1,
        "the refused upload kept something: the count is {n}, not 1"
    );
    Ok(())
}

async fn query(cx: &Cx) -> CheckResult {
    let owner = crypto_user(cx).await?;
    let asker = crypto_user(cx).await?;
    let keys = pair(4)?;
    upload(cx, &owner, "queried", &keys, 0)
        .await?
        .expect(200)
        .setup("uploading a device")?;
    let r = cx
        .client
        .post(
            &path::<QueryKeys>(&[]),
            Some(&asker.token),
            Body::Json(json!({"id": [owner.id]})),
        )
        .await?;
    r.expect(200)?;
    let v = r.json()?;
    let entry = v
        .as_array()
        .and_then(|a| a.iter().find(|e| e["account_id"] == owner.id.as_str()));
    let Some(entry) = entry else {
        return Err(Failure::Fail(format!(
            "the answer has no entry for account {}: {v}",
            owner.id
        )));
    };
    let devices = entry["devices"].as_array().cloned().unwrap_or_default();
    ensure!(
        devices.iter().any(|d| d["device_id"] == "queried"
            && d["name"] == "queried of conformance"
            && d["fingerprint_key"] == public(&keys)
            && d["identity_key"] == STANDARD.encode([42u8; 32])),
        "the account's devices do not list the uploaded device: {entry}"
    );
    Ok(())
}

async fn claim(cx: &Cx) -> CheckResult {
    let owner = crypto_user(cx).await?;
    let claimer = crypto_user(cx).await?;
    let keys = pair(5)?;
    upload(cx, &owner, "claimed", &keys, 2)
        .await?
        .expect(200)
        .setup("uploading a device")?;
    let body = json!({"device": [{"account_id": owner.id, "device_id": "claimed"}]});
    let mut seen = Vec::new();
    for left in [1, 0] {
        let r = cx
            .client
            .post(
                &path::<ClaimKeys>(&[]),
                Some(&claimer.token),
                Body::Json(body.clone()),
            )
            .await?;
        r.expect(200)?;
        let v = r.json()?;
        let Some(k) = v.as_array().and_then(|a| a.first()).cloned() else {
            return Err(Failure::Fail(format!("a claim answered no key: {v}")));
        };
        ensure!(
            k["account_id"] == owner.id.as_str()
                && k["device_id"] == "claimed"
                && k["key"].is_string()
                && k["signature"].is_string(),
            "a claimed key names its account and device and has key and signature: {k}"
        );
        let key_id = k["key_id"].as_str().unwrap_or_default().to_string();
        ensure!(
            !seen.contains(&key_id),
            "the key {key_id} was handed out twice"
        );
        seen.push(key_id);
        let n = count(cx, &owner).await?;
        ensure!(n == left, "after a claim the count is {n}, not {left}");
    }
    let r = cx
        .client
        .post(
            &path::<ClaimKeys>(&[]),
            Some(&claimer.token),
            Body::Json(body),
        )
        .await?;
    r.expect(200)?;
    ensure!(
        r.json()?.as_array().is_some_and(|a| a.is_empty()),
        "a device without keys left must be left out, got {}",
        r.text
    );
    Ok(())
}

async fn deliver_list_clear(cx: &Cx) -> CheckResult {
    let sender = crypto_user(cx).await?;
    let recipient = crypto_user(cx).await?;
    upload(cx, &sender, "sender", &pair(6)?, 0)
        .await?
        .expect(200)
        .setup("uploading the sender's device")?;
    upload(cx, &recipient, "recipient", &pair(7)?, 0)
        .await?
        .expect(200)
        .setup("uploading the recipient's device")?;
    let body = json!({"device": [{
        "account_id": recipient.id,
        "device_id": "recipient",
        "type": 0,
        "body": "ZW5jcnlwdGVk",
        "hmac": "bWFj",
    }]});
    let r = cx
        .client
        .post(
            &path::<CreateDeliveries>(&[]),
            Some(&sender.token),
            Body::Json(body),
        )
        .await?;
    r.expect(200)?;
    let r = cx
        .client
        .get(&path::<ListEncryptedMessages>(&[]), Some(&recipient.token))
        .await?;
    r.expect(200)?;
    let v = r.json()?.clone();
    let Some(m) = v.as_array().and_then(|a| a.first()).cloned() else {
        return Err(Failure::Fail(format!("no message was listed: {v}")));
    };
    ensure!(
        m["account_id"] == sender.id.as_str()
            && m["device_id"] == "sender"
            && m["type"] == 0
            && m["body"] == "ZW5jcnlwdGVk"
            && m["digest"] == "bWFj"
            && m["message_franking"].is_string()
            && m["created_at"].is_string()
            && m["id"].is_string(),
        "the message shows its sender, type, body, digest, franking and time: {m}"
    );
    let id = str_of(&m, "id")?;
    let r = cx
        .client
        .post(
            &path::<ClearEncryptedMessages>(&[]),
            Some(&recipient.token),
            Body::Json(json!({"up_to_id": id})),
        )
        .await?;
    r.expect(200)?;
    let r = cx
        .client
        .get(&path::<ListEncryptedMessages>(&[]), Some(&recipient.token))
        .await?;
    r.expect(200)?;
    ensure!(
        r.json()?.as_array().is_some_and(|a| a.is_empty()),
        "cleared messages are still listed: {}",
        r.text
    );
    Ok(())
}

async fn no_device(cx: &Cx) -> CheckResult {
    let user = crypto_user(cx).await?;
    let r = cx
        .client
        .get(&path::<CountKeys>(&[]), Some(&user.token))
        .await?;
    expect_error(&r, 404, "the key count of a token without a device")?;
    let r = cx
        .client
        .get(&path::<ListEncryptedMessages>(&[]), Some(&user.token))
        .await?;
    expect_error(&r, 404, "the messages of a token without a device")?;
    Ok(())
}

async fn needs_scope(cx: &Cx) -> CheckResult {
    let token = super::oauth::scoped_user_token(cx, "read write").await?;
    let r = cx.client.get(&path::<CountKeys>(&[]), Some(&token)).await?;
    expect_error(&r, 403, "the key count with a read write token")?;
    let r = cx
        .client
        .post(
            &path::<QueryKeys>(&[]),
            Some(&token),
            Body::Json(json!({"id": ["1"]})),
        )
        .await?;
    expect_error(&r, 403, "a key query with a read write token")?;
    Ok(())
}
