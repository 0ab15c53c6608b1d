//! Web Push (`app.web_push()`): the push subscription of each access token (its endpoint and
//! keys, the notification types it takes and whose), the jobs a new notification queues for
//! the subscriptions it may reach (`PushQueue`, held by the notifications area), and the
//! delivery those jobs make: the payload Mastodon sends, encrypted and signed by
//! [`crate::push`], posted through the push transport, the subscription removed when its push
//! service says it is gone.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::config::InstanceConfig;
use crate::error::{ApiError, ApiResult};
use crate::federation::Transport;
use crate::id::{Id, IdGenerator};
use crate::push::{PushTarget, Urgency, VapidKey, check_subscription_keys, web_push_request};
use crate::services::jobs::{JobQueue, json_job};
use crate::store::{
    AccountRecord, AccountStore, FollowStore, NotificationRecord, NotificationStore,
    NotificationType, OAuthStore, PushSubscriptionRecord, StatusStore, TokenRecord,
};

/// Sends one notification to one push subscription; payload
/// `{"subscription": "<id>", "token": "<token id>", "notification": "<id>"}`.
pub const WEB_PUSH: &str = "web_push";

/// Attempts of a push before it is dropped (Mastodon retries five times).
const PUSH_ATTEMPTS: i32 = 6;

/// How long a push service keeps a message for a device that is offline (Mastodon's 48 hours).
const PUSH_TTL_SECONDS: u32 = 48 * 3600;

/// The longest `body` of a push message, in characters (Mastodon's 140).
const BODY_CHARACTERS: usize = 140;

/// Whose notifications a subscription takes.
pub const POLICIES: [&str; 4] = ["all", "followed", "follower", "none"];

/// The alert keys a subscription always shows (Mastodon documents these ten); other types
/// show when they are on.
pub const DOCUMENTED_ALERTS: [NotificationType; 10] = [
    NotificationType::Mention,
    NotificationType::Status,
    NotificationType::Reblog,
    NotificationType::Follow,
    NotificationType::FollowRequest,
    NotificationType::Favourite,
    NotificationType::Poll,
    NotificationType::Update,
    NotificationType::AdminSignUp,
    NotificationType::AdminReport,
];

/// A subscription as a client asks for it.
#[derive(Clone, Debug, Default)]
pub struct NewPushSubscription {
    /// The push service's URL.
    pub endpoint: Option<String>,
    /// The client's P-256 public key.
    pub p256dh: Option<String>,
    /// The client's authentication secret.
    pub auth: Option<String>,
    /// RFC 8291 `aes128gcm` (`true`) or the older `aesgcm`.
    pub standard: bool,
    /// Its alerts and policy.
    pub data: PushData,
}

/// What a subscription takes: the notification types and whose.
#[derive(Clone, Debug, Default)]
pub struct PushData {
    /// `(type name, on)` as the client gave them; unknown names are ignored, as Mastodon
    /// ignores them.
    pub alerts: Vec<(String, bool)>,
    /// `all`, `followed`, `follower` or `none`; `None` keeps it (`all` for a new one).
    pub policy: Option<String>,
}

impl PushData {
    /// The notification types turned on, each once, in Mastodon's order.
    fn enabled(&self) -> Vec<String> {
        NotificationType::ALL
            .iter()
            .map(|t| t.as_str())
            .filter(|name| {
                self.alerts
                    .iter()
                    .rev()
                    .find(|(n, _)| n == name)
                    .is_some_and(|(_, on)| *on)
            })
            .map(str::to_string)
            .collect()
    }

    /// The policy, checked (422 for one Mastodon does not know).
    fn policy(&self) -> ApiResult<Option<String>> {
        match self.policy.as_deref() {
            None => Ok(None),
            Some(p) if POLICIES.contains(&p) => Ok(Some(p.to_string())),
            Some(_) => Err(ApiError::unprocessable(
                "Validation failed: Policy must be one of all, followed, follower or none",
            )),
        }
    }
}

/// The Web Push area: subscriptions and the delivery of notifications to them.
pub struct WebPush<'a> {
    oauth: &'a dyn OAuthStore,
    accounts: &'a dyn AccountStore,
    statuses: &'a dyn StatusStore,
    notifications: &'a dyn NotificationStore,
    vapid: &'a VapidKey,
    transport: Option<&'a dyn Transport>,
    config: &'a InstanceConfig,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
}

impl<'a> WebPush<'a> {
    /// The area over `store`, signing with `vapid`, sending through `transport` (none: pushes
    /// are dropped with a warning), with the instance's `config`, at `now`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        store: &'a dyn crate::store::Store,
        vapid: &'a VapidKey,
        transport: Option<&'a dyn Transport>,
        config: &'a InstanceConfig,
        ids: &'a IdGenerator,
        now: DateTime<Utc>,
    ) -> Self {
        WebPush {
            oauth: store,
            accounts: store,
            statuses: store,
            notifications: store,
            vapid,
            transport,
            config,
            ids,
            now,
        }
    }

    /// The server's public key, as subscriptions and the instance show it.
    pub fn server_key(&self) -> String {
        self.vapid.public_key()
    }

    /// 404 on a store that keeps no subscriptions.
    fn kept(&self) -> ApiResult<()> {
        if self.oauth.keeps_push_subscriptions() {
            Ok(())
        } else {
            Err(ApiError::new(
                http::StatusCode::NOT_FOUND,
                "This server keeps no push subscriptions",
            ))
        }
    }

    /// Subscribes `token` (of `account`), replacing the subscription it had. `plain_token` is
    /// the token as the request presented it, which the payload carries (sealed at rest).
    pub async fn subscribe(
        &self,
        account: &AccountRecord,
        token: &TokenRecord,
        plain_token: Option<&str>,
        new: NewPushSubscription,
    ) -> ApiResult<PushSubscriptionRecord> {
        self.kept()?;
        let endpoint = new.endpoint.unwrap_or_default().trim().to_string();
        self.check_endpoint(&endpoint)?;
        let p256dh = new.p256dh.unwrap_or_default().trim().to_string();
        let auth = new.auth.unwrap_or_default().trim().to_string();
        if p256dh.is_empty() || auth.is_empty() {
            return Err(ApiError::unprocessable(
                "Validation failed: Keys can't be blank",
            ));
        }
        check_subscription_keys(&p256dh, &auth).map_err(|e| {
            ApiError::unprocessable(format!("Validation failed: Keys are invalid ({e})"))
        })?;
        let policy = new.data.policy()?.unwrap_or_else(|| "all".to_string());
        let sub = PushSubscriptionRecord {
            id: self.ids.next_at(self.now.timestamp_millis()),
            token_id: token.id,
            account_id: account.id,
            endpoint,
            key_p256dh: p256dh,
            key_auth: auth,
            standard: new.standard,
            alerts: new.data.enabled(),
            policy,
            sealed_token: plain_token.and_then(|t| seal(self.vapid, t)),
            created_at: self.now,
            updated_at: self.now,
        };
        self.oauth.put_push_subscription(&sub).await?;
        Ok(sub)
    }

    /// The subscription of `token` (404 when it has none).
    pub async fn subscription(&self, token: &TokenRecord) -> ApiResult<PushSubscriptionRecord> {
        self.kept()?;
        self.oauth
            .push_subscription_of_token(token.id)
            .await?
            .ok_or_else(ApiError::not_found)
    }

    /// Changes what the subscription of `token` takes: the alerts given replace the old ones
    /// (Mastodon replaces the whole `data`), the policy is kept unless given.
    pub async fn update(
        &self,
        token: &TokenRecord,
        data: PushData,
    ) -> ApiResult<PushSubscriptionRecord> {
        let mut sub = self.subscription(token).await?;
        if let Some(policy) = data.policy()? {
            sub.policy = policy;
        }
        sub.alerts = data.enabled();
        sub.updated_at = self.now;
        self.oauth.put_push_subscription(&sub).await?;
        Ok(sub)
    }

    /// Removes the subscription of `token`, if it has one.
    pub async fn unsubscribe(&self, token: &TokenRecord) -> ApiResult<()> {
        if let Some(sub) = self.oauth.push_subscription_of_token(token.id).await? {
            self.oauth.delete_push_subscription(sub.id).await?;
        }
        Ok(())
    }

    /// An `https` URL with a host (any `http(s)` URL when private addresses are allowed), read
    /// as the push request will read it.
    fn check_endpoint(&self, endpoint: &str) -> ApiResult<()> {
        if endpoint.is_empty() {
            return Err(ApiError::unprocessable(
                "Validation failed: Endpoint can't be blank",
            ));
        }
        let https = endpoint
            .get(..8)
            .is_some_and(|s| s.eq_ignore_ascii_case("https://"));
        if endpoint.len() > 2048
            || (!https && !self.config.allow_private_addresses)
            || crate::push::check_endpoint(endpoint).is_err()
        {
            return Err(ApiError::unprocessable(
                "Validation failed: Endpoint is not a valid URL",
            ));
        }
        Ok(())
    }

    /// Runs a [`WEB_PUSH`] job: the notification, if the subscription still exists and takes
    /// it, encrypted and posted to its endpoint. `icon` is the URL of an account's still
    /// avatar. A push service answering 4xx (but 408 and 429) has dropped the subscription,
    /// which goes too, as Mastodon removes it; other failures are retried.
    pub(crate) async fn deliver(
        &self,
        payload: &Value,
        icon: &(dyn Fn(&AccountRecord) -> String + Sync),
    ) -> Result<(), String> {
        let id_of = |key: &str| {
            payload
                .get(key)
                .and_then(Value::as_str)
                .and_then(|s| s.parse::<Id>().ok())
                .ok_or_else(|| format!("a web_push job without {key}"))
        };
        let (sub_id, token_id, notification_id) = (
            id_of("subscription")?,
            id_of("token")?,
            id_of("notification")?,
        );
        let err = |e: crate::StoreError| e.to_string();
        let Some(sub) = self
            .oauth
            .push_subscription_of_token(token_id)
            .await
            .map_err(err)?
            .filter(|s| s.id == sub_id)
        else {
            return Ok(());
        };
        let Some(n) = self
            .notifications
            .notification_by_id(notification_id)
            .await
            .map_err(err)?
            .filter(|n| n.account_id == sub.account_id && !n.filtered)
        else {
            return Ok(());
        };
        if !sub.alerts.iter().any(|a| a == n.kind.as_str()) {
            return Ok(());
        }
        let Some(from) = self
            .accounts
            .account_by_id(n.from_account_id)
            .await
            .map_err(err)?
        else {
            return Ok(());
        };
        let status = match n.status_id {
            Some(id) => self.statuses.status_by_id(id).await.map_err(err)?,
            None => None,
        };
        let locale = self
            .accounts
            .user_by_account_id(sub.account_id)
            .await
            .map_err(err)?
            .map(|u| u.locale)
            .filter(|l| !l.is_empty())
            .unwrap_or_else(|| "en".to_string());
        let message = json!({
            "access_token": sub.sealed_token.as_deref().and_then(|s| open(self.vapid, s)),
            "preferred_locale": locale,
            "notification_id": n.id.as_i64(),
            "notification_type": n.kind.as_str(),
            "icon": icon(&from),
            "title": title(n.kind, &from),
            "body": body(&from, status.as_ref()),
        });
        let Some(transport) = self.transport else {
            tracing::warn!(
                subscription = %sub.id,
                "a push was dropped: this server has no transport to reach push services"
            );
            return Ok(());
        };
        let target = PushTarget {
            endpoint: &sub.endpoint,
            p256dh: &sub.key_p256dh,
            auth: &sub.key_auth,
            standard: sub.standard,
        };
        let request = match web_push_request(
            &target,
            self.vapid,
            &self.contact(),
            message.to_string().as_bytes(),
            PUSH_TTL_SECONDS,
            Urgency::Normal,
            self.now,
        ) {
            Ok(r) => r,
            Err(e) => {
                // Keys that cannot be used now will not be usable later.
                tracing::warn!(subscription = %sub.id, "a push could not be encrypted: {e}");
                return Ok(());
            }
        };
        let answer = transport.send(request).await.map_err(|e| e.to_string())?;
        match answer.status {
            200..=299 => Ok(()),
            408 | 429 => Err(format!("the push service answered {}", answer.status)),
            400..=499 => {
                tracing::info!(
                    subscription = %sub.id,
                    status = answer.status,
                    "the push service dropped a subscription; it is removed"
                );
                self.oauth
                    .delete_push_subscription(sub.id)
                    .await
                    .map_err(err)?;
                Ok(())
            }
            other => Err(format!("the push service answered {other}")),
        }
    }

    /// Who the push services may contact about our messages (the VAPID `sub` claim, a
    /// `mailto:` or `https:` URL as RFC 8292 and Apple's push service want): the contact
    /// address, else the server's `https` URL, else (a server on plain `http`, in
    /// development) the administrator's address at its host.
    fn contact(&self) -> String {
        let email = self.config.contact_email.trim();
        if !email.is_empty() {
            format!("mailto:{email}")
        } else if self.config.scheme == "https" {
            self.config.base_url()
        } else {
            let host = self.config.domain.split(':').next().unwrap_or("localhost");
            format!("mailto:admin@{host}")
        }
    }
}

/// The setting that keeps the VAPID private key made on first start.
const VAPID_SETTING: &str = "vapid_private_key";

/// The key Web Push messages are signed with: the one the administrator gave (`given`), else
/// the one kept in the store's settings, else a new one, kept there (a store without
/// moderation data keeps none: the key then lasts as long as the process, and subscriptions
/// made under it stop working after a restart, which is logged).
pub async fn kept_vapid_key(
    store: &dyn crate::store::Store,
    given: Option<&str>,
) -> Result<VapidKey, String> {
    if let Some(given) = given {
        return VapidKey::from_private_key(given.trim())
            .map_err(|e| format!("FEDBLOG_VAPID_PRIVATE_KEY: {e}"));
    }
    let Some(settings) = store.moderation() else {
        tracing::warn!(
            "this store keeps no settings: Web Push uses a key made for this process only"
        );
        return Ok(VapidKey::generate());
    };
    let read = || async {
        settings
            .setting(VAPID_SETTING)
            .await
            .map_err(|e| format!("cannot read the Web Push key: {e}"))
    };
    if let Some(kept) = read().await? {
        return VapidKey::from_private_key(&kept)
            .map_err(|e| format!("the Web Push key kept in the database is unusable: {e}"));
    }
    let key = VapidKey::generate();
    settings
        .set_setting(VAPID_SETTING, Some(&key.private_key()))
        .await
        .map_err(|e| format!("cannot keep the Web Push key: {e}"))?;
    tracing::info!("made the Web Push (VAPID) key pair, kept in the database");
    // Two processes starting at once may both have made one: the one kept wins.
    match read().await? {
        Some(kept) => VapidKey::from_private_key(&kept).map_err(|e| e.to_string()),
        None => Ok(key),
    }
}

/// Queues the pushes of new notifications: one job per notification and subscription whose
/// alerts and policy take it. Held by the notifications area; a failure is logged and never
/// fails the action that notified.
pub struct PushQueue<'a> {
    oauth: &'a dyn OAuthStore,
    follows: &'a dyn FollowStore,
    jobs: JobQueue<'a>,
    ids: &'a IdGenerator,
    now: DateTime<Utc>,
}

impl<'a> PushQueue<'a> {
    /// The queue over `store`, putting jobs on `jobs`, at `now`.
    pub fn new(
        store: &'a dyn crate::store::Store,
        jobs: JobQueue<'a>,
        ids: &'a IdGenerator,
        now: DateTime<Utc>,
    ) -> Self {
        PushQueue {
            oauth: store,
            follows: store,
            jobs,
            ids,
            now,
        }
    }

    /// Queues the pushes of `notifications` (from `from`); filtered ones are not pushed.
    pub(crate) async fn queue(&self, notifications: &[NotificationRecord], from: &AccountRecord) {
        if !self.oauth.keeps_push_subscriptions() {
            return;
        }
        for n in notifications.iter().filter(|n| !n.filtered) {
            if let Err(e) = self.queue_one(n, from).await {
                tracing::warn!(notification = %n.id, "its pushes could not be queued: {e}");
            }
        }
    }

    async fn queue_one(&self, n: &NotificationRecord, from: &AccountRecord) -> ApiResult<()> {
        let subs = self
            .oauth
            .push_subscriptions_of_account(n.account_id)
            .await?;
        let mut relation: Option<(bool, bool)> = None;
        let mut seen = HashSet::new();
        for sub in subs {
            if !seen.insert(sub.id) || !sub.alerts.iter().any(|a| a == n.kind.as_str()) {
                continue;
            }
            let allowed = match sub.policy.as_str() {
                "all" => true,
                "followed" | "follower" => {
                    let (followed, follower) = match relation {
                        Some(r) => r,
                        None => {
                            let r = (
                                self.follows.follows(n.account_id, from.id).await?,
                                self.follows.follows(from.id, n.account_id).await?,
                            );
                            relation = Some(r);
                            r
                        }
                    };
                    if sub.policy == "followed" {
                        followed
                    } else {
                        follower
                    }
                }
                _ => false,
            };
            if !allowed {
                continue;
            }
            let job = json_job(
                self.ids.next(),
                WEB_PUSH,
                &json!({
                    "subscription": sub.id.to_string(),
                    "token": sub.token_id.to_string(),
                    "notification": n.id.to_string(),
                }),
                self.now,
                PUSH_ATTEMPTS,
            )?;
            self.jobs.enqueue(&job).await?;
        }
        Ok(())
    }
}

/// The title of a push: what happened, and who did it.
fn title(kind: NotificationType, from: &AccountRecord) -> String {
    let name = if from.display_name.trim().is_empty() {
        from.username.as_str()
    } else {
        from.display_name.trim()
    };
    match kind {
        NotificationType::Mention => format!("{name} mentioned you"),
        NotificationType::Status => format!("{name} posted"),
        NotificationType::Reblog => format!("{name} boosted your post"),
        NotificationType::Follow => format!("{name} followed you"),
        NotificationType::FollowRequest => format!("{name} asked to follow you"),
        NotificationType::Favourite => format!("{name} favourited your post"),
        NotificationType::Poll => "A poll has ended".to_string(),
        NotificationType::Update => format!("{name} edited a post"),
        NotificationType::AdminSignUp => format!("{name} signed up"),
        NotificationType::AdminReport => format!("{name} filed a report"),
        NotificationType::SeveredRelationships => "Some of your follows were severed".to_string(),
        NotificationType::ModerationWarning => {
            "A moderator took action on your account".to_string()
        }
        NotificationType::Quote => format!("{name} quoted your post"),
        NotificationType::QuotedUpdate => format!("{name} edited a post you quoted"),
    }
}

/// The body of a push: the status's content warning or text, else the account's bio, as plain
/// text of at most [`BODY_CHARACTERS`] characters.
fn body(from: &AccountRecord, status: Option<&crate::store::StatusRecord>) -> String {
    let text = match status {
        Some(s) if !s.spoiler_text.trim().is_empty() => s.spoiler_text.clone(),
        Some(s) if !s.text.trim().is_empty() => s.text.clone(),
        Some(s) => crate::content::html_to_plain(&s.content),
        None => from.note.clone(),
    };
    let text = text.trim();
    if text.chars().count() <= BODY_CHARACTERS {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(BODY_CHARACTERS - 1).collect();
    cut.push('…');
    cut
}

/// The key tokens are sealed with: HKDF-SHA-256 of the VAPID private key, so that a copy of
/// the database alone does not give the tokens away when the key comes from the settings.
fn sealing_key(vapid: &VapidKey) -> Option<aes_gcm::Aes256Gcm> {
    use aes_gcm::KeyInit;
    use base64::Engine;
    let secret = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(vapid.private_key().trim_end_matches('='))
        .ok()?;
    let mut key = [0u8; 32];
    hkdf::Hkdf::<sha2::Sha256>::new(Some(b"fedblog push subscription"), &secret)
        .expand(b"access token seal", &mut key)
        .ok()?;
    aes_gcm::Aes256Gcm::new_from_slice(&key).ok()
}

/// The access token sealed for storage (AES-256-GCM, a random nonce before the ciphertext,
/// base64url).
fn seal(vapid: &VapidKey, token: &str) -> Option<String> {
    use aes_gcm::aead::Aead;
    use base64::Engine;
    let cipher = sealing_key(vapid)?;
    let nonce: [u8; 12] = rand::random();
    let mut out = nonce.to_vec();
    out.extend(
        cipher
            .encrypt(aes_gcm::Nonce::from_slice(&nonce), token.as_bytes())
            .ok()?,
    );
    Some(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(out))
}

/// A token [`seal`]ed with this key; `None` when it was sealed with another.
fn open(vapid: &VapidKey, sealed: &str) -> Option<String> {
    use aes_gcm::aead::Aead;
    use base64::Engine;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(sealed)
        .ok()?;
    if bytes.len() < 12 {
        return None;
    }
    let (nonce, sealed) = bytes.split_at(12);
    let plain = sealing_key(vapid)?
        .decrypt(aes_gcm::Nonce::from_slice(nonce), sealed)
        .ok()?;
    String::from_utf8(plain).ok()
}

#[cfg(test)]
#[path = "web_push_tests.rs"]
mod tests;
