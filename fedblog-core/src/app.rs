//! The `App`: configuration, store and id generator, and `dispatch`, which authenticates a request,
//! checks its scope and account state, parses its parameters and runs the endpoint.

use std::sync::Arc;

use crate::blocking::{Blocking, Inline};
use crate::config::InstanceConfig;
use crate::error::{ApiError, ApiResult};
use crate::events::{DomainEvent, EventBus, InProcessBus};
use crate::files::{FileStore, MemoryFileStore};
use crate::id::IdGenerator;
use crate::media::{MediaProcessor, NoProcessing};
use crate::params::{Params, Upload};
use crate::rate_limit::{MemoryRateLimiter, RateLimiter};
use crate::services::accounts::Accounts;
use crate::services::blocks::Blocks;
use crate::services::edits::Edits;
use crate::services::fanout::Fanout;
use crate::services::interactions::Interactions;
use crate::services::jobs::JobQueue;
use crate::services::lists::Lists;
use crate::services::media::Media;
use crate::services::notification_groups::NotificationGroups;
use crate::services::notification_policies::NotificationPolicies;
use crate::services::notifications::Notifications;
use crate::services::oauth::OAuth;
use crate::services::relationships::Relationships;
use crate::services::scheduled::Scheduled;
use crate::services::statuses::{StatusAreas, Statuses};
use crate::services::tags::Tags;
use crate::store::{AccountRecord, AppRecord, Store, TokenRecord, UserRecord};
use crate::translation::Translator;
use chrono::{DateTime, Utc};

pub use crate::mail::{LogMailer, Mail, MailError, Mailer};

/// The application: everything an endpoint needs.
pub struct App {
    /// Where records live.
    pub store: Arc<dyn Store>,
    /// Where uploaded files (avatars, headers) live.
    pub files: Arc<dyn FileStore>,
    /// Identity and limits.
    pub config: InstanceConfig,
    /// Makes ids.
    pub ids: IdGenerator,
    /// Sends e-mail.
    pub mailer: Arc<dyn Mailer>,
    /// Makes previews of uploaded images (in background jobs).
    pub media: Arc<dyn MediaProcessor>,
    /// Machine translation of statuses; `None` (the default) disables it.
    pub translator: Option<Arc<dyn Translator>>,
    /// Wakes this process's idle workers when a job due now is enqueued.
    pub job_signal: Arc<crate::services::jobs::JobSignal>,
    /// Counts hits against the rate limits (in memory by default).
    pub rate_limiter: Arc<dyn RateLimiter>,
    /// Runs CPU-heavy work such as password hashing (in place by default).
    pub blocking: Arc<dyn Blocking>,
    /// Where services publish what they did ([`crate::events::DomainEvent`]) for streaming;
    /// an in-process bus by default.
    pub events: Arc<dyn EventBus>,
    /// This process's streaming connections (see [`crate::streaming`]).
    pub streams: Arc<crate::streaming::StreamHub>,
    /// How processes sharing the database learn of this one's writes (see
    /// [`ChangeLog`](crate::store::cached::ChangeLog)); a request that wrote is answered once it
    /// settled. `None` (the default) for a store no other process caches.
    pub change_log: Option<Arc<dyn crate::store::cached::ChangeLog>>,
    /// How federation reaches other servers; `None` (the default): the app does not federate.
    pub transport: Option<Arc<dyn crate::federation::Transport>>,
    /// How Web Push messages reach push services; `None` (the default): they reach them
    /// through `transport`, if there is one.
    pub push_transport: Option<Arc<dyn crate::federation::Transport>>,
    /// The key Web Push messages are signed with (VAPID); one made by [`App::new`] unless the
    /// embedder gives the one it keeps ([`App::with_vapid_key`]).
    pub vapid: crate::push::VapidKey,
    /// The hash unknown logins are checked against (made on first use).
    pub(crate) stand_in_hash: std::sync::OnceLock<String>,
    /// Held while a key pair is made, so that callers needing one at once make one between them.
    pub(crate) key_making: futures_util::lock::Mutex<()>,
    /// The holders of highlighted roles as last read, for the badges accounts show.
    pub(crate) staff_badges: crate::services::badges::StaffBadges,
    /// This server's enabled custom emojis as last read, for rendering accounts and polls.
    pub(crate) local_emojis: crate::services::custom_emojis::LocalEmojis,
    /// The IP blocks as last read for the check of every request's address.
    pub(crate) ip_access: crate::services::server_blocks::IpAccessCache,
    /// The accounts whose activity of the day this process recorded.
    pub(crate) activity_days: crate::services::metrics::ActivityMemory,
}

impl App {
    /// An app over a store with a configuration, logging e-mails and keeping uploaded files in
    /// memory (a server replaces `files` with a store on disk, see [`App::with_files`]).
    pub fn new(store: Arc<dyn Store>, config: InstanceConfig) -> Self {
        let streams = Arc::new(crate::streaming::StreamHub::new(
            config.streaming.outbox,
            config.streaming.connections_per_token,
        ));
        App {
            store,
            files: Arc::new(MemoryFileStore::new()),
            config,
            ids: IdGenerator::default(),
            mailer: Arc::new(LogMailer),
            media: Arc::new(NoProcessing),
            translator: None,
            job_signal: Arc::default(),
            rate_limiter: Arc::new(MemoryRateLimiter::default()),
            blocking: Arc::new(Inline),
            events: Arc::new(InProcessBus::new()),
            streams,
            change_log: None,
            transport: None,
            push_transport: None,
            vapid: crate::push::VapidKey::generate(),
            stand_in_hash: std::sync::OnceLock::new(),
            key_making: futures_util::lock::Mutex::new(()),
            staff_badges: Default::default(),
            local_emojis: Default::default(),
            ip_access: Default::default(),
            activity_days: Default::default(),
        }
    }

    /// The same app publishing its events on another bus (shared by processes).
    pub fn with_events(mut self, events: Arc<dyn EventBus>) -> Self {
        self.events = events;
        self
    }

    /// Publishes what a service did. A bus that refuses it is logged: the change it reports is
    /// already stored, and streaming is best effort.
    pub async fn publish(&self, event: DomainEvent) {
        crate::events::publish_logged(&*self.events, event).await;
    }

    /// The same app answering a request that wrote only once `log` settled (give it the log its
    /// store's cache shares with other processes).
    pub fn with_change_log(mut self, log: Arc<dyn crate::store::cached::ChangeLog>) -> Self {
        self.change_log = Some(log);
        self
    }

    /// The same app counting rate limits in another counter store (shared by processes).
    pub fn with_rate_limiter(mut self, limiter: Arc<dyn RateLimiter>) -> Self {
        self.rate_limiter = limiter;
        self
    }

    /// The same app running CPU-heavy work through `blocking`.
    pub fn with_blocking(mut self, blocking: Arc<dyn Blocking>) -> Self {
        self.blocking = blocking;
        self
    }

    /// The same app federating through `transport` (see [`crate::federation`]).
    pub fn with_transport(mut self, transport: Arc<dyn crate::federation::Transport>) -> Self {
        self.transport = Some(transport);
        self
    }

    /// The same app sending Web Push messages through `transport` (which, like federation's,
    /// follows the outbound safety rules), whether or not it federates.
    pub fn with_push_transport(mut self, transport: Arc<dyn crate::federation::Transport>) -> Self {
        self.push_transport = Some(transport);
        self
    }

    /// The same app signing Web Push messages with `key` (kept across restarts by the
    /// embedder: subscriptions are made for one key).
    pub fn with_vapid_key(mut self, key: crate::push::VapidKey) -> Self {
        self.vapid = key;
        self
    }

    /// The same app with another file store.
    pub fn with_files(mut self, files: Arc<dyn FileStore>) -> Self {
        self.files = files;
        self
    }

    /// The same app with another media processor.
    pub fn with_media_processor(mut self, media: Arc<dyn MediaProcessor>) -> Self {
        self.media = media;
        self
    }

    /// The same app translating statuses through `translator` (translation is disabled without one).
    pub fn with_translator(mut self, translator: Arc<dyn Translator>) -> Self {
        self.translator = Some(translator);
        self
    }

    /// The current time (one place, so tests and ids agree).
    pub fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }

    /// The visibility area (who may see which status, and the reads that apply it).
    pub fn visibility(&self) -> crate::services::visibility::VisibilityRule<'_> {
        crate::services::visibility::VisibilityRule::new(&*self.store, self.now())
    }

    /// The polls area (reading a poll through its status, voting).
    pub fn polls(&self) -> crate::services::polls::Polls<'_> {
        crate::services::polls::Polls::new(
            &*self.store,
            self.visibility(),
            self.outbox(),
            self.now(),
        )
    }

    /// The instance area (what the instance tells about itself).
    pub fn instance(&self) -> crate::services::instance::Instance<'_> {
        crate::services::instance::Instance::new(&*self.store, self.translator.is_some())
    }

    /// The translation area (translating statuses through the configured translator).
    pub fn translation(&self) -> crate::services::translation::Translation<'_> {
        crate::services::translation::Translation::new(
            self.translator.as_deref(),
            &*self.store,
            self.visibility(),
        )
    }

    /// The timelines area (home, list, public and hashtag timelines, a page at a time).
    pub fn timelines(&self) -> crate::services::timelines::Timelines<'_> {
        crate::services::timelines::Timelines::new(&*self.store, self.visibility())
    }

    /// The links area (each status's card link, and the link timeline).
    pub fn links(&self) -> crate::services::links::Links<'_> {
        crate::services::links::Links::new(
            &*self.store,
            self.visibility(),
            self.job_queue(),
            &self.ids,
            &self.config.domain,
            self.now(),
        )
    }

    /// The filters area (filters, their keywords and statuses, and applying them).
    pub fn filters(&self) -> crate::services::filters::Filters<'_> {
        crate::services::filters::Filters::new(
            &*self.store,
            &self.ids,
            &*self.events,
            self.visibility(),
            self.now(),
        )
    }

    /// The conversations area (direct-message threads).
    pub fn conversations(&self) -> crate::services::conversations::Conversations<'_> {
        crate::services::conversations::Conversations::new(&*self.store, &self.ids, &*self.events)
    }

    /// The rate-limits area (counting requests against the configured limits).
    pub fn rate_limits(&self) -> crate::services::rate_limits::RateLimiting<'_> {
        crate::services::rate_limits::RateLimiting::new(
            &self.config.rate_limits,
            &*self.rate_limiter,
            self.now(),
        )
    }

    /// The search area (full-text search of statuses).
    pub fn search(&self) -> crate::services::search::Search<'_> {
        crate::services::search::Search::new(&*self.store, self.visibility(), &self.config.domain)
    }

    /// Keeping the search index up to date, and the documents rebuilding it writes.
    pub fn search_indexing(&self) -> crate::services::search::SearchIndexing<'_> {
        crate::services::search::SearchIndexing::new(&*self.store)
    }

    /// The discovery area (account search, the directory, suggestions, an account's statuses).
    pub fn discovery(&self) -> crate::services::discovery::Discovery<'_> {
        crate::services::discovery::Discovery::new(
            &*self.store,
            self.visibility(),
            &self.config.domain,
        )
    }

    /// The notification policies area (policies, the requests filtered notifications gather
    /// in, and the verdict a new notification gets).
    pub fn notification_policies(&self) -> NotificationPolicies<'_> {
        NotificationPolicies::new(
            &*self.store,
            self.conversations(),
            &*self.events,
            self.now(),
        )
    }

    /// The accounts area (local accounts, sign-up, confirmation, profiles, deletion, lookup).
    pub fn accounts(&self) -> Accounts<'_> {
        Accounts::new(
            &*self.store,
            &*self.files,
            &*self.media,
            self.mail_queue(),
            &self.config,
            self.oauth(),
            &self.ids,
            self.now(),
        )
    }

    /// Where areas queue e-mails (as `send_mail` jobs, waking this process's idle workers).
    pub fn mail_queue(&self) -> crate::mail::MailQueue<'_> {
        crate::mail::MailQueue::new(&*self.store, Some(&self.job_signal), &self.ids, self.now())
    }

    /// The mail area (sending queued mails; password resets, changes of address and the
    /// notification e-mail settings).
    pub fn mailing(&self) -> crate::mail::mailing::Mailing<'_> {
        crate::mail::mailing::Mailing::new(
            &*self.store,
            &*self.mailer,
            &self.config,
            self.oauth(),
            self.mail_queue(),
            self.now(),
        )
    }

    /// The OAuth area (applications, codes, tokens, sign-in, password hashing).
    pub fn oauth(&self) -> OAuth<'_> {
        OAuth::new(
            &*self.store,
            &self.config,
            &*self.blocking,
            &self.stand_in_hash,
            &self.ids,
            &*self.events,
            self.now(),
        )
    }

    /// The blocks area (blocks, mutes and user domain blocks).
    pub fn blocks(&self) -> Blocks<'_> {
        Blocks::new(
            &*self.store,
            &self.ids,
            self.now(),
            &self.config.domain,
            self.outbox(),
        )
    }

    /// The media area (uploads, their processing and removal, a status's media).
    pub fn media(&self) -> Media<'_> {
        Media::new(
            &*self.store,
            &*self.files,
            &*self.media,
            &self.config.limits,
            &self.ids,
            self.now(),
        )
    }

    /// The lists area (an account's lists, their members and their feeds).
    pub fn lists(&self) -> Lists<'_> {
        Lists::new(&*self.store, &self.ids, self.timelines())
    }

    /// The WebFinger area (which local account a resource names).
    pub fn webfinger(&self) -> crate::services::webfinger::Webfinger<'_> {
        crate::services::webfinger::Webfinger::new(
            &*self.store,
            &self.config.domain,
            self.base_url(),
        )
    }

    /// The streaming area (which channels an event reaches, who may listen to which).
    pub fn streaming(&self) -> crate::services::streaming::Streaming<'_> {
        crate::services::streaming::Streaming::new(
            &*self.store,
            self.fanout(),
            self.config.streaming.public_needs_token,
        )
    }

    /// The notifications area (making, taking back and reading notifications; closing polls).
    pub fn notifications(&self) -> Notifications<'_> {
        let now = self.now();
        Notifications::new(
            &*self.store,
            &self.ids,
            &*self.events,
            self.visibility(),
            self.notification_policies(),
            self.conversations(),
            crate::services::web_push::PushQueue::new(
                &*self.store,
                JobQueue::new(&*self.store, &self.job_signal, now),
                &self.ids,
                now,
            ),
            self.mailer.delivers(),
            now,
        )
    }

    /// The Web Push area (subscriptions, and the delivery of notifications to them).
    pub fn web_push(&self) -> crate::services::web_push::WebPush<'_> {
        crate::services::web_push::WebPush::new(
            &*self.store,
            &self.vapid,
            self.push_transport.as_deref().or(self.transport.as_deref()),
            &self.config,
            &self.ids,
            self.now(),
        )
    }

    /// The grouped notifications area (pages of groups, one group, dismissing, counting).
    pub fn notification_groups(&self) -> NotificationGroups<'_> {
        NotificationGroups::new(&*self.store, self.notifications(), self.markers())
    }

    /// The interactions area (favourites, bookmarks, pins, thread mutes, thread context).
    pub fn interactions(&self) -> Interactions<'_> {
        Interactions::new(
            &*self.store,
            &self.ids,
            self.visibility(),
            self.notifications(),
            self.outbox(),
        )
    }

    /// The job queue areas put their background work on.
    pub fn job_queue(&self) -> JobQueue<'_> {
        JobQueue::new(&*self.store, &self.job_signal, self.now())
    }

    /// The fan-out area (a new status's and reblog's feeds; feeds when a follow begins or ends).
    pub fn fanout(&self) -> Fanout<'_> {
        // One clock reading for both, so that a job due "now" is due for the queue too.
        let now = self.now();
        Fanout::new(
            &*self.store,
            self.lists(),
            JobQueue::new(&*self.store, &self.job_signal, now),
            self.config.fanout_inline_max,
            &self.ids,
            now,
        )
    }

    /// The relationships area (follows and requests, notes, endorsements, follower lists).
    pub fn relationships(&self) -> Relationships<'_> {
        Relationships::new(
            &*self.store,
            self.fanout(),
            self.notifications(),
            self.visibility(),
            &self.config.domain,
            &self.ids,
            self.now(),
            self.outbox(),
        )
    }

    /// The moves area (aliases and account moves).
    pub fn moves(&self) -> crate::services::moves::Moves<'_> {
        crate::services::moves::Moves::new(
            &*self.store,
            self.federation(),
            self.relationships(),
            self.outbox(),
            self.base_url(),
            self.now(),
        )
    }

    /// The tags area (tag pages, followed and featured tags).
    pub fn tags(&self) -> Tags<'_> {
        Tags::new(&*self.store, &self.ids, self.outbox(), self.now())
    }

    /// The areas posting and editing hand work to.
    fn status_areas(&self) -> StatusAreas<'_> {
        StatusAreas {
            media: self.media(),
            visibility: self.visibility(),
            tags: self.tags(),
            links: self.links(),
            fanout: self.fanout(),
            notifications: self.notifications(),
            outbox: self.outbox(),
            search: self.search_indexing(),
        }
    }

    /// The statuses area (posting and its checks, reblogs, deletion).
    pub fn statuses(&self) -> Statuses<'_> {
        Statuses::new(
            &*self.store,
            self.status_areas(),
            &*self.events,
            &self.config,
            &self.ids,
            self.now(),
        )
    }

    /// The edits area (editing one's statuses, revisions, source).
    pub fn edits(&self) -> Edits<'_> {
        Edits::new(&*self.store, self.statuses(), &self.ids, self.now())
    }

    /// The scheduled statuses area (scheduling, rescheduling, cancelling, publishing).
    pub fn scheduled(&self) -> Scheduled<'_> {
        Scheduled::new(&*self.store, self.statuses(), &self.ids, self.now())
    }

    /// The federation area (keys, remote actors, signatures, deliveries).
    pub fn federation(&self) -> crate::services::federation::Federation<'_> {
        crate::services::federation::Federation::new(
            &*self.store,
            self.transport.as_deref(),
            &*self.blocking,
            &self.key_making,
            &self.ids,
            &self.config,
            self.job_queue(),
            self.now(),
        )
    }

    /// The outbox (what local actions tell other servers).
    pub fn outbox(&self) -> crate::services::outbox::Outbox<'_> {
        crate::services::outbox::Outbox::new(
            &*self.store,
            self.job_queue(),
            &self.ids,
            self.transport.is_some(),
            self.base_url(),
            self.now(),
        )
    }

    /// The remote statuses area (posts, reblogs and edits from other servers).
    pub fn remote(&self) -> crate::services::remote::Remote<'_> {
        crate::services::remote::Remote::new(
            &*self.store,
            self.status_areas(),
            &*self.events,
            &self.ids,
            self.base_url(),
            self.now(),
        )
    }

    /// The server-wide blocks area (domain blocks and allows, e-mail domain, canonical e-mail
    /// and IP blocks).
    pub fn server_blocks(&self) -> crate::services::server_blocks::ServerBlocks<'_> {
        crate::services::server_blocks::ServerBlocks::new(
            self.store.moderation(),
            &*self.store,
            &self.ip_access,
            self.outbox(),
            &self.ids,
            self.now(),
        )
    }

    /// The custom emojis area (this server's emojis as staff manage them).
    pub fn custom_emojis(&self) -> crate::services::custom_emojis::CustomEmojis<'_> {
        crate::services::custom_emojis::CustomEmojis::new(
            &*self.store,
            &*self.files,
            &*self.media,
            &self.local_emojis,
            &self.ids,
            self.base_url(),
            self.now(),
        )
    }

    /// The metrics area (the admin dashboard's measures, dimensions and retention, and the
    /// daily activity they count).
    pub fn metrics(&self) -> crate::services::metrics::Metrics<'_> {
        crate::services::metrics::Metrics::new(
            &*self.store,
            &self.activity_days,
            &self.config.domain,
            self.now(),
        )
    }

    /// The announcements area (what staff announce to every local user, its dismissals and
    /// reactions).
    pub fn announcements(&self) -> crate::services::announcements::Announcements<'_> {
        crate::services::announcements::Announcements::new(
            &*self.store,
            self.statuses(),
            &*self.events,
            &self.ids,
            self.base_url(),
            self.now(),
        )
    }

    /// The markers area (read positions).
    pub fn markers(&self) -> crate::services::markers::Markers<'_> {
        crate::services::markers::Markers::new(&*self.store, self.now())
    }

    /// The quotes area (quote posts, their approval, quote approval policies).
    pub fn quotes(&self) -> crate::services::quotes::Quotes<'_> {
        crate::services::quotes::Quotes::new(&*self.store, self.visibility(), &self.ids, self.now())
            .with_outbox(self.outbox())
    }

    /// The reports area (filing reports, and their handling by moderators).
    pub fn reports(&self) -> crate::services::reports::Reports<'_> {
        crate::services::reports::Reports::new(
            &*self.store,
            self.visibility(),
            self.notifications(),
            self.outbox(),
            &self.ids,
            self.now(),
        )
    }

    /// The moderation area (accounts as administrators see them, and what they do to them).
    pub fn moderation(&self) -> crate::services::moderation::Moderation<'_> {
        crate::services::moderation::Moderation::new(
            &*self.store,
            self.accounts(),
            self.oauth(),
            self.notifications(),
            self.outbox(),
            &self.ids,
            self.now(),
        )
    }

    /// The end-to-end encryption helpers' area (devices, one-time keys, encrypted messages).
    pub fn crypto(&self) -> crate::services::crypto::Crypto<'_> {
        crate::services::crypto::Crypto::new(&*self.store, &self.ids, &*self.events, self.now())
    }

    /// The cards area (preview cards of statuses' links, fetched by a job, and trending links).
    pub fn cards(&self) -> crate::services::cards::Cards<'_> {
        crate::services::cards::Cards::new(
            &*self.store,
            &*self.files,
            &*self.media,
            self.push_transport.as_deref().or(self.transport.as_deref()),
            &self.ids,
            &self.config.domain,
            self.config.trends,
            self.now(),
        )
    }

    /// The trends area (hashtags and statuses in use this week, as staff review them).
    pub fn trends(&self) -> crate::services::trends::Trends<'_> {
        crate::services::trends::Trends::new(
            &*self.store,
            self.tags(),
            self.visibility(),
            self.config.trends,
            self.now(),
        )
    }

    /// `scheme://domain`.
    pub fn base_url(&self) -> String {
        self.config.base_url()
    }

    /// The `Link` header for a page served at the caller's request path, from the cursors of its
    /// first (newest) and last (oldest) items.
    pub fn page_link(
        &self,
        caller: &Caller,
        first: Option<crate::Id>,
        last: Option<crate::Id>,
    ) -> Option<String> {
        let url = format!("{}{}", self.base_url(), caller.info.path);
        crate::pagination::link_header(&url, &caller.info.query, first, last)
    }
}

/// The access token of a request: the `Authorization: Bearer` header, or else the
/// `access_token` parameter (taken out of the parameters).
pub fn request_token(authorization: Option<&str>, params: &mut Params) -> Option<String> {
    bearer_token(authorization).or_else(|| match params.remove("access_token") {
        Some(serde_json::Value::String(s)) if !s.is_empty() => Some(s),
        _ => None,
    })
}

/// The `access_token` of a raw query string, read without parsing the rest of it (a transport
/// that checks the token before reading a body uses this with [`bearer_token`]).
pub fn query_token(query: &str) -> Option<String> {
    form_urlencoded::parse(query.as_bytes())
        .find(|(k, v)| k == "access_token" && !v.is_empty())
        .map(|(_, v)| v.into_owned())
}

/// The token of an `Authorization: Bearer` header.
pub fn bearer_token(header: Option<&str>) -> Option<String> {
    let h = header?.trim();
    let (kind, value) = h.split_once(' ')?;
    (kind.eq_ignore_ascii_case("bearer") && !value.trim().is_empty())
        .then(|| value.trim().to_string())
}

/// A request as the transport hands it to core.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// The `Authorization` header, if any.
    pub authorization: Option<String>,
    /// Path, query and body parameters merged.
    pub params: Params,
    /// Facts about the request.
    pub info: RequestInfo,
}

/// Facts about a request that endpoints may need.
#[derive(Clone, Debug, Default)]
pub struct RequestInfo {
    /// The request path (no query).
    pub path: String,
    /// The raw query string (for echoing filters into `Link` headers).
    pub query: String,
    /// The `Idempotency-Key` header.
    pub idempotency_key: Option<String>,
    /// The client's address.
    pub remote_addr: Option<String>,
    /// The body as sent with the method and headers, for endpoints of
    /// `BodyKind::Raw` only (see the API declarations).
    pub raw: Option<Arc<RawBody>>,
}

pub use crate::federation::RawBody;

/// Who is calling: the token, its app and its user, as authentication found them.
#[derive(Clone, Debug)]
pub struct Caller {
    /// The token, if one was presented and the endpoint reads tokens.
    pub token: Option<TokenRecord>,
    /// The token's app.
    pub app: Option<AppRecord>,
    /// The signed-in account.
    pub account: Option<AccountRecord>,
    /// The signed-in login.
    pub user: Option<UserRecord>,
    /// The custom role of the signed-in login, read by authentication when it has one (a
    /// built-in role reads nothing); what [`crate::permissions::require`] checks it against.
    pub custom_role: Option<crate::store::UserRoleRecord>,
    /// The raw `Authorization` header (OAuth client authentication uses HTTP Basic).
    pub authorization: Option<String>,
    /// Facts about the request.
    pub info: RequestInfo,
    /// The files of a multipart body (taken out of the parameters by `dispatch`).
    pub uploads: Vec<Upload>,
}

impl Caller {
    /// The uploaded file of a multipart field, if any.
    pub fn upload(&self, name: &str) -> Option<&Upload> {
        self.uploads.iter().find(|u| u.name == name)
    }

    /// The signed-in account, or 401 when there is none (endpoints declared `Auth::User` always have one).
    pub fn account(&self) -> ApiResult<&AccountRecord> {
        self.account.as_ref().ok_or_else(ApiError::missing_token)
    }
}

impl crate::permissions::Credentials for Caller {
    fn signed_in(&self) -> ApiResult<&AccountRecord> {
        self.account()
    }

    fn rank(&self) -> crate::permissions::Rank {
        let role = self
            .user
            .as_ref()
            .map_or(crate::store::Role::User, |u| u.role);
        crate::permissions::Rank::of(role, self.custom_role.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_come_from_the_bearer_header_or_the_query() {
        assert_eq!(bearer_token(Some("Bearer abc")).as_deref(), Some("abc"));
        assert_eq!(bearer_token(Some("bearer  abc ")).as_deref(), Some("abc"));
        assert_eq!(bearer_token(Some("Basic abc")), None);
        assert_eq!(bearer_token(Some("Bearer ")), None);
        assert_eq!(
            query_token("limit=5&access_token=t%2B1&x=y").as_deref(),
            Some("t+1")
        );
        assert_eq!(query_token("access_token=&limit=5"), None);
        // A deeply nested key elsewhere in the query is not parsed here.
        let deep = format!("a{}=1&access_token=t", "[x]".repeat(10_000));
        assert_eq!(query_token(&deep).as_deref(), Some("t"));
    }
}
