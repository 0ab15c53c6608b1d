//! Followers collection synchronisation (FEP-8fcf), as Mastodon does it, so that a
//! followers-only post never reaches someone who no longer follows its author.
//!
//! - **Out:** each delivery of a followers-only activity carries a signed
//!   `Collection-Synchronization` header: our author's followers collection, the URL of the
//!   partial collection for the receiving server, and the digest of the followers we know there.
//! - **Served:** `GET /users/:name/followers_synchronization` lists an account's followers on the
//!   signer's server (signed requests only).
//! - **In:** when a remote author's header disagrees with the followers we hold for it, a
//!   `synchronize_followers` job reads its partial collection and corrects ours: a local
//!   follower it does not list stops following (so private posts no longer reach them); a local
//!   account it lists whose request is pending is taken as accepted; one it lists that does not
//!   follow is sent an `Undo` of the follow, so the author's server drops it too.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::payload_of;
use crate::app::App;
use crate::error::{ApiError, ApiResult};
use crate::federation::collection_sync::{self, CollectionSync, partial_digest, uri_prefix};
use crate::federation::vocab::{self, FirstPage};
use crate::federation::{RawBody, paths};
use crate::id::Id;
use crate::pagination::Page;
use crate::services::jobs::{DEFAULT_MAX_ATTEMPTS, json_job};
use crate::store::{AccountRecord, INSTANCE_ACTOR};

/// A job that reads a remote account's partial followers collection and makes its local
/// followers here what it lists; payload [`SynchronizeFollowers`]. Mastodon's
/// `ActivityPub::FollowersSynchronizationWorker`.
pub const SYNCHRONIZE_FOLLOWERS: &str = "synchronize_followers";

/// The pages of a partial followers collection read at most; a longer one is not acted on
/// (reading only part of it would end follows it lists further on).
const MAX_SYNC_PAGES: usize = 50;

/// Followers read from the store at a time.
const FOLLOWERS_BATCH: usize = 1000;

/// The payload of a [`SYNCHRONIZE_FOLLOWERS`] job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SynchronizeFollowers {
    /// The remote account whose followers here are checked.
    pub account: Id,
    /// Its partial followers collection for this server.
    pub url: String,
}

/// The `Collection-Synchronization` headers of one followers-only activity, by receiving server.
pub struct SyncHeaders {
    collection_id: String,
    url: String,
    /// The digest of the author's followers on each server that has some ([`uri_prefix`]).
    digests: HashMap<String, String>,
}

impl SyncHeaders {
    /// The header for a delivery to `inbox` (a server without followers gets the digest of
    /// none).
    pub fn for_inbox(&self, inbox: &str) -> Option<String> {
        let prefix = uri_prefix(inbox)?;
        let digest = self
            .digests
            .get(&prefix)
            .cloned()
            .unwrap_or_else(|| partial_digest([]));
        Some(
            CollectionSync {
                collection_id: self.collection_id.clone(),
                url: self.url.clone(),
                digest,
            }
            .header_value(),
        )
    }
}

/// Whether an activity is addressed to `followers` and not to the public: what a followers-only
/// post's `Create`, `Update` and `Delete` are.
fn followers_only(activity: &Value, followers: &str) -> bool {
    let addressed: Vec<String> = ["to", "cc"]
        .iter()
        .flat_map(|k| vocab::uris(&activity[*k]))
        .collect();
    addressed.iter().any(|a| a == followers) && !addressed.iter().any(|a| vocab::is_public(a))
}

impl App {
    /// The URL of a local account's partial followers collection.
    pub(crate) fn followers_synchronization_url(&self, username: &str) -> String {
        format!(
            "{}/followers_synchronization",
            paths::actor(&self.base_url(), username)
        )
    }

    /// The ids of the remote followers of local account `account` on the server with
    /// `prefix` (all of them with `None`).
    pub(crate) async fn remote_follower_uris(
        &self,
        account: Id,
        prefix: Option<&str>,
    ) -> ApiResult<Vec<String>> {
        let mut uris = vec![];
        let mut page = Page::first(FOLLOWERS_BATCH);
        loop {
            let batch = self.store.followers_page(account, page).await?;
            let Some(&(last, _)) = batch.last() else {
                break;
            };
            let ids: Vec<Id> = batch.iter().map(|(_, follower)| *follower).collect();
            for actor in self.store.remote_actors(&ids).await? {
                if prefix.is_none_or(|p| collection_sync::is_under(&actor.uri, p)) {
                    uris.push(actor.uri);
                }
            }
            if batch.len() < FOLLOWERS_BATCH {
                break;
            }
            page = Page {
                max_id: Some(last),
                ..Page::first(FOLLOWERS_BATCH)
            };
        }
        Ok(uris)
    }

    /// The actor ids of the local followers of remote account `account`.
    async fn local_follower_uris(&self, account: Id) -> ApiResult<Vec<(AccountRecord, String)>> {
        let ids = self.store.local_follower_ids(account).await?;
        let base = self.base_url();
        let mut followers = vec![];
        for chunk in ids.chunks(FOLLOWERS_BATCH) {
            for follower in self.store.accounts_by_ids(chunk).await? {
                let uri = paths::actor(&base, &follower.username);
                followers.push((follower, uri));
            }
        }
        Ok(followers)
    }

    /// The synchronisation headers for delivering `activity` signed by `signer`: `None` unless
    /// it is a local account's followers-only activity.
    pub(crate) async fn collection_sync_headers(
        &self,
        signer: Id,
        activity: &Value,
    ) -> ApiResult<Option<SyncHeaders>> {
        if signer == INSTANCE_ACTOR {
            return Ok(None);
        }
        let Some(author) = self.store.account_by_id(signer).await? else {
            return Ok(None);
        };
        if author.uri.is_some() {
            return Ok(None);
        }
        let collection_id = paths::followers(&self.actor_uri(&author));
        if !followers_only(activity, &collection_id) {
            return Ok(None);
        }
        let mut by_server: HashMap<String, Vec<String>> = HashMap::new();
        for uri in self.remote_follower_uris(author.id, None).await? {
            if let Some(prefix) = uri_prefix(&uri) {
                by_server.entry(prefix).or_default().push(uri);
            }
        }
        let digests = by_server
            .into_iter()
            .map(|(prefix, uris)| (prefix, partial_digest(uris.iter().map(String::as_str))))
            .collect();
        Ok(Some(SyncHeaders {
            collection_id,
            url: self.followers_synchronization_url(&author.username),
            digests,
        }))
    }

    /// The partial followers collection of local account `account` for the server of
    /// `signer`: its followers there, as an `OrderedCollection` with every item inline.
    pub(crate) async fn render_followers_synchronization(
        &self,
        account: &AccountRecord,
        signer: &AccountRecord,
    ) -> ApiResult<Value> {
        let prefix = signer
            .uri
            .as_deref()
            .and_then(uri_prefix)
            .ok_or_else(|| ApiError::new(http::StatusCode::FORBIDDEN, "Not a remote signer"))?;
        let items = self.remote_follower_uris(account.id, Some(&prefix)).await?;
        Ok(serde_json::json!({
            "@context": vocab::ACTIVITY_STREAMS,
            "id": self.followers_synchronization_url(&account.username),
            "type": "OrderedCollection",
            "totalItems": items.len(),
            "orderedItems": items,
        }))
    }

    /// Looks at a delivery's `Collection-Synchronization` header, if any, from `signer`: when
    /// it names the signer's followers collection and a partial collection on the signer's
    /// server, and its digest differs from that of the signer's followers here, a
    /// [`SYNCHRONIZE_FOLLOWERS`] job is queued. Anything else about the header is ignored; a
    /// failure is logged, never the delivery's.
    pub(crate) async fn note_collection_sync(&self, raw: &RawBody, signer: &AccountRecord) {
        let Some(sync) = raw
            .header(collection_sync::HEADER)
            .and_then(CollectionSync::parse)
        else {
            return;
        };
        if let Err(e) = self.check_collection_sync(sync, signer).await {
            tracing::warn!(signer = %signer.acct(), error = %e.message, "cannot check a followers synchronization header");
        }
    }

    async fn check_collection_sync(
        &self,
        sync: CollectionSync,
        signer: &AccountRecord,
    ) -> ApiResult<()> {
        let Some(actor) = self.store.remote_actor(signer.id).await? else {
            return Ok(());
        };
        if actor.followers.as_deref() != Some(sync.collection_id.as_str())
            || uri_prefix(&sync.url).is_none()
            || uri_prefix(&sync.url) != uri_prefix(&actor.uri)
        {
            return Ok(());
        }
        let ours = self.local_follower_uris(signer.id).await?;
        if partial_digest(ours.iter().map(|(_, uri)| uri.as_str())) == sync.digest {
            return Ok(());
        }
        tracing::info!(signer = %signer.acct(), "its followers here differ from its server's: synchronizing");
        let payload = SynchronizeFollowers {
            account: signer.id,
            url: sync.url,
        };
        let job = json_job(
            self.ids.next(),
            SYNCHRONIZE_FOLLOWERS,
            &payload,
            self.now(),
            DEFAULT_MAX_ATTEMPTS,
        )?;
        self.job_queue().enqueue(&job).await
    }

    /// A [`SYNCHRONIZE_FOLLOWERS`] job.
    pub(crate) async fn run_synchronize_followers(&self, payload: &Value) -> Result<(), String> {
        let job: SynchronizeFollowers = payload_of(payload)?;
        self.synchronize_followers(job.account, &job.url)
            .await
            .map_err(|e| e.to_string())
    }

    /// Makes the local followers of remote account `account` those its partial collection at
    /// `url` lists (see the module's documentation).
    async fn synchronize_followers(&self, account: Id, url: &str) -> ApiResult<()> {
        let (Some(author), Some(actor)) = (
            self.store.account_by_id(account).await?,
            self.store.remote_actor(account).await?,
        ) else {
            return Ok(());
        };
        if uri_prefix(url).is_none() || uri_prefix(url) != uri_prefix(&actor.uri) {
            return Ok(());
        }
        let Some(listed) = self.partial_collection(url).await? else {
            return Ok(());
        };
        let ours = uri_prefix(&self.base_url()).unwrap_or_default();
        let listed: HashSet<String> = listed
            .into_iter()
            .filter(|uri| collection_sync::is_under(uri, &ours))
            .collect();
        let relationships = self.relationships();
        let mut known = HashSet::new();
        for (follower, uri) in self.local_follower_uris(author.id).await? {
            if listed.contains(&uri) {
                known.insert(uri);
            } else {
                tracing::info!(follower = %follower.username, author = %author.acct(), "not a follower on the author's server: unfollowed");
                relationships.unfollow(&follower, author.id).await?;
            }
        }
        let federation = self.federation();
        for uri in listed.difference(&known) {
            let Some(local) = federation.local_account_of(uri).await? else {
                continue;
            };
            if self.store.follow_requested(local.id, author.id).await? {
                relationships
                    .authorize_follow_request(&author, local.id)
                    .await?;
            } else {
                tracing::info!(follower = %local.username, author = %author.acct(), "a follower on the author's server only: undone");
                self.outbox().unfollowed(local.id, author.id).await?;
            }
        }
        Ok(())
    }

    /// Every item id of a partial followers collection, following its pages on its own server;
    /// `None` when it is not there (404/410) or has more than [`MAX_SYNC_PAGES`] pages. Any
    /// other failure is an error, so that the job tries again rather than act on part of it.
    async fn partial_collection(&self, url: &str) -> ApiResult<Option<Vec<String>>> {
        let federation = self.federation();
        let host = paths::host_of(url);
        let mut items = vec![];
        let mut next = Some(url.to_string());
        let mut seen = HashSet::new();
        while let Some(at) = next.take() {
            if seen.len() >= MAX_SYNC_PAGES
                || paths::host_of(&at) != host
                || !seen.insert(at.clone())
            {
                return Ok(None);
            }
            let doc = match federation.fetch(&at).await {
                Ok(doc) => doc,
                Err(e) if e.status == http::StatusCode::NOT_FOUND => return Ok(None),
                Err(e) => return Err(e),
            };
            let page = match vocab::first_page(&doc) {
                Some(FirstPage::Here(page)) => page.clone(),
                Some(FirstPage::At(first)) if first != at => {
                    next = Some(first);
                    continue;
                }
                _ => doc.clone(),
            };
            let list = page
                .get("orderedItems")
                .or_else(|| page.get("items"))
                .map(vocab::uris)
                .unwrap_or_default();
            items.extend(list);
            next = page.get("next").and_then(vocab::id_of);
        }
        Ok(Some(items))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_followers_only_activities_synchronize() {
        let followers = "https://local.example/users/a/followers";
        assert!(followers_only(
            &json!({"to": [followers], "cc": ["https://b.example/users/x"]}),
            followers
        ));
        assert!(followers_only(&json!({"to": followers}), followers));
        assert!(!followers_only(
            &json!({"to": [vocab::PUBLIC], "cc": [followers]}),
            followers
        ));
        assert!(!followers_only(
            &json!({"to": [followers], "cc": ["as:Public"]}),
            followers
        ));
        assert!(!followers_only(
            &json!({"to": ["https://b.example/users/x"]}),
            followers
        ));
    }

    #[test]
    fn a_server_without_followers_gets_the_digest_of_none() {
        let headers = SyncHeaders {
            collection_id: "https://local.example/users/a/followers".into(),
            url: "https://local.example/users/a/followers_synchronization".into(),
            digests: HashMap::from([(
                "https://b.example".to_string(),
                partial_digest(["https://b.example/users/x"]),
            )]),
        };
        let read = |inbox: &str| {
            headers
                .for_inbox(inbox)
                .and_then(|h| CollectionSync::parse(&h))
                .map(|s| s.digest)
        };
        assert_eq!(
            read("https://b.example/inbox"),
            Some(partial_digest(["https://b.example/users/x"]))
        );
        assert_eq!(read("https://c.example/inbox"), Some("0".repeat(64)));
        assert_eq!(read("not a url"), None);
    }
}
