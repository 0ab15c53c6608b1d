//! Reports: filed by accounts about other accounts (and their statuses), and handled by
//! moderators (assigned, resolved, reopened).
//!
//! The rules are Mastodon's (`ReportService`, `Report`): a report names an account that exists
//! and is not suspended (404), never the reporter itself (422); its statuses are statuses of that
//! account the reporter may see (404 otherwise, as Mastodon's `find`); its comment holds at most
//! 1,000 characters; its category is `spam`, `legal`, `violation` or `other` (the default), and
//! `violation` whenever rules are named, which must all be rules of the server (422); a report of
//! another category names no rule. When no other report about the same account is open, every
//! local account whose role handles reports is told with an `admin.report` notification.
//! Forwarded, a report about a remote account goes as a `Flag` from the instance actor to the
//! account's server and to the servers (among those asked) of the accounts its statuses reply to
//! (`forwarded` records whether the account's server was told); a `Flag` another server sends is
//! filed here as a report by its signer ([`Reports::file_remote_report`]). A report may name
//! statuses deleted since: reading it leaves them out. The whole area needs the store's
//! [`ModerationStore`]: without one, every method answers 404.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};

use crate::error::{ApiError, ApiResult};
use crate::id::{Id, IdGenerator};
use crate::pagination::Page;
use crate::services::moderation::{AdminAccountView, attach_custom_roles};
use crate::services::notifications::Notifications;
use crate::services::outbox::Outbox;
use crate::services::visibility::VisibilityRule;
use crate::store::{
    AccountRecord, AccountStore, ModerationStore, NotificationType, ReportCategory, ReportFilter,
    ReportRecord, Role, RuleRecord, StatusRecord, StatusStore, Store,
};

/// Longest comment a report takes, in characters.
pub const MAX_COMMENT_CHARS: usize = 1000;

/// A report as the reporter files it, parameters as given (the area checks them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NewReport {
    /// The reported account's id.
    pub account_id: String,
    /// Statuses of that account, for context.
    pub status_ids: Vec<String>,
    /// Why (at most [`MAX_COMMENT_CHARS`] characters).
    pub comment: String,
    /// Whether to forward it to the reported account's server (remote accounts only).
    pub forward: bool,
    /// The domains to forward it to (empty: the reported account's own).
    pub forward_to_domains: Vec<String>,
    /// `spam`, `legal`, `violation` or `other` (`None`: `other`, or `violation` with rules).
    pub category: Option<String>,
    /// The server's rules it breaks.
    pub rule_ids: Vec<String>,
}

/// What a moderator changes in a report (`None`: kept).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReportChanges {
    /// A new category.
    pub category: Option<String>,
    /// New rules (only with category `violation`).
    pub rule_ids: Option<Vec<String>>,
}

/// A report as its reporter sees it: the record and the reported account.
#[derive(Clone, Debug, PartialEq)]
pub struct FiledReport {
    /// The report.
    pub report: ReportRecord,
    /// The reported account.
    pub target: AccountRecord,
}

/// A report as moderators see it, with what render needs to make the `Admin::Report` of it:
/// the accounts with their logins, the statuses that still exist, the rules that still exist.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportView {
    /// The report.
    pub report: ReportRecord,
    /// Who filed it.
    pub account: AdminAccountView,
    /// The reported account.
    pub target_account: AdminAccountView,
    /// The moderator handling it.
    pub assigned_account: Option<AdminAccountView>,
    /// The moderator who resolved it.
    pub action_taken_by_account: Option<AdminAccountView>,
    /// Its statuses that still exist, in the order filed.
    pub statuses: Vec<StatusRecord>,
    /// Its rules that still exist, in the order filed.
    pub rules: Vec<RuleRecord>,
}

/// A page of reports for moderators, newest first, with the cursors of the `Link` header.
#[derive(Clone, Debug, Default)]
pub struct ReportPage {
    /// The reports.
    pub reports: Vec<ReportView>,
    /// The id of the first (newest) report read.
    pub first: Option<Id>,
    /// The id of the last (oldest) report read.
    pub last: Option<Id>,
}

/// Which reports moderators list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReportQuery {
    /// Resolved ones (otherwise open ones).
    pub resolved: bool,
    /// Only those filed by this account (as given: what is no id names no account, so none).
    pub account_id: Option<String>,
    /// Only those about this account (as given, likewise).
    pub target_account_id: Option<String>,
}

/// An account filter as given: `Ok(None)` for none, `Err(())` for what is no id (no report
/// matches it).
fn account_filter(raw: Option<&str>) -> Result<Option<Id>, ()> {
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(s) => s.parse().map(Some).map_err(|_| ()),
    }
}

/// What a moderator does to a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportAction {
    /// Takes it on.
    AssignToSelf,
    /// Leaves it to anyone.
    Unassign,
    /// Marks it handled.
    Resolve,
    /// Opens it again.
    Reopen,
}

/// The reports area: `app.reports()`. It holds the account, status and moderation stores (the
/// latter when the store keeps one), the visibility rule (which statuses a reporter may name),
/// the notifications area (telling staff), the outbox (forwarding), the id generator and the
/// clock.
pub struct Reports<'a> {
    accounts: &'a dyn AccountStore,
    statuses: &'a dyn StatusStore,
    moderation: Option<&'a dyn ModerationStore>,
    visibility: VisibilityRule<'a>,
    notifications: Notifications<'a>,
    outbox: Outbox<'a>,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
}

/// 404 for a store that keeps no moderation data (the same answer as the moderation area's).
fn no_moderation() -> ApiError {
    ApiError::no_moderation_data()
}

/// The 422 for rules that are not all the server's.
fn invalid_rules() -> ApiError {
    ApiError::invalid_field(
        "rule_ids",
        "ERR_INVALID",
        "Rule ids does not reference valid rules",
    )
}

/// Parses a category name; 422 for another.
fn parse_category(raw: &str) -> ApiResult<ReportCategory> {
    ReportCategory::parse(raw.trim()).ok_or_else(|| {
        ApiError::invalid_field(
            "category",
            "ERR_INCLUSION",
            "Category is not included in the list",
        )
    })
}

/// Ids in the order given, each once.
fn unique(ids: Vec<Id>) -> Vec<Id> {
    let mut seen = HashSet::new();
    ids.into_iter().filter(|id| seen.insert(*id)).collect()
}

/// A domain as compared for forwarding: trimmed, lower case, without a trailing dot.
fn normalize_domain(raw: &str) -> String {
    raw.trim().trim_end_matches('.').to_ascii_lowercase()
}

impl<'a> Reports<'a> {
    /// The area over the accounts, statuses and moderation data of `store`, deciding what a
    /// reporter may name through `visibility`, telling staff through `notifications`,
    /// forwarding through `outbox`, making ids with `ids`, at `now`.
    pub fn new(
        store: &'a dyn Store,
        visibility: VisibilityRule<'a>,
        notifications: Notifications<'a>,
        outbox: Outbox<'a>,
        ids: &'a IdGenerator,
        now: DateTime<Utc>,
    ) -> Self {
        Reports {
            accounts: store,
            statuses: store,
            moderation: store.moderation(),
            visibility,
            notifications,
            outbox,
            ids,
            now,
        }
    }

    /// The moderation store, or 404 when the store keeps none.
    fn store(&self) -> ApiResult<&'a dyn ModerationStore> {
        self.moderation.ok_or_else(no_moderation)
    }

    /// The rule ids given, checked against the server's rules (each once, in the order given);
    /// 422 when one is not an id of a rule.
    async fn checked_rules(
        &self,
        store: &dyn ModerationStore,
        raw: &[String],
    ) -> ApiResult<Vec<Id>> {
        let ids: Vec<Id> = raw
            .iter()
            .map(|r| r.trim().parse().map_err(|_| invalid_rules()))
            .collect::<ApiResult<_>>()?;
        let ids = unique(ids);
        if ids.is_empty() {
            return Ok(ids);
        }
        let known: HashSet<Id> = store.rules().await?.into_iter().map(|r| r.id).collect();
        if ids.iter().any(|id| !known.contains(id)) {
            return Err(invalid_rules());
        }
        Ok(ids)
    }

    /// The category and rules of a report: `violation` whenever rules are named (whatever the
    /// category given), and then only rules of the server; `violation` without rules is a 422,
    /// as Mastodon's validation of `rule_ids`.
    async fn category_and_rules(
        &self,
        store: &dyn ModerationStore,
        category: Option<&str>,
        rule_ids: &[String],
    ) -> ApiResult<(ReportCategory, Vec<Id>)> {
        let given = category
            .filter(|c| !c.trim().is_empty())
            .map(parse_category)
            .transpose()?;
        let rules = self.checked_rules(store, rule_ids).await?;
        if !rules.is_empty() {
            return Ok((ReportCategory::Violation, rules));
        }
        let category = given.unwrap_or(ReportCategory::Other);
        if category == ReportCategory::Violation {
            return Err(invalid_rules());
        }
        Ok((category, rules))
    }

    /// Files a report by `reporter`, then tells `staff` of it: the local accounts whose role is
    /// among `staff` (the roles that handle reports), unless another report about the same
    /// account is still open (they were told of that one). See the module documentation for
    /// the rules.
    pub async fn file_report(
        &self,
        reporter: &AccountRecord,
        new: NewReport,
        staff: &[Role],
    ) -> ApiResult<FiledReport> {
        let store = self.store()?;
        let target_id: Id = new
            .account_id
            .trim()
            .parse()
            .map_err(|_| ApiError::not_found())?;
        let target = self
            .accounts
            .account_by_id(target_id)
            .await?
            .filter(|a| !a.is_suspended())
            .ok_or_else(ApiError::not_found)?;
        if target.id == reporter.id {
            return Err(ApiError::invalid_field(
                "target_account",
                "ERR_INVALID",
                "Target account cannot be the reporter",
            ));
        }
        let comment = new.comment.trim().to_string();
        if comment.chars().count() > MAX_COMMENT_CHARS {
            return Err(ApiError::invalid_field(
                "comment",
                "ERR_TOO_LONG",
                format!("Comment is too long (maximum is {MAX_COMMENT_CHARS} characters)"),
            ));
        }
        let (category, rule_ids) = self
            .category_and_rules(store, new.category.as_deref(), &new.rule_ids)
            .await?;
        let status_ids = self
            .reported_statuses(reporter, &target, &new.status_ids)
            .await?;
        // Mastodon's `forward_to_domains`: those given, else the reported account's own.
        let forward_to: Vec<String> = match &target.domain {
            Some(domain) if new.forward && new.forward_to_domains.is_empty() => {
                vec![normalize_domain(domain)]
            }
            Some(_) if new.forward => new
                .forward_to_domains
                .iter()
                .map(|d| normalize_domain(d))
                .filter(|d| !d.is_empty())
                .collect(),
            _ => vec![],
        };
        let forwarded = target
            .domain
            .as_deref()
            .is_some_and(|d| forward_to.contains(&normalize_domain(d)));
        let id = self.ids.next_at(self.now.timestamp_millis());
        let report = ReportRecord {
            id,
            account_id: reporter.id,
            target_account_id: target.id,
            status_ids,
            rule_ids,
            comment,
            category,
            forwarded,
            uri: (!forward_to.is_empty()).then(|| self.outbox.flag_uri(id)),
            assigned_account_id: None,
            action_taken_at: None,
            action_taken_by_account_id: None,
            created_at: self.now,
            updated_at: self.now,
        };
        store.insert_report(&report).await?;
        if !forward_to.is_empty() {
            self.outbox
                .report_forwarded(&report, &target, &forward_to)
                .await?;
        }
        if !self.has_open_siblings(store, &report).await? {
            self.tell_staff(reporter, report.id, staff).await?;
        }
        Ok(FiledReport { report, target })
    }

    /// Files the report another server sent as a `Flag` signed by `reporter` (one of its
    /// accounts, or its instance actor) about the local `target`, as Mastodon's
    /// `ActivityPub::Activity::Flag` does: naming `status_ids` (the target's statuses the
    /// `Flag` named), with its `content` as comment (as sent: the length limit is for our
    /// reporters), category `other` (a `Flag` carries none), and its id as `uri`; then tells
    /// `staff` as [`Reports::file_report`] does. `None` for a suspended target, which is not
    /// reported.
    pub async fn file_remote_report(
        &self,
        reporter: &AccountRecord,
        target: &AccountRecord,
        status_ids: Vec<Id>,
        comment: &str,
        uri: Option<String>,
        staff: &[Role],
    ) -> ApiResult<Option<ReportRecord>> {
        let store = self.store()?;
        if target.is_suspended() || !target.is_local() {
            return Ok(None);
        }
        let report = ReportRecord {
            id: self.ids.next_at(self.now.timestamp_millis()),
            account_id: reporter.id,
            target_account_id: target.id,
            status_ids: unique(status_ids),
            rule_ids: vec![],
            comment: comment.trim().to_string(),
            category: ReportCategory::Other,
            forwarded: false,
            uri,
            assigned_account_id: None,
            action_taken_at: None,
            action_taken_by_account_id: None,
            created_at: self.now,
            updated_at: self.now,
        };
        store.insert_report(&report).await?;
        if !self.has_open_siblings(store, &report).await? {
            self.tell_staff(reporter, report.id, staff).await?;
        }
        Ok(Some(report))
    }

    /// The statuses a report names, each once in the order given: statuses of `target` that
    /// `reporter` may see; 404 for any other id (as Mastodon's `find`).
    async fn reported_statuses(
        &self,
        reporter: &AccountRecord,
        target: &AccountRecord,
        raw: &[String],
    ) -> ApiResult<Vec<Id>> {
        let ids: Vec<Id> = raw
            .iter()
            .map(|s| s.trim().parse().map_err(|_| ApiError::not_found()))
            .collect::<ApiResult<_>>()?;
        let ids = unique(ids);
        if ids.is_empty() {
            return Ok(ids);
        }
        let found: HashMap<Id, StatusRecord> = self
            .statuses
            .statuses_by_ids(&ids)
            .await?
            .into_iter()
            .map(|s| (s.id, s))
            .collect();
        for id in &ids {
            let status = found
                .get(id)
                .filter(|s| s.account_id == target.id)
                .ok_or_else(ApiError::not_found)?;
            if !self
                .visibility
                .can_see(Some(reporter), status, target)
                .await?
            {
                return Err(ApiError::not_found());
            }
        }
        Ok(ids)
    }

    /// Whether another report about the same account is still open.
    async fn has_open_siblings(
        &self,
        store: &dyn ModerationStore,
        report: &ReportRecord,
    ) -> ApiResult<bool> {
        let filter = ReportFilter {
            resolved: false,
            account_id: None,
            target_account_id: Some(report.target_account_id),
        };
        Ok(store
            .reports(&filter, Page::first(2))
            .await?
            .iter()
            .any(|r| r.id != report.id))
    }

    /// Tells every local account whose role is among `staff` of the new report `report` by
    /// `reporter` (`admin.report`; the notifications area leaves out the reporter itself,
    /// suspended accounts, and those that block or mute the reporter).
    async fn tell_staff(
        &self,
        reporter: &AccountRecord,
        report: Id,
        staff: &[Role],
    ) -> ApiResult<()> {
        self.notifications
            .notify_staff(staff, reporter, NotificationType::AdminReport, Some(report))
            .await
    }

    /// One page of the reports `query` selects, newest first, as moderators see them. A report
    /// whose reporter or reported account no longer exists is left out of the page.
    pub async fn reports_page(&self, query: &ReportQuery, page: Page) -> ApiResult<ReportPage> {
        let store = self.store()?;
        let (Ok(account_id), Ok(target_account_id)) = (
            account_filter(query.account_id.as_deref()),
            account_filter(query.target_account_id.as_deref()),
        ) else {
            return Ok(ReportPage::default());
        };
        let filter = ReportFilter {
            resolved: query.resolved,
            account_id,
            target_account_id,
        };
        let read = store.reports(&filter, page).await?;
        let first = read.first().map(|r| r.id);
        let last = read.last().map(|r| r.id);
        Ok(ReportPage {
            reports: self.views(store, read).await?,
            first,
            last,
        })
    }

    /// One report as moderators see it; 404 when unknown (or its accounts are gone).
    pub async fn report(&self, id: Id) -> ApiResult<ReportView> {
        let store = self.store()?;
        let report = store
            .report_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        self.views(store, vec![report])
            .await?
            .pop()
            .ok_or_else(ApiError::not_found)
    }

    /// Changes a report's category or rules, as a moderator: the rules named make it a
    /// `violation` (only rules of the server, 422 otherwise); another category drops its rules,
    /// unless rules are named with it (422, as Mastodon: a report of that category names none);
    /// `violation` without rules is a 422.
    pub async fn update_report(&self, id: Id, changes: ReportChanges) -> ApiResult<ReportView> {
        let store = self.store()?;
        let mut report = store
            .report_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let category = match changes.category.as_deref().filter(|c| !c.trim().is_empty()) {
            Some(c) => Some(parse_category(c)?),
            None => None,
        };
        let rules = match &changes.rule_ids {
            Some(raw) => Some(self.checked_rules(store, raw).await?),
            None => None,
        };
        // Rules named without a category make it a violation, as when filing.
        let category_after = match (category, &rules) {
            (Some(c), _) => c,
            (None, Some(r)) if !r.is_empty() => ReportCategory::Violation,
            (None, _) => report.category,
        };
        let rules_after = match (rules, category) {
            (Some(rules), _) => rules,
            // Another category than `violation` named alone drops the rules.
            (None, Some(c)) if c != ReportCategory::Violation => Vec::new(),
            (None, _) => report.rule_ids.clone(),
        };
        match category_after {
            ReportCategory::Violation if rules_after.is_empty() => return Err(invalid_rules()),
            ReportCategory::Violation => {}
            _ if !rules_after.is_empty() => {
                return Err(ApiError::invalid_field(
                    "rule_ids",
                    "ERR_PRESENT",
                    "Rule ids must be blank",
                ));
            }
            _ => {}
        }
        if category_after != report.category || rules_after != report.rule_ids {
            report.category = category_after;
            report.rule_ids = rules_after;
            report.updated_at = self.now;
            store.update_report(&report).await?;
        }
        self.views(store, vec![report])
            .await?
            .pop()
            .ok_or_else(ApiError::not_found)
    }

    /// Does `action` to a report for `moderator` (doing what is already done changes nothing);
    /// 404 when unknown.
    pub async fn act(
        &self,
        moderator: &AccountRecord,
        id: Id,
        action: ReportAction,
    ) -> ApiResult<ReportView> {
        let store = self.store()?;
        let mut report = store
            .report_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let before = report.clone();
        match action {
            ReportAction::AssignToSelf => report.assigned_account_id = Some(moderator.id),
            ReportAction::Unassign => report.assigned_account_id = None,
            ReportAction::Resolve => {
                if report.action_taken_at.is_none() {
                    report.action_taken_at = Some(self.now);
                    report.action_taken_by_account_id = Some(moderator.id);
                }
            }
            ReportAction::Reopen => {
                report.action_taken_at = None;
                report.action_taken_by_account_id = None;
            }
        }
        if report != before {
            report.updated_at = self.now;
            store.update_report(&report).await?;
        }
        self.views(store, vec![report])
            .await?
            .pop()
            .ok_or_else(ApiError::not_found)
    }

    /// The reports with what moderators see of them, read in one call per kind (the logins one
    /// by one: the store has no batched read of them); a report whose reporter or reported
    /// account is gone is left out, a deleted status or rule is left out of its report.
    async fn views(
        &self,
        store: &dyn ModerationStore,
        reports: Vec<ReportRecord>,
    ) -> ApiResult<Vec<ReportView>> {
        if reports.is_empty() {
            return Ok(Vec::new());
        }
        let account_ids = unique(
            reports
                .iter()
                .flat_map(|r| {
                    [
                        Some(r.account_id),
                        Some(r.target_account_id),
                        r.assigned_account_id,
                        r.action_taken_by_account_id,
                    ]
                })
                .flatten()
                .collect(),
        );
        let mut accounts: HashMap<Id, AdminAccountView> = HashMap::new();
        for account in self.accounts.accounts_by_ids(&account_ids).await? {
            let user = if account.is_local() {
                self.accounts.user_by_account_id(account.id).await?
            } else {
                None
            };
            accounts.insert(
                account.id,
                AdminAccountView {
                    account,
                    user,
                    custom_role: None,
                },
            );
        }
        attach_custom_roles(store, accounts.values_mut()).await?;
        let status_ids = unique(reports.iter().flat_map(|r| r.status_ids.clone()).collect());
        let statuses: HashMap<Id, StatusRecord> = if status_ids.is_empty() {
            HashMap::new()
        } else {
            self.statuses
                .statuses_by_ids(&status_ids)
                .await?
                .into_iter()
                .map(|s| (s.id, s))
                .collect()
        };
        let rules: HashMap<Id, RuleRecord> = if reports.iter().all(|r| r.rule_ids.is_empty()) {
            HashMap::new()
        } else {
            store
                .rules()
                .await?
                .into_iter()
                .map(|r| (r.id, r))
                .collect()
        };
        Ok(reports
            .into_iter()
            .filter_map(|report| {
                let account = accounts.get(&report.account_id)?.clone();
                let target_account = accounts.get(&report.target_account_id)?.clone();
                let other = |id: Option<Id>| id.and_then(|id| accounts.get(&id).cloned());
                Some(ReportView {
                    assigned_account: other(report.assigned_account_id),
                    action_taken_by_account: other(report.action_taken_by_account_id),
                    statuses: report
                        .status_ids
                        .iter()
                        .filter_map(|id| statuses.get(id).cloned())
                        .collect(),
                    rules: report
                        .rule_ids
                        .iter()
                        .filter_map(|id| rules.get(id).cloned())
                        .collect(),
                    account,
                    target_account,
                    report,
                })
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::App;
    use crate::store::NotificationQuery;
    use crate::test_support::{account, post, private_post};

    /// The roles that handle reports (what the endpoint passes).
    const STAFF: [Role; 3] = [Role::Moderator, Role::Admin, Role::Owner];

    fn app() -> App {
        crate::test_support::app("reports.test")
    }

    /// A confirmed local account with `role`.
    async fn staff(app: &App, name: &str, role: Role) -> AccountRecord {
        crate::test_support::member(app, name, role).await
    }

    /// A rule of the server.
    async fn rule(app: &App, text: &str) -> RuleRecord {
        let rule = RuleRecord {
            id: app.ids.next(),
            text: text.into(),
            hint: String::new(),
            position: 0,
            created_at: app.now(),
            updated_at: app.now(),
        };
        let store = app
            .store
            .moderation()
            .expect("MemoryStore keeps moderation data");
        store.save_rule(&rule).await.expect("rule saved");
        rule
    }

    fn about(target: &AccountRecord) -> NewReport {
        NewReport {
            account_id: target.id.to_string(),
            ..NewReport::default()
        }
    }

    async fn file(app: &App, by: &AccountRecord, new: NewReport) -> ApiResult<ReportRecord> {
        Ok(app.reports().file_report(by, new, &STAFF).await?.report)
    }

    async fn reports_told(app: &App, who: &AccountRecord) -> Vec<(Id, NotificationType)> {
        app.store
            .notifications_page(who.id, &NotificationQuery::default(), Page::first(40))
            .await
            .expect("notifications")
            .into_iter()
            .filter(|n| n.kind == NotificationType::AdminReport)
            .map(|n| (n.from_account_id, n.kind))
            .collect()
    }

    fn status_of(e: ApiError) -> u16 {
        e.status.as_u16()
    }

    #[tokio::test]
    async fn a_report_names_a_visible_account_and_its_statuses() {
        let app = app();
        let reporter = account(&app, "reporter").await;
        let target = account(&app, "target").await;
        let other = account(&app, "other").await;
        let theirs = post(&app, &target, "reported", None).await;
        let hidden = private_post(&app, &target, "followers only").await;
        let elsewhere = post(&app, &other, "not the target's", None).await;

        let filed = app
            .reports()
            .file_report(
                &reporter,
                NewReport {
                    status_ids: vec![theirs.id.to_string(), theirs.id.to_string()],
                    comment: "  spam  ".into(),
                    ..about(&target)
                },
                &STAFF,
            )
            .await
            .expect("filed");
        assert_eq!(filed.target.id, target.id);
        let r = filed.report;
        assert_eq!(r.account_id, reporter.id);
        assert_eq!(r.status_ids, [theirs.id], "each status once");
        assert_eq!(r.comment, "spam");
        assert_eq!(r.category, ReportCategory::Other, "the default category");
        assert!(!r.forwarded, "a local account's report is never forwarded");
        let stored = app.reports().report(r.id).await.expect("stored");
        assert_eq!(stored.report, r);

        for (ids, why) in [
            (vec![elsewhere.id.to_string()], "another account's status"),
            (
                vec![hidden.id.to_string()],
                "a status the reporter may not see",
            ),
            (vec!["nonsense".to_string()], "what is no id"),
            (vec![app.ids.next().to_string()], "an unknown status"),
        ] {
            let e = file(
                &app,
                &reporter,
                NewReport {
                    status_ids: ids,
                    ..about(&target)
                },
            )
            .await
            .expect_err(why);
            assert_eq!(status_of(e), 404, "{why}");
        }
        for (id, why) in [
            (app.ids.next().to_string(), "an unknown account"),
            ("x".to_string(), "what is no id"),
        ] {
            let e = file(
                &app,
                &reporter,
                NewReport {
                    account_id: id,
                    ..NewReport::default()
                },
            )
            .await
            .expect_err(why);
            assert_eq!(status_of(e), 404, "{why}");
        }
        let mut suspended = account(&app, "suspended").await;
        suspended.suspended_at = Some(app.now());
        app.store
            .update_account(&suspended)
            .await
            .expect("suspended");
        let e = file(&app, &reporter, about(&suspended))
            .await
            .expect_err("suspended");
        assert_eq!(status_of(e), 404);
        let e = file(&app, &reporter, about(&reporter))
            .await
            .expect_err("oneself");
        assert_eq!(status_of(e), 422);
    }

    #[tokio::test]
    async fn comments_categories_and_rules_are_checked() {
        let app = app();
        let reporter = account(&app, "reporter").await;
        let target = account(&app, "target").await;
        let rule = rule(&app, "Be kind").await;

        let longest = file(
            &app,
            &reporter,
            NewReport {
                comment: "é".repeat(MAX_COMMENT_CHARS),
                category: Some("spam".into()),
                ..about(&target)
            },
        )
        .await
        .expect("1,000 characters are taken");
        assert_eq!(longest.category, ReportCategory::Spam);
        assert_eq!(longest.rule_ids, Vec::<Id>::new());
        let legal = file(
            &app,
            &reporter,
            NewReport {
                category: Some("legal".into()),
                ..about(&target)
            },
        )
        .await
        .expect("legal");
        assert_eq!(legal.category, ReportCategory::Legal);
        let with_rules = file(
            &app,
            &reporter,
            NewReport {
                category: Some("spam".into()),
                rule_ids: vec![rule.id.to_string()],
                ..about(&target)
            },
        )
        .await
        .expect("rules named");
        assert_eq!(with_rules.category, ReportCategory::Violation);
        assert_eq!(with_rules.rule_ids, [rule.id]);

        for (new, why) in [
            (
                NewReport {
                    comment: "x".repeat(MAX_COMMENT_CHARS + 1),
                    ..about(&target)
                },
                "a comment too long",
            ),
            (
                NewReport {
                    category: Some("rude".into()),
                    ..about(&target)
                },
                "an unknown category",
            ),
            (
                NewReport {
                    category: Some("violation".into()),
                    ..about(&target)
                },
                "a violation of no rule",
            ),
            (
                NewReport {
                    rule_ids: vec![rule.id.to_string(), app.ids.next().to_string()],
                    ..about(&target)
                },
                "a rule the server does not have",
            ),
            (
                NewReport {
                    rule_ids: vec!["first".into()],
                    ..about(&target)
                },
                "a rule id that is no id",
            ),
        ] {
            let e = file(&app, &reporter, new).await.expect_err(why);
            assert_eq!(status_of(e), 422, "{why}");
        }
    }

    #[tokio::test]
    async fn staff_are_told_of_a_report_unless_one_about_the_account_is_open() {
        let app = app();
        let reporter = account(&app, "reporter").await;
        let target = account(&app, "target").await;
        let moderator = staff(&app, "mod_ann", Role::Moderator).await;
        let admin = staff(&app, "admin_bo", Role::Admin).await;
        let bystander = account(&app, "bystander").await;

        file(&app, &reporter, about(&target)).await.expect("filed");
        let told = vec![(reporter.id, NotificationType::AdminReport)];
        assert_eq!(reports_told(&app, &moderator).await, told);
        assert_eq!(reports_told(&app, &admin).await, told);
        assert!(reports_told(&app, &bystander).await.is_empty());

        // Another report about the same account while the first is open: nobody is told again.
        file(&app, &bystander, about(&target)).await.expect("filed");
        assert_eq!(reports_told(&app, &moderator).await.len(), 1);
        // Once the open ones are resolved, the next report is told of again.
        let open = app
            .reports()
            .reports_page(&ReportQuery::default(), Page::first(10))
            .await
            .expect("open reports");
        for view in open.reports {
            app.reports()
                .act(&moderator, view.report.id, ReportAction::Resolve)
                .await
                .expect("resolved");
        }
        file(&app, &reporter, about(&target)).await.expect("filed");
        assert_eq!(reports_told(&app, &moderator).await.len(), 2);

        // A moderator filing a report is not told of its own report; the others are.
        let other_target = account(&app, "other_target").await;
        file(&app, &moderator, about(&other_target))
            .await
            .expect("filed");
        assert_eq!(reports_told(&app, &moderator).await.len(), 2);
        assert_eq!(reports_told(&app, &admin).await.len(), 3);
    }

    #[tokio::test]
    async fn moderators_assign_resolve_and_reopen() {
        let app = app();
        let reporter = account(&app, "reporter").await;
        let target = account(&app, "target").await;
        let moderator = staff(&app, "mod_ann", Role::Moderator).await;
        let report = file(&app, &reporter, about(&target)).await.expect("filed");
        let area = app.reports();

        let v = area
            .act(&moderator, report.id, ReportAction::AssignToSelf)
            .await
            .expect("assigned");
        assert_eq!(v.report.assigned_account_id, Some(moderator.id));
        let assigned = v.assigned_account.expect("the assignee is shown");
        assert_eq!(assigned.account.id, moderator.id);
        assert_eq!(assigned.user.map(|u| u.role), Some(Role::Moderator));
        assert_eq!(v.account.account.id, reporter.id);
        assert_eq!(v.target_account.account.id, target.id);

        let v = area
            .act(&moderator, report.id, ReportAction::Unassign)
            .await
            .expect("unassigned");
        assert_eq!(v.report.assigned_account_id, None);
        assert!(v.assigned_account.is_none());

        let v = area
            .act(&moderator, report.id, ReportAction::Resolve)
            .await
            .expect("resolved");
        assert!(v.report.action_taken_at.is_some());
        assert_eq!(v.report.action_taken_by_account_id, Some(moderator.id));
        let resolved = ReportQuery {
            resolved: true,
            ..ReportQuery::default()
        };
        let page = area
            .reports_page(&resolved, Page::first(10))
            .await
            .expect("page");
        assert_eq!(page.reports.len(), 1);
        assert_eq!((page.first, page.last), (Some(report.id), Some(report.id)));
        let open = area
            .reports_page(&ReportQuery::default(), Page::first(10))
            .await
            .expect("page");
        assert!(open.reports.is_empty());

        let v = area
            .act(&moderator, report.id, ReportAction::Reopen)
            .await
            .expect("reopened");
        assert_eq!(v.report.action_taken_at, None);
        assert_eq!(v.report.action_taken_by_account_id, None);
        assert!(v.action_taken_by_account.is_none());

        let e = area
            .act(&moderator, app.ids.next(), ReportAction::Resolve)
            .await
            .expect_err("unknown");
        assert_eq!(status_of(e), 404);
    }

    #[tokio::test]
    async fn lists_filter_by_reporter_and_target() {
        let app = app();
        let a = account(&app, "alice").await;
        let b = account(&app, "bob").await;
        let c = account(&app, "carol").await;
        let ab = file(&app, &a, about(&b)).await.expect("filed");
        let ac = file(&app, &a, about(&c)).await.expect("filed");
        let cb = file(&app, &c, about(&b)).await.expect("filed");
        let ids = |q: ReportQuery| {
            let app = &app;
            async move {
                app.reports()
                    .reports_page(&q, Page::first(10))
                    .await
                    .expect("page")
                    .reports
                    .into_iter()
                    .map(|v| v.report.id)
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(ids(ReportQuery::default()).await, [cb.id, ac.id, ab.id]);
        let by_a = ReportQuery {
            account_id: Some(a.id.to_string()),
            ..ReportQuery::default()
        };
        assert_eq!(ids(by_a).await, [ac.id, ab.id]);
        let about_b = ReportQuery {
            target_account_id: Some(b.id.to_string()),
            ..ReportQuery::default()
        };
        assert_eq!(ids(about_b).await, [cb.id, ab.id]);
        let both = ReportQuery {
            account_id: Some(c.id.to_string()),
            target_account_id: Some(b.id.to_string()),
            ..ReportQuery::default()
        };
        assert_eq!(ids(both).await, [cb.id]);
        let nonsense = ReportQuery {
            account_id: Some("nobody".into()),
            ..ReportQuery::default()
        };
        assert!(ids(nonsense).await.is_empty());
    }

    #[tokio::test]
    async fn moderators_change_the_category_and_rules() {
        let app = app();
        let reporter = account(&app, "reporter").await;
        let target = account(&app, "target").await;
        let rule = rule(&app, "No spam").await;
        let report = file(&app, &reporter, about(&target)).await.expect("filed");
        let area = app.reports();
        let change = |category: Option<&str>, rules: Option<Vec<String>>| ReportChanges {
            category: category.map(str::to_string),
            rule_ids: rules,
        };

        let v = area
            .update_report(report.id, change(None, Some(vec![rule.id.to_string()])))
            .await
            .expect("rules named");
        assert_eq!(v.report.category, ReportCategory::Violation);
        assert_eq!(v.rules.iter().map(|r| r.id).collect::<Vec<_>>(), [rule.id]);
        assert!(v.report.updated_at >= report.updated_at);

        for (c, why) in [
            (
                change(Some("spam"), Some(vec![rule.id.to_string()])),
                "spam naming rules",
            ),
            (
                change(Some("violation"), Some(vec![])),
                "a violation of no rule",
            ),
            (change(Some("nasty"), None), "an unknown category"),
            (
                change(None, Some(vec![app.ids.next().to_string()])),
                "an unknown rule",
            ),
        ] {
            let e = area.update_report(report.id, c).await.expect_err(why);
            assert_eq!(status_of(e), 422, "{why}");
        }

        let v = area
            .update_report(report.id, change(Some("spam"), None))
            .await
            .expect("another category alone");
        assert_eq!(v.report.category, ReportCategory::Spam);
        assert!(v.report.rule_ids.is_empty(), "its rules are dropped");
        let e = area
            .update_report(app.ids.next(), change(Some("spam"), None))
            .await
            .expect_err("unknown");
        assert_eq!(status_of(e), 404);
    }

    #[tokio::test]
    async fn deleted_statuses_and_rules_are_left_out_of_a_report() {
        let app = app();
        let reporter = account(&app, "reporter").await;
        let target = account(&app, "target").await;
        let kept = post(&app, &target, "kept", None).await;
        let gone = post(&app, &target, "gone", None).await;
        let rule_kept = rule(&app, "kept").await;
        let rule_gone = rule(&app, "gone").await;
        let report = file(
            &app,
            &reporter,
            NewReport {
                status_ids: vec![gone.id.to_string(), kept.id.to_string()],
                rule_ids: vec![rule_gone.id.to_string(), rule_kept.id.to_string()],
                ..about(&target)
            },
        )
        .await
        .expect("filed");
        app.statuses().delete_status(&gone).await.expect("deleted");
        let store = app.store.moderation().expect("moderation data");
        assert!(store.delete_rule(rule_gone.id).await.expect("deleted"));

        let v = app
            .reports()
            .report(report.id)
            .await
            .expect("still readable");
        assert_eq!(
            v.report.status_ids,
            [gone.id, kept.id],
            "the record is kept"
        );
        assert_eq!(
            v.statuses.iter().map(|s| s.id).collect::<Vec<_>>(),
            [kept.id]
        );
        assert_eq!(
            v.rules.iter().map(|r| r.id).collect::<Vec<_>>(),
            [rule_kept.id]
        );
        let page = app
            .reports()
            .reports_page(&ReportQuery::default(), Page::first(10))
            .await
            .expect("page");
        assert_eq!(page.reports.len(), 1);
        assert_eq!(page.reports[0].statuses.len(), 1);
    }

    #[tokio::test]
    async fn a_store_without_moderation_data_answers_404() {
        let app = app();
        let reporter = account(&app, "reporter").await;
        let target = account(&app, "target").await;
        let area = Reports {
            moderation: None,
            ..app.reports()
        };
        let errors = [
            area.file_report(&reporter, about(&target), &STAFF)
                .await
                .map(|_| ())
                .expect_err("filing"),
            area.reports_page(&ReportQuery::default(), Page::first(1))
                .await
                .map(|_| ())
                .expect_err("listing"),
            area.report(app.ids.next())
                .await
                .map(|_| ())
                .expect_err("reading"),
            area.act(&reporter, app.ids.next(), ReportAction::Resolve)
                .await
                .map(|_| ())
                .expect_err("acting"),
        ];
        for e in errors {
            assert_eq!(e.message, "This server keeps no moderation data");
            assert_eq!(status_of(e), 404);
        }
    }
}
