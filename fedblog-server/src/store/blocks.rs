//! `BlockStore` for `SeaStore`: blocks (which sever follows and follow requests) and mutes.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use fedblog_core::pagination::Page;
use fedblog_core::store::{BlockStore, MuteRecord, RelationRecord};
use fedblog_core::{Id, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::{ColumnTrait, Condition, EntityTrait, QueryFilter, QuerySelect};

use super::entity::{blocks, follow_requests, mutes};
use super::follows::delete_follow_rows;
use super::pairs::{Pair, fits_one_query, tagged_union};
use super::{SeaStore, backend_err, finish, paging};

/// A block: one per account and blocked account.
const BLOCKED: Pair<blocks::Column> = Pair {
    owner: blocks::Column::AccountId,
    other: blocks::Column::TargetId,
};

/// A block seen from the blocked side: `owner` is blocked by `other`.
const BLOCKED_BY: Pair<blocks::Column> = Pair {
    owner: blocks::Column::TargetId,
    other: blocks::Column::AccountId,
};

/// A mute: one per account and muted account.
const MUTED: Pair<mutes::Column> = Pair {
    owner: mutes::Column::AccountId,
    other: mutes::Column::TargetId,
};

/// Mutes in force at `now`: no end, or an end after `now` (`expires_at <= now` has expired).
fn in_force(now: DateTime<Utc>) -> Condition {
    Condition::any()
        .add(mutes::Column::ExpiresAt.is_null())
        .add(mutes::Column::ExpiresAt.gt(now))
}

fn mute_record(m: mutes::Model) -> MuteRecord {
    MuteRecord {
        id: Id::from_i64(m.id),
        account_id: Id::from_i64(m.account_id),
        target_id: Id::from_i64(m.target_id),
        notifications: m.notifications,
        expires_at: m.expires_at,
    }
}

fn raw_ids(ids: &[Id]) -> Vec<i64> {
    ids.iter().map(|i| i.as_i64()).collect()
}

/// Sorted, deduplicated store ids.
fn sorted_ids(rows: Vec<i64>) -> Vec<Id> {
    let mut ids: Vec<Id> = rows.into_iter().map(Id::from_i64).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

#[async_trait]
impl BlockStore for SeaStore {
    async fn insert_block(&self, id: Id, account: Id, target: Id) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = async {
            let row = blocks::ActiveModel {
                id: Set(id.as_i64()),
                account_id: Set(account.as_i64()),
                target_id: Set(target.as_i64()),
                created_at: Set(Utc::now()),
            };
            BLOCKED.insert(&tx, row).await?;
            delete_follow_rows(&tx, account, target).await?;
            delete_follow_rows(&tx, target, account).await?;
            let pair = |a: Id, b: Id| {
                Condition::all()
                    .add(follow_requests::Column::FollowerId.eq(a.as_i64()))
                    .add(follow_requests::Column::TargetId.eq(b.as_i64()))
            };
            follow_requests::Entity::delete_many()
                .filter(
                    Condition::any()
                        .add(pair(account, target))
                        .add(pair(target, account)),
                )
                .exec(&tx)
                .await
                .map_err(backend_err)?;
            Ok(())
        }
        .await;
        finish(tx, res).await
    }

    async fn delete_block(&self, account: Id, target: Id) -> StoreResult<bool> {
        BLOCKED.delete(&self.db, account, target.as_i64()).await
    }

    async fn blocks(&self, account: Id, target: Id) -> StoreResult<bool> {
        BLOCKED.exists(&self.db, account, target.as_i64()).await
    }

    async fn blocked_either_way(&self, account: Id, others: &[Id]) -> StoreResult<Vec<Id>> {
        if others.is_empty() {
            return Ok(vec![]);
        }
        let others = raw_ids(others);
        let mut rows: Vec<i64> = blocks::Entity::find()
            .select_only()
            .column(blocks::Column::TargetId)
            .filter(blocks::Column::AccountId.eq(account.as_i64()))
            .filter(blocks::Column::TargetId.is_in(others.clone()))
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        let blockers: Vec<i64> = blocks::Entity::find()
            .select_only()
            .column(blocks::Column::AccountId)
            .filter(blocks::Column::TargetId.eq(account.as_i64()))
            .filter(blocks::Column::AccountId.is_in(others))
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        rows.extend(blockers);
        Ok(sorted_ids(rows))
    }

    async fn blocks_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        BLOCKED
            .id_page(&self.db, blocks::Column::Id, account, &page)
            .await
    }

    async fn upsert_mute(&self, mute: &MuteRecord) -> StoreResult<()> {
        let row = mutes::ActiveModel {
            id: Set(mute.id.as_i64()),
            account_id: Set(mute.account_id.as_i64()),
            target_id: Set(mute.target_id.as_i64()),
            notifications: Set(mute.notifications),
            expires_at: Set(mute.expires_at),
            created_at: Set(Utc::now()),
        };
        let update = [mutes::Column::Notifications, mutes::Column::ExpiresAt];
        MUTED.upsert(&self.db, row, update).await
    }

    async fn delete_mute(&self, account: Id, target: Id) -> StoreResult<bool> {
        MUTED.delete(&self.db, account, target.as_i64()).await
    }

    async fn mute_of(
        &self,
        account: Id,
        target: Id,
        now: DateTime<Utc>,
    ) -> StoreResult<Option<MuteRecord>> {
        let row = mutes::Entity::find()
            .filter(mutes::Column::AccountId.eq(account.as_i64()))
            .filter(mutes::Column::TargetId.eq(target.as_i64()))
            .filter(in_force(now))
            .one(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(row.map(mute_record))
    }

    async fn relations_among(
        &self,
        account: Id,
        others: &[Id],
        now: DateTime<Utc>,
    ) -> StoreResult<Vec<RelationRecord>> {
        if others.is_empty() {
            return Ok(vec![]);
        }
        if !fits_one_query(others) {
            // The trait's way: several chunked queries.
            let mut out = std::collections::BTreeMap::new();
            for other in self.blocked_either_way(account, others).await? {
                let r = out
                    .entry(other)
                    .or_insert_with(|| RelationRecord::new(other));
                r.blocking = BLOCKED.exists(&self.db, account, other.as_i64()).await?;
                r.blocked_by = BLOCKED.exists(&self.db, other, account.as_i64()).await?;
            }
            for other in self.muted_among(account, others, now).await? {
                out.entry(other)
                    .or_insert_with(|| RelationRecord::new(other))
                    .muting = true;
            }
            return Ok(out.into_values().collect());
        }
        let rows = tagged_union(
            &self.db,
            vec![
                BLOCKED.among_tagged("blocking", account, others, Condition::all()),
                BLOCKED_BY.among_tagged("blocked_by", account, others, Condition::all()),
                MUTED.among_tagged("muting", account, others, in_force(now)),
            ],
        )
        .await?;
        let mut out: std::collections::BTreeMap<Id, RelationRecord> = Default::default();
        for (kind, other) in rows {
            let r = out
                .entry(other)
                .or_insert_with(|| RelationRecord::new(other));
            match kind.as_str() {
                "blocking" => r.blocking = true,
                "blocked_by" => r.blocked_by = true,
                _ => r.muting = true,
            }
        }
        Ok(out.into_values().collect())
    }

    async fn has_relations(&self, account: Id) -> StoreResult<bool> {
        let id = account.as_i64();
        let block = blocks::Entity::find()
            .select_only()
            .column(blocks::Column::Id)
            .filter(
                Condition::any()
                    .add(blocks::Column::AccountId.eq(id))
                    .add(blocks::Column::TargetId.eq(id)),
            )
            .into_tuple::<i64>()
            .one(&self.db)
            .await
            .map_err(backend_err)?;
        if block.is_some() {
            return Ok(true);
        }
        let mute = mutes::Entity::find()
            .select_only()
            .column(mutes::Column::Id)
            .filter(mutes::Column::AccountId.eq(id))
            .into_tuple::<i64>()
            .one(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(mute.is_some())
    }

    async fn muted_among(
        &self,
        account: Id,
        others: &[Id],
        now: DateTime<Utc>,
    ) -> StoreResult<Vec<Id>> {
        if others.is_empty() {
            return Ok(vec![]);
        }
        let rows: Vec<i64> = mutes::Entity::find()
            .select_only()
            .column(mutes::Column::TargetId)
            .filter(mutes::Column::AccountId.eq(account.as_i64()))
            .filter(mutes::Column::TargetId.is_in(raw_ids(others)))
            .filter(in_force(now))
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(sorted_ids(rows))
    }

    async fn mutes_page(
        &self,
        account: Id,
        now: DateTime<Utc>,
        page: Page,
    ) -> StoreResult<Vec<MuteRecord>> {
        let q = mutes::Entity::find()
            .filter(mutes::Column::AccountId.eq(account.as_i64()))
            .filter(in_force(now));
        let rows = paging::apply(q, mutes::Column::Id, &page)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(paging::finish(rows, &page)
            .into_iter()
            .map(mute_record)
            .collect())
    }
}
