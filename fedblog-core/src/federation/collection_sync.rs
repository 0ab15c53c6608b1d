//! Followers collection synchronisation (FEP-8fcf, as Mastodon does it): a delivery of a
//! followers-only post carries a `Collection-Synchronization` header with a digest of the
//! sender's followers on the receiving server; a receiver whose own view differs fetches the
//! sender's partial followers collection and corrects its copy. The pieces here are the digest,
//! the header and the URI prefix that decides which followers are "on" a server; what is done
//! with them is the federation runner's.
//! <https://docs.joinmastodon.org/spec/activitypub/#follower-synchronization-mechanism>

use sha2::{Digest, Sha256};

use super::signatures::parse_cavage_params;

/// The header's name.
pub const HEADER: &str = "Collection-Synchronization";

/// The parameters of a `Collection-Synchronization` header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollectionSync {
    /// The sender's followers collection.
    pub collection_id: String,
    /// The partial collection for the receiving server (its followers there).
    pub url: String,
    /// [`partial_digest`] of that partial collection, as the sender knows it.
    pub digest: String,
}

impl CollectionSync {
    /// The header's value: `collectionId="...", url="...", digest="..."`.
    pub fn header_value(&self) -> String {
        format!(
            "collectionId=\"{}\", url=\"{}\", digest=\"{}\"",
            self.collection_id, self.url, self.digest
        )
    }

    /// Reads a header's value (the syntax of a draft-cavage `Signature` header); `None` when
    /// it is malformed or lacks a parameter.
    pub fn parse(value: &str) -> Option<Self> {
        let params = parse_cavage_params(value).ok()?;
        let get = |name: &str| {
            params
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        Some(CollectionSync {
            collection_id: get("collectionid")?,
            url: get("url")?,
            digest: get("digest")?.to_ascii_lowercase(),
        })
    }
}

/// The digest of a partial followers collection: the SHA-256 digests of the followers' ids
/// XORed together, in lower-case hex. The same id given twice counts once; no ids give 64
/// zeros.
pub fn partial_digest<'a>(ids: impl IntoIterator<Item = &'a str>) -> String {
    let mut seen = std::collections::HashSet::new();
    let mut sum = [0u8; 32];
    for id in ids {
        if seen.insert(id) {
            for (s, b) in sum.iter_mut().zip(Sha256::digest(id.as_bytes())) {
                *s ^= b;
            }
        }
    }
    sum.iter().map(|b| format!("{b:02x}")).collect()
}

/// The scheme and authority of an absolute http(s) URL, lower-cased: `https://example.com`.
/// Followers whose ids share it are the ones "on" that server.
pub fn uri_prefix(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "https" && scheme != "http" {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next()?;
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    Some(format!("{scheme}://{}", authority.to_ascii_lowercase()))
}

/// Whether `id` is on the server with prefix `prefix` (see [`uri_prefix`]).
pub fn is_under(id: &str, prefix: &str) -> bool {
    uri_prefix(id).as_deref() == Some(prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_the_xor_of_the_ids_sha256() {
        // The worked example of FEP-8fcf.
        let ids = [
            "https://testing.example.org/users/1",
            "https://testing.example.org/users/2",
        ];
        assert_eq!(
            partial_digest(ids),
            "c33f48cd341ef046a206b8a72ec97af65079f9a3a9b90eef79c5920dce45c61f"
        );
        assert_eq!(
            partial_digest(["https://testing.example.org/users/1"]),
            "3a06e99569547f444c352ab7f52e4bab207abec5ca6f07b0045cfdc9723f8fa9"
        );
        // Order does not matter, a repeat counts once, none is all zeros.
        assert_eq!(
            partial_digest([ids[1], ids[0], ids[1]]),
            partial_digest(ids)
        );
        assert_eq!(partial_digest([]), "0".repeat(64));
    }

    #[test]
    fn the_header_is_written_and_read_back() {
        let sync = CollectionSync {
            collection_id: "https://example.org/users/1/followers".into(),
            url: "https://example.org/users/1/followers_synchronization".into(),
            digest: "c33f48cd341ef046a206b8a72ec97af65079f9a3a9b90eef79c5920dce45c61f".into(),
        };
        assert_eq!(CollectionSync::parse(&sync.header_value()), Some(sync));
        // As Mastodon writes it, without spaces, upper-case hex.
        let read = CollectionSync::parse(
            "collectionId=\"https://a.example/users/x/followers\",url=\"https://a.example/s\",digest=\"ABCD\"",
        );
        assert_eq!(read.map(|s| s.digest), Some("abcd".into()));
        assert_eq!(CollectionSync::parse("url=\"https://a.example/s\""), None);
        assert_eq!(CollectionSync::parse("not a header"), None);
    }

    #[test]
    fn prefixes_are_scheme_and_authority() {
        assert_eq!(
            uri_prefix("https://Example.org:8443/users/1#main-key").as_deref(),
            Some("https://example.org:8443")
        );
        assert_eq!(uri_prefix("ftp://example.org/x"), None);
        assert_eq!(uri_prefix("https://user@example.org/x"), None);
        assert!(is_under(
            "https://testing.example.org/users/1",
            "https://testing.example.org"
        ));
        assert!(!is_under(
            "https://next.example.org/users/foo",
            "https://testing.example.org"
        ));
        assert!(!is_under(
            "http://testing.example.org/users/1",
            "https://testing.example.org"
        ));
    }
}
