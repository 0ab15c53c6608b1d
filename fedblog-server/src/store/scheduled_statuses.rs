//! `ScheduledStatusStore` for `SeaStore`: statuses waiting for their publication time, read by
//! cursor pages per account.

use async_trait::async_trait;
use fedblog_core::pagination::Page;
use fedblog_core::store::{ScheduledStatusRecord, ScheduledStatusStore};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use super::entity::scheduled_statuses;
use super::{SeaStore, backend_err, paging};

fn scheduled_row(s: &ScheduledStatusRecord) -> scheduled_statuses::ActiveModel {
    scheduled_statuses::ActiveModel {
        id: Set(s.id.as_i64()),
        account_id: Set(s.account_id.as_i64()),
        scheduled_at: Set(s.scheduled_at),
        params: Set(s.params.clone()),
        application_id: Set(s.application_id.map(Id::as_i64)),
        created_at: Set(s.created_at),
    }
}

fn scheduled_from_row(m: scheduled_statuses::Model) -> ScheduledStatusRecord {
    ScheduledStatusRecord {
        id: Id::from_i64(m.id),
        account_id: Id::from_i64(m.account_id),
        scheduled_at: m.scheduled_at,
        params: m.params,
        application_id: m.application_id.map(Id::from_i64),
        created_at: m.created_at,
    }
}

#[async_trait]
impl ScheduledStatusStore for SeaStore {
    async fn insert_scheduled_status(&self, s: &ScheduledStatusRecord) -> StoreResult<()> {
        scheduled_statuses::Entity::insert(scheduled_row(s))
            .exec_without_returning(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(())
    }

    async fn scheduled_status_by_id(&self, id: Id) -> StoreResult<Option<ScheduledStatusRecord>> {
        Ok(scheduled_statuses::Entity::find_by_id(id.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(scheduled_from_row))
    }

    async fn scheduled_statuses(
        &self,
        account_id: Id,
        page: Page,
    ) -> StoreResult<Vec<ScheduledStatusRecord>> {
        let q = scheduled_statuses::Entity::find()
            .filter(scheduled_statuses::Column::AccountId.eq(account_id.as_i64()));
        let rows = paging::apply(q, scheduled_statuses::Column::Id, &page)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(paging::finish(rows, &page)
            .into_iter()
            .map(scheduled_from_row)
            .collect())
    }

    async fn update_scheduled_status(&self, s: &ScheduledStatusRecord) -> StoreResult<()> {
        let res = scheduled_statuses::Entity::update_many()
            .set(scheduled_statuses::ActiveModel {
                scheduled_at: Set(s.scheduled_at),
                params: Set(s.params.clone()),
                ..Default::default()
            })
            .filter(scheduled_statuses::Column::Id.eq(s.id.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        if res.rows_affected == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    async fn delete_scheduled_status(&self, id: Id) -> StoreResult<bool> {
        let res = scheduled_statuses::Entity::delete_by_id(id.as_i64())
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }
}
