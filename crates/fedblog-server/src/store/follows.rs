//! `FollowStore` for `SeaStore`: follow rows and the follower/following counters they move.

use async_trait::async_trait;
use chrono::Utc;
use fedblog_core::pagination::Page;
use fedblog_core::store::FollowStore;
use fedblog_core::{Id, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use super::entity::{accounts, follow_requests, follows};
use super::{SeaStore, backend_err, finish, paging};

/// Adds `delta` (+1 or -1) to a counter column of one account, never going below zero.
async fn bump<C: ConnectionTrait>(
    db: &C,
    account: Id,
    col: accounts::Column,
    delta: i64,
) -> StoreResult<()> {
    let cur = Expr::col(col);
    let next = Expr::case(cur.clone().add(delta).gt(0), cur.add(delta)).finally(0);
    accounts::Entity::update_many()
        .col_expr(col, next.into())
        .filter(accounts::Column::Id.eq(account.as_i64()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    Ok(())
}

async fn insert_follow_rows<C: ConnectionTrait>(
    db: &C,
    id: Id,
    follower: Id,
    target: Id,
) -> StoreResult<()> {
    let row = follows::ActiveModel {
        follower_id: Set(follower.as_i64()),
        target_id: Set(target.as_i64()),
        id: Set(id.as_i64()),
    };
    let inserted = follows::Entity::insert(row)
        .on_conflict(
            OnConflict::columns([follows::Column::FollowerId, follows::Column::TargetId])
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(db)
        .await
        .map_err(backend_err)?;
    if inserted == 1 {
        bump(db, follower, accounts::Column::FollowingCount, 1).await?;
        bump(db, target, accounts::Column::FollowersCount, 1).await?;
    }
    Ok(())
}

/// Deletes a follow and moves both counters back; returns whether it existed.
pub(super) async fn delete_follow_rows<C: ConnectionTrait>(
    db: &C,
    follower: Id,
    target: Id,
) -> StoreResult<bool> {
    let res = follows::Entity::delete_many()
        .filter(follows::Column::FollowerId.eq(follower.as_i64()))
        .filter(follows::Column::TargetId.eq(target.as_i64()))
        .exec(db)
        .await
        .map_err(backend_err)?;
    if res.rows_affected == 0 {
        return Ok(false);
    }
    bump(db, follower, accounts::Column::FollowingCount, -1).await?;
    bump(db, target, accounts::Column::FollowersCount, -1).await?;
    Ok(true)
}

#[async_trait]
impl FollowStore for SeaStore {
    async fn insert_follow(&self, id: Id, follower: Id, target: Id) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = insert_follow_rows(&tx, id, follower, target).await;
        finish(tx, res).await
    }

    async fn delete_follow(&self, follower: Id, target: Id) -> StoreResult<bool> {
        let tx = self.begin_write().await?;
        let res = delete_follow_rows(&tx, follower, target).await;
        finish(tx, res).await
    }

    async fn follows(&self, follower: Id, target: Id) -> StoreResult<bool> {
        let row = follows::Entity::find_by_id((follower.as_i64(), target.as_i64()))
            .one(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(row.is_some())
    }

    async fn local_follower_ids(&self, target: Id) -> StoreResult<Vec<Id>> {
        let ids: Vec<i64> = follows::Entity::find()
            .select_only()
            .column(follows::Column::FollowerId)
            .inner_join(accounts::Entity)
            .filter(follows::Column::TargetId.eq(target.as_i64()))
            .filter(accounts::Column::Domain.is_null())
            .order_by_asc(follows::Column::FollowerId)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(ids.into_iter().map(Id::from_i64).collect())
    }

    async fn followers_page(&self, target: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        let q = follows::Entity::find().filter(follows::Column::TargetId.eq(target.as_i64()));
        let rows: Vec<(i64, i64)> = paging::apply(q, follows::Column::Id, &page)
            .select_only()
            .column(follows::Column::Id)
            .column(follows::Column::FollowerId)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(pairs(paging::finish(rows, &page)))
    }

    async fn following_page(&self, follower: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        let q = follows::Entity::find().filter(follows::Column::FollowerId.eq(follower.as_i64()));
        let rows: Vec<(i64, i64)> = paging::apply(q, follows::Column::Id, &page)
            .select_only()
            .column(follows::Column::Id)
            .column(follows::Column::TargetId)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(pairs(paging::finish(rows, &page)))
    }

    async fn insert_follow_request(&self, id: Id, follower: Id, target: Id) -> StoreResult<()> {
        let row = follow_requests::ActiveModel {
            id: Set(id.as_i64()),
            follower_id: Set(follower.as_i64()),
            target_id: Set(target.as_i64()),
            created_at: Set(Utc::now()),
        };
        follow_requests::Entity::insert(row)
            .on_conflict(
                OnConflict::columns([
                    follow_requests::Column::FollowerId,
                    follow_requests::Column::TargetId,
                ])
                .do_nothing()
                .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(())
    }

    async fn delete_follow_request(&self, follower: Id, target: Id) -> StoreResult<bool> {
        let res = follow_requests::Entity::delete_many()
            .filter(follow_requests::Column::FollowerId.eq(follower.as_i64()))
            .filter(follow_requests::Column::TargetId.eq(target.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn follow_requested(&self, follower: Id, target: Id) -> StoreResult<bool> {
        let row: Option<i64> = follow_requests::Entity::find()
            .select_only()
            .column(follow_requests::Column::Id)
            .filter(follow_requests::Column::FollowerId.eq(follower.as_i64()))
            .filter(follow_requests::Column::TargetId.eq(target.as_i64()))
            .into_tuple()
            .one(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(row.is_some())
    }

    async fn follow_requests_page(&self, target: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        let q = follow_requests::Entity::find()
            .filter(follow_requests::Column::TargetId.eq(target.as_i64()));
        let rows: Vec<(i64, i64)> = paging::apply(q, follow_requests::Column::Id, &page)
            .select_only()
            .column(follow_requests::Column::Id)
            .column(follow_requests::Column::FollowerId)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(pairs(paging::finish(rows, &page)))
    }
}

/// `(id, account id)` rows as store ids.
fn pairs(rows: Vec<(i64, i64)>) -> Vec<(Id, Id)> {
    rows.into_iter()
        .map(|(a, b)| (Id::from_i64(a), Id::from_i64(b)))
        .collect()
}
