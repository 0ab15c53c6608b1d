//! `NotificationPolicyStore` for `SeaStore`: notification policies, the senders accounts
//! accepted, and the requests of filtered notifications.

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use fedblog_core::pagination::Page;
use fedblog_core::store::{
    NotificationPolicyRecord, NotificationPolicyStore, NotificationRecord,
    NotificationRequestRecord, PolicyAction,
};
use fedblog_core::{Id, StoreError, StoreResult};
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};

use super::entity::{
    notification_permissions, notification_policies, notification_requests, notifications,
};
use super::notifications::notification_from_row;
use super::{SeaStore, backend_err, finish, paging};

fn action(text: &str, account: i64) -> StoreResult<PolicyAction> {
    PolicyAction::parse(text).ok_or_else(|| {
        StoreError::Backend(format!(
            "notification policy of {account}: unknown action {text:?}"
        ))
    })
}

fn policy_from_row(p: notification_policies::Model) -> StoreResult<NotificationPolicyRecord> {
    let a = p.account_id;
    Ok(NotificationPolicyRecord {
        account_id: Id::from_i64(a),
        for_not_following: action(&p.for_not_following, a)?,
        for_not_followers: action(&p.for_not_followers, a)?,
        for_new_accounts: action(&p.for_new_accounts, a)?,
        for_private_mentions: action(&p.for_private_mentions, a)?,
        for_limited_accounts: action(&p.for_limited_accounts, a)?,
    })
}

/// The filtered notifications `from` sent `account` (to read, unfilter or delete them).
fn filtered_from(account: i64, from: i64) -> Condition {
    Condition::all()
        .add(notifications::Column::AccountId.eq(account))
        .add(notifications::Column::FromAccountId.eq(from))
        .add(notifications::Column::Filtered.eq(true))
}

/// Request rows with their counts of filtered notifications (one grouped query).
async fn counted<C: ConnectionTrait>(
    db: &C,
    rows: Vec<notification_requests::Model>,
) -> StoreResult<Vec<NotificationRequestRecord>> {
    let mut counts: HashMap<(i64, i64), i64> = HashMap::new();
    let mut by_owner: HashMap<i64, Vec<i64>> = HashMap::new();
    for r in &rows {
        by_owner
            .entry(r.account_id)
            .or_default()
            .push(r.from_account_id);
    }
    for (owner, senders) in by_owner {
        let found: Vec<(i64, i64)> = notifications::Entity::find()
            .select_only()
            .column(notifications::Column::FromAccountId)
            .column_as(notifications::Column::Id.count(), "n")
            .filter(notifications::Column::AccountId.eq(owner))
            .filter(notifications::Column::Filtered.eq(true))
            .filter(notifications::Column::FromAccountId.is_in(senders))
            .group_by(notifications::Column::FromAccountId)
            .into_tuple()
            .all(db)
            .await
            .map_err(backend_err)?;
        for (from, n) in found {
            counts.insert((owner, from), n);
        }
    }
    Ok(rows
        .into_iter()
        .map(|r| NotificationRequestRecord {
            id: Id::from_i64(r.id),
            account_id: Id::from_i64(r.account_id),
            from_account_id: Id::from_i64(r.from_account_id),
            last_status_id: r.last_status_id.map(Id::from_i64),
            notifications_count: counts
                .get(&(r.account_id, r.from_account_id))
                .copied()
                .unwrap_or(0),
            created_at: r.created_at,
            updated_at: r.updated_at,
        })
        .collect())
}

/// Removes what policies keep of `account`: its policy, permissions and requests both ways (see
/// `AccountStore::delete_account`).
pub(super) async fn delete_account_policies<C: ConnectionTrait>(
    db: &C,
    account: i64,
) -> Result<(), sea_orm::DbErr> {
    notification_policies::Entity::delete_by_id(account)
        .exec(db)
        .await?;
    notification_permissions::Entity::delete_many()
        .filter(
            Condition::any()
                .add(notification_permissions::Column::AccountId.eq(account))
                .add(notification_permissions::Column::FromAccountId.eq(account)),
        )
        .exec(db)
        .await?;
    notification_requests::Entity::delete_many()
        .filter(
            Condition::any()
                .add(notification_requests::Column::AccountId.eq(account))
                .add(notification_requests::Column::FromAccountId.eq(account)),
        )
        .exec(db)
        .await?;
    Ok(())
}

#[async_trait]
impl NotificationPolicyStore for SeaStore {
    async fn notification_policy(
        &self,
        account: Id,
    ) -> StoreResult<Option<NotificationPolicyRecord>> {
        notification_policies::Entity::find_by_id(account.as_i64())
            .one(&self.db)
            .await
            .map_err(backend_err)?
            .map(policy_from_row)
            .transpose()
    }

    async fn save_notification_policy(&self, p: &NotificationPolicyRecord) -> StoreResult<()> {
        use notification_policies::Column as C;
        notification_policies::Entity::insert(notification_policies::ActiveModel {
            account_id: Set(p.account_id.as_i64()),
            for_not_following: Set(p.for_not_following.as_str().into()),
            for_not_followers: Set(p.for_not_followers.as_str().into()),
            for_new_accounts: Set(p.for_new_accounts.as_str().into()),
            for_private_mentions: Set(p.for_private_mentions.as_str().into()),
            for_limited_accounts: Set(p.for_limited_accounts.as_str().into()),
        })
        .on_conflict(
            OnConflict::column(C::AccountId)
                .update_columns([
                    C::ForNotFollowing,
                    C::ForNotFollowers,
                    C::ForNewAccounts,
                    C::ForPrivateMentions,
                    C::ForLimitedAccounts,
                ])
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await
        .map_err(backend_err)?;
        Ok(())
    }

    async fn notification_permitted(&self, account: Id, from: Id) -> StoreResult<bool> {
        Ok(
            notification_permissions::Entity::find_by_id((account.as_i64(), from.as_i64()))
                .one(&self.db)
                .await
                .map_err(backend_err)?
                .is_some(),
        )
    }

    async fn note_notification_request(
        &self,
        new_id: Id,
        account: Id,
        from: Id,
        last_status: Option<Id>,
        at: DateTime<Utc>,
    ) -> StoreResult<NotificationRequestRecord> {
        use notification_requests::Column as C;
        let tx = self.begin_write().await?;
        let res = async {
            notification_requests::Entity::insert(notification_requests::ActiveModel {
                id: Set(new_id.as_i64()),
                account_id: Set(account.as_i64()),
                from_account_id: Set(from.as_i64()),
                last_status_id: Set(last_status.map(|s| s.as_i64())),
                created_at: Set(at),
                updated_at: Set(at),
            })
            .on_conflict(
                OnConflict::columns([C::AccountId, C::FromAccountId])
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(&tx)
            .await
            .map_err(backend_err)?;
            let mut update = notification_requests::Entity::update_many()
                .col_expr(C::UpdatedAt, Expr::value(at))
                .filter(C::AccountId.eq(account.as_i64()))
                .filter(C::FromAccountId.eq(from.as_i64()));
            if let Some(s) = last_status {
                update = update.col_expr(C::LastStatusId, Expr::value(s.as_i64()));
            }
            update.exec(&tx).await.map_err(backend_err)?;
            let row = notification_requests::Entity::find()
                .filter(C::AccountId.eq(account.as_i64()))
                .filter(C::FromAccountId.eq(from.as_i64()))
                .all(&tx)
                .await
                .map_err(backend_err)?;
            counted(&tx, row).await?.pop().ok_or(StoreError::NotFound)
        }
        .await;
        finish(tx, res).await
    }

    async fn notification_request_by_id(
        &self,
        id: Id,
    ) -> StoreResult<Option<NotificationRequestRecord>> {
        let rows = notification_requests::Entity::find_by_id(id.as_i64())
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        Ok(counted(&self.db, rows).await?.pop())
    }

    async fn notification_requests_page(
        &self,
        account: Id,
        page: Page,
    ) -> StoreResult<Vec<NotificationRequestRecord>> {
        let q = notification_requests::Entity::find()
            .filter(notification_requests::Column::AccountId.eq(account.as_i64()));
        let rows = paging::apply(q, notification_requests::Column::Id, &page)
            .all(&self.db)
            .await
            .map_err(backend_err)?;
        counted(&self.db, paging::finish(rows, &page)).await
    }

    async fn accept_notification_request(&self, id: Id) -> StoreResult<Vec<NotificationRecord>> {
        let tx = self.begin_write().await?;
        let res = async {
            let Some(r) = notification_requests::Entity::find_by_id(id.as_i64())
                .one(&tx)
                .await
                .map_err(backend_err)?
            else {
                return Ok(vec![]);
            };
            notification_permissions::Entity::insert(notification_permissions::ActiveModel {
                account_id: Set(r.account_id),
                from_account_id: Set(r.from_account_id),
            })
            .on_conflict(
                OnConflict::columns([
                    notification_permissions::Column::AccountId,
                    notification_permissions::Column::FromAccountId,
                ])
                .do_nothing()
                .to_owned(),
            )
            .exec_without_returning(&tx)
            .await
            .map_err(backend_err)?;
            let rows = notifications::Entity::find()
                .filter(filtered_from(r.account_id, r.from_account_id))
                .order_by_asc(notifications::Column::Id)
                .all(&tx)
                .await
                .map_err(backend_err)?;
            notifications::Entity::update_many()
                .col_expr(notifications::Column::Filtered, Expr::value(false))
                .filter(filtered_from(r.account_id, r.from_account_id))
                .exec(&tx)
                .await
                .map_err(backend_err)?;
            notification_requests::Entity::delete_by_id(r.id)
                .exec(&tx)
                .await
                .map_err(backend_err)?;
            rows.into_iter()
                .map(|n| {
                    notification_from_row(n).map(|mut n| {
                        n.filtered = false;
                        n
                    })
                })
                .collect()
        }
        .await;
        finish(tx, res).await
    }

    async fn dismiss_notification_request(&self, id: Id) -> StoreResult<bool> {
        let tx = self.begin_write().await?;
        let res = async {
            let Some(r) = notification_requests::Entity::find_by_id(id.as_i64())
                .one(&tx)
                .await
                .map_err(backend_err)?
            else {
                return Ok(false);
            };
            notifications::Entity::delete_many()
                .filter(filtered_from(r.account_id, r.from_account_id))
                .exec(&tx)
                .await
                .map_err(backend_err)?;
            notification_requests::Entity::delete_by_id(r.id)
                .exec(&tx)
                .await
                .map_err(backend_err)?;
            Ok(true)
        }
        .await;
        finish(tx, res).await
    }
}
