//! The stream runner: reads the domain events of the bus (from every process sharing it) and
//! hands each to this process's streaming connections that may see it, rendered for each
//! listener by the read path of the REST API. It is a method on `App`, as the job workers are,
//! because rendering reaches every area.

use std::collections::HashMap;
use std::sync::Arc;

use crate::app::App;
use crate::error::ApiResult;
use crate::events::{DomainEvent, Subscription};
use crate::id::Id;
use futures_util::{StreamExt, TryStreamExt};

use crate::store::FilterContext;
use crate::streaming::{Channel, Closed, Listener, Outgoing};

/// A message of `channel`.
fn message(channel: &Channel, event: &str, payload: String) -> Outgoing {
    Outgoing::Event {
        stream: channel.stream(),
        event: event.to_string(),
        payload,
    }
}

impl App {
    /// Delivers the events of `events` (a subscription to [`App::events`], made before the
    /// first stream opens) to this process's streaming connections until the bus is gone. One
    /// runner serves a process: run it on a task of its own once
    /// [`StreamHub::claim_runner`](crate::streaming::StreamHub::claim_runner) says so.
    pub async fn run_streams(&self, mut events: Subscription) {
        let mut lagged = 0;
        while let Some(event) = events.recv().await {
            if events.lagged() > lagged {
                tracing::warn!(
                    lost = events.lagged() - lagged,
                    "streaming fell behind the event bus; events were not streamed"
                );
                lagged = events.lagged();
            }
            let Some(domain) = DomainEvent::from_event(&event) else {
                continue;
            };
            if let Err(error) = self.stream_event(&domain).await {
                tracing::warn!(%error, event = domain.mastodon_event(), "an event could not be streamed");
            }
        }
    }

    /// Hands one event to the connections it concerns, rendered for each listener.
    pub async fn stream_event(&self, event: &DomainEvent) -> ApiResult<()> {
        let listeners = self.streams.listeners();
        if listeners.is_empty() {
            return Ok(());
        }
        match event {
            DomainEvent::StatusCreated { status, .. } => {
                self.stream_status(*status, "update", &listeners, true)
                    .await
            }
            DomainEvent::StatusEdited { status, .. } => {
                self.stream_status(*status, "status.update", &listeners, false)
                    .await
            }
            DomainEvent::StatusDeleted {
                status,
                author,
                visibility,
                mentions,
            } => {
                let targets = self
                    .streaming()
                    .deletion_targets(*author, visibility, mentions)
                    .await?;
                for l in &listeners {
                    for c in l.channels() {
                        if targets.reaches(&c, l.viewer_id()) {
                            l.send(message(&c, "delete", status.to_string()));
                        }
                    }
                }
                Ok(())
            }
            DomainEvent::Notification {
                notification,
                account,
            } => {
                let mut payload = None;
                for l in listeners_of(&listeners, *account) {
                    if !l.grants().notifications {
                        continue;
                    }
                    for c in l.channels() {
                        if !matches!(c, Channel::User | Channel::UserNotification) {
                            continue;
                        }
                        let Some(me) = l.viewer() else { continue };
                        if payload.is_none() {
                            payload =
                                Some(self.render_streamed_notification(me, *notification).await?);
                        }
                        if let Some(Some(text)) = &payload {
                            l.send(message(&c, "notification", text.clone()));
                        }
                    }
                }
                Ok(())
            }
            DomainEvent::Conversation {
                conversation,
                account,
                ..
            } => {
                let mut payload = None;
                for l in listeners_of(&listeners, *account) {
                    let (Some(me), true) = (l.viewer(), l.channels().contains(&Channel::Direct))
                    else {
                        continue;
                    };
                    if payload.is_none() {
                        payload = Some(self.render_streamed_conversation(me, *conversation).await?);
                    }
                    if let Some(Some(text)) = &payload {
                        l.send(message(&Channel::Direct, "conversation", text.clone()));
                    }
                }
                Ok(())
            }
            DomainEvent::FiltersChanged { account } => {
                for l in listeners_of(&listeners, *account) {
                    if l.channels().contains(&Channel::User) {
                        l.send(message(&Channel::User, "filters_changed", String::new()));
                    }
                }
                Ok(())
            }
            DomainEvent::NotificationsMerged { account } => {
                // Mastodon's payload: a "1", telling clients to reload their notifications.
                for l in listeners_of(&listeners, *account) {
                    if !l.grants().notifications {
                        continue;
                    }
                    for c in l.channels() {
                        if matches!(c, Channel::User | Channel::UserNotification) {
                            l.send(message(&c, "notifications_merged", "1".into()));
                        }
                    }
                }
                Ok(())
            }
            DomainEvent::AnnouncementPublished { announcement } => {
                self.stream_announcement(*announcement, &listeners).await
            }
            DomainEvent::AnnouncementReaction {
                announcement,
                name,
                count,
            } => {
                let payload = serde_json::json!({
                    "name": name,
                    "count": count,
                    "announcement_id": announcement.to_string(),
                })
                .to_string();
                to_every_user(&listeners, "announcement.reaction", &payload);
                Ok(())
            }
            DomainEvent::AnnouncementDeleted { announcement } => {
                to_every_user(&listeners, "announcement.delete", &announcement.to_string());
                Ok(())
            }
            DomainEvent::TokenRevoked { token } => {
                self.streams
                    .close_where(Closed::AccessEnded, |l| l.token() == Some(*token));
                Ok(())
            }
            DomainEvent::AccountClosed { account } => {
                self.streams
                    .close_where(Closed::AccessEnded, |l| l.viewer_id() == Some(*account));
                Ok(())
            }
            DomainEvent::EncryptedMessage {
                account,
                token,
                payload,
            } => {
                for l in listeners_of(&listeners, *account) {
                    if l.token() == Some(*token) && l.channels().contains(&Channel::User) {
                        l.send(message(
                            &Channel::User,
                            "encrypted_message",
                            payload.clone(),
                        ));
                    }
                }
                Ok(())
            }
        }
    }

    /// Streams a published announcement to every signed-in `user` stream, rendered for each
    /// listening account (its `read` and reactions' `me` are the listener's).
    async fn stream_announcement(&self, id: Id, listeners: &[Arc<Listener>]) -> ApiResult<()> {
        let mut rendered: HashMap<Id, Option<String>> = HashMap::new();
        for l in listeners {
            let Some(viewer) = l.viewer_id() else {
                continue;
            };
            if !l.channels().contains(&Channel::User) {
                continue;
            }
            if let std::collections::hash_map::Entry::Vacant(slot) = rendered.entry(viewer) {
                let view = self.announcements().view_for(id, Some(viewer)).await?;
                let text = match view {
                    Some(v) => Some(
                        serde_json::to_string(&crate::render::render_announcement(
                            &self.base_url(),
                            &v,
                        ))
                        .map_err(|_| crate::error::ApiError::internal())?,
                    ),
                    None => None,
                };
                slot.insert(text);
            }
            if let Some(Some(text)) = rendered.get(&viewer) {
                l.send(message(&Channel::User, "announcement", text.clone()));
            }
        }
        Ok(())
    }

    /// Streams a new or edited status as `event` to every channel it reaches, rendered once
    /// per listening account and filter context, [`RENDER_CONCURRENCY`] renders at a time.
    async fn stream_status(
        &self,
        id: Id,
        event: &str,
        listeners: &[Arc<Listener>],
        new: bool,
    ) -> ApiResult<()> {
        let Some(targets) = self.streaming().status_targets(id).await? else {
            return Ok(());
        };
        let mut deliveries: Vec<(&Arc<Listener>, Channel, RenderKey)> = Vec::new();
        let mut wanted: HashMap<RenderKey, (&Listener, FilterContext)> = HashMap::new();
        for l in listeners {
            for c in l.channels() {
                if !targets.reaches(&c, l.viewer_id()) {
                    continue;
                }
                let context = c.filter_context();
                let key = (l.viewer_id(), context);
                wanted.entry(key).or_insert((l, context));
                deliveries.push((l, c, key));
            }
        }
        let status = &targets.status;
        // Boxed, so that the runner's future stays `Send` (a closure's future is not proven to
        // be for every lifetime).
        let renders: Vec<Render<'_>> = wanted
            .into_iter()
            .map(|(key, (l, context))| {
                let render = self.render_streamed_status(status, l.viewer(), context, new);
                Box::pin(async move { render.await.map(|p| (key, p)) }) as _
            })
            .collect();
        let rendered: HashMap<RenderKey, Option<String>> = futures_util::stream::iter(renders)
            .buffer_unordered(RENDER_CONCURRENCY)
            .try_collect()
            .await?;
        for (l, c, key) in deliveries {
            if let Some(Some(text)) = rendered.get(&key) {
                l.send(message(&c, event, text.clone()));
            }
        }
        Ok(())
    }
}

/// Renders of one event that run at once: enough to keep the database's connections busy
/// while one is rendered, few enough not to take them all from requests.
const RENDER_CONCURRENCY: usize = 16;

/// One render of a status: for whom, in which filter context.
type RenderKey = (Option<Id>, FilterContext);

/// A render under way: its key and the JSON text (`None`: not for that listener).
type Render<'a> = futures_util::future::BoxFuture<'a, ApiResult<(RenderKey, Option<String>)>>;

/// Sends `event` with `payload` to every signed-in connection's `user` stream.
fn to_every_user(listeners: &[Arc<Listener>], event: &str, payload: &str) {
    for l in listeners {
        if l.viewer_id().is_some() && l.channels().contains(&Channel::User) {
            l.send(message(&Channel::User, event, payload.to_string()));
        }
    }
}

/// The connections of `account`.
fn listeners_of(listeners: &[Arc<Listener>], account: Id) -> impl Iterator<Item = &Arc<Listener>> {
    listeners
        .iter()
        .filter(move |l| l.viewer_id() == Some(account))
}
