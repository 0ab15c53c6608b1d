//! Tests of push.rs: RFC 8291's example byte for byte, both encodings decrypted by an
//! independent helper, the VAPID JWT checked with p256's verifier, and the key checks.

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE, URL_SAFE_NO_PAD};
use chrono::{TimeZone as _, Utc};
use hkdf::Hkdf;
use p256::ecdsa::signature::Verifier as _;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::{PublicKey, SecretKey};
use sha2::Sha256;

use super::*;

fn b64(text: &str) -> Vec<u8> {
    URL_SAFE_NO_PAD
        .decode(text.trim_end_matches('='))
        .expect("base64url")
}

fn secret(text: &str) -> SecretKey {
    SecretKey::from_slice(&b64(text)).expect("scalar")
}

/// A subscriber's key pair and auth secret, as a browser makes them.
struct Subscriber {
    secret: SecretKey,
    auth: [u8; 16],
}

impl Subscriber {
    fn new() -> Subscriber {
        let mut auth = [0u8; 16];
        rand::rng().fill_bytes(&mut auth);
        Subscriber {
            secret: random_secret(),
            auth,
        }
    }

    fn p256dh(&self) -> String {
        URL_SAFE_NO_PAD.encode(point_bytes(&self.secret.public_key()))
    }

    fn auth(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.auth)
    }
}

fn hkdf_test(salt: &[u8], ikm: &[u8], info: &[u8], len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    Hkdf::<Sha256>::new(Some(salt), ikm)
        .expand(info, &mut out)
        .expect("hkdf");
    out
}

fn open(key: &[u8], nonce: &[u8], sealed: &[u8]) -> Option<Vec<u8>> {
    use aes_gcm::aead::Aead as _;
    use aes_gcm::{Aes128Gcm, KeyInit as _, Nonce};
    Aes128Gcm::new_from_slice(key)
        .expect("key")
        .decrypt(Nonce::from_slice(nonce), sealed)
        .ok()
}

fn ecdh(ours: &SecretKey, theirs: &PublicKey) -> Vec<u8> {
    p256::ecdh::diffie_hellman(ours.to_nonzero_scalar(), theirs.as_affine())
        .raw_secret_bytes()
        .to_vec()
}

/// The receiving side of RFC 8291 / RFC 8188, written from the RFCs: one record.
fn decrypt_aes128gcm(ua: &SecretKey, auth: &[u8], body: &[u8]) -> Vec<u8> {
    let salt = &body[..16];
    let rs = u32::from_be_bytes(body[16..20].try_into().expect("four bytes"));
    assert_eq!(rs, 4096);
    let idlen = body[20] as usize;
    assert_eq!(idlen, 65);
    let as_public = PublicKey::from_sec1_bytes(&body[21..21 + idlen]).expect("sender key");
    let sealed = &body[21 + idlen..];
    let ua_point = ua.public_key().to_encoded_point(false).as_bytes().to_vec();
    let as_point = &body[21..21 + idlen];
    let mut key_info = b"WebPush: info\0".to_vec();
    key_info.extend_from_slice(&ua_point);
    key_info.extend_from_slice(as_point);
    let ikm = hkdf_test(auth, &ecdh(ua, &as_public), &key_info, 32);
    let cek = hkdf_test(salt, &ikm, b"Content-Encoding: aes128gcm\0", 16);
    let nonce = hkdf_test(salt, &ikm, b"Content-Encoding: nonce\0", 12);
    let mut plain = open(&cek, &nonce, sealed).expect("the tag verifies");
    // The last record ends with the delimiter 0x02, then padding zeros (none are written).
    while plain.last() == Some(&0) {
        plain.pop();
    }
    assert_eq!(plain.pop(), Some(0x02), "last-record delimiter");
    plain
}

/// The receiving side of the draft `aesgcm` encoding: salt and sender key from the headers.
/// `None` when the tag does not verify.
fn decrypt_aesgcm(
    ua: &SecretKey,
    auth: &[u8],
    salt: &[u8],
    dh: &[u8],
    body: &[u8],
) -> Option<Vec<u8>> {
    let as_public = PublicKey::from_sec1_bytes(dh).expect("sender key");
    let ikm = hkdf_test(auth, &ecdh(ua, &as_public), b"Content-Encoding: auth\0", 32);
    let ua_point = ua.public_key().to_encoded_point(false).as_bytes().to_vec();
    let mut context = b"P-256\0".to_vec();
    context.extend_from_slice(&[0, 65]);
    context.extend_from_slice(&ua_point);
    context.extend_from_slice(&[0, 65]);
    context.extend_from_slice(dh);
    let cek = hkdf_test(
        salt,
        &ikm,
        &[b"Content-Encoding: aesgcm\0".as_slice(), &context].concat(),
        16,
    );
    let nonce = hkdf_test(
        salt,
        &ikm,
        &[b"Content-Encoding: nonce\0".as_slice(), &context].concat(),
        12,
    );
    let plain = open(&cek, &nonce, body)?;
    let pad = u16::from_be_bytes([plain[0], plain[1]]) as usize;
    assert!(
        plain[2..2 + pad].iter().all(|b| *b == 0),
        "padding is zeros"
    );
    Some(plain[2 + pad..].to_vec())
}

fn header<'a>(req: &'a OutboundRequest, name: &str) -> Option<&'a str> {
    req.headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 5, 1, 12, 0, 0).unwrap()
}

/// Checks a JWT's ES256 signature against `public` (65 bytes) and returns its claims.
fn verified_claims(jwt: &str, public: &[u8]) -> serde_json::Value {
    let parts: Vec<&str> = jwt.split('.').collect();
    assert_eq!(parts.len(), 3, "compact JWS: {jwt}");
    let header: serde_json::Value = serde_json::from_slice(&b64(parts[0])).expect("header JSON");
    assert_eq!(header, serde_json::json!({"typ": "JWT", "alg": "ES256"}));
    let signature = Signature::from_slice(&b64(parts[2])).expect("r || s, 64 bytes");
    let key = VerifyingKey::from_sec1_bytes(public).expect("public key");
    key.verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature)
        .expect("the signature verifies");
    // Any other key refuses it.
    let other = VerifyingKey::from(&SigningKey::from(&random_secret()));
    assert!(
        other
            .verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature)
            .is_err()
    );
    serde_json::from_slice(&b64(parts[1])).expect("claims JSON")
}

/// RFC 8291 Appendix A: the example's keys, salt and plaintext give the example's message.
#[test]
fn rfc8291_appendix_a_byte_for_byte() {
    let ua_public =
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
    let auth = "BTBZMqHH6r4Tts7J_aSIgg";
    let as_private = secret("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw");
    let salt: [u8; 16] = b64("DGv6ra1nlYgDCS1FRnbzlw").try_into().expect("16 bytes");
    let plaintext = b"When I grow up, I want to be a watermelon";
    let expected = b64(concat!(
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIg",
        "Dll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPX",
        "LWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    ));
    let (ua, auth) = read_subscription_keys(ua_public, auth).expect("the RFC's keys");
    let body = encrypt_aes128gcm(&ua, &auth, &as_private, &salt, plaintext).expect("encrypts");
    assert_eq!(
        URL_SAFE_NO_PAD.encode(&body),
        URL_SAFE_NO_PAD.encode(&expected)
    );

    // The receiver's private key from the RFC decrypts it with the independent helper.
    let ua_private = secret("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94");
    assert_eq!(ua_private.public_key(), ua);
    assert_eq!(decrypt_aes128gcm(&ua_private, &auth, &body), plaintext);
}

#[test]
fn a_standard_request_carries_the_rfc8291_body_and_vapid_authorization() {
    let vapid = VapidKey::generate();
    let sub = Subscriber::new();
    let target = PushTarget {
        endpoint: "https://Push.Example.net:443/wpush/v2/abc?x=1",
        p256dh: &sub.p256dh(),
        auth: &sub.auth(),
        standard: true,
    };
    let payload = br#"{"title":"New mention","notification_id":"1"}"#;
    let req = web_push_request(
        &target,
        &vapid,
        "mailto:admin@example.com",
        payload,
        172_800,
        Urgency::Normal,
        now(),
    )
    .expect("request");
    assert_eq!(req.method, http::Method::POST);
    assert_eq!(req.url, target.endpoint);
    assert_eq!(header(&req, "TTL"), Some("172800"));
    assert_eq!(header(&req, "Urgency"), Some("normal"));
    assert_eq!(
        header(&req, "Content-Type"),
        Some("application/octet-stream")
    );
    assert_eq!(header(&req, "Content-Encoding"), Some("aes128gcm"));
    assert_eq!(header(&req, "Encryption"), None);
    assert_eq!(header(&req, "Crypto-Key"), None);
    let body = req.body.as_deref().expect("a body");
    assert_eq!(decrypt_aes128gcm(&sub.secret, &sub.auth, body), payload);

    let auth = header(&req, "Authorization").expect("Authorization");
    let rest = auth.strip_prefix("vapid ").expect("vapid scheme");
    assert!(!rest.contains(' '), "t=...,k=... without spaces: {rest}");
    let (t, k) = rest.split_once(',').expect("t=...,k=...");
    let jwt = t.strip_prefix("t=").expect("t=");
    let k = k.strip_prefix("k=").expect("k=");
    assert!(!k.contains('='), "the header's key is unpadded");
    assert_eq!(b64(k), b64(&vapid.public_key()));
    let claims = verified_claims(jwt, &b64(k));
    assert_eq!(claims["aud"], "https://push.example.net");
    assert_eq!(claims["exp"], now().timestamp() + 12 * 3600);
    assert_eq!(claims["sub"], "mailto:admin@example.com");

    // Each message has its own ephemeral key and salt.
    let again = web_push_request(
        &target,
        &vapid,
        "mailto:admin@example.com",
        payload,
        60,
        Urgency::High,
        now(),
    )
    .expect("request");
    assert_eq!(header(&again, "Urgency"), Some("high"));
    assert_eq!(header(&again, "TTL"), Some("60"));
    let again_body = again.body.as_deref().expect("a body");
    assert_ne!(&again_body[..16], &body[..16], "a fresh salt");
    assert_ne!(&again_body[21..86], &body[21..86], "a fresh ephemeral key");
}

#[test]
fn a_legacy_request_is_aesgcm_with_mastodons_headers_and_round_trips() {
    let vapid = VapidKey::generate();
    let sub = Subscriber::new();
    // Padded, standard-alphabet keys are read too.
    let p256dh = STANDARD.encode(point_bytes(&sub.secret.public_key()));
    let auth = STANDARD.encode(sub.auth);
    let target = PushTarget {
        endpoint: "http://127.0.0.1:8080/push/7",
        p256dh: &p256dh,
        auth: &auth,
        standard: false,
    };
    let payload = "{\"title\":\"Favourite\",\"body\":\"caf\u{e9} \u{1f600}\"}".as_bytes();
    let req = web_push_request(
        &target,
        &vapid,
        "https://fedblog.example/about",
        payload,
        3600,
        Urgency::Low,
        now(),
    )
    .expect("request");
    assert_eq!(header(&req, "Content-Encoding"), Some("aesgcm"));
    assert_eq!(header(&req, "Urgency"), Some("low"));
    assert_eq!(header(&req, "TTL"), Some("3600"));
    let salt = header(&req, "Encryption")
        .and_then(|v| v.strip_prefix("salt="))
        .expect("Encryption: salt=");
    assert!(!salt.contains('='));
    let crypto_key = header(&req, "Crypto-Key").expect("Crypto-Key");
    let (dh, ecdsa) = crypto_key.split_once(';').expect("dh=...;p256ecdsa=...");
    let dh = dh.strip_prefix("dh=").expect("dh=");
    let ecdsa = ecdsa.strip_prefix("p256ecdsa=").expect("p256ecdsa=");
    assert!(!dh.contains('=') && !ecdsa.contains('='));
    assert_eq!(b64(ecdsa), b64(&vapid.public_key()));
    let body = req.body.as_deref().expect("a body");
    assert_eq!(body.len(), 2 + payload.len() + 16);
    assert_eq!(
        decrypt_aesgcm(&sub.secret, &sub.auth, &b64(salt), &b64(dh), body).as_deref(),
        Some(payload)
    );

    let jwt = header(&req, "Authorization")
        .and_then(|v| v.strip_prefix("WebPush "))
        .expect("Authorization: WebPush <JWT>");
    let claims = verified_claims(jwt, &b64(ecdsa));
    assert_eq!(claims["aud"], "http://127.0.0.1:8080");
    assert_eq!(claims["sub"], "https://fedblog.example/about");
    assert_eq!(claims["exp"], now().timestamp() + 12 * 3600);

    // A wrong auth secret does not decrypt (the key schedule depends on it).
    let other = Subscriber::new();
    assert_eq!(
        decrypt_aesgcm(&sub.secret, &other.auth, &b64(salt), &b64(dh), body),
        None
    );
}

#[test]
fn the_audience_is_the_endpoints_normalised_origin() {
    for (endpoint, origin) in [
        ("https://push.example.net/a/b", "https://push.example.net"),
        ("HTTPS://Push.Example.NET:443/a", "https://push.example.net"),
        (
            "https://push.example.net:8443/a",
            "https://push.example.net:8443",
        ),
        ("http://127.0.0.1:80/p", "http://127.0.0.1"),
        ("http://127.0.0.1:39123/p/1", "http://127.0.0.1:39123"),
        ("http://[::1]:9000/p", "http://[::1]:9000"),
        (
            "https://user@push.example.net/x",
            "https://push.example.net",
        ),
    ] {
        assert_eq!(
            endpoint_origin(endpoint).as_deref(),
            Ok(origin),
            "{endpoint}"
        );
    }
    for bad in [
        "/relative/path",
        "ftp://push.example.net/x",
        "not a url",
        "",
    ] {
        assert!(
            matches!(endpoint_origin(bad), Err(PushError::InvalidEndpoint(_))),
            "{bad:?}"
        );
    }
}

#[test]
fn bad_contacts_endpoints_and_oversized_payloads_are_errors() {
    let vapid = VapidKey::generate();
    let sub = Subscriber::new();
    let (p256dh, auth) = (sub.p256dh(), sub.auth());
    let target = |endpoint, standard| PushTarget {
        endpoint,
        p256dh: &p256dh,
        auth: &auth,
        standard,
    };
    let send = |target: &PushTarget<'_>, contact: &str, payload: &[u8]| {
        web_push_request(target, &vapid, contact, payload, 60, Urgency::Normal, now())
    };
    let ok = target("https://push.example.net/x", true);
    assert!(matches!(
        send(&ok, "admin@example.com", b"x"),
        Err(PushError::InvalidContact(_))
    ));
    assert!(matches!(
        send(&ok, "", b"x"),
        Err(PushError::InvalidContact(_))
    ));
    assert!(matches!(
        send(
            &target("ftp://push.example.net/x", true),
            "mailto:a@b.c",
            b"x"
        ),
        Err(PushError::InvalidEndpoint(_))
    ));

    // The largest payload that fits in 4096 bytes of body, and one byte more.
    for (standard, max) in [(true, 3993), (false, 4078)] {
        let t = target("https://push.example.net/x", standard);
        let req = send(&t, "mailto:a@b.c", &vec![b'a'; max]).expect("fits");
        assert_eq!(req.body.map(|b| b.len()), Some(4096));
        assert_eq!(
            send(&t, "mailto:a@b.c", &vec![b'a'; max + 1]),
            Err(PushError::PayloadTooLarge { len: max + 1, max })
        );
    }
}

#[test]
fn subscription_keys_are_checked() {
    let sub = Subscriber::new();
    let point = point_bytes(&sub.secret.public_key());
    let auth = sub.auth();
    // Accepted spellings: url-safe or standard alphabet, padded or not.
    check_subscription_keys(&sub.p256dh(), &auth).expect("unpadded base64url");
    check_subscription_keys(&URL_SAFE.encode(&point), &URL_SAFE.encode(sub.auth))
        .expect("padded base64url");
    check_subscription_keys(&STANDARD.encode(&point), &STANDARD.encode(sub.auth))
        .expect("standard base64");

    // Bad base64.
    assert_eq!(
        check_subscription_keys("not*base64!", &auth),
        Err(PushError::InvalidBase64 { field: "p256dh" })
    );
    assert_eq!(
        check_subscription_keys("", &auth),
        Err(PushError::InvalidBase64 { field: "p256dh" })
    );
    assert_eq!(
        check_subscription_keys(&sub.p256dh(), "%%%%"),
        Err(PushError::InvalidBase64 { field: "auth" })
    );
    // Wrong lengths: a truncated point, a compressed point, a short or long auth secret.
    assert_eq!(
        check_subscription_keys(&URL_SAFE_NO_PAD.encode(&point[..64]), &auth),
        Err(PushError::InvalidLength {
            field: "p256dh",
            expected: 65,
            got: 64
        })
    );
    let compressed = sub.secret.public_key().to_encoded_point(true);
    assert_eq!(
        check_subscription_keys(&URL_SAFE_NO_PAD.encode(compressed.as_bytes()), &auth),
        Err(PushError::InvalidLength {
            field: "p256dh",
            expected: 65,
            got: 33
        })
    );
    assert_eq!(
        check_subscription_keys(&sub.p256dh(), &URL_SAFE_NO_PAD.encode([7u8; 15])),
        Err(PushError::InvalidLength {
            field: "auth",
            expected: 16,
            got: 15
        })
    );
    assert_eq!(
        check_subscription_keys(&sub.p256dh(), &URL_SAFE_NO_PAD.encode([7u8; 32])),
        Err(PushError::InvalidLength {
            field: "auth",
            expected: 16,
            got: 32
        })
    );
    // 65 bytes that are not a point on the curve: y changed, and a wrong leading byte.
    let mut off_curve = point.clone();
    off_curve[64] ^= 1;
    assert_eq!(
        check_subscription_keys(&URL_SAFE_NO_PAD.encode(&off_curve), &auth),
        Err(PushError::NotOnCurve)
    );
    let mut not_uncompressed = point.clone();
    not_uncompressed[0] = 0x05;
    assert_eq!(
        check_subscription_keys(&URL_SAFE_NO_PAD.encode(&not_uncompressed), &auth),
        Err(PushError::NotOnCurve)
    );
    assert_eq!(
        check_subscription_keys(&URL_SAFE_NO_PAD.encode([0u8; 65]), &auth),
        Err(PushError::NotOnCurve)
    );
    // web_push_request checks them the same way.
    let bad = URL_SAFE_NO_PAD.encode(&off_curve);
    let target = PushTarget {
        endpoint: "https://push.example.net/x",
        p256dh: &bad,
        auth: &auth,
        standard: true,
    };
    assert_eq!(
        web_push_request(
            &target,
            &VapidKey::generate(),
            "mailto:a@b.c",
            b"x",
            60,
            Urgency::Normal,
            now()
        ),
        Err(PushError::NotOnCurve)
    );
}

#[test]
fn the_vapid_key_round_trips_in_mastodons_encoding() {
    let key = VapidKey::generate();
    let private = key.private_key();
    let public = key.public_key();
    // Mastodon's spelling: padded base64url, 32 and 65 bytes.
    assert_eq!(private.len(), 44);
    assert!(private.ends_with('='));
    assert_eq!(public.len(), 88);
    assert!(public.ends_with('='));
    assert!(!public.contains('+') && !public.contains('/'));
    assert_eq!(b64(&public)[0], 0x04);
    let again = VapidKey::from_private_key(&private).expect("reads its own key");
    assert_eq!(again.private_key(), private);
    assert_eq!(again.public_key(), public);
    // Unpadded and standard-alphabet spellings of the same key.
    let raw = b64(&private);
    for spelling in [URL_SAFE_NO_PAD.encode(&raw), STANDARD.encode(&raw)] {
        let read = VapidKey::from_private_key(&spelling).expect("other spelling");
        assert_eq!(read.public_key(), public);
    }
    // Two generated keys differ.
    assert_ne!(VapidKey::generate().private_key(), private);
}

#[test]
fn known_private_keys_give_their_public_keys() {
    // RFC 8291 Appendix A's application server key pair.
    let key =
        VapidKey::from_private_key("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw").expect("RFC key");
    assert_eq!(
        key.public_key(),
        "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8="
    );
    assert_eq!(
        key.private_key(),
        "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw="
    );
    // A scalar written without its leading zero byte (as Ruby's OpenSSL may write it) is read
    // as the same key.
    let mut raw = b64(&key.private_key());
    raw[0] = 0;
    let with_zero = VapidKey::from_private_key(&URL_SAFE.encode(&raw)).expect("leading zero");
    let without = VapidKey::from_private_key(&URL_SAFE.encode(&raw[1..])).expect("31 bytes");
    assert_eq!(with_zero.public_key(), without.public_key());
    assert_eq!(without.private_key(), URL_SAFE.encode(&raw));
}

#[test]
fn bad_private_keys_are_refused() {
    assert_eq!(
        VapidKey::from_private_key("***").map(|_| ()),
        Err(PushError::InvalidBase64 {
            field: "private key"
        })
    );
    assert_eq!(
        VapidKey::from_private_key(&URL_SAFE.encode([1u8; 33])).map(|_| ()),
        Err(PushError::InvalidLength {
            field: "private key",
            expected: 32,
            got: 33
        })
    );
    assert_eq!(
        VapidKey::from_private_key(&URL_SAFE.encode([1u8; 16])).map(|_| ()),
        Err(PushError::InvalidLength {
            field: "private key",
            expected: 32,
            got: 16
        })
    );
    // Zero, and a value above the group order, are not scalars.
    assert_eq!(
        VapidKey::from_private_key(&URL_SAFE.encode([0u8; 32])).map(|_| ()),
        Err(PushError::InvalidPrivateKey)
    );
    assert_eq!(
        VapidKey::from_private_key(&URL_SAFE.encode([0xffu8; 32])).map(|_| ()),
        Err(PushError::InvalidPrivateKey)
    );
}

#[test]
fn debug_shows_the_public_key_and_not_the_private_one() {
    let key = VapidKey::generate();
    let shown = format!("{key:?}");
    assert!(shown.contains(&key.public_key()), "{shown}");
    let private = key.private_key();
    assert!(!shown.contains(&private));
    assert!(!shown.contains(private.trim_end_matches('=')));
    assert!(!shown.contains(&STANDARD.encode(b64(&private))));
}
