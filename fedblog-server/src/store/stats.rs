//! `StatsStore` for `SeaStore`: counts for the instance endpoints.

use std::collections::BTreeSet;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use fedblog_core::StoreResult;
use fedblog_core::store::{StatsStore, WeekActivity};
use sea_orm::sea_query::{Expr, Func};
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QuerySelect};

use super::entity::{accounts, statuses, tokens, users};
use super::{SeaStore, backend_err};

#[async_trait]
impl StatsStore for SeaStore {
    async fn count_local_accounts(&self) -> StoreResult<i64> {
        let n = accounts::Entity::find()
            .filter(accounts::Column::Domain.is_null())
            .filter(accounts::Column::SuspendedAt.is_null())
            .count(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(n as i64)
    }

    async fn count_active_local_accounts(&self, since: DateTime<Utc>) -> StoreResult<i64> {
        let n: Option<i64> = statuses::Entity::find()
            .select_only()
            .expr(Func::count_distinct(Expr::col(statuses::Column::AccountId)))
            .filter(statuses::Column::Local.eq(true))
            .filter(statuses::Column::CreatedAt.gte(since))
            .into_tuple()
            .one(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(n.unwrap_or(0))
    }

    async fn count_local_statuses(&self) -> StoreResult<i64> {
        let n = statuses::Entity::find()
            .filter(statuses::Column::Local.eq(true))
            .count(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(n as i64)
    }

    async fn known_domains(&self) -> StoreResult<Vec<String>> {
        let domains: Vec<String> = accounts::Entity::find()
            .select_only()
            .column(accounts::Column::Domain)
            .distinct()
            .filter(accounts::Column::Domain.is_not_null())
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        // Folded and sorted here, not in SQL: the same Unicode lower-casing and byte order as the
        // memory store on both engines.
        let set: BTreeSet<String> = domains.into_iter().map(|d| d.to_lowercase()).collect();
        Ok(set.into_iter().collect())
    }

    async fn activity_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> StoreResult<WeekActivity> {
        let statuses = statuses::Entity::find()
            .filter(statuses::Column::Local.eq(true))
            .filter(statuses::Column::CreatedAt.gte(from))
            .filter(statuses::Column::CreatedAt.lt(to))
            .count(&self.db)
            .await
            .map_err(backend_err)?;
        let logins = tokens::Entity::find()
            .filter(tokens::Column::AccountId.is_not_null())
            .filter(tokens::Column::CreatedAt.gte(from))
            .filter(tokens::Column::CreatedAt.lt(to))
            .count(&self.db)
            .await
            .map_err(backend_err)?;
        let registrations = users::Entity::find()
            .filter(users::Column::CreatedAt.gte(from))
            .filter(users::Column::CreatedAt.lt(to))
            .count(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(WeekActivity {
            statuses: statuses as i64,
            logins: logins as i64,
            registrations: registrations as i64,
        })
    }
}
