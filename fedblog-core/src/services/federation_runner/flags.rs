//! Reports across servers: a `Flag` another server sends, filed here as a report about the
//! local accounts it names (Mastodon's `ActivityPub::Activity::Flag`), and a report of ours
//! about a remote account rendered as the `Flag` that forwards it (Mastodon's
//! `ActivityPub::FlagSerializer`, sent by the instance actor as `ReportService` sends it).

use serde_json::Value;

use crate::app::App;
use crate::error::ApiResult;
use crate::federation::paths::{self, Local};
use crate::federation::vocab::{self, Activity};
use crate::id::Id;
use crate::permissions::{Permissions, roles_that_can};
use crate::store::{AccountRecord, INSTANCE_ACTOR, StatusRecord};

/// Objects of a `Flag` looked at, at most (Mastodon reads them all; a report names one account
/// and the statuses of it a reporter picked, which Mastodon's form caps well below this).
const MAX_FLAG_OBJECTS: usize = 100;

impl App {
    /// A `Flag` from `signer`: each local account it names (and is not suspended) gets a report
    /// filed by `signer`, with the local statuses it names of that account, its `content` as
    /// comment, and its id as `uri` when that is on the signer's server. A `Flag` from a server
    /// whose domain block rejects reports (`reject_reports`) is dropped, as are the objects that
    /// are not ours. A `Flag` seen before was dropped already (its id is noted when applied).
    pub(super) async fn receive_flag(
        &self,
        signer: &AccountRecord,
        activity: &Activity,
    ) -> ApiResult<()> {
        let federation = self.federation();
        if let Some(domain) = signer.domain.as_deref()
            && federation
                .domain_block_of(domain)
                .await
                .is_some_and(|b| b.reject_reports)
        {
            tracing::info!(from = %domain, "dropping a report from a server whose reports are rejected");
            return Ok(());
        }
        let (targets, statuses) = self.flagged(activity).await?;
        if targets.is_empty() {
            return Ok(());
        }
        let uri = activity
            .id
            .clone()
            .filter(|id| paths::host_of(id).is_some() && paths::host_of(id) == signer.domain);
        let comment = activity.content.clone().unwrap_or_default();
        let staff = roles_that_can(self.store.moderation(), Permissions::MANAGE_REPORTS).await?;
        let reports = self.reports();
        for target in targets {
            let status_ids = statuses
                .iter()
                .filter(|s| s.account_id == target.id)
                .map(|s| s.id)
                .collect();
            reports
                .file_remote_report(signer, &target, status_ids, &comment, uri.clone(), &staff)
                .await?;
        }
        Ok(())
    }

    /// The local accounts and the local statuses (not reblogs) a `Flag`'s objects name, each
    /// once, in order.
    async fn flagged(
        &self,
        activity: &Activity,
    ) -> ApiResult<(Vec<AccountRecord>, Vec<StatusRecord>)> {
        let base = self.base_url();
        let mut targets: Vec<AccountRecord> = vec![];
        let mut statuses: Vec<StatusRecord> = vec![];
        for uri in activity.object_ids().into_iter().take(MAX_FLAG_OBJECTS) {
            match paths::parse_local(&base, &uri) {
                Some(Local::Actor(name)) => {
                    if let Some(account) = self.store.account_by_username(&name, None).await?
                        && !targets.iter().any(|t| t.id == account.id)
                    {
                        targets.push(account);
                    }
                }
                Some(Local::Status(id)) => {
                    if let Some(status) = self.store.status_by_id(id).await?
                        && status.local
                        && status.reblog_of_id.is_none()
                        && !statuses.iter().any(|s| s.id == status.id)
                    {
                        statuses.push(status);
                    }
                }
                Some(Local::InstanceActor) | None => {}
            }
        }
        Ok((targets, statuses))
    }

    /// The `Flag` forwarding report `report` (about a remote account), by the instance actor:
    /// its object the reported account's id, then the ids of its statuses that still exist, in
    /// the order filed; its content the comment. `None` when the report or its account is gone.
    pub(crate) async fn render_flag(&self, report: Id) -> ApiResult<Option<(Id, Value)>> {
        let Some(moderation) = self.store.moderation() else {
            return Ok(None);
        };
        let Some(report) = moderation.report_by_id(report).await? else {
            return Ok(None);
        };
        let Some(target) = self.store.account_by_id(report.target_account_id).await? else {
            return Ok(None);
        };
        let mut objects = vec![self.actor_uri(&target)];
        let found = self.store.statuses_by_ids(&report.status_ids).await?;
        for id in &report.status_ids {
            if let Some(status) = found.iter().find(|s| s.id == *id)
                && let Some(uri) = self.status_uri(status).await?
            {
                objects.push(uri);
            }
        }
        let actor = paths::instance_actor(&self.base_url());
        let id = report
            .uri
            .clone()
            .unwrap_or_else(|| paths::activity(&actor, "flags", report.id));
        let flag = vocab::flag(&id, &actor, objects, &report.comment);
        Ok(Some((INSTANCE_ACTOR, flag)))
    }
}
