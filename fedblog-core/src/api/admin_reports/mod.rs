//! Administration of reports (`/api/v1/admin/reports`). <https://docs.joinmastodon.org/methods/admin/reports/>
//!
//! Every endpoint takes a user token with its `admin:*:reports` scope, then a role granting
//! Manage Reports, else 403; a store without moderation data answers 404. Statuses and rules
//! deleted since a report was filed are left out of it.

pub mod assign_report;
pub mod get_report;
pub mod list_reports;
pub mod reopen_report;
pub mod resolve_report;
pub mod unassign_report;
pub mod update_report;

use std::collections::HashMap;

use crate::app::{App, Caller};
use crate::endpoint::{Json, path_id};
use crate::entities::AdminReport;
use crate::error::{ApiError, ApiResult};
use crate::permissions::{self, Permissions};
use crate::services::reports::{ReportAction, ReportView};
use crate::store::{AccountRecord, StatusRecord};

/// Reports listed by default.
const DEFAULT_LIMIT: usize = 100;
/// Reports listed at most.
const MAX_LIMIT: usize = 200;

/// Reports rendered for the moderator `me`, their statuses rendered together (each kind of
/// record read once for the whole page).
async fn rendered(
    app: &App,
    me: &AccountRecord,
    views: &[ReportView],
) -> ApiResult<Vec<AdminReport>> {
    let mut seen = std::collections::HashSet::new();
    let statuses: Vec<StatusRecord> = views
        .iter()
        .flat_map(|v| v.statuses.iter())
        .filter(|s| seen.insert(s.id))
        .cloned()
        .collect();
    let rendered: HashMap<_, _> = if statuses.is_empty() {
        HashMap::new()
    } else {
        app.render_statuses(&statuses, Some(me), false)
            .await?
            .into_iter()
            .map(|s| (s.id, s))
            .collect()
    };
    Ok(views
        .iter()
        .map(|v| app.render_admin_report(v, &rendered))
        .collect())
}

/// One report rendered for the moderator `me`.
async fn rendered_one(
    app: &App,
    me: &AccountRecord,
    view: ReportView,
) -> ApiResult<Json<AdminReport>> {
    rendered(app, me, std::slice::from_ref(&view))
        .await?
        .pop()
        .map(Json)
        .ok_or_else(ApiError::not_found)
}

/// Does `action` to the report `id` for the caller, a moderator, and answers the report.
async fn act(
    app: &App,
    caller: &Caller,
    id: &str,
    action: ReportAction,
) -> ApiResult<Json<AdminReport>> {
    let me = permissions::require(caller, Permissions::MANAGE_REPORTS)?;
    let view = app.reports().act(me, path_id(id)?, action).await?;
    rendered_one(app, me, view).await
}
