//! The `App`: configuration, store and id generator, and `dispatch`, which authenticates a request,
//! checks its scope and account state, parses its parameters and runs the endpoint.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use http::StatusCode;

use crate::api::{Auth, Body, Reply, Route};
use crate::blocking::{Blocking, Inline};
use crate::config::InstanceConfig;
use crate::error::{ApiError, ApiResult};
use crate::events::{DomainEvent, EventBus, InProcessBus};
use crate::files::{FileStore, MemoryFileStore};
use crate::id::IdGenerator;
use crate::media::{MediaProcessor, NoProcessing};
use crate::params::{Params, Upload};
use crate::rate_limit::{Family, MemoryRateLimiter, Per, RateLimiter, address_key};
use crate::scope::Scopes;
use crate::services::oauth::hash_secret;
use crate::services::rate_limits::Charge;
use crate::store::{AccountRecord, AppRecord, Store, TokenRecord, UserRecord};
use crate::translation::Translator;

/// Sends the e-mails a server sends. The default writes them to the log.
pub trait Mailer: Send + Sync {
    /// Sends the address-confirmation message with its link.
    fn send_confirmation(&self, to: &str, username: &str, link: &str);
}

/// A mailer that logs messages instead of sending them (development and small servers).
pub struct LogMailer;

impl Mailer for LogMailer {
    fn send_confirmation(&self, _to: &str, username: &str, link: &str) {
        tracing::info!(%username, %link, "confirm the e-mail address by opening this link");
    }
}

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
    /// The hash unknown logins are checked against (made on first use).
    pub(crate) stand_in_hash: std::sync::OnceLock<String>,
}

impl App {
    /// An app over a store with a configuration, logging e-mails and keeping uploaded files in
    /// memory (a server replaces `files` with a store on disk, see [`App::with_files`]).
    pub fn new(store: Arc<dyn Store>, config: InstanceConfig) -> Self {
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
            stand_in_hash: std::sync::OnceLock::new(),
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
        let result = match event.to_event() {
            Ok(e) => self.events.publish(e).await,
            Err(e) => Err(e),
        };
        if let Err(error) = result {
            tracing::warn!(%error, event = event.mastodon_event(), "an event could not be published");
        }
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

    /// `scheme://domain`.
    pub fn base_url(&self) -> String {
        self.config.base_url()
    }

    /// Runs one request through an endpoint: authentication, scope, account state, rate limits,
    /// parameters, handler. Every failure becomes an error reply; this never fails.
    pub async fn dispatch(self: &Arc<Self>, route: &Route, request: Request) -> Reply {
        let Request {
            authorization,
            mut params,
            info,
        } = request;
        let token = request_token(authorization.as_deref(), &mut params);
        let remote_addr = info.remote_addr.clone();
        let caller = self
            .authenticate(route.auth, token.as_deref(), authorization, info)
            .await;
        self.dispatch_as(route, remote_addr.as_deref(), caller, params)
            .await
    }

    /// Runs an endpoint for a caller already authenticated (or refused) with
    /// [`App::authenticate`]: a transport that checks the token before it reads a large body
    /// hands the result here with the parameters it then read. `remote_addr` is the client's
    /// address, counted against the anonymous limit when the token was refused.
    pub async fn dispatch_as(
        self: &Arc<Self>,
        route: &Route,
        remote_addr: Option<&str>,
        caller: ApiResult<Caller>,
        mut params: Params,
    ) -> Reply {
        let uploads = params.take_files();
        let mut shown: Option<Charge> = None;
        let result = async {
            shown = self.charge_api(route, remote_addr, &caller).await?;
            let mut caller = caller?;
            let own = self.charge_own(route, &caller).await?;
            if let Some(first) = own.first() {
                shown = Some(first.clone());
            }
            caller.uploads = uploads;
            let out = (route.handler)(self.clone(), caller, params).await;
            if out.is_err() {
                // The action did not happen; its own limits count actions, not attempts.
                for charge in &own {
                    self.refund(charge).await;
                }
            }
            out
        }
        .await;
        let mut reply = match result {
            Ok(reply) => reply,
            Err(e) => error_reply(e),
        };
        if let Some(charge) = shown
            && !reply
                .headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("X-RateLimit-Limit"))
        {
            reply.headers.extend(charge.headers());
        }
        reply
    }

    /// Counts an API request against the limits of the API as a whole: per token and per
    /// account when a valid token came, per client address otherwise. The charge whose headers
    /// the answer carries is the token's (or the address's).
    async fn charge_api(
        &self,
        route: &Route,
        remote_addr: Option<&str>,
        caller: &ApiResult<Caller>,
    ) -> ApiResult<Option<Charge>> {
        if !route.path.starts_with(crate::api::API_PREFIX) {
            return Ok(None);
        }
        match caller {
            Ok(Caller {
                token: Some(token),
                account,
                ..
            }) => {
                let shown = self.charge(Family::Api, &token.id.to_string()).await?;
                if let Some(account) = account {
                    self.charge(Family::ApiAccount, &account.id.to_string())
                        .await?;
                }
                Ok(shown)
            }
            // No token, or a refused one (guessing tokens is limited like any anonymous
            // request): the client's address.
            _ => match remote_addr {
                Some(addr) => {
                    self.charge(Family::Unauthenticated, &address_key(addr))
                        .await
                }
                None => Ok(None),
            },
        }
    }

    /// Counts a request against the endpoint's own limits. A spent one refuses it (`429`) and
    /// takes back the hits counted before it, since the action will not happen.
    async fn charge_own(&self, route: &Route, caller: &Caller) -> ApiResult<Vec<Charge>> {
        let mut charged = Vec::with_capacity(route.rate_limits.len());
        for &family in route.rate_limits {
            let Some(subject) = self.subject(family, caller) else {
                continue;
            };
            match self.charge(family, &subject).await {
                Ok(Some(c)) => charged.push(c),
                Ok(None) => {}
                Err(e) => {
                    for c in &charged {
                        self.refund(c).await;
                    }
                    return Err(e);
                }
            }
        }
        Ok(charged)
    }

    /// Whom a family counts for this caller: `None` when that is unknown (no account, or no
    /// client address from the transport), and then nothing is counted.
    fn subject(&self, family: Family, caller: &Caller) -> Option<String> {
        match family.per() {
            Per::Token => caller.token.as_ref().map(|t| t.id.to_string()),
            Per::Account => caller.account.as_ref().map(|a| a.id.to_string()),
            Per::Address => caller.info.remote_addr.as_deref().map(address_key),
        }
    }

    /// Authenticates a request for an endpoint: the token (if the endpoint reads one), its
    /// scope, and its account's state.
    pub async fn authenticate(
        &self,
        auth: Auth,
        token: Option<&str>,
        authorization: Option<String>,
        info: RequestInfo,
    ) -> ApiResult<Caller> {
        let mut caller = Caller {
            token: None,
            app: None,
            account: None,
            user: None,
            authorization,
            info,
            uploads: Vec::new(),
        };
        let (scope, need_user, allow_pending) = match auth {
            Auth::Public => return Ok(caller),
            Auth::Optional(s) => (s, false, false),
            Auth::App(s) => (s, false, false),
            Auth::User(s) => (s, true, false),
            Auth::UserPending(s) => (s, true, true),
        };
        let Some(token) = token else {
            return match auth {
                Auth::Optional(_) => Ok(caller),
                _ => Err(ApiError::missing_token()),
            };
        };
        let record = self
            .store
            .token_by_hash(&hash_secret(token))
            .await?
            .filter(|t| t.revoked_at.is_none())
            .ok_or_else(ApiError::invalid_token)?;
        let scopes = Scopes::parse(&record.scopes).unwrap_or_default();
        if !scope.is_empty() && !scopes.allows(scope) {
            return Err(ApiError::outside_scopes());
        }
        caller.app = self.store.app_by_id(record.app_id).await?;
        if let Some(account_id) = record.account_id {
            let account = self
                .store
                .account_by_id(account_id)
                .await?
                .ok_or_else(ApiError::invalid_token)?;
            let user = self
                .store
                .user_by_account_id(account_id)
                .await?
                .ok_or_else(ApiError::invalid_token)?;
            if user.disabled || account.is_suspended() {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "Your login is currently disabled",
                ));
            }
            if !allow_pending {
                if user.confirmed_at.is_none() {
                    return Err(ApiError::new(
                        StatusCode::FORBIDDEN,
                        "Your login is missing a confirmed e-mail address",
                    ));
                }
                if !user.approved {
                    return Err(ApiError::new(
                        StatusCode::FORBIDDEN,
                        "Your login is currently pending approval",
                    ));
                }
            }
            caller.account = Some(account);
            caller.user = Some(user);
        } else if need_user {
            return Err(ApiError::unprocessable(
                "This method requires an authenticated user",
            ));
        }
        caller.token = Some(record);
        Ok(caller)
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

/// Turns an error into its JSON reply.
pub fn error_reply(e: ApiError) -> Reply {
    Reply {
        status: e.status,
        headers: e.headers.clone(),
        body: Body::Json(e.body().to_string()),
    }
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
    /// [`BodyKind::Raw`](crate::api::BodyKind::Raw) only.
    pub raw: Option<Arc<RawBody>>,
}

/// A request as it arrived, for an endpoint that needs its exact bytes (a signed delivery).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawBody {
    /// The method (`POST`).
    pub method: String,
    /// The path and query as sent (`/inbox?x=1`), what a signature's `(request-target)` names.
    pub target: String,
    /// Every header, names in lower case, in the order sent (a repeated header repeats).
    pub headers: Vec<(String, String)>,
    /// The body's bytes.
    pub bytes: Vec<u8>,
}

impl RawBody {
    /// The first value of the header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

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
