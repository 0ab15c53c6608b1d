//! `FeedStore` for `SeaStore`: materialised home feeds, written in batches, read by cursor pages.

use async_trait::async_trait;
use fedblog_core::pagination::Page;
use fedblog_core::store::FeedStore;
use fedblog_core::{Id, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QuerySelect};

use super::entity::home_feed;
use super::{SeaStore, backend_err, finish, paging};

/// Rows per `INSERT` (3 bind parameters each): well under SQLite's 32766 and PostgreSQL's 65535.
const INSERT_CHUNK: usize = 1000;

#[async_trait]
impl FeedStore for SeaStore {
    async fn insert_feed_entries(
        &self,
        status_id: Id,
        author_id: Id,
        account_ids: &[Id],
    ) -> StoreResult<()> {
        let mut ids: Vec<i64> = account_ids.iter().map(|a| a.as_i64()).collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.is_empty() {
            return Ok(());
        }
        let rows = |chunk: &[i64]| {
            chunk
                .iter()
                .map(|a| home_feed::ActiveModel {
                    account_id: Set(*a),
                    status_id: Set(status_id.as_i64()),
                    author_id: Set(author_id.as_i64()),
                })
                .collect::<Vec<_>>()
        };
        let on_conflict = || {
            OnConflict::columns([home_feed::Column::AccountId, home_feed::Column::StatusId])
                .do_nothing()
                .to_owned()
        };
        if ids.len() <= INSERT_CHUNK {
            home_feed::Entity::insert_many(rows(&ids))
                .on_conflict(on_conflict())
                .exec_without_returning(&self.db)
                .await
                .map_err(backend_err)?;
            return Ok(());
        }
        // Very large fan-outs: several batched inserts, all or nothing.
        let tx = self.begin_write().await?;
        let mut res = Ok(());
        for chunk in ids.chunks(INSERT_CHUNK) {
            if let Err(e) = home_feed::Entity::insert_many(rows(chunk))
                .on_conflict(on_conflict())
                .exec_without_returning(&tx)
                .await
            {
                res = Err(backend_err(e));
                break;
            }
        }
        finish(tx, res).await
    }

    async fn home_feed(&self, account_id: Id, page: Page) -> StoreResult<Vec<Id>> {
        let q =
            home_feed::Entity::find().filter(home_feed::Column::AccountId.eq(account_id.as_i64()));
        let ids: Vec<i64> = paging::apply(q, home_feed::Column::StatusId, &page)
            .select_only()
            .column(home_feed::Column::StatusId)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(paging::finish(ids, &page)
            .into_iter()
            .map(Id::from_i64)
            .collect())
    }
}
