//! `FeedStore` for `SeaStore`: materialised home and list feeds, written in batches, read by
//! cursor pages.

use async_trait::async_trait;
use fedblog_core::pagination::Page;
use fedblog_core::store::{Feed, FeedStore};
use fedblog_core::{Id, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::OnConflict;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter};

use super::entity::{home_feed, list_feed};
use super::lists::remove_owner_list_entries;
use super::{SeaStore, backend_err, finish, paging};

/// Rows per `INSERT` (3 bind parameters each): well under SQLite's 32766 and PostgreSQL's 65535.
const INSERT_CHUNK: usize = 1000;

/// A home feed row.
fn home_row(account: Id, status: Id, author: Id) -> home_feed::ActiveModel {
    home_feed::ActiveModel {
        account_id: Set(account.as_i64()),
        status_id: Set(status.as_i64()),
        author_id: Set(author.as_i64()),
    }
}

/// A list feed row.
fn list_row(list: Id, status: Id, author: Id) -> list_feed::ActiveModel {
    list_feed::ActiveModel {
        list_id: Set(list.as_i64()),
        status_id: Set(status.as_i64()),
        author_id: Set(author.as_i64()),
    }
}

/// Feed rows are keyed on (feed, status): a second insertion is a no-op.
fn ignore_duplicates<E: EntityTrait>(key: [E::Column; 2]) -> OnConflict {
    OnConflict::columns(key).do_nothing().to_owned()
}

/// Sorted, without repeats.
fn distinct(ids: &[Id]) -> Vec<Id> {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    ids
}

impl SeaStore {
    /// Inserts feed rows in batches of `INSERT_CHUNK`, skipping rows already there: one statement
    /// when they fit, else one transaction (all or nothing).
    async fn insert_feed_rows<A>(
        &self,
        rows: Vec<A>,
        key: [<A::Entity as EntityTrait>::Column; 2],
    ) -> StoreResult<()>
    where
        A: ActiveModelTrait + Send,
    {
        if rows.is_empty() {
            return Ok(());
        }
        if rows.len() <= INSERT_CHUNK {
            <A::Entity as EntityTrait>::insert_many(rows)
                .on_conflict(ignore_duplicates::<A::Entity>(key))
                .exec_without_returning(&self.db)
                .await
                .map_err(backend_err)?;
            return Ok(());
        }
        let tx = self.begin_write().await?;
        let mut res = Ok(());
        let mut rows = rows.into_iter().peekable();
        while rows.peek().is_some() {
            let chunk: Vec<A> = rows.by_ref().take(INSERT_CHUNK).collect();
            if let Err(e) = <A::Entity as EntityTrait>::insert_many(chunk)
                .on_conflict(ignore_duplicates::<A::Entity>(key))
                .exec_without_returning(&tx)
                .await
            {
                res = Err(backend_err(e));
                break;
            }
        }
        finish(tx, res).await
    }
}

#[async_trait]
impl FeedStore for SeaStore {
    async fn insert_feed_entries(
        &self,
        status_id: Id,
        author_id: Id,
        account_ids: &[Id],
    ) -> StoreResult<()> {
        let rows = distinct(account_ids)
            .into_iter()
            .map(|a| home_row(a, status_id, author_id))
            .collect();
        self.insert_feed_rows(
            rows,
            [home_feed::Column::AccountId, home_feed::Column::StatusId],
        )
        .await
    }

    async fn home_feed(&self, account_id: Id, page: Page) -> StoreResult<Vec<Id>> {
        let q =
            home_feed::Entity::find().filter(home_feed::Column::AccountId.eq(account_id.as_i64()));
        paging::ids(&self.db, q, home_feed::Column::StatusId, &page)
            .await
            .map_err(backend_err)
    }

    async fn insert_list_entries(
        &self,
        status_id: Id,
        author_id: Id,
        list_ids: &[Id],
    ) -> StoreResult<()> {
        let rows = distinct(list_ids)
            .into_iter()
            .map(|l| list_row(l, status_id, author_id))
            .collect();
        self.insert_feed_rows(
            rows,
            [list_feed::Column::ListId, list_feed::Column::StatusId],
        )
        .await
    }

    async fn backfill_feed(&self, feed: Feed, entries: &[(Id, Id)]) -> StoreResult<()> {
        match feed {
            Feed::Home(account) => {
                let rows = entries
                    .iter()
                    .map(|(s, a)| home_row(account, *s, *a))
                    .collect();
                self.insert_feed_rows(
                    rows,
                    [home_feed::Column::AccountId, home_feed::Column::StatusId],
                )
                .await
            }
            Feed::List(list) => {
                let rows = entries
                    .iter()
                    .map(|(s, a)| list_row(list, *s, *a))
                    .collect();
                self.insert_feed_rows(
                    rows,
                    [list_feed::Column::ListId, list_feed::Column::StatusId],
                )
                .await
            }
        }
    }

    async fn list_feed(&self, list_id: Id, page: Page) -> StoreResult<Vec<Id>> {
        let q = list_feed::Entity::find().filter(list_feed::Column::ListId.eq(list_id.as_i64()));
        paging::ids(&self.db, q, list_feed::Column::StatusId, &page)
            .await
            .map_err(backend_err)
    }

    async fn remove_author_entries(&self, account: Id, author: Id) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = async {
            home_feed::Entity::delete_many()
                .filter(home_feed::Column::AccountId.eq(account.as_i64()))
                .filter(home_feed::Column::AuthorId.eq(author.as_i64()))
                .exec(&tx)
                .await?;
            remove_owner_list_entries(&tx, account.as_i64(), author.as_i64()).await?;
            Ok(())
        }
        .await
        .map_err(backend_err);
        finish(tx, res).await
    }
}
