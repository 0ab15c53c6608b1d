//! Cursor pages (`max_id`/`since_id`/`min_id`/`limit`) as SQL: bounds, order and limit on an id column.

use fedblog_core::pagination::Page;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Select};

/// Restricts `query` to the page over `id_col`. Newest first, except when reading upwards from
/// `min_id`: then the oldest `limit` ids above it come first and [`finish`] reverses them.
pub(super) fn apply<E: EntityTrait>(
    mut query: Select<E>,
    id_col: E::Column,
    page: &Page,
) -> Select<E> {
    if let Some(max) = page.max_id {
        query = query.filter(id_col.lt(max.as_i64()));
    }
    if let Some(since) = page.since_id {
        query = query.filter(id_col.gt(since.as_i64()));
    }
    if let Some(min) = page.min_id {
        query = query.filter(id_col.gt(min.as_i64()));
    }
    let query = if page.ascending() {
        query.order_by_asc(id_col)
    } else {
        query.order_by_desc(id_col)
    };
    query.limit(page.limit as u64)
}

/// Puts the rows of a page read with [`apply`] newest first.
pub(super) fn finish<T>(mut rows: Vec<T>, page: &Page) -> Vec<T> {
    if page.ascending() {
        rows.reverse();
    }
    rows
}

/// The ids in `id_col` of one page of `query`, newest first: [`apply`], then [`finish`].
pub(super) async fn ids<E: EntityTrait, C: sea_orm::ConnectionTrait>(
    db: &C,
    query: Select<E>,
    id_col: E::Column,
    page: &Page,
) -> Result<Vec<fedblog_core::Id>, sea_orm::DbErr> {
    let ids: Vec<i64> = apply(query, id_col, page)
        .select_only()
        .column(id_col)
        .into_tuple()
        .all(db)
        .await?;
    Ok(finish(ids, page)
        .into_iter()
        .map(fedblog_core::Id::from_i64)
        .collect())
}
