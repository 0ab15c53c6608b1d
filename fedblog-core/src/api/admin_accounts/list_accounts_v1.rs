//! `GET /api/v1/admin/accounts`: accounts for moderators, filtered (v1 filters), newest first (100 by default, 200 at most). <https://docs.joinmastodon.org/methods/admin/accounts/#v1>

use http::Method;
use serde::Deserialize;
use serde_json::Value;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::AdminAccount;
use crate::error::ApiResult;
use crate::pagination::PageParams;
use crate::params::de;
use crate::permissions::{self, Permissions};
use crate::store::{AccountOrigin, AdminAccountFilter, AdminAccountStatus, Role};

use super::{DEFAULT_LIMIT, MAX_LIMIT, domain_filter, rendered_page, roles_filter, staff_roles};

/// Accounts for moderators with the v1 filters. As Mastodon, the list holds local active
/// accounts unless `remote` (or, here, `by_domain`) or a state (`pending`, `disabled`,
/// `silenced`, `suspended`, `sensitized`; `active` is the default) says otherwise; `staff` keeps
/// the roles that handle reports, and `role_ids[]` (which the specification names for this path
/// too) the roles named. `ip` matches no account: fedblog records no IP addresses. <https://docs.joinmastodon.org/methods/admin/accounts/#v1>
pub struct ListAccountsV1;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
pub struct ListAccountsV1Request {
    /// Local accounts only (the default).
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub local: Option<bool>,
    /// Remote accounts only.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub remote: Option<bool>,
    /// Accounts of this domain only.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub by_domain: Option<String>,
    /// Active accounts (the default).
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub active: Option<bool>,
    /// Local accounts waiting for approval.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub pending: Option<bool>,
    /// Local accounts whose login is disabled.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub disabled: Option<bool>,
    /// Silenced accounts.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub silenced: Option<bool>,
    /// Suspended accounts.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub suspended: Option<bool>,
    /// Accounts whose posts are forced sensitive.
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub sensitized: Option<bool>,
    /// Username containing this.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub username: Option<String>,
    /// Display name containing this.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub display_name: Option<String>,
    /// E-mail address containing this.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub email: Option<String>,
    /// Accounts that used this IP address: none is known (fedblog records no addresses).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub ip: Option<String>,
    /// Staff only (the roles that handle reports).
    #[serde(default, deserialize_with = "de::opt_bool")]
    pub staff: Option<bool>,
    /// Only these roles (ids as `Role.id` gives them).
    #[serde(default, deserialize_with = "de::list")]
    pub role_ids: Vec<Value>,
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl ListAccountsV1Request {
    /// The store's filter, or `None` when no account can match; `staff` are the staff roles
    /// (read when `staff` is asked).
    fn filter(self, staff: &[Role]) -> Option<AdminAccountFilter> {
        if self.ip.is_some() {
            return None;
        }
        let roles = roles_filter((self.staff == Some(true)).then_some(staff), &self.role_ids)?;
        let by_domain = domain_filter(self.by_domain);
        let origin = if self.remote == Some(true) {
            Some(AccountOrigin::Remote)
        } else if self.local == Some(true) || by_domain.is_none() {
            Some(AccountOrigin::Local)
        } else {
            None
        };
        // As Mastodon, the last state named wins; none named means active.
        let mut status = AdminAccountStatus::Active;
        for (asked, state) in [
            (self.active, AdminAccountStatus::Active),
            (self.pending, AdminAccountStatus::Pending),
            (self.disabled, AdminAccountStatus::Disabled),
            (self.silenced, AdminAccountStatus::Silenced),
            (self.suspended, AdminAccountStatus::Suspended),
            (self.sensitized, AdminAccountStatus::Sensitized),
        ] {
            if asked == Some(true) {
                status = state;
            }
        }
        Some(AdminAccountFilter {
            origin,
            status: Some(status),
            roles,
            by_domain,
            username: self.username,
            display_name: self.display_name,
            email: self.email,
        })
    }
}

impl Endpoint for ListAccountsV1 {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v1/admin/accounts";
    const AUTH: Auth = Auth::User("admin:read:accounts");
    type Request = ListAccountsV1Request;
    type Response = Paged<AdminAccount>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListAccountsV1Request,
    ) -> ApiResult<Self::Response> {
        permissions::require(caller, Permissions::MANAGE_USERS)?;
        let page = r.page.page(DEFAULT_LIMIT, MAX_LIMIT);
        let staff = staff_roles(app, r.staff == Some(true)).await?;
        let filter = r.filter(staff.as_deref().unwrap_or_default());
        let found = app
            .moderation()
            .accounts_page(filter.as_ref(), page)
            .await?;
        Ok(rendered_page(app, caller, found))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in staff roles.
    const STAFF: [Role; 3] = [Role::Moderator, Role::Admin, Role::Owner];

    #[test]
    fn local_active_accounts_by_default() {
        let f = ListAccountsV1Request::default()
            .filter(&STAFF)
            .expect("a filter");
        assert_eq!(f.origin, Some(AccountOrigin::Local));
        assert_eq!(f.status, Some(AdminAccountStatus::Active));
        assert!(f.roles.is_empty());
    }

    #[test]
    fn remote_domains_states_and_addresses() {
        let f = ListAccountsV1Request {
            by_domain: Some("Remote.Example".into()),
            suspended: Some(true),
            ..Default::default()
        }
        .filter(&STAFF)
        .expect("a filter");
        assert_eq!(f.origin, None);
        assert_eq!(f.by_domain.as_deref(), Some("remote.example"));
        assert_eq!(f.status, Some(AdminAccountStatus::Suspended));
        let f = ListAccountsV1Request {
            remote: Some(true),
            staff: Some(true),
            ..Default::default()
        }
        .filter(&STAFF)
        .expect("a filter");
        assert_eq!(f.origin, Some(AccountOrigin::Remote));
        assert_eq!(f.roles, ["admin", "moderator", "owner"]);
        let by_ip = ListAccountsV1Request {
            ip: Some("192.0.2.1".into()),
            ..Default::default()
        };
        assert_eq!(by_ip.filter(&STAFF), None);
    }
}
