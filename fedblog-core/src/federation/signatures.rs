//! HTTP signatures for ActivityPub, as Mastodon does them.
//!
//! Outgoing requests are signed the draft-cavage way every fediverse server understands
//! ([`sign_request`]): `Host`, `Date` and, with a body, `Digest` are signed together with the
//! `(request-target)` pseudo-header using RSASSA-PKCS1-v1_5 over SHA-256.
//!
//! Incoming requests ([`verify_request`]) may carry either that draft-cavage `Signature` header
//! (or `Authorization: Signature ...`) or an RFC 9421 `Signature-Input`/`Signature` pair. Before
//! verifying, a receiver finds out which key claims to have signed ([`signature_key_id`]), looks
//! that key up (fetching the actor if need be) and hands its PEM to [`verify_request`].
//!
//! Verification checks, cheapest first: the syntax, the algorithm, that the signature covers what
//! it must (the method and target, the host, a date, the body's digest), that the digest matches
//! the body, that the date is fresh, and only then the RSA signature. So a
//! [`SignatureError::BadSignature`] is the one answer after which refetching a possibly rotated
//! key is worth trying.

use base64::Engine as _;
use chrono::{DateTime, TimeDelta, Utc};
use sfv::{
    BareItem, Dictionary, InnerList, Item, List, ListEntry, ListSerializer, Parser, Version,
};
use sha2::{Digest as _, Sha256, Sha512};

use super::keys::{KeyError, PrivateKey, PublicKey, SignatureAlgorithm};
use crate::federation::RawBody;

/// Which kind of HTTP signature a request carried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignatureScheme {
    /// draft-cavage-http-signatures (the `Signature` header Mastodon sends).
    Cavage,
    /// RFC 9421 HTTP Message Signatures (`Signature-Input` and `Signature`).
    Rfc9421,
}

/// A request whose signature verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The key that signed it (`keyId` / `keyid`), normally `<actor>#main-key`.
    pub key_id: String,
    /// How it was signed.
    pub scheme: SignatureScheme,
}

/// Why a request's signature was refused or could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    /// The request carries no signature.
    #[error("the request is not signed")]
    Missing,
    /// The signature headers cannot be parsed, or name something the request lacks.
    #[error("malformed signature: {0}")]
    Malformed(String),
    /// The signature or digest uses an algorithm not supported here.
    #[error("unsupported algorithm: {0}")]
    UnsupportedAlgorithm(String),
    /// Something that has to be signed is not covered by the signature.
    #[error("the signature does not cover {0}")]
    HeaderNotSigned(String),
    /// The request has a body but no `Digest` (or `Content-Digest`) header.
    #[error("the request has a body but no digest header")]
    MissingDigest,
    /// The body does not match its digest header.
    #[error("the body does not match its digest")]
    DigestMismatch,
    /// The signature's date is too far from now, in the past or in the future.
    #[error("the signature's date is too far from the current time")]
    DateOutOfRange,
    /// The signature's `expires` time has passed.
    #[error("the signature has expired")]
    Expired,
    /// The signature does not verify with the key.
    #[error("the signature does not match the key")]
    BadSignature,
    /// The key could not be read or used.
    #[error("unusable key: {0}")]
    BadKey(String),
}

impl From<KeyError> for SignatureError {
    fn from(e: KeyError) -> Self {
        SignatureError::BadKey(e.to_string())
    }
}

// ---------------------------------------------------------------------------------------------
// Signing (draft-cavage, as Mastodon)
// ---------------------------------------------------------------------------------------------

/// Signs a request to `url` the way Mastodon does, returning the headers to send with it, in this
/// order: `Host`, `Date`, `Digest` (only when `body` is given) and `Signature`:
///
/// ```text
/// Signature: keyId="https://example.com/users/a#main-key",algorithm="rsa-sha256",
///            headers="(request-target) host date digest",signature="..."
/// ```
///
/// `(request-target)` is the lower-case method and the URL's path and query. `now` becomes the
/// `Date` header. Fails with [`SignatureError::Malformed`] on a URL that is not absolute
/// `http(s)` or a key id containing a `"`, and with [`SignatureError::BadKey`] if signing fails.
pub fn sign_request(
    method: &str,
    url: &str,
    body: Option<&[u8]>,
    key_id: &str,
    key: &PrivateKey,
    now: DateTime<Utc>,
) -> Result<Vec<(String, String)>, SignatureError> {
    sign_request_with(method, url, body, &[], key_id, key, now)
}

/// [`sign_request`] with `extra` headers sent and signed too (after `digest`, in the order
/// given), such as `Collection-Synchronization`. They come back before `Signature`.
pub fn sign_request_with(
    method: &str,
    url: &str,
    body: Option<&[u8]>,
    extra: &[(&str, &str)],
    key_id: &str,
    key: &PrivateKey,
    now: DateTime<Utc>,
) -> Result<Vec<(String, String)>, SignatureError> {
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(SignatureError::Malformed(format!(
            "invalid method `{method}`"
        )));
    }
    if key_id.is_empty()
        || key_id
            .chars()
            .any(|c| c == '"' || c == '\\' || c.is_control())
    {
        return Err(SignatureError::Malformed(format!(
            "invalid key id `{key_id}`"
        )));
    }
    let url = AbsoluteUrl::parse(url)?;
    let date = http_date(now);
    let mut headers = vec![
        ("Host".to_string(), url.authority.clone()),
        ("Date".to_string(), date.clone()),
    ];
    let mut signed = String::from("(request-target) host date");
    let mut signing_string = format!(
        "(request-target): {} {}\nhost: {}\ndate: {}",
        method.to_ascii_lowercase(),
        url.path_and_query,
        url.authority,
        date
    );
    if let Some(body) = body {
        let digest = digest_header(body);
        signing_string.push_str("\ndigest: ");
        signing_string.push_str(&digest);
        signed.push_str(" digest");
        headers.push(("Digest".to_string(), digest));
    }
    for (name, value) in extra {
        if name.is_empty()
            || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            || value.chars().any(char::is_control)
        {
            return Err(SignatureError::Malformed(format!(
                "invalid header `{name}` to sign"
            )));
        }
        let lower = name.to_ascii_lowercase();
        signing_string.push_str(&format!("\n{lower}: {value}"));
        signed.push(' ');
        signed.push_str(&lower);
        headers.push((name.to_string(), value.to_string()));
    }
    let signature = key.sign(
        SignatureAlgorithm::RsaPkcs1v15Sha256,
        signing_string.as_bytes(),
    )?;
    headers.push((
        "Signature".to_string(),
        format!(
            "keyId=\"{key_id}\",algorithm=\"rsa-sha256\",headers=\"{signed}\",signature=\"{}\"",
            base64::engine::general_purpose::STANDARD.encode(signature)
        ),
    ));
    Ok(headers)
}

/// The `Digest` header of a body: `SHA-256=<base64>` (RFC 3230, as draft-cavage signers send it).
pub fn digest_header(body: &[u8]) -> String {
    format!(
        "SHA-256={}",
        base64::engine::general_purpose::STANDARD.encode(Sha256::digest(body))
    )
}

/// A time as an HTTP date (IMF-fixdate): `Tue, 20 Apr 2021 02:07:55 GMT`.
pub fn http_date(time: DateTime<Utc>) -> String {
    time.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

/// The parts of an absolute `http(s)` URL a signature needs.
struct AbsoluteUrl {
    /// Host, and port when it is not the scheme's default; lower case.
    authority: String,
    /// Path (at least `/`) and query, without the fragment.
    path_and_query: String,
}

impl AbsoluteUrl {
    fn parse(url: &str) -> Result<Self, SignatureError> {
        let bad = |why: &str| SignatureError::Malformed(format!("invalid URL `{url}`: {why}"));
        if url.bytes().any(|b| !b.is_ascii_graphic()) {
            return Err(bad("it must be ASCII without spaces (encode it first)"));
        }
        let (scheme, rest) = url.split_once("://").ok_or_else(|| bad("not absolute"))?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return Err(bad("the scheme must be http or https"));
        }
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let authority = &rest[..end];
        if authority.is_empty() {
            return Err(bad("no host"));
        }
        if authority.contains('@') {
            return Err(bad("user information is not allowed"));
        }
        let tail = &rest[end..];
        let tail = tail.split('#').next().unwrap_or_default();
        let path_and_query = if tail.starts_with('/') {
            tail.to_string()
        } else {
            format!("/{tail}")
        };
        Ok(AbsoluteUrl {
            authority: normalize_authority(authority, &scheme),
            path_and_query,
        })
    }
}

/// Lower-cases an authority and drops the scheme's default port (RFC 9110 §4.2.3).
fn normalize_authority(authority: &str, scheme: &str) -> String {
    let authority = authority.to_ascii_lowercase();
    let default_port = match scheme {
        "https" => ":443",
        "http" => ":80",
        _ => return authority,
    };
    match authority.strip_suffix(default_port) {
        Some(host) if !host.is_empty() => host.to_string(),
        _ => authority,
    }
}

// ---------------------------------------------------------------------------------------------
// Verifying
// ---------------------------------------------------------------------------------------------

/// Which key claims to have signed `req`: the `keyid` of the first RFC 9421 signature when the
/// request has a `Signature-Input` header, else the draft-cavage `keyId` of its `Signature` (or
/// `Authorization: Signature ...`) header. Nothing is verified: look the key up, then call
/// [`verify_request`].
pub fn signature_key_id(req: &RawBody) -> Result<String, SignatureError> {
    match found_signature(req)? {
        Found::Rfc9421 => Ok(Rfc9421Signature::parse(req, None)?.key_id),
        Found::Cavage(value) => Ok(CavageSignature::parse(value)?.key_id),
    }
}

/// Verifies the signature of an incoming request against the PEM of the key that claims to have
/// made it (see [`signature_key_id`]).
///
/// `scheme` is how the request reached this server (`https` behind a TLS-terminating proxy),
/// needed to rebuild an RFC 9421 `@target-uri` or `@scheme`. `now` and `max_skew` bound the
/// signature's date both ways.
///
/// A draft-cavage signature (algorithm `rsa-sha256`, `hs2019` or none) must cover
/// `(request-target)`, `host`, and `date` or `(created)`; an RFC 9421 one (the first label, `alg`
/// `rsa-v1_5-sha256`, `rsa-pss-sha512` or none) must cover `@method` and `@target-uri` or
/// `@authority` (or `host`) with `@path` (or `@request-target`), and have a `created` parameter
/// or cover `date`. When the request has a body (or is a `POST`, `PUT` or `PATCH`) the signature
/// must also cover `digest` / `content-digest`, whose SHA-256 or SHA-512 must match the body.
pub fn verify_request(
    req: &RawBody,
    scheme: &str,
    public_key_pem: &str,
    now: DateTime<Utc>,
    max_skew: TimeDelta,
) -> Result<Verified, SignatureError> {
    match found_signature(req)? {
        Found::Rfc9421 => {
            let signature = Rfc9421Signature::parse(req, None)?;
            signature.check_requirements(req, now, max_skew)?;
            let key = PublicKey::from_pem(public_key_pem)?;
            signature.verify(req, scheme, &key)?;
            Ok(Verified {
                key_id: signature.key_id,
                scheme: SignatureScheme::Rfc9421,
            })
        }
        Found::Cavage(value) => {
            let signature = CavageSignature::parse(value)?;
            let algorithms = signature.algorithms()?;
            signature.check_requirements(req, now, max_skew)?;
            let signing_string = signature.signing_string(req)?;
            let key = PublicKey::from_pem(public_key_pem)?;
            if algorithms
                .iter()
                .any(|alg| key.verify(*alg, signing_string.as_bytes(), &signature.signature))
            {
                Ok(Verified {
                    key_id: signature.key_id,
                    scheme: SignatureScheme::Cavage,
                })
            } else {
                Err(SignatureError::BadSignature)
            }
        }
    }
}

/// Where a request's signature is.
enum Found<'a> {
    /// `Signature-Input` is present: RFC 9421.
    Rfc9421,
    /// The draft-cavage parameters (from `Signature` or `Authorization`).
    Cavage(&'a str),
}

fn found_signature(req: &RawBody) -> Result<Found<'_>, SignatureError> {
    if req.header("signature-input").is_some() {
        return Ok(Found::Rfc9421);
    }
    if let Some(value) = req.header("signature") {
        return Ok(Found::Cavage(value));
    }
    if let Some(value) = req.header("authorization") {
        let value = value.trim_start();
        if let (Some(scheme), Some(params)) = (value.get(..10), value.get(10..))
            && scheme.eq_ignore_ascii_case("signature ")
        {
            return Ok(Found::Cavage(params));
        }
    }
    Err(SignatureError::Missing)
}

/// Whether a request has to prove its body with a digest: it has one, or its method carries one.
fn has_body(req: &RawBody) -> bool {
    !req.bytes.is_empty()
        || ["POST", "PUT", "PATCH"]
            .iter()
            .any(|m| req.method.eq_ignore_ascii_case(m))
}

/// Every value of a header, trimmed, with obsolete line folding replaced by a space.
fn header_values<'a>(req: &'a RawBody, name: &'a str) -> impl Iterator<Item = String> + 'a {
    req.headers
        .iter()
        .filter(move |(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| {
            if v.contains(['\r', '\n']) {
                v.split(['\r', '\n'])
                    .map(str::trim)
                    .filter(|part| !part.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                v.trim().to_string()
            }
        })
}

/// A header's values combined into one (`, ` between them), or `None` if it is absent.
fn combined_header(req: &RawBody, name: &str) -> Option<String> {
    let values: Vec<String> = header_values(req, name).collect();
    if values.is_empty() {
        None
    } else {
        Some(values.join(", "))
    }
}

/// Fails unless `time` is within `max_skew` of `now`, either way.
fn check_skew(
    time: DateTime<Utc>,
    now: DateTime<Utc>,
    max_skew: TimeDelta,
) -> Result<(), SignatureError> {
    let delta = now.signed_duration_since(time);
    if delta > max_skew || -delta > max_skew {
        Err(SignatureError::DateOutOfRange)
    } else {
        Ok(())
    }
}

/// Checks the `Date` header's freshness.
fn check_date_header(
    req: &RawBody,
    now: DateTime<Utc>,
    max_skew: TimeDelta,
) -> Result<(), SignatureError> {
    let value = req
        .header("date")
        .ok_or_else(|| SignatureError::Malformed("the signed `date` header is missing".into()))?;
    let date = DateTime::parse_from_rfc2822(value.trim())
        .map_err(|_| SignatureError::Malformed(format!("invalid Date header `{value}`")))?;
    check_skew(date.with_timezone(&Utc), now, max_skew)
}

fn unix_time(seconds: i64) -> Result<DateTime<Utc>, SignatureError> {
    DateTime::from_timestamp(seconds, 0)
        .ok_or_else(|| SignatureError::Malformed(format!("timestamp {seconds} out of range")))
}

/// Standard base64, padding optional.
const LENIENT_BASE64: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    base64::engine::GeneralPurposeConfig::new()
        .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
);

/// Checks an RFC 3230 `Digest` header (`SHA-256=<b64>`, possibly with more algorithms after
/// commas) against the body. Every SHA-256 and SHA-512 value must match; at least one must be
/// present.
fn check_digest_header(value: &str, body: &[u8]) -> Result<(), SignatureError> {
    let mut checked = false;
    for part in value.split(',') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let (alg, encoded) = part
            .split_once('=')
            .ok_or_else(|| SignatureError::Malformed(format!("invalid Digest header `{value}`")))?;
        let computed = match alg.trim().to_ascii_lowercase().as_str() {
            "sha-256" => Sha256::digest(body).to_vec(),
            "sha-512" => Sha512::digest(body).to_vec(),
            _ => continue,
        };
        let claimed = LENIENT_BASE64
            .decode(encoded.trim())
            .map_err(|_| SignatureError::Malformed(format!("invalid Digest header `{value}`")))?;
        if claimed != computed {
            return Err(SignatureError::DigestMismatch);
        }
        checked = true;
    }
    if checked {
        Ok(())
    } else {
        Err(SignatureError::UnsupportedAlgorithm(format!(
            "Digest `{value}` has neither SHA-256 nor SHA-512"
        )))
    }
}

/// Checks an RFC 9530 `Content-Digest` header (`sha-256=:<b64>:`, `sha-512=:<b64>:`) against the
/// body. Every sha-256 and sha-512 value must match; at least one must be present.
fn check_content_digest(value: &str, body: &[u8]) -> Result<(), SignatureError> {
    let dict: Dictionary = Parser::new(value)
        .with_version(Version::Rfc8941)
        .parse()
        .map_err(|e| SignatureError::Malformed(format!("invalid Content-Digest: {e}")))?;
    let mut checked = false;
    for (alg, entry) in &dict {
        let computed = match alg.as_str() {
            "sha-256" => Sha256::digest(body).to_vec(),
            "sha-512" => Sha512::digest(body).to_vec(),
            _ => continue,
        };
        let claimed = match entry {
            ListEntry::Item(item) => item.bare_item.as_byte_sequence(),
            ListEntry::InnerList(_) => None,
        }
        .ok_or_else(|| {
            SignatureError::Malformed(format!("Content-Digest `{alg}` is not a byte sequence"))
        })?;
        if claimed != computed.as_slice() {
            return Err(SignatureError::DigestMismatch);
        }
        checked = true;
    }
    if checked {
        Ok(())
    } else {
        Err(SignatureError::UnsupportedAlgorithm(format!(
            "Content-Digest `{value}` has neither sha-256 nor sha-512"
        )))
    }
}

// ---------------------------------------------------------------------------------------------
// draft-cavage
// ---------------------------------------------------------------------------------------------

/// A parsed draft-cavage `Signature` header.
#[derive(Debug)]
struct CavageSignature {
    key_id: String,
    /// `algorithm`, lower case.
    algorithm: Option<String>,
    /// `headers`, lower case, in order.
    headers: Vec<String>,
    signature: Vec<u8>,
    /// `created` and `expires` as sent (integers, possibly with a fraction).
    created: Option<String>,
    expires: Option<String>,
}

impl CavageSignature {
    fn parse(value: &str) -> Result<Self, SignatureError> {
        let params = parse_cavage_params(value)?;
        let get = |name: &str| {
            params
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        let key_id = get("keyid")
            .filter(|k| !k.is_empty())
            .ok_or_else(|| SignatureError::Malformed("no keyId".into()))?;
        let signature =
            get("signature").ok_or_else(|| SignatureError::Malformed("no signature".into()))?;
        let signature = LENIENT_BASE64
            .decode(signature.trim())
            .map_err(|_| SignatureError::Malformed("the signature is not base64".into()))?;
        let headers: Vec<String> = get("headers")
            .unwrap_or_else(|| "date".to_string())
            .split_ascii_whitespace()
            .map(str::to_ascii_lowercase)
            .collect();
        for (i, h) in headers.iter().enumerate() {
            if headers[..i].contains(h) {
                return Err(SignatureError::Malformed(format!("`{h}` is listed twice")));
            }
        }
        Ok(CavageSignature {
            key_id,
            algorithm: get("algorithm").map(|a| a.to_ascii_lowercase()),
            headers,
            signature,
            created: get("created"),
            expires: get("expires"),
        })
    }

    /// The algorithms to try: `rsa-sha256` or none means PKCS#1 v1.5 with SHA-256 (what everyone
    /// sends); `hs2019` leaves it to the key, so both RSA algorithms are tried, v1.5 first.
    fn algorithms(&self) -> Result<&'static [SignatureAlgorithm], SignatureError> {
        match self.algorithm.as_deref() {
            None | Some("rsa-sha256") => Ok(&[SignatureAlgorithm::RsaPkcs1v15Sha256]),
            Some("hs2019") => Ok(&[
                SignatureAlgorithm::RsaPkcs1v15Sha256,
                SignatureAlgorithm::RsaPssSha512,
            ]),
            Some(other) => Err(SignatureError::UnsupportedAlgorithm(other.to_string())),
        }
    }

    fn covers(&self, name: &str) -> bool {
        self.headers.iter().any(|h| h == name)
    }

    /// The coverage, digest and time rules; see [`verify_request`].
    fn check_requirements(
        &self,
        req: &RawBody,
        now: DateTime<Utc>,
        max_skew: TimeDelta,
    ) -> Result<(), SignatureError> {
        for required in ["(request-target)", "host"] {
            if !self.covers(required) {
                return Err(SignatureError::HeaderNotSigned(format!("`{required}`")));
            }
        }
        if !self.covers("date") && !self.covers("(created)") {
            return Err(SignatureError::HeaderNotSigned(
                "`date` (or `(created)`)".to_string(),
            ));
        }
        if has_body(req) && !self.covers("digest") {
            return Err(SignatureError::HeaderNotSigned("`digest`".to_string()));
        }
        if self.covers("digest") {
            let digest = combined_header(req, "digest").ok_or(SignatureError::MissingDigest)?;
            check_digest_header(&digest, &req.bytes)?;
        }
        if let Some(expires) = &self.expires
            && parse_cavage_time(expires)? < now
        {
            return Err(SignatureError::Expired);
        }
        if let Some(created) = &self.created {
            check_skew(parse_cavage_time(created)?, now, max_skew)?;
        } else if self.covers("(created)") {
            return Err(SignatureError::Malformed(
                "`(created)` is signed but there is no created parameter".into(),
            ));
        }
        if self.covers("date") {
            check_date_header(req, now, max_skew)?;
        }
        Ok(())
    }

    /// The string the signer signed.
    fn signing_string(&self, req: &RawBody) -> Result<String, SignatureError> {
        let mut lines = Vec::with_capacity(self.headers.len());
        for name in &self.headers {
            let value = match name.as_str() {
                "(request-target)" => {
                    format!("{} {}", req.method.to_ascii_lowercase(), req.target)
                }
                "(created)" | "(expires)" => {
                    if self.algorithm.as_deref() == Some("rsa-sha256") {
                        return Err(SignatureError::Malformed(format!(
                            "`{name}` cannot be signed with rsa-sha256"
                        )));
                    }
                    let param = if name == "(created)" {
                        &self.created
                    } else {
                        &self.expires
                    };
                    param.clone().ok_or_else(|| {
                        SignatureError::Malformed(format!(
                            "`{name}` is signed but its parameter is missing"
                        ))
                    })?
                }
                header => combined_header(req, header).ok_or_else(|| {
                    SignatureError::Malformed(format!("the signed `{header}` header is missing"))
                })?,
            };
            lines.push(format!("{name}: {value}"));
        }
        Ok(lines.join("\n"))
    }
}

/// A draft-cavage `created`/`expires` value: Unix seconds, possibly with a fraction.
fn parse_cavage_time(value: &str) -> Result<DateTime<Utc>, SignatureError> {
    let whole = value.split('.').next().unwrap_or_default();
    let seconds: i64 = whole
        .parse()
        .map_err(|_| SignatureError::Malformed(format!("invalid timestamp `{value}`")))?;
    unix_time(seconds)
}

/// `key="value",key=value,...`: names lower-cased, quoted values unescaped.
pub(crate) fn parse_cavage_params(input: &str) -> Result<Vec<(String, String)>, SignatureError> {
    let malformed = |why: &str| SignatureError::Malformed(format!("signature parameters: {why}"));
    let mut params: Vec<(String, String)> = Vec::new();
    let mut rest = input.trim();
    while !rest.is_empty() {
        let eq = rest
            .find('=')
            .ok_or_else(|| malformed("expected `name=value`"))?;
        let name = rest[..eq].trim().to_ascii_lowercase();
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(malformed("invalid parameter name"));
        }
        rest = rest[eq + 1..].trim_start();
        let value = if let Some(quoted) = rest.strip_prefix('"') {
            let mut value = String::new();
            let mut end = None;
            let mut chars = quoted.char_indices();
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => match chars.next() {
                        Some((_, escaped)) => value.push(escaped),
                        None => return Err(malformed("unterminated quoted string")),
                    },
                    '"' => {
                        end = Some(i);
                        break;
                    }
                    c => value.push(c),
                }
            }
            let end = end.ok_or_else(|| malformed("unterminated quoted string"))?;
            rest = &quoted[end + 1..];
            value
        } else {
            let end = rest.find(',').unwrap_or(rest.len());
            let value = rest[..end].trim().to_string();
            rest = &rest[end..];
            value
        };
        if params.iter().any(|(k, _)| *k == name) {
            return Err(malformed(&format!("`{name}` is given twice")));
        }
        params.push((name, value));
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix(',') {
            rest = after.trim_start();
        } else if !rest.is_empty() {
            return Err(malformed("expected `,` between parameters"));
        }
    }
    Ok(params)
}

// ---------------------------------------------------------------------------------------------
// RFC 9421
// ---------------------------------------------------------------------------------------------

/// One parsed RFC 9421 signature: its `Signature-Input` member and `Signature` bytes.
#[derive(Debug)]
struct Rfc9421Signature {
    /// The covered components and the signature parameters, as sent.
    input: InnerList,
    signature: Vec<u8>,
    key_id: String,
    alg: Option<String>,
    created: Option<i64>,
    expires: Option<i64>,
}

impl Rfc9421Signature {
    /// The signature labelled `label`, or the first one in `Signature-Input`.
    fn parse(req: &RawBody, label: Option<&str>) -> Result<Self, SignatureError> {
        let input = combined_header(req, "signature-input").ok_or(SignatureError::Missing)?;
        let inputs: Dictionary = Parser::new(&input)
            .with_version(Version::Rfc8941)
            .parse()
            .map_err(|e| SignatureError::Malformed(format!("invalid Signature-Input: {e}")))?;
        let (label, entry) = match label {
            Some(label) => inputs
                .get_key_value(label)
                .ok_or_else(|| SignatureError::Malformed(format!("no signature `{label}`")))?,
            None => inputs.first().ok_or(SignatureError::Missing)?,
        };
        let ListEntry::InnerList(input) = entry else {
            return Err(SignatureError::Malformed(format!(
                "Signature-Input `{}` is not an inner list",
                label.as_str()
            )));
        };
        let signatures = combined_header(req, "signature").ok_or_else(|| {
            SignatureError::Malformed("Signature-Input without a Signature header".into())
        })?;
        let signatures: Dictionary = Parser::new(&signatures)
            .with_version(Version::Rfc8941)
            .parse()
            .map_err(|e| SignatureError::Malformed(format!("invalid Signature header: {e}")))?;
        let signature = match signatures.get(label.as_str()) {
            Some(ListEntry::Item(item)) => item.bare_item.as_byte_sequence().map(<[u8]>::to_vec),
            _ => None,
        }
        .ok_or_else(|| {
            SignatureError::Malformed(format!(
                "no byte-sequence Signature for `{}`",
                label.as_str()
            ))
        })?;

        let mut key_id = None;
        let mut alg = None;
        let mut created = None;
        let mut expires = None;
        for (name, value) in &input.params {
            let wrong_type =
                || SignatureError::Malformed(format!("signature parameter `{}`", name.as_str()));
            match name.as_str() {
                "keyid" => {
                    key_id = Some(
                        value
                            .as_string()
                            .ok_or_else(wrong_type)?
                            .as_str()
                            .to_string(),
                    );
                }
                "alg" => {
                    alg = Some(
                        value
                            .as_string()
                            .ok_or_else(wrong_type)?
                            .as_str()
                            .to_string(),
                    )
                }
                "created" => created = Some(i64::from(value.as_integer().ok_or_else(wrong_type)?)),
                "expires" => expires = Some(i64::from(value.as_integer().ok_or_else(wrong_type)?)),
                "nonce" | "tag" => {
                    value.as_string().ok_or_else(wrong_type)?;
                }
                _ => {}
            }
        }
        let key_id = key_id
            .filter(|k| !k.is_empty())
            .ok_or_else(|| SignatureError::Malformed("no keyid parameter".into()))?;
        Ok(Rfc9421Signature {
            input: input.clone(),
            signature,
            key_id,
            alg,
            created,
            expires,
        })
    }

    /// The names of the covered components (parameters aside).
    fn covers(&self, name: &str) -> bool {
        self.input.items.iter().any(|item| {
            item.bare_item
                .as_string()
                .is_some_and(|s| s.as_str() == name)
        })
    }

    /// The coverage, digest and time rules; see [`verify_request`].
    fn check_requirements(
        &self,
        req: &RawBody,
        now: DateTime<Utc>,
        max_skew: TimeDelta,
    ) -> Result<(), SignatureError> {
        if !self.covers("@method") {
            return Err(SignatureError::HeaderNotSigned("`@method`".into()));
        }
        let targets = self.covers("@target-uri")
            || ((self.covers("@authority") || self.covers("host"))
                && (self.covers("@path") || self.covers("@request-target")));
        if !targets {
            return Err(SignatureError::HeaderNotSigned(
                "`@target-uri` (or `@authority` and `@path`)".into(),
            ));
        }
        if self.created.is_none() && !self.covers("date") {
            return Err(SignatureError::HeaderNotSigned(
                "`date` (or a `created` parameter)".into(),
            ));
        }
        if has_body(req) && !self.covers("content-digest") {
            return Err(SignatureError::HeaderNotSigned("`content-digest`".into()));
        }
        if self.covers("content-digest") {
            let digest =
                combined_header(req, "content-digest").ok_or(SignatureError::MissingDigest)?;
            check_content_digest(&digest, &req.bytes)?;
        }
        if let Some(expires) = self.expires
            && unix_time(expires)? < now
        {
            return Err(SignatureError::Expired);
        }
        if let Some(created) = self.created {
            check_skew(unix_time(created)?, now, max_skew)?;
        }
        if self.covers("date") {
            check_date_header(req, now, max_skew)?;
        }
        Ok(())
    }

    /// The algorithms `alg` allows: the one named, or for an RSA key without `alg`, v1.5 with
    /// SHA-256 then PSS with SHA-512.
    fn algorithms(&self) -> Result<Vec<SignatureAlgorithm>, SignatureError> {
        match self.alg.as_deref() {
            None => Ok(vec![
                SignatureAlgorithm::RsaPkcs1v15Sha256,
                SignatureAlgorithm::RsaPssSha512,
            ]),
            Some("rsa-v1_5-sha256") => Ok(vec![SignatureAlgorithm::RsaPkcs1v15Sha256]),
            Some("rsa-pss-sha512") => Ok(vec![SignatureAlgorithm::RsaPssSha512]),
            Some(other) => Err(SignatureError::UnsupportedAlgorithm(other.to_string())),
        }
    }

    /// Verifies the signature itself over the rebuilt signature base (no requirements checked).
    fn verify(&self, req: &RawBody, scheme: &str, key: &PublicKey) -> Result<(), SignatureError> {
        let algorithms = self.algorithms()?;
        let base = signature_base(req, scheme, &self.input)?;
        if algorithms
            .iter()
            .any(|alg| key.verify(*alg, base.as_bytes(), &self.signature))
        {
            Ok(())
        } else {
            Err(SignatureError::BadSignature)
        }
    }
}

/// The RFC 9421 §2.5 signature base of `req` for the covered components and parameters in
/// `input`: one `"<component>": <value>` line per component, then the `"@signature-params"` line.
fn signature_base(
    req: &RawBody,
    scheme: &str,
    input: &InnerList,
) -> Result<String, SignatureError> {
    let mut base = String::new();
    let mut seen: Vec<(String, Vec<String>)> = Vec::with_capacity(input.items.len());
    for item in &input.items {
        let name = item
            .bare_item
            .as_string()
            .ok_or_else(|| {
                SignatureError::Malformed("a component identifier is not a string".into())
            })?
            .as_str();
        let mut params: Vec<String> = item
            .params
            .iter()
            .map(|(k, v)| format!("{}={v:?}", k.as_str()))
            .collect();
        params.sort();
        let identity = (name.to_string(), params);
        if seen.contains(&identity) {
            return Err(SignatureError::Malformed(format!(
                "`{name}` is covered twice"
            )));
        }
        seen.push(identity);

        let value = if name.starts_with('@') {
            derived_component(req, scheme, name, item)?
        } else {
            field_component(req, name, item)?
        };
        if value.contains(['\r', '\n']) {
            return Err(SignatureError::Malformed(format!(
                "`{name}` contains a newline"
            )));
        }
        base.push_str(&serialize_entry(&ListEntry::Item(item.clone()))?);
        base.push_str(": ");
        base.push_str(&value);
        base.push('\n');
    }
    base.push_str("\"@signature-params\": ");
    base.push_str(&serialize_entry(&ListEntry::InnerList(input.clone()))?);
    if !base.is_ascii() {
        return Err(SignatureError::Malformed(
            "the signature base is not ASCII".into(),
        ));
    }
    Ok(base)
}

/// The strict structured-field serialization of one list member (an item or inner list, with its
/// parameters).
fn serialize_entry(entry: &ListEntry) -> Result<String, SignatureError> {
    let mut ser = ListSerializer::new();
    ser.members(std::iter::once(entry));
    ser.finish()
        .ok_or_else(|| SignatureError::Malformed("nothing to serialize".into()))
}

/// The value of a derived (`@`) component of a request.
fn derived_component(
    req: &RawBody,
    scheme: &str,
    name: &str,
    item: &Item,
) -> Result<String, SignatureError> {
    let malformed = |why: String| SignatureError::Malformed(format!("`{name}`: {why}"));
    if name == "@query-param" {
        let mut param_name = None;
        for (key, value) in &item.params {
            match (key.as_str(), value) {
                ("name", BareItem::String(s)) => param_name = Some(s.as_str()),
                (other, _) => return Err(malformed(format!("unsupported parameter `{other}`"))),
            }
        }
        let param_name = param_name.ok_or_else(|| malformed("no `name` parameter".into()))?;
        let target = RequestTarget::parse(&req.target)?;
        return query_param(target.query, param_name).map_err(malformed);
    }
    if let Some((key, _)) = item.params.first() {
        return Err(malformed(format!(
            "unsupported parameter `{}`",
            key.as_str()
        )));
    }
    let value = match name {
        "@method" => req.method.clone(),
        "@target-uri" => {
            let target = RequestTarget::parse(&req.target)?;
            match target.absolute {
                Some(uri) => uri.to_string(),
                None => format!(
                    "{}://{}{}",
                    scheme.to_ascii_lowercase(),
                    authority(req, scheme)?,
                    req.target
                ),
            }
        }
        "@authority" => authority(req, scheme)?,
        "@scheme" => scheme.to_ascii_lowercase(),
        "@request-target" => req.target.clone(),
        "@path" => {
            let path = RequestTarget::parse(&req.target)?.path;
            if path.is_empty() {
                "/".to_string()
            } else {
                path.to_string()
            }
        }
        "@query" => format!(
            "?{}",
            RequestTarget::parse(&req.target)?.query.unwrap_or("")
        ),
        "@status" => return Err(malformed("only a response has a status".into())),
        "@signature-params" => return Err(malformed("cannot be a covered component".into())),
        _ => return Err(malformed("unknown derived component".into())),
    };
    Ok(value)
}

/// A request's authority from its `Host` header, normalised (RFC 9110 §4.2.3).
fn authority(req: &RawBody, scheme: &str) -> Result<String, SignatureError> {
    let host = req
        .header("host")
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .ok_or_else(|| SignatureError::Malformed("the request has no Host header".into()))?;
    Ok(normalize_authority(host, &scheme.to_ascii_lowercase()))
}

/// The parts of a request target.
struct RequestTarget<'a> {
    /// The whole target when it is in absolute form (`https://host/path`).
    absolute: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
}

impl<'a> RequestTarget<'a> {
    fn parse(target: &'a str) -> Result<Self, SignatureError> {
        let (absolute, path_and_query) = if target.starts_with('/') {
            (None, target)
        } else if let Some((_, rest)) = target.split_once("://") {
            let start = rest.find(['/', '?']).unwrap_or(rest.len());
            (Some(target), &rest[start..])
        } else {
            return Err(SignatureError::Malformed(format!(
                "request target `{target}` has no path"
            )));
        };
        let (path, query) = match path_and_query.split_once('?') {
            Some((path, query)) => (path, Some(query)),
            None => (path_and_query, None),
        };
        Ok(RequestTarget {
            absolute,
            path,
            query,
        })
    }
}

/// The value of the query parameter whose re-encoded name is `name` (RFC 9421 §2.2.8): parsed as
/// `application/x-www-form-urlencoded`, then percent-encoded again.
fn query_param(query: Option<&str>, name: &str) -> Result<String, String> {
    let mut found = None;
    for (key, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        if encode_query_component(&key) == name {
            if found.is_some() {
                return Err(format!("query parameter `{name}` occurs more than once"));
            }
            found = Some(encode_query_component(&value));
        }
    }
    found.ok_or_else(|| format!("no query parameter `{name}`"))
}

/// Percent-encodes all but ASCII alphanumerics and `*-._` (spaces as `%20`), as RFC 9421's
/// `@query-param` examples do.
fn encode_query_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'*' | b'-' | b'.' | b'_') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The value of a header-field component, with its `sf`, `key` or `bs` parameter applied.
fn field_component(req: &RawBody, name: &str, item: &Item) -> Result<String, SignatureError> {
    let malformed = |why: String| SignatureError::Malformed(format!("`{name}`: {why}"));
    let mut strict = false;
    let mut binary = false;
    let mut key = None;
    for (param, value) in &item.params {
        match (param.as_str(), value) {
            ("sf", BareItem::Boolean(true)) => strict = true,
            ("bs", BareItem::Boolean(true)) => binary = true,
            ("key", BareItem::String(s)) => key = Some(s.as_str()),
            ("req", _) => return Err(malformed("`req` cannot be used on a request".into())),
            ("tr", _) => return Err(malformed("trailers are not available".into())),
            (other, _) => return Err(malformed(format!("unsupported parameter `{other}`"))),
        }
    }
    if binary && (strict || key.is_some()) {
        return Err(malformed(
            "`bs` cannot be combined with `sf` or `key`".into(),
        ));
    }
    let values: Vec<String> = header_values(req, name).collect();
    if values.is_empty() {
        return Err(malformed("the covered header is missing".into()));
    }
    if binary {
        let list: List = values
            .into_iter()
            .map(|v| ListEntry::Item(Item::new(BareItem::ByteSequence(v.into_bytes()))))
            .collect();
        let mut ser = ListSerializer::new();
        ser.members(&list);
        return ser
            .finish()
            .ok_or_else(|| malformed("nothing to serialize".into()));
    }
    let combined = values.join(", ");
    if let Some(key) = key {
        let dict: Dictionary = Parser::new(&combined)
            .parse()
            .map_err(|e| malformed(format!("not a dictionary: {e}")))?;
        let member = dict
            .get(key)
            .ok_or_else(|| malformed(format!("no member `{key}`")))?;
        return serialize_entry(member);
    }
    if strict {
        return strict_serialization(&combined)
            .ok_or_else(|| malformed("not a structured field".into()));
    }
    Ok(combined)
}

/// A field value re-serialized strictly as the structured type it parses as (dictionary, list
/// or item, in that order of preference).
fn strict_serialization(value: &str) -> Option<String> {
    if let Ok(dict) = Parser::new(value).parse::<Dictionary>() {
        let mut ser = sfv::DictSerializer::new();
        ser.members(&dict);
        return ser.finish();
    }
    if let Ok(list) = Parser::new(value).parse::<List>() {
        let mut ser = ListSerializer::new();
        ser.members(&list);
        return ser.finish();
    }
    let item = Parser::new(value).parse::<Item>().ok()?;
    serialize_entry(&ListEntry::Item(item)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::federation::keys::test_keys::*;

    const KEY_ID: &str = "https://local.example/users/alice#main-key";
    const BODY: &[u8] = br#"{"type":"Follow","actor":"https://local.example/users/alice"}"#;

    fn now() -> DateTime<Utc> {
        // 2023-11-14T22:13:20Z
        DateTime::from_timestamp(1_700_000_000, 0).unwrap()
    }

    fn skew() -> TimeDelta {
        TimeDelta::hours(1)
    }

    fn actor_key() -> PrivateKey {
        PrivateKey::from_pem(ACTOR_KEY).unwrap()
    }

    fn request(method: &str, target: &str, headers: &[(&str, &str)], body: &[u8]) -> RawBody {
        RawBody {
            method: method.to_string(),
            target: target.to_string(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_ascii_lowercase(), v.to_string()))
                .collect(),
            bytes: body.to_vec(),
        }
    }

    /// The request a receiver sees after `sign_request` (header names lower-cased).
    fn signed_request(method: &str, url: &str, target: &str, body: Option<&[u8]>) -> RawBody {
        let headers = sign_request(method, url, body, KEY_ID, &actor_key(), now()).unwrap();
        RawBody {
            method: method.to_string(),
            target: target.to_string(),
            headers: headers
                .into_iter()
                .map(|(k, v)| (k.to_ascii_lowercase(), v))
                .collect(),
            bytes: body.unwrap_or_default().to_vec(),
        }
    }

    fn set_header(req: &mut RawBody, name: &str, value: &str) {
        req.headers.retain(|(k, _)| k != name);
        req.headers.push((name.to_string(), value.to_string()));
    }

    fn verify(req: &RawBody, pem: &str) -> Result<Verified, SignatureError> {
        verify_request(req, "https", pem, now(), skew())
    }

    fn b64(bytes: &[u8]) -> String {
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    // --- draft-cavage ------------------------------------------------------------------------

    #[test]
    fn extra_headers_are_sent_and_signed() {
        let sync = "collectionId=\"https://local.example/users/alice/followers\", digest=\"00\"";
        let headers = sign_request_with(
            "POST",
            "https://remote.example/inbox",
            Some(BODY),
            &[("Collection-Synchronization", sync)],
            KEY_ID,
            &actor_key(),
            now(),
        )
        .unwrap();
        let names: Vec<&str> = headers.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            [
                "Host",
                "Date",
                "Digest",
                "Collection-Synchronization",
                "Signature"
            ]
        );
        assert!(
            headers[4].1.contains(
                "headers=\"(request-target) host date digest collection-synchronization\""
            )
        );
        let mut req = RawBody {
            method: "POST".into(),
            target: "/inbox".into(),
            headers: headers
                .into_iter()
                .map(|(k, v)| (k.to_ascii_lowercase(), v))
                .collect(),
            bytes: BODY.to_vec(),
        };
        assert!(verify(&req, ACTOR_PUB).is_ok());
        set_header(&mut req, "collection-synchronization", "digest=\"ff\"");
        assert!(matches!(
            verify(&req, ACTOR_PUB),
            Err(SignatureError::BadSignature)
        ));
        assert!(matches!(
            sign_request_with(
                "POST",
                "https://remote.example/inbox",
                Some(BODY),
                &[("Bad Name", "x")],
                KEY_ID,
                &actor_key(),
                now(),
            ),
            Err(SignatureError::Malformed(_))
        ));
    }

    #[test]
    fn signs_a_post_as_mastodon_does_and_verifies_it() {
        let headers = sign_request(
            "POST",
            "https://Remote.example:443/users/bob/inbox?x=1#ignored",
            Some(BODY),
            KEY_ID,
            &actor_key(),
            now(),
        )
        .unwrap();
        let names: Vec<&str> = headers.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["Host", "Date", "Digest", "Signature"]);
        assert_eq!(headers[0].1, "remote.example");
        assert_eq!(headers[1].1, "Tue, 14 Nov 2023 22:13:20 GMT");
        assert_eq!(
            headers[2].1,
            format!("SHA-256={}", b64(&Sha256::digest(BODY)))
        );
        let prefix = format!(
            "keyId=\"{KEY_ID}\",algorithm=\"rsa-sha256\",\
             headers=\"(request-target) host date digest\",signature=\""
        );
        assert!(headers[3].1.starts_with(&prefix), "{}", headers[3].1);
        assert!(headers[3].1.ends_with('"'));

        // The signature is PKCS#1 v1.5 over exactly Mastodon's signing string.
        let signature = &headers[3].1[prefix.len()..headers[3].1.len() - 1];
        let signing_string = format!(
            "(request-target): post /users/bob/inbox?x=1\nhost: remote.example\n\
             date: Tue, 14 Nov 2023 22:13:20 GMT\ndigest: {}",
            headers[2].1
        );
        let public = PublicKey::from_pem(ACTOR_PUB).unwrap();
        assert!(public.verify(
            SignatureAlgorithm::RsaPkcs1v15Sha256,
            signing_string.as_bytes(),
            &LENIENT_BASE64.decode(signature).unwrap()
        ));

        let req = RawBody {
            method: "POST".into(),
            target: "/users/bob/inbox?x=1".into(),
            headers: headers
                .into_iter()
                .map(|(k, v)| (k.to_ascii_lowercase(), v))
                .collect(),
            bytes: BODY.to_vec(),
        };
        assert_eq!(signature_key_id(&req).unwrap(), KEY_ID);
        assert_eq!(
            verify(&req, ACTOR_PUB).unwrap(),
            Verified {
                key_id: KEY_ID.to_string(),
                scheme: SignatureScheme::Cavage
            }
        );
    }

    #[test]
    fn signs_a_get_without_digest_and_keeps_a_non_default_port() {
        let req = signed_request("GET", "http://localhost:3000/users/bob", "/users/bob", None);
        assert_eq!(req.header("host"), Some("localhost:3000"));
        assert_eq!(req.header("digest"), None);
        let signature = req.header("signature").unwrap();
        assert!(signature.contains("headers=\"(request-target) host date\""));
        assert_eq!(
            verify(&req, ACTOR_PUB).unwrap().scheme,
            SignatureScheme::Cavage
        );
    }

    #[test]
    fn sign_request_refuses_bad_input() {
        let key = actor_key();
        for url in [
            "/inbox",
            "ftp://x.example/inbox",
            "https:///inbox",
            "https://u@x.example/",
        ] {
            assert!(matches!(
                sign_request("GET", url, None, KEY_ID, &key, now()),
                Err(SignatureError::Malformed(_))
            ));
        }
        assert!(matches!(
            sign_request("GET", "https://x.example/", None, "a\"b", &key, now()),
            Err(SignatureError::Malformed(_))
        ));
    }

    #[test]
    fn a_tampered_body_does_not_match_its_digest() {
        let mut req = signed_request("POST", "https://r.example/inbox", "/inbox", Some(BODY));
        req.bytes.push(b' ');
        assert_eq!(verify(&req, ACTOR_PUB), Err(SignatureError::DigestMismatch));
    }

    #[test]
    fn another_key_does_not_verify() {
        let req = signed_request("POST", "https://r.example/inbox", "/inbox", Some(BODY));
        assert_eq!(verify(&req, RFC_RSA_PUB), Err(SignatureError::BadSignature));
        // Nor does a tampered signed header, or another target.
        let mut moved = req.clone();
        moved.target = "/other".into();
        assert_eq!(verify(&moved, ACTOR_PUB), Err(SignatureError::BadSignature));
        assert_eq!(
            verify(&req, "not a key"),
            Err(SignatureError::BadKey(
                "invalid PEM: no `-----BEGIN` line".into()
            ))
        );
    }

    #[test]
    fn a_stale_or_future_date_is_refused() {
        let req = signed_request("POST", "https://r.example/inbox", "/inbox", Some(BODY));
        let late = now() + TimeDelta::hours(2);
        let early = now() - TimeDelta::hours(2);
        for at in [late, early] {
            assert_eq!(
                verify_request(&req, "https", ACTOR_PUB, at, skew()),
                Err(SignatureError::DateOutOfRange)
            );
        }
        assert!(verify_request(&req, "https", ACTOR_PUB, late, TimeDelta::hours(12)).is_ok());
    }

    /// A draft-cavage signature over `headers` of `req`, signed with the actor key.
    fn cavage_sign(req: &mut RawBody, headers: &str, algorithm: Option<&str>) {
        let sig = CavageSignature {
            key_id: KEY_ID.into(),
            algorithm: algorithm.map(str::to_string),
            headers: headers.split(' ').map(str::to_string).collect(),
            signature: Vec::new(),
            created: None,
            expires: None,
        };
        let string = sig.signing_string(req).unwrap();
        let signature = actor_key()
            .sign(SignatureAlgorithm::RsaPkcs1v15Sha256, string.as_bytes())
            .unwrap();
        let alg = algorithm
            .map(|a| format!("algorithm=\"{a}\","))
            .unwrap_or_default();
        set_header(
            req,
            "signature",
            &format!(
                "keyId=\"{KEY_ID}\",{alg}headers=\"{headers}\",signature=\"{}\"",
                b64(&signature)
            ),
        );
    }

    #[test]
    fn a_post_must_sign_its_digest_and_target() {
        let mut req = signed_request("POST", "https://r.example/inbox", "/inbox", Some(BODY));
        cavage_sign(&mut req, "(request-target) host date", Some("rsa-sha256"));
        assert_eq!(
            verify(&req, ACTOR_PUB),
            Err(SignatureError::HeaderNotSigned("`digest`".into()))
        );
        cavage_sign(&mut req, "host date digest", Some("rsa-sha256"));
        assert_eq!(
            verify(&req, ACTOR_PUB),
            Err(SignatureError::HeaderNotSigned("`(request-target)`".into()))
        );
        cavage_sign(&mut req, "(request-target) date digest", Some("rsa-sha256"));
        assert!(matches!(
            verify(&req, ACTOR_PUB),
            Err(SignatureError::HeaderNotSigned(_))
        ));
        cavage_sign(&mut req, "(request-target) host digest", Some("rsa-sha256"));
        assert!(matches!(
            verify(&req, ACTOR_PUB),
            Err(SignatureError::HeaderNotSigned(_))
        ));
        // A POST with an empty body still needs its digest signed.
        let mut empty = signed_request("POST", "https://r.example/inbox", "/inbox", None);
        assert_eq!(
            verify(&empty, ACTOR_PUB),
            Err(SignatureError::HeaderNotSigned("`digest`".into()))
        );
        set_header(&mut empty, "digest", &digest_header(b""));
        cavage_sign(&mut empty, "(request-target) host date digest", None);
        assert!(verify(&empty, ACTOR_PUB).is_ok());
    }

    #[test]
    fn a_signed_digest_must_be_present_and_supported() {
        let mut req = signed_request("POST", "https://r.example/inbox", "/inbox", Some(BODY));
        req.headers.retain(|(k, _)| k != "digest");
        assert_eq!(verify(&req, ACTOR_PUB), Err(SignatureError::MissingDigest));

        let sha512 = format!("SHA-512={}", b64(&Sha512::digest(BODY)));
        set_header(&mut req, "digest", &sha512);
        cavage_sign(
            &mut req,
            "(request-target) host date digest",
            Some("rsa-sha256"),
        );
        assert!(verify(&req, ACTOR_PUB).is_ok());

        set_header(&mut req, "digest", "MD5=XUFAKrxLKna5cZ2REBfFkg==");
        cavage_sign(
            &mut req,
            "(request-target) host date digest",
            Some("rsa-sha256"),
        );
        assert!(matches!(
            verify(&req, ACTOR_PUB),
            Err(SignatureError::UnsupportedAlgorithm(_))
        ));
    }

    #[test]
    fn accepts_hs2019_no_algorithm_and_the_authorization_header() {
        let base = signed_request("POST", "https://r.example/inbox", "/inbox", Some(BODY));
        let value = base.header("signature").unwrap().to_string();

        let mut req = base.clone();
        set_header(
            &mut req,
            "signature",
            &value.replace("algorithm=\"rsa-sha256\"", "algorithm=\"hs2019\""),
        );
        assert!(verify(&req, ACTOR_PUB).is_ok());

        set_header(
            &mut req,
            "signature",
            &value.replace("algorithm=\"rsa-sha256\",", ""),
        );
        assert!(verify(&req, ACTOR_PUB).is_ok());

        let mut auth = base.clone();
        auth.headers.retain(|(k, _)| k != "signature");
        auth.headers
            .push(("authorization".into(), format!("Signature {value}")));
        assert_eq!(signature_key_id(&auth).unwrap(), KEY_ID);
        assert!(verify(&auth, ACTOR_PUB).is_ok());

        set_header(
            &mut req,
            "signature",
            &value.replace("algorithm=\"rsa-sha256\"", "algorithm=\"ed25519\""),
        );
        assert_eq!(
            verify(&req, ACTOR_PUB),
            Err(SignatureError::UnsupportedAlgorithm("ed25519".into()))
        );
    }

    #[test]
    fn unsigned_and_malformed_requests() {
        let bare = request("POST", "/inbox", &[("host", "r.example")], BODY);
        assert_eq!(verify(&bare, ACTOR_PUB), Err(SignatureError::Missing));
        assert_eq!(signature_key_id(&bare), Err(SignatureError::Missing));
        for authorization in ["Bearer abc", "Signature", "Basic é€abcdef"] {
            let other = request("GET", "/", &[("authorization", authorization)], b"");
            assert_eq!(signature_key_id(&other), Err(SignatureError::Missing));
        }
        for bad in [
            "garbage",
            "keyId=\"a\",signature=\"unterminated",
            "signature=\"AAAA\"",
            "keyId=\"a\",keyId=\"b\",signature=\"AAAA\"",
            "keyId=\"a\",signature=\"not base64!\"",
        ] {
            let req = request("GET", "/", &[("signature", bad)], b"");
            assert!(
                matches!(verify(&req, ACTOR_PUB), Err(SignatureError::Malformed(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn cavage_created_and_expires() {
        let mut req = signed_request("GET", "https://r.example/users/bob", "/users/bob", None);
        let created = now().timestamp();
        // An expired signature.
        let string = format!(
            "(request-target): get /users/bob\nhost: r.example\n(created): {created}\n\
             (expires): {}",
            created - 10
        );
        let signature = actor_key()
            .sign(SignatureAlgorithm::RsaPkcs1v15Sha256, string.as_bytes())
            .unwrap();
        set_header(
            &mut req,
            "signature",
            &format!(
                "keyId=\"{KEY_ID}\",algorithm=\"hs2019\",created={created},expires={},\
                 headers=\"(request-target) host (created) (expires)\",signature=\"{}\"",
                created - 10,
                b64(&signature)
            ),
        );
        assert_eq!(verify(&req, ACTOR_PUB), Err(SignatureError::Expired));

        let string =
            format!("(request-target): get /users/bob\nhost: r.example\n(created): {created}");
        let signature = actor_key()
            .sign(SignatureAlgorithm::RsaPkcs1v15Sha256, string.as_bytes())
            .unwrap();
        set_header(
            &mut req,
            "signature",
            &format!(
                "keyId=\"{KEY_ID}\",algorithm=\"hs2019\",created={created},\
                 headers=\"(request-target) host (created)\",signature=\"{}\"",
                b64(&signature)
            ),
        );
        assert!(verify(&req, ACTOR_PUB).is_ok());
        assert_eq!(
            verify_request(
                &req,
                "https",
                ACTOR_PUB,
                now() + TimeDelta::hours(3),
                skew()
            ),
            Err(SignatureError::DateOutOfRange)
        );
    }

    // --- RFC 9421 test vectors (RFC 9421 §2.5, §3.2, §4.3, Appendix B.2) ---------------------
    // Copied from the RFC text; the trailing `\` of RFC 8792 line wrapping is Rust's string
    // continuation, which drops the line break and the next line's indentation the same way.

    const BASE_S25: &str = "\"@method\": POST\n\
        \"@authority\": example.com\n\
        \"@path\": /foo\n\
        \"content-digest\": sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX\
          +TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:\n\
        \"content-length\": 18\n\
        \"content-type\": application/json\n\
        \"@signature-params\": (\"@method\" \"@authority\" \"@path\" \
          \"content-digest\" \"content-length\" \"content-type\")\
          ;created=1618884473;keyid=\"test-key-rsa-pss\"";

    const INPUT_S32: &str = "sig1=(\"@method\" \"@authority\" \"@path\" \
          \"content-digest\" \"content-length\" \"content-type\")\
          ;created=1618884473;keyid=\"test-key-rsa-pss\"";

    const SIG_S32: &str = "sig1=:HIbjHC5rS0BYaa9v4QfD4193TORw7u9edguPh0AW3dMq9WImrl\
          FrCGUDih47vAxi4L2YRZ3XMJc1uOKk/J0ZmZ+wcta4nKIgBkKq0rM9hs3CQyxXGxH\
          LMCy8uqK488o+9jrptQ+xFPHK7a9sRL1IXNaagCNN3ZxJsYapFj+JXbmaI5rtAdSf\
          SvzPuBCh+ARHBmWuNo1UzVVdHXrl8ePL4cccqlazIJdC4QEjrF+Sn4IxBQzTZsL9y\
          9TP5FsZYzHvDqbInkTNigBcE9cKOYNFCn4D/WM7F6TNuZO9EgtzepLWcjTymlHzK7\
          aXq6Am6sfOrpIC49yXjj3ae6HRalVc/g==:";

    const BASE_PROXY: &str = "\"@method\": POST\n\
        \"@authority\": origin.host.internal.example\n\
        \"@path\": /foo\n\
        \"content-digest\": sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX\
          +TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:\n\
        \"content-type\": application/json\n\
        \"content-length\": 18\n\
        \"forwarded\": for=192.0.2.123;host=example.com;proto=https\n\
        \"@signature-params\": (\"@method\" \"@authority\" \"@path\" \
          \"content-digest\" \"content-type\" \"content-length\" \"forwarded\")\
          ;created=1618884480;keyid=\"test-key-rsa\";alg=\"rsa-v1_5-sha256\"\
          ;expires=1618884540";

    const INPUT_PROXY: &str = "sig1=(\"@method\" \"@authority\" \"@path\" \
            \"content-digest\" \"content-type\" \"content-length\")\
            ;created=1618884475;keyid=\"test-key-ecc-p256\", \
          proxy_sig=(\"@method\" \"@authority\" \"@path\" \"content-digest\" \
            \"content-type\" \"content-length\" \"forwarded\")\
            ;created=1618884480;keyid=\"test-key-rsa\";alg=\"rsa-v1_5-sha256\"\
            ;expires=1618884540";

    const SIG_PROXY: &str = "sig1=:X5spyd6CFnAG5QnDyHfqoSNICd+BUP4LYMz2Q0JXlb//4Ijpzp\
            +kve2w4NIyqeAuM7jTDX+sNalzA8ESSaHD3A==:, \
          proxy_sig=:S6ZzPXSdAMOPjN/6KXfXWNO/f7V6cHm7BXYUh3YD/fRad4BCaRZxP+\
            JH+8XY1I6+8Cy+CM5g92iHgxtRPz+MjniOaYmdkDcnL9cCpXJleXsOckpURl49G\
            wiyUpZ10KHgOEe11sx3G2gxI8S0jnxQB+Pu68U9vVcasqOWAEObtNKKZd8tSFu7\
            LB5YAv0RAGhB8tmpv7sFnIm9y+7X5kXQfi8NMaZaA8i2ZHwpBdg7a6CMfwnnrtf\
            lzvZdXAsD3LH2TwevU+/PBPv0B6NMNk93wUs/vfJvye+YuI87HU38lZHowtznbL\
            Vdp770I6VHR6WfgS9ddzirrswsE1w5o0LV/g==:";

    const BASE_B21: &str = "\"@signature-params\": ();created=1618884473;keyid=\"test-key-rsa-pss\"\
          ;nonce=\"b3k2pp5k7z-50gnwp.yemd\"";

    const INPUT_B21: &str = "sig-b21=();created=1618884473\
          ;keyid=\"test-key-rsa-pss\";nonce=\"b3k2pp5k7z-50gnwp.yemd\"";

    const SIG_B21: &str = "sig-b21=:d2pmTvmbncD3xQm8E9ZV2828BjQWGgiwAaw5bAkgibUopem\
          LJcWDy/lkbbHAve4cRAtx31Iq786U7it++wgGxbtRxf8Udx7zFZsckzXaJMkA7ChG\
          52eSkFxykJeNqsrWH5S+oxNFlD4dzVuwe8DhTSja8xxbR/Z2cOGdCbzR72rgFWhzx\
          2VjBqJzsPLMIQKhO4DGezXehhWwE56YCE+O6c0mKZsfxVrogUvA4HELjVKWmAvtl6\
          UnCh8jYzuVG5WSb/QEVPnP5TmcAnLH1g+s++v6d4s8m0gCw1fV5/SITLq9mhho8K3\
          +7EPYTU8IU1bLhdxO5Nyt8C8ssinQ98Xw9Q==:";

    const BASE_B22: &str = "\"@authority\": example.com\n\
        \"content-digest\": sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX\
          +TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:\n\
        \"@query-param\";name=\"Pet\": dog\n\
        \"@signature-params\": (\"@authority\" \"content-digest\" \
          \"@query-param\";name=\"Pet\")\
          ;created=1618884473;keyid=\"test-key-rsa-pss\"\
          ;tag=\"header-example\"";

    const INPUT_B22: &str = "sig-b22=(\"@authority\" \"content-digest\" \
          \"@query-param\";name=\"Pet\");created=1618884473\
          ;keyid=\"test-key-rsa-pss\";tag=\"header-example\"";

    const SIG_B22: &str = "sig-b22=:LjbtqUbfmvjj5C5kr1Ugj4PmLYvx9wVjZvD9GsTT4F7GrcQ\
          EdJzgI9qHxICagShLRiLMlAJjtq6N4CDfKtjvuJyE5qH7KT8UCMkSowOB4+ECxCmT\
          8rtAmj/0PIXxi0A0nxKyB09RNrCQibbUjsLS/2YyFYXEu4TRJQzRw1rLEuEfY17SA\
          RYhpTlaqwZVtR8NV7+4UKkjqpcAoFqWFQh62s7Cl+H2fjBSpqfZUJcsIk4N6wiKYd\
          4je2U/lankenQ99PZfB4jY3I5rSV2DSBVkSFsURIjYErOs0tFTQosMTAoxk//0RoK\
          UqiYY8Bh0aaUEb0rQl3/XaVe4bXTugEjHSw==:";

    const BASE_B23: &str = "\"date\": Tue, 20 Apr 2021 02:07:55 GMT\n\
        \"@method\": POST\n\
        \"@path\": /foo\n\
        \"@query\": ?param=Value&Pet=dog\n\
        \"@authority\": example.com\n\
        \"content-type\": application/json\n\
        \"content-digest\": sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX\
          +TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:\n\
        \"content-length\": 18\n\
        \"@signature-params\": (\"date\" \"@method\" \"@path\" \"@query\" \
          \"@authority\" \"content-type\" \"content-digest\" \"content-length\")\
          ;created=1618884473;keyid=\"test-key-rsa-pss\"";

    const INPUT_B23: &str = "sig-b23=(\"date\" \"@method\" \"@path\" \"@query\" \
          \"@authority\" \"content-type\" \"content-digest\" \"content-length\")\
          ;created=1618884473;keyid=\"test-key-rsa-pss\"";

    const SIG_B23: &str = "sig-b23=:bbN8oArOxYoyylQQUU6QYwrTuaxLwjAC9fbY2F6SVWvh0yB\
          iMIRGOnMYwZ/5MR6fb0Kh1rIRASVxFkeGt683+qRpRRU5p2voTp768ZrCUb38K0fU\
          xN0O0iC59DzYx8DFll5GmydPxSmme9v6ULbMFkl+V5B1TP/yPViV7KsLNmvKiLJH1\
          pFkh/aYA2HXXZzNBXmIkoQoLd7YfW91kE9o/CCoC1xMy7JA1ipwvKvfrs65ldmlu9\
          bpG6A9BmzhuzF8Eim5f8ui9eH8LZH896+QIF61ka39VBrohr9iyMUJpvRX2Zbhl5Z\
          JzSRxpJyoEZAFL2FUo5fTIztsDZKEgM4cUA==:";

    const CONTENT_DIGEST: &str = "sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+T\
          aPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:";
    const RFC_BODY: &[u8] = br#"{"hello": "world"}"#;

    /// The RFC's `test-request` with a signature, seen at `created`.
    fn rfc_request(input: &str, signature: &str) -> RawBody {
        request(
            "POST",
            "/foo?param=Value&Pet=dog",
            &[
                ("Host", "example.com"),
                ("Date", "Tue, 20 Apr 2021 02:07:55 GMT"),
                ("Content-Type", "application/json"),
                ("Content-Digest", CONTENT_DIGEST),
                ("Content-Length", "18"),
                ("Signature-Input", input),
                ("Signature", signature),
            ],
            RFC_BODY,
        )
    }

    fn rfc_now() -> DateTime<Utc> {
        DateTime::from_timestamp(1_618_884_473, 0).unwrap()
    }

    fn rfc_verify(req: &RawBody, pem: &str) -> Result<Verified, SignatureError> {
        verify_request(req, "https", pem, rfc_now(), TimeDelta::minutes(5))
    }

    /// The signature base of the first (or `label`) signature, and whether it verifies.
    fn base_and_check(req: &RawBody, label: Option<&str>, pem: &str) -> (String, bool) {
        let sig = Rfc9421Signature::parse(req, label).unwrap();
        let base = signature_base(req, "https", &sig.input).unwrap();
        let ok = sig
            .verify(req, "https", &PublicKey::from_pem(pem).unwrap())
            .is_ok();
        (base, ok)
    }

    #[test]
    fn rfc9421_test_request_content_digest() {
        assert_eq!(
            CONTENT_DIGEST,
            format!("sha-512=:{}:", b64(&Sha512::digest(RFC_BODY)))
        );
        assert_eq!(check_content_digest(CONTENT_DIGEST, RFC_BODY), Ok(()));
        // RFC 9530's sha-256 example for the same body.
        let sha256 = "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:";
        assert_eq!(check_content_digest(sha256, RFC_BODY), Ok(()));
        assert_eq!(
            check_content_digest(sha256, b"{\"hello\": \"world!\"}"),
            Err(SignatureError::DigestMismatch)
        );
        assert!(matches!(
            check_content_digest("md5=:AAAA:", RFC_BODY),
            Err(SignatureError::UnsupportedAlgorithm(_))
        ));
    }

    #[test]
    fn rfc9421_b21_minimal_signature_rsa_pss_sha512() {
        let req = rfc_request(INPUT_B21, SIG_B21);
        assert_eq!(
            base_and_check(&req, None, RFC_PSS_PUB),
            (BASE_B21.to_string(), true)
        );
        assert_eq!(signature_key_id(&req).unwrap(), "test-key-rsa-pss");
        // Valid, but it covers nothing: not acceptable for a delivery.
        assert_eq!(
            rfc_verify(&req, RFC_PSS_PUB),
            Err(SignatureError::HeaderNotSigned("`@method`".into()))
        );
    }

    #[test]
    fn rfc9421_b22_selective_components_rsa_pss_sha512() {
        let req = rfc_request(INPUT_B22, SIG_B22);
        assert_eq!(
            base_and_check(&req, None, RFC_PSS_PUB),
            (BASE_B22.to_string(), true)
        );
        assert_eq!(
            rfc_verify(&req, RFC_PSS_PUB),
            Err(SignatureError::HeaderNotSigned("`@method`".into()))
        );
    }

    #[test]
    fn rfc9421_b23_full_coverage_rsa_pss_sha512() {
        let req = rfc_request(INPUT_B23, SIG_B23);
        assert_eq!(
            base_and_check(&req, None, RFC_PSS_PUB),
            (BASE_B23.to_string(), true)
        );
        assert_eq!(
            rfc_verify(&req, RFC_PSS_PUB).unwrap(),
            Verified {
                key_id: "test-key-rsa-pss".into(),
                scheme: SignatureScheme::Rfc9421
            }
        );
        assert_eq!(
            rfc_verify(&req, RFC_RSA_PUB),
            Err(SignatureError::BadSignature)
        );
        let mut tampered = req.clone();
        tampered.bytes = b"{\"hello\": \"world!\"}".to_vec();
        assert_eq!(
            rfc_verify(&tampered, RFC_PSS_PUB),
            Err(SignatureError::DigestMismatch)
        );
        let mut moved = req.clone();
        moved.target = "/foo?param=Value&Pet=cat".into();
        assert_eq!(
            rfc_verify(&moved, RFC_PSS_PUB),
            Err(SignatureError::BadSignature)
        );
        let a_day_later = rfc_now() + TimeDelta::days(1);
        assert_eq!(
            verify_request(&req, "https", RFC_PSS_PUB, a_day_later, TimeDelta::hours(1)),
            Err(SignatureError::DateOutOfRange)
        );
    }

    #[test]
    fn rfc9421_section_3_2_verification_example_rsa_pss_sha512() {
        let req = rfc_request(INPUT_S32, SIG_S32);
        assert_eq!(
            base_and_check(&req, None, RFC_PSS_PUB),
            (BASE_S25.to_string(), true)
        );
        assert_eq!(
            rfc_verify(&req, RFC_PSS_PUB).unwrap().key_id,
            "test-key-rsa-pss"
        );
    }

    /// The RFC's §4.3 request as forwarded by the proxy, with `input`/`signature`.
    fn proxy_request(input: &str, signature: &str) -> RawBody {
        request(
            "POST",
            "/foo?param=Value&Pet=dog",
            &[
                ("Host", "origin.host.internal.example"),
                ("Date", "Tue, 20 Apr 2021 02:07:56 GMT"),
                ("Content-Type", "application/json"),
                ("Content-Length", "18"),
                ("Forwarded", "for=192.0.2.123;host=example.com;proto=https"),
                ("Content-Digest", CONTENT_DIGEST),
                ("Signature-Input", input),
                ("Signature", signature),
            ],
            RFC_BODY,
        )
    }

    #[test]
    fn rfc9421_section_4_3_proxy_signature_rsa_v1_5_sha256() {
        let req = proxy_request(INPUT_PROXY, SIG_PROXY);
        assert_eq!(
            base_and_check(&req, Some("proxy_sig"), RFC_RSA_PUB),
            (BASE_PROXY.to_string(), true)
        );
        // The first label is the client's ECDSA signature, which an RSA key cannot verify.
        assert_eq!(signature_key_id(&req).unwrap(), "test-key-ecc-p256");
        let created = DateTime::from_timestamp(1_618_884_480, 0).unwrap();
        assert_eq!(
            verify_request(&req, "https", RFC_RSA_PUB, created, skew()),
            Err(SignatureError::BadSignature)
        );
        // With the proxy's signature alone, the whole verification passes until it expires.
        let (_, input) = INPUT_PROXY.split_once(", proxy_sig=").unwrap();
        let (_, signature) = SIG_PROXY.split_once(", proxy_sig=").unwrap();
        let only_proxy = proxy_request(
            &format!("proxy_sig={input}"),
            &format!("proxy_sig={signature}"),
        );
        assert_eq!(
            verify_request(&only_proxy, "https", RFC_RSA_PUB, created, skew())
                .unwrap()
                .key_id,
            "test-key-rsa"
        );
        let after = DateTime::from_timestamp(1_618_884_541, 0).unwrap();
        assert_eq!(
            verify_request(&only_proxy, "https", RFC_RSA_PUB, after, skew()),
            Err(SignatureError::Expired)
        );
    }

    // --- RFC 9421 with our own keys ----------------------------------------------------------

    /// Adds an RFC 9421 signature labelled `sig1` with `member` as its Signature-Input value.
    fn rfc9421_sign(req: &mut RawBody, member: &str, alg: SignatureAlgorithm) {
        set_header(req, "signature-input", &format!("sig1={member}"));
        let input = first_input(req);
        let base = signature_base(req, "https", &input).unwrap();
        let signature = actor_key().sign(alg, base.as_bytes()).unwrap();
        set_header(req, "signature", &format!("sig1=:{}:", b64(&signature)));
    }

    /// The first Signature-Input member of `req`.
    fn first_input(req: &RawBody) -> InnerList {
        let dict: Dictionary = Parser::new(req.header("signature-input").unwrap())
            .parse()
            .unwrap();
        match dict.first() {
            Some((_, ListEntry::InnerList(input))) => input.clone(),
            other => panic!("not an inner list: {other:?}"),
        }
    }

    fn delivery() -> RawBody {
        request(
            "POST",
            "/users/bob/inbox",
            &[
                ("host", "r.example"),
                (
                    "content-digest",
                    &format!("sha-256=:{}:", b64(&Sha256::digest(BODY))),
                ),
            ],
            BODY,
        )
    }

    #[test]
    fn rfc9421_round_trips_with_both_algorithms() {
        let created = now().timestamp();
        for (alg, param) in [
            (
                SignatureAlgorithm::RsaPkcs1v15Sha256,
                ";alg=\"rsa-v1_5-sha256\"",
            ),
            (SignatureAlgorithm::RsaPssSha512, ";alg=\"rsa-pss-sha512\""),
            (SignatureAlgorithm::RsaPkcs1v15Sha256, ""),
            (SignatureAlgorithm::RsaPssSha512, ""),
        ] {
            let mut req = delivery();
            rfc9421_sign(
                &mut req,
                &format!(
                    "(\"@method\" \"@target-uri\" \"content-digest\");created={created}\
                     ;keyid=\"{KEY_ID}\"{param}"
                ),
                alg,
            );
            assert_eq!(
                verify(&req, ACTOR_PUB).unwrap(),
                Verified {
                    key_id: KEY_ID.into(),
                    scheme: SignatureScheme::Rfc9421
                }
            );
            // @target-uri includes the scheme the request arrived with.
            assert_eq!(
                verify_request(&req, "http", ACTOR_PUB, now(), skew()),
                Err(SignatureError::BadSignature)
            );
        }
    }

    #[test]
    fn rfc9421_requirements() {
        let created = now().timestamp();
        let cases = [
            (
                format!("(\"@target-uri\" \"content-digest\");created={created};keyid=\"k\""),
                SignatureError::HeaderNotSigned("`@method`".into()),
            ),
            (
                format!("(\"@method\" \"@path\" \"content-digest\");created={created};keyid=\"k\""),
                SignatureError::HeaderNotSigned(
                    "`@target-uri` (or `@authority` and `@path`)".into(),
                ),
            ),
            (
                format!("(\"@method\" \"@target-uri\");created={created};keyid=\"k\""),
                SignatureError::HeaderNotSigned("`content-digest`".into()),
            ),
            (
                "(\"@method\" \"@target-uri\" \"content-digest\");keyid=\"k\"".to_string(),
                SignatureError::HeaderNotSigned("`date` (or a `created` parameter)".into()),
            ),
            (
                format!(
                    "(\"@method\" \"@target-uri\" \"content-digest\");created={};keyid=\"k\"",
                    created - 7200
                ),
                SignatureError::DateOutOfRange,
            ),
            (
                format!(
                    "(\"@method\" \"@target-uri\" \"content-digest\");created={created}\
                     ;expires={};keyid=\"k\"",
                    created - 1
                ),
                SignatureError::Expired,
            ),
            (
                format!(
                    "(\"@method\" \"@target-uri\" \"content-digest\");created={created}\
                     ;keyid=\"k\";alg=\"ed25519\""
                ),
                SignatureError::UnsupportedAlgorithm("ed25519".into()),
            ),
        ];
        for (member, expected) in cases {
            let mut req = delivery();
            rfc9421_sign(&mut req, &member, SignatureAlgorithm::RsaPkcs1v15Sha256);
            assert_eq!(verify(&req, ACTOR_PUB), Err(expected), "{member}");
        }
        let mut req = delivery();
        rfc9421_sign(
            &mut req,
            &format!(
                "(\"@method\" \"@target-uri\" \"content-digest\");created={created};keyid=\"k\""
            ),
            SignatureAlgorithm::RsaPkcs1v15Sha256,
        );
        req.headers.retain(|(k, _)| k != "content-digest");
        assert_eq!(verify(&req, ACTOR_PUB), Err(SignatureError::MissingDigest));

        for (input, signature) in [
            ("sig1=(\"@method\");keyid=\"k\"", "other=:AAAA:"),
            ("sig1=(\"@method\")", "sig1=:AAAA:"),
            ("sig1=(@method);keyid=\"k\"", "sig1=:AAAA:"),
            ("sig1=\"x\";keyid=\"k\"", "sig1=:AAAA:"),
        ] {
            let mut req = delivery();
            set_header(&mut req, "signature-input", input);
            set_header(&mut req, "signature", signature);
            assert!(
                matches!(verify(&req, ACTOR_PUB), Err(SignatureError::Malformed(_))),
                "{input}"
            );
        }
    }

    // --- RFC 9421 §2 component values ---------------------------------------------------------

    /// The value of the component identified by `id` (an sf-item such as `"@path"`).
    fn component(req: &RawBody, id: &str) -> Result<String, SignatureError> {
        let item: Item = Parser::new(id).parse().unwrap();
        let name = item.bare_item.as_string().unwrap().as_str().to_string();
        if name.starts_with('@') {
            derived_component(req, "https", &name, &item)
        } else {
            field_component(req, &name, &item)
        }
    }

    #[test]
    fn rfc9421_field_values() {
        let req = request(
            "GET",
            "/",
            &[
                ("Host", "www.example.com"),
                ("X-OWS-Header", "   Leading and trailing whitespace.   "),
                ("X-Obs-Fold-Header", "Obsolete\r\n    line folding."),
                ("Cache-Control", "max-age=60"),
                ("Cache-Control", "   must-revalidate"),
                ("Example-Dict", " a=1,    b=2;x=1;y=2,   c=(a   b   c)"),
                ("X-Empty-Header", ""),
                ("Example-Header", "value, with, lots"),
                ("Example-Header", "of, commas"),
            ],
            b"",
        );
        let expect = [
            ("\"x-ows-header\"", "Leading and trailing whitespace."),
            ("\"x-obs-fold-header\"", "Obsolete line folding."),
            ("\"cache-control\"", "max-age=60, must-revalidate"),
            ("\"example-dict\"", "a=1,    b=2;x=1;y=2,   c=(a   b   c)"),
            ("\"example-dict\";sf", "a=1, b=2;x=1;y=2, c=(a b c)"),
            ("\"x-empty-header\"", ""),
            (
                "\"example-header\";bs",
                ":dmFsdWUsIHdpdGgsIGxvdHM=:, :b2YsIGNvbW1hcw==:",
            ),
        ];
        for (id, value) in expect {
            assert_eq!(component(&req, id).unwrap(), value, "{id}");
        }
        let dict = request(
            "GET",
            "/",
            &[("Example-Dict", "  a=1, b=2;x=1;y=2, c=(a   b    c), d")],
            b"",
        );
        for (key, value) in [
            ("a", "1"),
            ("d", "?1"),
            ("b", "2;x=1;y=2"),
            ("c", "(a b c)"),
        ] {
            let id = format!("\"example-dict\";key=\"{key}\"");
            assert_eq!(component(&dict, &id).unwrap(), value, "{id}");
        }
        for bad in [
            "\"example-dict\";key=\"zz\"",
            "\"missing-header\"",
            "\"example-dict\";req",
            "\"example-dict\";tr",
            "\"example-dict\";bs;sf",
            "\"example-dict\";unknown",
        ] {
            assert!(
                matches!(component(&dict, bad), Err(SignatureError::Malformed(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn rfc9421_derived_values() {
        let req = request(
            "POST",
            "/path?param=value",
            &[("Host", "www.example.com")],
            b"",
        );
        let expect = [
            ("\"@method\"", "POST"),
            (
                "\"@target-uri\"",
                "https://www.example.com/path?param=value",
            ),
            ("\"@authority\"", "www.example.com"),
            ("\"@scheme\"", "https"),
            ("\"@request-target\"", "/path?param=value"),
            ("\"@path\"", "/path"),
            ("\"@query\"", "?param=value"),
        ];
        for (id, value) in expect {
            assert_eq!(component(&req, id).unwrap(), value, "{id}");
        }
        let bare = request("GET", "/", &[("Host", "WWW.Example.com:443")], b"");
        assert_eq!(component(&bare, "\"@query\"").unwrap(), "?");
        assert_eq!(
            component(&bare, "\"@authority\"").unwrap(),
            "www.example.com"
        );
        let odd_port = request("GET", "/", &[("Host", "example.com:8443")], b"");
        assert_eq!(
            component(&odd_port, "\"@authority\"").unwrap(),
            "example.com:8443"
        );

        let params = request(
            "GET",
            "/parameters?var=this%20is%20a%20big%0Amultiline%20value&\
             bar=with+plus+whitespace&fa%C3%A7ade%22%3A%20=something",
            &[("Host", "www.example.com")],
            b"",
        );
        for (name, value) in [
            ("var", "this%20is%20a%20big%0Amultiline%20value"),
            ("bar", "with%20plus%20whitespace"),
            ("fa%C3%A7ade%22%3A%20", "something"),
        ] {
            let id = format!("\"@query-param\";name=\"{name}\"");
            assert_eq!(component(&params, &id).unwrap(), value, "{id}");
        }
        let simple = request(
            "GET",
            "/path?param=value&foo=bar&baz=batman&qux=&foo=2",
            &[],
            b"",
        );
        assert_eq!(
            component(&simple, "\"@query-param\";name=\"baz\"").unwrap(),
            "batman"
        );
        assert_eq!(
            component(&simple, "\"@query-param\";name=\"qux\"").unwrap(),
            ""
        );
        for bad in [
            "\"@query-param\";name=\"foo\"",
            "\"@query-param\";name=\"nope\"",
            "\"@query-param\"",
            "\"@status\"",
            "\"@signature-params\"",
            "\"@unknown\"",
            "\"@method\";req",
            "\"@authority\"",
        ] {
            assert!(
                matches!(component(&simple, bad), Err(SignatureError::Malformed(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn rfc9421_refuses_duplicate_components() {
        let mut req = delivery();
        set_header(
            &mut req,
            "signature-input",
            "sig1=(\"@method\" \"x\";a;b \"x\";b;a);keyid=\"k\"",
        );
        let input = first_input(&req);
        assert!(matches!(
            signature_base(&req, "https", &input),
            Err(SignatureError::Malformed(_))
        ));
    }
}
