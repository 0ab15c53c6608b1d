//! `LinkStore` for `SeaStore`: the preview-card link of each status, and the link timeline.

use async_trait::async_trait;
use fedblog_core::pagination::Page;
use fedblog_core::store::{LinkStore, PublicTimelineFilter, StatusRecord};
use fedblog_core::{Id, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{OnConflict, Query};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QuerySelect};

use super::entity::{accounts, status_links, statuses};
use super::statuses::{hydrate, in_place};
use super::{SeaStore, backend_err, paging};

/// The statuses of the link timeline of `url`: public, not reblogs, by unsuspended accounts
/// that opted in to discovery, carrying the link.
fn on_link_timeline(url: &str) -> sea_orm::Select<statuses::Entity> {
    let carrying = Query::select()
        .column(status_links::Column::StatusId)
        .from(status_links::Entity)
        .and_where(status_links::Column::Url.eq(url))
        .to_owned();
    statuses::Entity::find()
        .inner_join(accounts::Entity)
        .filter(accounts::Column::SuspendedAt.is_null())
        .filter(accounts::Column::Discoverable.eq(true))
        .filter(super::statuses::public_rows())
        .filter(statuses::Column::Id.in_subquery(carrying))
}

#[async_trait]
impl LinkStore for SeaStore {
    async fn set_status_link(&self, status: Id, url: Option<&str>) -> StoreResult<()> {
        match url {
            Some(url) => {
                status_links::Entity::insert(status_links::ActiveModel {
                    status_id: Set(status.as_i64()),
                    url: Set(url.to_string()),
                })
                .on_conflict(
                    OnConflict::column(status_links::Column::StatusId)
                        .update_column(status_links::Column::Url)
                        .to_owned(),
                )
                .exec_without_returning(&self.db)
                .await
                .map_err(backend_err)?;
            }
            None => {
                status_links::Entity::delete_by_id(status.as_i64())
                    .exec(&self.db)
                    .await
                    .map_err(backend_err)?;
            }
        }
        Ok(())
    }

    async fn link_known(&self, url: &str) -> StoreResult<bool> {
        let one: Option<i64> = on_link_timeline(url)
            .select_only()
            .column(statuses::Column::Id)
            .into_tuple()
            .one(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(one.is_some())
    }

    async fn link_timeline(
        &self,
        url: &str,
        filter: PublicTimelineFilter,
        page: Page,
    ) -> StoreResult<Vec<StatusRecord>> {
        let q = in_place(on_link_timeline(url), filter);
        let rows = paging::apply(q, statuses::Column::Id, &page)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        hydrate(&self.db, paging::finish(rows, &page)).await
    }

    fn cards(&self) -> Option<&dyn fedblog_core::store::CardStore> {
        Some(self)
    }
}
