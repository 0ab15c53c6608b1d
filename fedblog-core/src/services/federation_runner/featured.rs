//! Pins and featured hashtags across servers, as Mastodon federates them. A remote account's
//! `Add` and `Remove` in its `featured` collection pin and unpin its posts here, and in its
//! `featuredTags` collection feature and unfeature its hashtags. Both collections are read
//! when its actor is first stored or names other collections (the `fetch_featured` job,
//! queued by `Federation::store_actor`). What a local account pins or features goes to its
//! followers the same way.

use serde_json::Value;

use super::{ThreadReach, forbidden, gone_is_none, payload_of};
use crate::app::App;
use crate::content;
use crate::error::{ApiError, ApiResult};
use crate::federation::paths;
use crate::federation::vocab::{self, Activity, FirstPage, Note};
use crate::id::Id;
use crate::services::federation::{FetchFeatured, MAX_REMOTE_FEATURED};
use crate::services::outbox::Outgoing;
use crate::store::{AccountRecord, StatusRecord};

/// A featured hashtag as an item of a `featuredTags` collection and the object of its `Add`.
pub fn hashtag_object(base: &str, name: &str) -> Value {
    let href = format!("{base}/tags/{}", content::tag_url_segment(name));
    vocab::hashtag(&href, name)
}

/// The normalised name of a `Hashtag` object; `None` for anything else.
fn hashtag_name(object: &Value) -> Option<(String, String)> {
    let name = vocab::hashtag_name(object)?;
    content::parse_tag_name(&name)
}

impl App {
    /// An `Add` (`add`) or `Remove` whose target is one of the signer's featured collections;
    /// anything else is ignored.
    pub(crate) async fn receive_featured(
        &self,
        signer: &AccountRecord,
        activity: &Activity,
        add: bool,
    ) -> ApiResult<()> {
        let Some(actor) = self.store.remote_actor(signer.id).await? else {
            return Ok(());
        };
        let Some(target) = activity.target.as_deref() else {
            return Ok(());
        };
        if actor.featured.as_deref() == Some(target) {
            self.receive_pin(signer, activity, add).await
        } else if actor.featured_tags.as_deref() == Some(target) {
            let Some((name, display)) = hashtag_name(&activity.object) else {
                return Ok(());
            };
            self.tags()
                .set_remote_featured(signer, &name, &display, add)
                .await
                .map(|_| ())
        } else {
            Ok(())
        }
    }

    async fn receive_pin(
        &self,
        signer: &AccountRecord,
        activity: &Activity,
        add: bool,
    ) -> ApiResult<()> {
        let Some(uri) = activity.object_id() else {
            return Ok(());
        };
        let status = match self.remote().status_by_uri(&uri).await? {
            Some(status) => Some(status),
            None if add => self.fetch_pinned(&uri).await?,
            None => None,
        };
        let Some(status) = status else {
            return Ok(());
        };
        if status.account_id != signer.id {
            return Err(forbidden("An actor may only pin its own posts"));
        }
        if add {
            let pinned = self.store.pinned_status_ids(signer.id).await?;
            if !pinned.contains(&status.id) && pinned.len() < MAX_REMOTE_FEATURED {
                self.store
                    .insert_pin(self.ids.next(), signer.id, status.id)
                    .await?;
            }
        } else {
            self.store.delete_pin(signer.id, status.id).await?;
        }
        Ok(())
    }

    /// A remote post named as pinned, fetched and stored; `None` when it cannot be had.
    async fn fetch_pinned(&self, uri: &str) -> ApiResult<Option<StatusRecord>> {
        let fetched = self
            .fetch_remote_note(uri, ThreadReach::Fetched { depth: 0 })
            .await;
        gone_is_none(fetched)
    }

    /// A [`FETCH_FEATURED`](crate::services::federation::FETCH_FEATURED) job.
    pub(crate) async fn run_fetch_featured(&self, payload: &Value) -> Result<(), String> {
        let job: FetchFeatured = payload_of(payload)?;
        self.fetch_featured(job.account)
            .await
            .map_err(|e| e.to_string())
    }

    /// Makes a remote account's pins and featured tags here those its collections list (at
    /// most [`MAX_REMOTE_FEATURED`] of each, on its own server).
    async fn fetch_featured(&self, account: Id) -> ApiResult<()> {
        let (Some(owner), Some(actor)) = (
            self.store.account_by_id(account).await?,
            self.store.remote_actor(account).await?,
        ) else {
            return Ok(());
        };
        if owner.is_suspended() {
            return Ok(());
        }
        if let Some(url) = &actor.featured
            && let Some(items) = self.collection_items(url).await?
        {
            let mut pins: Vec<Id> = vec![];
            for item in items {
                let Some(uri) = vocab::id_of(&item) else {
                    continue;
                };
                if pins.len() >= MAX_REMOTE_FEATURED || paths::host_of(&uri) != owner.domain {
                    continue;
                }
                let status = match self.remote().status_by_uri(&uri).await? {
                    Some(status) => Some(status),
                    None => self
                        .pinned_item(&owner, &item, &uri)
                        .await
                        .unwrap_or_else(|e| {
                            tracing::info!(pin = %uri, error = %e.message, "cannot have a pin");
                            None
                        }),
                };
                if let Some(status) = status
                    && status.account_id == owner.id
                    && !pins.contains(&status.id)
                {
                    pins.push(status.id);
                }
            }
            let before = self.store.pinned_status_ids(owner.id).await?;
            for gone in before.iter().filter(|s| !pins.contains(s)) {
                self.store.delete_pin(owner.id, *gone).await?;
            }
            for new in pins.iter().filter(|s| !before.contains(s)) {
                self.store
                    .insert_pin(self.ids.next(), owner.id, *new)
                    .await?;
            }
        }
        if let Some(url) = &actor.featured_tags
            && let Some(items) = self.collection_items(url).await?
        {
            let mut names: Vec<(String, String)> = vec![];
            for (name, display) in items.iter().filter_map(hashtag_name) {
                if !names.iter().any(|(n, _)| *n == name) && names.len() < MAX_REMOTE_FEATURED {
                    names.push((name, display));
                }
            }
            self.tags()
                .set_remote_featured_names(&owner, &names)
                .await?;
        }
        Ok(())
    }

    /// A post of `owner`'s featured collection we lack: stored as inlined (Mastodon inlines
    /// the notes) when it is `owner`'s, else fetched.
    async fn pinned_item(
        &self,
        owner: &AccountRecord,
        item: &Value,
        uri: &str,
    ) -> ApiResult<Option<StatusRecord>> {
        if item.is_object()
            && let Ok(note) = Note::from_json(item)
            && owner.uri.as_deref() == Some(note.attributed_to.as_str())
        {
            let reach = ThreadReach::Fetched { depth: 0 };
            return self.store_remote_note(owner, note, reach).await.map(Some);
        }
        self.fetch_pinned(uri).await
    }

    /// The items of a small remote collection: those of its first page, read with at most two
    /// requests on the collection's own server. `None` when it cannot be read.
    async fn collection_items(&self, url: &str) -> ApiResult<Option<Vec<Value>>> {
        let federation = self.federation();
        let Some(doc) = gone_is_none(federation.fetch(url).await.map(Some))? else {
            return Ok(None);
        };
        let page = match vocab::first_page(&doc) {
            Some(FirstPage::Here(page)) => page.clone(),
            Some(FirstPage::At(next))
                if paths::host_of(&next) == paths::host_of(url) && next != url =>
            {
                match gone_is_none(federation.fetch(&next).await.map(Some))? {
                    Some(page) => page,
                    None => return Ok(None),
                }
            }
            _ => return Ok(None),
        };
        let items = page
            .get("orderedItems")
            .or_else(|| page.get("items"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        Ok(Some(items))
    }

    /// `Add` or `Remove` of a pin or a featured tag of a local account, rendered for delivery.
    pub(crate) async fn render_featured_change(
        &self,
        activity: &Outgoing,
    ) -> ApiResult<Option<(Id, Value)>> {
        let (account, add, object, collection): (Id, bool, Value, fn(&str) -> String) =
            match activity {
                Outgoing::Pin { account, status } | Outgoing::Unpin { account, status } => {
                    let Some(s) = self.store.status_by_id(*status).await? else {
                        return Ok(None);
                    };
                    let Some(uri) = self.status_uri(&s).await? else {
                        return Ok(None);
                    };
                    let add = matches!(activity, Outgoing::Pin { .. });
                    (*account, add, Value::String(uri), paths::featured)
                }
                Outgoing::FeatureTag { account, name }
                | Outgoing::UnfeatureTag { account, name } => {
                    let add = matches!(activity, Outgoing::FeatureTag { .. });
                    let object = hashtag_object(&self.base_url(), name);
                    (*account, add, object, paths::featured_tags)
                }
                _ => return Err(ApiError::internal()),
            };
        let Some(a) = self.store.account_by_id(account).await? else {
            return Ok(None);
        };
        let actor = paths::actor(&self.base_url(), &a.username);
        let kind = if add { "Add" } else { "Remove" };
        let id = paths::activity(&actor, "featured", self.ids.next());
        let mut value = vocab::activity(&id, kind, &actor, object, &[], &[], None);
        if let Some(o) = value.as_object_mut() {
            o.insert("target".into(), collection(&actor).into());
        }
        Ok(Some((a.id, value)))
    }
}
