//! Resolution: what a search with `resolve` (or anything else given an address) looks up on
//! other servers. A handle or an actor URL gives the account, a post's URL the post, fetched and
//! stored when not known here.

use super::ThreadReach;
use crate::app::App;
use crate::error::{ApiError, ApiResult};
use crate::federation::paths;
use crate::store::{AccountRecord, StatusRecord};

/// Whether `q` is an address worth looking up elsewhere: an http(s) URL, or `user@host`
/// (an optional leading `@` or `acct:`) with a host other than `ours`.
fn is_remote_address(q: &str, ours: &str) -> bool {
    if q.starts_with("https://") || q.starts_with("http://") {
        return true;
    }
    let handle = q.strip_prefix("acct:").unwrap_or(q).trim_start_matches('@');
    match handle.split_once('@') {
        Some((user, host)) => {
            !user.is_empty()
                && !host.is_empty()
                && !host.contains(['@', '/', ' '])
                && !host.eq_ignore_ascii_case(ours)
        }
        None => false,
    }
}

impl App {
    /// The status a URL names, for search's `resolve` and anything else given a post's
    /// address: one of ours (its ActivityPub id or its page), a remote one stored, or, when this
    /// server federates, fetched from its server (signed by the instance actor) and stored. 404
    /// when it cannot be had. Whether the asker may see it is the caller's to check.
    pub async fn status_at_url(&self, url: &str) -> ApiResult<StatusRecord> {
        if !(url.starts_with("https://") || url.starts_with("http://")) {
            return Err(ApiError::not_found());
        }
        if let Some(known) = self.remote().status_by_uri(url).await? {
            return Ok(known);
        }
        if paths::parse_local(&self.base_url(), url).is_some() || !self.federation().enabled() {
            return Err(ApiError::not_found());
        }
        match self
            .fetch_remote_note(url, ThreadReach::Fetched { depth: 0 })
            .await
        {
            Ok(Some(status)) => Ok(status),
            Ok(None) => Err(ApiError::not_found()),
            Err(e) => {
                tracing::info!("cannot look up the post at {url}: {}", e.message);
                Err(ApiError::not_found())
            }
        }
    }

    /// The account a search query names when it is an address (see [`is_remote_address`]),
    /// looked up on its server for `me` and stored: `None` when it is no address, cannot be had,
    /// is suspended, or `me` and it block each other.
    pub async fn resolve_account_query(
        &self,
        me: &AccountRecord,
        q: &str,
    ) -> ApiResult<Option<AccountRecord>> {
        let q = q.trim();
        if !self.federation().enabled() || !is_remote_address(q, &self.config.domain) {
            return Ok(None);
        }
        let account = match self.federation().account_named(q).await {
            Ok(account) => account,
            Err(e) if e.status.is_server_error() => return Err(e),
            Err(_) => return Ok(None),
        };
        if account.is_suspended()
            || !self
                .store
                .blocked_either_way(me.id, &[account.id])
                .await?
                .is_empty()
        {
            return Ok(None);
        }
        Ok(Some(account))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_urls_and_handles_elsewhere() {
        for q in [
            "https://b.example/@bob",
            "bob@b.example",
            "@bob@b.example",
            "acct:bob@b.example",
        ] {
            assert!(is_remote_address(q, "a.example"), "{q}");
        }
        for q in [
            "bob",
            "@bob",
            "bob@a.example",
            "bob@",
            "@b.example",
            "a b@c d",
            "bob@x@y",
        ] {
            assert!(!is_remote_address(q, "a.example"), "{q}");
        }
    }
}
