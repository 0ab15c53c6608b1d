//! `DomainBlockStore` for `SeaStore`: domains an account blocks, and the followers there that a
//! new block removes.

use async_trait::async_trait;
use chrono::Utc;
use fedblog_core::pagination::Page;
use fedblog_core::store::DomainBlockStore;
use fedblog_core::{Id, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{OnConflict, Query};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QuerySelect};

use super::accounts::fold;
use super::entity::{account_domain_blocks, accounts, follow_requests, follows};
use super::follows::delete_followers_of;
use super::{SeaStore, backend_err, finish, paging};

#[async_trait]
impl DomainBlockStore for SeaStore {
    async fn insert_domain_block(&self, id: Id, account: Id, domain: &str) -> StoreResult<()> {
        let tx = self.begin_write().await?;
        let res = async {
            let row = account_domain_blocks::ActiveModel {
                id: Set(id.as_i64()),
                account_id: Set(account.as_i64()),
                domain: Set(domain.to_string()),
                created_at: Set(Utc::now()),
            };
            account_domain_blocks::Entity::insert(row)
                .on_conflict(
                    OnConflict::columns([
                        account_domain_blocks::Column::AccountId,
                        account_domain_blocks::Column::Domain,
                    ])
                    .do_nothing()
                    .to_owned(),
                )
                .exec_without_returning(&tx)
                .await
                .map_err(backend_err)?;
            // Accounts on the domain, matched as usernames are: by the folded `domain_key`.
            let on_domain = || {
                Query::select()
                    .column(accounts::Column::Id)
                    .from(accounts::Entity)
                    .and_where(accounts::Column::DomainKey.eq(fold(domain)))
                    .to_owned()
            };
            let followers: Vec<i64> = follows::Entity::find()
                .select_only()
                .column(follows::Column::FollowerId)
                .filter(follows::Column::TargetId.eq(account.as_i64()))
                .filter(follows::Column::FollowerId.in_subquery(on_domain()))
                .into_tuple()
                .all(&tx)
                .await
                .map_err(backend_err)?;
            delete_followers_of(&tx, account, &followers).await?;
            follow_requests::Entity::delete_many()
                .filter(follow_requests::Column::TargetId.eq(account.as_i64()))
                .filter(follow_requests::Column::FollowerId.in_subquery(on_domain()))
                .exec(&tx)
                .await
                .map_err(backend_err)?;
            Ok(())
        }
        .await;
        finish(tx, res).await
    }

    async fn delete_domain_block(&self, account: Id, domain: &str) -> StoreResult<bool> {
        let res = account_domain_blocks::Entity::delete_many()
            .filter(account_domain_blocks::Column::AccountId.eq(account.as_i64()))
            .filter(account_domain_blocks::Column::Domain.eq(domain))
            .exec(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(res.rows_affected > 0)
    }

    async fn domain_blocked(&self, account: Id, domain: &str) -> StoreResult<bool> {
        let row: Option<i64> = account_domain_blocks::Entity::find()
            .select_only()
            .column(account_domain_blocks::Column::Id)
            .filter(account_domain_blocks::Column::AccountId.eq(account.as_i64()))
            .filter(account_domain_blocks::Column::Domain.eq(domain))
            .into_tuple()
            .one(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(row.is_some())
    }

    async fn domain_blocks_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, String)>> {
        let q = account_domain_blocks::Entity::find()
            .filter(account_domain_blocks::Column::AccountId.eq(account.as_i64()));
        let rows: Vec<(i64, String)> = paging::apply(q, account_domain_blocks::Column::Id, &page)
            .select_only()
            .column(account_domain_blocks::Column::Id)
            .column(account_domain_blocks::Column::Domain)
            .into_tuple()
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(paging::finish(rows, &page)
            .into_iter()
            .map(|(id, d)| (Id::from_i64(id), d))
            .collect())
    }
}
