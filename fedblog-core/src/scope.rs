//! OAuth scopes: parsing, and whether a granted set covers what an endpoint needs.

use std::fmt;

/// Every scope a client may ask for (top-level and granular).
pub const KNOWN_SCOPES: &[&str] = &[
    "read",
    "write",
    "follow",
    "push",
    "profile",
    "admin:read",
    "admin:write",
    "read:accounts",
    "read:blocks",
    "read:bookmarks",
    "read:favourites",
    "read:filters",
    "read:follows",
    "read:lists",
    "read:mutes",
    "read:notifications",
    "read:search",
    "read:statuses",
    "write:accounts",
    "write:blocks",
    "write:bookmarks",
    "write:conversations",
    "write:favourites",
    "write:filters",
    "write:follows",
    "write:lists",
    "write:media",
    "write:mutes",
    "write:notifications",
    "write:reports",
    "write:statuses",
    "admin:read:accounts",
    "admin:read:reports",
    "admin:read:domain_allows",
    "admin:read:domain_blocks",
    "admin:read:ip_blocks",
    "admin:read:email_domain_blocks",
    "admin:read:canonical_email_blocks",
    "admin:write:accounts",
    "admin:write:reports",
    "admin:write:domain_allows",
    "admin:write:domain_blocks",
    "admin:write:ip_blocks",
    "admin:write:email_domain_blocks",
    "admin:write:canonical_email_blocks",
];

/// Scopes of Mastodon 3.x that later versions dropped: accepted and granted, but not among
/// [`KNOWN_SCOPES`], which the server advertises. `crypto` is the end-to-end encryption
/// helpers' (`/api/v1/crypto/...`); no other scope covers it.
pub const LEGACY_SCOPES: &[&str] = &["crypto"];

/// The scopes the legacy `follow` scope stands for.
const FOLLOW_COVERS: &[&str] = &[
    "read:blocks",
    "write:blocks",
    "read:follows",
    "write:follows",
    "read:mutes",
    "write:mutes",
];

/// A set of granted scopes, kept in the order given and without duplicates.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Scopes(Vec<String>);

impl Scopes {
    /// Parse a space- (or `+`-, or comma-) separated list. Unknown scopes are an error naming them.
    pub fn parse(text: &str) -> Result<Scopes, String> {
        let mut out: Vec<String> = Vec::new();
        for s in text
            .split([' ', '+', ','])
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            if !KNOWN_SCOPES.contains(&s) && !LEGACY_SCOPES.contains(&s) {
                return Err(format!("unknown scope: {s}"));
            }
            if !out.iter().any(|x| x == s) {
                out.push(s.to_string());
            }
        }
        Ok(Scopes(out))
    }

    /// The scopes as given.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(String::as_str)
    }

    /// True when no scope is present.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether the granted set allows `required` (a top-level or granular scope).
    ///
    /// `read` covers every `read:*`, `write` every `write:*`, `admin:read` every `admin:read:*`;
    /// the legacy `follow` covers follows, blocks and mutes; `read` also covers `profile`.
    pub fn allows(&self, required: &str) -> bool {
        self.0.iter().any(|g| covers(g, required))
    }

    /// Whether every scope of `wanted` is allowed by this set (used when a token asks for a
    /// subset of its application's scopes). `follow` is covered by `read` + `write`.
    pub fn covers_all(&self, wanted: &Scopes) -> bool {
        wanted.iter().all(|w| {
            if w == "follow" {
                self.0.iter().any(|g| g == "follow")
                    || (self.allows("read") && self.allows("write"))
            } else {
                self.allows(w)
            }
        })
    }
}

impl fmt::Display for Scopes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(" "))
    }
}

fn covers(granted: &str, required: &str) -> bool {
    if granted == required {
        return true;
    }
    if granted == "follow" {
        return FOLLOW_COVERS.contains(&required) || required == "follow";
    }
    if required == "follow" {
        return false;
    }
    if required == "profile" {
        return granted == "read" || granted == "read:accounts";
    }
    // `read` covers `read:x`; `admin:read` covers `admin:read:x`.
    required.len() > granted.len()
        && required.starts_with(granted)
        && required.as_bytes()[granted.len()] == b':'
        && (granted == "read"
            || granted == "write"
            || granted == "admin:read"
            || granted == "admin:write")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(t: &str) -> Scopes {
        Scopes::parse(t).unwrap()
    }

    #[test]
    fn top_level_scopes_cover_granular_ones() {
        assert!(s("read").allows("read:statuses"));
        assert!(!s("read").allows("write:statuses"));
        assert!(s("write").allows("write:statuses"));
        assert!(s("read:statuses").allows("read:statuses"));
        assert!(!s("read:statuses").allows("read:accounts"));
        assert!(s("admin:read").allows("admin:read:accounts"));
        assert!(!s("admin:read").allows("read:accounts"));
        assert!(s("follow").allows("write:follows"));
        assert!(!s("follow").allows("write:statuses"));
        assert!(s("read").allows("profile"));
    }

    #[test]
    fn follow_is_covered_by_read_and_write() {
        assert!(s("read write").covers_all(&s("read write follow")));
        assert!(!s("read").covers_all(&s("follow")));
        assert!(s("read write follow push").covers_all(&s("read:statuses push")));
        assert!(!s("read").covers_all(&s("push")));
    }

    #[test]
    fn parsing_rejects_unknown_and_dedupes() {
        assert!(Scopes::parse("read bogus").is_err());
        assert_eq!(s("read  read+write").to_string(), "read write");
    }
}
