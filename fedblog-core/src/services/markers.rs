//! Read positions in the home timeline and the notifications, saved with a version so that two
//! clients writing at once do not silently overwrite each other (the later one gets a 409).

use std::collections::BTreeMap;

use http::StatusCode;

use chrono::{DateTime, Utc};

use crate::error::{ApiError, ApiResult};
use crate::id::Id;
use crate::store::{AccountRecord, MarkerRecord, MarkerStore};

/// The timelines that have markers.
pub const MARKER_TIMELINES: [&str; 2] = ["home", "notifications"];

/// The markers area: `app.markers()`. It holds the one store trait it uses and the clock that
/// dates a saved position, and names no `App` (the shape of an area service: see
/// ARCHITECTURE.md, "Adding a new area").
pub struct Markers<'a> {
    store: &'a dyn MarkerStore,
    now: DateTime<Utc>,
}

impl<'a> Markers<'a> {
    /// The area over `store`, dating what it saves `now`.
    pub fn new(store: &'a dyn MarkerStore, now: DateTime<Utc>) -> Self {
        Markers { store, now }
    }

    /// `me`'s markers among `timelines` (names other than `home` and `notifications` are
    /// ignored), by timeline.
    pub async fn of(
        &self,
        me: &AccountRecord,
        timelines: &[String],
    ) -> ApiResult<BTreeMap<String, MarkerRecord>> {
        let mut wanted: Vec<String> = timelines
            .iter()
            .filter(|t| MARKER_TIMELINES.contains(&t.as_str()))
            .cloned()
            .collect();
        wanted.sort();
        wanted.dedup();
        if wanted.is_empty() {
            return Ok(BTreeMap::new());
        }
        Ok(self
            .store
            .markers(me.id, &wanted)
            .await?
            .into_iter()
            .map(|m| (m.timeline.clone(), m))
            .collect())
    }

    /// Saves `me`'s read positions (timeline, last read id), each one version above the stored
    /// one; 409 when another write to the same marker came in between.
    pub async fn save(
        &self,
        me: &AccountRecord,
        positions: &[(String, Id)],
    ) -> ApiResult<BTreeMap<String, MarkerRecord>> {
        let mut out = BTreeMap::new();
        for (timeline, last_read_id) in positions {
            let stored = self
                .store
                .markers(me.id, std::slice::from_ref(timeline))
                .await?
                .pop();
            let marker = MarkerRecord {
                account_id: me.id,
                timeline: timeline.clone(),
                last_read_id: *last_read_id,
                version: stored.map_or(1, |m| m.version + 1),
                updated_at: self.now,
            };
            if !self.store.save_marker(&marker).await? {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "Conflict during update, please try again",
                ));
            }
            out.insert(timeline.clone(), marker);
        }
        Ok(out)
    }

    /// The last notification `me` read (its notifications marker), if any.
    pub async fn last_read_notification(&self, me: &AccountRecord) -> ApiResult<Option<Id>> {
        Ok(self
            .store
            .markers(me.id, &["notifications".to_string()])
            .await?
            .pop()
            .map(|m| m.last_read_id))
    }
}
