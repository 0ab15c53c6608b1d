//! `AccountNoteStore` for `SeaStore`: private notes, endorsements and suggestion dismissals.

use async_trait::async_trait;
use chrono::Utc;
use fedblog_core::pagination::Page;
use fedblog_core::store::AccountNoteStore;
use fedblog_core::{Id, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use super::entity::{account_notes, endorsements, suggestion_dismissals};
use super::{SeaStore, backend_err, paging};

#[async_trait]
impl AccountNoteStore for SeaStore {
    async fn set_account_note(&self, account: Id, target: Id, comment: &str) -> StoreResult<()> {
        if comment.is_empty() {
            account_notes::Entity::delete_many()
                .filter(account_notes::Column::AccountId.eq(account.as_i64()))
                .filter(account_notes::Column::TargetId.eq(target.as_i64()))
                .exec(&self.db)
                .await
                .map_err(backend_err)?;
            return Ok(());
        }
        let row = account_notes::ActiveModel {
            account_id: Set(account.as_i64()),
            target_id: Set(target.as_i64()),
            comment: Set(comment.to_string()),
            updated_at: Set(Utc::now()),
        };
        account_notes::Entity::insert(row)
            .on_conflict(
                OnConflict::columns([
                    account_notes::Column::AccountId,
                    account_notes::Column::TargetId,
                ])
                .update_columns([
                    account_notes::Column::Comment,
                    account_notes::Column::UpdatedAt,
                ])
                .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(())
    }

    async fn account_note(&self, account: Id, target: Id) -> StoreResult<Option<String>> {
        account_notes::Entity::find_by_id((account.as_i64(), target.as_i64()))
            .select_only()
            .column(account_notes::Column::Comment)
            .into_tuple()
            .one(&self.db)
            .await
            .map_err(backend_err)
    }

    async fn insert_endorsement(&self, id: Id, account: Id, target: Id) -> StoreResult<()> {
        let row = endorsements::ActiveModel {
            id: Set(id.as_i64()),
            account_id: Set(account.as_i64()),
            target_id: Set(target.as_i64()),
            created_at: Set(Utc::now()),
        };
        endorsements::Entity::insert(row)
            .on_conflict(
                OnConflict::columns([
                    endorsements::Column::AccountId,
                    endorsements::Column::TargetId,
                ])
                .do_nothing()
                .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(())
    }

    async fn delete_endorsement(&self, account: Id, target: Id) -> StoreResult<bool> {
        let res = endorsements::Entity::delete_many()
            .filter(endorsements::Column::AccountId.eq(account.as_i64()))
            .filter(endorsements::Column::TargetId.eq(target.as_i64()))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn endorses(&self, account: Id, target: Id) -> StoreResult<bool> {
        let row: Option<i64> = endorsements::Entity::find()
            .select_only()
            .column(endorsements::Column::Id)
            .filter(endorsements::Column::AccountId.eq(account.as_i64()))
            .filter(endorsements::Column::TargetId.eq(target.as_i64()))
            .into_tuple()
            .one(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(row.is_some())
    }

    async fn endorsements_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        let q = endorsements::Entity::find()
            .filter(endorsements::Column::AccountId.eq(account.as_i64()));
        let rows: Vec<(i64, i64)> = paging::apply(q, endorsements::Column::Id, &page)
            .select_only()
            .column(endorsements::Column::Id)
            .column(endorsements::Column::TargetId)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(paging::finish(rows, &page)
            .into_iter()
            .map(|(a, b)| (Id::from_i64(a), Id::from_i64(b)))
            .collect())
    }

    async fn dismiss_suggestion(&self, account: Id, target: Id) -> StoreResult<()> {
        let row = suggestion_dismissals::ActiveModel {
            account_id: Set(account.as_i64()),
            target_id: Set(target.as_i64()),
            created_at: Set(Utc::now()),
        };
        suggestion_dismissals::Entity::insert(row)
            .on_conflict(
                OnConflict::columns([
                    suggestion_dismissals::Column::AccountId,
                    suggestion_dismissals::Column::TargetId,
                ])
                .do_nothing()
                .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(())
    }

    async fn dismissed_suggestions(&self, account: Id) -> StoreResult<Vec<Id>> {
        let ids: Vec<i64> = suggestion_dismissals::Entity::find()
            .select_only()
            .column(suggestion_dismissals::Column::TargetId)
            .filter(suggestion_dismissals::Column::AccountId.eq(account.as_i64()))
            .order_by_asc(suggestion_dismissals::Column::TargetId)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(ids.into_iter().map(Id::from_i64).collect())
    }
}
