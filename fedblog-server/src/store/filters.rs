//! `FilterStore` for `SeaStore`: filters, their keywords and their statuses.

use std::collections::HashMap;

use async_trait::async_trait;
use fedblog_core::store::{
    FilterAction, FilterContext, FilterKeywordRecord, FilterRecord, FilterStatusRecord, FilterStore,
};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use super::entity::{filter_keywords, filter_statuses, filters};
use super::{IN_CHUNK, SeaStore, backend_err, finish};

fn context_text(context: &[FilterContext]) -> String {
    context
        .iter()
        .map(|c| c.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

fn keyword_from_row(k: filter_keywords::Model) -> FilterKeywordRecord {
    FilterKeywordRecord {
        id: Id::from_i64(k.id),
        filter_id: Id::from_i64(k.filter_id),
        keyword: k.keyword,
        whole_word: k.whole_word,
    }
}

fn status_from_row(s: filter_statuses::Model) -> FilterStatusRecord {
    FilterStatusRecord {
        id: Id::from_i64(s.id),
        filter_id: Id::from_i64(s.filter_id),
        status_id: Id::from_i64(s.status_id),
    }
}

fn keyword_row(k: &FilterKeywordRecord, filter: Id) -> filter_keywords::ActiveModel {
    filter_keywords::ActiveModel {
        id: Set(k.id.as_i64()),
        filter_id: Set(filter.as_i64()),
        keyword: Set(k.keyword.clone()),
        whole_word: Set(k.whole_word),
    }
}

/// Filter rows with their keywords and statuses, read in two more queries (per chunk of ids).
async fn assemble<C: ConnectionTrait>(
    db: &C,
    rows: Vec<filters::Model>,
) -> StoreResult<Vec<FilterRecord>> {
    let ids: Vec<i64> = rows.iter().map(|f| f.id).collect();
    let mut keywords: HashMap<i64, Vec<FilterKeywordRecord>> = HashMap::new();
    let mut statuses: HashMap<i64, Vec<FilterStatusRecord>> = HashMap::new();
    for chunk in ids.chunks(IN_CHUNK) {
        for k in filter_keywords::Entity::find()
            .filter(filter_keywords::Column::FilterId.is_in(chunk.iter().copied()))
            .order_by_asc(filter_keywords::Column::Id)
            .all(db)
            .await
            .map_err(backend_err)?
        {
            keywords
                .entry(k.filter_id)
                .or_default()
                .push(keyword_from_row(k));
        }
        for s in filter_statuses::Entity::find()
            .filter(filter_statuses::Column::FilterId.is_in(chunk.iter().copied()))
            .order_by_asc(filter_statuses::Column::Id)
            .all(db)
            .await
            .map_err(backend_err)?
        {
            statuses
                .entry(s.filter_id)
                .or_default()
                .push(status_from_row(s));
        }
    }
    rows.into_iter()
        .map(|f| {
            let context = f
                .context
                .split(',')
                .filter(|c| !c.is_empty())
                .map(|c| {
                    FilterContext::parse(c).ok_or_else(|| {
                        StoreError::Backend(format!("filter {}: unknown context {c:?}", f.id))
                    })
                })
                .collect::<StoreResult<Vec<_>>>()?;
            let action = FilterAction::parse(&f.action).ok_or_else(|| {
                StoreError::Backend(format!("filter {}: unknown action {:?}", f.id, f.action))
            })?;
            Ok(FilterRecord {
                id: Id::from_i64(f.id),
                account_id: Id::from_i64(f.account_id),
                keywords: keywords.remove(&f.id).unwrap_or_default(),
                statuses: statuses.remove(&f.id).unwrap_or_default(),
                title: f.title,
                context,
                action,
                expires_at: f.expires_at,
                created_at: f.created_at,
            })
        })
        .collect()
}

/// Whether every keyword of `ids` belongs to `filter`.
async fn keywords_of<C: ConnectionTrait>(db: &C, filter: i64, ids: &[i64]) -> StoreResult<bool> {
    if ids.is_empty() {
        return Ok(true);
    }
    let mut wanted = ids.to_vec();
    wanted.sort_unstable();
    wanted.dedup();
    let found = filter_keywords::Entity::find()
        .filter(filter_keywords::Column::FilterId.eq(filter))
        .filter(filter_keywords::Column::Id.is_in(wanted.iter().copied()))
        .all(db)
        .await
        .map_err(backend_err)?;
    Ok(found.len() == wanted.len())
}

/// Removes the filters `which` selects, with their keywords and statuses; returns how many.
pub(super) async fn delete_filters<C: ConnectionTrait>(
    db: &C,
    which: impl Fn() -> sea_orm::sea_query::SelectStatement,
) -> Result<u64, sea_orm::DbErr> {
    filter_keywords::Entity::delete_many()
        .filter(filter_keywords::Column::FilterId.in_subquery(which()))
        .exec(db)
        .await?;
    filter_statuses::Entity::delete_many()
        .filter(filter_statuses::Column::FilterId.in_subquery(which()))
        .exec(db)
        .await?;
    Ok(filters::Entity::delete_many()
        .filter(filters::Column::Id.in_subquery(which()))
        .exec(db)
        .await?
        .rows_affected)
}

/// The ids of `account`'s filters, as a subquery.
pub(super) fn filters_of_account(account: i64) -> sea_orm::sea_query::SelectStatement {
    Query::select()
        .column(filters::Column::Id)
        .from(filters::Entity)
        .and_where(filters::Column::AccountId.eq(account))
        .to_owned()
}

async fn filter_exists<C: ConnectionTrait>(db: &C, id: Id) -> StoreResult<bool> {
    Ok(filters::Entity::find_by_id(id.as_i64())
        .one(db)
        .await
        .map_err(backend_err)?
        .is_some())
}

impl SeaStore {
    /// Inserts a row belonging to filter `filter` (a keyword, a filter status) if the filter
    /// exists (`NotFound` otherwise), in one transaction.
    async fn insert_in_filter<A>(&self, filter: Id, row: A) -> StoreResult<()>
    where
        A: sea_orm::ActiveModelTrait + Send,
    {
        let tx = self.begin_write().await?;
        let res = async {
            if !filter_exists(&tx, filter).await? {
                return Err(StoreError::NotFound);
            }
            A::Entity::insert(row)
                .exec_without_returning(&tx)
                .await
                .map_err(backend_err)?;
            Ok(())
        }
        .await;
        finish(tx, res).await
    }
}

#[async_trait]
impl FilterStore for SeaStore {
    async fn insert_filter(&self, filter: &FilterRecord) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = async {
            filters::Entity::insert(filters::ActiveModel {
                id: Set(filter.id.as_i64()),
                account_id: Set(filter.account_id.as_i64()),
                title: Set(filter.title.clone()),
                context: Set(context_text(&filter.context)),
                action: Set(filter.action.as_str().to_string()),
                expires_at: Set(filter.expires_at),
                created_at: Set(filter.created_at),
            })
            .exec_without_returning(&tx)
            .await
            .map_err(backend_err)?;
            if !filter.keywords.is_empty() {
                filter_keywords::Entity::insert_many(
                    filter.keywords.iter().map(|k| keyword_row(k, filter.id)),
                )
                .exec_without_returning(&tx)
                .await
                .map_err(backend_err)?;
            }
            Ok(())
        }
        .await;
        finish(tx, res).await
    }

    async fn filter_by_id(&self, id: Id) -> StoreResult<Option<FilterRecord>> {
        let rows = filters::Entity::find_by_id(id.as_i64())
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(assemble(&self.db, rows).await?.pop())
    }

    async fn filters_of(&self, account: Id) -> StoreResult<Vec<FilterRecord>> {
        let rows = filters::Entity::find()
            .filter(filters::Column::AccountId.eq(account.as_i64()))
            .order_by_asc(filters::Column::Id)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        assemble(&self.db, rows).await
    }

    async fn update_filter(
        &self,
        filter: &FilterRecord,
        added: &[FilterKeywordRecord],
        changed: &[FilterKeywordRecord],
        removed: &[Id],
    ) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = async {
            let id = filter.id.as_i64();
            if !filter_exists(&tx, filter.id).await? {
                return Err(StoreError::NotFound);
            }
            let named: Vec<i64> = removed
                .iter()
                .copied()
                .chain(changed.iter().map(|k| k.id))
                .map(|i| i.as_i64())
                .collect();
            if !keywords_of(&tx, id, &named).await? {
                return Err(StoreError::NotFound);
            }
            filters::Entity::update_many()
                .set(filters::ActiveModel {
                    title: Set(filter.title.clone()),
                    context: Set(context_text(&filter.context)),
                    action: Set(filter.action.as_str().to_string()),
                    expires_at: Set(filter.expires_at),
                    ..Default::default()
                })
                .filter(filters::Column::Id.eq(id))
                .exec(&tx)
                .await
                .map_err(backend_err)?;
            if !removed.is_empty() {
                filter_keywords::Entity::delete_many()
                    .filter(filter_keywords::Column::Id.is_in(removed.iter().map(|i| i.as_i64())))
                    .exec(&tx)
                    .await
                    .map_err(backend_err)?;
            }
            for k in changed {
                filter_keywords::Entity::update_many()
                    .set(filter_keywords::ActiveModel {
                        keyword: Set(k.keyword.clone()),
                        whole_word: Set(k.whole_word),
                        ..Default::default()
                    })
                    .filter(filter_keywords::Column::Id.eq(k.id.as_i64()))
                    .exec(&tx)
                    .await
                    .map_err(backend_err)?;
            }
            if !added.is_empty() {
                filter_keywords::Entity::insert_many(
                    added.iter().map(|k| keyword_row(k, filter.id)),
                )
                .exec_without_returning(&tx)
                .await
                .map_err(backend_err)?;
            }
            Ok(())
        }
        .await;
        finish(tx, res).await
    }

    async fn delete_filter(&self, id: Id) -> StoreResult<bool> {
        let tx = self.begin_write().await?;
        let res = delete_filters(&tx, || {
            Query::select()
                .column(filters::Column::Id)
                .from(filters::Entity)
                .and_where(filters::Column::Id.eq(id.as_i64()))
                .to_owned()
        })
        .await
        .map_err(backend_err);
        finish(tx, res).await.map(|n| n > 0)
    }

    async fn filter_keyword_by_id(&self, id: Id) -> StoreResult<Option<FilterKeywordRecord>> {
        Ok(filter_keywords::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(keyword_from_row))
    }

    async fn insert_filter_keyword(&self, keyword: &FilterKeywordRecord) -> StoreResult<()> {
        self.insert_in_filter(keyword.filter_id, keyword_row(keyword, keyword.filter_id))
            .await
    }

    async fn update_filter_keyword(&self, keyword: &FilterKeywordRecord) -> StoreResult<bool> {
        let res = filter_keywords::Entity::update_many()
            .set(filter_keywords::ActiveModel {
                keyword: Set(keyword.keyword.clone()),
                whole_word: Set(keyword.whole_word),
                ..Default::default()
            })
            .filter(filter_keywords::Column::Id.eq(keyword.id.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn delete_filter_keyword(&self, id: Id) -> StoreResult<bool> {
        let res = filter_keywords::Entity::delete_by_id(id.as_i64())
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn filter_status_by_id(&self, id: Id) -> StoreResult<Option<FilterStatusRecord>> {
        Ok(filter_statuses::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(status_from_row))
    }

    async fn insert_filter_status(&self, status: &FilterStatusRecord) -> StoreResult<()> {
        let row = filter_statuses::ActiveModel {
            id: Set(status.id.as_i64()),
            filter_id: Set(status.filter_id.as_i64()),
            status_id: Set(status.status_id.as_i64()),
        };
        self.insert_in_filter(status.filter_id, row).await
    }

    async fn delete_filter_status(&self, id: Id) -> StoreResult<bool> {
        let res = filter_statuses::Entity::delete_by_id(id.as_i64())
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }
}
