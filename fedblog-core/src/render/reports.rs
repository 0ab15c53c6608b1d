//! Rendering of reports: `Report` for the reporter, `Admin::Report` for moderators; and of the
//! moderation warnings an account is given (`AccountWarning`).

use std::collections::HashMap;

use crate::app::App;
use crate::entities::{AccountWarning, AdminReport, Report, Rule, Status};
use crate::id::Id;
use crate::render::timestamp;
use crate::services::reports::{FiledReport, ReportView};
use crate::store::{AccountRecord, AccountWarningRecord, RuleRecord};

/// A rule as a report names it.
fn render_report_rule(rule: &RuleRecord) -> Rule {
    Rule {
        id: rule.id.to_string(),
        text: rule.text.clone(),
        hint: rule.hint.clone(),
    }
}

impl App {
    /// A report as its reporter sees it (`Report`): the statuses named when it was filed, and
    /// `rule_ids` `null` when it names no rule, as Mastodon sends them.
    pub fn render_report(&self, filed: &FiledReport) -> Report {
        let r = &filed.report;
        Report {
            id: r.id,
            action_taken: r.action_taken_at.is_some(),
            action_taken_at: r.action_taken_at.map(timestamp),
            category: r.category.as_str().to_string(),
            comment: r.comment.clone(),
            forwarded: r.forwarded,
            created_at: timestamp(r.created_at),
            status_ids: Some(r.status_ids.clone()),
            rule_ids: (!r.rule_ids.is_empty()).then(|| r.rule_ids.clone()),
            target_account: self.render_account(&filed.target),
        }
    }

    /// A moderation warning as the warned account sees it: `status_ids` `null` when it names
    /// none, and no appeal (fedblog takes none).
    pub fn render_account_warning(
        &self,
        warning: &AccountWarningRecord,
        target: &AccountRecord,
    ) -> AccountWarning {
        AccountWarning {
            id: warning.id,
            action: warning.action.as_str().to_string(),
            text: warning.text.clone(),
            status_ids: (!warning.status_ids.is_empty()).then(|| warning.status_ids.clone()),
            target_account: self.render_account(target),
            appeal: None,
            created_at: timestamp(warning.created_at),
        }
    }

    /// A report as moderators see it (`Admin::Report`), its statuses taken from `statuses`
    /// (rendered for the moderator; one that could not be rendered is left out).
    pub fn render_admin_report(
        &self,
        view: &ReportView,
        statuses: &HashMap<Id, Status>,
    ) -> AdminReport {
        let r = &view.report;
        AdminReport {
            id: r.id,
            action_taken: r.action_taken_at.is_some(),
            action_taken_at: r.action_taken_at.map(timestamp),
            category: r.category.as_str().to_string(),
            comment: r.comment.clone(),
            forwarded: r.forwarded,
            created_at: timestamp(r.created_at),
            updated_at: timestamp(r.updated_at),
            account: self.render_admin_account(&view.account),
            target_account: self.render_admin_account(&view.target_account),
            assigned_account: view
                .assigned_account
                .as_ref()
                .map(|a| self.render_admin_account(a)),
            action_taken_by_account: view
                .action_taken_by_account
                .as_ref()
                .map(|a| self.render_admin_account(a)),
            statuses: view
                .statuses
                .iter()
                .filter_map(|s| statuses.get(&s.id).cloned())
                .collect(),
            rules: view.rules.iter().map(render_report_rule).collect(),
        }
    }
}
