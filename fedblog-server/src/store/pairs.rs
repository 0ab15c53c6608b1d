//! Tables with one row per (owner, other) pair: follows, follow requests, blocks, mutes,
//! endorsements, notes, domain blocks, tag follows, favourites, bookmarks, pins, conversation
//! mutes, and reblogs (one per account and status). The idempotent insert, the delete, the
//! existence check, the `_among` lookup and the cursor page each of them repeats, written once.

use fedblog_core::pagination::Page;
use fedblog_core::{Id, StoreResult};
use sea_orm::sea_query::{Expr, OnConflict, SelectStatement, UnionType};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter,
    QuerySelect, QueryTrait, StatementBuilder, TryGetableMany, Value,
};

use super::{IN_CHUNK, backend_err, paging};

/// The pair columns of a table: `owner` holds an account id, `other` what the account relates
/// to (an account, a domain, a tag). Unique together in every table this names.
#[derive(Clone, Copy)]
pub(super) struct Pair<Col> {
    /// The owning account's column.
    pub owner: Col,
    /// The other side's column.
    pub other: Col,
}

impl<Col> Pair<Col>
where
    Col: ColumnTrait,
    Col::EntityName: EntityTrait<Column = Col>,
{
    /// Inserts `row` unless its pair has a row already; returns the rows inserted (0 or 1).
    pub async fn insert<A, C>(self, db: &C, row: A) -> StoreResult<u64>
    where
        A: ActiveModelTrait<Entity = Col::EntityName>,
        C: ConnectionTrait,
    {
        let on_conflict = OnConflict::columns([self.owner, self.other])
            .do_nothing()
            .to_owned();
        insert_on_conflict(db, row, on_conflict).await
    }

    /// Inserts `row`, or gives the row of its pair `row`'s values of the `update` columns.
    pub async fn upsert<A, C>(
        self,
        db: &C,
        row: A,
        update: impl IntoIterator<Item = Col>,
    ) -> StoreResult<()>
    where
        A: ActiveModelTrait<Entity = Col::EntityName>,
        C: ConnectionTrait,
    {
        let on_conflict = OnConflict::columns([self.owner, self.other])
            .update_columns(update)
            .to_owned();
        insert_on_conflict(db, row, on_conflict).await.map(|_| ())
    }

    /// Deletes the row of (`owner`, `other`); returns whether it existed.
    pub async fn delete<C: ConnectionTrait>(
        self,
        db: &C,
        owner: Id,
        other: impl Into<Value>,
    ) -> StoreResult<bool> {
        let res = Col::EntityName::delete_many()
            .filter(self.owner.eq(owner.as_i64()))
            .filter(self.other.eq(other))
            .exec(db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    /// Whether (`owner`, `other`) has a row (reading only its owner column).
    pub async fn exists<C: ConnectionTrait>(
        self,
        db: &C,
        owner: Id,
        other: impl Into<Value>,
    ) -> StoreResult<bool> {
        let row: Option<i64> = Col::EntityName::find()
            .select_only()
            .column(self.owner)
            .filter(self.owner.eq(owner.as_i64()))
            .filter(self.other.eq(other))
            .into_tuple()
            .one(db)
            .await
            .map_err(backend_err)?;
        Ok(row.is_some())
    }

    /// The ids among `others` that `owner` has a row with, sorted (an `other` column holding
    /// an id; one indexed lookup per chunk of ids).
    pub async fn among<C: ConnectionTrait>(
        self,
        db: &C,
        owner: Id,
        others: &[Id],
    ) -> StoreResult<Vec<Id>> {
        let mut wanted: Vec<i64> = others.iter().map(|i| i.as_i64()).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let mut found: Vec<i64> = Vec::new();
        for chunk in wanted.chunks(IN_CHUNK) {
            let rows: Vec<i64> = Col::EntityName::find()
                .select_only()
                .column(self.other)
                .filter(self.owner.eq(owner.as_i64()))
                .filter(self.other.is_in(chunk.iter().copied()))
                .into_tuple()
                .all(db)
                .await
                .map_err(backend_err)?;
            found.extend(rows);
        }
        found.sort_unstable();
        found.dedup();
        Ok(found.into_iter().map(Id::from_i64).collect())
    }

    /// The query of [`Pair::among`] (for at most [`IN_CHUNK`] ids) with `extra` conditions, its
    /// rows tagged: `(kind, other)`, for [`tagged_union`].
    pub fn among_tagged(
        self,
        kind: &'static str,
        owner: Id,
        others: &[Id],
        extra: Condition,
    ) -> SelectStatement {
        Col::EntityName::find()
            .select_only()
            .expr_as(Expr::val(kind), "kind")
            .column_as(self.other, "other")
            .filter(self.owner.eq(owner.as_i64()))
            .filter(self.other.is_in(others.iter().map(|i| i.as_i64())))
            .filter(extra)
            .into_query()
    }

    /// `(row id, other)` of `owner`'s rows: the page over the row id column `cursor`, newest
    /// first.
    pub async fn page<V, C>(
        self,
        db: &C,
        cursor: Col,
        owner: Id,
        page: &Page,
    ) -> StoreResult<Vec<(Id, V)>>
    where
        (i64, V): TryGetableMany,
        C: ConnectionTrait,
    {
        let q = Col::EntityName::find().filter(self.owner.eq(owner.as_i64()));
        let rows: Vec<(i64, V)> = paging::apply(q, cursor, page)
            .select_only()
            .column(cursor)
            .column(self.other)
            .into_tuple()
            .all(db)
            .await
            .map_err(backend_err)?;
        Ok(paging::finish(rows, page)
            .into_iter()
            .map(|(id, other)| (Id::from_i64(id), other))
            .collect())
    }

    /// [`Pair::page`] for an `other` column holding an id (an account's, most often).
    pub async fn id_page<C: ConnectionTrait>(
        self,
        db: &C,
        cursor: Col,
        owner: Id,
        page: &Page,
    ) -> StoreResult<Vec<(Id, Id)>> {
        let rows: Vec<(Id, i64)> = self.page(db, cursor, owner, page).await?;
        Ok(rows
            .into_iter()
            .map(|(id, other)| (id, Id::from_i64(other)))
            .collect())
    }
}

async fn insert_on_conflict<A, C>(db: &C, row: A, on_conflict: OnConflict) -> StoreResult<u64>
where
    A: ActiveModelTrait,
    C: ConnectionTrait,
{
    <A::Entity as EntityTrait>::insert(row)
        .on_conflict(on_conflict)
        .exec_without_returning(db)
        .await
        .map_err(backend_err)
}

/// Runs several [`Pair::among_tagged`] queries as one (`UNION ALL`): the `(kind, other)` rows of
/// all of them. Empty when `queries` is.
pub(super) async fn tagged_union<C: ConnectionTrait>(
    db: &C,
    queries: Vec<SelectStatement>,
) -> StoreResult<Vec<(String, Id)>> {
    let mut queries = queries.into_iter();
    let Some(mut first) = queries.next() else {
        return Ok(vec![]);
    };
    for q in queries {
        first.union(UnionType::All, q);
    }
    let statement = StatementBuilder::build(&first, &db.get_database_backend());
    let rows = db.query_all_raw(statement).await.map_err(backend_err)?;
    rows.iter()
        .map(|row| {
            let kind: String = row.try_get("", "kind").map_err(backend_err)?;
            let other: i64 = row.try_get("", "other").map_err(backend_err)?;
            Ok((kind, Id::from_i64(other)))
        })
        .collect()
}

/// Whether `ids` fit one [`Pair::among_tagged`] query (larger sets take the chunked methods).
pub(super) fn fits_one_query(ids: &[Id]) -> bool {
    ids.len() <= IN_CHUNK
}
