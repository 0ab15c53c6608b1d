//! Moderation of accounts: the accounts administrators list, and what they do to them (approve,
//! reject, disable, silence, suspend, sensitize, and undo), with the warnings it gives.
//!
//! The rules are Mastodon's (`AccountPolicy`, `UserPolicy`, `Admin::AccountAction`): a moderator
//! warns, disables, sensitizes, silences or suspends only an account whose role ranks strictly
//! below their own (a remote account has none), administrators included, so that an admin cannot
//! act on another admin and only the owner on admins; undoing needs no rank. Every action,
//! `none` included, leaves an [`AccountWarningRecord`] (a "strike"), and an action other than
//! `none` resolves the open reports about the account (`none` resolves only the report named).
//! The whole area needs the store's [`ModerationStore`]: without one, every method answers 404.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use crate::error::{ApiError, ApiResult};
use crate::id::{Id, IdGenerator};
use crate::pagination::Page;
use crate::permissions::{self, Rank};
use crate::services::accounts::Accounts;
use crate::services::notifications::Notifications;
use crate::services::oauth::OAuth;
use crate::services::outbox::Outbox;
use crate::services::server_blocks;
use crate::store::UserRoleRecord;
use crate::store::{
    AccountRecord, AccountStore, AccountWarningRecord, AdminAccountFilter, ModerationStore,
    NotificationType, ReportFilter, ReportRecord, Role, Store, SuspensionOrigin, UserRecord,
    WarningAction,
};

/// Reports resolved per read when an action resolves every open report about an account (and
/// suspended accounts read at once when the expired suspensions are deleted).
const REPORTS_PER_READ: usize = 100;

/// Days a suspended account's data is kept before [`Moderation::delete_expired_suspensions`]
/// deletes it (Mastodon's 30).
pub const SUSPENSION_KEEP_DAYS: i64 = 30;

/// An account with its login (local accounts only), as moderators see it; render makes the
/// `Admin::Account` of it.
#[derive(Clone, Debug, PartialEq)]
pub struct AdminAccountView {
    /// The account.
    pub account: AccountRecord,
    /// Its login, for a local account.
    pub user: Option<UserRecord>,
    /// The record of its login's custom role, when it has one.
    pub custom_role: Option<UserRoleRecord>,
}

/// A page of accounts for moderators, newest first, with the cursors of the `Link` header.
#[derive(Clone, Debug, Default)]
pub struct AdminAccountPage {
    /// The accounts.
    pub accounts: Vec<AdminAccountView>,
    /// The id of the first (newest) account of the page.
    pub first: Option<Id>,
    /// The id of the last (oldest) account of the page.
    pub last: Option<Id>,
}

/// The `type` of `POST /api/v1/admin/accounts/:id/action`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountActionType {
    /// A warning only.
    None,
    /// Every post of the account forced sensitive.
    Sensitive,
    /// The login disabled (local accounts).
    Disable,
    /// Limited: left out of public and hashtag timelines.
    Silence,
    /// Suspended: gone from the API, its tokens refused.
    Suspend,
}

impl AccountActionType {
    /// Parses Mastodon's name.
    pub fn parse(s: &str) -> Option<AccountActionType> {
        Some(match s {
            "none" => AccountActionType::None,
            "sensitive" => AccountActionType::Sensitive,
            "disable" => AccountActionType::Disable,
            "silence" => AccountActionType::Silence,
            "suspend" => AccountActionType::Suspend,
            _ => return None,
        })
    }

    /// The action a warning of this type records.
    fn warning(self) -> WarningAction {
        match self {
            AccountActionType::None => WarningAction::None,
            AccountActionType::Sensitive => WarningAction::Sensitive,
            AccountActionType::Disable => WarningAction::Disable,
            AccountActionType::Silence => WarningAction::Silence,
            AccountActionType::Suspend => WarningAction::Suspend,
        }
    }
}

/// A moderation action on an account, as `POST /api/v1/admin/accounts/:id/action` asks it.
#[derive(Clone, Debug, PartialEq)]
pub struct AccountAction {
    /// What to do.
    pub kind: AccountActionType,
    /// The report that led to it (404 if unknown); its statuses go into the warning.
    pub report_id: Option<Id>,
    /// A preset warning text. fedblog keeps no presets, so any id is unknown (404).
    pub warning_preset_id: Option<String>,
    /// The text shown to the account.
    pub text: String,
    /// Whether the account is to be told: a local account gets a `moderation_warning`
    /// notification and an e-mail (to a confirmed address), as Mastodon gives both. The
    /// warning is kept either way.
    pub send_email_notification: bool,
}

/// The moderation area: `app.moderation()`. It holds the account store, the moderation store
/// (when the store keeps one), the accounts area (deleting an account with its files), the OAuth
/// area (closing the streams of an account that may no longer act), the id generator and the
/// clock.
pub struct Moderation<'a> {
    accounts: &'a dyn AccountStore,
    moderation: Option<&'a dyn ModerationStore>,
    account_area: Accounts<'a>,
    oauth: OAuth<'a>,
    notifications: Notifications<'a>,
    outbox: Outbox<'a>,
    jobs: &'a dyn crate::store::JobStore,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
}

/// 404 for a store that keeps no moderation data: the admin API is not offered, as an endpoint
/// a server does not serve answers 404 (not 501, which would promise it some day, nor 503,
/// which tells clients to retry).
fn no_moderation() -> ApiError {
    ApiError::no_moderation_data()
}

/// Whether a moderator of built-in role `moderator` may act on an account whose login has
/// built-in role `target` (`None`: a remote account, which has no role): Mastodon's
/// `UserRole#overrides?`, a strictly higher position (see [`Rank`] for custom roles).
pub fn overrides(moderator: Role, target: Option<Role>) -> bool {
    Rank::of(moderator, None).overrides(target.map(|t| Rank::of(t, None)))
}

/// Gives each view whose login has a custom role that role's record, the custom roles read at
/// most once.
pub async fn attach_custom_roles<'v>(
    store: &dyn ModerationStore,
    views: impl IntoIterator<Item = &'v mut AdminAccountView>,
) -> ApiResult<()> {
    let mut roles: Option<Vec<UserRoleRecord>> = None;
    for view in views {
        let Some(role @ Role::Custom(_)) = view.user.as_ref().map(|u| u.role) else {
            continue;
        };
        if roles.is_none() {
            roles = Some(store.user_roles().await?);
        }
        view.custom_role = permissions::custom_among(role, roles.as_deref().unwrap_or_default());
    }
    Ok(())
}

impl<'a> Moderation<'a> {
    /// The area over the accounts and moderation data of `store`, deleting through
    /// `account_area`, closing streams through `oauth`, telling warned accounts through
    /// `notifications`, federating suspensions through `outbox`, making ids with `ids`, at
    /// `now`.
    pub fn new(
        store: &'a dyn Store,
        account_area: Accounts<'a>,
        oauth: OAuth<'a>,
        notifications: Notifications<'a>,
        outbox: Outbox<'a>,
        ids: &'a IdGenerator,
        now: DateTime<Utc>,
    ) -> Self {
        Moderation {
            accounts: store,
            moderation: store.moderation(),
            account_area,
            oauth,
            notifications,
            outbox,
            jobs: store,
            ids,
            now,
        }
    }

    /// The moderation store, or 404 when the store keeps none.
    fn store(&self) -> ApiResult<&'a dyn ModerationStore> {
        self.moderation.ok_or_else(no_moderation)
    }

    /// The account with this id and its login; 404 when unknown.
    async fn view(&self, id: Id) -> ApiResult<AdminAccountView> {
        let account = self
            .accounts
            .account_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let user = if account.is_local() {
            self.accounts.user_by_account_id(id).await?
        } else {
            None
        };
        let custom_role = match &user {
            Some(u) => permissions::custom_role(self.moderation, u.role).await?,
            None => None,
        };
        Ok(AdminAccountView {
            account,
            user,
            custom_role,
        })
    }

    /// A local account with its login (and its custom role's record), for the actions on
    /// logins; 403 for a remote account, as Mastodon's `require_local_account!`.
    async fn local_view(
        &self,
        id: Id,
    ) -> ApiResult<(AccountRecord, UserRecord, Option<UserRoleRecord>)> {
        let view = self.view(id).await?;
        match view.user {
            Some(user) => Ok((view.account, user, view.custom_role)),
            None => Err(ApiError::forbidden()),
        }
    }

    /// One page of the accounts `filter` selects, newest first; `None` is a filter no account
    /// can match (one by IP address or by inviter: fedblog records neither), an empty page.
    pub async fn accounts_page(
        &self,
        filter: Option<&AdminAccountFilter>,
        page: Page,
    ) -> ApiResult<AdminAccountPage> {
        let store = self.store()?;
        let Some(filter) = filter else {
            return Ok(AdminAccountPage::default());
        };
        let ids = store.admin_account_ids(filter, page).await?;
        let mut found: HashMap<Id, AccountRecord> = self
            .accounts
            .accounts_by_ids(&ids)
            .await?
            .into_iter()
            .map(|a| (a.id, a))
            .collect();
        let local: Vec<Id> = found
            .values()
            .filter(|a| a.is_local())
            .map(|a| a.id)
            .collect();
        let mut users: HashMap<Id, UserRecord> = self
            .accounts
            .users_by_account_ids(&local)
            .await?
            .into_iter()
            .map(|u| (u.account_id, u))
            .collect();
        let mut accounts: Vec<AdminAccountView> = ids
            .iter()
            .filter_map(|id| found.remove(id))
            .map(|account| AdminAccountView {
                user: users.remove(&account.id),
                account,
                custom_role: None,
            })
            .collect();
        attach_custom_roles(store, &mut accounts).await?;
        Ok(AdminAccountPage {
            accounts,
            first: ids.first().copied(),
            last: ids.last().copied(),
        })
    }

    /// One account as moderators see it; 404 when unknown.
    pub async fn account(&self, id: Id) -> ApiResult<AdminAccountView> {
        self.store()?;
        self.view(id).await
    }

    /// Takes a moderation action on `target` for `moderator` (whose role is `role`) and keeps
    /// the warning it gives, which it returns. 404 for an unknown account, report or preset; 403
    /// when the moderator does not outrank the account; 422 for `disable` on a remote account.
    pub async fn act(
        &self,
        moderator: &AccountRecord,
        role: Role,
        target: Id,
        action: AccountAction,
    ) -> ApiResult<AccountWarningRecord> {
        let store = self.store()?;
        let AdminAccountView {
            mut account,
            mut user,
            custom_role,
        } = self.view(target).await?;
        let report = match action.report_id {
            Some(id) => Some(
                store
                    .report_by_id(id)
                    .await?
                    .ok_or_else(ApiError::not_found)?,
            ),
            None => None,
        };
        if action.warning_preset_id.is_some() {
            return Err(ApiError::not_found());
        }
        let mine = permissions::rank_in(Some(store), role).await?;
        let theirs = user
            .as_ref()
            .map(|u| Rank::of(u.role, custom_role.as_ref()));
        if !mine.overrides(theirs) {
            return Err(ApiError::forbidden());
        }
        match action.kind {
            AccountActionType::None => {}
            AccountActionType::Disable => {
                let Some(login) = user.as_mut() else {
                    return Err(ApiError::unprocessable(
                        "Validation failed: Type disable applies to local accounts only",
                    ));
                };
                if !login.disabled {
                    login.disabled = true;
                    self.accounts.update_user(login).await?;
                }
                self.oauth.access_ended(account.id).await;
            }
            AccountActionType::Sensitive => {
                if account.sensitized_at.is_none() {
                    account.sensitized_at = Some(self.now);
                    self.accounts.update_account(&account).await?;
                }
            }
            AccountActionType::Silence => {
                if account.silenced_at.is_none() {
                    account.silenced_at = Some(self.now);
                    self.accounts.update_account(&account).await?;
                }
            }
            AccountActionType::Suspend => {
                // Ours now, whoever suspended it first: its server cannot lift it.
                let origin = Some(SuspensionOrigin::Local);
                if account.suspended_at.is_none() || account.suspension_origin != origin {
                    account.suspended_at.get_or_insert(self.now);
                    account.suspension_origin = origin;
                    self.accounts.update_account(&account).await?;
                }
                self.oauth.access_ended(account.id).await;
                self.outbox.suspension_changed(&account).await?;
            }
        }
        let warning = AccountWarningRecord {
            id: self.ids.next_at(self.now.timestamp_millis()),
            account_id: Some(moderator.id),
            target_account_id: account.id,
            action: action.kind.warning(),
            text: action.text,
            report_id: report.as_ref().map(|r| r.id),
            status_ids: report
                .as_ref()
                .map(|r| r.status_ids.clone())
                .unwrap_or_default(),
            created_at: self.now,
        };
        store.insert_account_warning(&warning).await?;
        if action.send_email_notification && account.is_local() {
            self.notifications
                .notify_of(
                    &[account.id],
                    &account,
                    NotificationType::ModerationWarning,
                    None,
                    Some(warning.id),
                )
                .await?;
            // And by e-mail (queued: a mail server down never fails the action).
            crate::mail::MailQueue::new(self.jobs, None, self.ids, self.now)
                .queue(crate::mail::MailJob::Warning {
                    warning: warning.id,
                })
                .await;
        }
        match action.kind {
            AccountActionType::None => {
                if let Some(report) = report {
                    self.resolve(store, report, moderator.id).await?;
                }
            }
            _ => {
                self.resolve_open_reports(store, account.id, moderator.id)
                    .await?
            }
        }
        Ok(warning)
    }

    /// Marks a report resolved by `moderator`, unless it already is.
    async fn resolve(
        &self,
        store: &dyn ModerationStore,
        mut report: ReportRecord,
        moderator: Id,
    ) -> ApiResult<()> {
        if report.action_taken_at.is_some() {
            return Ok(());
        }
        report.action_taken_at = Some(self.now);
        report.action_taken_by_account_id = Some(moderator);
        report.updated_at = self.now;
        store.update_report(&report).await?;
        Ok(())
    }

    /// Resolves every open report about `target`.
    async fn resolve_open_reports(
        &self,
        store: &dyn ModerationStore,
        target: Id,
        moderator: Id,
    ) -> ApiResult<()> {
        let filter = ReportFilter {
            resolved: false,
            account_id: None,
            target_account_id: Some(target),
        };
        let mut page = Page::first(REPORTS_PER_READ);
        loop {
            let open = store.reports(&filter, page).await?;
            let Some(oldest) = open.last().map(|r| r.id) else {
                return Ok(());
            };
            let full = open.len() == REPORTS_PER_READ;
            for report in open {
                self.resolve(store, report, moderator).await?;
            }
            if !full {
                return Ok(());
            }
            page.max_id = Some(oldest);
        }
    }

    /// Approves a local account waiting for approval; 403 for a remote account or one that is
    /// not waiting.
    pub async fn approve(&self, target: Id) -> ApiResult<AdminAccountView> {
        self.store()?;
        let (account, mut user, custom_role) = self.local_view(target).await?;
        if user.approved {
            return Err(ApiError::forbidden());
        }
        user.approved = true;
        self.accounts.update_user(&user).await?;
        Ok(AdminAccountView {
            account,
            user: Some(user),
            custom_role,
        })
    }

    /// Rejects a local account waiting for approval: it is deleted with everything it has. 403
    /// for a remote account or one that is not waiting. Returns the account as it was.
    pub async fn reject(&self, target: Id) -> ApiResult<AdminAccountView> {
        self.store()?;
        let (account, user, custom_role) = self.local_view(target).await?;
        if user.approved {
            return Err(ApiError::forbidden());
        }
        self.account_area.delete_account(account.id).await?;
        Ok(AdminAccountView {
            account,
            user: Some(user),
            custom_role,
        })
    }

    /// Enables a local account's disabled login (not an error if it is enabled); 403 for a
    /// remote account.
    pub async fn enable(&self, target: Id) -> ApiResult<AdminAccountView> {
        self.store()?;
        let (account, mut user, custom_role) = self.local_view(target).await?;
        if user.disabled {
            user.disabled = false;
            self.accounts.update_user(&user).await?;
        }
        Ok(AdminAccountView {
            account,
            user: Some(user),
            custom_role,
        })
    }

    /// Lifts a silence (not an error if there is none).
    pub async fn unsilence(&self, target: Id) -> ApiResult<AdminAccountView> {
        self.store()?;
        let mut view = self.view(target).await?;
        if view.account.silenced_at.take().is_some() {
            self.accounts.update_account(&view.account).await?;
        }
        Ok(view)
    }

    /// Stops forcing the account's posts sensitive (not an error if they were not).
    pub async fn unsensitive(&self, target: Id) -> ApiResult<AdminAccountView> {
        self.store()?;
        let mut view = self.view(target).await?;
        if view.account.sensitized_at.take().is_some() {
            self.accounts.update_account(&view.account).await?;
        }
        Ok(view)
    }

    /// Lifts a suspension; 403 when the account is not suspended, as Mastodon.
    pub async fn unsuspend(&self, target: Id) -> ApiResult<AdminAccountView> {
        self.store()?;
        let mut view = self.view(target).await?;
        if view.account.suspended_at.take().is_none() {
            return Err(ApiError::forbidden());
        }
        view.account.suspension_origin = None;
        self.accounts.update_account(&view.account).await?;
        self.outbox.suspension_changed(&view.account).await?;
        Ok(view)
    }

    /// Deletes a suspended account's data for good (the account goes with it); 403 when it is
    /// not suspended, as Mastodon. Returns the account as it was.
    pub async fn delete(&self, target: Id) -> ApiResult<AdminAccountView> {
        self.store()?;
        let view = self.view(target).await?;
        if !view.account.is_suspended() {
            return Err(ApiError::forbidden());
        }
        self.account_area.delete_account(view.account.id).await?;
        Ok(view)
    }

    /// Deletes, with everything they have, the accounts suspended here more than
    /// [`SUSPENSION_KEEP_DAYS`] ago (until then a suspension can be lifted with nothing lost, as
    /// Mastodon keeps them). Kept: accounts suspended by their own server (that server deletes
    /// what it wants) and those a domain block suspended (lifting the block brings them back;
    /// Mastodon schedules no deletion for them either). Returns how many were deleted. The
    /// server's housekeeping runs it; without moderation data it deletes nothing.
    pub async fn delete_expired_suspensions(&self) -> ApiResult<usize> {
        let Some(store) = self.moderation else {
            return Ok(0);
        };
        let cutoff = self.now - chrono::Duration::days(SUSPENSION_KEEP_DAYS);
        let by_blocks: Vec<_> = store
            .instance_domain_blocks()
            .await?
            .into_iter()
            .filter(|b| b.severity == crate::store::DomainBlockSeverity::Suspend)
            .collect();
        let filter = AdminAccountFilter {
            status: Some(crate::store::AdminAccountStatus::Suspended),
            ..AdminAccountFilter::default()
        };
        let mut expired = Vec::new();
        let mut page = Page::first(REPORTS_PER_READ);
        loop {
            let ids = store.admin_account_ids(&filter, page).await?;
            let Some(oldest) = ids.last().copied() else {
                break;
            };
            let full = ids.len() == REPORTS_PER_READ;
            for account in self.accounts.accounts_by_ids(&ids).await? {
                let Some(since) = account.suspended_at else {
                    continue;
                };
                let by_block = account.domain.as_deref().is_some_and(|host| {
                    by_blocks.iter().any(|b| {
                        server_blocks::dated_by(b, Some(since))
                            && server_blocks::domain_covers(&b.domain, host)
                    })
                });
                if since <= cutoff && !account.is_suspended_remotely() && !by_block {
                    expired.push(account.id);
                }
            }
            if !full {
                break;
            }
            page.max_id = Some(oldest);
        }
        for id in &expired {
            self.account_area.delete_account(*id).await?;
        }
        Ok(expired.len())
    }
}

#[cfg(test)]
mod tests {
    use chrono::Utc;
    use http::StatusCode;

    use super::*;
    use crate::App;
    use crate::api::Auth;
    use crate::app::RequestInfo;
    use crate::scope::Scopes;
    use crate::services::accounts::NewAccount;
    use crate::services::relationships::FollowOptions;
    use crate::store::{
        AccountOrigin, AdminAccountStatus, NotificationQuery, PublicTimelineFilter, ReportCategory,
    };
    use crate::streaming::Channel;
    use crate::test_support::{account, app, post};

    /// A confirmed local account with `role`, approved or waiting for approval.
    async fn member(app: &App, name: &str, role: Role, approved: bool) -> AccountRecord {
        app.accounts()
            .create_local_account(
                NewAccount {
                    username: name.to_string(),
                    email: format!("{name}@example.test"),
                    password: "correct horse battery".into(),
                    role,
                    confirmed: true,
                    approved,
                    locale: "en".into(),
                },
                false,
            )
            .await
            .expect("account")
            .0
    }

    /// A remote account on `remote.example`.
    async fn remote(app: &App, name: &str) -> AccountRecord {
        let mut a = AccountRecord::new_local(app.ids.next(), name, Utc::now());
        a.domain = Some("remote.example".into());
        a.uri = Some(format!("https://remote.example/users/{name}"));
        app.store.insert_remote_account(&a).await.expect("remote");
        a
    }

    fn action(kind: AccountActionType) -> AccountAction {
        AccountAction {
            kind,
            report_id: None,
            warning_preset_id: None,
            text: String::new(),
            send_email_notification: true,
        }
    }

    /// Authenticates a fresh token of `who` as an endpoint of `Auth::User` would.
    async fn signs_in(app: &App, who: &AccountRecord) -> Result<(), StatusCode> {
        let cli = app.oauth().cli_application().await.expect("cli app");
        let token = app
            .oauth()
            .issue_token(
                cli.id,
                Some(who.id),
                &Scopes::parse("read").expect("scopes"),
            )
            .await
            .expect("token");
        app.authenticate(
            Auth::User("read"),
            Some(&token.access_token),
            None,
            RequestInfo::default(),
        )
        .await
        .map(|_| ())
        .map_err(|e| e.status)
    }

    async fn stored(app: &App, id: Id) -> AccountRecord {
        app.store
            .account_by_id(id)
            .await
            .expect("read")
            .expect("account")
    }

    #[tokio::test]
    async fn lists_accounts_by_origin_state_role_and_name() {
        let app = app("social.example");
        let plain = account(&app, "plain").await;
        let moderator = member(&app, "moddy", Role::Moderator, true).await;
        let pending = member(&app, "waiting", Role::User, false).await;
        let far = remote(&app, "faraway").await;
        let m = app.moderation();
        let ids = |page: AdminAccountPage| -> Vec<Id> {
            page.accounts.iter().map(|v| v.account.id).collect()
        };
        let local_active = AdminAccountFilter {
            origin: Some(AccountOrigin::Local),
            status: Some(AdminAccountStatus::Active),
            ..Default::default()
        };
        let page = m
            .accounts_page(Some(&local_active), Page::first(100))
            .await
            .expect("page");
        assert_eq!(page.first, Some(moderator.id));
        assert_eq!(page.last, Some(plain.id));
        assert_eq!(ids(page), [moderator.id, plain.id]);
        let pending_only = AdminAccountFilter {
            status: Some(AdminAccountStatus::Pending),
            ..Default::default()
        };
        let page = m
            .accounts_page(Some(&pending_only), Page::first(100))
            .await
            .expect("page");
        assert_eq!(
            page.accounts[0].user.as_ref().map(|u| u.approved),
            Some(false)
        );
        assert_eq!(ids(page), [pending.id]);
        let staff = AdminAccountFilter {
            roles: vec!["moderator".into(), "admin".into()],
            ..Default::default()
        };
        let page = m
            .accounts_page(Some(&staff), Page::first(100))
            .await
            .expect("page");
        assert_eq!(ids(page), [moderator.id]);
        let remote_only = AdminAccountFilter {
            origin: Some(AccountOrigin::Remote),
            by_domain: Some("remote.example".into()),
            ..Default::default()
        };
        let page = m
            .accounts_page(Some(&remote_only), Page::first(100))
            .await
            .expect("page");
        assert!(page.accounts[0].user.is_none());
        assert_eq!(ids(page), [far.id]);
        // A page of one, then the next from its cursor.
        let first = m
            .accounts_page(Some(&AdminAccountFilter::default()), Page::first(1))
            .await
            .expect("page");
        assert_eq!(ids(first), [far.id]);
        let next = Page {
            max_id: Some(far.id),
            ..Page::first(1)
        };
        let second = m
            .accounts_page(Some(&AdminAccountFilter::default()), next)
            .await
            .expect("page");
        assert_eq!(ids(second), [pending.id]);
        // A filter nothing can match (by IP address) is an empty page without cursors.
        let none = m.accounts_page(None, Page::first(100)).await.expect("page");
        assert!(none.accounts.is_empty() && none.first.is_none() && none.last.is_none());
    }

    #[tokio::test]
    async fn suspension_hides_the_account_refuses_its_tokens_and_is_undone() {
        let app = app("social.example");
        let admin = member(&app, "boss", Role::Admin, true).await;
        let target = account(&app, "target").await;
        assert_eq!(signs_in(&app, &target).await, Ok(()));
        let mut suspend = action(AccountActionType::Suspend);
        suspend.text = "Spam".into();
        let warning = app
            .moderation()
            .act(&admin, Role::Admin, target.id, suspend)
            .await
            .expect("suspended");
        assert_eq!(warning.action, WarningAction::Suspend);
        assert_eq!(warning.account_id, Some(admin.id));
        assert_eq!(warning.target_account_id, target.id);
        let kept = app
            .store
            .moderation()
            .expect("moderation store")
            .account_warning_by_id(warning.id)
            .await
            .expect("read");
        assert_eq!(kept.map(|w| w.text), Some("Spam".to_string()));
        assert!(stored(&app, target.id).await.is_suspended());
        let gone = app.accounts().visible_account(target.id).await;
        assert_eq!(gone.map_err(|e| e.status), Err(StatusCode::GONE));
        assert_eq!(signs_in(&app, &target).await, Err(StatusCode::FORBIDDEN));
        let view = app.moderation().account(target.id).await.expect("view");
        assert!(view.account.is_suspended());
        let lifted = app.moderation().unsuspend(target.id).await.expect("lifted");
        assert!(!lifted.account.is_suspended());
        assert!(app.accounts().visible_account(target.id).await.is_ok());
        assert_eq!(signs_in(&app, &target).await, Ok(()));
        // Not suspended any more: nothing to lift.
        let again = app.moderation().unsuspend(target.id).await;
        assert_eq!(again.map_err(|e| e.status), Err(StatusCode::FORBIDDEN));
    }

    #[tokio::test]
    async fn moderators_act_only_on_accounts_ranking_below_them() {
        let app = app("social.example");
        let owner = member(&app, "founder", Role::Owner, true).await;
        let admin = member(&app, "chief", Role::Admin, true).await;
        let other_admin = member(&app, "chief2", Role::Admin, true).await;
        let moderator = member(&app, "moddy", Role::Moderator, true).await;
        let user = account(&app, "user").await;
        let far = remote(&app, "faraway").await;
        let m = app.moderation();
        for (who, role, target) in [
            (&moderator, Role::Moderator, &admin),
            (&moderator, Role::Moderator, &moderator),
            (&admin, Role::Admin, &other_admin),
            (&admin, Role::Admin, &owner),
        ] {
            let refused = m
                .act(who, role, target.id, action(AccountActionType::Silence))
                .await;
            assert_eq!(
                refused.map(|_| ()).map_err(|e| e.status),
                Err(StatusCode::FORBIDDEN),
                "{} silencing {}",
                who.username,
                target.username
            );
            assert!(stored(&app, target.id).await.silenced_at.is_none());
        }
        for (who, role, target) in [
            (&moderator, Role::Moderator, &user),
            (&moderator, Role::Moderator, &far),
            (&admin, Role::Admin, &moderator),
            (&owner, Role::Owner, &admin),
        ] {
            m.act(who, role, target.id, action(AccountActionType::Silence))
                .await
                .expect("allowed");
            assert!(stored(&app, target.id).await.silenced_at.is_some());
        }
        assert!(overrides(Role::Owner, Some(Role::Admin)));
        assert!(!overrides(Role::Admin, Some(Role::Admin)));
        assert!(overrides(Role::Moderator, None));
    }

    #[tokio::test]
    async fn disabling_a_login_refuses_it_until_enabled() {
        let app = app("social.example");
        let admin = member(&app, "boss", Role::Admin, true).await;
        let target = account(&app, "target").await;
        let far = remote(&app, "faraway").await;
        let m = app.moderation();
        m.act(
            &admin,
            Role::Admin,
            target.id,
            action(AccountActionType::Disable),
        )
        .await
        .expect("disabled");
        assert_eq!(signs_in(&app, &target).await, Err(StatusCode::FORBIDDEN));
        assert_eq!(
            app.oauth()
                .sign_in("target", "correct horse battery")
                .await
                .expect("sign-in")
                .map(|(_, u)| u.disabled),
            Some(true),
            "the sign-in form refuses a disabled login by this flag"
        );
        let view = m.enable(target.id).await.expect("enabled");
        assert_eq!(view.user.map(|u| u.disabled), Some(false));
        assert_eq!(signs_in(&app, &target).await, Ok(()));
        let remote_disable = m
            .act(
                &admin,
                Role::Admin,
                far.id,
                action(AccountActionType::Disable),
            )
            .await;
        assert_eq!(
            remote_disable.map(|_| ()).map_err(|e| e.status),
            Err(StatusCode::UNPROCESSABLE_ENTITY)
        );
        assert_eq!(
            m.enable(far.id).await.map_err(|e| e.status),
            Err(StatusCode::FORBIDDEN)
        );
    }

    #[tokio::test]
    async fn sensitizing_and_silencing_are_undone() {
        let app = app("social.example");
        let admin = member(&app, "boss", Role::Admin, true).await;
        let target = account(&app, "target").await;
        let m = app.moderation();
        for kind in [AccountActionType::Sensitive, AccountActionType::Silence] {
            m.act(&admin, Role::Admin, target.id, action(kind))
                .await
                .expect("acted");
        }
        let a = stored(&app, target.id).await;
        assert!(a.sensitized_at.is_some() && a.silenced_at.is_some());
        let silenced = AdminAccountFilter {
            status: Some(AdminAccountStatus::Silenced),
            ..Default::default()
        };
        let page = m
            .accounts_page(Some(&silenced), Page::first(10))
            .await
            .expect("page");
        assert_eq!(page.first, Some(target.id));
        // New posts of a sensitized account are sensitive.
        let s = post(&app, &stored(&app, target.id).await, "look at this", None).await;
        assert!(s.sensitive);
        assert!(
            m.unsensitive(target.id)
                .await
                .expect("undone")
                .account
                .sensitized_at
                .is_none()
        );
        assert!(
            m.unsilence(target.id)
                .await
                .expect("undone")
                .account
                .silenced_at
                .is_none()
        );
        // Undoing what is not there is no error.
        assert!(m.unsilence(target.id).await.is_ok());
        let a = stored(&app, target.id).await;
        assert!(a.sensitized_at.is_none() && a.silenced_at.is_none());
    }

    #[tokio::test]
    async fn only_pending_local_accounts_are_approved_or_rejected() {
        let app = app("social.example");
        let approved = account(&app, "approved").await;
        let waiting = member(&app, "waiting", Role::User, false).await;
        let rejected = member(&app, "rejected", Role::User, false).await;
        let far = remote(&app, "faraway").await;
        let m = app.moderation();
        for id in [approved.id, far.id] {
            assert_eq!(
                m.approve(id).await.map_err(|e| e.status),
                Err(StatusCode::FORBIDDEN)
            );
            assert_eq!(
                m.reject(id).await.map_err(|e| e.status),
                Err(StatusCode::FORBIDDEN)
            );
        }
        assert!(
            app.store
                .account_by_id(approved.id)
                .await
                .expect("read")
                .is_some()
        );
        let view = m.approve(waiting.id).await.expect("approved");
        assert_eq!(view.user.map(|u| u.approved), Some(true));
        assert_eq!(signs_in(&app, &waiting).await, Ok(()));
        let view = m.reject(rejected.id).await.expect("rejected");
        assert_eq!(view.account.id, rejected.id);
        assert!(
            app.store
                .account_by_id(rejected.id)
                .await
                .expect("read")
                .is_none()
        );
        assert_eq!(
            m.account(rejected.id).await.map_err(|e| e.status),
            Err(StatusCode::NOT_FOUND)
        );
    }

    #[tokio::test]
    async fn only_suspended_accounts_are_deleted() {
        let app = app("social.example");
        let admin = member(&app, "boss", Role::Admin, true).await;
        let target = account(&app, "target").await;
        let m = app.moderation();
        assert_eq!(
            m.delete(target.id).await.map_err(|e| e.status),
            Err(StatusCode::FORBIDDEN)
        );
        m.act(
            &admin,
            Role::Admin,
            target.id,
            action(AccountActionType::Suspend),
        )
        .await
        .expect("suspended");
        let view = m.delete(target.id).await.expect("deleted");
        assert!(view.account.is_suspended());
        assert!(
            app.store
                .account_by_id(target.id)
                .await
                .expect("read")
                .is_none()
        );
        assert_eq!(
            m.delete(target.id).await.map_err(|e| e.status),
            Err(StatusCode::NOT_FOUND)
        );
    }

    #[tokio::test]
    async fn actions_resolve_reports_and_unknown_references_are_404() {
        let app = app("social.example");
        let admin = member(&app, "boss", Role::Admin, true).await;
        let reporter = account(&app, "reporter").await;
        let target = account(&app, "target").await;
        let bystander = account(&app, "bystander").await;
        let store = app.store.moderation().expect("moderation store");
        let report = |about: Id| ReportRecord {
            id: app.ids.next(),
            account_id: reporter.id,
            target_account_id: about,
            status_ids: vec![],
            rule_ids: vec![],
            comment: String::new(),
            category: ReportCategory::Spam,
            forwarded: false,
            uri: None,
            assigned_account_id: None,
            action_taken_at: None,
            action_taken_by_account_id: None,
            created_at: Utc::now(),
            updated_at: Utc::now(),
        };
        let (named, other, elsewhere) =
            (report(target.id), report(target.id), report(bystander.id));
        for r in [&named, &other, &elsewhere] {
            store.insert_report(r).await.expect("report");
        }
        let resolved = |id: Id| async move {
            store
                .report_by_id(id)
                .await
                .expect("read")
                .expect("report")
                .action_taken_by_account_id
        };
        let m = app.moderation();
        let mut warn = action(AccountActionType::None);
        warn.report_id = Some(named.id);
        let w = m
            .act(&admin, Role::Admin, target.id, warn)
            .await
            .expect("warned");
        assert_eq!(w.report_id, Some(named.id));
        assert_eq!(resolved(named.id).await, Some(admin.id));
        assert_eq!(
            resolved(other.id).await,
            None,
            "`none` resolves only the report named"
        );
        m.act(
            &admin,
            Role::Admin,
            target.id,
            action(AccountActionType::Silence),
        )
        .await
        .expect("silenced");
        assert_eq!(resolved(other.id).await, Some(admin.id));
        assert_eq!(resolved(elsewhere.id).await, None);
        let mut unknown_report = action(AccountActionType::Sensitive);
        unknown_report.report_id = Some(app.ids.next());
        let mut unknown_preset = action(AccountActionType::Sensitive);
        unknown_preset.warning_preset_id = Some("1".into());
        for a in [unknown_report, unknown_preset] {
            let r = m.act(&admin, Role::Admin, target.id, a).await;
            assert_eq!(
                r.map(|_| ()).map_err(|e| e.status),
                Err(StatusCode::NOT_FOUND)
            );
        }
        assert!(stored(&app, target.id).await.sensitized_at.is_none());
        let r = m
            .act(
                &admin,
                Role::Admin,
                app.ids.next(),
                action(AccountActionType::None),
            )
            .await;
        assert_eq!(
            r.map(|_| ()).map_err(|e| e.status),
            Err(StatusCode::NOT_FOUND)
        );
    }

    #[tokio::test]
    async fn without_moderation_data_every_method_is_404() {
        let app = app("social.example");
        let admin = member(&app, "boss", Role::Admin, true).await;
        let target = account(&app, "target").await;
        let m = Moderation {
            moderation: None,
            ..app.moderation()
        };
        let status = |e: ApiError| (e.status, e.message);
        let expected = Err((
            StatusCode::NOT_FOUND,
            "This server keeps no moderation data".to_string(),
        ));
        assert_eq!(
            m.accounts_page(Some(&AdminAccountFilter::default()), Page::first(5))
                .await
                .map(|_| ())
                .map_err(status),
            expected
        );
        assert_eq!(
            m.account(target.id).await.map(|_| ()).map_err(status),
            expected
        );
        assert_eq!(
            m.act(
                &admin,
                Role::Admin,
                target.id,
                action(AccountActionType::Suspend)
            )
            .await
            .map(|_| ())
            .map_err(status),
            expected
        );
        assert!(!stored(&app, target.id).await.is_suspended());
    }

    #[tokio::test]
    async fn silenced_accounts_stay_off_public_timelines_but_for_followers() {
        let app = app("social.example");
        let admin = member(&app, "boss", Role::Admin, true).await;
        let loud = account(&app, "loud").await;
        let fan = account(&app, "fan").await;
        let stranger = account(&app, "stranger").await;
        app.relationships()
            .follow(&fan, loud.id, FollowOptions::default())
            .await
            .expect("follow");
        let s = post(&app, &loud, "hello #world", None).await;
        app.moderation()
            .act(
                &admin,
                Role::Admin,
                loud.id,
                action(AccountActionType::Silence),
            )
            .await
            .expect("silenced");
        let public = |viewer: Option<AccountRecord>| {
            let app = &app;
            async move {
                app.timelines()
                    .public_timeline(
                        viewer.as_ref(),
                        PublicTimelineFilter::default(),
                        Page::first(20),
                    )
                    .await
                    .expect("timeline")
                    .statuses
                    .iter()
                    .any(|t| t.id == s.id)
            }
        };
        assert!(!public(None).await);
        assert!(!public(Some(stranger.clone())).await);
        assert!(public(Some(fan.clone())).await);
        assert!(public(Some(loud.clone())).await);
        // The public and hashtag streams follow the same rule.
        let targets = app
            .streaming()
            .status_targets(s.id)
            .await
            .expect("targets")
            .expect("a status");
        let everything = Channel::Public {
            local: false,
            remote: false,
            media: false,
        };
        let tag = Channel::Hashtag {
            tag: "world".into(),
            local: false,
        };
        for channel in [&everything, &tag] {
            assert!(!targets.reaches(channel, None));
            assert!(!targets.reaches(channel, Some(stranger.id)));
            assert!(targets.reaches(channel, Some(fan.id)));
            assert!(targets.reaches(channel, Some(loud.id)));
        }
        // The limited account's mention of a stranger waits among filtered notifications.
        post(&app, &stored(&app, loud.id).await, "hi @stranger", None).await;
        let all = NotificationQuery {
            include_filtered: true,
            ..Default::default()
        };
        let told = app
            .store
            .notifications_page(stranger.id, &all, Page::first(10))
            .await
            .expect("notifications");
        assert_eq!(told.len(), 1);
        assert!(told[0].filtered);
        app.moderation()
            .unsilence(loud.id)
            .await
            .expect("unsilenced");
        assert!(public(Some(stranger)).await);
    }
}
