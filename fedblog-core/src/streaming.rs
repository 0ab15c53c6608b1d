//! The streaming connections of this process: the channels a client listens to (Mastodon's
//! `user`, `public:local`, `hashtag`, ...), each connection's bounded outbox, and the
//! [`StreamHub`] that holds them for the stream runner (`services/stream_runner.rs`), which
//! renders every bus event for each connection that may see it.
//!
//! Like `events.rs`, this is written with `std` only (a mutex and wakers), so it runs under any
//! async runtime. A connection whose outbox is full is closed rather than buffered without
//! limit: a slow client never holds memory or the runner back.

use std::collections::{HashMap, VecDeque};
use std::future::poll_fn;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Poll, Waker};

use crate::content::normalize_tag;
use crate::id::Id;
use crate::store::{AccountRecord, FilterContext};

/// Messages a connection's outbox holds before the connection is closed as too slow.
pub const DEFAULT_OUTBOX: usize = 256;

/// Streaming connections one token may hold at once.
pub const DEFAULT_CONNECTIONS_PER_TOKEN: usize = 32;

/// What a streaming client listens to, relative to the connection's own account.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Channel {
    /// `user`: the home feed, notifications (with the scope), filter changes.
    User,
    /// `user:notification`: notifications only.
    UserNotification,
    /// `public`, `public:local`, `public:remote`, each optionally `:media`.
    Public {
        /// Local statuses only.
        local: bool,
        /// Remote statuses only.
        remote: bool,
        /// Statuses with media only.
        media: bool,
    },
    /// `hashtag` / `hashtag:local` with the tag (normalised).
    Hashtag {
        /// The tag, normalised (lower case, no `#`).
        tag: String,
        /// Local statuses only.
        local: bool,
    },
    /// `list` with the list's id (one of the connection's account's lists).
    List(Id),
    /// `direct`: the account's conversations.
    Direct,
}

/// Why a channel cannot be listened to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChannelError {
    /// Not a stream Mastodon knows.
    Unknown,
    /// A `hashtag` stream without a tag, or a `list` stream without a list id.
    MissingParameter(&'static str),
}

impl std::fmt::Display for ChannelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChannelError::Unknown => f.write_str("Unknown stream type"),
            ChannelError::MissingParameter(p) => write!(f, "Missing {p} parameter"),
        }
    }
}

impl Channel {
    /// The channel Mastodon names `name` (`user`, `public:local:media`, `hashtag`, ...), with
    /// the `tag` of a hashtag stream or the `list` of a list stream.
    pub fn parse(
        name: &str,
        tag: Option<&str>,
        list: Option<&str>,
    ) -> Result<Channel, ChannelError> {
        let public = |local, remote, media| Channel::Public {
            local,
            remote,
            media,
        };
        let hashtag = |local| {
            let tag = normalize_tag(tag.unwrap_or("").trim().trim_start_matches('#'));
            if tag.is_empty() {
                return Err(ChannelError::MissingParameter("tag"));
            }
            Ok(Channel::Hashtag { tag, local })
        };
        Ok(match name {
            "user" => Channel::User,
            "user:notification" => Channel::UserNotification,
            "public" => public(false, false, false),
            "public:media" => public(false, false, true),
            "public:local" => public(true, false, false),
            "public:local:media" => public(true, false, true),
            "public:remote" => public(false, true, false),
            "public:remote:media" => public(false, true, true),
            "hashtag" => hashtag(false)?,
            "hashtag:local" => hashtag(true)?,
            "list" => match list.map(str::trim).and_then(|l| l.parse::<Id>().ok()) {
                Some(id) => Channel::List(id),
                None => return Err(ChannelError::MissingParameter("list")),
            },
            "direct" => Channel::Direct,
            _ => return Err(ChannelError::Unknown),
        })
    }

    /// The stream's Mastodon name (`public:local:media`, `hashtag`, ...).
    pub fn name(&self) -> String {
        match self {
            Channel::User => "user".into(),
            Channel::UserNotification => "user:notification".into(),
            Channel::Public {
                local,
                remote,
                media,
            } => {
                let mut name = String::from("public");
                if *local {
                    name.push_str(":local");
                } else if *remote {
                    name.push_str(":remote");
                }
                if *media {
                    name.push_str(":media");
                }
                name
            }
            Channel::Hashtag { local: false, .. } => "hashtag".into(),
            Channel::Hashtag { local: true, .. } => "hashtag:local".into(),
            Channel::List(_) => "list".into(),
            Channel::Direct => "direct".into(),
        }
    }

    /// What WebSocket messages of this channel carry as `stream`: its name, and the tag or
    /// list id for those streams (`["hashtag", "rust"]`, `["list", "12"]`).
    pub fn stream(&self) -> Vec<String> {
        let mut stream = vec![self.name()];
        match self {
            Channel::Hashtag { tag, .. } => stream.push(tag.clone()),
            Channel::List(id) => stream.push(id.to_string()),
            _ => {}
        }
        stream
    }

    /// Whether listening needs a signed-in account (every stream but the public and hashtag
    /// ones).
    pub fn needs_account(&self) -> bool {
        !matches!(self, Channel::Public { .. } | Channel::Hashtag { .. })
    }

    /// Whether it carries statuses by the rules of the public timelines (anyone may listen).
    pub fn is_public(&self) -> bool {
        !self.needs_account()
    }

    /// The filter context its statuses are shown in: home for the home feed and lists, public
    /// for the public and hashtag streams.
    pub fn filter_context(&self) -> FilterContext {
        match self {
            Channel::Public { .. } | Channel::Hashtag { .. } => FilterContext::Public,
            Channel::UserNotification => FilterContext::Notifications,
            _ => FilterContext::Home,
        }
    }
}

/// One message for a streaming client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outgoing {
    /// An event of a channel: its `stream`, the event name and the payload (JSON text, a plain
    /// id for `delete`, empty for `filters_changed`).
    Event {
        /// The channel's stream (see [`Channel::stream`]).
        stream: Vec<String>,
        /// `update`, `delete`, `notification`, ...
        event: String,
        /// The payload.
        payload: String,
    },
    /// A request of the client's (a WebSocket `subscribe`) that failed, with its HTTP status.
    Error {
        /// 400, 401, 403, 404 ...
        status: u16,
        /// What went wrong.
        error: String,
    },
}

/// What a connection's token lets it read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Grants {
    /// `read` or `read:statuses`: the home, list and direct streams.
    pub statuses: bool,
    /// `read` or `read:notifications`: notifications (on `user` and `user:notification`).
    pub notifications: bool,
}

impl Grants {
    /// What `scopes` (space-separated, as a token carries them) grant.
    pub fn of(scopes: &str) -> Grants {
        let scopes = crate::scope::Scopes::parse(scopes).unwrap_or_default();
        Grants {
            statuses: scopes.allows("read:statuses"),
            notifications: scopes.allows("read:notifications"),
        }
    }

    /// Whether they allow listening to `channel` (the public ones need nothing).
    pub fn allow(&self, channel: &Channel) -> bool {
        match channel {
            Channel::Public { .. } | Channel::Hashtag { .. } => true,
            Channel::UserNotification => self.notifications,
            _ => self.statuses,
        }
    }
}

/// Why a connection was closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closed {
    /// Its outbox filled up: the client reads too slowly.
    TooSlow,
    /// Its token was revoked or its account closed.
    AccessEnded,
    /// The server is stopping.
    ShuttingDown,
}

struct OutboxState {
    queue: VecDeque<Outgoing>,
    waker: Option<Waker>,
    closed: Option<Closed>,
}

/// One streaming connection of this process: whose it is, what it listens to, and the messages
/// waiting to be sent to it.
pub struct Listener {
    id: u64,
    viewer: Option<AccountRecord>,
    token: Option<Id>,
    grants: Grants,
    channels: Mutex<Vec<Channel>>,
    capacity: usize,
    outbox: Mutex<OutboxState>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing holding these locks can panic halfway through an update.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Listener {
    /// The connection's account (`None` for an anonymous listener of public streams).
    pub fn viewer(&self) -> Option<&AccountRecord> {
        self.viewer.as_ref()
    }

    /// The id of the connection's account.
    pub fn viewer_id(&self) -> Option<Id> {
        self.viewer.as_ref().map(|a| a.id)
    }

    /// The id of the token it was opened with.
    pub fn token(&self) -> Option<Id> {
        self.token
    }

    /// What its token lets it read.
    pub fn grants(&self) -> Grants {
        self.grants
    }

    /// The channels it listens to now.
    pub fn channels(&self) -> Vec<Channel> {
        lock(&self.channels).clone()
    }

    /// Starts listening to `channel` (once, however often asked).
    pub fn subscribe(&self, channel: Channel) {
        let mut channels = lock(&self.channels);
        if !channels.contains(&channel) {
            channels.push(channel);
        }
    }

    /// Stops listening to `channel`.
    pub fn unsubscribe(&self, channel: &Channel) {
        lock(&self.channels).retain(|c| c != channel);
    }

    /// Queues a message. A full outbox closes the connection ([`Closed::TooSlow`]); a closed
    /// connection takes nothing. Whether the message was queued.
    pub fn send(&self, message: Outgoing) -> bool {
        let (queued, waker) = {
            let mut out = lock(&self.outbox);
            if out.closed.is_some() {
                return false;
            }
            let queued = out.queue.len() < self.capacity;
            if queued {
                out.queue.push_back(message);
            } else {
                out.closed = Some(Closed::TooSlow);
                out.queue.clear();
            }
            (queued, out.waker.take())
        };
        if let Some(w) = waker {
            w.wake();
        }
        queued
    }

    /// Closes the connection: the messages still queued are dropped and [`Listener::recv`]
    /// answers `None`.
    pub fn close(&self, why: Closed) {
        let waker = {
            let mut out = lock(&self.outbox);
            if out.closed.is_none() {
                out.closed = Some(why);
            }
            out.queue.clear();
            out.waker.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
    }

    /// Why the connection was closed, if it was.
    pub fn closed(&self) -> Option<Closed> {
        lock(&self.outbox).closed
    }

    /// The next message if one is waiting, without waiting (`None` also once closed).
    pub fn try_recv(&self) -> Option<Outgoing> {
        let mut out = lock(&self.outbox);
        if out.closed.is_some() {
            return None;
        }
        out.queue.pop_front()
    }

    /// The next message to send; `None` once the connection is closed. Cancel-safe.
    pub async fn recv(&self) -> Option<Outgoing> {
        poll_fn(|cx| {
            let mut out = lock(&self.outbox);
            if out.closed.is_some() {
                return Poll::Ready(None);
            }
            if let Some(m) = out.queue.pop_front() {
                return Poll::Ready(Some(m));
            }
            out.waker = Some(cx.waker().clone());
            Poll::Pending
        })
        .await
    }
}

/// Why a connection could not be opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectError {
    /// The token already holds the most connections it may.
    TooManyConnections,
    /// The server is stopping.
    ShuttingDown,
}

struct HubState {
    listeners: HashMap<u64, Arc<Listener>>,
    per_token: HashMap<Id, usize>,
    next_id: u64,
    closed: bool,
    runner: bool,
}

/// The streaming connections of this process.
pub struct StreamHub {
    state: Mutex<HubState>,
    outbox: usize,
    per_token: usize,
}

impl Default for StreamHub {
    fn default() -> Self {
        StreamHub::new(DEFAULT_OUTBOX, DEFAULT_CONNECTIONS_PER_TOKEN)
    }
}

impl std::fmt::Debug for StreamHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamHub")
            .field("connections", &self.len())
            .finish_non_exhaustive()
    }
}

impl StreamHub {
    /// A hub whose connections queue at most `outbox` messages (at least 1), `per_token`
    /// connections (at least 1) per token.
    pub fn new(outbox: usize, per_token: usize) -> StreamHub {
        StreamHub {
            state: Mutex::new(HubState {
                listeners: HashMap::new(),
                per_token: HashMap::new(),
                next_id: 0,
                closed: false,
                runner: false,
            }),
            outbox: outbox.max(1),
            per_token: per_token.max(1),
        }
    }

    /// Opens a connection for `viewer` (signed in with `token`, granted `grants`) listening to
    /// `channels`. It stays registered until [`Connection`] is dropped.
    pub fn connect(
        self: &Arc<Self>,
        viewer: Option<AccountRecord>,
        token: Option<Id>,
        grants: Grants,
        channels: Vec<Channel>,
    ) -> Result<Connection, ConnectError> {
        let mut state = lock(&self.state);
        if state.closed {
            return Err(ConnectError::ShuttingDown);
        }
        if let Some(t) = token {
            let held = state.per_token.entry(t).or_default();
            if *held >= self.per_token {
                return Err(ConnectError::TooManyConnections);
            }
            *held += 1;
        }
        let id = state.next_id;
        state.next_id += 1;
        let listener = Arc::new(Listener {
            id,
            viewer,
            token,
            grants,
            channels: Mutex::new(Vec::new()),
            capacity: self.outbox,
            outbox: Mutex::new(OutboxState {
                queue: VecDeque::new(),
                waker: None,
                closed: None,
            }),
        });
        for c in channels {
            listener.subscribe(c);
        }
        state.listeners.insert(id, listener.clone());
        Ok(Connection {
            hub: self.clone(),
            listener,
        })
    }

    fn disconnect(&self, listener: &Listener) {
        let mut state = lock(&self.state);
        if state.listeners.remove(&listener.id).is_none() {
            return;
        }
        if let Some(t) = listener.token
            && let Some(held) = state.per_token.get_mut(&t)
        {
            *held -= 1;
            if *held == 0 {
                state.per_token.remove(&t);
            }
        }
    }

    /// The open connections, for one event's delivery.
    pub fn listeners(&self) -> Vec<Arc<Listener>> {
        lock(&self.state).listeners.values().cloned().collect()
    }

    /// How many connections are open.
    pub fn len(&self) -> usize {
        lock(&self.state).listeners.len()
    }

    /// Whether no connection is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Closes the connections `which` picks, for `why`.
    pub fn close_where(&self, why: Closed, which: impl Fn(&Listener) -> bool) {
        for l in self.listeners().iter().filter(|l| which(l)) {
            l.close(why);
        }
    }

    /// Closes every connection and refuses new ones (the server is stopping).
    pub fn shut_down(&self) {
        lock(&self.state).closed = true;
        self.close_where(Closed::ShuttingDown, |_| true);
    }

    /// Claims the running of this hub's stream runner: `true` the first time only, so that one
    /// runner serves a hub however many servers share it.
    pub fn claim_runner(&self) -> bool {
        !std::mem::replace(&mut lock(&self.state).runner, true)
    }
}

/// An open streaming connection: its [`Listener`], unregistered from the hub when dropped.
pub struct Connection {
    hub: Arc<StreamHub>,
    listener: Arc<Listener>,
}

impl Connection {
    /// The connection's listener.
    pub fn listener(&self) -> &Arc<Listener> {
        &self.listener
    }
}

impl std::ops::Deref for Connection {
    type Target = Listener;
    fn deref(&self) -> &Listener {
        &self.listener
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.hub.disconnect(&self.listener);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(n: usize) -> Outgoing {
        Outgoing::Event {
            stream: vec!["user".into()],
            event: "update".into(),
            payload: n.to_string(),
        }
    }

    #[test]
    fn channels_parse_and_name_as_mastodon_does() {
        for name in [
            "user",
            "user:notification",
            "public",
            "public:media",
            "public:local",
            "public:local:media",
            "public:remote",
            "public:remote:media",
            "direct",
        ] {
            assert_eq!(Channel::parse(name, None, None).unwrap().name(), name);
        }
        let tag = Channel::parse("hashtag:local", Some("#Rust"), None).unwrap();
        assert_eq!(tag.stream(), vec!["hashtag:local", "rust"]);
        assert_eq!(
            Channel::parse("list", None, Some("12")).unwrap().stream(),
            vec!["list", "12"]
        );
        assert_eq!(
            Channel::parse("hashtag", Some(" "), None),
            Err(ChannelError::MissingParameter("tag"))
        );
        assert_eq!(
            Channel::parse("list", None, Some("x")),
            Err(ChannelError::MissingParameter("list"))
        );
        assert_eq!(
            Channel::parse("users", None, None),
            Err(ChannelError::Unknown)
        );
    }

    #[test]
    fn grants_follow_the_token_scopes() {
        let read = Grants::of("read write");
        assert!(read.statuses && read.notifications);
        let statuses = Grants::of("read:statuses");
        assert!(statuses.allow(&Channel::User) && !statuses.allow(&Channel::UserNotification));
        let none = Grants::of("write");
        assert!(!none.allow(&Channel::Direct));
        assert!(none.allow(&Channel::parse("public", None, None).unwrap()));
    }

    #[tokio::test]
    async fn a_full_outbox_closes_the_connection_and_the_token_cap_holds() {
        let hub = Arc::new(StreamHub::new(2, 2));
        let a = hub
            .connect(None, Some(Id(1)), Grants::default(), vec![Channel::User])
            .unwrap();
        let _b = hub
            .connect(None, Some(Id(1)), Grants::default(), vec![])
            .unwrap();
        assert_eq!(
            hub.connect(None, Some(Id(1)), Grants::default(), vec![])
                .err(),
            Some(ConnectError::TooManyConnections)
        );
        assert!(a.send(event(1)) && a.send(event(2)));
        assert_eq!(a.recv().await, Some(event(1)));
        assert!(a.send(event(3)));
        assert!(!a.send(event(4)), "the third queued message overflows");
        assert_eq!(a.closed(), Some(Closed::TooSlow));
        assert_eq!(a.recv().await, None);
        drop(a);
        assert_eq!(hub.len(), 1);
        // A dropped connection frees its token's place.
        let _c = hub
            .connect(None, Some(Id(1)), Grants::default(), vec![])
            .unwrap();
        hub.shut_down();
        assert_eq!(_c.recv().await, None);
        assert_eq!(
            hub.connect(None, None, Grants::default(), vec![]).err(),
            Some(ConnectError::ShuttingDown)
        );
    }
}
