//! WebFinger: which local account a resource names (`acct:user@domain`, or the account's
//! profile or actor URL), for other servers discovering our accounts
//! (<https://www.rfc-editor.org/rfc/rfc7033>). Render writes the JRD.

use crate::error::{ApiError, ApiResult};
use crate::services::accounts::lookup_account;
use crate::store::{AccountRecord, AccountStore, Store};

/// The WebFinger area: `app.webfinger()`.
pub struct Webfinger<'a> {
    accounts: &'a dyn AccountStore,
    /// Our domain (`host[:port]`), as `acct:` resources name it.
    domain: &'a str,
    /// Our base URL (`https://host[:port]`), as profile and actor URLs begin.
    base_url: String,
}

impl<'a> Webfinger<'a> {
    /// The area over the accounts of `store`, for the server at `domain` and `base_url`.
    pub fn new(store: &'a dyn Store, domain: &'a str, base_url: String) -> Self {
        Webfinger {
            accounts: store,
            domain,
            base_url,
        }
    }

    /// The local account `resource` names: `acct:user@our.domain` (or `user@our.domain`), or
    /// `BASE/@user` / `BASE/users/user`. 400 for an empty resource, 404 for anything else
    /// (another domain, another URL, an unknown account), 410 for a suspended account.
    pub async fn resolve(&self, resource: &str) -> ApiResult<AccountRecord> {
        let resource = resource.trim();
        if resource.is_empty() {
            return Err(ApiError::bad_request("The resource parameter is missing"));
        }
        let username = match resource.strip_prefix(&self.base_url) {
            Some(path) => path
                .strip_prefix("/@")
                .or_else(|| path.strip_prefix("/users/"))
                .filter(|u| !u.is_empty() && !u.contains(['/', '?', '#', '@']))
                .ok_or_else(ApiError::not_found)?,
            None => {
                let acct = resource.strip_prefix("acct:").unwrap_or(resource);
                match acct.trim_start_matches('@').rsplit_once('@') {
                    Some((user, host)) if host.eq_ignore_ascii_case(self.domain) => user,
                    _ => return Err(ApiError::not_found()),
                }
            }
        };
        let account = lookup_account(self.accounts, self.domain, username).await?;
        if !account.is_local() {
            return Err(ApiError::not_found());
        }
        Ok(account)
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::{account, app};

    #[tokio::test]
    async fn resources_name_local_accounts_by_acct_or_url() {
        let app = app("social.test");
        let alice = account(&app, "alice").await;
        let area = app.webfinger();
        for resource in [
            "acct:alice@social.test",
            "acct:Alice@SOCIAL.test",
            "alice@social.test",
            "https://social.test/@alice",
            "https://social.test/users/alice",
        ] {
            let found = area.resolve(resource).await.expect(resource);
            assert_eq!(found.id, alice.id, "{resource}");
        }
        for (resource, status) in [
            ("", 400),
            ("acct:alice@elsewhere.test", 404),
            ("acct:bob@social.test", 404),
            ("acct:alice", 404),
            ("https://social.test/@alice/123", 404),
            ("https://elsewhere.test/@alice", 404),
        ] {
            let err = area.resolve(resource).await.expect_err(resource);
            assert_eq!(err.status.as_u16(), status, "{resource}");
        }
    }
}
