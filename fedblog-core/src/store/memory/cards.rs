//! [`CardStore`] for [`MemoryStore`]: preview cards, the statuses showing them and their
//! publishers, kept in the store's one lock.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};

use super::MemoryStore;
use crate::error::{StoreError, StoreResult};
use crate::id::Id;
use crate::store::{
    CardPublisherRecord, CardShareRecord, CardStore, PreviewCardRecord, Visibility,
};

/// The cards part of the memory store's state.
#[derive(Default)]
pub(super) struct Cards {
    /// id -> card
    records: BTreeMap<Id, PreviewCardRecord>,
    /// status -> its card
    pub(super) status_cards: BTreeMap<Id, Id>,
    /// id -> publisher
    publishers: BTreeMap<Id, CardPublisherRecord>,
}

#[async_trait]
impl CardStore for MemoryStore {
    async fn save_preview_card(&self, card: &PreviewCardRecord) -> StoreResult<PreviewCardRecord> {
        let mut g = self.write()?;
        let cards = &mut g.cards.records;
        let existing = cards.values().find(|c| c.url == card.url).map(|c| c.id);
        let stored = PreviewCardRecord {
            id: existing.unwrap_or(card.id),
            ..card.clone()
        };
        if existing.is_none() && cards.contains_key(&card.id) {
            return Err(StoreError::AlreadyExists("preview_card".into()));
        }
        cards.insert(stored.id, stored.clone());
        Ok(stored)
    }

    async fn preview_card_by_url(&self, url: &str) -> StoreResult<Option<PreviewCardRecord>> {
        let g = self.read()?;
        Ok(g.cards.records.values().find(|c| c.url == url).cloned())
    }

    async fn preview_cards_by_ids(&self, ids: &[Id]) -> StoreResult<Vec<PreviewCardRecord>> {
        let g = self.read()?;
        let ids: BTreeSet<Id> = ids.iter().copied().collect();
        Ok(ids
            .iter()
            .filter_map(|id| g.cards.records.get(id).cloned())
            .collect())
    }

    async fn set_status_card(&self, status: Id, card: Option<Id>) -> StoreResult<()> {
        let mut g = self.write()?;
        if !g.statuses.contains_key(&status) {
            return Err(StoreError::NotFound);
        }
        match card {
            Some(card) if !g.cards.records.contains_key(&card) => Err(StoreError::NotFound),
            Some(card) => {
                g.cards.status_cards.insert(status, card);
                Ok(())
            }
            None => {
                g.cards.status_cards.remove(&status);
                Ok(())
            }
        }
    }

    async fn status_cards(&self, statuses: &[Id]) -> StoreResult<Vec<(Id, PreviewCardRecord)>> {
        let g = self.read()?;
        let ids: BTreeSet<Id> = statuses.iter().copied().collect();
        Ok(ids
            .into_iter()
            .filter_map(|s| {
                let card = g.cards.status_cards.get(&s)?;
                Some((s, g.cards.records.get(card)?.clone()))
            })
            .collect())
    }

    async fn card_shares(&self, since: DateTime<Utc>) -> StoreResult<Vec<CardShareRecord>> {
        let g = self.read()?;
        // (card, day) -> (uses, distinct authors)
        let mut days: HashMap<(Id, NaiveDate), (i64, BTreeSet<Id>)> = HashMap::new();
        for (status, card) in &g.cards.status_cards {
            let Some(s) = g.statuses.get(status) else {
                continue;
            };
            let shown = s.created_at >= since
                && s.visibility == Visibility::Public
                && s.reblog_of_id.is_none()
                && g.accounts
                    .get(&s.account_id)
                    .is_some_and(|a| !a.is_suspended() && a.silenced_at.is_none());
            if shown {
                let day = days.entry((*card, s.created_at.date_naive())).or_default();
                day.0 += 1;
                day.1.insert(s.account_id);
            }
        }
        Ok(days
            .into_iter()
            .map(|((card_id, day), (uses, accounts))| CardShareRecord {
                card_id,
                day,
                uses,
                accounts: accounts.len() as i64,
            })
            .collect())
    }

    async fn card_publisher(&self, domain: &str, new_id: Id) -> StoreResult<CardPublisherRecord> {
        let mut g = self.write()?;
        let publishers = &mut g.cards.publishers;
        if let Some(p) = publishers.values().find(|p| p.domain == domain) {
            return Ok(p.clone());
        }
        if publishers.contains_key(&new_id) {
            return Err(StoreError::AlreadyExists("publisher".into()));
        }
        let p = CardPublisherRecord {
            id: new_id,
            domain: domain.to_string(),
        };
        publishers.insert(new_id, p.clone());
        Ok(p)
    }

    async fn card_publishers(&self) -> StoreResult<Vec<CardPublisherRecord>> {
        let g = self.read()?;
        Ok(g.cards.publishers.values().rev().cloned().collect())
    }
}
