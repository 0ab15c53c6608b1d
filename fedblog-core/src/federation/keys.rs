//! RSA key pairs for ActivityPub actors: making them, reading them from PEM, signing and
//! verifying.
//!
//! Mastodon gives every actor a 2048-bit RSA key, publishes the public half as an SPKI PEM
//! (`-----BEGIN PUBLIC KEY-----`) in the actor's `publicKey.publicKeyPem`, and signs requests
//! with RSASSA-PKCS1-v1_5 over SHA-256. RFC 9421 adds RSASSA-PSS over SHA-512. Both are here.
//!
//! Reading is tolerant, because keys come from other servers: PKCS#8 or PKCS#1 private keys,
//! SPKI or PKCS#1 public keys, either with the `rsaEncryption` or the `id-RSASSA-PSS` algorithm
//! identifier, any line width, `\r\n` line endings and surrounding whitespace.

use std::fmt;

use base64::Engine as _;
use rsa::pkcs1::DecodeRsaPrivateKey as _;
use rsa::pkcs8::der::Decode as _;
use rsa::pkcs8::der::pem::LineEnding;
use rsa::pkcs8::{EncodePrivateKey as _, EncodePublicKey as _};
use rsa::rand_core::OsRng;
use rsa::traits::PublicKeyParts as _;
use rsa::{BigUint, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey};
use sha2::{Digest as _, Sha256, Sha512};

/// The size of the keys [`generate_key_pair`] makes, as Mastodon's.
pub const KEY_BITS: usize = 2048;

/// The smallest RSA key accepted, private or public: shorter keys can be forged.
pub const MIN_KEY_BITS: usize = 2048;

/// The largest RSA public key accepted (verification cost grows with the size).
pub const MAX_KEY_BITS: usize = 8192;

/// `rsaEncryption` (PKCS#1), the usual algorithm identifier of an RSA key.
const OID_RSA_ENCRYPTION: &str = "1.2.840.113549.1.1.1";
/// `id-RSASSA-PSS`, the identifier of an RSA key restricted to PSS (RFC 9421's test key).
const OID_RSASSA_PSS: &str = "1.2.840.113549.1.1.10";

/// Why a key could not be made, read or used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// The text is not a PEM document of a kind read here.
    #[error("invalid PEM: {0}")]
    InvalidPem(String),
    /// The PEM holds something other than a usable RSA key.
    #[error("unsupported key: {0}")]
    Unsupported(String),
    /// Key generation failed.
    #[error("key generation failed: {0}")]
    Generation(String),
    /// Encoding a key as PEM failed.
    #[error("key encoding failed: {0}")]
    Encoding(String),
    /// Signing failed.
    #[error("signing failed: {0}")]
    Signing(String),
}

/// A signature algorithm over an RSA key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignatureAlgorithm {
    /// RSASSA-PKCS1-v1_5 with SHA-256: draft-cavage `rsa-sha256`, RFC 9421 `rsa-v1_5-sha256`.
    /// What Mastodon signs with.
    RsaPkcs1v15Sha256,
    /// RSASSA-PSS with SHA-512, MGF1-SHA-512 and a 64-byte salt: RFC 9421 `rsa-pss-sha512`.
    RsaPssSha512,
}

impl SignatureAlgorithm {
    /// The algorithm an RFC 9421 `alg` parameter or a draft-cavage `algorithm` names:
    /// `rsa-v1_5-sha256` or `rsa-sha256`, and `rsa-pss-sha512`. `None` for any other name.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "rsa-v1_5-sha256" | "rsa-sha256" => Some(Self::RsaPkcs1v15Sha256),
            "rsa-pss-sha512" => Some(Self::RsaPssSha512),
            _ => None,
        }
    }

    /// The name in the RFC 9421 HTTP Signature Algorithms registry.
    pub fn rfc9421_name(self) -> &'static str {
        match self {
            Self::RsaPkcs1v15Sha256 => "rsa-v1_5-sha256",
            Self::RsaPssSha512 => "rsa-pss-sha512",
        }
    }
}

/// A new key pair as PEM text, ready to store on an account.
#[derive(Clone, PartialEq, Eq)]
pub struct KeyPair {
    /// The private key, PKCS#8 (`-----BEGIN PRIVATE KEY-----`), LF line endings.
    pub private_key_pem: String,
    /// The public key, SPKI (`-----BEGIN PUBLIC KEY-----`), LF line endings: what the actor
    /// document publishes as `publicKeyPem`.
    pub public_key_pem: String,
}

impl fmt::Debug for KeyPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyPair")
            .field("private_key_pem", &"<redacted>")
            .field("public_key_pem", &self.public_key_pem)
            .finish()
    }
}

/// Makes a new 2048-bit RSA key pair from the operating system's random source.
///
/// This is CPU-heavy (a fraction of a second to a few seconds): run it off the async executor.
pub fn generate_key_pair() -> Result<KeyPair, KeyError> {
    let key = RsaPrivateKey::new(&mut OsRng, KEY_BITS)
        .map_err(|e| KeyError::Generation(e.to_string()))?;
    let private_key_pem = key
        .to_pkcs8_pem(LineEnding::LF)
        .map_err(|e| KeyError::Encoding(e.to_string()))?
        .to_string();
    let public_key_pem = key
        .to_public_key()
        .to_public_key_pem(LineEnding::LF)
        .map_err(|e| KeyError::Encoding(e.to_string()))?;
    Ok(KeyPair {
        private_key_pem,
        public_key_pem,
    })
}

/// An RSA private key, for signing.
#[derive(Clone)]
pub struct PrivateKey {
    key: RsaPrivateKey,
}

impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PrivateKey")
            .field("bits", &self.bits())
            .finish_non_exhaustive()
    }
}

impl PrivateKey {
    /// Reads a private key from PEM: PKCS#8 (`BEGIN PRIVATE KEY`) or PKCS#1
    /// (`BEGIN RSA PRIVATE KEY`). Encrypted keys are not read.
    pub fn from_pem(pem: &str) -> Result<Self, KeyError> {
        let (label, der) = decode_pem(pem)?;
        let key = match label.as_str() {
            "PRIVATE KEY" => {
                let info = rsa::pkcs8::PrivateKeyInfo::from_der(&der)
                    .map_err(|e| KeyError::InvalidPem(format!("not a PKCS#8 private key: {e}")))?;
                check_rsa_algorithm(&info.algorithm.oid.to_string())?;
                RsaPrivateKey::from_pkcs1_der(info.private_key)
                    .map_err(|e| KeyError::Unsupported(format!("not an RSA private key: {e}")))?
            }
            "RSA PRIVATE KEY" => RsaPrivateKey::from_pkcs1_der(&der)
                .map_err(|e| KeyError::Unsupported(format!("not an RSA private key: {e}")))?,
            other => {
                return Err(KeyError::InvalidPem(format!(
                    "expected a private key, found `{other}`"
                )));
            }
        };
        key.validate()
            .map_err(|e| KeyError::Unsupported(format!("inconsistent RSA private key: {e}")))?;
        let bits = key.n().bits();
        if bits < MIN_KEY_BITS {
            return Err(KeyError::Unsupported(format!(
                "{bits}-bit RSA key, at least {MIN_KEY_BITS} bits are required"
            )));
        }
        Ok(PrivateKey { key })
    }

    /// The modulus size in bits.
    pub fn bits(&self) -> usize {
        self.key.n().bits()
    }

    /// The matching public key.
    pub fn public_key(&self) -> PublicKey {
        PublicKey {
            key: self.key.to_public_key(),
        }
    }

    /// Signs `data` (hashing it with the algorithm's digest). RSA blinding is used against timing
    /// attacks; PKCS#1 v1.5 signatures are deterministic, PSS ones are not.
    pub fn sign(&self, alg: SignatureAlgorithm, data: &[u8]) -> Result<Vec<u8>, KeyError> {
        let result = match alg {
            SignatureAlgorithm::RsaPkcs1v15Sha256 => self.key.sign_with_rng(
                &mut OsRng,
                Pkcs1v15Sign::new::<Sha256>(),
                &Sha256::digest(data),
            ),
            SignatureAlgorithm::RsaPssSha512 => self.key.sign_with_rng(
                &mut OsRng,
                Pss::new_blinded::<Sha512>(),
                &Sha512::digest(data),
            ),
        };
        result.map_err(|e| KeyError::Signing(e.to_string()))
    }
}

/// An RSA public key, for verifying.
#[derive(Clone, PartialEq, Eq)]
pub struct PublicKey {
    key: RsaPublicKey,
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PublicKey")
            .field("bits", &self.bits())
            .finish_non_exhaustive()
    }
}

impl PublicKey {
    /// Reads a public key from PEM: SPKI (`BEGIN PUBLIC KEY`) or PKCS#1 (`BEGIN RSA PUBLIC KEY`).
    /// Surrounding whitespace, `\r\n` line endings and any line width are accepted.
    pub fn from_pem(pem: &str) -> Result<Self, KeyError> {
        let (label, der) = decode_pem(pem)?;
        let pkcs1 = match label.as_str() {
            "PUBLIC KEY" => {
                let spki = rsa::pkcs8::SubjectPublicKeyInfoRef::from_der(&der).map_err(|e| {
                    KeyError::InvalidPem(format!("not a SubjectPublicKeyInfo: {e}"))
                })?;
                check_rsa_algorithm(&spki.algorithm.oid.to_string())?;
                let bits = spki.subject_public_key.as_bytes().ok_or_else(|| {
                    KeyError::Unsupported("the public key is not a whole number of bytes".into())
                })?;
                rsa::pkcs1::RsaPublicKey::from_der(bits)
                    .map_err(|e| KeyError::Unsupported(format!("not an RSA public key: {e}")))?
            }
            "RSA PUBLIC KEY" => rsa::pkcs1::RsaPublicKey::from_der(&der)
                .map_err(|e| KeyError::Unsupported(format!("not an RSA public key: {e}")))?,
            other => {
                return Err(KeyError::InvalidPem(format!(
                    "expected a public key, found `{other}`"
                )));
            }
        };
        let n = BigUint::from_bytes_be(pkcs1.modulus.as_bytes());
        let e = BigUint::from_bytes_be(pkcs1.public_exponent.as_bytes());
        let key = RsaPublicKey::new_with_max_size(n, e, MAX_KEY_BITS)
            .map_err(|e| KeyError::Unsupported(format!("unusable RSA public key: {e}")))?;
        let bits = key.n().bits();
        if bits < MIN_KEY_BITS {
            return Err(KeyError::Unsupported(format!(
                "{bits}-bit RSA key, at least {MIN_KEY_BITS} bits are required"
            )));
        }
        Ok(PublicKey { key })
    }

    /// The modulus size in bits.
    pub fn bits(&self) -> usize {
        self.key.n().bits()
    }

    /// The key as SPKI PEM (`-----BEGIN PUBLIC KEY-----`), LF line endings.
    pub fn to_pem(&self) -> Result<String, KeyError> {
        self.key
            .to_public_key_pem(LineEnding::LF)
            .map_err(|e| KeyError::Encoding(e.to_string()))
    }

    /// Whether `sig` is a valid signature of `data` by this key's private half under `alg`.
    pub fn verify(&self, alg: SignatureAlgorithm, data: &[u8], sig: &[u8]) -> bool {
        match alg {
            SignatureAlgorithm::RsaPkcs1v15Sha256 => self
                .key
                .verify(Pkcs1v15Sign::new::<Sha256>(), &Sha256::digest(data), sig)
                .is_ok(),
            SignatureAlgorithm::RsaPssSha512 => self
                .key
                .verify(Pss::new::<Sha512>(), &Sha512::digest(data), sig)
                .is_ok(),
        }
    }
}

/// Refuses keys whose algorithm identifier is not RSA.
fn check_rsa_algorithm(oid: &str) -> Result<(), KeyError> {
    if oid == OID_RSA_ENCRYPTION || oid == OID_RSASSA_PSS {
        Ok(())
    } else {
        Err(KeyError::Unsupported(format!(
            "algorithm {oid} is not RSA (only RSA keys are supported)"
        )))
    }
}

/// The label and bytes of the first PEM block in `text`. Lenient about whitespace: lines may be
/// of any width, end in `\r\n`, and be indented; the base64 may lack padding.
fn decode_pem(text: &str) -> Result<(String, Vec<u8>), KeyError> {
    const BEGIN: &str = "-----BEGIN ";
    const DASHES: &str = "-----";
    let start = text
        .find(BEGIN)
        .ok_or_else(|| KeyError::InvalidPem("no `-----BEGIN` line".into()))?;
    let after_begin = &text[start + BEGIN.len()..];
    let label_end = after_begin
        .find(DASHES)
        .ok_or_else(|| KeyError::InvalidPem("unterminated `-----BEGIN` line".into()))?;
    let label = after_begin[..label_end].trim().to_string();
    let body = &after_begin[label_end + DASHES.len()..];
    let end_marker = format!("-----END {label}-----");
    let body_end = body
        .find(&end_marker)
        .ok_or_else(|| KeyError::InvalidPem(format!("no `{end_marker}` line")))?;
    let body = &body[..body_end];
    if body.contains(':') {
        // RFC 1421 headers (`Proc-Type: 4,ENCRYPTED`) mean an encrypted legacy key.
        return Err(KeyError::Unsupported(
            "encrypted PEM keys are not supported".into(),
        ));
    }
    let b64: String = body.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let der = LENIENT_BASE64
        .decode(b64.as_bytes())
        .map_err(|e| KeyError::InvalidPem(format!("bad base64: {e}")))?;
    if der.is_empty() {
        return Err(KeyError::InvalidPem("empty PEM block".into()));
    }
    Ok((label, der))
}

/// Standard base64, padding optional.
const LENIENT_BASE64: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    base64::engine::GeneralPurposeConfig::new()
        .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
);

#[cfg(test)]
mod tests {
    use super::*;

    use super::test_keys::*;

    const ALGS: [SignatureAlgorithm; 2] = [
        SignatureAlgorithm::RsaPkcs1v15Sha256,
        SignatureAlgorithm::RsaPssSha512,
    ];

    #[test]
    fn generated_pair_is_pkcs8_and_spki_with_lf_and_round_trips() {
        // The only test that generates a key (slow without optimisation).
        let pair = generate_key_pair().unwrap();
        assert!(
            pair.private_key_pem
                .starts_with("-----BEGIN PRIVATE KEY-----\n")
        );
        assert!(
            pair.private_key_pem
                .trim_end()
                .ends_with("-----END PRIVATE KEY-----")
        );
        assert!(
            pair.public_key_pem
                .starts_with("-----BEGIN PUBLIC KEY-----\n")
        );
        assert!(
            pair.public_key_pem
                .trim_end()
                .ends_with("-----END PUBLIC KEY-----")
        );
        assert!(!pair.private_key_pem.contains('\r'));
        assert!(!pair.public_key_pem.contains('\r'));
        assert!(!format!("{pair:?}").contains("BEGIN PRIVATE KEY"));

        let private = PrivateKey::from_pem(&pair.private_key_pem).unwrap();
        let public = PublicKey::from_pem(&pair.public_key_pem).unwrap();
        assert_eq!(private.bits(), 2048);
        assert_eq!(public.bits(), 2048);
        assert_eq!(private.public_key(), public);
        assert_eq!(public.to_pem().unwrap(), pair.public_key_pem);
        for alg in ALGS {
            let sig = private.sign(alg, b"hello").unwrap();
            assert_eq!(sig.len(), 256);
            assert!(public.verify(alg, b"hello", &sig));
            assert!(!public.verify(alg, b"hellO", &sig));
        }
    }

    #[test]
    fn reads_pkcs1_keys_and_signs_deterministically_with_v1_5() {
        let private = PrivateKey::from_pem(RFC_RSA_KEY).unwrap();
        let public = PublicKey::from_pem(RFC_RSA_PUB).unwrap();
        assert_eq!(private.public_key(), public);
        let a = private
            .sign(SignatureAlgorithm::RsaPkcs1v15Sha256, b"data")
            .unwrap();
        let b = private
            .sign(SignatureAlgorithm::RsaPkcs1v15Sha256, b"data")
            .unwrap();
        assert_eq!(
            a, b,
            "PKCS#1 v1.5 is deterministic, blinding must not change it"
        );
        assert!(public.verify(SignatureAlgorithm::RsaPkcs1v15Sha256, b"data", &a));
        // The right bytes under the wrong algorithm do not verify.
        assert!(!public.verify(SignatureAlgorithm::RsaPssSha512, b"data", &a));
    }

    #[test]
    fn reads_pkcs8_keys_with_the_pss_algorithm_identifier() {
        // RFC 9421's test-key-rsa-pss: PKCS#8 private key tagged id-RSASSA-PSS.
        let private = PrivateKey::from_pem(RFC_PSS_KEY).unwrap();
        let public = PublicKey::from_pem(RFC_PSS_PUB).unwrap();
        assert_eq!(private.public_key(), public);
        let sig = private
            .sign(SignatureAlgorithm::RsaPssSha512, b"x")
            .unwrap();
        assert!(public.verify(SignatureAlgorithm::RsaPssSha512, b"x", &sig));
        assert!(!public.verify(SignatureAlgorithm::RsaPkcs1v15Sha256, b"x", &sig));
    }

    #[test]
    fn public_pem_reading_is_tolerant_of_layout() {
        let expected = PublicKey::from_pem(ACTOR_PUB).unwrap();
        let crlf = format!("\n  {}  \r\n", ACTOR_PUB.replace('\n', "\r\n"));
        assert_eq!(PublicKey::from_pem(&crlf).unwrap(), expected);
        // One long line of base64, as some servers publish it.
        let body: String = ACTOR_PUB
            .lines()
            .filter(|l| !l.starts_with("-----"))
            .collect();
        let one_line = format!("-----BEGIN PUBLIC KEY-----\n{body}\n-----END PUBLIC KEY-----");
        assert_eq!(PublicKey::from_pem(&one_line).unwrap(), expected);
        let private = PrivateKey::from_pem(&ACTOR_KEY.replace('\n', "\r\n")).unwrap();
        assert_eq!(private.public_key(), expected);
    }

    #[test]
    fn refuses_what_is_not_an_rsa_key_of_the_right_kind() {
        assert!(matches!(
            PublicKey::from_pem(""),
            Err(KeyError::InvalidPem(_))
        ));
        assert!(matches!(
            PublicKey::from_pem("-----BEGIN PUBLIC KEY-----\n!!!\n-----END PUBLIC KEY-----"),
            Err(KeyError::InvalidPem(_))
        ));
        // A private key where a public one is expected, and the other way round.
        assert!(matches!(
            PublicKey::from_pem(ACTOR_KEY),
            Err(KeyError::InvalidPem(_))
        ));
        assert!(matches!(
            PrivateKey::from_pem(ACTOR_PUB),
            Err(KeyError::InvalidPem(_))
        ));
        // RFC 9421's Ed25519 test key.
        let ed25519 = "-----BEGIN PUBLIC KEY-----\n\
            MCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=\n\
            -----END PUBLIC KEY-----\n";
        assert!(matches!(
            PublicKey::from_pem(ed25519),
            Err(KeyError::Unsupported(_))
        ));
        let encrypted = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\
            DEK-Info: AES-128-CBC,00\n\nAAAA\n-----END RSA PRIVATE KEY-----\n";
        assert!(matches!(
            PrivateKey::from_pem(encrypted),
            Err(KeyError::Unsupported(_))
        ));
    }

    #[test]
    fn algorithm_names() {
        for alg in ALGS {
            assert_eq!(SignatureAlgorithm::from_name(alg.rfc9421_name()), Some(alg));
        }
        assert_eq!(
            SignatureAlgorithm::from_name("rsa-sha256"),
            Some(SignatureAlgorithm::RsaPkcs1v15Sha256)
        );
        assert_eq!(SignatureAlgorithm::from_name("hs2019"), None);
        assert_eq!(SignatureAlgorithm::from_name("ed25519"), None);
    }
}

/// The fixed keys the tests of this module and of `signatures` share: RFC 9421's
/// `test-key-rsa` (PKCS#1) and `test-key-rsa-pss` (PKCS#8 tagged id-RSASSA-PSS), and an
/// ordinary PKCS#8/SPKI key made with `openssl genpkey` for the draft-cavage tests.
#[cfg(test)]
pub(crate) mod test_keys {
    pub(crate) const RFC_RSA_PUB: &str = include_str!("testdata/rfc9421-test-key-rsa.pub.pem");
    pub(crate) const RFC_RSA_KEY: &str = include_str!("testdata/rfc9421-test-key-rsa.key.pem");
    pub(crate) const RFC_PSS_PUB: &str = include_str!("testdata/rfc9421-test-key-rsa-pss.pub.pem");
    pub(crate) const RFC_PSS_KEY: &str = include_str!("testdata/rfc9421-test-key-rsa-pss.key.pem");
    pub(crate) const ACTOR_PUB: &str = include_str!("testdata/test-actor.pub.pem");
    pub(crate) const ACTOR_KEY: &str = include_str!("testdata/test-actor.key.pem");
}
