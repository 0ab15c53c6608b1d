//! `fedblog-server search reindex`: rebuilds the full-text index of statuses from the statuses
//! stored, oldest first, in batches. After each batch the position is saved in the database, so
//! an interrupted run resumes where it stopped; a run that finishes clears it (the next run
//! starts over), and `--restart` starts over at once. Statuses posted meanwhile are indexed by
//! the server as usual.

use std::time::Instant;

use fedblog_core::Id;
use fedblog_core::services::search::SearchIndexing;
use fedblog_core::store::StatusStore;
use indicatif::{ProgressBar, ProgressStyle};

use crate::store::SeaStore;

/// Statuses read and indexed at a time.
const BATCH: u64 = 500;

/// Ids counted at a time for the progress bar's length.
const COUNT_BATCH: u64 = 10_000;

/// What a run did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reindexed {
    /// Statuses indexed by this run.
    pub statuses: u64,
    /// How long it took, in seconds.
    pub seconds: f64,
}

/// A progress bar for a reindex, with the rate and an ETA (drawn on standard error when
/// it is a terminal, hidden otherwise).
pub fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::new(0);
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40} {pos}/{len} statuses, {per_sec}, {elapsed} elapsed, ETA {eta}",
    ) {
        bar.set_style(style);
    }
    bar
}

/// Rebuilds the index of `store` (see the module documentation), moving `bar`.
pub async fn reindex(
    store: &SeaStore,
    restart: bool,
    bar: &ProgressBar,
) -> Result<Reindexed, String> {
    let failed = |what: &str, e: &dyn std::fmt::Display| format!("{what}: {e}");
    let mut after = if restart {
        store
            .save_reindex_position(None)
            .await
            .map_err(|e| failed("cannot clear the saved position", &e))?;
        None
    } else {
        store
            .reindex_position()
            .await
            .map_err(|e| failed("cannot read the saved position", &e))?
    };
    let total = count_after(store, None).await?;
    let left = match after {
        Some(_) => count_after(store, after).await?,
        None => total,
    };
    bar.set_length(total);
    bar.set_position(total - left);
    bar.reset_eta();
    let indexing = SearchIndexing::new(store);
    let started = Instant::now();
    let mut indexed = 0;
    loop {
        let ids = store
            .indexable_status_ids(after, BATCH)
            .await
            .map_err(|e| failed("cannot list statuses", &e))?;
        let Some(last) = ids.last().copied() else {
            break;
        };
        let statuses = store
            .statuses_by_ids(&ids)
            .await
            .map_err(|e| failed("cannot read statuses", &e))?;
        let documents = indexing
            .documents(&statuses)
            .await
            .map_err(|e| failed("cannot read media or polls", &e.message))?;
        store
            .index_statuses(&documents)
            .await
            .map_err(|e| failed("cannot write the index", &e))?;
        store
            .save_reindex_position(Some(last))
            .await
            .map_err(|e| failed("cannot save the position", &e))?;
        after = Some(last);
        indexed += ids.len() as u64;
        bar.inc(ids.len() as u64);
    }
    store
        .save_reindex_position(None)
        .await
        .map_err(|e| failed("cannot clear the saved position", &e))?;
    bar.finish();
    Ok(Reindexed {
        statuses: indexed,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// How many statuses the index holds documents of with an id above `after`.
async fn count_after(store: &SeaStore, mut after: Option<Id>) -> Result<u64, String> {
    let mut n = 0;
    loop {
        let ids = store
            .indexable_status_ids(after, COUNT_BATCH)
            .await
            .map_err(|e| format!("cannot count statuses: {e}"))?;
        n += ids.len() as u64;
        match ids.last() {
            Some(last) if ids.len() as u64 == COUNT_BATCH => after = Some(*last),
            _ => return Ok(n),
        }
    }
}
