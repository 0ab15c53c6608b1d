//! Scheduled statuses: validated when scheduled, kept with a publication job of the same id, and
//! published by whichever worker claims the job when the time comes.

use chrono::{DateTime, Duration, Utc};

use crate::entities::ScheduledParams;
use crate::error::{ApiError, ApiResult};
use crate::id::{Id, IdGenerator};
use crate::pagination::Page;
use crate::services::jobs::{PUBLISH_SCHEDULED_STATUS, new_job};
use crate::services::statuses::{NewStatus, Statuses};
use crate::store::{
    AccountRecord, AccountStore, JobStore, MediaStore, ScheduledStatusRecord, ScheduledStatusStore,
    StatusRecord, Store,
};

/// A status can be scheduled this long ahead at the soonest.
pub const MIN_LEAD_MINUTES: i64 = 5;
/// At most this many scheduled statuses per account.
pub const MAX_SCHEDULED_TOTAL: usize = 300;
/// At most this many scheduled statuses per account for one day.
pub const MAX_SCHEDULED_DAILY: usize = 25;

fn parse_time(text: &str) -> ApiResult<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text.trim())
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| {
            ApiError::invalid_field("scheduled_at", "ERR_INVALID", "Invalid date supplied")
        })
}

/// The media a scheduled status will post, in order.
pub fn scheduled_media_ids(params: &ScheduledParams) -> Vec<Id> {
    params
        .media_ids
        .iter()
        .flatten()
        .filter_map(|m| m.parse().ok())
        .collect()
}

/// The scheduled statuses area: scheduling (with every check of posting done at once),
/// rescheduling, cancelling, and the publication its job runs.
pub struct Scheduled<'a> {
    scheduled: &'a dyn ScheduledStatusStore,
    jobs: &'a dyn JobStore,
    media_store: &'a dyn MediaStore,
    accounts: &'a dyn AccountStore,
    statuses: Statuses<'a>,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
}

impl<'a> Scheduled<'a> {
    /// The area over `store`, checking and publishing through `statuses` (and releasing media
    /// through its media area).
    pub fn new(
        store: &'a dyn Store,
        statuses: Statuses<'a>,
        ids: &'a IdGenerator,
        now: DateTime<Utc>,
    ) -> Self {
        Scheduled {
            scheduled: store,
            jobs: store,
            media_store: store,
            accounts: store,
            statuses,
            ids,
            now,
        }
    }

    fn check_schedule_time(&self, at: DateTime<Utc>) -> ApiResult<()> {
        if at < self.now + Duration::minutes(MIN_LEAD_MINUTES) {
            return Err(ApiError::invalid_field(
                "scheduled_at",
                "ERR_INVALID",
                format!(
                    "The scheduled date must be at least {MIN_LEAD_MINUTES} minutes in the future"
                ),
            ));
        }
        Ok(())
    }

    async fn check_schedule_limits(
        &self,
        account_id: Id,
        at: DateTime<Utc>,
        except: Option<Id>,
    ) -> ApiResult<()> {
        let mine: Vec<ScheduledStatusRecord> = self
            .scheduled
            .scheduled_statuses(account_id, Page::first(MAX_SCHEDULED_TOTAL + 1))
            .await?
            .into_iter()
            .filter(|s| Some(s.id) != except)
            .collect();
        if mine.len() >= MAX_SCHEDULED_TOTAL {
            return Err(ApiError::invalid_field(
                "scheduled_at",
                "ERR_INVALID",
                format!("You have exceeded the limit of {MAX_SCHEDULED_TOTAL} scheduled posts"),
            ));
        }
        if mine
            .iter()
            .filter(|s| s.scheduled_at.date_naive() == at.date_naive())
            .count()
            >= MAX_SCHEDULED_DAILY
        {
            return Err(ApiError::invalid_field(
                "scheduled_at",
                "ERR_INVALID",
                format!(
                    "You have exceeded the limit of {MAX_SCHEDULED_DAILY} scheduled posts for that day"
                ),
            ));
        }
        Ok(())
    }

    /// Schedules a status: everything is validated now, so publication cannot fail on input.
    pub async fn schedule_status(
        &self,
        author: &AccountRecord,
        application_id: Option<Id>,
        key: Option<String>,
        new: NewStatus,
    ) -> ApiResult<ScheduledStatusRecord> {
        let at = parse_time(new.scheduled_at.as_deref().unwrap_or_default())?;
        self.check_schedule_time(at)?;
        let checked = self.statuses.check_new_status(author, &new).await?;
        self.check_schedule_limits(author.id, at, None).await?;
        let params = ScheduledParams {
            text: new.text.clone(),
            visibility: checked.visibility.as_str().to_string(),
            sensitive: new.sensitive,
            spoiler_text: Some(new.spoiler_text.clone()).filter(|s| !s.is_empty()),
            in_reply_to_id: new.in_reply_to_id.map(Id::as_i64),
            language: checked.language,
            media_ids: (!checked.media.is_empty())
                .then(|| checked.media.iter().map(|m| m.id.to_string()).collect()),
            poll: checked.poll.as_ref().map(|p| p.to_json()),
            idempotency: key,
            scheduled_at: None,
            application_id: application_id.map(Id::as_i64).unwrap_or(0),
            with_rate_limit: false,
        };
        let record = ScheduledStatusRecord {
            id: self.ids.next(),
            account_id: author.id,
            scheduled_at: at,
            params: serde_json::to_string(&params).map_err(|_| ApiError::internal())?,
            application_id,
            created_at: self.now,
        };
        self.scheduled.insert_scheduled_status(&record).await?;
        let job = new_job(
            record.id,
            PUBLISH_SCHEDULED_STATUS,
            &serde_json::json!({ "scheduled_status_id": record.id }).to_string(),
            at,
            self.now,
        );
        if let Err(e) = self.jobs.enqueue_job(&job).await {
            self.scheduled.delete_scheduled_status(record.id).await?;
            return Err(e.into());
        }
        // The media wait for the publication, reserved so no other status takes them.
        for mut m in checked.media {
            m.scheduled_status_id = Some(record.id);
            self.media_store.update_media(&m).await?;
        }
        Ok(record)
    }

    /// The caller's scheduled status, or 404.
    pub async fn own_scheduled_status(
        &self,
        me: &AccountRecord,
        id: Id,
    ) -> ApiResult<ScheduledStatusRecord> {
        match self.scheduled.scheduled_status_by_id(id).await? {
            Some(s) if s.account_id == me.id => Ok(s),
            _ => Err(ApiError::not_found()),
        }
    }

    /// Moves a scheduled status to a new time.
    pub async fn reschedule_status(
        &self,
        me: &AccountRecord,
        id: Id,
        scheduled_at: &str,
    ) -> ApiResult<ScheduledStatusRecord> {
        let mut s = self.own_scheduled_status(me, id).await?;
        let at = parse_time(scheduled_at)?;
        self.check_schedule_time(at)?;
        self.check_schedule_limits(me.id, at, Some(id)).await?;
        if !self.jobs.reschedule_job(id, at).await? {
            // Its job is already running: too late to move it.
            return Err(ApiError::not_found());
        }
        s.scheduled_at = at;
        self.scheduled.update_scheduled_status(&s).await?;
        Ok(s)
    }

    /// Cancels a scheduled status. Its media are released, and removed in a day unless posted.
    pub async fn cancel_scheduled_status(&self, me: &AccountRecord, id: Id) -> ApiResult<()> {
        let s = self.own_scheduled_status(me, id).await?;
        self.jobs.cancel_job(id).await?;
        self.scheduled.delete_scheduled_status(id).await?;
        let ids = serde_json::from_str::<ScheduledParams>(&s.params)
            .map(|p| scheduled_media_ids(&p))
            .unwrap_or_default();
        for mut m in self.media_store.media_by_ids(&ids).await? {
            if m.scheduled_status_id == Some(id) {
                m.scheduled_status_id = None;
                self.media_store.update_media(&m).await?;
            }
        }
        self.statuses
            .areas()
            .media
            .schedule_media_removal(&ids)
            .await
    }

    /// Publishes a scheduled status (the job's work). A cancelled one is already gone: nothing to do.
    /// The publication carries the idempotency key `scheduled:<id>`, so a retry after a crash
    /// between publishing and finishing the job does not publish twice.
    pub async fn publish_scheduled_status(&self, id: Id) -> ApiResult<Option<StatusRecord>> {
        let Some(s) = self.scheduled.scheduled_status_by_id(id).await? else {
            return Ok(None);
        };
        let Some(author) = self.accounts.account_by_id(s.account_id).await? else {
            self.scheduled.delete_scheduled_status(id).await?;
            return Ok(None);
        };
        let p: ScheduledParams =
            serde_json::from_str(&s.params).map_err(|_| ApiError::internal())?;
        let new = NewStatus {
            text: p.text,
            spoiler_text: p.spoiler_text.unwrap_or_default(),
            visibility: Some(p.visibility),
            sensitive: p.sensitive,
            in_reply_to_id: p.in_reply_to_id.map(Id::from_i64),
            language: p.language,
            poll: p.poll,
            media_ids: p.media_ids.unwrap_or_default(),
            scheduled_status_id: Some(id),
            ..Default::default()
        };
        let published = match self
            .statuses
            .publish_status(
                &author,
                s.application_id,
                Some(format!("scheduled:{id}")),
                new,
            )
            .await
        {
            Ok(status) => Some(status),
            // The parent was deleted or hidden meanwhile: Mastodon drops the post; so do we.
            Err(e)
                if e.status == http::StatusCode::NOT_FOUND
                    || e.status == http::StatusCode::UNPROCESSABLE_ENTITY =>
            {
                None
            }
            Err(e) => return Err(e),
        };
        self.scheduled.delete_scheduled_status(id).await?;
        Ok(published)
    }
}
