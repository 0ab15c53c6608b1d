//! Statuses from other servers: a remote post (with its poll), reblog, edit or deletion stored
//! and handed to the same fan-out, notifications and streams as a local one; a remote poll's
//! new tally; a remote account's vote in one of our polls. The federation runner reads the
//! activities; this area applies them.

use chrono::{DateTime, Utc};

use crate::error::{ApiError, ApiResult};
use crate::events::{DomainEvent, EventBus, publish_logged};
use crate::federation::paths::{self, Local};
use crate::id::{Id, IdGenerator};
use crate::services::polls::poll_expired;
use crate::services::statuses::StatusAreas;
use crate::store::{
    AccountRecord, MediaKind, MediaRecord, NotificationType, PollRecord, StatusEditRecord,
    StatusRecord, Store, Visibility,
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
    /// Its poll, when it is a `Question`.
    pub poll: Option<RemotePoll>,
}

/// A remote post's poll, with the counts its server reports.
#[derive(Clone, Debug, PartialEq)]
pub struct RemotePoll {
    /// The options' titles, in order (at most [`MAX_REMOTE_POLL_OPTIONS`]).
    pub options: Vec<String>,
    /// Votes per option, in the same order.
    pub votes: Vec<i64>,
    /// How many accounts voted.
    pub voters_count: i64,
    /// Several choices allowed.
    pub multiple: bool,
    /// When voting ends (`None`: never): its `closed` time when it says it is closed, else its
    /// `endTime`.
    pub expires_at: Option<DateTime<Utc>>,
}

impl RemotePoll {
    /// Whether `poll` is this poll with other counts (same options, same kind): an update that
    /// changes only counts keeps the votes made here; any other replaces the poll.
    pub fn same_poll(&self, poll: &PollRecord) -> bool {
        self.options == poll.options && self.multiple == poll.multiple
    }

    /// The record of this poll, `id`, for the remote `status`. Totals are never hidden: the
    /// poll's server decides what it sends.
    fn record(&self, id: Id, status: &StatusRecord) -> PollRecord {
        PollRecord {
            id,
            status_id: status.id,
            account_id: status.account_id,
            options: self.options.clone(),
            votes: self.votes.clone(),
            voters_count: self.voters_count,
            multiple: self.multiple,
            hide_totals: false,
            expires_at: self.expires_at,
            created_at: status.created_at,
        }
    }
}

/// Options of a remote poll kept at most (Mastodon keeps them all; its own polls have at most
/// four, and other servers' rarely more than twenty).
pub const MAX_REMOTE_POLL_OPTIONS: usize = 20;

/// A remote post's attachment: the file stays on its server (and is copied here when remote
/// media are, see `download_remote_media`).
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
        let media = self.store_attachments(author, &new.attachments).await?;
        let media_ids = media.iter().map(|m| m.id).collect();
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
        for m in &media {
            self.areas.media.queue_remote_download(m).await?;
        }
        if let Some(poll) = &new.poll {
            self.insert_poll(poll, &record).await?;
        }
        self.areas.links.record_link(&record).await?;
        self.areas.search.index(&record).await?;
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

    /// Stores `poll` as the poll of the remote `status`, and queues the job that tells the
    /// accounts voting in it here of its end.
    async fn insert_poll(&self, poll: &RemotePoll, status: &StatusRecord) -> ApiResult<()> {
        let record = poll.record(self.ids.next(), status);
        self.store.insert_poll(&record).await?;
        if record.expires_at.is_some_and(|t| t > self.now) {
            self.areas
                .notifications
                .schedule_poll_close(&record)
                .await?;
        }
        Ok(())
    }

    /// Takes the counts and end `new` reports for the stored `poll` (the votes made here are
    /// kept); an end moved sooner gets its own job telling of it (the job of the later end
    /// finds it told).
    async fn take_tally(&self, poll: &PollRecord, new: &RemotePoll) -> ApiResult<()> {
        match self
            .store
            .set_poll_tally(poll.id, &new.votes, new.voters_count, new.expires_at)
            .await
        {
            Ok(_) | Err(crate::StoreError::NotFound) => {}
            Err(e) => return Err(e.into()),
        }
        let sooner = match (poll.expires_at, new.expires_at) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(was), Some(now)) => now < was,
        };
        if sooner {
            let moved = PollRecord {
                expires_at: new.expires_at,
                ..poll.clone()
            };
            self.areas.notifications.schedule_poll_close(&moved).await?;
        }
        Ok(())
    }

    /// The new tally of the remote `status`'s poll (an `Update` that is no edit, as Mastodon
    /// sends one when votes come in and at the end): taken when `new` is the stored poll with
    /// other counts, ignored otherwise (a changed poll comes with an edit).
    pub async fn receive_tally(&self, status: &StatusRecord, new: &RemotePoll) -> ApiResult<()> {
        let Some(poll) = self.store.polls_by_status_ids(&[status.id]).await?.pop() else {
            return Ok(());
        };
        if !new.same_poll(&poll) {
            return Ok(());
        }
        self.take_tally(&poll, new).await
    }

    /// A remote account's vote in the poll of our `status` (`Create` of a note named `name`
    /// replying to it): the option titled `name` is counted for `voter`, once (in a
    /// single-choice poll, only its first choice), and the poll's new totals go to the servers
    /// that have it unless its totals are hidden. `false`, and nothing changes, for an unknown
    /// title, an ended poll, a status the voter may not see, or a choice made already. A vote is
    /// never a status and tells no one.
    pub async fn receive_vote(
        &self,
        voter: &AccountRecord,
        status: &StatusRecord,
        poll: &PollRecord,
        name: &str,
    ) -> ApiResult<bool> {
        if !status.local || poll_expired(poll, self.now) {
            return Ok(false);
        }
        let Some(choice) = poll.options.iter().position(|o| o == name) else {
            return Ok(false);
        };
        let Some(author) = self.store.account_by_id(status.account_id).await? else {
            return Ok(false);
        };
        if !self
            .areas
            .visibility
            .can_see(Some(voter), status, &author)
            .await?
        {
            return Ok(false);
        }
        match self.store.add_poll_choice(poll.id, voter.id, choice).await {
            Ok(true) => {}
            Ok(false) | Err(crate::StoreError::NotFound) => return Ok(false),
            Err(e) => return Err(e.into()),
        }
        if !poll.hide_totals {
            self.areas.outbox.poll_updated(status, poll).await?;
        }
        Ok(true)
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

    /// Stores the attachments of a remote post by URL and returns them, in order. When remote
    /// media are copied, one of a format we store is stored with the key of its copy, to be
    /// made once the post is stored ([`Media::queue_remote_download`]).
    ///
    /// [`Media::queue_remote_download`]: crate::services::media::Media::queue_remote_download
    async fn store_attachments(
        &self,
        author: &AccountRecord,
        attachments: &[RemoteAttachment],
    ) -> ApiResult<Vec<MediaRecord>> {
        let mut stored = Vec::new();
        for a in attachments.iter().take(MAX_REMOTE_ATTACHMENTS) {
            let meta = match a.size {
                Some((w, h)) if h > 0 => serde_json::json!({
                    "original": { "width": w, "height": h, "size": format!("{w}x{h}"),
                                  "aspect": f64::from(w) / f64::from(h) }
                }),
                _ => serde_json::json!({}),
            };
            let id = self.ids.next();
            let copy = self
                .areas
                .media
                .remote_copy_key(id, a.media_type.as_deref(), &a.url);
            let media = MediaRecord {
                id,
                account_id: author.id,
                status_id: None,
                scheduled_status_id: None,
                kind: media_kind(a.media_type.as_deref()),
                // Unprocessed until the copy is made; shown from its server until then.
                processed: copy.is_none(),
                file_key: copy.unwrap_or_default(),
                file_size: 0,
                preview_key: None,
                thumbnail_key: None,
                description: a.description.clone().filter(|d| !d.is_empty()),
                focus: a.focus,
                meta: meta.to_string(),
                blurhash: a.blurhash.clone(),
                remote_url: Some(a.url.clone()),
                created_at: self.now,
            };
            self.store.insert_media(&media).await?;
            stored.push(media);
        }
        Ok(stored)
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
    /// original first, as Mastodon keeps it, with the poll's options), and the status takes the
    /// new text and poll. A poll with the same options keeps the votes made here and takes the
    /// new counts; a changed one replaces it (voting starts over, as a local edit's). When the
    /// status keeps its poll and neither its text, content warning nor sensitivity changed, only
    /// the counts are taken and no revision is kept (Mastodon keeps none without "significant
    /// changes"): a poll's `Update` may carry a newer `updated` without being an edit.
    pub async fn receive_edit(
        &self,
        status: &StatusRecord,
        new: RemoteStatus,
    ) -> ApiResult<StatusRecord> {
        let edited_at = new.updated.unwrap_or(self.now).min(self.now);
        if status.edited_at.is_some_and(|t| t >= edited_at) {
            return Ok(status.clone());
        }
        let old_poll = self.store.polls_by_status_ids(&[status.id]).await?.pop();
        let poll_kept = match (&old_poll, &new.poll) {
            (None, None) => true,
            (Some(old), Some(poll)) => poll.same_poll(old),
            _ => false,
        };
        let unchanged = new.content == status.content
            && new.spoiler_text == status.spoiler_text
            && new.sensitive == status.sensitive;
        if let (Some(old), Some(poll)) = (&old_poll, &new.poll)
            && poll_kept
        {
            self.take_tally(old, poll).await?;
            if unchanged {
                return Ok(status.clone());
            }
        }
        let old_options = old_poll.as_ref().map(|p| p.options.clone());
        let new_options = new.poll.as_ref().map(|p| p.options.clone());
        let mut revisions = vec![];
        if self.store.status_edits(status.id).await?.is_empty() {
            revisions.push(revision(
                self.ids.next(),
                status,
                old_options,
                status.created_at,
            ));
        }
        let mut updated = status.clone();
        updated.content = new.content;
        updated.spoiler_text = new.spoiler_text;
        updated.sensitive = new.sensitive;
        updated.language = new.language.or(updated.language);
        updated.edited_at = Some(edited_at);
        revisions.push(revision(self.ids.next(), &updated, new_options, edited_at));
        self.store.update_status(&updated, &revisions).await?;
        if !poll_kept {
            let record = new
                .poll
                .as_ref()
                .map(|p| p.record(self.ids.next(), &updated));
            self.store.replace_poll(status.id, record.as_ref()).await?;
            if let Some(record) = &record
                && record.expires_at.is_some_and(|t| t > self.now)
            {
                self.areas.notifications.schedule_poll_close(record).await?;
            }
        }
        self.areas.links.record_link(&updated).await?;
        self.areas.search.index(&updated).await?;
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

/// A revision of `status` as it is, with its poll's options.
fn revision(
    id: Id,
    status: &StatusRecord,
    poll_options: Option<Vec<String>>,
    at: DateTime<Utc>,
) -> StatusEditRecord {
    StatusEditRecord {
        id,
        status_id: status.id,
        account_id: status.account_id,
        text: String::new(),
        content: status.content.clone(),
        spoiler_text: status.spoiler_text.clone(),
        sensitive: status.sensitive,
        media_ids: status.media_ids.clone(),
        poll_options,
        created_at: at,
    }
}
