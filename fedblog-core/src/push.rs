//! Web Push, the protocol half (issue 27): the instance's VAPID key, the check of a
//! subscription's keys, and the encrypted, VAPID-signed request to a subscription's endpoint.
//!
//! Which notification goes to which subscription, and sending the request through the
//! [`Transport`](crate::federation::Transport), is the `web_push` job's business; this module
//! only turns a payload into an [`OutboundRequest`] the way Mastodon does:
//!
//! - a subscription made with `subscription[standard]=true` gets RFC 8291 encryption in one
//!   RFC 8188 `aes128gcm` record (an ephemeral ECDH key and a random salt per message) and
//!   `Authorization: vapid t=<JWT>,k=<key>` (RFC 8292; Mastodon's spelling, without a space after
//!   the comma, which every parser reads, while some split `, k=` at the space);
//! - any other gets the older `aesgcm` encoding (draft-ietf-webpush-encryption-04 over
//!   draft-ietf-httpbis-encryption-encoding-02: a two-byte padding length, `Encryption: salt=`,
//!   `Crypto-Key: dh=...;p256ecdsa=...`) and `Authorization: WebPush <JWT>`, as Mastodon still
//!   sends to subscriptions that are not `standard`.
//!
//! The JWT is ES256 with `aud` the endpoint's origin, `exp` twelve hours on, and `sub` the
//! contact. Keys travel as base64url; padding and the standard alphabet are accepted on input,
//! Mastodon's spellings are written on output (`=`-padded keys in the configuration and the
//! instance document, unpadded ones in headers).

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use chrono::{DateTime, Utc};
use hkdf::Hkdf;
use p256::ecdsa::signature::Signer as _;
use p256::ecdsa::{Signature, SigningKey};
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use p256::{PublicKey, SecretKey};
use rand::RngCore as _;
use sha2::Sha256;

use crate::federation::OutboundRequest;

/// The length of an uncompressed P-256 point (`0x04 || X || Y`).
const POINT_LEN: usize = 65;
/// The length of a P-256 private scalar.
const SCALAR_LEN: usize = 32;
/// The length of a subscription's authentication secret (RFC 8291 section 3.2).
const AUTH_LEN: usize = 16;
/// The length of the salt of either encoding.
const SALT_LEN: usize = 16;
/// The AES-GCM tag length.
const TAG_LEN: usize = 16;
/// The record size written in an `aes128gcm` header (RFC 8291's example uses the same).
const RECORD_SIZE: u32 = 4096;
/// The largest body a push service must accept (RFC 8030 section 7.2).
const MAX_BODY: usize = 4096;
/// The `aes128gcm` header: salt, record size, key id length, key id (the sender's point).
const AES128GCM_HEADER_LEN: usize = SALT_LEN + 4 + 1 + POINT_LEN;
/// How long the VAPID JWT is valid (RFC 8292 allows at most 24 hours).
const JWT_LIFETIME_SECONDS: i64 = 12 * 60 * 60;

/// Why a key could not be read or a push request could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PushError {
    /// A key or secret is not base64 (url-safe or standard, padded or not).
    #[error("{field} is not valid base64")]
    InvalidBase64 {
        /// Which value (`p256dh`, `auth`, `private key`).
        field: &'static str,
    },
    /// A key or secret decodes to the wrong number of bytes.
    #[error("{field} must be {expected} bytes, got {got}")]
    InvalidLength {
        /// Which value.
        field: &'static str,
        /// The length it must have.
        expected: usize,
        /// The length it has.
        got: usize,
    },
    /// The `p256dh` key is not an uncompressed point on P-256.
    #[error("p256dh is not an uncompressed point on P-256")]
    NotOnCurve,
    /// The VAPID private key is not a valid P-256 scalar (zero or not below the group order).
    #[error("the VAPID private key is not a valid P-256 scalar")]
    InvalidPrivateKey,
    /// The endpoint is not an absolute `https` or `http` URL with a host.
    #[error("invalid push endpoint: {0}")]
    InvalidEndpoint(String),
    /// The JWT's `sub` must be a `mailto:` or `https:` URL (RFC 8292 section 2.1).
    #[error("the VAPID contact must be a mailto: or https: URL, got {0:?}")]
    InvalidContact(String),
    /// The encrypted body would exceed the 4096 bytes a push service must accept.
    #[error("the payload is {len} bytes, at most {max} fit in one push message")]
    PayloadTooLarge {
        /// The payload's length.
        len: usize,
        /// The most this encoding can carry.
        max: usize,
    },
    /// The cipher or key derivation refused its input (not expected with valid keys).
    #[error("encryption failed: {0}")]
    Crypto(&'static str),
}

/// The instance's VAPID key pair (RFC 8292): signs the JWT of every push request, and its public
/// half is the `applicationServerKey` clients subscribe with (`vapid_key` / `server_key`).
#[derive(Clone)]
pub struct VapidKey {
    secret: SecretKey,
}

impl fmt::Debug for VapidKey {
    /// Shows the public key only.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VapidKey")
            .field("public_key", &self.public_key())
            .finish_non_exhaustive()
    }
}

impl VapidKey {
    /// A new random key pair.
    pub fn generate() -> VapidKey {
        VapidKey {
            secret: random_secret(),
        }
    }

    /// Reads the private key as Mastodon's `VAPID_PRIVATE_KEY` holds it: the 32-byte scalar in
    /// base64url (standard base64 and missing padding are accepted). A few leading zero bytes
    /// may be missing, as Ruby's OpenSSL bindings write a scalar that starts with zeros.
    pub fn from_private_key(encoded: &str) -> Result<VapidKey, PushError> {
        let field = "private key";
        let bytes = decode_base64(encoded, field)?;
        if bytes.len() > SCALAR_LEN || bytes.len() < SCALAR_LEN - 4 {
            return Err(PushError::InvalidLength {
                field,
                expected: SCALAR_LEN,
                got: bytes.len(),
            });
        }
        let mut scalar = [0u8; SCALAR_LEN];
        scalar[SCALAR_LEN - bytes.len()..].copy_from_slice(&bytes);
        let secret =
            SecretKey::from_bytes(&scalar.into()).map_err(|_| PushError::InvalidPrivateKey)?;
        Ok(VapidKey { secret })
    }

    /// The private key as Mastodon writes `VAPID_PRIVATE_KEY`: the 32-byte scalar in padded
    /// base64url.
    pub fn private_key(&self) -> String {
        URL_SAFE.encode(self.secret.to_bytes())
    }

    /// The public key as Mastodon shows `vapid_key`: the 65-byte uncompressed point in padded
    /// base64url (88 characters, the last one `=`).
    pub fn public_key(&self) -> String {
        URL_SAFE.encode(self.public_point())
    }

    /// The public key as push headers carry it (`k=`, `p256ecdsa=`): unpadded base64url.
    fn public_key_for_header(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.public_point())
    }

    fn public_point(&self) -> Vec<u8> {
        point_bytes(&self.secret.public_key())
    }

    /// An ES256 JWT (RFC 7515 compact form, RFC 8292 claims) for `endpoint`'s push service.
    fn jwt(&self, audience: &str, contact: &str, now: DateTime<Utc>) -> String {
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = serde_json::json!({
            "aud": audience,
            "exp": now.timestamp() + JWT_LIFETIME_SECONDS,
            "sub": contact,
        });
        let claims = URL_SAFE_NO_PAD.encode(claims.to_string());
        let signing_input = format!("{header}.{claims}");
        let signing_key = SigningKey::from(&self.secret);
        let signature: Signature = signing_key.sign(signing_input.as_bytes());
        format!(
            "{signing_input}.{}",
            URL_SAFE_NO_PAD.encode(signature.to_bytes())
        )
    }
}

/// Checks a subscription's keys as a client sends them: `p256dh` a 65-byte uncompressed point on
/// P-256 and `auth` 16 bytes, each in base64url or base64, padded or not.
pub fn check_subscription_keys(p256dh: &str, auth: &str) -> Result<(), PushError> {
    read_subscription_keys(p256dh, auth).map(|_| ())
}

/// The `Urgency` of a push message (RFC 8030 section 5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Urgency {
    /// `very-low`
    VeryLow,
    /// `low`
    Low,
    /// `normal`
    Normal,
    /// `high`
    High,
}

impl Urgency {
    /// The header value.
    pub fn as_str(self) -> &'static str {
        match self {
            Urgency::VeryLow => "very-low",
            Urgency::Low => "low",
            Urgency::Normal => "normal",
            Urgency::High => "high",
        }
    }
}

/// Where a push message goes: a subscription's endpoint and keys as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PushTarget<'a> {
    /// The push service's URL for this subscription.
    pub endpoint: &'a str,
    /// The subscription's public key (base64url or base64, 65-byte uncompressed point).
    pub p256dh: &'a str,
    /// The subscription's authentication secret (base64url or base64, 16 bytes).
    pub auth: &'a str,
    /// Made with `subscription[standard]=true`: RFC 8291 `aes128gcm` and `vapid` authorization;
    /// otherwise the older `aesgcm` and `WebPush` authorization.
    pub standard: bool,
}

/// The encrypted, VAPID-signed POST of `payload` to a subscription's endpoint.
///
/// `contact` is the JWT's `sub` (`mailto:admin@example.com` or an `https:` URL); `now` dates the
/// JWT (`exp` is twelve hours later). A fresh ephemeral key and salt are drawn per call.
pub fn web_push_request(
    target: &PushTarget<'_>,
    vapid: &VapidKey,
    contact: &str,
    payload: &[u8],
    ttl_seconds: u32,
    urgency: Urgency,
    now: DateTime<Utc>,
) -> Result<OutboundRequest, PushError> {
    let audience = endpoint_origin(target.endpoint)?;
    if !(contact.starts_with("mailto:") || contact.starts_with("https:")) {
        return Err(PushError::InvalidContact(contact.to_string()));
    }
    let (ua_public, auth) = read_subscription_keys(target.p256dh, target.auth)?;
    let ephemeral = random_secret();
    let mut salt = [0u8; SALT_LEN];
    rand::rng().fill_bytes(&mut salt);
    let jwt = vapid.jwt(&audience, contact, now);

    let mut headers = vec![
        ("TTL".to_string(), ttl_seconds.to_string()),
        ("Urgency".to_string(), urgency.as_str().to_string()),
        (
            "Content-Type".to_string(),
            "application/octet-stream".to_string(),
        ),
    ];
    let body = if target.standard {
        let body = encrypt_aes128gcm(&ua_public, &auth, &ephemeral, &salt, payload)?;
        headers.push(("Content-Encoding".to_string(), "aes128gcm".to_string()));
        headers.push((
            "Authorization".to_string(),
            format!("vapid t={jwt},k={}", vapid.public_key_for_header()),
        ));
        body
    } else {
        let body = encrypt_aesgcm(&ua_public, &auth, &ephemeral, &salt, payload)?;
        headers.push(("Content-Encoding".to_string(), "aesgcm".to_string()));
        headers.push((
            "Encryption".to_string(),
            format!("salt={}", URL_SAFE_NO_PAD.encode(salt)),
        ));
        headers.push((
            "Crypto-Key".to_string(),
            format!(
                "dh={};p256ecdsa={}",
                URL_SAFE_NO_PAD.encode(point_bytes(&ephemeral.public_key())),
                vapid.public_key_for_header()
            ),
        ));
        headers.push(("Authorization".to_string(), format!("WebPush {jwt}")));
        body
    };
    Ok(OutboundRequest {
        method: http::Method::POST,
        url: target.endpoint.to_string(),
        headers,
        body: Some(body),
    })
}

/// The subscription's public key and authentication secret, checked.
fn read_subscription_keys(p256dh: &str, auth: &str) -> Result<(PublicKey, Vec<u8>), PushError> {
    let point = decode_base64(p256dh, "p256dh")?;
    if point.len() != POINT_LEN {
        return Err(PushError::InvalidLength {
            field: "p256dh",
            expected: POINT_LEN,
            got: point.len(),
        });
    }
    if point[0] != 0x04 {
        return Err(PushError::NotOnCurve);
    }
    let public = PublicKey::from_sec1_bytes(&point).map_err(|_| PushError::NotOnCurve)?;
    let auth = decode_base64(auth, "auth")?;
    if auth.len() != AUTH_LEN {
        return Err(PushError::InvalidLength {
            field: "auth",
            expected: AUTH_LEN,
            got: auth.len(),
        });
    }
    Ok((public, auth))
}

/// Decodes base64url or standard base64, with or without padding (surrounding whitespace is
/// ignored).
fn decode_base64(text: &str, field: &'static str) -> Result<Vec<u8>, PushError> {
    let trimmed = text.trim().trim_end_matches('=');
    if trimmed.is_empty() {
        return Err(PushError::InvalidBase64 { field });
    }
    let url_safe: String = trimmed
        .chars()
        .map(|c| match c {
            '+' => '-',
            '/' => '_',
            other => other,
        })
        .collect();
    URL_SAFE_NO_PAD
        .decode(url_safe)
        .map_err(|_| PushError::InvalidBase64 { field })
}

/// Whether `endpoint` is an absolute `http(s)` URL with a host, as a push request needs.
pub fn check_endpoint(endpoint: &str) -> Result<(), PushError> {
    endpoint_origin(endpoint).map(|_| ())
}

/// `scheme://host[:port]` of an endpoint, lower case and without the scheme's default port, as
/// the JWT's `aud` names the push service.
fn endpoint_origin(endpoint: &str) -> Result<String, PushError> {
    let invalid = |why: &str| PushError::InvalidEndpoint(format!("{why}: {endpoint:?}"));
    let uri: http::Uri = endpoint.parse().map_err(|_| invalid("not a URL"))?;
    let scheme = uri
        .scheme_str()
        .map(str::to_ascii_lowercase)
        .ok_or_else(|| invalid("not absolute"))?;
    let default_port = match scheme.as_str() {
        "https" => 443,
        "http" => 80,
        _ => return Err(invalid("not an http(s) URL")),
    };
    let host = uri
        .host()
        .filter(|h| !h.is_empty())
        .ok_or_else(|| invalid("no host"))?
        .to_ascii_lowercase();
    Ok(match uri.port_u16() {
        Some(port) if port != default_port => format!("{scheme}://{host}:{port}"),
        _ => format!("{scheme}://{host}"),
    })
}

/// A random P-256 private key from the thread's CSPRNG (a draw outside the scalar field, which
/// has probability about 2^-32, is drawn again).
fn random_secret() -> SecretKey {
    let mut rng = rand::rng();
    loop {
        let mut bytes = [0u8; SCALAR_LEN];
        rng.fill_bytes(&mut bytes);
        if let Ok(secret) = SecretKey::from_bytes(&bytes.into()) {
            return secret;
        }
    }
}

/// The uncompressed SEC1 encoding of a public key.
fn point_bytes(public: &PublicKey) -> Vec<u8> {
    public.to_encoded_point(false).as_bytes().to_vec()
}

/// The ECDH shared secret of our (ephemeral) key and the subscription's key.
fn shared_secret(ours: &SecretKey, theirs: &PublicKey) -> Vec<u8> {
    p256::ecdh::diffie_hellman(ours.to_nonzero_scalar(), theirs.as_affine())
        .raw_secret_bytes()
        .to_vec()
}

/// HKDF-SHA-256 (RFC 5869) of `len` bytes, with `info` given in parts.
fn hkdf(salt: &[u8], ikm: &[u8], info: &[&[u8]], len: usize) -> Result<Vec<u8>, PushError> {
    let mut okm = vec![0u8; len];
    Hkdf::<Sha256>::new(Some(salt), ikm)
        .expand_multi_info(info, &mut okm)
        .map_err(|_| PushError::Crypto("hkdf length"))?;
    Ok(okm)
}

/// AES-128-GCM of one record, the tag appended.
fn seal(key: &[u8], nonce: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, PushError> {
    use aes_gcm::aead::Aead as _;
    use aes_gcm::{Aes128Gcm, KeyInit as _, Nonce};
    let cipher = Aes128Gcm::new_from_slice(key).map_err(|_| PushError::Crypto("aes key"))?;
    cipher
        .encrypt(Nonce::from_slice(nonce), plaintext)
        .map_err(|_| PushError::Crypto("aes-gcm"))
}

/// RFC 8291 message encryption in one RFC 8188 `aes128gcm` record: the body is the header
/// (salt, record size 4096, the sender's public key as key id) and the record (the payload, the
/// last-record delimiter `0x02`, no padding, encrypted). The ephemeral key and salt are
/// parameters so the RFC's example can be checked byte for byte.
fn encrypt_aes128gcm(
    ua_public: &PublicKey,
    auth: &[u8],
    as_secret: &SecretKey,
    salt: &[u8; SALT_LEN],
    payload: &[u8],
) -> Result<Vec<u8>, PushError> {
    let max = MAX_BODY - AES128GCM_HEADER_LEN - 1 - TAG_LEN;
    if payload.len() > max {
        return Err(PushError::PayloadTooLarge {
            len: payload.len(),
            max,
        });
    }
    let ua_point = point_bytes(ua_public);
    let as_point = point_bytes(&as_secret.public_key());
    let ecdh = shared_secret(as_secret, ua_public);
    // RFC 8291 section 3.4: IKM from the ECDH secret, keyed by the auth secret.
    let ikm = hkdf(auth, &ecdh, &[b"WebPush: info\0", &ua_point, &as_point], 32)?;
    // RFC 8188 section 2.2 and 2.3: the content-encryption key and nonce.
    let cek = hkdf(salt, &ikm, &[b"Content-Encoding: aes128gcm\0"], 16)?;
    let nonce = hkdf(salt, &ikm, &[b"Content-Encoding: nonce\0"], 12)?;
    let mut record = Vec::with_capacity(payload.len() + 1);
    record.extend_from_slice(payload);
    record.push(0x02);
    let sealed = seal(&cek, &nonce, &record)?;

    let mut body = Vec::with_capacity(AES128GCM_HEADER_LEN + sealed.len());
    body.extend_from_slice(salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(POINT_LEN as u8);
    body.extend_from_slice(&as_point);
    body.extend_from_slice(&sealed);
    Ok(body)
}

/// The older `aesgcm` encoding (draft-ietf-webpush-encryption-04 over
/// draft-ietf-httpbis-encryption-encoding-02), in one record: a two-byte padding length of zero,
/// then the payload, encrypted. Salt and sender key travel in the `Encryption` and `Crypto-Key`
/// headers, not in the body.
fn encrypt_aesgcm(
    ua_public: &PublicKey,
    auth: &[u8],
    as_secret: &SecretKey,
    salt: &[u8; SALT_LEN],
    payload: &[u8],
) -> Result<Vec<u8>, PushError> {
    let max = MAX_BODY - 2 - TAG_LEN;
    if payload.len() > max {
        return Err(PushError::PayloadTooLarge {
            len: payload.len(),
            max,
        });
    }
    let ua_point = point_bytes(ua_public);
    let as_point = point_bytes(&as_secret.public_key());
    let ecdh = shared_secret(as_secret, ua_public);
    let ikm = hkdf(auth, &ecdh, &[b"Content-Encoding: auth\0"], 32)?;
    // The context: the curve's label, then each public key with its two-byte length, the
    // receiver's first.
    let mut context = Vec::with_capacity(6 + 2 * (2 + POINT_LEN));
    context.extend_from_slice(b"P-256\0");
    context.extend_from_slice(&(POINT_LEN as u16).to_be_bytes());
    context.extend_from_slice(&ua_point);
    context.extend_from_slice(&(POINT_LEN as u16).to_be_bytes());
    context.extend_from_slice(&as_point);
    let cek = hkdf(salt, &ikm, &[b"Content-Encoding: aesgcm\0", &context], 16)?;
    let nonce = hkdf(salt, &ikm, &[b"Content-Encoding: nonce\0", &context], 12)?;
    let mut record = Vec::with_capacity(2 + payload.len());
    record.extend_from_slice(&[0, 0]);
    record.extend_from_slice(payload);
    seal(&cek, &nonce, &record)
}

#[cfg(test)]
#[path = "push_tests.rs"]
mod tests;
