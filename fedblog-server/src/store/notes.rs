//! `AccountNoteStore` for `SeaStore`: private notes, endorsements and suggestion dismissals.

use async_trait::async_trait;
use chrono::Utc;
use fedblog_core::pagination::Page;
use fedblog_core::store::AccountNoteStore;
use fedblog_core::{Id, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use super::entity::{account_notes, endorsements, suggestion_dismissals};
use super::pairs::Pair;
use super::{SeaStore, backend_err};

/// A note: one per account and target.
const NOTED: Pair<account_notes::Column> = Pair {
    owner: account_notes::Column::AccountId,
    other: account_notes::Column::TargetId,
};

/// An endorsement: one per account and endorsed account.
const ENDORSED: Pair<endorsements::Column> = Pair {
    owner: endorsements::Column::AccountId,
    other: endorsements::Column::TargetId,
};

/// A dismissed suggestion: one per account and suggested account.
const DISMISSED: Pair<suggestion_dismissals::Column> = Pair {
    owner: suggestion_dismissals::Column::AccountId,
    other: suggestion_dismissals::Column::TargetId,
};

#[async_trait]
impl AccountNoteStore for SeaStore {
    async fn set_account_note(&self, account: Id, target: Id, comment: &str) -> StoreResult<()> {
        if comment.is_empty() {
            NOTED.delete(&self.db, account, target.as_i64()).await?;
            return Ok(());
        }
        let row = account_notes::ActiveModel {
            account_id: Set(account.as_i64()),
            target_id: Set(target.as_i64()),
            comment: Set(comment.to_string()),
            updated_at: Set(Utc::now()),
        };
        let update = [
            account_notes::Column::Comment,
            account_notes::Column::UpdatedAt,
        ];
        NOTED.upsert(&self.db, row, update).await
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
        ENDORSED.insert(&self.db, row).await.map(|_| ())
    }

    async fn delete_endorsement(&self, account: Id, target: Id) -> StoreResult<bool> {
        ENDORSED.delete(&self.db, account, target.as_i64()).await
    }

    async fn endorses(&self, account: Id, target: Id) -> StoreResult<bool> {
        ENDORSED.exists(&self.db, account, target.as_i64()).await
    }

    async fn endorsements_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, Id)>> {
        ENDORSED
            .id_page(&self.db, endorsements::Column::Id, account, &page)
            .await
    }

    async fn dismiss_suggestion(&self, account: Id, target: Id) -> StoreResult<()> {
        let row = suggestion_dismissals::ActiveModel {
            account_id: Set(account.as_i64()),
            target_id: Set(target.as_i64()),
            created_at: Set(Utc::now()),
        };
        DISMISSED.insert(&self.db, row).await.map(|_| ())
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
