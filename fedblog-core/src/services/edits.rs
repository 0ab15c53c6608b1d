//! Edits of statuses: changing the text, content warning, sensitivity, language, media and poll
//! of one's own status while keeping every revision, reading the revision history, and reading
//! the source.

use chrono::{DateTime, Utc};

use crate::error::{ApiError, ApiResult};
use crate::events::DomainEvent;
use crate::id::{Id, IdGenerator};
use crate::services::statuses::{
    NewPoll, StatusAreas, Statuses, parse_language, parse_visibility, poll_given,
};
use crate::store::{
    AccountRecord, AccountStore, MediaRecord, MediaStore, PollRecord, PollStore, StatusEditRecord,
    StatusEditStore, StatusRecord, StatusStore, Store,
};

/// An edit (`PUT /api/v1/statuses/:id`). As in Mastodon the edit replaces the status's text,
/// content warning, sensitivity, media and poll as a whole (an absent `spoiler_text` clears it,
/// an absent `sensitive` is false unless there is a content warning, absent `media_ids` remove
/// the media, an absent `poll` removes the poll); an absent `language` keeps the status's.
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
    /// The media the status has after the edit, in order.
    pub media_ids: Vec<String>,
    /// New descriptions and focal points of those media (`media_attributes[]`).
    pub media_attributes: Vec<MediaAttribute>,
    /// The `poll` parameter as sent.
    pub poll: Option<serde_json::Value>,
}

/// `media_attributes[]`: a change to one of the edited status's media.
#[derive(Default, Clone, Debug)]
pub struct MediaAttribute {
    /// The media id.
    pub id: String,
    /// New alternative text.
    pub description: Option<String>,
    /// New focal point, `"x,y"`.
    pub focus: Option<String>,
}

/// The edits area: editing one's own statuses, their revision history, their source.
pub struct Edits<'a> {
    statuses: &'a dyn StatusStore,
    edits: &'a dyn StatusEditStore,
    polls: &'a dyn PollStore,
    media_store: &'a dyn MediaStore,
    accounts: &'a dyn AccountStore,
    /// The checks, text rendering and areas a new status goes through.
    posting: Statuses<'a>,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
}

impl<'a> Edits<'a> {
    /// The area over `store`, checking edits as `posting` checks new statuses and handing work
    /// to its areas.
    pub fn new(
        store: &'a dyn Store,
        posting: Statuses<'a>,
        ids: &'a IdGenerator,
        now: DateTime<Utc>,
    ) -> Self {
        Edits {
            statuses: store,
            edits: store,
            polls: store,
            media_store: store,
            accounts: store,
            posting,
            ids,
            now,
        }
    }

    fn areas(&self) -> &StatusAreas<'a> {
        self.posting.areas()
    }

    /// The caller's own status (not a reblog) with this id; 404 for anything else, so that the
    /// answer says nothing about other accounts' statuses.
    async fn own_editable_status(&self, me: &AccountRecord, id: Id) -> ApiResult<StatusRecord> {
        match self.statuses.status_by_id(id).await? {
            Some(s) if s.account_id == me.id && s.reblog_of_id.is_none() => Ok(s),
            _ => Err(ApiError::not_found()),
        }
    }

    /// Edits the caller's own status and returns it. Validation is that of posting (blank text
    /// without media, too long text, bad media or poll: 422); the visibility cannot change (a
    /// different one is a 422). An edit that changes nothing stores nothing and returns the
    /// status as it was. Otherwise the first edit stores two revisions (the original, dated the
    /// status's `created_at`, then the new version) and each later edit one; `edited_at` is set.
    /// Mentions and tags follow the new text. A poll sent with the same options and settings
    /// keeps its votes and end; a changed poll starts over (votes cleared, a new end).
    pub async fn edit_status(
        &self,
        me: &AccountRecord,
        id: Id,
        changes: StatusChanges,
    ) -> ApiResult<StatusRecord> {
        let status = self.own_editable_status(me, id).await?;
        if !changes.media_ids.is_empty() && poll_given(changes.poll.as_ref()) {
            return Err(ApiError::invalid_field(
                "poll",
                "ERR_INVALID",
                "A status cannot have both media attachments and a poll",
            ));
        }
        let new_poll = self.posting.check_poll(changes.poll.as_ref())?;
        let mut media = self
            .areas()
            .media
            .check_status_media(me, &changes.media_ids, Some(status.id), None)
            .await?;
        let described = self.apply_media_attributes(&mut media, &changes.media_attributes)?;
        self.posting
            .check_status_text(&changes.text, &changes.spoiler_text, !media.is_empty())?;
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
        let media_ids: Vec<Id> = media.iter().map(|m| m.id).collect();
        let old_poll = self.polls.polls_by_status_ids(&[status.id]).await?.pop();
        let poll_kept = match (&old_poll, &new_poll) {
            (None, None) => true,
            (Some(old), Some(new)) => same_poll(old, new),
            _ => false,
        };
        if changes.text == status.text
            && spoiler_text == status.spoiler_text
            && sensitive == status.sensitive
            && language == status.language
            && media_ids == status.media_ids
            && described.is_empty()
            && poll_kept
        {
            return Ok(status);
        }
        let rendered = self.posting.render_status_text(&changes.text).await?;
        let now = self.now;
        let mut edited = StatusRecord {
            text: changes.text.clone(),
            content: rendered.content,
            spoiler_text,
            sensitive,
            language,
            mentions: rendered.mentions,
            tags: rendered.tags,
            media_ids,
            edited_at: Some(now),
            ..status.clone()
        };
        let old_options = old_poll.as_ref().map(|p| p.options.clone());
        let new_options = if poll_kept {
            old_options.clone()
        } else {
            new_poll.as_ref().map(|p| p.options.clone())
        };
        let mut revisions = Vec::with_capacity(2);
        if self.edits.status_edits(status.id).await?.is_empty() {
            revisions.push(revision(
                self.ids.next(),
                &status,
                old_options,
                status.created_at,
            ));
        }
        revisions.push(revision(self.ids.next(), &edited, new_options, now));
        // The new hashtags exist as tags before the status uses them (tag pages, follows).
        edited.tags = self.areas().tags.record_status_tags(&edited.text).await?;
        match self.edits.update_status(&edited, &revisions).await {
            Ok(()) => {}
            Err(crate::StoreError::AlreadyExists(what)) if what == "media" => {
                return Err(ApiError::invalid_field(
                    "media_ids",
                    "ERR_INVALID",
                    "A media attachment is already used by another status",
                ));
            }
            Err(e) => return Err(e.into()),
        }
        self.areas().links.record_link(&edited).await?;
        if !poll_kept {
            let record = new_poll
                .as_ref()
                .map(|p| p.record(self.ids.next_at(now.timestamp_millis()), &edited, now));
            self.polls.replace_poll(status.id, record.as_ref()).await?;
            if let Some(poll) = &record {
                self.areas().notifications.schedule_poll_close(poll).await?;
            }
        }
        for m in media.iter().filter(|m| described.contains(&m.id)) {
            self.media_store.update_media(m).await?;
        }
        self.areas().search.index(&edited).await?;
        self.areas()
            .notifications
            .notify_edit(me, &status, &edited)
            .await?;
        self.areas().outbox.status_edited(&edited).await?;
        self.posting
            .publish(DomainEvent::StatusEdited {
                status: edited.id,
                author: me.id,
            })
            .await;
        Ok(edited)
    }

    /// Applies `media_attributes[]` to the edited status's media (each must name one of them:
    /// 422 otherwise) and returns the ids of those whose description or focal point changed.
    fn apply_media_attributes(
        &self,
        media: &mut [MediaRecord],
        attributes: &[MediaAttribute],
    ) -> ApiResult<Vec<Id>> {
        let mut changed = Vec::new();
        for attr in attributes {
            let Some(m) = media
                .iter_mut()
                .find(|m| m.id.to_string() == attr.id.trim())
            else {
                return Err(ApiError::invalid_field(
                    "media_attributes",
                    "ERR_INVALID",
                    format!("Media with ID {} is not attached to this status", attr.id),
                ));
            };
            if self.areas().media.describe_media(
                m,
                attr.description.as_deref(),
                attr.focus.as_deref(),
            )? && !changed.contains(&m.id)
            {
                changed.push(m.id);
            }
        }
        Ok(changed)
    }

    /// The revisions of a status the viewer may see (of the boosted status, when `id` names a
    /// boost), with its author; 404 when the viewer may not see it.
    pub async fn status_history(
        &self,
        viewer: Option<&AccountRecord>,
        id: Id,
    ) -> ApiResult<(StatusRecord, AccountRecord, Vec<StatusEditRecord>)> {
        let named = self.areas().visibility.visible_status(viewer, id).await?;
        let status = match named.reblog_of_id {
            None => named,
            Some(of) => self.areas().visibility.visible_status(viewer, of).await?,
        };
        let author = self
            .accounts
            .account_by_id(status.account_id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let revisions = self.edits.status_edits(status.id).await?;
        Ok((status, author, revisions))
    }

    /// The caller's own status, for reading its source; 404 for anyone else's and for boosts.
    pub async fn status_source(&self, me: &AccountRecord, id: Id) -> ApiResult<StatusRecord> {
        self.own_editable_status(me, id).await
    }
}

/// A revision holding the editable fields of `status` (and its poll's options) as they are,
/// dated `at`.
pub(crate) fn revision(
    id: Id,
    status: &StatusRecord,
    poll_options: Option<Vec<String>>,
    at: DateTime<Utc>,
) -> StatusEditRecord {
    StatusEditRecord {
        id,
        status_id: status.id,
        account_id: status.account_id,
        text: status.text.clone(),
        content: status.content.clone(),
        spoiler_text: status.spoiler_text.clone(),
        sensitive: status.sensitive,
        media_ids: status.media_ids.clone(),
        poll_options,
        created_at: at,
    }
}

/// Whether an edit's poll is the stored one again (same options and settings).
fn same_poll(old: &PollRecord, new: &NewPoll) -> bool {
    old.options == new.options && old.multiple == new.multiple && old.hide_totals == new.hide_totals
}
