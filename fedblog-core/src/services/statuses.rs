//! Statuses: posting (validation, rendering, mentions, tags, polls, idempotency, fan-out), reblogs
//! (with their fan-out), reading with visibility applied, and deletion.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use serde::Deserialize;
use serde_json::Value;
use unicode_segmentation::UnicodeSegmentation;

use crate::config::InstanceConfig;
use crate::content::{self, MentionLink};
use crate::error::{ApiError, ApiResult};
use crate::events::{DomainEvent, EventBus, publish_logged};
use crate::id::{Id, IdGenerator};
use crate::params::de;
use crate::services::fanout::Fanout;
use crate::services::links::Links;
use crate::services::media::Media;
use crate::services::notifications::Notifications;
use crate::services::search;
use crate::services::tags::Tags;
use crate::services::visibility::VisibilityRule;
use crate::store::{
    AccountRecord, AccountStore, BlockStore, InteractionStore, MediaRecord, NotificationType,
    PollRecord, PollStore, StatusRecord, StatusStore, Store, Visibility,
};

/// A new status (`POST /api/v1/statuses`).
#[derive(Default, Clone, Debug)]
pub struct NewStatus {
    /// Text.
    pub text: String,
    /// Content warning.
    pub spoiler_text: String,
    /// Visibility (default: the author's default).
    pub visibility: Option<String>,
    /// Sensitive.
    pub sensitive: Option<bool>,
    /// Parent.
    pub in_reply_to_id: Option<Id>,
    /// Language (ISO 639-1).
    pub language: Option<String>,
    /// Media to attach.
    pub media_ids: Vec<String>,
    /// The `poll` parameter as sent (`poll[options][]`, `poll[expires_in]`, `poll[multiple]`,
    /// `poll[hide_totals]`); `null` or an empty string is no poll. Checked by
    /// [`App::check_new_status`].
    pub poll: Option<Value>,
    /// Whether `scheduled_at` was sent.
    pub scheduled_at: Option<String>,
    /// The scheduled status being published (its reserved media may be attached).
    pub scheduled_status_id: Option<Id>,
}

/// The result of checking a new status.
pub struct CheckedStatus {
    /// Visibility (the author's default when none was given).
    pub visibility: Visibility,
    /// Language (the author's default when none was given).
    pub language: Option<String>,
    /// The visible parent, for replies.
    pub parent: Option<StatusRecord>,
    /// The poll, checked.
    pub poll: Option<NewPoll>,
    /// The media, checked, in order.
    pub media: Vec<MediaRecord>,
}

/// A poll to create with a status, checked against the instance's limits.
#[derive(Clone, Debug, PartialEq)]
pub struct NewPoll {
    /// The options' titles (trimmed), in order.
    pub options: Vec<String>,
    /// Seconds until voting ends.
    pub expires_in: i64,
    /// Several choices allowed.
    pub multiple: bool,
    /// Totals hidden until the poll ends.
    pub hide_totals: bool,
}

impl NewPoll {
    /// The poll as the `poll` parameter of a scheduled status (and as sent by a JSON client).
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "options": self.options,
            "expires_in": self.expires_in,
            "multiple": self.multiple,
            "hide_totals": self.hide_totals,
        })
    }

    /// The record of this poll for a status published at `now`.
    pub fn record(&self, id: Id, status: &StatusRecord, now: DateTime<Utc>) -> PollRecord {
        PollRecord {
            id,
            status_id: status.id,
            account_id: status.account_id,
            options: self.options.clone(),
            votes: vec![0; self.options.len()],
            voters_count: 0,
            multiple: self.multiple,
            hide_totals: self.hide_totals,
            expires_at: Some(now + Duration::seconds(self.expires_in)),
            created_at: now,
        }
    }
}

/// The `poll` parameter, leniently typed (form values are strings).
#[derive(Deserialize)]
struct PollParams {
    #[serde(default, deserialize_with = "de::list")]
    options: Vec<Value>,
    #[serde(default, deserialize_with = "de::opt_i64")]
    expires_in: Option<i64>,
    #[serde(default, deserialize_with = "de::opt_bool")]
    multiple: Option<bool>,
    #[serde(default, deserialize_with = "de::opt_bool")]
    hide_totals: Option<bool>,
}

/// A 422 about the poll.
fn poll_error(msg: impl Into<String>) -> ApiError {
    ApiError::invalid_field("poll", "ERR_INVALID", msg)
}

/// Whether a `poll` parameter was sent: `null`, an empty string and an empty object are none.
pub fn poll_given(poll: Option<&Value>) -> bool {
    match poll {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
        Some(_) => true,
    }
}

/// The text of a status made ready to store.
pub struct StatusText {
    /// Rendered HTML.
    pub content: String,
    /// The accounts mentioned, in order of first mention.
    pub mentions: Vec<Id>,
    /// Normalised hashtags.
    pub tags: Vec<String>,
}

/// The visibility a client gave (`None` when absent or empty); 422 when it is not one of
/// `public`, `unlisted`, `private`, `direct`.
pub fn parse_visibility(given: Option<&str>) -> ApiResult<Option<Visibility>> {
    match given {
        None | Some("") => Ok(None),
        Some(v) => Visibility::parse(v).map(Some).ok_or_else(|| {
            ApiError::invalid_field(
                "visibility",
                "ERR_INCLUSION",
                "Visibility is not included in the list",
            )
        }),
    }
}

/// The language a client gave, as its ISO 639 primary subtag in lower case (`None` when absent
/// or empty); 422 when it is not a language code.
pub fn parse_language(given: Option<&str>) -> ApiResult<Option<String>> {
    match given.map(str::trim) {
        None | Some("") => Ok(None),
        Some(l) => {
            let l = l.to_ascii_lowercase();
            let primary = l.split(['-', '_']).next().unwrap_or("").to_string();
            if !(2..=3).contains(&primary.len()) || !primary.chars().all(|c| c.is_ascii_lowercase())
            {
                return Err(ApiError::invalid_field(
                    "language",
                    "ERR_INVALID",
                    "Language is not a valid ISO 639 code",
                ));
            }
            Ok(Some(primary))
        }
    }
}

/// How long an `Idempotency-Key` is remembered.
const IDEMPOTENCY_HOURS: i64 = 1;

/// The statuses area: posting (with the checks a new status passes, which edits and scheduled
/// statuses share), reblogs, and deletion.
pub struct Statuses<'a> {
    statuses: &'a dyn StatusStore,
    polls: &'a dyn PollStore,
    accounts: &'a dyn AccountStore,
    blocks: &'a dyn BlockStore,
    interactions: &'a dyn InteractionStore,
    areas: StatusAreas<'a>,
    events: &'a dyn EventBus,
    config: &'a InstanceConfig,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
}

/// The areas the statuses area hands work to.
pub struct StatusAreas<'a> {
    /// Checking and attaching media.
    pub media: Media<'a>,
    /// Who may see a parent or a reblogged status.
    pub visibility: VisibilityRule<'a>,
    /// The tags a status names.
    pub tags: Tags<'a>,
    /// The link a status carries.
    pub links: Links<'a>,
    /// The feeds a status goes to.
    pub fanout: Fanout<'a>,
    /// Who is told.
    pub notifications: Notifications<'a>,
    /// What other servers are told.
    pub outbox: crate::services::outbox::Outbox<'a>,
    /// The search index.
    pub search: crate::services::search::SearchIndexing<'a>,
}

impl<'a> Statuses<'a> {
    /// The area over `store`, handing work to `areas`, publishing events on `events`, with the
    /// limits and domain of `config`.
    pub fn new(
        store: &'a dyn Store,
        areas: StatusAreas<'a>,
        events: &'a dyn EventBus,
        config: &'a InstanceConfig,
        ids: &'a IdGenerator,
        now: DateTime<Utc>,
    ) -> Self {
        Statuses {
            statuses: store,
            polls: store,
            accounts: store,
            blocks: store,
            interactions: store,
            areas,
            events,
            config,
            ids,
            now,
        }
    }

    /// The areas posting hands work to (edits and scheduled statuses hand theirs to the same).
    pub(crate) fn areas(&self) -> &StatusAreas<'a> {
        &self.areas
    }

    /// Publishes `event` for streaming (logged, never failing the request).
    pub(crate) async fn publish(&self, event: DomainEvent) {
        publish_logged(self.events, event).await;
    }

    /// Checks the `poll` parameter of a new status (`None` when none was sent): 2 to
    /// `max_poll_options` options, each of 1 to `max_poll_option_characters` characters
    /// (grapheme clusters, surrounding white space trimmed) and all different; `expires_in`
    /// given and between `min_poll_expiration` and `max_poll_expiration` seconds; anything else
    /// is a 422 naming the poll.
    pub fn check_poll(&self, poll: Option<&Value>) -> ApiResult<Option<NewPoll>> {
        if !poll_given(poll) {
            return Ok(None);
        }
        let Some(raw @ Value::Object(_)) = poll else {
            return Err(poll_error(
                "Poll must be an object with options and expires_in",
            ));
        };
        let p: PollParams = serde_json::from_value(raw.clone())
            .map_err(|e| poll_error(format!("Poll is invalid: {e}")))?;
        let limits = &self.config.limits;
        let mut options = Vec::with_capacity(p.options.len());
        for o in &p.options {
            let title = match o {
                Value::String(s) => s.trim().to_string(),
                Value::Number(n) => n.to_string(),
                _ => return Err(poll_error("Poll options must be text")),
            };
            let length = title.graphemes(true).count();
            if length == 0 {
                return Err(poll_error("Poll options can't be blank"));
            }
            if length > limits.max_poll_option_characters {
                return Err(poll_error(format!(
                    "Poll options can't be longer than {} characters",
                    limits.max_poll_option_characters
                )));
            }
            if options.contains(&title) {
                return Err(poll_error("Poll options must all be different"));
            }
            options.push(title);
        }
        if options.len() < 2 {
            return Err(poll_error("Poll must have at least 2 options"));
        }
        if options.len() > limits.max_poll_options {
            return Err(poll_error(format!(
                "Poll can't have more than {} options",
                limits.max_poll_options
            )));
        }
        let Some(expires_in) = p.expires_in else {
            return Err(poll_error("Poll expires_in can't be blank"));
        };
        if expires_in < limits.min_poll_expiration {
            return Err(poll_error(format!(
                "Poll must stay open at least {} seconds",
                limits.min_poll_expiration
            )));
        }
        if expires_in > limits.max_poll_expiration {
            return Err(poll_error(format!(
                "Poll can't stay open longer than {} seconds",
                limits.max_poll_expiration
            )));
        }
        Ok(Some(NewPoll {
            options,
            expires_in,
            multiple: p.multiple.unwrap_or(false),
            hide_totals: p.hide_totals.unwrap_or(false),
        }))
    }

    /// Validates a new status for an author without storing anything.
    pub async fn check_new_status(
        &self,
        author: &AccountRecord,
        new: &NewStatus,
    ) -> ApiResult<CheckedStatus> {
        if !new.media_ids.is_empty() && poll_given(new.poll.as_ref()) {
            return Err(poll_error(
                "A status cannot have both media attachments and a poll",
            ));
        }
        let poll = self.check_poll(new.poll.as_ref())?;
        let media = self
            .areas
            .media
            .check_status_media(author, &new.media_ids, None, new.scheduled_status_id)
            .await?;
        self.check_status_text(&new.text, &new.spoiler_text, !media.is_empty())?;
        let visibility =
            parse_visibility(new.visibility.as_deref())?.unwrap_or(author.default_privacy);
        let language = match parse_language(new.language.as_deref())? {
            None => author.default_language.clone(),
            given => given,
        };
        let parent = match new.in_reply_to_id {
            None => None,
            // A reply to a reblog answers the reblogged status.
            Some(id) => {
                let named = self
                    .areas
                    .visibility
                    .visible_status(Some(author), id)
                    .await?;
                Some(self.proper_status(named).await?)
            }
        };
        Ok(CheckedStatus {
            visibility,
            language,
            parent,
            poll,
            media,
        })
    }

    /// Publishes a status now, with its poll if one was sent. A repeated idempotency key within an
    /// hour returns the first status (and completes its poll and fan-out, should the first
    /// attempt have been cut short).
    pub async fn publish_status(
        &self,
        author: &AccountRecord,
        application_id: Option<Id>,
        key: Option<String>,
        new: NewStatus,
    ) -> ApiResult<StatusRecord> {
        self.publish_status_with(author, application_id, key, new, |_| async { Ok(()) })
            .await
            .map(|(status, _)| status)
    }

    /// [`Statuses::publish_status`], running `attach` on the stored status before anyone is
    /// told of it (feeds, notifications, streams, other servers), so that what it records
    /// with the status (a quote, its policy) goes out with it. A failing `attach` takes the
    /// status back. Answers what `attach` answered, or `None` for a repeated idempotency key
    /// (whose first attempt attached already).
    pub async fn publish_status_with<T, F, Fut>(
        &self,
        author: &AccountRecord,
        application_id: Option<Id>,
        key: Option<String>,
        new: NewStatus,
        attach: F,
    ) -> ApiResult<(StatusRecord, Option<T>)>
    where
        T: Send,
        F: FnOnce(StatusRecord) -> Fut + Send,
        Fut: std::future::Future<Output = ApiResult<T>> + Send,
    {
        if let Some(k) = &key
            && let Some(existing) = self
                .statuses
                .status_by_idempotency_key(
                    author.id,
                    k,
                    self.now - Duration::hours(IDEMPOTENCY_HOURS),
                )
                .await?
        {
            // The first attempt may have stopped between storing and fanning out (a crash, a
            // killed worker): store the poll if it is missing and fan out again; feed insertion
            // is idempotent.
            if let Ok(Some(poll)) = self.check_poll(new.poll.as_ref())
                && self
                    .polls
                    .polls_by_status_ids(&[existing.id])
                    .await?
                    .is_empty()
            {
                self.insert_poll_of(&existing, &poll).await?;
            }
            self.areas.fanout.fan_out(&existing).await?;
            return Ok((existing, None));
        }
        let CheckedStatus {
            visibility,
            language,
            parent,
            poll,
            media,
        } = self.check_new_status(author, &new).await?;

        let rendered = self.render_status_text(&new.text).await?;

        let now = self.now;
        let mut record = StatusRecord {
            id: self.ids.next_at(now.timestamp_millis()),
            account_id: author.id,
            uri: None,
            text: new.text.clone(),
            content: rendered.content,
            spoiler_text: new.spoiler_text.trim().to_string(),
            visibility,
            sensitive: new.sensitive.unwrap_or(author.default_sensitive)
                || !new.spoiler_text.trim().is_empty()
                || author.sensitized_at.is_some(),
            language,
            in_reply_to_id: parent.as_ref().map(|p| p.id),
            in_reply_to_account_id: parent.as_ref().map(|p| p.account_id),
            application_id,
            mentions: rendered.mentions,
            tags: rendered.tags,
            media_ids: media.iter().map(|m| m.id).collect(),
            idempotency_key: key,
            local: true,
            created_at: now,
            edited_at: None,
            reblog_of_id: None,
            conversation_id: None,
            replies_count: 0,
            reblogs_count: 0,
            favourites_count: 0,
        };
        // A reply joins its parent's thread; any other status starts its own.
        let thread = parent.as_ref().map(|p| p.conversation_id.unwrap_or(p.id));
        record.conversation_id = Some(thread.unwrap_or(record.id));
        // The status's hashtags exist as tags before the status does (tag pages, follows).
        record.tags = self.areas.tags.record_status_tags(&new.text).await?;
        // Another process may have made the same id in the same millisecond: take a new one.
        let mut tries = 0;
        loop {
            match self.statuses.insert_status(&record).await {
                Ok(()) => break,
                Err(crate::StoreError::AlreadyExists(what)) if what == "status" && tries < 3 => {
                    tries += 1;
                    record.id = self.ids.next();
                    record.conversation_id = Some(thread.unwrap_or(record.id));
                }
                // Another status took one of the media between the check and now.
                Err(crate::StoreError::AlreadyExists(what)) if what == "media" => {
                    return Err(ApiError::invalid_field(
                        "media_ids",
                        "ERR_INVALID",
                        "A media attachment is already used by another status",
                    ));
                }
                Err(e) => return Err(e.into()),
            }
        }
        if let Some(poll) = &poll
            && let Err(e) = self.insert_poll_of(&record, poll).await
        {
            // A status without the poll it was posted with must not stay.
            let _ = self.statuses.delete_status(record.id).await;
            return Err(e);
        }
        let attached = match attach(record.clone()).await {
            Ok(attached) => attached,
            Err(e) => {
                let _ = self.statuses.delete_status(record.id).await;
                return Err(e);
            }
        };
        self.areas.links.record_link(&record).await?;
        let descriptions: Vec<String> =
            media.iter().filter_map(|m| m.description.clone()).collect();
        let options = poll
            .as_ref()
            .map(|p| p.options.as_slice())
            .unwrap_or_default();
        self.areas
            .search
            .index_document(search::document(&record, &descriptions, options))
            .await;
        self.areas.fanout.fan_out(&record).await?;
        self.areas
            .notifications
            .notify_new_status(author, &record)
            .await?;
        self.areas.outbox.status_created(&record).await?;
        self.publish(DomainEvent::StatusCreated {
            status: record.id,
            author: author.id,
        })
        .await;
        Ok((record, Some(attached)))
    }

    /// Stores the poll of a status just published (a new id on the rare id collision).
    async fn insert_poll_of(&self, status: &StatusRecord, poll: &NewPoll) -> ApiResult<()> {
        let now = self.now;
        let mut record = poll.record(self.ids.next_at(now.timestamp_millis()), status, now);
        let mut tries = 0;
        loop {
            match self.polls.insert_poll(&record).await {
                Ok(()) => return self.areas.notifications.schedule_poll_close(&record).await,
                Err(crate::StoreError::AlreadyExists(_)) if tries < 3 => {
                    tries += 1;
                    // Taken by another status's poll, or this status already has one.
                    if !self
                        .polls
                        .polls_by_status_ids(&[status.id])
                        .await?
                        .is_empty()
                    {
                        return Ok(());
                    }
                    record.id = self.ids.next();
                }
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Checks the text of a status (posted or edited): not blank unless the status has media,
    /// and the text and content warning together within the character limit (counted as
    /// Mastodon does); 422 otherwise.
    pub fn check_status_text(
        &self,
        text: &str,
        spoiler_text: &str,
        has_media: bool,
    ) -> ApiResult<()> {
        let limits = &self.config.limits;
        if text.trim().is_empty() && !has_media {
            return Err(ApiError::invalid_field(
                "text",
                "ERR_BLANK",
                "Text can't be blank",
            ));
        }
        let length = content::countable_length(text, limits.characters_reserved_per_url)
            + content::countable_length(spoiler_text, limits.characters_reserved_per_url);
        if length > limits.max_status_characters {
            return Err(ApiError::invalid_field(
                "text",
                "ERR_TOO_LONG",
                format!(
                    "Text character limit of {} exceeded",
                    limits.max_status_characters
                ),
            ));
        }
        Ok(())
    }

    /// Renders the text of a status (posted or edited): resolves the mentions of known, not
    /// suspended accounts (unknown ones stay text), writes the HTML and extracts the hashtags.
    pub async fn render_status_text(&self, text: &str) -> ApiResult<StatusText> {
        let mut mentioned: HashMap<(String, Option<String>), AccountRecord> = HashMap::new();
        for (user, domain) in content::extract_mentions(text) {
            let dom = domain
                .clone()
                .filter(|d| !d.eq_ignore_ascii_case(&self.config.domain));
            if let Some(a) = self
                .accounts
                .account_by_username(&user, dom.as_deref())
                .await?
                && !a.is_suspended()
            {
                mentioned.insert((user.to_lowercase(), domain.map(|d| d.to_lowercase())), a);
            }
        }
        let base = self.config.base_url();
        let html = content::render_html(text, &base, &|u, d| {
            mentioned
                .get(&(u.to_lowercase(), d.map(str::to_lowercase)))
                .map(|a| MentionLink {
                    url: content::account_url(&base, a),
                    username: a.username.clone(),
                })
        });
        let mut mention_ids: Vec<Id> = Vec::new();
        for (user, domain) in content::extract_mentions(text) {
            if let Some(a) = mentioned.get(&(user.to_lowercase(), domain.map(|d| d.to_lowercase())))
                && !mention_ids.contains(&a.id)
            {
                mention_ids.push(a.id);
            }
        }
        Ok(StatusText {
            content: html,
            mentions: mention_ids,
            tags: content::extract_tags(text),
        })
    }

    /// The caller's own status (a reblog too) that it asks to delete. Others' statuses: 404 if
    /// invisible, 403 if visible.
    pub async fn status_to_delete(&self, me: &AccountRecord, id: Id) -> ApiResult<StatusRecord> {
        match self.statuses.status_by_id(id).await? {
            Some(s) if s.account_id == me.id => Ok(s),
            _ => {
                self.areas.visibility.visible_status(Some(me), id).await?;
                Err(ApiError::forbidden())
            }
        }
    }

    /// Deletes a status found by [`Statuses::status_to_delete`]. The store takes its favourites,
    /// bookmarks, pins, feed entries, edits, poll and reblogs with it; replies to it stay. A
    /// concurrent deletion is not an error.
    pub async fn delete_status(&self, status: &StatusRecord) -> ApiResult<()> {
        if status.local
            && let Some(author) = self.accounts.account_by_id(status.account_id).await?
        {
            self.areas.outbox.status_deleting(status, &author).await?;
        }
        match self.statuses.delete_status(status.id).await {
            Ok(()) => {
                self.publish_deletion(status).await;
                Ok(())
            }
            // Deleted meanwhile: whoever deleted it told of it.
            Err(crate::StoreError::NotFound) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// Tells streaming that `status` is gone.
    async fn publish_deletion(&self, status: &StatusRecord) {
        self.publish(DomainEvent::StatusDeleted {
            status: status.id,
            author: status.account_id,
            visibility: status.visibility.as_str().to_string(),
            mentions: status.mentions.clone(),
        })
        .await;
    }

    /// The status a reblog reblogged, or the status itself when it is not a reblog; 404 when the
    /// original is gone.
    pub async fn proper_status(&self, status: StatusRecord) -> ApiResult<StatusRecord> {
        proper_status(self.statuses, status).await
    }

    /// `me` reblogs a status it may see (the original, when `id` names a reblog) and gets the
    /// reblog. `visibility` is `public`, `unlisted` or `private` (anything else: 422); without it,
    /// `me`'s default visibility (`private` when that is `direct`). A reblog of one's own
    /// private status stays private. Others' private statuses and direct statuses cannot be
    /// reblogged (422); reblogging a status whose author the caller blocks is a 403, as Mastodon.
    /// Reblogging again returns the existing reblog unchanged.
    pub async fn reblog(
        &self,
        me: &AccountRecord,
        application_id: Option<Id>,
        id: Id,
        visibility: Option<&str>,
    ) -> ApiResult<StatusRecord> {
        let named = self.areas.visibility.visible_status(Some(me), id).await?;
        let original = self.proper_status(named).await?;
        let chosen = match visibility.map(str::trim) {
            None | Some("") => match me.default_privacy {
                Visibility::Direct => Visibility::Private,
                v => v,
            },
            Some(v) => match Visibility::parse(v) {
                Some(v @ (Visibility::Public | Visibility::Unlisted | Visibility::Private)) => v,
                _ => {
                    return Err(ApiError::invalid_field(
                        "visibility",
                        "ERR_INCLUSION",
                        "Visibility is not included in the list",
                    ));
                }
            },
        };
        match original.visibility {
            Visibility::Direct => {
                return Err(ApiError::invalid_field(
                    "reblog",
                    "ERR_INVALID",
                    "Posts that are only visible to mentioned users cannot be boosted",
                ));
            }
            Visibility::Private if original.account_id != me.id => {
                return Err(ApiError::invalid_field(
                    "reblog",
                    "ERR_INVALID",
                    "Followers-only posts of others cannot be boosted",
                ));
            }
            _ => {}
        }
        if original.account_id != me.id && self.blocks.blocks(me.id, original.account_id).await? {
            return Err(ApiError::forbidden());
        }
        if let Some(existing) = self.interactions.reblog_by(me.id, original.id).await? {
            return Ok(existing);
        }
        let now = self.now;
        let mut record = StatusRecord {
            id: self.ids.next_at(now.timestamp_millis()),
            account_id: me.id,
            uri: None,
            text: String::new(),
            content: String::new(),
            spoiler_text: String::new(),
            visibility: if original.visibility == Visibility::Private {
                Visibility::Private
            } else {
                chosen
            },
            sensitive: false,
            language: None,
            in_reply_to_id: None,
            in_reply_to_account_id: None,
            application_id,
            mentions: vec![],
            tags: vec![],
            media_ids: Vec::new(),
            idempotency_key: None,
            local: true,
            created_at: now,
            edited_at: None,
            reblog_of_id: Some(original.id),
            conversation_id: None,
            replies_count: 0,
            reblogs_count: 0,
            favourites_count: 0,
        };
        let mut tries = 0;
        loop {
            match self.statuses.insert_status(&record).await {
                Ok(()) => break,
                Err(crate::StoreError::AlreadyExists(what)) if what == "status" && tries < 3 => {
                    tries += 1;
                    record.id = self.ids.next();
                }
                // Two requests raced: the other one made the reblog.
                Err(crate::StoreError::AlreadyExists(what)) if what == "reblog" => {
                    if let Some(existing) = self.interactions.reblog_by(me.id, original.id).await? {
                        return Ok(existing);
                    }
                    return Err(ApiError::unavailable());
                }
                Err(e) => return Err(e.into()),
            }
        }
        self.areas.fanout.fan_out_reblog(&record, &original).await?;
        self.areas.outbox.status_created(&record).await?;
        self.areas
            .notifications
            .notify(
                &[original.account_id],
                me,
                NotificationType::Reblog,
                Some(&original),
            )
            .await?;
        self.publish(DomainEvent::StatusCreated {
            status: record.id,
            author: me.id,
        })
        .await;
        Ok(record)
    }

    /// `me` takes back its reblog of a status (`id` names the original, or a reblog of it) and
    /// gets the original. Without a reblog the original must be visible (else 404) and nothing
    /// changes. With one, this succeeds even when `me` has lost access to the original since
    /// (blocked by its author, unfollowed from a private post).
    pub async fn unreblog(&self, me: &AccountRecord, id: Id) -> ApiResult<StatusRecord> {
        let named = self
            .statuses
            .status_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)?;
        let original_id = named.reblog_of_id.unwrap_or(named.id);
        match self.interactions.reblog_by(me.id, original_id).await? {
            Some(reblog) => {
                self.areas.outbox.status_deleting(&reblog, me).await?;
                match self.statuses.delete_status(reblog.id).await {
                    Ok(()) => self.publish_deletion(&reblog).await,
                    Err(crate::StoreError::NotFound) => {}
                    Err(e) => return Err(e.into()),
                }
                self.statuses
                    .status_by_id(original_id)
                    .await?
                    .ok_or_else(ApiError::not_found)
            }
            None => {
                self.areas
                    .visibility
                    .visible_status(Some(me), original_id)
                    .await
            }
        }
    }
}

/// The status a reblog reblogged, or the status itself when it is not a reblog; 404 when the
/// original is gone.
pub(crate) async fn proper_status(
    statuses: &dyn crate::store::StatusStore,
    status: StatusRecord,
) -> ApiResult<StatusRecord> {
    match status.reblog_of_id {
        None => Ok(status),
        Some(of) => statuses
            .status_by_id(of)
            .await?
            .ok_or_else(ApiError::not_found),
    }
}
