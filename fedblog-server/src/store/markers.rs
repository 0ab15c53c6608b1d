//! `MarkerStore` for `SeaStore`: read positions saved by compare-and-set on their version.

use async_trait::async_trait;
use fedblog_core::store::{MarkerRecord, MarkerStore};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use super::entity::markers;
use super::{SeaStore, backend_err};

fn marker_from_row(m: markers::Model) -> MarkerRecord {
    MarkerRecord {
        account_id: Id::from_i64(m.account_id),
        timeline: m.timeline,
        last_read_id: Id::from_i64(m.last_read_id),
        version: m.version,
        updated_at: m.updated_at,
    }
}

#[async_trait]
impl MarkerStore for SeaStore {
    async fn markers(&self, account: Id, timelines: &[String]) -> StoreResult<Vec<MarkerRecord>> {
        if timelines.is_empty() {
            return Ok(vec![]);
        }
        Ok(markers::Entity::find()
            .filter(markers::Column::AccountId.eq(account.as_i64()))
            .filter(markers::Column::Timeline.is_in(timelines.iter().cloned()))
            .all(&self.db)
            .await
            .map_err(backend_err)?
            .into_iter()
            .map(marker_from_row)
            .collect())
    }

    async fn save_marker(&self, m: &MarkerRecord) -> StoreResult<bool> {
        if m.version == 1 {
            // The primary key refuses a second first marker.
            let row = markers::ActiveModel {
                account_id: Set(m.account_id.as_i64()),
                timeline: Set(m.timeline.clone()),
                last_read_id: Set(m.last_read_id.as_i64()),
                version: Set(1),
                updated_at: Set(m.updated_at),
            };
            return match markers::Entity::insert(row)
                .exec_without_returning(&self.db)
                .await
                .map_err(backend_err)
            {
                Ok(_) => Ok(true),
                Err(StoreError::AlreadyExists(_)) => Ok(false),
                Err(e) => Err(e),
            };
        }
        let res = markers::Entity::update_many()
            .set(markers::ActiveModel {
                last_read_id: Set(m.last_read_id.as_i64()),
                version: Set(m.version),
                updated_at: Set(m.updated_at),
                ..Default::default()
            })
            .filter(markers::Column::AccountId.eq(m.account_id.as_i64()))
            .filter(markers::Column::Timeline.eq(m.timeline.clone()))
            .filter(markers::Column::Version.eq(m.version - 1))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected == 1)
    }
}
