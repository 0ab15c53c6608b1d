//! A remote ActivityPub server that a test plays, on a loopback port: the conformance kit's
//! `federation` checks hold a server to it, and the federation benchmark's stand-in servers
//! share its HTTP plumbing.
//!
//! The peer answers for any actor name (`http://HOST/users/NAME`): WebFinger
//! (`acct:NAME@HOST`), the actor document with one RSA key shared by every actor, empty
//! outbox, following and featured collections, a followers collection with the followers it
//! accepted, and every object it published ([`Peer::publish`]) at its id. Every POST to an inbox
//! (`/users/NAME/inbox` or the shared `/inbox`) has its HTTP signature verified against the
//! signer's key, fetched from the signer's actor document (signed, as the instance actor of
//! the peer); one that does not verify, or whose activity's `actor` is not the signer, is
//! answered 401 and kept as a refusal. Verified activities are kept in arrival order
//! ([`Peer::deliveries`]); a `Follow` of one of its actors is answered with a signed `Accept`
//! unless the actor approves follows by hand ([`Peer::set_manual`]).
//!
//! What it sends ([`Peer::deliver`]) is signed as Mastodon signs: draft-cavage `rsa-sha256`
//! over `(request-target) host date digest`.

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::Utc;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::task::JoinSet;

use fedblog_core::federation::RawBody;
use fedblog_core::federation::keys::{PrivateKey, generate_key_pair};
use fedblog_core::federation::signatures::{sign_request, signature_key_id, verify_request};
use fedblog_core::federation::vocab::{ACTIVITY_JSON, ACTIVITY_STREAMS, Actor, SECURITY_V1};
use fedblog_core::federation::{paths, vocab};

/// The largest inbox body the peer reads.
pub const MAX_INBOX_BODY: usize = 1024 * 1024;

/// How far a signature's date may be from the peer's clock (as fedblog allows).
pub const MAX_SKEW: chrono::TimeDelta = chrono::TimeDelta::hours(1);

/// The actor that signs the peer's fetches made on nobody's behalf.
pub const INSTANCE_ACTOR: &str = "peer.instance";

/// A verified activity that reached one of the peer's inboxes.
#[derive(Clone, Debug)]
pub struct Delivery {
    /// The actor name whose inbox took it, `None` for the shared inbox.
    pub inbox_of: Option<String>,
    /// The signer (its actor id, from the key id).
    pub signer: String,
    /// The activity.
    pub activity: Value,
}

impl Delivery {
    /// The activity's `type`.
    pub fn kind(&self) -> &str {
        self.activity["type"].as_str().unwrap_or("")
    }

    /// Its object, when embedded (else `Null`).
    pub fn object(&self) -> &Value {
        &self.activity["object"]
    }
}

/// A signer's key and inbox, from its actor document.
#[derive(Clone, Debug)]
struct Signer {
    pem: String,
    inbox: String,
}

#[derive(Default)]
struct State {
    manual: HashSet<String>,
    /// Published objects by id.
    objects: HashMap<String, Value>,
    /// Accepted followers (actor ids) by actor name.
    followers: HashMap<String, Vec<String>>,
    deliveries: Vec<Delivery>,
    refusals: Vec<String>,
    signers: HashMap<String, Signer>,
}

/// A remote ActivityPub server on a loopback port (see the module documentation).
pub struct Peer {
    base: String,
    scheme: &'static str,
    key: PrivateKey,
    public_pem: String,
    http: reqwest::Client,
    state: Mutex<State>,
    ids: AtomicU64,
    task: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl Peer {
    /// Starts a peer listening on `listen` (e.g. `127.0.0.1:0`), reached at `http://` and the
    /// address bound, with a new 2048-bit RSA key.
    pub async fn start(listen: &str) -> Result<Arc<Peer>, String> {
        let listener = TcpListener::bind(listen)
            .await
            .map_err(|e| format!("the peer cannot listen on {listen}: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("the peer cannot read its address: {e}"))?;
        let pair = tokio::task::spawn_blocking(generate_key_pair)
            .await
            .map_err(|e| format!("the peer's key generation stopped: {e}"))?
            .map_err(|e| format!("the peer cannot make a key pair: {e}"))?;
        let key = PrivateKey::from_pem(&pair.private_key_pem)
            .map_err(|e| format!("the peer cannot read its key: {e}"))?;
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("fedblog-testkit-peer/", env!("CARGO_PKG_VERSION")))
            .timeout(Duration::from_secs(20))
            .build()
            .map_err(|e| format!("the peer cannot build its HTTP client: {e}"))?;
        let peer = Arc::new(Peer {
            base: format!("http://{addr}"),
            scheme: "http",
            key,
            public_pem: pair.public_key_pem,
            http,
            state: Mutex::new(State::default()),
            ids: AtomicU64::new(1),
            task: Mutex::new(None),
        });
        // Weak: dropping the last handle on the peer stops it.
        let served = Arc::downgrade(&peer);
        let task = tokio::spawn(serve_http(listener, move |req| {
            let peer = served.upgrade();
            async move {
                match peer {
                    Some(peer) => peer.answer(req).await,
                    None => plain(StatusCode::SERVICE_UNAVAILABLE, "stopped"),
                }
            }
        }));
        if let Ok(mut slot) = peer.task.lock() {
            *slot = Some(task);
        }
        Ok(peer)
    }

    /// Its base URL (`http://127.0.0.1:PORT`).
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Its host as handles name it (`127.0.0.1:PORT`).
    pub fn host(&self) -> &str {
        self.base.split("://").nth(1).unwrap_or(&self.base)
    }

    /// The actor id of `name`.
    pub fn actor(&self, name: &str) -> String {
        paths::actor(&self.base, name)
    }

    /// The handle of `name` (`name@127.0.0.1:PORT`).
    pub fn handle(&self, name: &str) -> String {
        format!("{name}@{}", self.host())
    }

    /// Makes follows of `name` wait for [`Peer::accept`] (`manual`) or be accepted at once.
    pub fn set_manual(&self, name: &str, manual: bool) {
        self.with_state(|s| {
            if manual {
                s.manual.insert(name.to_string());
            } else {
                s.manual.remove(name);
            }
        });
    }

    /// A new id under `name`'s actor: `ACTOR/{kind}/{n}`.
    pub fn new_id(&self, name: &str, kind: &str) -> String {
        let n = self.ids.fetch_add(1, Ordering::Relaxed);
        format!("{}/{kind}/{n}", self.actor(name))
    }

    /// Serves `object` at its `id` from now on (e.g. a note others may fetch).
    pub fn publish(&self, object: &Value) {
        if let Some(id) = object["id"].as_str() {
            let id = id.to_string();
            let object = object.clone();
            self.with_state(|s| {
                s.objects.insert(id, object);
            });
        }
    }

    /// A `Note` by `name`, published (see [`Peer::publish`]): `content` as HTML, addressed to
    /// `to` and `cc`, with `tag` entries (mentions, hashtags).
    pub fn note(&self, name: &str, content: &str, to: &[&str], cc: &[&str], tag: Value) -> Value {
        let note = json!({
            "@context": ACTIVITY_STREAMS,
            "id": self.new_id(name, "statuses"),
            "type": "Note",
            "attributedTo": self.actor(name),
            "content": content,
            "published": vocab::timestamp(Utc::now()),
            "to": to,
            "cc": cc,
            "tag": tag,
        });
        self.publish(&note);
        note
    }

    /// An activity of `kind` by `name` about `object`, addressed to `to` and `cc`.
    pub fn activity(
        &self,
        name: &str,
        kind: &str,
        object: Value,
        to: &[&str],
        cc: &[&str],
    ) -> Value {
        json!({
            "@context": ACTIVITY_STREAMS,
            "id": self.new_id(name, "activities"),
            "type": kind,
            "actor": self.actor(name),
            "object": object,
            "to": to,
            "cc": cc,
        })
    }

    /// The headers that sign a POST of `body` to `url` as `name` (without `Host`, which the
    /// HTTP client sets from the URL).
    pub fn sign_post(
        &self,
        name: &str,
        url: &str,
        body: &[u8],
    ) -> Result<Vec<(String, String)>, String> {
        let headers = sign_request(
            "POST",
            url,
            Some(body),
            &paths::key_id(&self.actor(name)),
            &self.key,
            Utc::now(),
        )
        .map_err(|e| format!("cannot sign a POST to {url}: {e}"))?;
        Ok(headers
            .into_iter()
            .filter(|(k, _)| !k.eq_ignore_ascii_case("host"))
            .collect())
    }

    /// POSTs `activity`, signed as `name`, to `inbox`: the answer's status and body.
    pub async fn deliver(
        &self,
        name: &str,
        inbox: &str,
        activity: &Value,
    ) -> Result<(u16, String), String> {
        let body = activity.to_string().into_bytes();
        let headers = self.sign_post(name, inbox, &body)?;
        self.post(inbox, headers, body).await
    }

    /// POSTs `body` to `url` with these headers (for requests a test spoils on purpose).
    pub async fn post(
        &self,
        url: &str,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    ) -> Result<(u16, String), String> {
        let mut req = self
            .http
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, ACTIVITY_JSON)
            .body(body);
        for (name, value) in headers {
            req = req.header(name, value);
        }
        let resp = req
            .send()
            .await
            .map_err(|e| format!("POST {url}: no answer: {e}"))?;
        let status = resp.status().as_u16();
        let text = resp.text().await.unwrap_or_default();
        Ok((status, text))
    }

    /// GETs an ActivityPub document, signed as the peer's instance actor.
    pub async fn fetch(&self, url: &str) -> Result<Value, String> {
        let headers = sign_request(
            "GET",
            url,
            None,
            &paths::key_id(&self.actor(INSTANCE_ACTOR)),
            &self.key,
            Utc::now(),
        )
        .map_err(|e| format!("cannot sign a GET of {url}: {e}"))?;
        fetch_json(&self.http, url, headers).await
    }

    /// Every verified activity received so far, in arrival order.
    pub fn deliveries(&self) -> Vec<Delivery> {
        self.with_state(|s| s.deliveries.clone())
    }

    /// Why each refused inbox POST was refused, in order.
    pub fn refusals(&self) -> Vec<String> {
        self.with_state(|s| s.refusals.clone())
    }

    /// The accepted followers (actor ids) of `name`.
    pub fn followers(&self, name: &str) -> Vec<String> {
        self.with_state(|s| s.followers.get(name).cloned().unwrap_or_default())
    }

    /// Waits up to `limit` for a delivery `matches` accepts, polling.
    pub async fn wait_for(
        &self,
        limit: Duration,
        matches: impl Fn(&Delivery) -> bool,
    ) -> Option<Delivery> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let found = self.with_state(|s| s.deliveries.iter().find(|d| matches(d)).cloned());
            if found.is_some() || tokio::time::Instant::now() >= deadline {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Accepts `follow` (a Follow of one of its actors that it received) with a signed
    /// `Accept` to the follower's inbox, and counts the follower.
    pub async fn accept(&self, follow: &Value) -> Result<(), String> {
        let follower = vocab::first_str(&follow["actor"])
            .ok_or("the Follow names no actor")?
            .to_string();
        let followed = vocab::first_str(&follow["object"]).ok_or("the Follow names no object")?;
        let name = followed
            .strip_prefix(&format!("{}/users/", self.base))
            .ok_or_else(|| format!("{followed} is not an actor of this peer"))?
            .to_string();
        let signer = self.signer(&paths::key_id(&follower)).await.or_else(|_| {
            // The follower's key id may not be ACTOR#main-key: find the signer by actor.
            self.with_state(|s| {
                s.signers
                    .iter()
                    .find(|(k, _)| k.starts_with(&follower))
                    .map(|(_, v)| v.clone())
            })
            .ok_or_else(|| format!("the follower {follower} is unknown"))
        })?;
        let accept = self.activity(&name, "Accept", follow.clone(), &[&follower], &[]);
        let (status, text) = self.deliver(&name, &signer.inbox, &accept).await?;
        if !(200..300).contains(&status) {
            return Err(format!(
                "the Accept to {} was answered {status}: {}",
                signer.inbox,
                excerpt(&text)
            ));
        }
        self.with_state(|s| {
            let list = s.followers.entry(name).or_default();
            if !list.contains(&follower) {
                list.push(follower);
            }
        });
        Ok(())
    }

    /// Stops listening.
    pub fn stop(&self) {
        if let Ok(mut slot) = self.task.lock()
            && let Some(task) = slot.take()
        {
            task.abort();
        }
    }

    fn with_state<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        let mut guard = match self.state.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        f(&mut guard)
    }

    /// The name of one of its actors in `path` (`/users/NAME...`) and what follows it.
    fn actor_path<'a>(&self, path: &'a str) -> Option<(&'a str, &'a str)> {
        let rest = path.strip_prefix("/users/")?;
        let (name, tail) = rest.split_once('/').map_or((rest, ""), |(n, t)| (n, t));
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        valid.then_some((name, tail))
    }

    async fn answer(self: Arc<Self>, req: Request<Incoming>) -> Response<Full<Bytes>> {
        let path = req.uri().path().to_string();
        let get = req.method() == hyper::Method::GET || req.method() == hyper::Method::HEAD;
        let post = req.method() == hyper::Method::POST;
        if get && path == "/.well-known/webfinger" {
            return self.webfinger(req.uri().query().unwrap_or(""));
        }
        if post && path == "/inbox" {
            return self.inbox(None, req).await;
        }
        let Some((name, tail)) = self.actor_path(&path) else {
            return plain(StatusCode::NOT_FOUND, "not found");
        };
        let name = name.to_string();
        match (get, post, tail) {
            (true, _, "") => activity_json(&self.actor_document(&name)),
            (_, true, "inbox") => self.inbox(Some(name), req).await,
            (true, _, "followers") => {
                let followers = self.followers(&name);
                self.collection(&path, followers)
            }
            (true, _, "following" | "outbox" | "collections/featured" | "collections/tags") => {
                self.collection(&path, Vec::new())
            }
            (true, _, _) => {
                let id = format!("{}{path}", self.base);
                match self.with_state(|s| s.objects.get(&id).cloned()) {
                    Some(object) => activity_json(&object),
                    None => plain(StatusCode::NOT_FOUND, "not found"),
                }
            }
            _ => plain(StatusCode::METHOD_NOT_ALLOWED, "not allowed"),
        }
    }

    fn collection(&self, path: &str, items: Vec<String>) -> Response<Full<Bytes>> {
        activity_json(&json!({
            "@context": ACTIVITY_STREAMS,
            "id": format!("{}{path}", self.base),
            "type": "OrderedCollection",
            "totalItems": items.len(),
            "orderedItems": items,
        }))
    }

    fn webfinger(&self, query: &str) -> Response<Full<Bytes>> {
        let asked = form_urlencoded::parse(query.as_bytes())
            .find(|(k, _)| k == "resource")
            .map(|(_, v)| v.into_owned())
            .unwrap_or_default();
        let suffix = format!("@{}", self.host());
        let name = match asked.strip_prefix("acct:") {
            Some(acct) => acct.strip_suffix(&suffix).map(str::to_string),
            None => self
                .actor_path(asked.strip_prefix(&self.base).unwrap_or(""))
                .filter(|(_, tail)| tail.is_empty())
                .map(|(n, _)| n.to_string()),
        };
        match name.filter(|n| self.actor_path(&format!("/users/{n}")).is_some()) {
            Some(name) => webfinger_jrd(&self.handle(&name), &self.actor(&name)),
            None => plain(StatusCode::NOT_FOUND, "no such account"),
        }
    }

    fn actor_document(&self, name: &str) -> Value {
        let manual = self.with_state(|s| s.manual.contains(name));
        let mut doc = actor_document(
            &self.actor(name),
            name,
            &paths::shared_inbox(&self.base),
            &self.public_pem,
        );
        doc["manuallyApprovesFollowers"] = json!(manual);
        doc
    }

    async fn inbox(
        self: &Arc<Self>,
        inbox_of: Option<String>,
        req: Request<Incoming>,
    ) -> Response<Full<Bytes>> {
        let raw = match read_raw(req, MAX_INBOX_BODY).await {
            Ok(raw) => raw,
            Err(why) => return self.refuse(StatusCode::BAD_REQUEST, why),
        };
        let signer = match self.verify(&raw).await {
            Ok(signer) => signer,
            Err(why) => return self.refuse(StatusCode::UNAUTHORIZED, why),
        };
        let activity: Value = match serde_json::from_slice(&raw.bytes) {
            Ok(v) => v,
            Err(e) => return self.refuse(StatusCode::BAD_REQUEST, format!("not JSON: {e}")),
        };
        if vocab::first_str(&activity["actor"]) != Some(signer.as_str()) {
            let why = format!("signed by {signer} for the actor {}", activity["actor"]);
            return self.refuse(StatusCode::UNAUTHORIZED, why);
        }
        let follow_of = (activity["type"] == "Follow")
            .then(|| vocab::first_str(&activity["object"]).map(str::to_string))
            .flatten()
            .and_then(|object| {
                let path = object.strip_prefix(&self.base)?.to_string();
                let (name, tail) = self.actor_path(&path)?;
                tail.is_empty().then(|| name.to_string())
            });
        self.with_state(|s| {
            s.deliveries.push(Delivery {
                inbox_of,
                signer,
                activity: activity.clone(),
            })
        });
        if let Some(name) = follow_of
            && !self.with_state(|s| s.manual.contains(&name))
        {
            // Answered after this request, as servers do.
            let peer = self.clone();
            tokio::spawn(async move {
                if let Err(why) = peer.accept(&activity).await {
                    peer.with_state(|s| {
                        s.refusals.push(format!("could not accept a Follow: {why}"))
                    });
                }
            });
        }
        plain(StatusCode::ACCEPTED, "")
    }

    fn refuse(&self, status: StatusCode, why: String) -> Response<Full<Bytes>> {
        self.with_state(|s| s.refusals.push(why.clone()));
        plain(status, &why)
    }

    /// Checks a request's signature: the signer's actor id.
    async fn verify(&self, raw: &RawBody) -> Result<String, String> {
        let key_id = signature_key_id(raw).map_err(|e| e.to_string())?;
        let signer = self.signer(&key_id).await?;
        verify_request(raw, self.scheme, &signer.pem, Utc::now(), MAX_SKEW)
            .map_err(|e| format!("{key_id}: {e}"))?;
        let actor = key_id.split('#').next().unwrap_or(&key_id).to_string();
        Ok(actor)
    }

    /// The key and inbox of the signer of `key_id`, fetched once from its actor document.
    async fn signer(&self, key_id: &str) -> Result<Signer, String> {
        if let Some(known) = self.with_state(|s| s.signers.get(key_id).cloned()) {
            return Ok(known);
        }
        let actor_url = key_id.split('#').next().unwrap_or(key_id);
        let doc = self.fetch(actor_url).await?;
        let actor =
            Actor::from_json(&doc).map_err(|e| format!("{actor_url} is not an actor: {e}"))?;
        if actor.public_key_id != key_id {
            return Err(format!(
                "{actor_url} publishes the key {}, not {key_id}",
                actor.public_key_id
            ));
        }
        let signer = Signer {
            pem: actor.public_key_pem,
            inbox: actor.inbox,
        };
        self.with_state(|s| s.signers.insert(key_id.to_string(), signer.clone()));
        Ok(signer)
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A request read whole, as signature checks need it (at most `limit` body bytes).
pub async fn read_raw(req: Request<Incoming>, limit: usize) -> Result<RawBody, String> {
    let method = req.method().as_str().to_string();
    let target = req
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| req.uri().path().to_string());
    let headers = req
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let bytes = Limited::new(req.into_body(), limit)
        .collect()
        .await
        .map_err(|e| format!("unreadable body: {e}"))?
        .to_bytes()
        .to_vec();
    Ok(RawBody {
        method,
        target,
        headers,
        bytes,
    })
}

/// GETs the ActivityStreams document at `url` with these extra headers (a signature; `Host` is
/// left to the client).
pub async fn fetch_json(
    http: &reqwest::Client,
    url: &str,
    headers: Vec<(String, String)>,
) -> Result<Value, String> {
    let mut req = http.get(url).header(reqwest::header::ACCEPT, ACTIVITY_JSON);
    for (name, value) in headers {
        if !name.eq_ignore_ascii_case("host") {
            req = req.header(name, value);
        }
    }
    let resp = req
        .send()
        .await
        .map_err(|e| format!("GET {url}: no answer: {e}"))?;
    let status = resp.status();
    let text = resp
        .text()
        .await
        .map_err(|e| format!("GET {url}: the answer broke off: {e}"))?;
    if !status.is_success() {
        return Err(format!("GET {url}: {status}: {}", excerpt(&text)));
    }
    serde_json::from_str(&text).map_err(|e| format!("GET {url}: not JSON: {e}"))
}

/// The actor document of a stand-in actor: a `Person` with the usual endpoints and one key.
pub fn actor_document(actor: &str, name: &str, shared_inbox: &str, public_pem: &str) -> Value {
    json!({
        "@context": [ACTIVITY_STREAMS, SECURITY_V1],
        "id": actor,
        "type": "Person",
        "preferredUsername": name,
        "name": format!("Test actor {name}"),
        "url": actor,
        "inbox": paths::inbox(actor),
        "outbox": paths::outbox(actor),
        "followers": paths::followers(actor),
        "following": paths::following(actor),
        "featured": paths::featured(actor),
        "endpoints": {"sharedInbox": shared_inbox},
        "manuallyApprovesFollowers": false,
        "discoverable": false,
        "publicKey": {
            "id": paths::key_id(actor),
            "owner": actor,
            "publicKeyPem": public_pem,
        },
    })
}

/// A WebFinger answer for `handle` (`name@host`) pointing at `actor`.
pub fn webfinger_jrd(handle: &str, actor: &str) -> Response<Full<Bytes>> {
    let jrd = json!({
        "subject": format!("acct:{handle}"),
        "aliases": [actor],
        "links": [{"rel": "self", "type": ACTIVITY_JSON, "href": actor}],
    });
    let mut resp = Response::new(Full::new(Bytes::from(jrd.to_string())));
    resp.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/jrd+json"),
    );
    resp
}

/// A plain-text answer.
pub fn plain(status: StatusCode, text: &str) -> Response<Full<Bytes>> {
    let mut resp = Response::new(Full::new(Bytes::from(text.to_string())));
    *resp.status_mut() = status;
    resp
}

/// An `application/activity+json` answer.
pub fn activity_json(doc: &Value) -> Response<Full<Bytes>> {
    let mut resp = Response::new(Full::new(Bytes::from(doc.to_string())));
    resp.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static(ACTIVITY_JSON),
    );
    resp
}

/// Serves HTTP/1 connections on `listener` with `answer` until the task is aborted (which ends
/// its connections too).
pub async fn serve_http<F, Fut>(listener: TcpListener, answer: F)
where
    F: Fn(Request<Incoming>) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Response<Full<Bytes>>> + Send + 'static,
{
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    let _ = stream.set_nodelay(true);
                    let answer = answer.clone();
                    connections.spawn(async move {
                        let service = hyper::service::service_fn(move |req| {
                            let answer = answer.clone();
                            async move { Ok::<_, Infallible>(answer(req).await) }
                        });
                        let _ = hyper::server::conn::http1::Builder::new()
                            .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                            .await;
                    });
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
}

/// The start of a text, for messages.
fn excerpt(text: &str) -> String {
    let t = text.trim();
    match t.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &t[..i]),
        None => t.to_string(),
    }
}
