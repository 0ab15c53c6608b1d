//! Edits of statuses: changing the text, content warning, sensitivity and language of one's own
//! status while keeping every revision, reading the revision history, and reading the source.

use crate::app::{App, Caller};
use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::services::statuses::{parse_language, parse_visibility, reject_attachments};
use crate::store::{AccountRecord, StatusEditRecord, StatusRecord};

/// An edit (`PUT /api/v1/statuses/:id`). As in Mastodon the edit replaces the status's text,
/// content warning and sensitivity as a whole (an absent `spoiler_text` clears it, an absent
/// `sensitive` is false unless there is a content warning); an absent `language` keeps the
/// status's.
#[derive(Default, Clone, Debug)]
pub struct StatusChanges {
    /// New text.
    pub text: String,
    /// New content warning.
    pub spoiler_text: String,
    /// Sensitive.
    pub sensitive: Option<bool>,
    /// Language (ISO 639).
    pub language: Option<String>,
    /// Visibility, if the client sent one: it must be the status's own (it cannot change).
    pub visibility: Option<String>,
    /// Media to attach (not supported yet: any is a 422).
    pub media_ids: Vec<String>,
    /// Whether a poll was sent (not supported yet: a 422).
    pub has_poll: bool,
}

impl App {
    /// The caller's own status (not a reblog) with this id; 404 for anything else, so that the
    /// answer says nothing about other accounts' statuses.
    async fn own_editable_status(&self, me: &AccountRecord, id: Id) -> ApiResult<StatusRecord> {
        match self.store.status_by_id(id).await? {
            Some(s) if s.account_id == me.id && s.reblog_of_id.is_none() => Ok(s),
            _ => Err(ApiError::not_found()),
        }
    }

    /// Edits the caller's own status and returns it. Validation is that of posting (blank or too
    /// long text: 422; media and polls: 422, not supported yet); the visibility cannot change
    /// (a different one is a 422). An edit that changes nothing stores nothing and returns the
    /// status as it was. Otherwise the first edit stores two revisions (the original, dated the
    /// status's `created_at`, then the new version) and each later edit one; `edited_at` is set.
    /// Mentions and tags follow the new text.
    pub async fn edit_status(
        &self,
        caller: &Caller,
        id: Id,
        changes: StatusChanges,
    ) -> ApiResult<StatusRecord> {
        let me = caller.account()?;
        let status = self.own_editable_status(me, id).await?;
        reject_attachments(&changes.media_ids, changes.has_poll)?;
        self.check_status_text(&changes.text, &changes.spoiler_text)?;
        if let Some(v) = parse_visibility(changes.visibility.as_deref())?
            && v != status.visibility
        {
            return Err(ApiError::invalid_field(
                "visibility",
                "ERR_INVALID",
                "The visibility of a status cannot be changed by editing it",
            ));
        }
        let language = parse_language(changes.language.as_deref())?.or(status.language.clone());
        let spoiler_text = changes.spoiler_text.trim().to_string();
        let sensitive = changes.sensitive.unwrap_or(false)
            || !spoiler_text.is_empty()
            || me.sensitized_at.is_some();
        if changes.text == status.text
            && spoiler_text == status.spoiler_text
            && sensitive == status.sensitive
            && language == status.language
        {
            return Ok(status);
        }
        let rendered = self.render_status_text(&changes.text).await?;
        let now = self.now();
        let edited = StatusRecord {
            text: changes.text.clone(),
            content: rendered.content,
            spoiler_text,
            sensitive,
            language,
            mentions: rendered.mentions,
            tags: rendered.tags,
            edited_at: Some(now),
            ..status.clone()
        };
        let mut revisions = Vec::with_capacity(2);
        if self.store.status_edits(status.id).await?.is_empty() {
            revisions.push(revision(self.ids.next(), &status, status.created_at));
        }
        revisions.push(revision(self.ids.next(), &edited, now));
        // The new hashtags exist as tags before the status uses them (tag pages, follows).
        self.record_status_tags(&edited.text).await?;
        self.store.update_status(&edited, &revisions).await?;
        Ok(edited)
    }

    /// The revisions of a status the viewer may see (of the boosted status, when `id` names a
    /// boost), with its author; 404 when the viewer may not see it.
    pub async fn status_history(
        &self,
        viewer: Option<&AccountRecord>,
        id: Id,
    ) -> ApiResult<(StatusRecord, AccountRecord, Vec<StatusEditRecord>)> {
        let named = self.visible_status(viewer, id).await?;
        let status = match named.reblog_of_id {
            None => named,
            Some(of) => self.visible_status(viewer, of).await?,
        };
        let author = self
            .store
            .account_by_id(status.account_id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let revisions = self.store.status_edits(status.id).await?;
        Ok((status, author, revisions))
    }

    /// The caller's own status, for reading its source; 404 for anyone else's and for boosts.
    pub async fn status_source(&self, caller: &Caller, id: Id) -> ApiResult<StatusRecord> {
        self.own_editable_status(caller.account()?, id).await
    }
}

/// A revision holding the editable fields of `status` as they are, dated `at`.
fn revision(id: Id, status: &StatusRecord, at: chrono::DateTime<chrono::Utc>) -> StatusEditRecord {
    StatusEditRecord {
        id,
        status_id: status.id,
        account_id: status.account_id,
        text: status.text.clone(),
        content: status.content.clone(),
        spoiler_text: status.spoiler_text.clone(),
        sensitive: status.sensitive,
        created_at: at,
    }
}
