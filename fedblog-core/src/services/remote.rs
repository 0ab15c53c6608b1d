//! Statuses from other servers: a remote post, reblog, edit or deletion stored and handed to
//! the same fan-out, notifications and streams as a local one. The federation runner reads the
//! activities; this area applies them.

use chrono::{DateTime, Utc};

use crate::error::{ApiError, ApiResult};
use crate::events::{DomainEvent, EventBus, publish_logged};
use crate::federation::paths::{self, Local};
use crate::id::{Id, IdGenerator};
use crate::services::statuses::StatusAreas;
use crate::store::{
    AccountRecord, MediaKind, MediaRecord, NotificationType, StatusEditRecord, StatusRecord, Store,
    Visibility,
};

/// A remote post as the runner read it, its references resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct RemoteStatus {
    /// Its ActivityPub id.
    pub uri: String,
    /// Sanitised HTML.
    pub content: String,
    /// Content warning.
    pub spoiler_text: String,
    /// Sensitive.
    pub sensitive: bool,
    /// ISO 639-1 language, if known.
    pub language: Option<String>,
    /// Visibility, from its addressing.
    pub visibility: Visibility,
    /// The ActivityPub id of the status it replies to.
    pub in_reply_to: Option<String>,
    /// The conversation it says it belongs to (`context`, else `conversation`): one of our
    /// threads when it names one ([`paths::conversation`]) and its parent is unknown.
    pub context: Option<String>,
    /// The accounts it mentions that this server knows.
    pub mentions: Vec<Id>,
    /// Hashtag names as sent.
    pub tags: Vec<String>,
    /// When it was published (now if not said, or if said to be in the future).
    pub published: DateTime<Utc>,
    /// When it was last edited, if it was.
    pub updated: Option<DateTime<Utc>>,
    /// Its attachments, kept by URL (at most [`MAX_REMOTE_ATTACHMENTS`]).
    pub attachments: Vec<RemoteAttachment>,
}

/// A remote post's attachment: the file stays on its server.
#[derive(Clone, Debug, PartialEq)]
pub struct RemoteAttachment {
    /// The file's URL.
    pub url: String,
    /// Its media type, if said (`image/png`).
    pub media_type: Option<String>,
    /// Alternative text.
    pub description: Option<String>,
    /// BlurHash.
    pub blurhash: Option<String>,
    /// Width and height, if said.
    pub size: Option<(u32, u32)>,
    /// Focal point.
    pub focus: Option<(f64, f64)>,
}

/// Attachments of a remote post kept at most (Mastodon keeps four).
pub const MAX_REMOTE_ATTACHMENTS: usize = 4;

/// How far up from a new parent [`Remote::link_reply`] looks for the reply itself before
/// linking (a parent that replies, through its ancestors, to the reply would make a loop).
/// Past this, the thread views' own loop guard takes over.
pub const LINK_CYCLE_CHECK: usize = 64;

/// What kind of attachment a media type is.
fn media_kind(media_type: Option<&str>) -> MediaKind {
    match media_type.map(|t| t.split('/').next().unwrap_or("")) {
        Some("image") => MediaKind::Image,
        Some("video") => MediaKind::Video,
        Some("audio") => MediaKind::Audio,
        _ => MediaKind::Unknown,
    }
}

/// The remote statuses area: `app.remote()`.
pub struct Remote<'a> {
    store: &'a dyn Store,
    areas: StatusAreas<'a>,
    events: &'a dyn EventBus,
    ids: &'a IdGenerator,
    base_url: String,
    now: DateTime<Utc>,
}

impl<'a> Remote<'a> {
    /// The area over `store`, handing work to `areas`, publishing on `events`, for the server
    /// at `base_url`.
    pub fn new(
        store: &'a dyn Store,
        areas: StatusAreas<'a>,
        events: &'a dyn EventBus,
        ids: &'a IdGenerator,
        base_url: String,
        now: DateTime<Utc>,
    ) -> Self {
        Remote {
            store,
            areas,
            events,
            ids,
            base_url,
            now,
        }
    }

    /// The status an ActivityPub id names: one of ours by its URL, or a remote one stored.
    pub async fn status_by_uri(&self, uri: &str) -> ApiResult<Option<StatusRecord>> {
        match paths::parse_local(&self.base_url, uri) {
            Some(Local::Status(id)) => Ok(self
                .store
                .status_by_id(id)
                .await?
                .filter(|s| s.local && s.reblog_of_id.is_none())),
            Some(_) => Ok(None),
            None => Ok(self.store.status_by_uri(uri).await?),
        }
    }

    /// Stores a remote post by `author` (once: a known uri gives the stored status) and hands it
    /// to fan-out, notifications and streams.
    pub async fn receive_status(
        &self,
        author: &AccountRecord,
        new: RemoteStatus,
    ) -> ApiResult<StatusRecord> {
        if let Some(known) = self.store.status_by_uri(&new.uri).await? {
            return Ok(known);
        }
        let parent = match &new.in_reply_to {
            Some(uri) => self.status_by_uri(uri).await?,
            None => None,
        };
        let tags = self.areas.tags.record_tag_names(&new.tags).await?;
        let published = new.published.min(self.now);
        let media_ids = self.store_attachments(author, &new.attachments).await?;
        let mut record = StatusRecord {
            id: self.ids.next_at(published.timestamp_millis()),
            account_id: author.id,
            uri: Some(new.uri.clone()),
            text: String::new(),
            content: new.content,
            spoiler_text: new.spoiler_text,
            visibility: new.visibility,
            sensitive: new.sensitive || author.sensitized_at.is_some(),
            language: new.language,
            in_reply_to_id: parent.as_ref().map(|p| p.id),
            in_reply_to_account_id: parent.as_ref().map(|p| p.account_id),
            application_id: None,
            mentions: new.mentions,
            tags,
            media_ids,
            idempotency_key: None,
            local: false,
            created_at: published,
            edited_at: new.updated.filter(|u| *u > published),
            reblog_of_id: None,
            conversation_id: None,
            replies_count: 0,
            reblogs_count: 0,
            favourites_count: 0,
        };
        let thread = match &parent {
            Some(p) => Some(p.conversation_id.unwrap_or(p.id)),
            None => self.our_thread(new.context.as_deref()).await?,
        };
        record.conversation_id = Some(thread.unwrap_or(record.id));
        self.insert(&mut record, thread).await?;
        self.areas.links.record_link(&record).await?;
        self.areas.fanout.fan_out(&record).await?;
        self.areas
            .notifications
            .notify_new_status(author, &record)
            .await?;
        publish_logged(
            self.events,
            DomainEvent::StatusCreated {
                status: record.id,
                author: author.id,
            },
        )
        .await;
        Ok(record)
    }

    /// One of our threads, when `context` names it (other servers send our conversation's name
    /// back on their replies) and its first status is still here.
    async fn our_thread(&self, context: Option<&str>) -> ApiResult<Option<Id>> {
        let (Some(context), Some(domain)) = (context, paths::host_of(&self.base_url)) else {
            return Ok(None);
        };
        let Some(thread) = paths::parse_conversation(&domain, context) else {
            return Ok(None);
        };
        Ok(self
            .store
            .status_by_id(thread)
            .await?
            .filter(|s| s.local && s.reblog_of_id.is_none())
            .map(|s| s.conversation_id.unwrap_or(s.id)))
    }

    /// Links `reply`, stored before the status it replies to, to `parent` now that it is here
    /// (its parent, the parent's author and thread are set, and the parent counts it). `false`
    /// when it replies to something already, or when `parent` is `reply` or one of its own
    /// replies (within [`LINK_CYCLE_CHECK`] levels up), which would make a loop.
    pub async fn link_reply(&self, reply: &StatusRecord, parent: &StatusRecord) -> ApiResult<bool> {
        if reply.in_reply_to_id.is_some() || reply.reblog_of_id.is_some() {
            return Ok(false);
        }
        let mut above = Some(parent.clone());
        for _ in 0..LINK_CYCLE_CHECK {
            let Some(s) = above else { break };
            if s.id == reply.id {
                return Ok(false);
            }
            above = match s.in_reply_to_id {
                Some(up) => self.store.status_by_id(up).await?,
                None => None,
            };
        }
        match self.store.link_reply(reply.id, parent.id).await {
            Ok(linked) => Ok(linked),
            Err(crate::StoreError::NotFound) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// Stores the attachments of a remote post by URL (nothing is downloaded) and returns their
    /// ids, in order.
    async fn store_attachments(
        &self,
        author: &AccountRecord,
        attachments: &[RemoteAttachment],
    ) -> ApiResult<Vec<Id>> {
        let mut ids = Vec::new();
        for a in attachments.iter().take(MAX_REMOTE_ATTACHMENTS) {
            let meta = match a.size {
                Some((w, h)) if h > 0 => serde_json::json!({
                    "original": { "width": w, "height": h, "size": format!("{w}x{h}"),
                                  "aspect": f64::from(w) / f64::from(h) }
                }),
                _ => serde_json::json!({}),
            };
            let media = MediaRecord {
                id: self.ids.next(),
                account_id: author.id,
                status_id: None,
                scheduled_status_id: None,
                kind: media_kind(a.media_type.as_deref()),
                file_key: String::new(),
                file_size: 0,
                preview_key: None,
                thumbnail_key: None,
                description: a.description.clone().filter(|d| !d.is_empty()),
                focus: a.focus,
                meta: meta.to_string(),
                blurhash: a.blurhash.clone(),
                processed: true,
                remote_url: Some(a.url.clone()),
                created_at: self.now,
            };
            self.store.insert_media(&media).await?;
            ids.push(media.id);
        }
        Ok(ids)
    }

    /// Inserts, taking a new id should the one made be taken.
    async fn insert(&self, record: &mut StatusRecord, thread: Option<Id>) -> ApiResult<()> {
        let mut tries = 0;
        loop {
            match self.store.insert_status(record).await {
                Ok(()) => return Ok(()),
                Err(crate::StoreError::AlreadyExists(what)) if what == "status" && tries < 3 => {
                    tries += 1;
                    record.id = self.ids.next();
                    if record.reblog_of_id.is_none() {
                        record.conversation_id = Some(thread.unwrap_or(record.id));
                    }
                }
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// A remote account reblogged `original` (the `Announce` with id `uri`). Only public and
    /// unlisted statuses can be; a second `Announce` of the same status by the same account
    /// gives the first reblog.
    pub async fn receive_reblog(
        &self,
        booster: &AccountRecord,
        original: &StatusRecord,
        uri: &str,
        visibility: Visibility,
        published: DateTime<Utc>,
    ) -> ApiResult<StatusRecord> {
        if let Some(known) = self.store.status_by_uri(uri).await? {
            return Ok(known);
        }
        if !matches!(
            original.visibility,
            Visibility::Public | Visibility::Unlisted
        ) {
            return Err(ApiError::forbidden());
        }
        if let Some(existing) = self.store.reblog_by(booster.id, original.id).await? {
            return Ok(existing);
        }
        let published = published.min(self.now);
        let mut record = StatusRecord {
            id: self.ids.next_at(published.timestamp_millis()),
            account_id: booster.id,
            uri: Some(uri.to_string()),
            text: String::new(),
            content: String::new(),
            spoiler_text: String::new(),
            visibility,
            sensitive: false,
            language: None,
            in_reply_to_id: None,
            in_reply_to_account_id: None,
            application_id: None,
            mentions: vec![],
            tags: vec![],
            media_ids: vec![],
            idempotency_key: None,
            local: false,
            created_at: published,
            edited_at: None,
            reblog_of_id: Some(original.id),
            conversation_id: None,
            replies_count: 0,
            reblogs_count: 0,
            favourites_count: 0,
        };
        match self.insert(&mut record, None).await {
            Ok(()) => {}
            Err(e) => {
                if let Some(existing) = self.store.reblog_by(booster.id, original.id).await? {
                    return Ok(existing);
                }
                return Err(e);
            }
        }
        self.areas.fanout.fan_out_reblog(&record, original).await?;
        self.areas
            .notifications
            .notify(
                &[original.account_id],
                booster,
                NotificationType::Reblog,
                Some(original),
            )
            .await?;
        publish_logged(
            self.events,
            DomainEvent::StatusCreated {
                status: record.id,
                author: booster.id,
            },
        )
        .await;
        Ok(record)
    }

    /// A remote author edited `status`: the version before is kept in its history (the
    /// original first, as Mastodon keeps it), and the status takes the new text.
    pub async fn receive_edit(
        &self,
        status: &StatusRecord,
        new: RemoteStatus,
    ) -> ApiResult<StatusRecord> {
        let edited_at = new.updated.unwrap_or(self.now).min(self.now);
        if status.edited_at.is_some_and(|t| t >= edited_at) {
            return Ok(status.clone());
        }
        let mut revisions = vec![];
        if self.store.status_edits(status.id).await?.is_empty() {
            revisions.push(revision(self.ids.next(), status, status.created_at));
        }
        let mut updated = status.clone();
        updated.content = new.content;
        updated.spoiler_text = new.spoiler_text;
        updated.sensitive = new.sensitive;
        updated.language = new.language.or(updated.language);
        updated.edited_at = Some(edited_at);
        revisions.push(revision(self.ids.next(), &updated, edited_at));
        self.store.update_status(&updated, &revisions).await?;
        publish_logged(
            self.events,
            DomainEvent::StatusEdited {
                status: updated.id,
                author: updated.account_id,
            },
        )
        .await;
        Ok(updated)
    }
}

/// A revision of `status` as it is.
fn revision(id: Id, status: &StatusRecord, at: DateTime<Utc>) -> StatusEditRecord {
    StatusEditRecord {
        id,
        status_id: status.id,
        account_id: status.account_id,
        text: String::new(),
        content: status.content.clone(),
        spoiler_text: status.spoiler_text.clone(),
        sensitive: status.sensitive,
        media_ids: status.media_ids.clone(),
        poll_options: None,
        created_at: at,
    }
}
