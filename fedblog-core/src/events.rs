//! The event bus: how `update`, `delete`, `notification`, ... events reach streaming clients.
//!
//! An [`Event`] names the stream it belongs to (`user:123`, `public`, `public:local`,
//! `hashtag:rust`, ...), the Mastodon event name and its payload. Code that changes state
//! [`EventBus::publish`]es events; streaming connections [`EventBus::subscribe`] and read them
//! from a [`Subscription`].
//!
//! [`InProcessBus`] is the bus of a single process. Distributed buses (the server's PostgreSQL
//! `PgEventBus`) deliver every event to the subscribers of every process by feeding an
//! [`InProcessBus`] from their transport, so all buses hand out the same [`Subscription`] type.
//!
//! The broadcast channel is implemented here with `std` only (a mutex, a ring buffer and
//! wakers), so it works under any async runtime. A subscriber that falls more than the bus
//! capacity ([`DEFAULT_CAPACITY`] unless chosen otherwise) behind loses the oldest events rather
//! than slowing publishers down; [`Subscription::lagged`] counts what it lost.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::future::poll_fn;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

/// How many events an [`InProcessBus`] keeps for subscribers that have not read them yet.
///
/// A subscriber more than this many events behind skips the oldest ones (see
/// [`Subscription::lagged`]); publishers never wait for subscribers.
pub const DEFAULT_CAPACITY: usize = 1024;

/// One event for streaming clients.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// The stream the event belongs to: `user:123`, `public`, `public:local`, `hashtag:rust`, ...
    pub stream: String,
    /// The Mastodon event name: `update`, `delete`, `notification`, `status.update`, ...
    pub event: String,
    /// The payload as sent to clients: JSON text, or a plain id for `delete`.
    pub payload: String,
}

impl Event {
    /// An event of `stream` named `event` carrying `payload`.
    pub fn new(
        stream: impl Into<String>,
        event: impl Into<String>,
        payload: impl Into<String>,
    ) -> Event {
        Event {
            stream: stream.into(),
            event: event.into(),
            payload: payload.into(),
        }
    }
}

/// The stream on the bus that carries [`DomainEvent`]s.
pub const DOMAIN_STREAM: &str = "fedblog:domain";

/// Something a service did that streaming clients are told of, named by ids: the streaming
/// area renders each for its recipients with the visibility rule and render of the REST API,
/// so nothing rendered for one account reaches another. Services publish them with
/// `App::publish` after the change is stored; an event never fails the change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum DomainEvent {
    /// A status, or a reblog, was posted (Mastodon's `update`).
    StatusCreated {
        /// The status (for a reblog, the reblog).
        status: crate::Id,
        /// Its author (for a reblog, the booster).
        author: crate::Id,
    },
    /// A status was edited (`status.update`).
    StatusEdited {
        /// The status.
        status: crate::Id,
        /// Its author.
        author: crate::Id,
    },
    /// A status, or a reblog, was deleted (`delete`): what its audience was, since the
    /// status itself can no longer be read.
    StatusDeleted {
        /// The status.
        status: crate::Id,
        /// Its author.
        author: crate::Id,
        /// Its visibility (`public`, `unlisted`, `private`, `direct`).
        visibility: String,
        /// The accounts it mentioned.
        mentions: Vec<crate::Id>,
    },
    /// A notification was made for `account` and passed its notification policy
    /// (`notification`); filtered ones are not published.
    Notification {
        /// The notification.
        notification: crate::Id,
        /// Whom it is for.
        account: crate::Id,
    },
    /// A direct status changed `account`'s conversation (`conversation`).
    Conversation {
        /// The conversation (its id in `account`'s list).
        conversation: crate::Id,
        /// Whose conversation it is.
        account: crate::Id,
        /// The status that changed it.
        status: crate::Id,
    },
    /// `account`'s filters changed (`filters_changed`).
    FiltersChanged {
        /// Whose filters.
        account: crate::Id,
    },
    /// `account` accepted notification requests: their notifications joined its list
    /// (`notifications_merged`).
    NotificationsMerged {
        /// Whose notifications.
        account: crate::Id,
    },
    /// An announcement was published, or a published one changed (`announcement`, to every
    /// local user's `user` stream).
    AnnouncementPublished {
        /// The announcement.
        announcement: crate::Id,
    },
    /// The reactions of one name to an announcement changed (`announcement.reaction`).
    AnnouncementReaction {
        /// The announcement.
        announcement: crate::Id,
        /// The emoji's name.
        name: String,
        /// How many accounts react so now.
        count: u64,
    },
    /// An announcement was unpublished or deleted (`announcement.delete`).
    AnnouncementDeleted {
        /// The announcement.
        announcement: crate::Id,
    },
    /// A token was revoked: the streams opened with it are closed (no client event).
    TokenRevoked {
        /// The token's id.
        token: crate::Id,
    },
    /// An account was suspended or deleted: its streams are closed (no client event).
    AccountClosed {
        /// The account.
        account: crate::Id,
    },
    /// An encrypted message was delivered to the device of `token` (`encrypted_message`): it
    /// goes to the `user` streams opened with that token, as Mastodon streamed it to the
    /// device's own channel. The payload is the message as the device reads it, and only that
    /// device's streams get it.
    EncryptedMessage {
        /// The device's account.
        account: crate::Id,
        /// The device's access token.
        token: crate::Id,
        /// The message as JSON text.
        payload: String,
    },
}

impl DomainEvent {
    /// The Mastodon streaming event it becomes (`fedblog.*` for the events that only close
    /// streams).
    pub fn mastodon_event(&self) -> &'static str {
        match self {
            DomainEvent::StatusCreated { .. } => "update",
            DomainEvent::StatusEdited { .. } => "status.update",
            DomainEvent::StatusDeleted { .. } => "delete",
            DomainEvent::Notification { .. } => "notification",
            DomainEvent::Conversation { .. } => "conversation",
            DomainEvent::FiltersChanged { .. } => "filters_changed",
            DomainEvent::NotificationsMerged { .. } => "notifications_merged",
            DomainEvent::AnnouncementPublished { .. } => "announcement",
            DomainEvent::AnnouncementReaction { .. } => "announcement.reaction",
            DomainEvent::AnnouncementDeleted { .. } => "announcement.delete",
            DomainEvent::TokenRevoked { .. } => "fedblog.token_revoked",
            DomainEvent::AccountClosed { .. } => "fedblog.account_closed",
            DomainEvent::EncryptedMessage { .. } => "encrypted_message",
        }
    }

    /// The bus event that carries it: on [`DOMAIN_STREAM`], named by
    /// [`DomainEvent::mastodon_event`], with the event as JSON.
    pub fn to_event(&self) -> Result<Event, String> {
        let payload = serde_json::to_string(self).map_err(|e| e.to_string())?;
        Ok(Event::new(DOMAIN_STREAM, self.mastodon_event(), payload))
    }

    /// The domain event a bus event carries, if it carries one.
    pub fn from_event(event: &Event) -> Option<DomainEvent> {
        (event.stream == DOMAIN_STREAM)
            .then(|| serde_json::from_str(&event.payload).ok())
            .flatten()
    }
}

/// Publishes events and hands out subscriptions to them.
///
/// A subscription yields every event published after it was made, in publication order, from
/// any process sharing the bus (for distributed buses), each exactly once; events are not
/// persisted, so a subscriber never sees events published before it subscribed.
#[async_trait]
pub trait EventBus: Send + Sync {
    /// Publishes `event` to the subscribers of every process sharing this bus. The error says
    /// why the event could not be published (transport failure, payload too large, ...).
    async fn publish(&self, event: Event) -> Result<(), String>;
    /// A new subscription to every event published from now on.
    fn subscribe(&self) -> Subscription;
}

/// Publishes what a service did on `bus`. A bus that refuses it is logged: the change it
/// reports is already stored, and streaming is best effort.
pub async fn publish_logged(bus: &dyn EventBus, event: DomainEvent) {
    let result = match event.to_event() {
        Ok(e) => bus.publish(e).await,
        Err(e) => Err(e),
    };
    if let Err(error) = result {
        tracing::warn!(%error, event = event.mastodon_event(), "an event could not be published");
    }
}

/// One buffered event and how many subscribers have yet to read it.
struct Slot {
    event: Event,
    pending: usize,
}

/// The state shared by a bus and its subscriptions.
struct State {
    /// Events not yet read by every subscriber that existed when they were published; the last
    /// one has sequence number `next_seq - 1`.
    buffer: VecDeque<Slot>,
    /// The sequence number the next published event gets.
    next_seq: u64,
    /// Upper bound of `buffer.len()`.
    capacity: usize,
    /// Live subscriptions.
    subscribers: usize,
    /// The wakers of subscriptions waiting for an event, by subscription id.
    wakers: HashMap<u64, Waker>,
    /// The id the next subscription gets.
    next_id: u64,
    /// Whether every handle of the bus is gone (no event will ever be published again).
    closed: bool,
}

impl State {
    /// The sequence number of `buffer[0]`.
    fn first_seq(&self) -> u64 {
        self.next_seq - self.buffer.len() as u64
    }

    /// Drops the leading events that every subscriber has read.
    fn trim(&mut self) {
        while self.buffer.front().is_some_and(|s| s.pending == 0) {
            self.buffer.pop_front();
        }
    }

    /// The wakers of every waiting subscription, to be woken once the lock is released.
    fn take_wakers(&mut self) -> Vec<Waker> {
        self.wakers.drain().map(|(_, w)| w).collect()
    }
}

/// The broadcast channel behind an [`InProcessBus`].
struct Shared {
    state: Mutex<State>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Nothing that holds the lock can panic halfway through an update, so a poisoned state
        // is still consistent.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Closes the channel when the last [`InProcessBus`] clone goes away.
struct Sender {
    shared: Arc<Shared>,
}

impl Drop for Sender {
    fn drop(&mut self) {
        let wakers = {
            let mut state = self.shared.lock();
            state.closed = true;
            state.take_wakers()
        };
        wakers.into_iter().for_each(Waker::wake);
    }
}

/// The event bus of a single process: a broadcast channel from publishers to subscriptions.
///
/// Cheap to clone; clones share one channel. When every clone is gone, subscriptions return the
/// events they have not read yet and then `None`.
#[derive(Clone)]
pub struct InProcessBus {
    sender: Arc<Sender>,
}

impl InProcessBus {
    /// A bus keeping up to [`DEFAULT_CAPACITY`] unread events.
    pub fn new() -> InProcessBus {
        InProcessBus::with_capacity(DEFAULT_CAPACITY)
    }

    /// A bus keeping up to `capacity` (at least 1) unread events: a subscriber further behind
    /// loses the oldest ones.
    pub fn with_capacity(capacity: usize) -> InProcessBus {
        let state = State {
            buffer: VecDeque::new(),
            next_seq: 0,
            capacity: capacity.max(1),
            subscribers: 0,
            wakers: HashMap::new(),
            next_id: 0,
            closed: false,
        };
        InProcessBus {
            sender: Arc::new(Sender {
                shared: Arc::new(Shared {
                    state: Mutex::new(state),
                }),
            }),
        }
    }

    /// Delivers `event` to every current subscription without waiting: the synchronous,
    /// infallible form of [`EventBus::publish`]. Distributed buses call it for events arriving
    /// from their transport.
    pub fn broadcast(&self, event: Event) {
        let wakers = {
            let mut state = self.sender.shared.lock();
            state.next_seq += 1;
            if state.subscribers == 0 {
                // Nobody to deliver to; the buffer is empty whenever there are no subscribers.
                return;
            }
            if state.buffer.len() == state.capacity {
                // The slowest subscribers lose the oldest event.
                state.buffer.pop_front();
            }
            let pending = state.subscribers;
            state.buffer.push_back(Slot { event, pending });
            state.take_wakers()
        };
        wakers.into_iter().for_each(Waker::wake);
    }

    /// How many subscriptions are alive.
    pub fn subscriber_count(&self) -> usize {
        self.sender.shared.lock().subscribers
    }

    /// A subscription to every event broadcast from now on.
    pub fn subscribe(&self) -> Subscription {
        let shared = Arc::clone(&self.sender.shared);
        let (id, next) = {
            let mut state = shared.lock();
            state.subscribers += 1;
            let id = state.next_id;
            state.next_id += 1;
            (id, state.next_seq)
        };
        Subscription {
            shared,
            id,
            next,
            lagged: 0,
        }
    }
}

impl Default for InProcessBus {
    fn default() -> Self {
        InProcessBus::new()
    }
}

impl fmt::Debug for InProcessBus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.sender.shared.lock();
        f.debug_struct("InProcessBus")
            .field("capacity", &state.capacity)
            .field("subscribers", &state.subscribers)
            .field("buffered", &state.buffer.len())
            .finish()
    }
}

#[async_trait]
impl EventBus for InProcessBus {
    async fn publish(&self, event: Event) -> Result<(), String> {
        self.broadcast(event);
        Ok(())
    }

    fn subscribe(&self) -> Subscription {
        InProcessBus::subscribe(self)
    }
}

/// The receiving end of an [`EventBus`]: yields every event published after it was made, in
/// order, except those it lost by lagging more than the bus capacity behind.
///
/// Dropping it unsubscribes; publishers are never affected.
pub struct Subscription {
    shared: Arc<Shared>,
    id: u64,
    /// The sequence number of the next event to return.
    next: u64,
    lagged: u64,
}

impl Subscription {
    /// The next event; `None` once the bus is gone and every buffered event has been read.
    ///
    /// Cancel-safe: dropping the future before it completes loses no event.
    pub async fn recv(&mut self) -> Option<Event> {
        poll_fn(|cx| self.poll_recv(cx)).await
    }

    /// The next event if one is available now, without waiting. `None` also when the bus is
    /// gone.
    pub fn try_recv(&mut self) -> Option<Event> {
        match self.take_next(None) {
            Poll::Ready(next) => next,
            Poll::Pending => None,
        }
    }

    /// Polls for the next event (the building block of [`Subscription::recv`], for adapting a
    /// subscription to a stream type).
    pub fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Option<Event>> {
        self.take_next(Some(cx.waker()))
    }

    /// How many events this subscription has lost so far by lagging behind.
    pub fn lagged(&self) -> u64 {
        self.lagged
    }

    /// The next event, `Ready(None)` when the bus is closed and drained, `Pending` when nothing is
    /// available yet (after registering `waker`, if any).
    fn take_next(&mut self, waker: Option<&Waker>) -> Poll<Option<Event>> {
        let mut state = self.shared.lock();
        let first = state.first_seq();
        if self.next < first {
            self.lagged += first - self.next;
            self.next = first;
        }
        if self.next < state.next_seq {
            let index = usize::try_from(self.next - first).unwrap_or(usize::MAX);
            if let Some(slot) = state.buffer.get_mut(index) {
                slot.pending -= 1;
                let event = if index == 0 && slot.pending == 0 {
                    state.buffer.pop_front().map(|s| s.event)
                } else {
                    Some(slot.event.clone())
                };
                state.trim();
                self.next += 1;
                if let Some(event) = event {
                    return Poll::Ready(Some(event));
                }
            }
        }
        if state.closed {
            return Poll::Ready(None);
        }
        if let Some(waker) = waker {
            match state.wakers.get_mut(&self.id) {
                Some(w) if w.will_wake(waker) => {}
                Some(w) => w.clone_from(waker),
                None => {
                    state.wakers.insert(self.id, waker.clone());
                }
            }
        }
        Poll::Pending
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        let first = state.first_seq();
        let start = usize::try_from(self.next.saturating_sub(first)).unwrap_or(usize::MAX);
        for slot in state.buffer.iter_mut().skip(start) {
            slot.pending -= 1;
        }
        state.trim();
        state.subscribers -= 1;
        state.wakers.remove(&self.id);
    }
}

impl fmt::Debug for Subscription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Subscription")
            .field("id", &self.id)
            .field("next", &self.next)
            .field("lagged", &self.lagged)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn ev(n: u32) -> Event {
        Event::new("public", "update", format!("{{\"id\":\"{n}\"}}"))
    }

    fn buffered(bus: &InProcessBus) -> usize {
        bus.sender.shared.lock().buffer.len()
    }

    async fn recv(sub: &mut Subscription) -> Option<Event> {
        tokio::time::timeout(Duration::from_secs(5), sub.recv())
            .await
            .expect("an event within 5 s")
    }

    #[tokio::test]
    async fn publish_reaches_two_subscribers_in_order() {
        let bus = InProcessBus::new();
        let mut a = bus.subscribe();
        let mut b = bus.subscribe();
        for n in 0..10 {
            bus.publish(ev(n)).await.expect("publish");
        }
        for n in 0..10 {
            assert_eq!(recv(&mut a).await, Some(ev(n)));
        }
        for n in 0..10 {
            assert_eq!(recv(&mut b).await, Some(ev(n)));
        }
        assert_eq!(a.try_recv(), None);
        assert_eq!(b.try_recv(), None);
        assert_eq!(buffered(&bus), 0, "events read by everyone are freed");
    }

    #[tokio::test]
    async fn a_subscriber_made_after_a_publish_does_not_see_it() {
        let bus = InProcessBus::new();
        let mut early = bus.subscribe();
        bus.publish(ev(1)).await.expect("publish");
        let mut late = bus.subscribe();
        bus.publish(ev(2)).await.expect("publish");
        assert_eq!(recv(&mut late).await, Some(ev(2)));
        assert_eq!(late.try_recv(), None);
        assert_eq!(recv(&mut early).await, Some(ev(1)));
        assert_eq!(recv(&mut early).await, Some(ev(2)));
    }

    #[tokio::test]
    async fn dropping_subscribers_does_not_break_publish() {
        let bus = InProcessBus::new();
        bus.publish(ev(0))
            .await
            .expect("publish without subscribers");
        let a = bus.subscribe();
        let mut b = bus.subscribe();
        bus.publish(ev(1)).await.expect("publish");
        drop(a);
        bus.publish(ev(2)).await.expect("publish");
        assert_eq!(recv(&mut b).await, Some(ev(1)));
        drop(b);
        assert_eq!(bus.subscriber_count(), 0);
        assert_eq!(
            buffered(&bus),
            0,
            "unread events of dropped subscribers are freed"
        );
        bus.publish(ev(3))
            .await
            .expect("publish after every subscriber left");
        let mut c = bus.subscribe();
        bus.publish(ev(4)).await.expect("publish");
        assert_eq!(recv(&mut c).await, Some(ev(4)));
    }

    #[tokio::test]
    async fn a_lagging_subscriber_loses_the_oldest_events_without_blocking_publishers() {
        let bus = InProcessBus::with_capacity(4);
        let mut slow = bus.subscribe();
        let mut fast = bus.subscribe();
        for n in 0..10 {
            bus.publish(ev(n)).await.expect("publish never waits");
            assert_eq!(recv(&mut fast).await, Some(ev(n)));
        }
        assert_eq!(buffered(&bus), 4);
        for n in 6..10 {
            assert_eq!(recv(&mut slow).await, Some(ev(n)));
        }
        assert_eq!(slow.lagged(), 6);
        assert_eq!(fast.lagged(), 0);
        assert_eq!(buffered(&bus), 0);
    }

    #[tokio::test]
    async fn a_waiting_subscriber_is_woken_by_a_later_publish() {
        let bus = InProcessBus::new();
        let mut sub = bus.subscribe();
        let waiter = tokio::spawn(async move { recv(&mut sub).await });
        tokio::time::sleep(Duration::from_millis(20)).await;
        bus.publish(ev(7)).await.expect("publish");
        assert_eq!(waiter.await.expect("join"), Some(ev(7)));
    }

    #[tokio::test]
    async fn subscriptions_end_after_the_bus_is_gone() {
        let bus = InProcessBus::new();
        let mut sub = EventBus::subscribe(&bus);
        let clone = bus.clone();
        clone.publish(ev(1)).await.expect("publish");
        drop(bus);
        let waiter = tokio::spawn(async move {
            let first = recv(&mut sub).await;
            let second = recv(&mut sub).await;
            (first, second)
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        drop(clone);
        assert_eq!(waiter.await.expect("join"), (Some(ev(1)), None));
    }

    #[test]
    fn events_round_trip_through_json() {
        let event = Event::new("user:1", "delete", "123");
        let json = serde_json::to_string(&event).expect("encode");
        assert_eq!(serde_json::from_str::<Event>(&json).expect("decode"), event);
    }
}
