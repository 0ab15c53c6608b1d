//! The announcements area: what staff announce to every local user, and what users do with it
//! (mark it read, react with an emoji).
//!
//! Users are shown the published announcements whose `ends_at` has not passed, in
//! chronological order (by `starts_at`, else `published_at`, else creation), each with whether
//! they read (dismissed) it and the reactions counted; `with_dismissed=false` leaves the read
//! ones out. A reaction's name is a Unicode emoji or the shortcode of an enabled custom emoji of
//! this server (anything else is a 422, as in Mastodon); an account reacts once per name, and an
//! announcement takes at most [`REACTION_LIMIT`] different names. The text is rendered as a
//! status's (links, mentions, hashtags), and the accounts, local statuses, hashtags and custom
//! emojis it names fill in the entity's lists.
//!
//! Staff with the announcements permission make, change, publish, unpublish and delete them
//! (fedblog's own admin endpoints and the server's CLI). Publishing (or changing a published
//! one) streams `announcement` to every local user's `user` stream; a reaction streams
//! `announcement.reaction`; unpublishing or deleting a published one streams
//! `announcement.delete`.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use http::StatusCode;

use crate::content::{self, Token};
use crate::error::{ApiError, ApiResult};
use crate::events::{DomainEvent, EventBus, publish_logged};
use crate::id::{Id, IdGenerator};
use crate::services::statuses::Statuses;
use crate::store::{
    AccountRecord, AnnouncementReactionCount, AnnouncementReactionRecord, AnnouncementRecord,
    AnnouncementStore, CustomEmojiRecord, Store, Visibility,
};

/// How many different reaction names one announcement takes (Mastodon's limit).
pub const REACTION_LIMIT: usize = 8;

/// One announcement with everything its entity shows, loaded for one viewer.
#[derive(Clone, Debug)]
pub struct AnnouncementView {
    /// The announcement.
    pub record: AnnouncementRecord,
    /// Its text rendered as HTML.
    pub content: String,
    /// The accounts its text mentions, in order.
    pub mentions: Vec<AccountRecord>,
    /// The public or unlisted local statuses its text links to: id and URL.
    pub statuses: Vec<(Id, String)>,
    /// The hashtags of its text, normalised.
    pub tags: Vec<String>,
    /// The enabled custom emojis of this server its text names.
    pub emojis: Vec<CustomEmojiRecord>,
    /// Its reactions, counted, each with its custom emoji when it is one.
    pub reactions: Vec<(AnnouncementReactionCount, Option<CustomEmojiRecord>)>,
    /// Whether the viewer dismissed it (`None` without a viewer).
    pub read: Option<bool>,
}

/// What staff give to make or change an announcement; `None` keeps the current value (or takes
/// the default, for a new one). `starts_at` and `ends_at` are ISO 8601 datetimes; an empty one
/// clears it.
#[derive(Clone, Debug, Default)]
pub struct AnnouncementChange {
    /// The text.
    pub text: Option<String>,
    /// When the event starts.
    pub starts_at: Option<String>,
    /// When it ends.
    pub ends_at: Option<String>,
    /// Dates only.
    pub all_day: Option<bool>,
    /// Publish it now (`true`) or keep it a draft (`false`); for a new one only.
    pub publish: Option<bool>,
}

/// The announcements area: `app.announcements()`.
pub struct Announcements<'a> {
    store: &'a dyn Store,
    statuses: Statuses<'a>,
    events: &'a dyn EventBus,
    ids: &'a IdGenerator,
    base_url: String,
    now: DateTime<Utc>,
}

/// 404 for a store that keeps no announcements: staff cannot make any.
fn no_announcements() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "This server keeps no announcements")
}

/// Parses an ISO 8601 datetime parameter; an empty one is `None`.
fn parse_time(field: &str, text: &str) -> ApiResult<Option<DateTime<Utc>>> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    DateTime::parse_from_rfc3339(text)
        .map(|t| Some(t.with_timezone(&Utc)))
        .map_err(|_| {
            ApiError::invalid_field(
                field,
                "ERR_INVALID",
                format!("Validation failed: {field} is not a valid datetime"),
            )
        })
}

/// Whether `name` is one Unicode emoji (skin tones and other qualified forms included).
pub fn is_unicode_emoji(name: &str) -> bool {
    !name.is_empty() && emojis::get(name).is_some()
}

impl<'a> Announcements<'a> {
    /// The area over `store`, rendering texts with `statuses` and publishing on `events`.
    pub fn new(
        store: &'a dyn Store,
        statuses: Statuses<'a>,
        events: &'a dyn EventBus,
        ids: &'a IdGenerator,
        base_url: String,
        now: DateTime<Utc>,
    ) -> Self {
        Announcements {
            store,
            statuses,
            events,
            ids,
            base_url,
            now,
        }
    }

    /// The store's announcements, or the 404 of a store that keeps none.
    fn kept(&self) -> ApiResult<&'a dyn AnnouncementStore> {
        self.store.announcements().ok_or_else(no_announcements)
    }

    async fn publish(&self, event: DomainEvent) {
        publish_logged(self.events, event).await;
    }

    /// Whether users are shown `a` now: published, and its end not passed.
    fn shown(&self, a: &AnnouncementRecord) -> bool {
        a.published && a.ends_at.is_none_or(|end| end > self.now)
    }

    /// The announcements `me` is shown, with the read ones unless `with_dismissed` is false.
    /// A store that keeps none shows none.
    pub async fn list_for(
        &self,
        me: &AccountRecord,
        with_dismissed: bool,
    ) -> ApiResult<Vec<AnnouncementView>> {
        let Some(store) = self.store.announcements() else {
            return Ok(vec![]);
        };
        let shown: Vec<AnnouncementRecord> = store
            .list_announcements(true)
            .await?
            .into_iter()
            .filter(|a| self.shown(a))
            .collect();
        let views = self.views(shown, Some(me.id)).await?;
        Ok(views
            .into_iter()
            .filter(|v| with_dismissed || v.read != Some(true))
            .collect())
    }

    /// The announcement `id` as `viewer` is shown it; `None` when users are not shown it.
    pub async fn view_for(
        &self,
        id: Id,
        viewer: Option<Id>,
    ) -> ApiResult<Option<AnnouncementView>> {
        let Some(store) = self.store.announcements() else {
            return Ok(None);
        };
        match store.announcement_by_id(id).await? {
            Some(a) if self.shown(&a) => Ok(self.views(vec![a], viewer).await?.pop()),
            _ => Ok(None),
        }
    }

    /// Loads what the entities of `records` show, for `viewer`.
    pub async fn views(
        &self,
        records: Vec<AnnouncementRecord>,
        viewer: Option<Id>,
    ) -> ApiResult<Vec<AnnouncementView>> {
        if records.is_empty() {
            return Ok(vec![]);
        }
        let store = self.kept()?;
        let ids: Vec<Id> = records.iter().map(|a| a.id).collect();
        let read: HashSet<Id> = match viewer {
            Some(v) => store
                .dismissed_announcements(v, &ids)
                .await?
                .into_iter()
                .collect(),
            None => HashSet::new(),
        };
        let reactions = store.announcement_reactions(&ids, viewer).await?;
        // Every custom emoji named, by shortcode: in the texts and the reactions.
        let mut keys: Vec<(String, Option<String>)> = vec![];
        for a in &records {
            for code in content::emoji_shortcodes(&a.text) {
                keys.push((code, None));
            }
        }
        for r in &reactions {
            if r.custom_emoji_id.is_some() {
                keys.push((r.name.clone(), None));
            }
        }
        keys.sort();
        keys.dedup();
        let emojis: HashMap<String, CustomEmojiRecord> = if keys.is_empty() {
            HashMap::new()
        } else {
            self.store
                .custom_emojis_by_keys(&keys)
                .await?
                .into_iter()
                .filter(|e| e.domain.is_none())
                .map(|e| (e.shortcode.clone(), e))
                .collect()
        };
        let mut out = Vec::with_capacity(records.len());
        for a in records {
            let text = self.statuses.render_status_text(&a.text).await?;
            let mut mentions = self.store.accounts_by_ids(&text.mentions).await?;
            mentions.sort_by_key(|m| text.mentions.iter().position(|id| *id == m.id));
            let statuses = self.linked_statuses(&a.text).await?;
            let text_emojis = content::emoji_shortcodes(&a.text)
                .into_iter()
                .filter_map(|code| emojis.get(&code).filter(|e| !e.disabled).cloned())
                .collect();
            let own = reactions
                .iter()
                .filter(|r| r.announcement_id == a.id)
                .map(|r| {
                    let emoji = r.custom_emoji_id.and_then(|_| emojis.get(&r.name).cloned());
                    (r.clone(), emoji)
                })
                .collect();
            out.push(AnnouncementView {
                content: text.content,
                mentions,
                statuses,
                tags: text.tags,
                emojis: text_emojis,
                reactions: own,
                read: viewer.map(|_| read.contains(&a.id)),
                record: a,
            });
        }
        Ok(out)
    }

    /// The public or unlisted local statuses `text` links to (by their page or ActivityPub
    /// URL on this server), each once, in order.
    async fn linked_statuses(&self, text: &str) -> ApiResult<Vec<(Id, String)>> {
        let mut ids: Vec<Id> = vec![];
        for token in content::tokenize(text) {
            let Token::Url(url) = token else { continue };
            let Some(path) = url.strip_prefix(&self.base_url) else {
                continue;
            };
            let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
            let id = match segments.as_slice() {
                [user, id] if user.starts_with('@') => id.parse::<Id>().ok(),
                ["users", _, "statuses", id] => id.parse::<Id>().ok(),
                _ => None,
            };
            if let Some(id) = id
                && !ids.contains(&id)
            {
                ids.push(id);
            }
        }
        if ids.is_empty() {
            return Ok(vec![]);
        }
        let found = self.store.statuses_by_ids(&ids).await?;
        let authors = self
            .store
            .accounts_by_ids(&found.iter().map(|s| s.account_id).collect::<Vec<_>>())
            .await?;
        let mut out = vec![];
        for id in ids {
            let Some(s) = found.iter().find(|s| s.id == id) else {
                continue;
            };
            let Some(author) = authors.iter().find(|a| a.id == s.account_id) else {
                continue;
            };
            if s.local
                && s.reblog_of_id.is_none()
                && matches!(s.visibility, Visibility::Public | Visibility::Unlisted)
            {
                out.push((
                    s.id,
                    format!("{}/@{}/{}", self.base_url, author.username, s.id),
                ));
            }
        }
        Ok(out)
    }

    /// The announcement `id` if users are shown it; 404 otherwise.
    async fn shown_one(&self, id: Id) -> ApiResult<AnnouncementRecord> {
        let store = self.store.announcements().ok_or_else(ApiError::not_found)?;
        match store.announcement_by_id(id).await? {
            Some(a) if a.published => Ok(a),
            _ => Err(ApiError::not_found()),
        }
    }

    /// Marks the announcement `id` read by `me` (again: no change). 404 unless published.
    pub async fn dismiss(&self, me: &AccountRecord, id: Id) -> ApiResult<()> {
        let a = self.shown_one(id).await?;
        match self.kept()?.dismiss_announcement(me.id, a.id).await {
            Ok(_) => Ok(()),
            Err(crate::StoreError::NotFound) => Err(ApiError::not_found()),
            Err(e) => Err(e.into()),
        }
    }

    /// The count of reactions `name` to `announcement` now.
    async fn reaction_count(&self, announcement: Id, name: &str) -> ApiResult<u64> {
        Ok(self
            .kept()?
            .announcement_reactions(&[announcement], None)
            .await?
            .into_iter()
            .find(|r| r.name == name)
            .map_or(0, |r| r.count))
    }

    /// `me` reacts to the announcement `id` with `name` (again: no change). 404 unless
    /// published; 422 for a name that is neither a Unicode emoji nor an enabled custom emoji of
    /// this server, or a new name past [`REACTION_LIMIT`].
    pub async fn react(&self, me: &AccountRecord, id: Id, name: &str) -> ApiResult<()> {
        let a = self.shown_one(id).await?;
        let store = self.kept()?;
        let custom_emoji_id = if is_unicode_emoji(name) {
            None
        } else {
            let key = (name.to_string(), None);
            match self
                .store
                .custom_emojis_by_keys(std::slice::from_ref(&key))
                .await?
                .into_iter()
                .find(|e| e.domain.is_none() && e.shortcode == name && !e.disabled)
            {
                Some(e) => Some(e.id),
                None => {
                    return Err(ApiError::invalid_field(
                        "name",
                        "ERR_INVALID",
                        "Validation failed: Name is not a recognized emoji",
                    ));
                }
            }
        };
        let existing = store.announcement_reactions(&[a.id], None).await?;
        if !existing.iter().any(|r| r.name == name) && existing.len() >= REACTION_LIMIT {
            return Err(ApiError::unprocessable(
                "Validation failed: Maximum number of different reactions reached",
            ));
        }
        let added = match store
            .add_announcement_reaction(&AnnouncementReactionRecord {
                announcement_id: a.id,
                account_id: me.id,
                name: name.to_string(),
                custom_emoji_id,
                created_at: self.now,
            })
            .await
        {
            Ok(added) => added,
            Err(crate::StoreError::NotFound) => return Err(ApiError::not_found()),
            Err(e) => return Err(e.into()),
        };
        if added {
            let count = self.reaction_count(a.id, name).await?;
            self.publish(DomainEvent::AnnouncementReaction {
                announcement: a.id,
                name: name.to_string(),
                count,
            })
            .await;
        }
        Ok(())
    }

    /// `me` takes back its reaction `name` to the announcement `id`. 404 unless published, or
    /// when `me` did not react so.
    pub async fn unreact(&self, me: &AccountRecord, id: Id, name: &str) -> ApiResult<()> {
        let a = self.shown_one(id).await?;
        if !self
            .kept()?
            .remove_announcement_reaction(a.id, me.id, name)
            .await?
        {
            return Err(ApiError::not_found());
        }
        let count = self.reaction_count(a.id, name).await?;
        self.publish(DomainEvent::AnnouncementReaction {
            announcement: a.id,
            name: name.to_string(),
            count,
        })
        .await;
        Ok(())
    }

    /// Every announcement, drafts too, as staff see them (chronological).
    pub async fn all(&self) -> ApiResult<Vec<AnnouncementRecord>> {
        Ok(self.kept()?.list_announcements(false).await?)
    }

    /// The announcement `id`, drafts too; 404 if unknown.
    pub async fn get(&self, id: Id) -> ApiResult<AnnouncementRecord> {
        self.kept()?
            .announcement_by_id(id)
            .await?
            .ok_or_else(ApiError::not_found)
    }

    /// Applies `change` to `a` and checks the result: a text (422 when blank); `starts_at` and
    /// `ends_at` both or neither, the end not before the start; `all_day` only with both.
    fn apply(&self, a: &mut AnnouncementRecord, change: &AnnouncementChange) -> ApiResult<()> {
        if let Some(text) = &change.text {
            a.text = text.trim().to_string();
        }
        if let Some(s) = &change.starts_at {
            a.starts_at = parse_time("starts_at", s)?;
        }
        if let Some(s) = &change.ends_at {
            a.ends_at = parse_time("ends_at", s)?;
        }
        if let Some(all_day) = change.all_day {
            a.all_day = all_day;
        }
        if a.text.is_empty() {
            return Err(ApiError::invalid_field(
                "text",
                "ERR_BLANK",
                "Validation failed: Text can't be blank",
            ));
        }
        match (a.starts_at, a.ends_at) {
            (Some(start), Some(end)) if end < start => {
                return Err(ApiError::invalid_field(
                    "ends_at",
                    "ERR_INVALID",
                    "Validation failed: Ends at must be after starts at",
                ));
            }
            (Some(_), None) => {
                return Err(ApiError::invalid_field(
                    "ends_at",
                    "ERR_BLANK",
                    "Validation failed: Ends at can't be blank",
                ));
            }
            (None, Some(_)) => {
                return Err(ApiError::invalid_field(
                    "starts_at",
                    "ERR_BLANK",
                    "Validation failed: Starts at can't be blank",
                ));
            }
            (None, None) => a.all_day = false,
            _ => {}
        }
        Ok(())
    }

    /// Makes an announcement; published at once when `change.publish` is `true`.
    pub async fn create(&self, change: AnnouncementChange) -> ApiResult<AnnouncementRecord> {
        let store = self.kept()?;
        let publish = change.publish.unwrap_or(false);
        let mut a = AnnouncementRecord {
            id: self.ids.next(),
            text: String::new(),
            starts_at: None,
            ends_at: None,
            all_day: false,
            published: publish,
            published_at: publish.then_some(self.now),
            created_at: self.now,
            updated_at: self.now,
        };
        self.apply(&mut a, &change)?;
        store.insert_announcement(&a).await?;
        if a.published {
            self.publish(DomainEvent::AnnouncementPublished { announcement: a.id })
                .await;
        }
        Ok(a)
    }

    /// Changes the announcement `id`; a published one is streamed again. 404 if unknown.
    pub async fn update(
        &self,
        id: Id,
        change: AnnouncementChange,
    ) -> ApiResult<AnnouncementRecord> {
        let store = self.kept()?;
        let mut a = self.get(id).await?;
        self.apply(&mut a, &change)?;
        a.updated_at = self.now;
        store.update_announcement(&a).await?;
        if a.published {
            self.publish(DomainEvent::AnnouncementPublished { announcement: a.id })
                .await;
        }
        Ok(a)
    }

    /// Publishes the announcement `id` (again: it is dated now). 404 if unknown.
    pub async fn publish_announcement(&self, id: Id) -> ApiResult<AnnouncementRecord> {
        let store = self.kept()?;
        let mut a = self.get(id).await?;
        a.published = true;
        a.published_at = Some(self.now);
        a.updated_at = self.now;
        store.update_announcement(&a).await?;
        self.publish(DomainEvent::AnnouncementPublished { announcement: a.id })
            .await;
        Ok(a)
    }

    /// Takes the announcement `id` back to a draft; users stop seeing it. 404 if unknown.
    pub async fn unpublish(&self, id: Id) -> ApiResult<AnnouncementRecord> {
        let store = self.kept()?;
        let mut a = self.get(id).await?;
        let was = a.published;
        a.published = false;
        a.updated_at = self.now;
        store.update_announcement(&a).await?;
        if was {
            self.publish(DomainEvent::AnnouncementDeleted { announcement: a.id })
                .await;
        }
        Ok(a)
    }

    /// Deletes the announcement `id` with its dismissals and reactions. 404 if unknown.
    pub async fn delete(&self, id: Id) -> ApiResult<()> {
        let store = self.kept()?;
        let a = self.get(id).await?;
        match store.delete_announcement(a.id).await {
            Ok(()) => {}
            Err(crate::StoreError::NotFound) => return Err(ApiError::not_found()),
            Err(e) => return Err(e.into()),
        }
        if a.published {
            self.publish(DomainEvent::AnnouncementDeleted { announcement: a.id })
                .await;
        }
        Ok(())
    }
}
