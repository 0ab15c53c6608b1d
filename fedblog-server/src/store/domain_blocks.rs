//! `DomainBlockStore` for `SeaStore`: domains an account blocks, and the followers there that a
//! new block removes.

use async_trait::async_trait;
use chrono::Utc;
use fedblog_core::pagination::Page;
use fedblog_core::store::DomainBlockStore;
use fedblog_core::{Id, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QuerySelect};

use super::accounts::fold;
use super::entity::{account_domain_blocks, accounts, follow_requests, follows};
use super::follows::delete_followers_of;
use super::pairs::Pair;
use super::{SeaStore, backend_err, finish};

/// A domain block: one per account and domain.
const BLOCKED_DOMAIN: Pair<account_domain_blocks::Column> = Pair {
    owner: account_domain_blocks::Column::AccountId,
    other: account_domain_blocks::Column::Domain,
};

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
            BLOCKED_DOMAIN.insert(&tx, row).await?;
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
        BLOCKED_DOMAIN.delete(&self.db, account, domain).await
    }

    async fn domain_blocked(&self, account: Id, domain: &str) -> StoreResult<bool> {
        BLOCKED_DOMAIN.exists(&self.db, account, domain).await
    }

    async fn domain_blocks_page(&self, account: Id, page: Page) -> StoreResult<Vec<(Id, String)>> {
        let cursor = account_domain_blocks::Column::Id;
        BLOCKED_DOMAIN.page(&self.db, cursor, account, &page).await
    }
}
