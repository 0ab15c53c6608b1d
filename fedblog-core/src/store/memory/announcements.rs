//! [`AnnouncementStore`] for [`MemoryStore`]: announcements, dismissals and reactions kept in
//! the store's one lock.

use std::collections::{BTreeMap, BTreeSet};

use async_trait::async_trait;

use super::MemoryStore;
use crate::error::{StoreError, StoreResult};
use crate::id::Id;
use crate::store::{
    AnnouncementReactionCount, AnnouncementReactionRecord, AnnouncementRecord, AnnouncementStore,
};

/// The announcements part of the memory store's state.
#[derive(Default)]
pub(super) struct Announcements {
    /// id -> announcement
    records: BTreeMap<Id, AnnouncementRecord>,
    /// (announcement, account) read
    dismissed: BTreeSet<(Id, Id)>,
    /// Reactions in the order they were made.
    reactions: Vec<AnnouncementReactionRecord>,
}

impl Announcements {
    /// Drops what `account` did: its dismissals and reactions.
    pub(super) fn forget_account(&mut self, account: Id) {
        self.dismissed.retain(|(_, a)| *a != account);
        self.reactions.retain(|r| r.account_id != account);
    }
}

/// The chronological sort key of an announcement.
fn chronological(a: &AnnouncementRecord) -> (chrono::DateTime<chrono::Utc>, Id) {
    (a.starts_at.or(a.published_at).unwrap_or(a.created_at), a.id)
}

#[async_trait]
impl AnnouncementStore for MemoryStore {
    async fn insert_announcement(&self, announcement: &AnnouncementRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.announcements.records.contains_key(&announcement.id) {
            return Err(StoreError::AlreadyExists("announcement".into()));
        }
        g.announcements
            .records
            .insert(announcement.id, announcement.clone());
        Ok(())
    }

    async fn announcement_by_id(&self, id: Id) -> StoreResult<Option<AnnouncementRecord>> {
        Ok(self.read()?.announcements.records.get(&id).cloned())
    }

    async fn update_announcement(&self, announcement: &AnnouncementRecord) -> StoreResult<()> {
        let mut g = self.write()?;
        let Some(old) = g.announcements.records.get_mut(&announcement.id) else {
            return Err(StoreError::NotFound);
        };
        let created_at = old.created_at;
        *old = announcement.clone();
        old.created_at = created_at;
        Ok(())
    }

    async fn delete_announcement(&self, id: Id) -> StoreResult<()> {
        let mut g = self.write()?;
        if g.announcements.records.remove(&id).is_none() {
            return Err(StoreError::NotFound);
        }
        g.announcements.dismissed.retain(|(a, _)| *a != id);
        g.announcements
            .reactions
            .retain(|r| r.announcement_id != id);
        Ok(())
    }

    async fn list_announcements(
        &self,
        published_only: bool,
    ) -> StoreResult<Vec<AnnouncementRecord>> {
        let g = self.read()?;
        let mut out: Vec<AnnouncementRecord> = g
            .announcements
            .records
            .values()
            .filter(|a| a.published || !published_only)
            .cloned()
            .collect();
        out.sort_by_key(chronological);
        Ok(out)
    }

    async fn dismiss_announcement(&self, account: Id, announcement: Id) -> StoreResult<bool> {
        let mut g = self.write()?;
        if !g.announcements.records.contains_key(&announcement) {
            return Err(StoreError::NotFound);
        }
        Ok(g.announcements.dismissed.insert((announcement, account)))
    }

    async fn dismissed_announcements(
        &self,
        account: Id,
        announcements: &[Id],
    ) -> StoreResult<Vec<Id>> {
        let g = self.read()?;
        let mut out: Vec<Id> = announcements
            .iter()
            .copied()
            .filter(|a| g.announcements.dismissed.contains(&(*a, account)))
            .collect();
        out.sort();
        out.dedup();
        Ok(out)
    }

    async fn add_announcement_reaction(
        &self,
        reaction: &AnnouncementReactionRecord,
    ) -> StoreResult<bool> {
        let mut g = self.write()?;
        if !g
            .announcements
            .records
            .contains_key(&reaction.announcement_id)
        {
            return Err(StoreError::NotFound);
        }
        let taken = g.announcements.reactions.iter().any(|r| {
            r.announcement_id == reaction.announcement_id
                && r.account_id == reaction.account_id
                && r.name == reaction.name
        });
        if taken {
            return Ok(false);
        }
        g.announcements.reactions.push(reaction.clone());
        Ok(true)
    }

    async fn remove_announcement_reaction(
        &self,
        announcement: Id,
        account: Id,
        name: &str,
    ) -> StoreResult<bool> {
        let mut g = self.write()?;
        let before = g.announcements.reactions.len();
        g.announcements.reactions.retain(|r| {
            !(r.announcement_id == announcement && r.account_id == account && r.name == name)
        });
        Ok(g.announcements.reactions.len() != before)
    }

    async fn announcement_reactions(
        &self,
        announcements: &[Id],
        viewer: Option<Id>,
    ) -> StoreResult<Vec<AnnouncementReactionCount>> {
        let g = self.read()?;
        // Each count with the time its name was first used, to order them as the contract says.
        let mut out: Vec<(AnnouncementReactionCount, chrono::DateTime<chrono::Utc>)> = vec![];
        for r in &g.announcements.reactions {
            if !announcements.contains(&r.announcement_id) {
                continue;
            }
            let mine = viewer == Some(r.account_id);
            match out
                .iter_mut()
                .find(|(c, _)| c.announcement_id == r.announcement_id && c.name == r.name)
            {
                Some((c, first)) => {
                    c.count += 1;
                    c.me |= mine;
                    *first = (*first).min(r.created_at);
                }
                None => out.push((
                    AnnouncementReactionCount {
                        announcement_id: r.announcement_id,
                        name: r.name.clone(),
                        custom_emoji_id: r.custom_emoji_id,
                        count: 1,
                        me: mine,
                    },
                    r.created_at,
                )),
            }
        }
        out.sort_by(|(a, at), (b, bt)| {
            (a.announcement_id, at, &a.name).cmp(&(b.announcement_id, bt, &b.name))
        });
        Ok(out.into_iter().map(|(c, _)| c).collect())
    }
}
