//! The federation area: our actors' keys, other servers' actors (fetched, stored, refreshed when
//! a day old), the signature on what other servers send us, and the signed requests we make
//! (fetches and deliveries) through the embedder's [`Transport`]. What an activity means is the
//! federation runner's; what to send after a local action is the outbox's.

use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, Utc};
use http::{Method, StatusCode};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::blocking::Blocking;
use crate::config::InstanceConfig;
use crate::content::{self, sanitize_remote_html};
use crate::error::{ApiError, ApiResult};
use crate::federation::collection_sync;
use crate::federation::keys::{PrivateKey, generate_key_pair};
use crate::federation::paths::{self, Local};
use crate::federation::signatures::{
    sign_request, sign_request_with, signature_key_id, verify_request,
};
use crate::federation::vocab::{self, ACTIVITY_JSON, Actor};
use crate::federation::{OutboundRequest, Transport, TransportError};
use crate::id::{Id, IdGenerator};
use crate::services::accounts::ProfileImage;
use crate::services::jobs::{DEFAULT_MAX_ATTEMPTS, JobQueue, json_job};
use crate::services::media::{RemoteDownload, remote_download_job, take_remote_profile_image};
use crate::services::outbox::Delivery;
use crate::services::server_blocks::domain_covers;
use crate::store::{
    AccountRecord, ActorKeyRecord, DomainBlockSeverity, INSTANCE_ACTOR, InstanceDomainBlockRecord,
    ProfileField, RemoteActorRecord, Store, SuspensionOrigin, ValueList, Visibility,
};

/// The server setting (`ModerationStore::setting`) that, when `true`, limits federation to the
/// domains allowed through `/api/v1/admin/domain_allows` (Mastodon's limited federation mode).
pub const LIMITED_FEDERATION_MODE: &str = "limited_federation_mode";

/// A remote actor is fetched again when its copy is older than this.
pub const ACTOR_MAX_AGE: Duration = Duration::hours(24);

/// How far a signature's date may be from our clock (Mastodon allows 12 hours; we allow one
/// either way, which every server we know keeps to).
pub const SIGNATURE_MAX_SKEW: Duration = Duration::hours(1);

/// A server deliveries have failed to for this long is skipped until it answers again.
pub const UNAVAILABLE_AFTER: Duration = Duration::days(7);

/// How long the ids of applied activities are kept, so that the same activity is not applied
/// twice. A replayed signed request needs no such memory past an hour (a signature older than
/// [`SIGNATURE_MAX_SKEW`] is refused); the ids guard against the same activity coming again by
/// another road (forwarded by a third server, fetched again, retried by its sender), which in
/// practice happens within days. Thirty days is well past that, and keeps the table bounded.
pub const SEEN_ACTIVITY_MAX_AGE: Duration = Duration::days(30);

/// The largest activity an inbox takes.
pub const MAX_ACTIVITY_BYTES: usize = 1024 * 1024;

/// A job that reads a remote account's `featured` and `featuredTags` collections and makes its
/// pins and featured tags here what they say; payload [`FetchFeatured`]. Mastodon's
/// `SynchronizeFeaturedCollectionWorker` and `SynchronizeFeaturedTagsCollectionWorker`.
pub const FETCH_FEATURED: &str = "fetch_featured";

/// The most pins (and featured tags) taken from a remote collection, as Mastodon keeps at most
/// five pins of a local account; other servers allow more, and we keep a few more of theirs.
pub const MAX_REMOTE_FEATURED: usize = 10;

/// The payload of a [`FETCH_FEATURED`] job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FetchFeatured {
    /// The remote account.
    pub account: Id,
}

/// The federation area: `app.federation()`.
pub struct Federation<'a> {
    store: &'a dyn Store,
    transport: Option<&'a dyn Transport>,
    blocking: &'a dyn Blocking,
    key_making: &'a futures_util::lock::Mutex<()>,
    ids: &'a IdGenerator,
    config: &'a InstanceConfig,
    jobs: JobQueue<'a>,
    now: DateTime<Utc>,
}

/// How a delivery ended, for the job that made it.
#[derive(Debug, PartialEq, Eq)]
pub enum Delivered {
    /// The inbox took it.
    Yes,
    /// The inbox refused it for good (a 4xx other than 408/429), or its server has been
    /// unavailable for long: not retried.
    Dropped(String),
}

fn unauthorized(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, message)
}

impl<'a> Federation<'a> {
    /// The server-wide domain block covering `host` (the host or a parent domain), if the
    /// store keeps moderation data and has one. A failed read is logged and blocks nothing.
    pub async fn domain_block_of(&self, host: &str) -> Option<InstanceDomainBlockRecord> {
        let moderation = self.store.moderation()?;
        // A block names a domain (covering its ports and subdomains), or one host and port.
        match moderation.instance_domain_blocks().await {
            Ok(blocks) => blocks.into_iter().find(|b| domain_covers(&b.domain, host)),
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the server-wide domain blocks");
                None
            }
        }
    }

    /// Whether `host` is suspended by a server-wide domain block: nothing is fetched from it,
    /// delivered to it or taken from it.
    pub async fn host_suspended(&self, host: &str) -> bool {
        if self
            .domain_block_of(host)
            .await
            .is_some_and(|b| b.severity == DomainBlockSeverity::Suspend)
        {
            return true;
        }
        !self.host_allowed_in_limited_mode(host).await
    }

    /// In limited federation mode (the setting [`LIMITED_FEDERATION_MODE`] is `true`), whether
    /// `host` (or a parent domain) is among the domain allows; outside it, always. A failed
    /// read is logged and allows.
    async fn host_allowed_in_limited_mode(&self, host: &str) -> bool {
        let Some(moderation) = self.store.moderation() else {
            return true;
        };
        let limited = match moderation.setting(LIMITED_FEDERATION_MODE).await {
            Ok(v) => v.as_deref() == Some("true"),
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the federation mode");
                false
            }
        };
        if !limited {
            return true;
        }
        match moderation.listed_values(ValueList::DomainAllows).await {
            Ok(allows) => allows.iter().any(|a| domain_covers(&a.value, host)),
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the domain allows");
                true
            }
        }
    }

    /// 422 for a URL on a suspended domain.
    async fn refuse_suspended(&self, url: &str) -> ApiResult<()> {
        if let Some(host) = paths::host_of(url)
            && self.host_suspended(&host).await
        {
            return Err(ApiError::unprocessable(format!(
                "{host} is blocked by this server"
            )));
        }
        Ok(())
    }

    /// The area over `store`, reaching other servers through `transport` (none: federation is
    /// off, and nothing is fetched or delivered), making key pairs through `blocking` one at a
    /// time in this process (`key_making`), queueing what it learns it should fetch later on
    /// `jobs`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        store: &'a dyn Store,
        transport: Option<&'a dyn Transport>,
        blocking: &'a dyn Blocking,
        key_making: &'a futures_util::lock::Mutex<()>,
        ids: &'a IdGenerator,
        config: &'a InstanceConfig,
        jobs: JobQueue<'a>,
        now: DateTime<Utc>,
    ) -> Self {
        Federation {
            store,
            transport,
            blocking,
            key_making,
            ids,
            config,
            jobs,
            now,
        }
    }

    /// Whether this app federates (it has a transport).
    pub fn enabled(&self) -> bool {
        self.transport.is_some()
    }

    fn base(&self) -> String {
        self.config.base_url()
    }

    fn transport(&self) -> ApiResult<&'a dyn Transport> {
        self.transport
            .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "Federation is off"))
    }

    /// The key pair of a local account (or of [`INSTANCE_ACTOR`]), made on first use and kept:
    /// an RSA key is costly to make, so accounts that never federate never pay for one.
    pub async fn local_key(&self, owner: Id) -> ApiResult<ActorKeyRecord> {
        if let Some(key) = self.store.actor_key(owner).await? {
            return Ok(key);
        }
        // Callers needing a key at once (the first burst of deliveries or fetches) wait for the
        // one being made rather than each making their own; across processes the store keeps
        // the first.
        let _making = self.key_making.lock().await;
        if let Some(key) = self.store.actor_key(owner).await? {
            return Ok(key);
        }
        let pair = crate::blocking::run(self.blocking, generate_key_pair)
            .await
            .ok_or_else(ApiError::internal)?
            .map_err(|e| {
                tracing::error!("cannot make a key pair: {e}");
                ApiError::internal()
            })?;
        Ok(self
            .store
            .insert_actor_key(&ActorKeyRecord {
                owner,
                private_key_pem: pair.private_key_pem,
                public_key_pem: pair.public_key_pem,
                created_at: self.now,
            })
            .await?)
    }

    /// The key id and private key `owner` signs with.
    async fn signing_key(&self, owner: Id) -> ApiResult<(String, PrivateKey)> {
        let actor = if owner == INSTANCE_ACTOR {
            paths::instance_actor(&self.base())
        } else {
            let account = self
                .store
                .account_by_id(owner)
                .await?
                .filter(AccountRecord::is_local)
                .ok_or_else(ApiError::not_found)?;
            paths::actor(&self.base(), &account.username)
        };
        let key = self.local_key(owner).await?;
        let private = PrivateKey::from_pem(&key.private_key_pem).map_err(|e| {
            tracing::error!("the key of {owner} is unreadable: {e}");
            ApiError::internal()
        })?;
        Ok((paths::key_id(&actor), private))
    }

    /// GETs an ActivityPub document, signed by the instance actor (servers in secure mode
    /// answer only signed fetches). 404 when it is not there, 422 for anything else.
    pub async fn fetch(&self, url: &str) -> ApiResult<Value> {
        let transport = self.transport()?;
        self.refuse_suspended(url).await?;
        let (key_id, key) = self.signing_key(INSTANCE_ACTOR).await?;
        let mut headers = sign_request("GET", url, None, &key_id, &key, self.now)
            .map_err(|e| ApiError::unprocessable(format!("Cannot sign a fetch of {url}: {e}")))?;
        headers.push(("Accept".into(), vocab::LD_JSON.into()));
        let answer = transport
            .send(OutboundRequest {
                method: Method::GET,
                url: url.to_string(),
                headers,
                body: None,
            })
            .await
            .map_err(|e| ApiError::unprocessable(format!("Cannot fetch {url}: {e}")))?;
        match answer.status {
            200..=299 => {}
            404 | 410 => return Err(ApiError::not_found()),
            n => {
                return Err(ApiError::unprocessable(format!(
                    "Fetching {url} answered {n}"
                )));
            }
        }
        serde_json::from_slice(&answer.body)
            .map_err(|e| ApiError::unprocessable(format!("{url} is not JSON: {e}")))
    }

    /// A GET of a JSON document without a signature (WebFinger).
    async fn fetch_plain(&self, url: &str, accept: &str) -> ApiResult<Value> {
        self.refuse_suspended(url).await?;
        let answer = self
            .transport()?
            .send(OutboundRequest {
                method: Method::GET,
                url: url.to_string(),
                headers: vec![("Accept".into(), accept.into())],
                body: None,
            })
            .await
            .map_err(|e| ApiError::unprocessable(format!("Cannot fetch {url}: {e}")))?;
        if answer.status == 404 {
            return Err(ApiError::not_found());
        }
        if !(200..300).contains(&answer.status) {
            return Err(ApiError::unprocessable(format!(
                "Fetching {url} answered {}",
                answer.status
            )));
        }
        serde_json::from_slice(&answer.body)
            .map_err(|e| ApiError::unprocessable(format!("{url} is not JSON: {e}")))
    }

    /// The account behind the actor `uri`: a local one, or a remote one known and fresh, or
    /// fetched now (and stored).
    pub async fn resolve_actor(&self, uri: &str) -> ApiResult<AccountRecord> {
        if let Some(local) = self.local_account_of(uri).await? {
            return Ok(local);
        }
        if let Some(known) = self.store.remote_actor_by_uri(uri).await?
            && known.fetched_at + ACTOR_MAX_AGE > self.now
            && let Some(account) = self.store.account_by_id(known.account_id).await?
        {
            return Ok(account);
        }
        self.refresh_actor(uri).await
    }

    /// The account an actor or profile URL names: one of ours, or (when this server
    /// federates) a remote one, fetched and stored when not known and fresh. One that cannot be
    /// had is a 404, as for an unknown handle.
    pub async fn account_at_url(&self, url: &str) -> ApiResult<AccountRecord> {
        if let Some(local) = self.local_account_of(url).await? {
            return Ok(local);
        }
        if !self.enabled() {
            return Err(ApiError::not_found());
        }
        self.resolve_actor(url).await.map_err(|e| {
            tracing::info!("cannot look up the actor at {url}: {}", e.message);
            ApiError::not_found()
        })
    }

    /// The account a handle (`user@host`, `@user@host`, `acct:user@host`, or a local `user`)
    /// or an actor URL names, looked up on its server when remote. 404 when there is none.
    pub async fn account_named(&self, name: &str) -> ApiResult<AccountRecord> {
        let name = name.trim();
        if name.starts_with("https://") || name.starts_with("http://") {
            return self.account_at_url(name).await;
        }
        let handle = name.strip_prefix("acct:").unwrap_or(name);
        let handle = handle.trim_start_matches('@');
        match handle.rsplit_once('@') {
            Some((user, host)) => self.resolve_handle(user, host).await,
            None => self
                .store
                .account_by_username(handle, None)
                .await?
                .ok_or_else(ApiError::not_found),
        }
    }

    /// The local account a URL of ours names, if it does.
    pub async fn local_account_of(&self, uri: &str) -> ApiResult<Option<AccountRecord>> {
        match paths::parse_local(&self.base(), uri) {
            Some(Local::Actor(name)) => Ok(self.store.account_by_username(&name, None).await?),
            _ => Ok(None),
        }
    }

    /// Fetches the actor `uri` and stores it. A key document leads to its owner: its `owner`
    /// (Mastodon's key documents), or its `publicKey.owner` (GoToSocial serves a stub actor
    /// holding only the key at its key id).
    pub async fn refresh_actor(&self, uri: &str) -> ApiResult<AccountRecord> {
        let mut doc = self.fetch(uri).await?;
        if doc.get("inbox").is_none()
            && let Some(owner) = doc
                .get("owner")
                .or_else(|| doc.get("publicKey").and_then(|k| k.get("owner")))
                .and_then(vocab::id_of)
        {
            doc = self.fetch(&owner).await?;
        }
        let actor = Actor::from_json(&doc)
            .map_err(|e| ApiError::unprocessable(format!("{uri} is not an actor: {e}")))?;
        self.store_actor(&actor, uri).await
    }

    /// Stores what an actor document says, refusing one whose id is on another server than the
    /// URL it came from (a server speaks only for its own actors).
    pub async fn store_actor(&self, actor: &Actor, fetched_from: &str) -> ApiResult<AccountRecord> {
        let host = paths::host_of(&actor.id)
            .ok_or_else(|| ApiError::unprocessable("The actor id is not an http(s) URL"))?;
        if paths::host_of(fetched_from).as_deref() != Some(host.as_str()) {
            return Err(ApiError::unprocessable(format!(
                "{fetched_from} answered with an actor of another server ({})",
                actor.id
            )));
        }
        if paths::parse_local(&self.base(), &actor.id).is_some() {
            return Err(ApiError::unprocessable(
                "An actor of ours cannot be fetched",
            ));
        }
        let known = self.store.remote_actor_by_uri(&actor.id).await?;
        let existing = match &known {
            Some(known) => self.store.account_by_id(known.account_id).await?,
            None => None,
        };
        let mut account = existing
            .clone()
            .unwrap_or_else(|| AccountRecord::new_local(self.ids.next(), "", self.now));
        self.take_suspension(&mut account, actor.suspended);
        account.username = actor.preferred_username.clone();
        account.domain = Some(host);
        account.bot = actor.bot;
        account.uri = Some(actor.id.clone());
        account.url = actor.url.clone().or_else(|| Some(actor.id.clone()));
        // A suspended actor's document leaves its profile out: the one we have is kept, to be
        // shown again if the suspension is lifted (Mastodon's `set_immediate_attributes!`
        // and `set_fetchable_attributes!` are skipped likewise).
        let copies = if existing.is_some() && account.is_suspended() {
            vec![]
        } else {
            self.take_profile(&mut account, actor)
        };
        if existing.is_none()
            && let Some(published) = actor.published
        {
            account.created_at = published;
        }
        account.updated_at = self.now;
        if existing.is_none()
            && let Some(block) = self
                .domain_block_of(account.domain.as_deref().unwrap_or(""))
                .await
            && block.severity == DomainBlockSeverity::Silence
        {
            // Silenced as the block's other accounts were, dated by the block (so that lifting
            // it lifts this too).
            account.silenced_at = Some(block.created_at);
        }
        let record = RemoteActorRecord {
            account_id: account.id,
            uri: actor.id.clone(),
            actor_type: actor.kind.clone(),
            inbox: actor.inbox.clone(),
            shared_inbox: actor.shared_inbox.clone(),
            outbox: actor.outbox.clone(),
            followers: actor.followers.clone(),
            following: actor.following.clone(),
            featured: actor.featured.clone(),
            featured_tags: actor.featured_tags.clone(),
            key_id: actor.public_key_id.clone(),
            public_key_pem: actor.public_key_pem.clone(),
            fetched_at: self.now,
        };
        let saved = self.store.save_remote_actor(&account, &record).await?;
        if !saved.is_suspended() {
            self.featured_collections_seen(&record, saved.id, known.as_ref())
                .await;
        }
        for copy in &copies {
            let queued = match remote_download_job(self.ids.next(), copy, self.now) {
                Ok(job) => self.jobs.enqueue(&job).await,
                Err(e) => Err(e),
            };
            if let Err(e) = queued {
                tracing::warn!(actor = %actor.id, error = %e, "cannot queue the copy of a profile image");
            }
        }
        Ok(saved)
    }

    /// Takes what a remote actor's document says of its suspension (`suspended`), as
    /// Mastodon's `ProcessAccountService#set_suspension!` does: a suspension of ours (by a
    /// moderator or a domain block) stays whatever the document says; otherwise the account is
    /// suspended, with origin remote, when the document says so, and a remote suspension is
    /// lifted when it no longer does.
    fn take_suspension(&self, account: &mut AccountRecord, suspended: bool) {
        if account.is_suspended() && !account.is_suspended_remotely() {
            return;
        }
        if account.is_suspended() && !suspended {
            account.suspended_at = None;
            account.suspension_origin = None;
        } else if !account.is_suspended() && suspended {
            account.suspended_at = Some(self.now);
            account.suspension_origin = Some(SuspensionOrigin::Remote);
        }
    }

    /// Takes the profile an actor document gives (names, bio, fields, images, aliases) into
    /// `account`; returns the images to copy here. An image whose URL is unchanged keeps what
    /// the account shows (maybe our copy); a new one is shown from its server until copied.
    fn take_profile(&self, account: &mut AccountRecord, actor: &Actor) -> Vec<RemoteDownload> {
        account.display_name = actor.name.clone().unwrap_or_default();
        account.note = sanitize_remote_html(actor.summary_html.as_deref().unwrap_or(""));
        account.locked = actor.manually_approves_followers;
        account.discoverable = actor.discoverable;
        account.indexable = actor.indexable;
        account.fields = actor
            .fields
            .iter()
            .map(|(name, value)| ProfileField {
                name: name.clone(),
                value: sanitize_remote_html(value),
            })
            .collect();
        let download = self.config.limits.download_remote_media;
        let copies = [
            (ProfileImage::Avatar, &actor.icon_url),
            (ProfileImage::Header, &actor.image_url),
        ]
        .into_iter()
        .filter_map(|(which, url)| take_remote_profile_image(account, which, url.clone(), download))
        .collect();
        account.also_known_as = actor.also_known_as.clone();
        if actor.moved_to.is_none() {
            // Moved back, or never moved: a move is recorded by its `Move` activity.
            account.moved_to_account_id = None;
        }
        copies
    }

    /// Queues a [`FETCH_FEATURED`] job for the remote account `account` when its actor names
    /// featured collections we did not know of (`before` is what we knew of the actor). A
    /// failure to queue is logged: the collections are read again when they change.
    async fn featured_collections_seen(
        &self,
        actor: &RemoteActorRecord,
        account: Id,
        before: Option<&RemoteActorRecord>,
    ) {
        if actor.featured.is_none() && actor.featured_tags.is_none() {
            return;
        }
        if before
            .is_some_and(|b| b.featured == actor.featured && b.featured_tags == actor.featured_tags)
        {
            return;
        }
        let payload = FetchFeatured { account };
        let queued = match json_job(
            self.ids.next(),
            FETCH_FEATURED,
            &payload,
            self.now,
            DEFAULT_MAX_ATTEMPTS,
        ) {
            Ok(job) => self.jobs.enqueue(&job).await,
            Err(e) => Err(e),
        };
        if let Err(e) = queued {
            tracing::warn!(actor = %actor.uri, error = %e.message, "cannot queue reading its featured collections");
        }
    }

    /// The account `username@host` names: ours, a remote one known and fresh, or looked up by
    /// WebFinger and fetched now. 404 when the server knows no such account.
    pub async fn resolve_handle(&self, username: &str, host: &str) -> ApiResult<AccountRecord> {
        let host = host.to_ascii_lowercase();
        if host == self.config.domain.to_ascii_lowercase() {
            return self
                .store
                .account_by_username(username, None)
                .await?
                .ok_or_else(ApiError::not_found);
        }
        if let Some(known) = self
            .store
            .account_by_username(username, Some(&host))
            .await?
            && let Some(actor) = self.store.remote_actor(known.id).await?
            && actor.fetched_at + ACTOR_MAX_AGE > self.now
        {
            return Ok(known);
        }
        let resource = format!("acct:{username}@{host}");
        let url = format!(
            "{}://{host}/.well-known/webfinger?resource={}",
            paths::scheme_for(&host),
            form_urlencoded::byte_serialize(resource.as_bytes()).collect::<String>()
        );
        let jrd = self.fetch_plain(&url, "application/jrd+json").await?;
        let actor_url = jrd["links"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|l| {
                l["rel"] == "self"
                    && l["type"]
                        .as_str()
                        .is_some_and(vocab::is_activity_content_type)
            })
            .and_then(|l| l["href"].as_str())
            .ok_or_else(|| ApiError::unprocessable(format!("{resource} has no actor")))?
            .to_string();
        self.refresh_actor(&actor_url).await
    }

    /// Looks up, by WebFinger, the remote accounts a status text mentions (`@user@host`) that
    /// this server does not know yet, so that posting links and notifies them; a handle that
    /// cannot be found stays plain text, as Mastodon leaves it. At most 20 lookups.
    pub async fn resolve_mentions(&self, text: &str) {
        if !self.enabled() {
            return;
        }
        let ours = self.config.domain.to_ascii_lowercase();
        let mut asked = 0;
        for (username, domain) in content::extract_mentions(text) {
            let Some(domain) = domain.map(|d| d.to_ascii_lowercase()) else {
                continue;
            };
            if domain == ours || asked >= 20 {
                continue;
            }
            if matches!(
                self.store
                    .account_by_username(&username, Some(&domain))
                    .await,
                Ok(Some(_))
            ) {
                continue;
            }
            asked += 1;
            if let Err(e) = self.resolve_handle(&username, &domain).await {
                tracing::info!(
                    "cannot resolve the mention @{username}@{domain}: {}",
                    e.message
                );
            }
        }
    }

    /// Who signed a request to an inbox (or a fetch of something not public): the signature is
    /// checked against the signer's key, fetched if unknown and fetched again once if it does
    /// not verify (the key may have been rotated). 401 for a missing or bad signature.
    pub async fn authenticate(&self, raw: &crate::federation::RawBody) -> ApiResult<AccountRecord> {
        let key_id = signature_key_id(raw).map_err(|e| unauthorized(e.to_string()))?;
        let skew = SIGNATURE_MAX_SKEW;
        let scheme = self.config.scheme.as_str();
        let known = self.store.remote_actor_by_key_id(&key_id).await?;
        if let Some(actor) = &known
            && verify_request(raw, scheme, &actor.public_key_pem, self.now, skew).is_ok()
        {
            return self.account_of(actor).await;
        }
        let actor_url = key_id.split('#').next().unwrap_or(&key_id).to_string();
        let account = self
            .refresh_actor(&actor_url)
            .await
            .map_err(|e| unauthorized(format!("The signer's key cannot be had: {}", e.message)))?;
        let actor = self
            .store
            .remote_actor(account.id)
            .await?
            .ok_or_else(|| unauthorized("The signer is not a remote actor"))?;
        if actor.key_id != key_id {
            return Err(unauthorized(format!(
                "The signer's actor does not publish the key {key_id}"
            )));
        }
        verify_request(raw, scheme, &actor.public_key_pem, self.now, skew)
            .map_err(|e| unauthorized(format!("The signature does not verify: {e}")))?;
        Ok(account)
    }

    async fn account_of(&self, actor: &RemoteActorRecord) -> ApiResult<AccountRecord> {
        self.store
            .account_by_id(actor.account_id)
            .await?
            .ok_or_else(|| unauthorized("The signer is unknown"))
    }

    /// Delivers one activity to one inbox, signed by its local author. A 2xx is done; a 4xx
    /// other than 408 and 429 is dropped (the inbox will never take it); anything else is an
    /// error for the job to retry. A server failing for a week is skipped until it answers.
    pub async fn deliver(&self, delivery: &Delivery) -> Result<Delivered, String> {
        let transport = self.transport().map_err(|e| e.message.to_string())?;
        let host = paths::host_of(&delivery.inbox)
            .ok_or_else(|| format!("{} is not an http(s) URL", delivery.inbox))?;
        if self.host_suspended(&host).await {
            return Ok(Delivered::Dropped(format!(
                "{host} is blocked by this server"
            )));
        }
        if let Some(since) = self
            .store
            .host_failing_since(&host)
            .await
            .map_err(|e| e.to_string())?
            && since + UNAVAILABLE_AFTER < self.now
        {
            return Ok(Delivered::Dropped(format!(
                "{host} has been unavailable since {since}"
            )));
        }
        let (key_id, key) = self
            .signing_key(delivery.signer)
            .await
            .map_err(|e| e.message.to_string())?;
        let body = delivery.body.as_bytes();
        let extra: Vec<(&str, &str)> = delivery
            .collection_sync
            .as_deref()
            .map(|v| (collection_sync::HEADER, v))
            .into_iter()
            .collect();
        let mut headers = sign_request_with(
            "POST",
            &delivery.inbox,
            Some(body),
            &extra,
            &key_id,
            &key,
            self.now,
        )
        .map_err(|e| e.to_string())?;
        headers.push(("Content-Type".into(), ACTIVITY_JSON.into()));
        let sent = transport
            .send(OutboundRequest {
                method: Method::POST,
                url: delivery.inbox.clone(),
                headers,
                body: Some(body.to_vec()),
            })
            .await;
        let status = match sent {
            Ok(answer) => answer.status,
            Err(TransportError::Refused(why)) => {
                return Ok(Delivered::Dropped(format!("refused: {why}")));
            }
            Err(e) => {
                self.host_failed(&host).await;
                return Err(e.to_string());
            }
        };
        match status {
            200..=299 => {
                self.host_answered(&host).await;
                Ok(Delivered::Yes)
            }
            408 | 429 | 500..=599 => {
                self.host_failed(&host).await;
                Err(format!("{} answered {status}", delivery.inbox))
            }
            _ => {
                self.host_answered(&host).await;
                Ok(Delivered::Dropped(format!(
                    "{} answered {status}",
                    delivery.inbox
                )))
            }
        }
    }

    async fn host_failed(&self, host: &str) {
        if let Err(e) = self.store.note_host_failure(host, self.now).await {
            tracing::warn!("cannot note the failure of {host}: {e}");
        }
    }

    /// Notes that `host` answered or sent us something: it is available again.
    pub async fn host_answered(&self, host: &str) {
        match self.store.note_host_success(host).await {
            Ok(true) => tracing::info!("{host} is available again"),
            Ok(false) => {}
            Err(e) => tracing::warn!("cannot note that {host} answered: {e}"),
        }
    }

    /// Notes activity `id` as applied; `false` when it had been already.
    pub async fn first_time(&self, id: &str) -> ApiResult<bool> {
        Ok(self.store.note_activity(id, self.now).await?)
    }

    /// Housekeeping: forgets the ids of activities applied more than
    /// [`SEEN_ACTIVITY_MAX_AGE`] ago; returns how many. Meant to run now and then (the
    /// reference server's first worker runs it hourly).
    pub async fn prune_seen_activities(&self) -> ApiResult<u64> {
        let before = self.now - SEEN_ACTIVITY_MAX_AGE;
        Ok(self.store.prune_activities(before).await?)
    }

    /// The visibility of a remote status from its addressing and its author's followers.
    pub fn visibility_of(
        &self,
        to: &[String],
        cc: &[String],
        followers: Option<&str>,
    ) -> Visibility {
        vocab::visibility_of(to, cc, followers)
    }

    /// How long a delivery may take before the job gives up on it.
    pub fn delivery_timeout(&self) -> StdDuration {
        StdDuration::from_secs(30)
    }

    /// GETs a media file of another server (an attachment, an avatar, a header), signed by the
    /// instance actor as [`Federation::fetch`] is, taking at most `max_bytes` (the transport
    /// bounds what it reads too). 404 when it is gone, 413 when it is larger, 422 when it is
    /// refused for good (another 4xx, an address the transport may not reach), 502 for what may
    /// pass (no answer, 408, 429, 5xx).
    pub async fn fetch_media(&self, url: &str, max_bytes: usize) -> ApiResult<Vec<u8>> {
        let transport = self.transport()?;
        if let Some(host) = paths::host_of(url)
            && let Some(block) = self.domain_block_of(&host).await
            && (block.severity == DomainBlockSeverity::Suspend || block.reject_media)
        {
            return Err(ApiError::unprocessable(format!(
                "media of {host} is refused by this server"
            )));
        }
        let (key_id, key) = self.signing_key(INSTANCE_ACTOR).await?;
        let mut headers = sign_request("GET", url, None, &key_id, &key, self.now)
            .map_err(|e| ApiError::unprocessable(format!("Cannot sign a fetch of {url}: {e}")))?;
        headers.push(("Accept".into(), "*/*".into()));
        let too_large = || {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("{url} is larger than {max_bytes} bytes"),
            )
        };
        let failed = |why: String| ApiError::new(StatusCode::BAD_GATEWAY, why);
        let sent = transport
            .send(OutboundRequest {
                method: Method::GET,
                url: url.to_string(),
                headers,
                body: None,
            })
            .await;
        let answer = match sent {
            Ok(answer) => answer,
            Err(TransportError::TooLarge) => return Err(too_large()),
            Err(TransportError::Refused(why)) => {
                return Err(ApiError::unprocessable(format!(
                    "Cannot fetch {url}: refused: {why}"
                )));
            }
            Err(e) => return Err(failed(format!("Cannot fetch {url}: {e}"))),
        };
        match answer.status {
            200..=299 if answer.body.len() > max_bytes => Err(too_large()),
            200..=299 => Ok(answer.body),
            404 | 410 => Err(ApiError::not_found()),
            n @ (408 | 429 | 500..=599) => Err(failed(format!("Fetching {url} answered {n}"))),
            n => Err(ApiError::unprocessable(format!(
                "Fetching {url} answered {n}"
            ))),
        }
    }
}
