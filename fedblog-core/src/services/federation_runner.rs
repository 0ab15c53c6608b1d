//! The federation runner. Inbound: an activity another server POSTs to an inbox is checked
//! (size, signature, signer = actor, seen before) and applied through the areas, as if its
//! actor had acted here, so every rule of the client API holds for it. Outbound: the
//! `federate` jobs the outbox queued are rendered and become one `deliver` job per inbox, each
//! signed and sent on its own, with retries over days.

use chrono::Utc;
use http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::Value;

mod contexts;
mod emojis;
mod featured;
mod flags;
mod followers_sync;
mod moves;
mod quotes;
mod resolve;
mod suspensions;

pub use contexts::{CONTEXT_PAGE, ContextDocument, ContextQuery};
use featured::hashtag_object;
pub use followers_sync::{SYNCHRONIZE_FOLLOWERS, SynchronizeFollowers};

use crate::app::App;
use crate::content::sanitize_remote_html;
use crate::error::{ApiError, ApiResult};
use crate::federation::RawBody;
use crate::federation::paths;
use crate::federation::vocab::{self, Activity, Actor, FirstPage, Note, Question};
use crate::id::Id;
use crate::render::activitypub::NoteParts;
use crate::services::federation::{Delivered, MAX_ACTIVITY_BYTES};
use crate::services::jobs::{json_job, new_job};
use crate::services::outbox::{DELIVER, DELIVERY_ATTEMPTS, Delivery, Federate, Outgoing};
use crate::services::polls::poll_expired;
use crate::services::relationships::FollowOptions;
use crate::services::remote::{
    MAX_REMOTE_POLL_OPTIONS, RemoteAttachment, RemotePoll, RemoteStatus,
};
use crate::store::{AccountRecord, PollRecord, StatusRecord, Visibility};

/// The collections of a local actor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collection {
    /// Its public posts.
    Outbox,
    /// Its followers.
    Followers,
    /// Whom it follows.
    Following,
    /// Its pinned posts.
    Featured,
    /// Its featured hashtags.
    FeaturedTags,
}

/// Items per page of a collection.
const COLLECTION_PAGE: usize = 20;

/// A job that makes sure the status a stored remote reply names is here (fetching it when it
/// is not) and links the reply to it; payload [`ResolveThread`]. Mastodon's
/// `ThreadResolveWorker`: the inbox answers at once, and each level of a thread's missing
/// ancestors is one job, which queues the next.
pub const RESOLVE_THREAD: &str = "resolve_thread";

/// A job that reads the first pages of a remote status's replies collection and stores the
/// replies they list that we lack; payload [`FetchReplies`]. Mastodon's `FetchRepliesWorker`.
pub const FETCH_REPLIES: &str = "fetch_replies";

/// Ancestors fetched at most above a reply that came in: the reply's parent is level 1, and a
/// status `MAX_FETCHED_ANCESTORS` levels up is stored without its own parent unless that one
/// is already here. Mastodon bounds the chain only by the 1,000 statuses one request may
/// discover (`ActivityPub::FetchRemoteStatusService::DISCOVERIES_PER_REQUEST`); we keep the
/// work one incoming reply causes small: at most this many fetches of notes (each with its
/// author, when unknown), and the replies collections they bring (see
/// [`MAX_FETCHED_REPLIES`]).
pub const MAX_FETCHED_ANCESTORS: u32 = 8;

/// Replies stored at most from one replies collection, all on the server of the status they
/// reply to (see [`MAX_REPLIES_REQUESTS`]). Mastodon's `ActivityPub::FetchRepliesService`
/// takes five (`MAX_REPLIES`, "to limit potential for DoS") from the collection's origin only
/// ("to avoid amplification attacks"). Replies stored this way do not have their own
/// collections read.
pub const MAX_FETCHED_REPLIES: usize = 5;

/// Requests made at most to read one replies collection (the collection and its pages).
/// Mastodon embeds the collection in its notes, with a first page of the author's own replies
/// whose `next` leads, at times through a page of more of them, to everyone else's: three
/// requests reach those. (Mastodon itself reads the first page only.)
pub const MAX_REPLIES_REQUESTS: usize = 3;

/// Tries of a thread job (Mastodon's pull workers retry three times).
const THREAD_JOB_ATTEMPTS: i32 = 3;

/// The payload of a [`RESOLVE_THREAD`] job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResolveThread {
    /// The remote reply, stored without its parent.
    pub status: Id,
    /// The ActivityPub id of the status it replies to.
    pub in_reply_to: String,
    /// How many levels above the reply that came in the status named is (1: its parent).
    pub depth: u32,
}

/// The payload of a [`FETCH_REPLIES`] job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FetchReplies {
    /// The remote status whose replies they are.
    pub status: Id,
    /// Its replies collection as its note gave it: a URL, or the collection embedded.
    pub collection: Value,
}

/// How much of its thread a remote note stored now brings, in the background.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ThreadReach {
    /// A note delivered to an inbox: its parent is fetched when unknown; its replies are read
    /// only when the note embeds some (no request for a new post's empty collection).
    Delivered,
    /// A note we fetched, `depth` levels above a note delivered (0: fetched on its own, as an
    /// announced post): its parent is fetched while under [`MAX_FETCHED_ANCESTORS`], its
    /// replies collection read.
    Fetched { depth: u32 },
    /// A note listed in the replies collection of the status `parent` names: stored only when
    /// it replies to that status, and nothing more is read for it.
    Reply { parent: String },
}

/// Which page of a local status's replies collection (`?page=true`, `only_other_accounts`,
/// `min_id`), as Mastodon pages it: the author's own replies first, then everyone else's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RepliesQuery {
    /// A page rather than the collection (which embeds its first page).
    pub page: bool,
    /// Replies by others than the author rather than the author's own.
    pub only_other_accounts: bool,
    /// Replies newer than this.
    pub min_id: Option<Id>,
}

/// What a local note says of its thread (see [`NoteParts`]).
#[derive(Default)]
struct SelfThread {
    self_replies: Vec<(Id, String)>,
    more_self_replies: bool,
    conversation: Option<String>,
    context: Option<String>,
}

/// Items per page of a replies collection (Mastodon's `DESCENDANTS_LIMIT`).
const REPLIES_PAGE: usize = 60;

/// The author's own replies a note embeds in its replies collection (Mastodon embeds five).
const EMBEDDED_SELF_REPLIES: usize = 5;

pub(crate) fn forbidden(message: &str) -> ApiError {
    ApiError::new(StatusCode::FORBIDDEN, message)
}

/// A job's payload, read.
pub(crate) fn payload_of<T: serde::de::DeserializeOwned>(payload: &Value) -> Result<T, String> {
    serde_json::from_value(payload.clone()).map_err(|e| format!("bad payload: {e}"))
}

/// Whether a reply is listed in a replies collection: public and unlisted ones are.
fn listed(status: &StatusRecord) -> bool {
    matches!(status.visibility, Visibility::Public | Visibility::Unlisted)
        && status.reblog_of_id.is_none()
}

/// A 404 (gone, or not shown to us) as nothing to have.
pub(crate) fn gone_is_none<T>(r: ApiResult<Option<T>>) -> ApiResult<Option<T>> {
    match r {
        Err(e) if e.status == StatusCode::NOT_FOUND => Ok(None),
        other => other,
    }
}

/// A 404 from an area means "nothing to do" for an activity about something gone.
fn gone_is_fine<T>(r: ApiResult<T>) -> ApiResult<()> {
    match r {
        Ok(_) => Ok(()),
        Err(e) if e.status == StatusCode::NOT_FOUND => Ok(()),
        Err(e) => Err(e),
    }
}

/// What we keep of a `Question`'s poll, read at `now`: its first
/// [`MAX_REMOTE_POLL_OPTIONS`] options with their counts; its voters as said, else (as Mastodon
/// shows them) the votes' sum for a single-choice poll, where each voter chooses once, and the
/// largest count for a multiple-choice one (at least that many voted); its end, the time it says
/// it closed (now for a `closed: true`) before its `endTime`. `None` without options.
fn remote_poll(q: Question, now: chrono::DateTime<Utc>) -> Option<RemotePoll> {
    let (options, votes): (Vec<String>, Vec<i64>) = q
        .options
        .into_iter()
        .take(MAX_REMOTE_POLL_OPTIONS)
        .map(|(title, n)| (title, i64::try_from(n).unwrap_or(i64::MAX)))
        .unzip();
    if options.is_empty() {
        return None;
    }
    let voters_count = match q.voters_count {
        Some(n) => i64::try_from(n).unwrap_or(i64::MAX),
        None if q.multiple => votes.iter().copied().max().unwrap_or(0),
        None => votes.iter().fold(0i64, |sum, n| sum.saturating_add(*n)),
    };
    let expires_at = match q.closed {
        Some(Some(at)) => Some(at),
        Some(None) => Some(now),
        None => q.end_time,
    };
    Some(RemotePoll {
        options,
        votes,
        voters_count,
        multiple: q.multiple,
        expires_at,
    })
}

impl App {
    /// An activity POSTed to an inbox: refused when too large (413), unsigned or badly signed
    /// (401), or signed by someone other than its actor (401); ignored when seen before or of a
    /// type we do not act on; applied otherwise.
    pub async fn receive_activity(&self, raw: &RawBody) -> ApiResult<()> {
        if raw.bytes.len() > MAX_ACTIVITY_BYTES {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "The activity is too large",
            ));
        }
        let federation = self.federation();
        if !federation.enabled() {
            return Err(ApiError::not_found());
        }
        let value: Value = serde_json::from_slice(&raw.bytes)
            .map_err(|e| ApiError::bad_request(format!("The body is not JSON: {e}")))?;
        let activity = Activity::from_json(&value)
            .map_err(|e| ApiError::bad_request(format!("The body is not an activity: {e}")))?;
        // A suspended server's activities are taken (so that it stops retrying) and dropped,
        // before its key is fetched.
        if let Some(host) = crate::federation::paths::host_of(&activity.actor)
            && federation.host_suspended(&host).await
        {
            tracing::debug!("dropping an activity from {host}, which this server blocks");
            return Ok(());
        }
        let signer = federation.authenticate(raw).await?;
        if signer.uri.as_deref() != Some(activity.actor.as_str()) {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "The request is not signed by the activity's actor",
            ));
        }
        if let Some(host) = signer.domain.as_deref() {
            federation.host_answered(host).await;
        }
        self.note_collection_sync(raw, &signer).await;
        // A suspended actor's activities are dropped, but for those that take something back or
        // change the actor (its server lifting its suspension comes as an `Update`), as
        // Mastodon's `ProcessCollectionService#suspended_actor?` lets through.
        if signer.is_suspended()
            && !matches!(
                activity.kind.as_str(),
                "Delete" | "Reject" | "Undo" | "Update" | "QuoteRequest"
            )
        {
            tracing::debug!(
                "dropping a {} from the suspended {}",
                activity.kind,
                signer.acct()
            );
            return Ok(());
        }
        if let Some(id) = &activity.id
            && !federation.first_time(id).await?
        {
            return Ok(());
        }
        self.apply_activity(&signer, &activity).await
    }

    /// The local account an actor URL of ours names.
    async fn local_target(&self, uri: Option<String>) -> ApiResult<Option<AccountRecord>> {
        match uri {
            Some(uri) => Ok(self
                .federation()
                .local_account_of(&uri)
                .await?
                .filter(|a| !a.is_suspended())),
            None => Ok(None),
        }
    }

    async fn apply_activity(&self, signer: &AccountRecord, activity: &Activity) -> ApiResult<()> {
        match activity.kind.as_str() {
            "Follow" => self.receive_follow(signer, activity).await,
            "Accept" => self.receive_answer(signer, activity, true).await,
            "Reject" => self.receive_answer(signer, activity, false).await,
            "Undo" => self.receive_undo(signer, activity).await,
            "Create" => self.receive_create(signer, activity).await,
            "Update" => self.receive_update(signer, activity).await,
            "Delete" => self.receive_delete(signer, activity).await,
            "Like" => {
                let Some(status) = self.status_named(activity.object_id()).await? else {
                    return Ok(());
                };
                gone_is_fine(self.interactions().favourite(signer, status.id).await)
            }
            "Announce" => self.receive_announce(signer, activity).await,
            "Move" => self.receive_move(signer, activity).await,
            "Add" => self.receive_featured(signer, activity, true).await,
            "Remove" => self.receive_featured(signer, activity, false).await,
            "Block" => match self.local_target(activity.object_id()).await? {
                Some(target) => gone_is_fine(self.blocks().block(signer, target.id).await),
                None => Ok(()),
            },
            "Flag" => self.receive_flag(signer, activity).await,
            "QuoteRequest" => self.receive_quote_request(signer, activity).await,
            other => {
                tracing::debug!("ignoring a {other} activity from {}", signer.acct());
                Ok(())
            }
        }
    }

    /// The status an ActivityPub id names (ours, or a remote one stored).
    async fn status_named(&self, uri: Option<String>) -> ApiResult<Option<StatusRecord>> {
        match uri {
            Some(uri) => self.remote().status_by_uri(&uri).await,
            None => Ok(None),
        }
    }

    async fn receive_follow(&self, signer: &AccountRecord, activity: &Activity) -> ApiResult<()> {
        let Some(target) = self.local_target(activity.object_id()).await? else {
            return Ok(());
        };
        if let Some(id) = &activity.id {
            self.store.set_follow_uri(signer.id, target.id, id).await?;
        }
        let refused = self.store.blocks(target.id, signer.id).await?
            || match signer.domain.as_deref() {
                Some(domain) => self.store.domain_blocked(target.id, domain).await?,
                None => false,
            };
        if refused {
            return self.outbox().rejected(signer.id, target.id).await;
        }
        match self
            .relationships()
            .follow(signer, target.id, FollowOptions::default())
            .await
        {
            Ok(_) => {}
            Err(e) if e.status == StatusCode::FORBIDDEN => {
                return self.outbox().rejected(signer.id, target.id).await;
            }
            Err(e) => return Err(e),
        }
        if self.store.follows(signer.id, target.id).await? {
            self.outbox().accepted(signer.id, target.id).await?;
        }
        Ok(())
    }

    /// An `Accept` or `Reject` of one of our follows (the follower is ours, the signer the
    /// account followed).
    async fn receive_answer(
        &self,
        signer: &AccountRecord,
        activity: &Activity,
        accepted: bool,
    ) -> ApiResult<()> {
        if self
            .receive_quote_answer(signer, activity, accepted)
            .await?
        {
            return Ok(());
        }
        if activity.object_kind().is_some_and(|k| k != "Follow") {
            return Ok(());
        }
        let follower_uri = activity.object["actor"]
            .as_str()
            .map(str::to_string)
            .or_else(|| activity.object_id());
        let Some(follower) = self.local_target(follower_uri).await? else {
            return Ok(());
        };
        // An object given by id alone must be the id of our Follow of the signer: GoToSocial,
        // for one, also accepts likes and replies by their ids (`…/users/alice#likes/1`).
        if !activity.object.is_object()
            && let Some(id) = activity.object_id()
            && self
                .store
                .follow_uri(follower.id, signer.id)
                .await?
                .as_deref()
                != Some(id.as_str())
        {
            return Ok(());
        }
        let relationships = self.relationships();
        if accepted {
            gone_is_fine(
                relationships
                    .authorize_follow_request(signer, follower.id)
                    .await,
            )
        } else {
            gone_is_fine(
                relationships
                    .reject_follow_request(signer, follower.id)
                    .await,
            )?;
            gone_is_fine(
                relationships
                    .remove_from_followers(signer, follower.id)
                    .await,
            )
        }
    }

    async fn receive_undo(&self, signer: &AccountRecord, activity: &Activity) -> ApiResult<()> {
        let inner = &activity.object;
        let inner_object = inner.get("object").and_then(vocab::id_of);
        match activity.object_kind().as_deref() {
            Some("Follow") => match self.local_target(inner_object).await? {
                Some(target) => {
                    gone_is_fine(self.relationships().unfollow(signer, target.id).await)
                }
                None => Ok(()),
            },
            Some("Like") => match self.status_named(inner_object).await? {
                Some(status) => {
                    gone_is_fine(self.interactions().unfavourite(signer, status.id).await)
                }
                None => Ok(()),
            },
            // An Undo naming its activity by id alone (as Pleroma sends them) can be of an
            // announcement: its reblog is stored under that id, as Mastodon finds it. Else it
            // is looked up on the signer's server (Pleroma serves its activities): a `Like`.
            Some("Announce") | None => {
                let Some(id) = activity.object_id() else {
                    return Ok(());
                };
                match self.store.status_by_uri(&id).await? {
                    Some(reblog)
                        if reblog.reblog_of_id.is_some() && reblog.account_id == signer.id =>
                    {
                        self.statuses().delete_status(&reblog).await
                    }
                    Some(reblog) if reblog.reblog_of_id.is_some() => {
                        Err(forbidden("An actor may only undo its own announcements"))
                    }
                    _ if activity.object_kind().is_none() => {
                        self.undo_like_by_reference(signer, &id).await
                    }
                    _ => Ok(()),
                }
            }
            Some("Block") => match self.local_target(inner_object).await? {
                Some(target) => gone_is_fine(self.blocks().unblock(signer, target.id).await),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// An `Undo` whose object is only the id `id` of something that is not a reblog here: the
    /// activity is fetched from the signer's own server, and when it is the signer's `Like`, the
    /// favourite goes. Anything else (or nothing there) is ignored.
    async fn undo_like_by_reference(&self, signer: &AccountRecord, id: &str) -> ApiResult<()> {
        if signer.domain.is_none() || paths::host_of(id) != signer.domain {
            return Ok(());
        }
        let undone = match self.federation().fetch(id).await {
            Ok(undone) => undone,
            Err(e) => {
                tracing::info!(undone = %id, error = %e.message, "cannot read what an Undo names");
                return Ok(());
            }
        };
        let Ok(like) = Activity::from_json(&undone) else {
            return Ok(());
        };
        if like.kind != "Like" || signer.uri.as_deref() != Some(like.actor.as_str()) {
            return Ok(());
        }
        match self.status_named(like.object_id()).await? {
            Some(status) => gone_is_fine(self.interactions().unfavourite(signer, status.id).await),
            None => Ok(()),
        }
    }

    /// The note an activity carries (embedded, or fetched by its id), which must be the
    /// signer's own.
    async fn note_of(
        &self,
        signer: &AccountRecord,
        activity: &Activity,
    ) -> ApiResult<Option<Note>> {
        let object = if activity.object.is_object() {
            activity.object.clone()
        } else {
            match activity.object_id() {
                Some(id) => self.federation().fetch(&id).await?,
                None => return Ok(None),
            }
        };
        let Ok(note) = Note::from_json(&object) else {
            return Ok(None);
        };
        if signer.uri.as_deref() != Some(note.attributed_to.as_str()) {
            return Err(forbidden("An actor may only post as itself"));
        }
        Ok(Some(note))
    }

    /// What we keep of a remote note: its text made safe, its mentions of accounts we know,
    /// its visibility from its addressing (and, kept apart, the custom emojis it uses).
    async fn remote_status(&self, signer: &AccountRecord, note: Note) -> ApiResult<RemoteStatus> {
        self.keep_remote_emojis(signer, &note.emojis).await?;
        let mut mentions: Vec<Id> = vec![];
        let federation = self.federation();
        for m in &note.mentions {
            let account = match federation.local_account_of(&m.href).await? {
                Some(local) => Some(local.id),
                None => self
                    .store
                    .remote_actor_by_uri(&m.href)
                    .await?
                    .map(|a| a.account_id),
            };
            if let Some(id) = account
                && !mentions.contains(&id)
            {
                mentions.push(id);
            }
        }
        let followers = self
            .store
            .remote_actor(signer.id)
            .await?
            .and_then(|a| a.followers);
        let now = Utc::now();
        Ok(RemoteStatus {
            poll: note.poll.and_then(|q| remote_poll(q, now)),
            uri: note.id,
            content: sanitize_remote_html(&note.content_html),
            spoiler_text: note.summary.unwrap_or_default(),
            sensitive: note.sensitive,
            language: note.language,
            visibility: vocab::visibility_of(&note.to, &note.cc, followers.as_deref()),
            in_reply_to: note.in_reply_to,
            context: note.conversation,
            mentions,
            tags: note.hashtags,
            published: note.published.unwrap_or(now),
            updated: note.updated,
            attachments: note
                .attachments
                .into_iter()
                .filter(|a| a.url.starts_with("https://") || a.url.starts_with("http://"))
                .map(|a| RemoteAttachment {
                    url: a.url,
                    media_type: a.media_type,
                    description: a.description,
                    blurhash: a.blurhash,
                    size: a.width.zip(a.height),
                    focus: a.focal_point,
                })
                .collect(),
        })
    }

    async fn receive_create(&self, signer: &AccountRecord, activity: &Activity) -> ApiResult<()> {
        let Some(note) = self.note_of(signer, activity).await? else {
            return Ok(());
        };
        if let Some((status, poll)) = self.poll_voted_in(&note).await? {
            let name = note.name.unwrap_or_default();
            let remote = self.remote();
            return remote
                .receive_vote(signer, &status, &poll, &name)
                .await
                .map(|_| ());
        }
        self.store_remote_note(signer, note, ThreadReach::Delivered)
            .await
            .map(|_| ())
    }

    /// The local status and poll `note` votes in, when it is a vote as Mastodon (and Misskey)
    /// send one: a note with a `name` (the option) and no content, replying to a local status
    /// with a poll. Whether the vote counts is the poll's business; it is never a status.
    async fn poll_voted_in(&self, note: &Note) -> ApiResult<Option<(StatusRecord, PollRecord)>> {
        if note.name.is_none() || note.poll.is_some() || !note.content_html.trim().is_empty() {
            return Ok(None);
        }
        let Some(uri) = &note.in_reply_to else {
            return Ok(None);
        };
        let Some(status) = self.remote().status_by_uri(uri).await?.filter(|s| s.local) else {
            return Ok(None);
        };
        let poll = self.store.polls_by_status_ids(&[status.id]).await?.pop();
        Ok(poll.map(|p| (status, p)))
    }

    async fn receive_update(&self, signer: &AccountRecord, activity: &Activity) -> ApiResult<()> {
        let object_id = activity.object_id();
        if object_id.is_some() && object_id == signer.uri {
            if !activity.object.is_object() {
                return Ok(());
            }
            let actor = Actor::from_json(&activity.object)
                .map_err(|e| ApiError::bad_request(format!("The actor is invalid: {e}")))?;
            let from = signer.uri.clone().unwrap_or_default();
            return self
                .federation()
                .store_actor(&actor, &from)
                .await
                .map(|_| ());
        }
        let Some(note) = self.note_of(signer, activity).await? else {
            return Ok(());
        };
        let Some(status) = self.store.status_by_uri(&note.id).await? else {
            return Ok(());
        };
        if status.account_id != signer.id {
            return Err(forbidden("An actor may only edit its own posts"));
        }
        // As Mastodon tells them apart: an edit says it was edited after the version we have;
        // a poll's `Update` that does not only brings the poll's counts and end.
        let edit = note
            .updated
            .is_some_and(|u| status.edited_at.is_none_or(|e| u > e));
        let quote = quotes::NoteQuote::of(&note);
        let new = self.remote_status(signer, note).await?;
        if !edit && let Some(poll) = &new.poll {
            self.remote().receive_tally(&status, poll).await?;
        } else if !edit
            && new.content == status.content
            && new.spoiler_text == status.spoiler_text
            && new.sensitive == status.sensitive
        {
            // The note sent again unedited (its quote approved, its quote policy changed,
            // as Mastodon sends them): no edit.
        } else {
            self.remote().receive_edit(&status, new).await?;
        }
        self.record_remote_quote(signer, &status, quote, true).await
    }

    async fn receive_delete(&self, signer: &AccountRecord, activity: &Activity) -> ApiResult<()> {
        let Some(id) = activity.object_id() else {
            return Ok(());
        };
        if signer.uri.as_deref() == Some(id.as_str()) {
            self.store.delete_account(signer.id).await?;
            self.publish(crate::events::DomainEvent::AccountClosed { account: signer.id })
                .await;
            return Ok(());
        }
        if self.receive_authorization_delete(signer, &id).await? {
            return Ok(());
        }
        match self.store.status_by_uri(&id).await? {
            Some(status) if status.account_id == signer.id => {
                self.delete_remote_status(&status).await
            }
            Some(_) => Err(forbidden("An actor may only delete its own posts")),
            None => Ok(()),
        }
    }

    /// A remote author deleted `status`: it goes as a local status goes, and its attachments go
    /// with it at once, as a local deletion's do with `delete_media=true` (no redraft here will
    /// take them up). Remote attachments are kept by URL, so there are no files to remove.
    async fn delete_remote_status(&self, status: &StatusRecord) -> ApiResult<()> {
        let media = self.media().media_ever_attached(status).await?;
        self.statuses().delete_status(status).await?;
        for id in media {
            if let Some(gone) = self.store.delete_unattached_media(id).await?
                && !gone.file_key.is_empty()
            {
                self.media().remove_media_files(&gone).await;
            }
        }
        Ok(())
    }

    async fn receive_announce(&self, signer: &AccountRecord, activity: &Activity) -> ApiResult<()> {
        let Some(id) = activity.id.clone() else {
            return Ok(());
        };
        let original = match self.status_named(activity.object_id()).await? {
            Some(s) => s,
            None => {
                // A remote post we have not seen: fetch it, with its author.
                let Some(uri) = activity.object_id() else {
                    return Ok(());
                };
                let fetched = self
                    .fetch_remote_note(&uri, ThreadReach::Fetched { depth: 0 })
                    .await?;
                let Some(status) = fetched else {
                    return Ok(());
                };
                status
            }
        };
        let followers = self
            .store
            .remote_actor(signer.id)
            .await?
            .and_then(|a| a.followers);
        let visibility = vocab::visibility_of(&activity.to, &activity.cc, followers.as_deref());
        let published = activity.published.unwrap_or_else(Utc::now);
        match self
            .remote()
            .receive_reblog(signer, &original, &id, visibility, published)
            .await
        {
            Ok(_) => Ok(()),
            Err(e) if e.status == StatusCode::FORBIDDEN => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Stores a remote note by `author` (see [`Remote::receive_status`]) and queues what its
    /// thread lacks, as far as `reach` goes: its parent when unknown ([`RESOLVE_THREAD`]), the
    /// replies its collection lists ([`FETCH_REPLIES`]).
    ///
    /// [`Remote::receive_status`]: crate::services::remote::Remote::receive_status
    pub(crate) async fn store_remote_note(
        &self,
        author: &AccountRecord,
        note: Note,
        reach: ThreadReach,
    ) -> ApiResult<StatusRecord> {
        let in_reply_to = note.in_reply_to.clone();
        let replies = note.replies.clone();
        let quote = quotes::NoteQuote::of(&note);
        let status = self.remote_status(author, note).await?;
        let record = self.remote().receive_status(author, status).await?;
        // The post it quotes is fetched for a note delivered or fetched on its own only.
        let fetch_quoted = matches!(
            reach,
            ThreadReach::Delivered | ThreadReach::Fetched { depth: 0 }
        );
        self.record_remote_quote(author, &record, quote, fetch_quoted)
            .await?;
        let depth = match &reach {
            ThreadReach::Delivered => Some(1),
            ThreadReach::Fetched { depth } => Some(depth + 1),
            ThreadReach::Reply { .. } => None,
        };
        if record.in_reply_to_id.is_none()
            && let (Some(in_reply_to), Some(depth)) = (in_reply_to, depth)
        {
            let job = ResolveThread {
                status: record.id,
                in_reply_to,
                depth,
            };
            self.enqueue_federation_job(RESOLVE_THREAD, &job).await?;
        }
        let read_replies = match (&reach, &replies) {
            (ThreadReach::Delivered, Some(collection)) => {
                matches!(vocab::first_page(collection), Some(FirstPage::Here(page))
                    if !vocab::collection_page_items(page).is_empty())
            }
            (ThreadReach::Fetched { .. }, Some(_)) => true,
            _ => false,
        };
        if let (true, Some(collection)) = (read_replies, replies) {
            let job = FetchReplies {
                status: record.id,
                collection,
            };
            self.enqueue_federation_job(FETCH_REPLIES, &job).await?;
        }
        Ok(record)
    }

    pub(crate) async fn enqueue_federation_job(
        &self,
        kind: &str,
        payload: &impl Serialize,
    ) -> ApiResult<()> {
        let job = json_job(
            self.ids.next(),
            kind,
            payload,
            self.now(),
            THREAD_JOB_ATTEMPTS,
        )?;
        self.job_queue().enqueue(&job).await
    }

    /// The remote status at `uri`, fetched with its author (fetched too when unknown) and
    /// stored, as far as `reach` goes; one already here is returned as it is. `None` for what
    /// is not a post, a post its server cannot speak for (its id, or its author, on another
    /// server than the URL it came from), or one of ours.
    pub(crate) async fn fetch_remote_note(
        &self,
        uri: &str,
        reach: ThreadReach,
    ) -> ApiResult<Option<StatusRecord>> {
        let federation = self.federation();
        let doc = federation.fetch(uri).await?;
        let Ok(note) = Note::from_json(&doc) else {
            return Ok(None);
        };
        let host = paths::host_of(uri);
        if paths::host_of(&note.id) != host || paths::host_of(&note.attributed_to) != host {
            return Ok(None);
        }
        if let ThreadReach::Reply { parent } = &reach
            && note.in_reply_to.as_deref() != Some(parent.as_str())
        {
            return Ok(None);
        }
        if let Some(known) = self.remote().status_by_uri(&note.id).await? {
            return Ok(Some(known));
        }
        let author = federation.resolve_actor(&note.attributed_to).await?;
        if author.is_local() || author.is_suspended() {
            return Ok(None);
        }
        self.store_remote_note(&author, note, reach).await.map(Some)
    }

    /// A [`RESOLVE_THREAD`] job.
    pub(crate) async fn run_resolve_thread(&self, payload: &Value) -> Result<(), String> {
        let job: ResolveThread = payload_of(payload)?;
        self.resolve_thread(&job).await.map_err(|e| e.to_string())
    }

    /// Links the reply `job` names to its parent: the one here, else (under the bound, and
    /// unless it would be ours) the one fetched now. A parent that cannot be had (gone, not
    /// shown to us, not a post) leaves the reply as it is.
    async fn resolve_thread(&self, job: &ResolveThread) -> ApiResult<()> {
        let Some(reply) = self.store.status_by_id(job.status).await? else {
            return Ok(());
        };
        if reply.in_reply_to_id.is_some() {
            return Ok(());
        }
        let remote = self.remote();
        let parent = match remote.status_by_uri(&job.in_reply_to).await? {
            Some(parent) => parent,
            None if job.depth > MAX_FETCHED_ANCESTORS
                || paths::parse_local(&self.base_url(), &job.in_reply_to).is_some() =>
            {
                return Ok(());
            }
            None => {
                let reach = ThreadReach::Fetched { depth: job.depth };
                match gone_is_none(self.fetch_remote_note(&job.in_reply_to, reach).await)? {
                    Some(parent) => parent,
                    None => return Ok(()),
                }
            }
        };
        remote.link_reply(&reply, &parent).await.map(|_| ())
    }

    /// A [`FETCH_REPLIES`] job.
    pub(crate) async fn run_fetch_replies(&self, payload: &Value) -> Result<(), String> {
        let job: FetchReplies = payload_of(payload)?;
        self.fetch_replies(&job).await.map_err(|e| e.to_string())
    }

    /// Stores up to [`MAX_FETCHED_REPLIES`] replies we lack from the replies collection `job`
    /// names, read from its first pages with at most [`MAX_REPLIES_REQUESTS`] requests, those
    /// on the server of the status they reply to; a reply that cannot be had is skipped.
    async fn fetch_replies(&self, job: &FetchReplies) -> ApiResult<()> {
        let Some(status) = self.store.status_by_id(job.status).await? else {
            return Ok(());
        };
        let (Some(uri), false) = (status.uri.clone(), status.local) else {
            return Ok(());
        };
        let Some(host) = paths::host_of(&uri) else {
            return Ok(());
        };
        let mut wanted: Vec<String> = vec![];
        let mut requests = 0;
        // What to look at next: the collection, a page, or the URL of either.
        let mut todo = Some(job.collection.clone());
        while let Some(next) = todo.take() {
            let doc = match next {
                Value::String(url) => {
                    if requests >= MAX_REPLIES_REQUESTS
                        || paths::host_of(&url).as_deref() != Some(host.as_str())
                    {
                        break;
                    }
                    requests += 1;
                    match gone_is_none(self.federation().fetch(&url).await.map(Some))? {
                        Some(doc) => doc,
                        None => break,
                    }
                }
                doc => doc,
            };
            match vocab::first_page(&doc) {
                Some(FirstPage::Here(page)) => {
                    for item in vocab::collection_page_items(page)
                        .into_iter()
                        .take(REPLIES_PAGE)
                    {
                        if wanted.len() >= MAX_FETCHED_REPLIES {
                            break;
                        }
                        if paths::host_of(&item).as_deref() == Some(host.as_str())
                            && !wanted.contains(&item)
                            && self.store.status_by_uri(&item).await?.is_none()
                        {
                            wanted.push(item);
                        }
                    }
                    if wanted.len() < MAX_FETCHED_REPLIES {
                        todo = page.get("next").and_then(vocab::id_of).map(Value::String);
                    }
                }
                // A collection whose first page is elsewhere (not itself again).
                Some(FirstPage::At(url)) if Some(&url) != vocab::id_of(&doc).as_ref() => {
                    todo = Some(Value::String(url));
                }
                _ => {}
            }
        }
        for item in wanted {
            let reach = ThreadReach::Reply {
                parent: uri.clone(),
            };
            if let Err(e) = self.fetch_remote_note(&item, reach).await {
                tracing::info!(reply = %item, error = %e.message, "cannot fetch a reply");
            }
        }
        Ok(())
    }

    /// A `federate` job: renders the activity and queues one delivery per inbox.
    pub(crate) async fn run_federate(&self, payload: &Value) -> Result<(), String> {
        let job: Federate = payload_of(payload)?;
        let Some((signer, body)) = self
            .render_outgoing(&job.activity)
            .await
            .map_err(|e| e.to_string())?
        else {
            return Ok(());
        };
        let sync = self
            .collection_sync_headers(signer, &body)
            .await
            .map_err(|e| e.to_string())?;
        let body = body.to_string();
        let now = self.now();
        for inbox in job.inboxes {
            let delivery = Delivery {
                collection_sync: sync.as_ref().and_then(|s| s.for_inbox(&inbox)),
                inbox,
                signer,
                body: body.clone(),
            };
            let payload = serde_json::to_string(&delivery).map_err(|e| e.to_string())?;
            let mut record = new_job(self.ids.next(), DELIVER, &payload, now, now);
            record.max_attempts = DELIVERY_ATTEMPTS;
            self.job_queue()
                .enqueue(&record)
                .await
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// A `deliver` job.
    pub(crate) async fn run_delivery(&self, payload: &Value) -> Result<(), String> {
        let delivery: Delivery = payload_of(payload)?;
        match self.federation().deliver(&delivery).await? {
            Delivered::Yes => Ok(()),
            Delivered::Dropped(why) => {
                tracing::info!("delivery to {} dropped: {why}", delivery.inbox);
                Ok(())
            }
        }
    }

    /// A `close_poll` job: at the end of a local poll, its status's `Update` (now with
    /// `closed` and the final totals) goes to the servers that have it; then the voters and the
    /// author are told (`Notifications::close_poll`). Run twice, the `Update` goes twice, which
    /// changes nothing there.
    pub(crate) async fn run_close_poll(&self, payload: &Value) -> Result<(), String> {
        if let Some(id) = payload["poll_id"]
            .as_str()
            .and_then(|s| s.parse::<Id>().ok())
        {
            self.federate_poll_end(id)
                .await
                .map_err(|e| e.to_string())?;
        }
        self.notifications().close_poll(payload).await
    }

    /// Tells the servers with a copy of local poll `id` that it ended, once it has.
    async fn federate_poll_end(&self, id: Id) -> ApiResult<()> {
        let Some(poll) = self.store.poll_by_id(id).await? else {
            return Ok(());
        };
        if !poll_expired(&poll, self.now()) {
            return Ok(());
        }
        match self.store.status_by_id(poll.status_id).await? {
            Some(status) if status.local => self.outbox().poll_updated(&status, &poll).await,
            _ => Ok(()),
        }
    }

    /// The ActivityPub id of an account, for activities.
    pub(crate) fn actor_uri(&self, account: &AccountRecord) -> String {
        paths::account_actor(&self.base_url(), account)
    }

    async fn account(&self, id: Id) -> ApiResult<Option<AccountRecord>> {
        Ok(self.store.account_by_id(id).await?)
    }

    /// A local account's actor document, naming the actor it moved to if it has. A suspended
    /// account's says `suspended: true` and, as Mastodon's `ActorSerializer` serves an
    /// unavailable account, keeps what other servers need to verify its signatures and reach it
    /// (its id, name, inboxes, collections, key) and leaves its profile out: its display name
    /// (the username stands in), bio, fields, avatar, header, aliases and move, with
    /// `manuallyApprovesFollowers`, `discoverable` and `indexable` false.
    pub(crate) async fn local_actor_document(&self, a: &AccountRecord) -> ApiResult<Value> {
        let key = self.federation().local_key(a.id).await?;
        if a.is_suspended() {
            let bare = AccountRecord {
                display_name: String::new(),
                note: String::new(),
                fields: vec![],
                avatar: None,
                header: None,
                also_known_as: vec![],
                locked: false,
                discoverable: Some(false),
                indexable: false,
                ..a.clone()
            };
            let mut doc = self.render_ap_actor(&bare, &key, None);
            vocab::mark_suspended(&mut doc);
            return Ok(doc);
        }
        let moved_to = match a.moved_to_account_id {
            Some(id) => self.account(id).await?.map(|t| self.actor_uri(&t)),
            None => None,
        };
        // The `Emoji` tags of the emojis its profile uses come from those read last.
        self.local_emojis.refresh_if_stale(&*self.store).await?;
        Ok(self.render_ap_actor(a, &key, moved_to))
    }

    /// The signer and JSON of an outgoing activity; `None` when what it is about is gone.
    pub(crate) async fn render_outgoing(
        &self,
        activity: &Outgoing,
    ) -> ApiResult<Option<(Id, Value)>> {
        let base = self.base_url();
        Ok(match activity {
            Outgoing::Create { status } | Outgoing::Update { status } => {
                let Some(parts) = self.note_parts(*status).await? else {
                    return Ok(None);
                };
                let value = if matches!(activity, Outgoing::Create { .. }) {
                    self.render_ap_create(&parts)
                } else {
                    self.render_ap_update(&parts)
                };
                Some((parts.author.id, value))
            }
            Outgoing::Delete { uri, author } => {
                let Some(a) = self.account(*author).await? else {
                    return Ok(None);
                };
                let actor = self.actor_uri(&a);
                let value = vocab::activity(
                    &format!("{uri}#delete"),
                    "Delete",
                    &actor,
                    vocab::tombstone(uri),
                    &[vocab::PUBLIC.to_string()],
                    &[],
                    None,
                );
                Some((a.id, value))
            }
            Outgoing::Announce { reblog } => {
                let Some(r) = self.store.status_by_id(*reblog).await? else {
                    return Ok(None);
                };
                let Some(original_id) = r.reblog_of_id else {
                    return Ok(None);
                };
                let (Some(a), Some(original)) = (
                    self.account(r.account_id).await?,
                    self.store.status_by_id(original_id).await?,
                ) else {
                    return Ok(None);
                };
                let Some(original_uri) = self.status_uri(&original).await? else {
                    return Ok(None);
                };
                let actor = self.actor_uri(&a);
                let id = paths::status_activity(&paths::status(&base, &a.username, r.id));
                let (to, cc) = vocab::addressing(
                    r.visibility,
                    &paths::followers(&actor),
                    &[self.actor_uri_of(original.account_id).await?],
                );
                let value = vocab::activity(
                    &id,
                    "Announce",
                    &actor,
                    Value::String(original_uri),
                    &to,
                    &cc,
                    Some(r.created_at),
                );
                Some((a.id, value))
            }
            Outgoing::UndoAnnounce {
                reblog,
                author,
                object,
            } => {
                let Some(a) = self.account(*author).await? else {
                    return Ok(None);
                };
                let actor = self.actor_uri(&a);
                let announce_id =
                    paths::status_activity(&paths::status(&base, &a.username, *reblog));
                let announce = vocab::activity(
                    &announce_id,
                    "Announce",
                    &actor,
                    Value::String(object.clone()),
                    &[vocab::PUBLIC.to_string()],
                    &[],
                    None,
                );
                Some((a.id, self.undo(&actor, &announce_id, announce)))
            }
            Outgoing::Like { account, status } | Outgoing::UndoLike { account, status } => {
                let (Some(a), Some(s)) = (
                    self.account(*account).await?,
                    self.store.status_by_id(*status).await?,
                ) else {
                    return Ok(None);
                };
                let Some(object) = self.status_uri(&s).await? else {
                    return Ok(None);
                };
                let actor = self.actor_uri(&a);
                let like_id = format!("{actor}#likes/{}", s.id);
                let undo = matches!(activity, Outgoing::UndoLike { .. });
                Some((a.id, self.about(undo, &like_id, "Like", &actor, object)))
            }
            Outgoing::Follow { follower, target } | Outgoing::UndoFollow { follower, target } => {
                let (Some(f), Some(t)) =
                    (self.account(*follower).await?, self.account(*target).await?)
                else {
                    return Ok(None);
                };
                let actor = self.actor_uri(&f);
                let follow_id = match self.store.follow_uri(f.id, t.id).await? {
                    Some(id) if matches!(activity, Outgoing::UndoFollow { .. }) => id,
                    _ => paths::activity(&actor, "follows", self.ids.next()),
                };
                if matches!(activity, Outgoing::Follow { .. }) {
                    self.store.set_follow_uri(f.id, t.id, &follow_id).await?;
                }
                let undo = matches!(activity, Outgoing::UndoFollow { .. });
                let object = self.actor_uri(&t);
                Some((f.id, self.about(undo, &follow_id, "Follow", &actor, object)))
            }
            Outgoing::Accept { follower, target } | Outgoing::Reject { follower, target } => {
                let (Some(f), Some(t)) =
                    (self.account(*follower).await?, self.account(*target).await?)
                else {
                    return Ok(None);
                };
                let actor = self.actor_uri(&t);
                let follower_actor = self.actor_uri(&f);
                let follow_id = self
                    .store
                    .follow_uri(f.id, t.id)
                    .await?
                    .unwrap_or_else(|| format!("{follower_actor}#follows/{}", t.id));
                let follow = vocab::activity(
                    &follow_id,
                    "Follow",
                    &follower_actor,
                    Value::String(actor.clone()),
                    &[],
                    &[],
                    None,
                );
                let kind = if matches!(activity, Outgoing::Accept { .. }) {
                    "Accept"
                } else {
                    "Reject"
                };
                let id = paths::activity(&actor, &kind.to_ascii_lowercase(), self.ids.next());
                let value = vocab::activity(
                    &id,
                    kind,
                    &actor,
                    vocab::strip_context(follow),
                    &[follower_actor],
                    &[],
                    None,
                );
                Some((t.id, value))
            }
            Outgoing::Block { account, target } | Outgoing::UndoBlock { account, target } => {
                let (Some(a), Some(t)) =
                    (self.account(*account).await?, self.account(*target).await?)
                else {
                    return Ok(None);
                };
                let actor = self.actor_uri(&a);
                let block_id = format!("{actor}#blocks/{}", t.id);
                let undo = matches!(activity, Outgoing::UndoBlock { .. });
                let object = self.actor_uri(&t);
                Some((a.id, self.about(undo, &block_id, "Block", &actor, object)))
            }
            Outgoing::UpdatePoll { status } => {
                let Some(parts) = self.note_parts(*status).await? else {
                    return Ok(None);
                };
                if parts.poll.is_none() {
                    return Ok(None);
                }
                let value = self.render_ap_poll_update(&parts, self.ids.next());
                Some((parts.author.id, value))
            }
            Outgoing::Vote {
                account,
                poll,
                choice,
            } => {
                let (Some(a), Some(p)) = (
                    self.account(*account).await?,
                    self.store.poll_by_id(*poll).await?,
                ) else {
                    return Ok(None);
                };
                let (Some(s), Some(title)) = (
                    self.store.status_by_id(p.status_id).await?,
                    p.options.get(*choice),
                ) else {
                    return Ok(None);
                };
                let (Some(question), Some(author)) = (
                    self.status_uri(&s).await?,
                    self.account(s.account_id).await?,
                ) else {
                    return Ok(None);
                };
                let actor = self.actor_uri(&a);
                // Unique and stable: one account votes once per poll, each option at most once.
                let id = format!("{actor}#votes/{}/{choice}", p.id);
                let value = vocab::vote(&id, &actor, &self.actor_uri(&author), &question, title);
                Some((a.id, value))
            }
            Outgoing::Pin { .. }
            | Outgoing::Unpin { .. }
            | Outgoing::FeatureTag { .. }
            | Outgoing::UnfeatureTag { .. } => self.render_featured_change(activity).await?,
            Outgoing::Move { account, target } => self.render_move(*account, *target).await?,
            Outgoing::Flag { report } => self.render_flag(*report).await?,
            Outgoing::QuoteRequest { .. }
            | Outgoing::AcceptQuote { .. }
            | Outgoing::RejectQuote { .. }
            | Outgoing::RevokeQuote { .. }
            | Outgoing::RefreshNote { .. } => self.render_quote_outgoing(activity).await?,
            Outgoing::UpdateActor { account } => {
                let Some(a) = self.account(*account).await? else {
                    return Ok(None);
                };
                let actor = self.actor_uri(&a);
                let doc = vocab::strip_context(self.local_actor_document(&a).await?);
                let id = paths::activity(&actor, "updates", self.ids.next());
                let value = vocab::activity(
                    &id,
                    "Update",
                    &actor,
                    doc,
                    &[vocab::PUBLIC.to_string()],
                    &[],
                    None,
                );
                Some((a.id, value))
            }
        })
    }

    /// An activity of `actor` about one object (a `Like`, a `Follow`, a `Block`), or, with
    /// `undo`, its `Undo`.
    fn about(&self, undo: bool, id: &str, kind: &str, actor: &str, object: String) -> Value {
        let inner = vocab::activity(id, kind, actor, Value::String(object), &[], &[], None);
        if undo {
            self.undo(actor, id, inner)
        } else {
            inner
        }
    }

    /// `Undo` of `inner` (whose id is `inner_id`) by `actor`.
    fn undo(&self, actor: &str, inner_id: &str, inner: Value) -> Value {
        vocab::activity(
            &format!("{inner_id}/undo"),
            "Undo",
            actor,
            vocab::strip_context(inner),
            &[],
            &[],
            None,
        )
    }

    /// A status with what its note names, for rendering; `None` when it or its author is gone.
    pub async fn note_parts(&self, id: Id) -> ApiResult<Option<NoteParts>> {
        // The `Emoji` tags of the emojis a local note uses come from those read last.
        self.local_emojis.refresh_if_stale(&*self.store).await?;
        let Some(status) = self.store.status_by_id(id).await? else {
            return Ok(None);
        };
        let Some(author) = self.account(status.account_id).await? else {
            return Ok(None);
        };
        let mentions = self.store.accounts_by_ids(&status.mentions).await?;
        let in_reply_to = match status.in_reply_to_id {
            Some(p) => match self.store.status_by_id(p).await? {
                Some(parent) => self.status_uri(&parent).await?,
                None => None,
            },
            None => None,
        };
        let mut media = self.store.media_by_ids(&status.media_ids).await?;
        media.sort_by_key(|m| status.media_ids.iter().position(|id| *id == m.id));
        let thread = if status.local && status.reblog_of_id.is_none() {
            self.thread_parts(&status, &author).await?
        } else {
            SelfThread::default()
        };
        let poll = match status.reblog_of_id {
            None => self.store.polls_by_status_ids(&[status.id]).await?.pop(),
            Some(_) => None,
        };
        let (quote, can_quote) = self.note_quote_parts(&status, &author).await?;
        Ok(Some(NoteParts {
            quote,
            can_quote,
            status,
            author,
            mentions,
            in_reply_to,
            media,
            self_replies: thread.self_replies,
            more_self_replies: thread.more_self_replies,
            conversation: thread.conversation,
            context: thread.context,
            poll,
        }))
    }

    /// What a local status's note says of its thread: the author's own public and unlisted
    /// replies its replies collection embeds, and the thread's name when the thread began here.
    async fn thread_parts(
        &self,
        status: &StatusRecord,
        author: &AccountRecord,
    ) -> ApiResult<SelfThread> {
        let base = self.base_url();
        let mut self_replies: Vec<(Id, String)> = self
            .store
            .replies_to(&[status.id])
            .await?
            .into_iter()
            .filter(|r| r.account_id == status.account_id && listed(r))
            .take(EMBEDDED_SELF_REPLIES + 1)
            .map(|r| (r.id, paths::status(&base, &author.username, r.id)))
            .collect();
        let more_self_replies = self_replies.len() > EMBEDDED_SELF_REPLIES;
        self_replies.truncate(EMBEDDED_SELF_REPLIES);
        let thread = status.conversation_id.unwrap_or(status.id);
        // The account that began the thread, when the thread is ours.
        let starter = if thread == status.id {
            Some(status.account_id)
        } else {
            self.store
                .status_by_id(thread)
                .await?
                .filter(|first| first.local)
                .map(|first| first.account_id)
        };
        let conversation = starter.map(|_| paths::conversation(&self.config.domain, thread));
        let context = starter.map(|starter| paths::context(&base, starter, thread));
        Ok(SelfThread {
            self_replies,
            more_self_replies,
            conversation,
            context,
        })
    }

    /// The replies collection of `author`'s local status `id` (public and unlisted replies, by
    /// accounts not suspended, oldest first, as their ActivityPub ids), or with `q.page` one
    /// page of it (see [`RepliesQuery`]). 404 unless the status is a public or unlisted post of
    /// `author`'s.
    pub async fn render_ap_replies(
        &self,
        author: &AccountRecord,
        id: Id,
        q: RepliesQuery,
    ) -> ApiResult<Value> {
        let status = self
            .store
            .status_by_id(id)
            .await?
            .filter(|s| s.account_id == author.id && s.local && listed(s))
            .ok_or_else(ApiError::not_found)?;
        let base = self.base_url();
        let replies_id = paths::replies(&paths::status(&base, &author.username, status.id));
        let replies: Vec<StatusRecord> = self
            .store
            .replies_to(&[status.id])
            .await?
            .into_iter()
            .filter(|r| listed(r) && (r.account_id != status.account_id) == q.only_other_accounts)
            .filter(|r| q.min_id.is_none_or(|m| r.id > m))
            .collect();
        let mut authors: Vec<Id> = replies.iter().map(|r| r.account_id).collect();
        authors.sort();
        authors.dedup();
        let authors = self.store.accounts_by_ids(&authors).await?;
        let mut items = vec![];
        let mut last = None;
        for r in replies {
            if items.len() == REPLIES_PAGE {
                break;
            }
            let Some(a) = authors
                .iter()
                .find(|a| a.id == r.account_id && !a.is_suspended())
            else {
                continue;
            };
            let uri = r
                .uri
                .clone()
                .unwrap_or_else(|| paths::status(&base, &a.username, r.id));
            items.push(Value::String(uri));
            last = Some(r.id);
        }
        let full = items.len() == REPLIES_PAGE;
        let next = match (q.only_other_accounts, full) {
            (others, true) => Some(paths::replies_page(&replies_id, others, last)),
            (false, false) => Some(paths::replies_page(&replies_id, true, None)),
            (true, false) => None,
        };
        let page_id = paths::replies_page(&replies_id, q.only_other_accounts, q.min_id);
        let page = vocab::collection_page(&page_id, &replies_id, items, next);
        if q.page {
            return Ok(page);
        }
        Ok(serde_json::json!({
            "@context": vocab::ACTIVITY_STREAMS,
            "id": replies_id,
            "type": "Collection",
            "first": vocab::strip_context(page),
        }))
    }

    /// A collection of a local account: the collection (its size and where its first page is)
    /// or, with `page`, one page of it, older than `max_id`. Followers and following show only
    /// their size when the account hides its collections.
    pub async fn render_ap_collection(
        &self,
        kind: Collection,
        account: &AccountRecord,
        page: bool,
        max_id: Option<&str>,
    ) -> ApiResult<Value> {
        let actor = paths::actor(&self.base_url(), &account.username);
        let id = match kind {
            Collection::Outbox => paths::outbox(&actor),
            Collection::Followers => paths::followers(&actor),
            Collection::Following => paths::following(&actor),
            Collection::Featured => paths::featured(&actor),
            Collection::FeaturedTags => paths::featured_tags(&actor),
        };
        let max_id: Option<Id> = max_id.and_then(|m| m.parse().ok());
        // The note context: pinned notes are inlined, and featured tags are `Hashtag`s, a
        // term the ActivityStreams context lacks.
        let with_context = |mut v: Value| {
            if let Some(o) = v.as_object_mut() {
                o.insert("@context".into(), vocab::note_context());
            }
            v
        };
        match kind {
            Collection::Featured => {
                let ids = self.store.pinned_status_ids(account.id).await?;
                let mut items = vec![];
                for sid in ids {
                    if let Some(parts) = self.note_parts(sid).await?
                        && matches!(
                            parts.status.visibility,
                            crate::store::Visibility::Public | crate::store::Visibility::Unlisted
                        )
                    {
                        items.push(self.render_ap_note(&parts).to_json(false));
                    }
                }
                return Ok(with_context(serde_json::json!({
                    "id": id, "type": "OrderedCollection",
                    "totalItems": items.len(), "orderedItems": items,
                })));
            }
            Collection::FeaturedTags => {
                let base = self.base_url();
                let items: Vec<Value> = self
                    .store
                    .featured_tags(account.id)
                    .await?
                    .into_iter()
                    .map(|t| hashtag_object(&base, &t.name))
                    .collect();
                return Ok(with_context(serde_json::json!({
                    "id": id, "type": "Collection",
                    "totalItems": items.len(), "items": items,
                })));
            }
            _ => {}
        }
        let hidden = account.hide_collections == Some(true)
            && matches!(kind, Collection::Followers | Collection::Following);
        let total = match kind {
            Collection::Outbox => account.statuses_count,
            Collection::Followers => account.followers_count,
            _ => account.following_count,
        };
        if !page || hidden {
            let first = (!hidden).then(|| format!("{id}?page=true"));
            return Ok(vocab::ordered_collection(
                &id,
                Some(total.max(0) as u64),
                first,
            ));
        }
        let cursor = crate::pagination::Page {
            max_id,
            since_id: None,
            min_id: None,
            limit: COLLECTION_PAGE,
        };
        let (items, last): (Vec<Value>, Option<Id>) = match kind {
            Collection::Outbox => {
                let filter = crate::store::AccountStatusesFilter {
                    visibilities: vec![
                        crate::store::Visibility::Public,
                        crate::store::Visibility::Unlisted,
                    ],
                    exclude_reblogs: true,
                    ..Default::default()
                };
                let statuses = self
                    .store
                    .account_statuses(account.id, &filter, cursor)
                    .await?;
                let last = statuses.last().map(|s| s.id);
                let mut items = vec![];
                for s in statuses {
                    if let Some(parts) = self.note_parts(s.id).await? {
                        items.push(vocab::strip_context(self.render_ap_create(&parts)));
                    }
                }
                (items, last)
            }
            _ => {
                let pairs = if kind == Collection::Followers {
                    self.store.followers_page(account.id, cursor).await?
                } else {
                    self.store.following_page(account.id, cursor).await?
                };
                let last = pairs.last().map(|(f, _)| *f);
                let ids: Vec<Id> = pairs.iter().map(|(_, a)| *a).collect();
                let accounts = self.store.accounts_by_ids(&ids).await?;
                let items = ids
                    .iter()
                    .filter_map(|i| accounts.iter().find(|a| a.id == *i))
                    .map(|a| Value::String(self.actor_id(a)))
                    .collect();
                (items, last)
            }
        };
        let next = (items.len() == COLLECTION_PAGE)
            .then(|| last.map(|l| format!("{id}?page=true&max_id={l}")))
            .flatten();
        let page_id = match max_id {
            Some(m) => format!("{id}?page=true&max_id={m}"),
            None => format!("{id}?page=true"),
        };
        Ok(vocab::ordered_collection_page(
            &page_id, &id, items, next, None,
        ))
    }

    /// The ActivityPub id of an account (ours or remote).
    async fn actor_uri_of(&self, id: Id) -> ApiResult<String> {
        Ok(match self.account(id).await? {
            Some(a) => self.actor_uri(&a),
            None => String::new(),
        })
    }

    /// The ActivityPub id of a status (ours or remote).
    pub(crate) async fn status_uri(&self, s: &StatusRecord) -> ApiResult<Option<String>> {
        if let Some(uri) = &s.uri {
            return Ok(Some(uri.clone()));
        }
        Ok(self
            .account(s.account_id)
            .await?
            .map(|a| paths::status(&self.base_url(), &a.username, s.id)))
    }
}
