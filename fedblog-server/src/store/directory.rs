//! `DirectoryStore` for `SeaStore`: account search, the profile directory, popular local accounts.

use async_trait::async_trait;
use fedblog_core::store::{AccountRecord, AccountSearch, DirectoryOrder, DirectoryStore};
use fedblog_core::{Id, StoreResult};
use sea_orm::sea_query::{Expr, ExprTrait, Func, LikeExpr, NullOrdering, Order, Query};
use sea_orm::{ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use super::accounts::{account_from_row, fold};
use super::entity::{accounts, follows, users};
use super::{SeaStore, backend_err};

/// The escape character of the `LIKE` patterns built here.
const LIKE_ESCAPE: char = '\\';

/// `text` with the `LIKE` wildcards (`%`, `_`) and the escape character itself escaped, so user
/// text matches literally.
fn escape_like(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | LIKE_ESCAPE) {
            out.push(LIKE_ESCAPE);
        }
        out.push(c);
    }
    out
}

fn like(pattern: String) -> LikeExpr {
    LikeExpr::new(pattern).escape(LIKE_ESCAPE)
}

fn records(rows: Vec<accounts::Model>) -> StoreResult<Vec<AccountRecord>> {
    rows.into_iter().map(account_from_row).collect()
}

#[async_trait]
impl DirectoryStore for SeaStore {
    async fn search_accounts(&self, search: &AccountSearch) -> StoreResult<Vec<AccountRecord>> {
        let text = escape_like(&search.text);
        // `LOWER(col) LIKE lower-cased pattern` on both engines (PostgreSQL's LIKE is case
        // sensitive, and ILIKE is not portable). No index serves a substring match of display
        // names: this reads the unsuspended accounts, as the memory store does.
        let matches = Condition::any()
            .add(Expr::col(accounts::Column::UsernameLower).like(like(format!("{text}%"))))
            .add(
                Func::lower(Expr::col(accounts::Column::DisplayName))
                    .like(like(format!("%{text}%"))),
            );
        let mut q = accounts::Entity::find()
            .filter(accounts::Column::SuspendedAt.is_null())
            .filter(matches);
        if let Some(domain) = &search.domain {
            q = q
                .filter(accounts::Column::Domain.is_not_null())
                .filter(accounts::Column::DomainKey.eq(fold(domain)));
        }
        if let Some(follower) = search.followed_by {
            q = q.filter(
                accounts::Column::Id.in_subquery(
                    Query::select()
                        .column(follows::Column::TargetId)
                        .from(follows::Entity)
                        .and_where(follows::Column::FollowerId.eq(follower.as_i64()))
                        .to_owned(),
                ),
            );
        }
        let exact_last: Expr = Expr::case(
            Expr::col(accounts::Column::UsernameLower).eq(search.text.as_str()),
            0,
        )
        .finally(1)
        .into();
        let rows = q
            .order_by(exact_last, Order::Asc)
            .order_by_desc(accounts::Column::FollowersCount)
            .order_by_asc(accounts::Column::Id)
            .offset(search.offset)
            .limit(search.limit)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        records(rows)
    }

    async fn directory(
        &self,
        order: DirectoryOrder,
        local_only: bool,
        offset: u64,
        limit: u64,
    ) -> StoreResult<Vec<AccountRecord>> {
        let can_log_in = Query::select()
            .column(users::Column::AccountId)
            .from(users::Entity)
            .and_where(users::Column::ConfirmedAt.is_not_null())
            .and_where(users::Column::Approved.eq(true))
            .to_owned();
        let mut q = accounts::Entity::find()
            .filter(accounts::Column::Discoverable.eq(true))
            .filter(accounts::Column::SuspendedAt.is_null())
            // Remote accounts, or local ones whose login is confirmed and approved.
            .filter(
                Condition::any()
                    .add(accounts::Column::Domain.is_not_null())
                    .add(accounts::Column::Id.in_subquery(can_log_in)),
            );
        if local_only {
            q = q.filter(accounts::Column::Domain.is_null());
        }
        q = match order {
            // `NULLS LAST` spelled out: PostgreSQL sorts NULLs first in descending order.
            DirectoryOrder::Active => q.order_by_with_nulls(
                accounts::Column::LastStatusAt,
                Order::Desc,
                NullOrdering::Last,
            ),
            DirectoryOrder::New => q.order_by_desc(accounts::Column::CreatedAt),
        };
        let rows = q
            .order_by_desc(accounts::Column::Id)
            .offset(offset)
            .limit(limit)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        records(rows)
    }

    async fn most_followed_local(&self, limit: u64) -> StoreResult<Vec<Id>> {
        let ids: Vec<i64> = accounts::Entity::find()
            .select_only()
            .column(accounts::Column::Id)
            // `domain_key = ''` (local) leads the (domain_key, followers_count) index.
            .filter(accounts::Column::DomainKey.eq(""))
            .filter(accounts::Column::Domain.is_null())
            .filter(accounts::Column::Discoverable.eq(true))
            .filter(accounts::Column::SuspendedAt.is_null())
            .order_by_desc(accounts::Column::FollowersCount)
            .order_by_asc(accounts::Column::Id)
            .limit(limit)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(ids.into_iter().map(Id::from_i64).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::escape_like;

    #[test]
    fn escapes_like_wildcards() {
        assert_eq!(escape_like("a_b%c\\d"), "a\\_b\\%c\\\\d");
        assert_eq!(escape_like("plain"), "plain");
    }
}
