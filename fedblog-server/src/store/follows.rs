//! `FollowStore` for `SeaStore`: follow rows and the follower/following counters they move.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use fedblog_core::pagination::Page;
use fedblog_core::store::{FollowRecord, FollowStore};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{Expr, ExprTrait, JoinType, Order, Query};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};

use super::entity::{accounts, blocks, follow_requests, follows, mutes};
use super::pairs::Pair;
use super::{IN_CHUNK, SeaStore, backend_err, finish};

/// A follow, read from the follower: one per follower and target.
const FOLLOWING: Pair<follows::Column> = Pair {
    owner: follows::Column::FollowerId,
    other: follows::Column::TargetId,
};

/// A follow, read from the target (for its followers).
const FOLLOWERS: Pair<follows::Column> = Pair {
    owner: follows::Column::TargetId,
    other: follows::Column::FollowerId,
};

/// A follow request, read from the follower: one per follower and target.
const REQUESTED: Pair<follow_requests::Column> = Pair {
    owner: follow_requests::Column::FollowerId,
    other: follow_requests::Column::TargetId,
};

/// A follow request, read from the target (for its requests).
const REQUESTERS: Pair<follow_requests::Column> = Pair {
    owner: follow_requests::Column::TargetId,
    other: follow_requests::Column::FollowerId,
};

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

/// Moves the follower's `following_count` and the target's `followers_count` by `delta`, locking
/// the two account rows in id order: two crossed follows (A to B and B to A at once) then wait
/// for each other instead of deadlocking, as they would on PostgreSQL if each locked its
/// follower first.
async fn bump_follow_counters<C: ConnectionTrait>(
    db: &C,
    follower: Id,
    target: Id,
    delta: i64,
) -> StoreResult<()> {
    let mut moves = [
        (follower, accounts::Column::FollowingCount),
        (target, accounts::Column::FollowersCount),
    ];
    moves.sort_by_key(|(id, _)| id.as_i64());
    for (id, col) in moves {
        bump(db, id, col, delta).await?;
    }
    Ok(())
}

/// The stored form of a follow's languages: a JSON array of codes, `NULL` for all.
fn languages_to_text(languages: &Option<Vec<String>>) -> Option<String> {
    languages
        .as_ref()
        .map(|l| serde_json::Value::from(l.clone()).to_string())
}

fn languages_from_text(text: Option<String>, column: &str) -> StoreResult<Option<Vec<String>>> {
    text.map(|t| {
        serde_json::from_str::<Vec<String>>(&t)
            .map_err(|_| StoreError::Backend(format!("{column} is not a JSON array of strings")))
    })
    .transpose()
}

fn follow_from_row(m: follows::Model) -> StoreResult<FollowRecord> {
    Ok(FollowRecord {
        id: Id::from_i64(m.id),
        account_id: Id::from_i64(m.follower_id),
        target_id: Id::from_i64(m.target_id),
        show_reblogs: m.show_reblogs,
        notify: m.notify,
        languages: languages_from_text(m.languages, "follows.languages")?,
    })
}

fn request_from_row(m: follow_requests::Model) -> StoreResult<FollowRecord> {
    Ok(FollowRecord {
        id: Id::from_i64(m.id),
        account_id: Id::from_i64(m.follower_id),
        target_id: Id::from_i64(m.target_id),
        show_reblogs: m.show_reblogs,
        notify: m.notify,
        languages: languages_from_text(m.languages, "follow_requests.languages")?,
    })
}

/// Inserts a follow unless the pair already has one (counters move only for a new one); with
/// `replace_options`, an existing follow takes the new options and keeps its id. Returns whether
/// the follow is new.
async fn upsert_follow_rows<C: ConnectionTrait>(
    db: &C,
    f: &FollowRecord,
    replace_options: bool,
) -> StoreResult<bool> {
    let row = follows::ActiveModel {
        follower_id: Set(f.account_id.as_i64()),
        target_id: Set(f.target_id.as_i64()),
        id: Set(f.id.as_i64()),
        show_reblogs: Set(f.show_reblogs),
        notify: Set(f.notify),
        languages: Set(languages_to_text(&f.languages)),
    };
    let inserted = FOLLOWING.insert(db, row).await?;
    if inserted == 1 {
        bump_follow_counters(db, f.account_id, f.target_id, 1).await?;
        return Ok(true);
    }
    if replace_options {
        follows::Entity::update_many()
            .col_expr(follows::Column::ShowReblogs, Expr::val(f.show_reblogs))
            .col_expr(follows::Column::Notify, Expr::val(f.notify))
            .col_expr(
                follows::Column::Languages,
                Expr::val(languages_to_text(&f.languages)),
            )
            .filter(follows::Column::FollowerId.eq(f.account_id.as_i64()))
            .filter(follows::Column::TargetId.eq(f.target_id.as_i64()))
            .exec(db)
            .await
            .map_err(backend_err)?;
    }
    Ok(false)
}

/// Subtracts one from a counter column of each account in `ids` (each id once), never going
/// below zero.
pub(super) async fn decrement_each<C: ConnectionTrait>(
    db: &C,
    ids: &[i64],
    col: accounts::Column,
) -> StoreResult<()> {
    let cur = Expr::col(col);
    for chunk in ids.chunks(IN_CHUNK) {
        let next = Expr::case(cur.clone().sub(1).gt(0), cur.clone().sub(1)).finally(0);
        accounts::Entity::update_many()
            .col_expr(col, next.into())
            .filter(accounts::Column::Id.is_in(chunk.iter().copied()))
            .exec(db)
            .await
            .map_err(backend_err)?;
    }
    Ok(())
}

/// Removes the follows of `followers` to `target` (a bounded list the caller read), moving every
/// counter: each follower's `following_count` and the target's `followers_count`.
pub(super) async fn delete_followers_of<C: ConnectionTrait>(
    db: &C,
    target: Id,
    followers: &[i64],
) -> StoreResult<()> {
    let mut removed: Vec<i64> = Vec::with_capacity(followers.len());
    for chunk in followers.chunks(IN_CHUNK) {
        let gone: Vec<i64> = follows::Entity::delete_many()
            .filter(follows::Column::TargetId.eq(target.as_i64()))
            .filter(follows::Column::FollowerId.is_in(chunk.iter().copied()))
            .exec_with_returning(db)
            .await
            .map_err(backend_err)?
            .into_iter()
            .map(|f| f.follower_id)
            .collect();
        removed.extend(gone);
    }
    if removed.is_empty() {
        return Ok(());
    }
    decrement_each(db, &removed, accounts::Column::FollowingCount).await?;
    bump(
        db,
        target,
        accounts::Column::FollowersCount,
        -(removed.len() as i64),
    )
    .await
}

/// Deletes a follow and moves both counters back; returns whether it existed.
pub(super) async fn delete_follow_rows<C: ConnectionTrait>(
    db: &C,
    follower: Id,
    target: Id,
) -> StoreResult<bool> {
    if !FOLLOWING.delete(db, follower, target.as_i64()).await? {
        return Ok(false);
    }
    bump_follow_counters(db, follower, target, -1).await?;
    Ok(true)
}

#[async_trait]
impl FollowStore for SeaStore {
    async fn insert_follow(&self, id: Id, follower: Id, target: Id) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = upsert_follow_rows(&tx, &FollowRecord::new(id, follower, target), false).await;
        finish(tx, res).await.map(|_| ())
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

    async fn notified_follower_ids(&self, target: Id) -> StoreResult<Vec<Id>> {
        let ids: Vec<i64> = follows::Entity::find()
            .select_only()
            .column(follows::Column::FollowerId)
            .inner_join(accounts::Entity)
            .filter(follows::Column::TargetId.eq(target.as_i64()))
            .filter(follows::Column::Notify.eq(true))
            .filter(accounts::Column::Domain.is_null())
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(ids.into_iter().map(Id::from_i64).collect())
    }

    async fn language_restricted_followers(
        &self,
        target: Id,
    ) -> StoreResult<Vec<(Id, Vec<String>)>> {
        let rows: Vec<(i64, Option<String>)> = follows::Entity::find()
            .select_only()
            .column(follows::Column::FollowerId)
            .column(follows::Column::Languages)
            .inner_join(accounts::Entity)
            .filter(follows::Column::TargetId.eq(target.as_i64()))
            .filter(follows::Column::Languages.is_not_null())
            .filter(accounts::Column::Domain.is_null())
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        let mut out = vec![];
        for (follower, text) in rows {
            if let Some(langs) = languages_from_text(text, "follows.languages")? {
                out.push((Id::from_i64(follower), langs));
            }
        }
        Ok(out)
    }

    async fn followers_page(&self, target: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        FOLLOWERS
            .id_page(&self.db, follows::Column::Id, target, &page)
            .await
    }

    async fn following_page(&self, follower: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        FOLLOWING
            .id_page(&self.db, follows::Column::Id, follower, &page)
            .await
    }

    async fn insert_follow_request(&self, id: Id, follower: Id, target: Id) -> StoreResult<()> {
        let row = request_row(&FollowRecord::new(id, follower, target));
        REQUESTED.insert(&self.db, row).await.map(|_| ())
    }

    async fn delete_follow_request(&self, follower: Id, target: Id) -> StoreResult<bool> {
        REQUESTED.delete(&self.db, follower, target.as_i64()).await
    }

    async fn follow_requested(&self, follower: Id, target: Id) -> StoreResult<bool> {
        REQUESTED.exists(&self.db, follower, target.as_i64()).await
    }

    async fn follow_requests_page(&self, target: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        REQUESTERS
            .id_page(&self.db, follow_requests::Column::Id, target, &page)
            .await
    }

    async fn follow_of(&self, follower: Id, target: Id) -> StoreResult<Option<FollowRecord>> {
        follows::Entity::find_by_id((follower.as_i64(), target.as_i64()))
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(follow_from_row)
            .transpose()
    }

    async fn upsert_follow(&self, follow: &FollowRecord) -> StoreResult<bool> {
        let tx = self.begin_write().await?;
        let res = upsert_follow_rows(&tx, follow, true).await;
        finish(tx, res).await
    }

    async fn follow_request_of(
        &self,
        follower: Id,
        target: Id,
    ) -> StoreResult<Option<FollowRecord>> {
        follow_requests::Entity::find()
            .filter(follow_requests::Column::FollowerId.eq(follower.as_i64()))
            .filter(follow_requests::Column::TargetId.eq(target.as_i64()))
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(request_from_row)
            .transpose()
    }

    async fn upsert_follow_request(&self, request: &FollowRecord) -> StoreResult<bool> {
        let tx = self.begin_write().await?;
        let res = async {
            let inserted = REQUESTED.insert(&tx, request_row(request)).await?;
            if inserted == 1 {
                return Ok(true);
            }
            follow_requests::Entity::update_many()
                .col_expr(
                    follow_requests::Column::ShowReblogs,
                    Expr::val(request.show_reblogs),
                )
                .col_expr(follow_requests::Column::Notify, Expr::val(request.notify))
                .col_expr(
                    follow_requests::Column::Languages,
                    Expr::val(languages_to_text(&request.languages)),
                )
                .filter(follow_requests::Column::FollowerId.eq(request.account_id.as_i64()))
                .filter(follow_requests::Column::TargetId.eq(request.target_id.as_i64()))
                .exec(&tx)
                .await
                .map_err(backend_err)?;
            Ok(false)
        }
        .await;
        finish(tx, res).await
    }

    async fn familiar_followers(
        &self,
        account: Id,
        target: Id,
        limit: u64,
    ) -> StoreResult<Vec<Id>> {
        // theirs: the follows of `target`; mine: `account`'s follow of the same follower.
        let q = Query::select()
            .column(("theirs", follows::Column::FollowerId))
            .from_as(follows::Entity, "theirs")
            .join_as(
                JoinType::InnerJoin,
                follows::Entity,
                "mine",
                Condition::all()
                    .add(
                        Expr::col(("mine", follows::Column::TargetId))
                            .equals(("theirs", follows::Column::FollowerId)),
                    )
                    .add(Expr::col(("mine", follows::Column::FollowerId)).eq(account.as_i64())),
            )
            .and_where(Expr::col(("theirs", follows::Column::TargetId)).eq(target.as_i64()))
            .order_by(("theirs", follows::Column::Id), Order::Desc)
            .limit(limit)
            .to_owned();
        let rows = self.db.query_all(&q).await.map_err(backend_err)?;
        rows.iter()
            .map(|r| {
                r.try_get_by_index::<i64>(0)
                    .map(Id::from_i64)
                    .map_err(backend_err)
            })
            .collect()
    }

    async fn reblog_audience(
        &self,
        booster: Id,
        author: Id,
        now: DateTime<Utc>,
    ) -> StoreResult<Vec<Id>> {
        let follower = Expr::col((follows::Entity, follows::Column::FollowerId));
        let blocked = Query::select()
            .expr(Expr::val(1))
            .from(blocks::Entity)
            .cond_where(
                Condition::any()
                    .add(
                        Condition::all()
                            .add(blocks::Column::AccountId.eq(author.as_i64()))
                            .add(
                                Expr::col((blocks::Entity, blocks::Column::TargetId))
                                    .equals((follows::Entity, follows::Column::FollowerId)),
                            ),
                    )
                    .add(
                        Condition::all()
                            .add(
                                Expr::col((blocks::Entity, blocks::Column::AccountId))
                                    .equals((follows::Entity, follows::Column::FollowerId)),
                            )
                            .add(blocks::Column::TargetId.eq(author.as_i64())),
                    ),
            )
            .to_owned();
        let muting = Query::select()
            .expr(Expr::val(1))
            .from(mutes::Entity)
            .cond_where(
                Condition::all()
                    .add(
                        Expr::col((mutes::Entity, mutes::Column::AccountId))
                            .equals((follows::Entity, follows::Column::FollowerId)),
                    )
                    .add(mutes::Column::TargetId.eq(author.as_i64()))
                    .add(
                        Condition::any()
                            .add(mutes::Column::ExpiresAt.is_null())
                            .add(mutes::Column::ExpiresAt.gt(now)),
                    ),
            )
            .to_owned();
        let q = Query::select()
            .expr(follower)
            .from(follows::Entity)
            .inner_join(
                accounts::Entity,
                Expr::col((accounts::Entity, accounts::Column::Id))
                    .equals((follows::Entity, follows::Column::FollowerId)),
            )
            .and_where(Expr::col((follows::Entity, follows::Column::TargetId)).eq(booster.as_i64()))
            .and_where(Expr::col((follows::Entity, follows::Column::ShowReblogs)).eq(true))
            .and_where(Expr::col((accounts::Entity, accounts::Column::Domain)).is_null())
            .and_where(Expr::exists(blocked).not())
            .and_where(Expr::exists(muting).not())
            .to_owned();
        let rows = self.db.query_all(&q).await.map_err(backend_err)?;
        rows.iter()
            .map(|r| {
                r.try_get_by_index::<i64>(0)
                    .map(Id::from_i64)
                    .map_err(backend_err)
            })
            .collect()
    }

    async fn friends_of_friends(&self, account: Id, limit: u64) -> StoreResult<Vec<(Id, i64)>> {
        // mine: `account`'s follows; theirs: the follows of those accounts (the candidates are
        // their targets); already: `account`'s own follow of a candidate.
        let candidate = Expr::col(("theirs", follows::Column::TargetId));
        let already = Query::select()
            .expr(Expr::val(1))
            .from_as(follows::Entity, "already")
            .and_where(Expr::col(("already", follows::Column::FollowerId)).eq(account.as_i64()))
            .and_where(
                Expr::col(("already", follows::Column::TargetId))
                    .equals(("theirs", follows::Column::TargetId)),
            )
            .to_owned();
        let q = Query::select()
            .expr(candidate.clone())
            .expr_as(
                Expr::col(("theirs", follows::Column::FollowerId)).count(),
                "n",
            )
            .from_as(follows::Entity, "mine")
            .join_as(
                JoinType::InnerJoin,
                follows::Entity,
                "theirs",
                Expr::col(("theirs", follows::Column::FollowerId))
                    .equals(("mine", follows::Column::TargetId)),
            )
            .and_where(Expr::col(("mine", follows::Column::FollowerId)).eq(account.as_i64()))
            .and_where(candidate.clone().ne(account.as_i64()))
            .and_where(Expr::exists(already).not())
            .group_by_col(("theirs", follows::Column::TargetId))
            .order_by("n", Order::Desc)
            .order_by(("theirs", follows::Column::TargetId), Order::Desc)
            .limit(limit)
            .to_owned();
        let rows = self.db.query_all(&q).await.map_err(backend_err)?;
        rows.iter()
            .map(|r| {
                let id = r.try_get_by_index::<i64>(0).map_err(backend_err)?;
                let count = r.try_get_by_index::<i64>(1).map_err(backend_err)?;
                Ok((Id::from_i64(id), count))
            })
            .collect()
    }
}

fn request_row(r: &FollowRecord) -> follow_requests::ActiveModel {
    follow_requests::ActiveModel {
        id: Set(r.id.as_i64()),
        follower_id: Set(r.account_id.as_i64()),
        target_id: Set(r.target_id.as_i64()),
        created_at: Set(Utc::now()),
        show_reblogs: Set(r.show_reblogs),
        notify: Set(r.notify),
        languages: Set(languages_to_text(&r.languages)),
    }
}
