//! `GET /api/v2/admin/accounts`: accounts for moderators, filtered (v2 filters), newest first (100 by default, 200 at most). <https://docs.joinmastodon.org/methods/admin/accounts/#v2>

use http::Method;
use serde::Deserialize;
use serde_json::Value;

use crate::app::{App, Caller};
use crate::endpoint::{Auth, Endpoint, Paged};
use crate::entities::AdminAccount;
use crate::error::{ApiError, ApiResult};
use crate::pagination::PageParams;
use crate::params::de;
use crate::permissions::{self, Permissions};
use crate::store::{AccountOrigin, AdminAccountFilter, AdminAccountStatus, Role};

use super::{DEFAULT_LIMIT, MAX_LIMIT, domain_filter, rendered_page, roles_filter, staff_roles};

/// Accounts for moderators with the v2 filters, all optional: `origin` (`local`, `remote`),
/// `status` (`active`, `pending`, `disabled`, `silenced`, `suspended`, `sensitized`),
/// `permissions=staff`, `role_ids[]`, `by_domain`, `username`, `display_name`, `email`; another
/// value of `origin`, `status` or `permissions` is a 400, as Mastodon. `ip` and `invited_by` match
/// no account: fedblog records no IP addresses and has no invites. <https://docs.joinmastodon.org/methods/admin/accounts/#v2>
pub struct ListAccountsV2;

/// Parameters.
#[derive(Debug, Default, Deserialize)]
pub struct ListAccountsV2Request {
    /// `local` or `remote`.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub origin: Option<String>,
    /// `active`, `pending`, `disabled`, `silenced`, `suspended` or `sensitized`.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub status: Option<String>,
    /// `staff`: the roles that handle reports.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub permissions: Option<String>,
    /// Only these roles (ids as `Role.id` gives them).
    #[serde(default, deserialize_with = "de::list")]
    pub role_ids: Vec<Value>,
    /// Accounts invited by this account: none (fedblog has no invites).
    #[serde(default, deserialize_with = "de::opt_string")]
    pub invited_by: Option<String>,
    /// Accounts of this domain only.
    #[serde(default, deserialize_with = "de::opt_string")]
    pub by_domain: Option<String>,
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
    /// Cursor and limit.
    #[serde(flatten)]
    pub page: PageParams,
}

impl ListAccountsV2Request {
    /// The store's filter, `None` when no account can match, 400 for an unknown value; `staff`
    /// are the staff roles (read when `permissions=staff` is asked).
    fn filter(self, staff_roles: &[Role]) -> ApiResult<Option<AdminAccountFilter>> {
        let origin = match self.origin.as_deref() {
            None => None,
            Some("local") => Some(AccountOrigin::Local),
            Some("remote") => Some(AccountOrigin::Remote),
            Some(other) => return Err(ApiError::bad_request(format!("Unknown origin: {other}"))),
        };
        let status = match self.status.as_deref() {
            None => None,
            Some("active") => Some(AdminAccountStatus::Active),
            Some("pending") => Some(AdminAccountStatus::Pending),
            Some("disabled") => Some(AdminAccountStatus::Disabled),
            Some("silenced") => Some(AdminAccountStatus::Silenced),
            Some("suspended") => Some(AdminAccountStatus::Suspended),
            Some("sensitized") => Some(AdminAccountStatus::Sensitized),
            Some(other) => return Err(ApiError::bad_request(format!("Unknown status: {other}"))),
        };
        let staff = match self.permissions.as_deref() {
            None => false,
            Some("staff") => true,
            Some(other) => {
                return Err(ApiError::bad_request(format!(
                    "Unknown permissions: {other}"
                )));
            }
        };
        if self.ip.is_some() || self.invited_by.is_some() {
            return Ok(None);
        }
        let Some(roles) = roles_filter(staff.then_some(staff_roles), &self.role_ids) else {
            return Ok(None);
        };
        Ok(Some(AdminAccountFilter {
            origin,
            status,
            roles,
            by_domain: domain_filter(self.by_domain),
            username: self.username,
            display_name: self.display_name,
            email: self.email,
        }))
    }
}

impl Endpoint for ListAccountsV2 {
    const METHOD: Method = Method::GET;
    const PATH: &'static str = "/api/v2/admin/accounts";
    const AUTH: Auth = Auth::User("admin:read:accounts");
    type Request = ListAccountsV2Request;
    type Response = Paged<AdminAccount>;

    async fn handle(
        app: &App,
        caller: &Caller,
        r: ListAccountsV2Request,
    ) -> ApiResult<Self::Response> {
        permissions::require(caller, Permissions::MANAGE_USERS)?;
        let page = r.page.page(DEFAULT_LIMIT, MAX_LIMIT);
        let staff = staff_roles(app, r.permissions.as_deref() == Some("staff")).await?;
        let filter = r.filter(staff.as_deref().unwrap_or_default())?;
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
    fn no_filter_by_default_and_unknown_values_are_400() {
        let f = ListAccountsV2Request::default()
            .filter(&STAFF)
            .expect("valid")
            .expect("a filter");
        assert_eq!(f, AdminAccountFilter::default());
        for (origin, status, permissions) in [
            (Some("elsewhere"), None, None),
            (None, Some("asleep"), None),
            (None, None, Some("everyone")),
        ] {
            let r = ListAccountsV2Request {
                origin: origin.map(Into::into),
                status: status.map(Into::into),
                permissions: permissions.map(Into::into),
                ..Default::default()
            };
            assert_eq!(r.filter(&STAFF).map_err(|e| e.status.as_u16()), Err(400));
        }
    }

    #[test]
    fn roles_staff_and_unmatchable_filters() {
        let f = ListAccountsV2Request {
            origin: Some("local".into()),
            status: Some("pending".into()),
            role_ids: vec![Value::from("2")],
            ..Default::default()
        }
        .filter(&STAFF)
        .expect("valid")
        .expect("a filter");
        assert_eq!(f.origin, Some(AccountOrigin::Local));
        assert_eq!(f.status, Some(AdminAccountStatus::Pending));
        assert_eq!(f.roles, ["admin"]);
        for r in [
            ListAccountsV2Request {
                invited_by: Some("1".into()),
                ..Default::default()
            },
            ListAccountsV2Request {
                ip: Some("192.0.2.1".into()),
                ..Default::default()
            },
            ListAccountsV2Request {
                permissions: Some("staff".into()),
                role_ids: vec![Value::from("-99")],
                ..Default::default()
            },
        ] {
            assert_eq!(r.filter(&STAFF).expect("valid"), None);
        }
    }
}
